#!/usr/bin/env python3
"""HTTP server with injectable faults for MemhuntHTTPTests (python3 stdlib only).

Usage: fault_server.py --root DIR [--port 0] [--tls-dir DIR [--tls-names SAN]]. Prints the bound port on
its first stdout line; exits on SIGTERM or when its stdin reaches end of file.

With --tls-dir it serves HTTPS: it makes a test CA (DIR/ca.pem) with openssl and a server certificate it
signs for --tls-names (subjectAltName syntax, default "IP:127.0.0.1,DNS:localhost").

A request whose target is an absolute http:// URL (as a client sends it to a proxy) is served as if its
path had been asked, and logged with "target": the URL as received.

Paths:
  /<file>                      the file under --root, or 404
  /status/<code>               that status with a short text body
  /flaky/<n>/<file>            500 for the first n requests of this exact path, then the file
  /ratelimit/<file>            429 with Retry-After: 1 for the first request of this path, then the file
  /ratelimit-date/<file>       the same with Retry-After as an HTTP-date 2 s ahead
  /stall/<file>                headers and half the body, then silence until the client leaves
  /hang                        accepts the request and never answers
  /big/<bytes>                 Content-Length <bytes>, streams zeros
  /unsized/<bytes>             zeros without Content-Length, ended by closing the connection
  /redirect/<n>/<file>         n redirects, then the file
  /redirect-loop/<n>           302 to /redirect-loop/<n+1>, forever
  /redirect-host/<path>        302 to the same path on http://localhost:<port> (another origin)
  /truncate/<file>             Content-Length of the file, half the body, then closes
  /echo-headers                the request headers as a JSON object
  /gzip/<file>                 the file gzip-compressed, with Content-Encoding: gzip (whatever was asked)
  /gzip-bomb/<mb>              <mb> MB of zeros gzip-compressed (a 1 MB member, about 1 KB, repeated),
                               Content-Encoding: gzip
  /trickle/<bytes>             Content-Length <bytes>, one byte every 0.3 s
  /redirect-ftp                302 to an ftp:// URL
  /big-header                  200 with a 300 KB header line
  /slow/<file>                 the file, one 64-byte piece every 0.2 s
  /chunked/<file>              the file in 1,000-byte chunks (Transfer-Encoding: chunked, a chunk
                               extension, a trailer field)
  /chunked-short/<file>        half the file chunked, then the connection closes without the last chunk
  /chunked-negative            a chunk of size "-1"
  /quiet-close/<file>          the file, then the connection closes (no Connection: close said)
  /post-echo                   (POST) the request body back, with its Content-Type and Content-Length
  /__log                       JSON list of {"path", "status"} for every request but this one
  /__connections               the number of connections accepted so far
"""

import argparse
import gzip
import json
import os
import signal
import ssl
import subprocess
import sys
import urllib.parse
import threading
import time
import zlib
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
CONNECTIONS = [0]
LOG = []
COUNTS = {}
BOMBS = {}


def bomb(megabytes):
    """One gzip member of 1 MB of zeros, repeated: a gzip stream may hold many members (RFC 1952), and `gzip -d`
    decodes them all. Compressing 1,000 MB of zeros for each server took the head past the client's 10 s under a
    loaded CI (four attempts, all timed out); one member is compressed in a millisecond, and the bomb never exists
    decoded in this process."""
    with LOCK:
        if megabytes not in BOMBS:
            member = zlib.compressobj(9, zlib.DEFLATED, 31)
            one = member.compress(bytes(1 << 20)) + member.flush()
            BOMBS[megabytes] = one * megabytes
        return BOMBS[megabytes]


def count(path):
    with LOCK:
        COUNTS[path] = COUNTS.get(path, 0) + 1
        return COUNTS[path]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = "."
    # Headers and body go out in separate writes; with Nagle's algorithm and the client's delayed ACK each
    # response waited ~40 ms, and 5,000 downloads took 65 s instead of a few.
    disable_nagle_algorithm = True

    def log_message(self, format, *args):
        pass

    def handle(self):
        with LOCK:
            CONNECTIONS[0] += 1
        super().handle()

    def parse_request(self):
        if not super().parse_request():
            return False
        self.target = self.path
        if self.path.startswith("http://"):
            url = urllib.parse.urlsplit(self.path)
            self.path = url.path + ("?" + url.query if url.query else "")
        return True

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        if self.path.strip("/") == "post-echo":
            self.reply(200, body, [("Content-Type", self.headers.get("Content-Type") or "-"),
                                   ("X-Received-Length", self.headers.get("Content-Length") or "-")])
        else:
            self.reply(404, b"not found\n")

    def record(self, status):
        with LOCK:
            LOG.append({"path": self.path, "status": status, "target": self.target})

    def head(self, status, length, headers=()):
        self.record(status)
        self.send_response(status)
        self.send_header("Content-Length", str(length))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()

    def reply(self, status, body, headers=()):
        self.head(status, len(body), headers)
        self.wfile.write(body)

    def file(self, name):
        """The file's bytes, or None after answering 404."""
        path = os.path.join(self.root, name)
        if not os.path.isfile(path):
            return self.reply(404, b"not found\n")
        with open(path, "rb") as f:
            return f.read()

    def serve_file(self, name):
        body = self.file(name)
        if body is not None:
            self.reply(200, body)

    def do_GET(self):
        parts = self.path.split("?")[0].strip("/").split("/")
        kind = parts[0]
        if kind == "__log":
            with LOCK:
                body = json.dumps(LOG).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif kind == "__connections":
            with LOCK:
                body = json.dumps(CONNECTIONS[0]).encode()
            self.reply(200, body)
        elif kind in ("chunked", "chunked-short"):
            body = self.file("/".join(parts[1:]))
            if body is not None:
                self.record(200)
                self.send_response(200)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                if kind == "chunked-short":
                    body = body[: len(body) // 2]
                for start in range(0, len(body), 1000):
                    piece = body[start : start + 1000]
                    self.wfile.write(b"%x;piece=%d\r\n%s\r\n" % (len(piece), start, piece))
                if kind == "chunked-short":
                    self.wfile.flush()
                    self.close_connection = True
                else:
                    self.wfile.write(b"0\r\nX-Trailer: done\r\n\r\n")
        elif kind == "chunked-negative":
            self.record(200)
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.write(b"-1\r\nx\r\n0\r\n\r\n")
        elif kind == "quiet-close":
            self.serve_file("/".join(parts[1:]))
            self.close_connection = True
        elif kind == "status":
            self.reply(int(parts[1]), b"status %s\n" % parts[1].encode())
        elif kind == "bearer":
            # An API that answers only with its token, as Sentry's event endpoint does. The path carries the
            # token reversed, so that an output that quotes the URL does not quote the token.
            if self.headers.get("Authorization") == "Bearer " + parts[1][::-1]:
                self.serve_file("/".join(parts[2:]))
            else:
                self.reply(401, b'{"detail": "Authentication credentials were not provided."}\n')
        elif kind == "flaky":
            if count(self.path) <= int(parts[1]):
                self.reply(500, b"flaky\n")
            else:
                self.serve_file("/".join(parts[2:]))
        elif kind in ("ratelimit", "ratelimit-date"):
            if count(self.path) == 1:
                after = "1" if kind == "ratelimit" else formatdate(time.time() + 2, usegmt=True)
                self.reply(429, b"slow down\n", [("Retry-After", after)])
            else:
                self.serve_file("/".join(parts[1:]))
        elif kind == "stall":
            body = self.file("/".join(parts[1:]))
            if body is not None:
                self.head(200, len(body))
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.wait_for_disconnect()
        elif kind == "hang":
            self.record(0)
            self.wait_for_disconnect()
        elif kind == "big":
            total = int(parts[1])
            self.head(200, total)
            self.zeros(total)
        elif kind == "unsized":
            self.record(200)
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            self.zeros(int(parts[1]))
        elif kind == "redirect":
            n = int(parts[1])
            rest = "/".join(parts[2:])
            target = "/redirect/%d/%s" % (n - 1, rest) if n > 1 else "/" + rest
            self.reply(302, b"", [("Location", target)])
        elif kind == "redirect-host":
            target = "http://localhost:%d/%s" % (self.server.server_address[1], "/".join(parts[1:]))
            self.reply(302, b"", [("Location", target)])
        elif kind == "redirect-loop":
            self.reply(302, b"", [("Location", "/redirect-loop/%d" % (int(parts[1]) + 1))])
        elif kind == "truncate":
            body = self.file("/".join(parts[1:]))
            if body is not None:
                self.head(200, len(body))
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.close_connection = True
        elif kind == "echo-headers":
            self.reply(200, json.dumps(dict(self.headers.items())).encode(), [("Content-Type", "application/json")])
        elif kind == "gzip":
            body = self.file("/".join(parts[1:]))
            if body is not None:
                self.reply(200, gzip.compress(body), [("Content-Encoding", "gzip")])
        elif kind == "gzip-bomb":
            self.reply(200, bomb(int(parts[1])), [("Content-Encoding", "gzip")])
        elif kind == "trickle":
            total = int(parts[1])
            self.head(200, total)
            try:
                for _ in range(total):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.3)
            except OSError:
                pass
        elif kind == "redirect-ftp":
            self.reply(302, b"", [("Location", "ftp://127.0.0.1/x.ips")])
        elif kind == "big-header":
            self.reply(200, b"ok\n", [("X-Big", "y" * 300000)])
        elif kind == "slow":
            body = self.file("/".join(parts[1:]))
            if body is not None:
                self.head(200, len(body))
                try:
                    for start in range(0, len(body), 64):
                        self.wfile.write(body[start : start + 64])
                        self.wfile.flush()
                        time.sleep(0.2)
                except OSError:
                    pass
        else:
            self.serve_file("/".join(parts))

    def zeros(self, total):
        chunk = bytes(65536)
        try:
            while total > 0:
                self.wfile.write(chunk[: min(len(chunk), total)])
                total -= len(chunk)
        except OSError:
            pass

    def wait_for_disconnect(self):
        """Sleeps until the client closes the connection (a read returns EOF)."""
        self.close_connection = True
        try:
            while self.rfile.read1(1):
                pass
        except OSError:
            pass


def make_certificates(directory, names):
    """A CA (ca.pem) and a certificate it signs for `names`; returns (certificate, key) paths."""
    def run(*arguments):
        subprocess.run(["openssl", *arguments], cwd=directory, check=True, capture_output=True)

    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=memhunt test CA",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign")
    run("req", *ec, "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=memhunt test server")
    with open(os.path.join(directory, "server.ext"), "w") as f:
        f.write("subjectAltName=" + names + "\nbasicConstraints=CA:FALSE\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "server.pem", "-days", "2", "-extfile", "server.ext")
    return os.path.join(directory, "server.pem"), os.path.join(directory, "server.key")


def main():
    # A child spawned from a libdispatch worker inherits its blocked signals, SIGTERM included.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    # Exit with the parent: it holds our stdin open until it stops us or dies.
    threading.Thread(target=lambda: (sys.stdin.buffer.read(), os._exit(0)), daemon=True).start()
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--tls-dir")
    parser.add_argument("--tls-names", default="IP:127.0.0.1,DNS:localhost")
    args = parser.parse_args()
    Handler.root = args.root
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    if args.tls_dir:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(*make_certificates(args.tls_dir, args.tls_names))
        # The handshake runs in the request's thread, not in the accepting one.
        server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
