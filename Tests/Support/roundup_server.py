#!/usr/bin/env python3
"""A real Roundup tracker (PyPI `roundup`, the classic template on SQLite) on 127.0.0.1, for the tests of
memhunt's HTTP retry policy against a server's own rate limit.

    roundup_server.py --home DIR --password PW [--calls N --interval S] [--file PATH ...]

Installs the tracker in DIR (which must not exist yet), sets its REST rate limit (`api_calls_per_interval`
calls per `api_interval_in_sec` seconds; Roundup answers 429 with `Retry-After` past it), creates the admin
user with PW, stores each --file as a `file` item (ids 1, 2, ... in order, served raw by
`/rest/data/file/N/binary_content`), serves it (Roundup's WSGI dispatcher) and prints its port on the first line of
stdout. The access log (one line per request: method, path, status) is DIR/access.log. The server stops
when this script's stdin closes (the test's end), so it cannot outlive the test run.
"""

import argparse
import os
import subprocess
import sys
import threading
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server


def admin(home, *arguments):
    subprocess.run(
        [sys.executable, "-m", "roundup.scripts.roundup_admin", "-i", home, *arguments],
        check=True,
        stdout=subprocess.DEVNULL,
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--home", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--calls", type=int, default=0)
    parser.add_argument("--interval", type=int, default=3600)
    parser.add_argument("--file", action="append", default=[])
    options = parser.parse_args()

    # The socket is bound first (port 0), so the port the tracker's `web` URL names is the one it serves on;
    # its application is set once the tracker exists. One request at a time: Roundup's SQLite backend made its
    # session table twice when two first requests came at once ("table sessions already exists").
    class Quiet(WSGIRequestHandler):
        def log_message(self, *arguments):
            pass

    server = make_server("127.0.0.1", 0, None, server_class=WSGIServer, handler_class=Quiet)
    port = server.server_port
    home = os.path.abspath(options.home)
    base = f"http://127.0.0.1:{port}/"
    # Options as `section_name=value` (Roundup's names); the rate limit applies to REST calls only.
    settings = [
        f"tracker_web={base}",
        "mail_domain=example.com",
        f"web_api_calls_per_interval={options.calls}",
        f"web_api_interval_in_sec={options.interval}",
    ]
    admin(home, "install", "classic", "sqlite", ",".join(settings))
    admin(home, "initialise", options.password)

    import roundup.instance

    tracker = roundup.instance.open(home)
    db = tracker.open("admin")
    try:
        for path in options.file:
            with open(path, "rb") as handle:
                content = handle.read()
            db.file.create(name=os.path.basename(path), type="application/octet-stream", content=content)
        db.commit()
    finally:
        db.close()

    # Roundup's own WSGI dispatcher behind the standard library's server: `roundup-server` refuses
    # to run as root, which CI is. Every request's status goes to access.log.
    from roundup.cgi.wsgi_handler import RequestDispatcher

    dispatcher = RequestDispatcher(home)
    log = open(os.path.join(home, "access.log"), "a", buffering=1, encoding="utf-8")

    def logged_dispatch(environ, start_response):
        def logged(status, headers, *rest):
            log.write(f"{environ['REQUEST_METHOD']} {environ.get('PATH_INFO', '')} {status.split()[0]}\n")
            return start_response(status, headers, *rest)

        return dispatcher(environ, logged)

    server.set_app(logged_dispatch)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(port, flush=True)
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
