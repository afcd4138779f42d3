#!/usr/bin/env python3
"""`memhunt mcp` answers while a tool call runs, and a cancelled call stops and stays unanswered.

Usage: mcp_cancel.py MEMHUNT_BINARY (run from the repository root: the artifact is Fixtures/justsend/...).
Exits 0 when every check holds, 1 with the failed check on stderr.

Raw JSON-RPC lines on the server's stdin and stdout, as a stdio client writes them: a `run` whose playbook's
external check sleeps (its shell writes its pid to a file, then becomes `sleep 60`), a ping answered while it
runs, `notifications/cancelled` for the run, the sleep gone within seconds, no answer to the run ever, another
ping answered, the same for a hunt step (`hunt_answer`) whose check sleeps, and the server ending when its input
ends.
"""

import json
import os
import select
import subprocess
import sys
import tempfile
import time


def fail(message):
    print("FAILED: " + message, file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)
    print("ok: " + message)


def main():
    binary = sys.argv[1]
    folder = tempfile.mkdtemp(prefix="memhunt-mcp-cancel.")
    pidfile = os.path.join(folder, "sleep.pid")
    playbook = os.path.join(folder, "slow.yaml")
    with open(playbook, "w") as f:
        f.write(
            "id: slow\n"
            "title: A slow check\n"
            "summary: One external check that sleeps.\n"
            "steps:\n"
            "  - id: jetsam-record\n"
            "    title: Jetsam record\n"
            "    reads: [jetsam-event]\n"
            "    checks:\n"
            f"      - exec: [sh, -c, 'echo $$ > {pidfile}; exec sleep 60']\n"
            "        timeout: 120\n")
    server = subprocess.Popen([binary, "mcp", "--allow-exec"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, cwd=os.getcwd())
    answers = []
    pending = b""

    def send(message):
        server.stdin.write((json.dumps(message) + "\n").encode())
        server.stdin.flush()

    def read_until(predicate, seconds):
        """Reads answers until one satisfies `predicate` (returned) or `seconds` pass (None)."""
        nonlocal pending
        end = time.monotonic() + seconds
        while True:
            for answer in answers:
                if predicate(answer):
                    return answer
            left = end - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([server.stdout], [], [], left)
            if not ready:
                continue
            chunk = os.read(server.stdout.fileno(), 65536)
            if not chunk:
                return None
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                answers.append(json.loads(line))

    def answered(request_id):
        return lambda answer: answer.get("id") == request_id

    def started_check(what):
        """The pid the external check of `what` wrote once it started (within 60 s)."""
        end = time.monotonic() + 60
        while not os.path.exists(pidfile) or not open(pidfile).read().strip():
            if time.monotonic() > end:
                fail("the %s's external check did not start within 60 s" % what)
            time.sleep(0.05)
        pid = int(open(pidfile).read().strip())
        print("ok: the %s's external check started (pid %d)" % (what, pid))
        return pid

    def cancel(request_id, pid, what):
        """Cancels request `request_id` and sees the process `pid` gone within 15 s."""
        send({"jsonrpc": "2.0", "method": "notifications/cancelled",
              "params": {"requestId": request_id, "reason": "test"}})
        end = time.monotonic() + 15
        while True:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            if time.monotonic() > end:
                fail("the cancelled %s's external check (pid %d) still runs after 15 s" % (what, pid))
            time.sleep(0.05)
        print("ok: the cancelled %s's external check is gone" % what)

    try:
        send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                         "clientInfo": {"name": "mcp_cancel", "version": "1"}}})
        check(read_until(answered(0), 30) is not None, "initialize is answered")
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
              "params": {"name": "run", "arguments": {
                  "artifacts": ["Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips"], "playbook": playbook}}})
        pid = started_check("run")
        send({"jsonrpc": "2.0", "id": 2, "method": "ping"})
        check(read_until(answered(2), 10) is not None, "a ping is answered while the run runs")
        check(not any(a.get("id") == 1 for a in answers), "the run has not answered yet")
        cancel(1, pid, "run")
        # Many requests in a row (the server drops the answered ones from what it waits for as more come).
        for request_id in range(100, 250):
            send({"jsonrpc": "2.0", "id": request_id, "method": "ping"})
        wanted = set(range(100, 250))
        end = time.monotonic() + 30
        while not wanted <= {a.get("id") for a in answers} and time.monotonic() < end:
            read_until(lambda answer: False, 0.2)
        check(wanted <= {a.get("id") for a in answers}, "150 pings in a row are answered")
        send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "checks", "arguments": {}}})
        third = read_until(answered(3), 30)
        check(third is not None and not third["result"].get("isError"), "the next tool call runs and is answered")
        # A hunt step cancelled while its external check runs: the check stops too, as a run's does.
        os.remove(pidfile)
        send({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "hunt_start", "arguments": {
            "artifacts": ["Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips"], "playbook": playbook}}})
        started = read_until(answered(4), 30)
        if started is None or started["result"].get("isError"):
            fail("hunt_start was not answered, or with an error: %s" % started)
        print("ok: a hunt starts")
        session = started["result"]["structuredContent"]["session"]
        send({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
              "params": {"name": "hunt_answer", "arguments": {"session": session, "answer": ""}}})
        cancel(5, started_check("hunt step"), "hunt step")
        # A hunt step whose process dies (its check kills the memhunt that runs it, as a crash or the memory limit
        # would): the call answers with an error, the session is over, and the server and another session go on.
        # When hunt steps ran in the server, the server itself died here.
        deadly = os.path.join(folder, "deadly.yaml")
        with open(deadly, "w") as f:
            f.write(
                "id: deadly\n"
                "title: A check that ends its memhunt\n"
                "summary: One external check that kills the process that runs it.\n"
                "steps:\n"
                "  - id: jetsam-record\n"
                "    title: Jetsam record\n"
                "    reads: [jetsam-event]\n"
                "    checks:\n"
                "      - exec: [sh, -c, 'kill -KILL $PPID']\n")
        send({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "hunt_start", "arguments": {
            "artifacts": ["Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips"], "playbook": deadly}}})
        doomed = read_until(answered(6), 30)
        if doomed is None or doomed["result"].get("isError"):
            fail("hunt_start of the deadly playbook was not answered, or with an error: %s" % doomed)
        doomed_session = doomed["result"]["structuredContent"]["session"]
        send({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
              "params": {"name": "hunt_answer", "arguments": {"session": doomed_session, "answer": ""}}})
        died = read_until(answered(7), 60)
        text = (died or {}).get("result", {}).get("content", [{}])[0].get("text", "")
        check(died is not None and died["result"].get("isError") and "ended by signal 9" in text,
              "a hunt step whose process dies answers with an error: %s" % text)
        check(server.poll() is None, "the server outlives the hunt step's process")
        send({"jsonrpc": "2.0", "id": 8, "method": "tools/call",
              "params": {"name": "hunt_answer", "arguments": {"session": doomed_session, "answer": ""}}})
        over = read_until(answered(8), 30)
        over_text = (over or {}).get("result", {}).get("content", [{}])[0].get("text", "")
        check("is over" in over_text, "the session whose step died is over: %s" % over_text)
        send({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "hunt_start", "arguments": {
            "artifacts": ["Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips"], "app": "JustSend"}}})
        fresh = read_until(answered(9), 30)
        check(fresh is not None and not fresh["result"].get("isError"), "another hunt starts after it")
        fresh_session = fresh["result"]["structuredContent"]["session"]
        send({"jsonrpc": "2.0", "id": 10, "method": "tools/call",
              "params": {"name": "hunt_answer", "arguments": {"session": fresh_session, "answer": ""}}})
        ran = read_until(answered(10), 60)
        check(ran is not None and not ran["result"].get("isError")
              and ran["result"]["structuredContent"].get("response") in ("ran", "skipped"),
              "and its first step is answered: %s" % ((ran or {}).get("result", {}).get("structuredContent")))
        server.stdin.close()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            fail("the server did not end within 20 s of the end of its input")
        read_until(lambda answer: False, 0.5)
        check(server.returncode == 0, "the server ends with status 0 at the end of its input")
        check(not any(a.get("id") == 1 for a in answers), "the cancelled run is never answered")
        check(not any(a.get("id") == 5 for a in answers), "the cancelled hunt step is never answered")
    finally:
        if server.poll() is None:
            server.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
