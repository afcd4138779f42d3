#!/usr/bin/env python3
"""A loopback HTTP proxy that tunnels CONNECT requests, for the HTTPS-through-a-proxy tests (stdlib only).

Usage: connect_proxy.py. Prints the bound port on its first stdout line; exits when its stdin reaches end of
file. `CONNECT host:port` opens a tunnel to that address (127.0.0.1 only) and relays bytes both ways;
`GET /__log` answers a JSON list of the CONNECT targets seen, in order. Anything else gets 405.
"""

import json
import os
import select
import signal
import socket
import socketserver
import sys
import threading

LOCK = threading.Lock()
LOG = []


class Handler(socketserver.StreamRequestHandler):
    def handle(self):
        line = self.rfile.readline(65536).decode("latin-1").strip()
        while self.rfile.readline(65536) not in (b"\r\n", b"\n", b""):
            pass
        parts = line.split()
        if len(parts) == 3 and parts[0] == "GET" and parts[1] == "/__log":
            with LOCK:
                body = json.dumps(LOG).encode()
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                             b"Content-Length: %d\r\n\r\n" % len(body) + body)
            return
        if len(parts) != 3 or parts[0] != "CONNECT":
            self.wfile.write(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        host, _, port = parts[1].rpartition(":")
        with LOCK:
            LOG.append(parts[1])
        if host not in ("127.0.0.1", "localhost"):
            self.wfile.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        upstream = socket.create_connection(("127.0.0.1", int(port)))
        self.wfile.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        self.wfile.flush()
        client = self.connection
        sockets = [client, upstream]
        try:
            while True:
                readable, _, _ = select.select(sockets, [], [], 30)
                if not readable:
                    return
                for source in readable:
                    data = source.recv(65536)
                    if not data:
                        return
                    (upstream if source is client else client).sendall(data)
        finally:
            upstream.close()


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    threading.Thread(target=lambda: (sys.stdin.buffer.read(), os._exit(0)), daemon=True).start()
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
