#!/usr/bin/env python3
"""Drives `memhunt triage` in a real terminal (tmux) as a person would, for TriageTerminalTests.

    triage_tmux.py BINARY REPO_ROOT WORKDIR

Types the JustSend answers up to step 5, presses Ctrl-C, resumes with --resume and finishes the walk.
Prints the screens it saw between markers for the Swift test to assert on; exits non-zero with the
screen when a prompt does not appear within 60 s.
"""
import sys

import tmux_server

binary, root, work = sys.argv[1:4]
walk = tmux_server.Walk("memhunt-test", history=2000)
PROMPT = "q quit >"
tmux, stop, screen, wait, type_ = walk.tmux, walk.stop, walk.screen, walk.wait, walk.type_


def start(command):
    walk.start(root, command)


session, report = f"{work}/session.json", f"{work}/report.txt"
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
