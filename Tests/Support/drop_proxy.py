#!/usr/bin/env python3
"""A loopback HTTP proxy that loses answers, for the exactly-once tests (python3 stdlib only).

Usage: drop_proxy.py --upstream http://127.0.0.1:3000 --drop 'PUT /issues/' [--count 1]
Prints the bound port on its first stdout line; exits when its stdin reaches end of file.

Every request is forwarded to the upstream and its answer relayed, except the first --count requests whose
"METHOD PATH" starts with --drop: those are forwarded, the upstream's answer is read in full, and then the
client's connection is closed without a byte of it (a lost answer: the tracker did the work, the client
cannot know). GET /__log answers a JSON list of "METHOD PATH" lines of every forwarded request.
"""

import argparse
import http.client
import json
import os
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
LOG = []
STATE = {"left": 0}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def handle_any(self):
        if self.command == "GET" and self.path == "/__log":
            with LOCK:
                body = json.dumps(LOG).encode()
            self.close_connection = True
            self.send_response(200)
            self.send_header("Connection", "close")
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        line = f"{self.command} {self.path}"
        with LOCK:
            LOG.append(line)
            drop = line.startswith(self.server.drop) and STATE["left"] > 0
            if drop:
                STATE["left"] -= 1
        upstream = urllib.parse.urlsplit(self.server.upstream)
        connection = http.client.HTTPConnection(upstream.hostname, upstream.port or 80, timeout=60)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
        connection.request(self.command, self.path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        if drop:
            self.close_connection = True
            self.connection.shutdown(2)
            return
        # One request per connection: libcurl sends a request again by itself when a REUSED connection closes
        # before any answer, which would hide the lost answer this proxy simulates.
        self.close_connection = True
        self.send_response(response.status)
        self.send_header("Connection", "close")
        for name, value in response.getheaders():
            if name.lower() not in ("transfer-encoding", "connection", "content-length"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--drop", required=True)
    parser.add_argument("--count", type=int, default=1)
    args = parser.parse_args()
    STATE["left"] = args.count
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.upstream = args.upstream
    server.drop = args.drop
    print(server.server_address[1], flush=True)
    threading.Thread(target=lambda: (sys.stdin.buffer.read(), os._exit(0)), daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
