#!/usr/bin/env python3
"""Drives `memhunt triage` in a real terminal (tmux) as a person would, for TriageTerminalTests.

    triage_tmux.py BINARY REPO_ROOT WORKDIR

Types the JustSend answers up to step 5, presses Ctrl-C, resumes with --resume and finishes the walk.
Prints the screens it saw between markers for the Swift test to assert on; exits non-zero with the
screen when a prompt does not appear within 60 s.
"""
import os
import sys
import time

import tmux_server

binary, root, work = sys.argv[1:4]
sockets = iter(f"memhunt-test-{os.getpid()}-{n}" for n in range(3))
socket = next(sockets)
PROMPT = "q quit >"


def tmux(*args, capture=False):
    return tmux_server.tmux(socket, *args, capture=capture)


def stop():
    tmux_server.stop(socket)


def screen():
    return tmux("capture-pane", "-p", "-J", "-S", "-2000", "-t", "t", capture=True) or ""


def wait(text, count=1):
    deadline = time.time() + 60
    while time.time() < deadline:
        if screen().count(text) >= count:
            return
        time.sleep(0.1)
    sys.stdout.write(f"TIMEOUT waiting for {text!r} x{count}; the screen:\n{screen()}\n")
    stop()
    sys.exit(1)


def type_(text):
    if text:
        tmux("send-keys", "-t", "t", "-l", text)
    tmux("send-keys", "-t", "t", "Enter")


def start(command):
    global socket
    stop()
    socket = next(sockets)
    tmux("new-session", "-d", "-x", "200", "-y", "60", "-s", "t", f"cd '{root}' && {command}; sleep 120")


session, report = f"{work}/session.json", f"{work}/report.txt"
socket = f"memhunt-test-{os.getpid()}-unused"
try:
    start(f"'{binary}' triage --app JustSend --session '{session}' -o '{report}'")
    wait("What did the user report")
    type_("The screen transition stops but scrolling still works")
    wait("Playbook: memory-hunt")
    type_("")
    for n, answer in enumerate(["", "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", "", ""], start=1):
        wait(PROMPT, n)
        type_(answer)
    wait("Step 5/8")
    wait(PROMPT, 5)
    print("=== before-interrupt\n" + screen())
    tmux("send-keys", "-t", "t", "C-c")
    wait("Interrupted at step 5")
    print("=== interrupted\n" + screen())

    start(f"'{binary}' triage --resume '{session}'")
    wait("Resuming memory-hunt at step 5")
    answers = [
        "Fixtures/justsend/measurements-detail.csv", "", "Fixtures/justsend/measurements-variation.json",
        "Fixtures/justsend/drawer-before.log",
    ]
    for n, answer in enumerate(answers, start=1):
        wait(PROMPT, n)
        type_(answer)
    wait(f"memhunt: wrote {report}")
    print("=== resumed\n" + screen())
finally:
    stop()
