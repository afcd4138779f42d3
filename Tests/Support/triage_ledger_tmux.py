#!/usr/bin/env python3
"""Drives `memhunt triage` through a two-experiment ledger in a real terminal (tmux), for
TriageTerminalTests.

    triage_ledger_tmux.py BINARY REPO_ROOT WORKDIR

WORKDIR holds a copy of Fixtures/ledgers/seed000. Walks JustSend's hunt to step 8, types a hypothesis
(`h …`), answers its experiment (judged worse), types a second hypothesis, presses Ctrl-C in the middle of
it, resumes with --resume, tests the second hypothesis (judged the cause) and finishes the walk. Prints the
screens it saw between markers; exits non-zero with the screen when a prompt does not appear within 60 s.
"""
import sys

import tmux_server

binary, root, work = sys.argv[1:4]
walk = tmux_server.Walk("memhunt-ledger-test", history=3000)
PROMPT = "q quit >"
tmux, stop, screen, wait, type_ = walk.tmux, walk.stop, walk.screen, walk.wait, walk.type_


def start(command):
    walk.start(work, command)


session, report = f"{work}/session.json", f"{work}/report.txt"
try:
    start(f"'{binary}' triage --app JustSend --session '{session}' -o '{report}' seed000")
    wait("What did the user report")
    type_("The app gets slow, and then the whole phone is slow")
    wait("Playbook: memory-hunt")
    type_("")
    for n in range(1, 8):
        wait("Step %d/8" % n)
        wait(PROMPT, n)
        type_("")
    wait("A hypothesis to test? Type h")
    wait("Step 8/8")
    wait(PROMPT, 8)
    type_("h one Markdown renderer per sentence is too heavy")
    wait("The ledger to keep it in")
    type_("")
    wait("What shows the symptom in an artifact?")
    type_("repro.peakMB above 300")
    wait("The one variable you change")
    type_("one renderer per block instead of per sentence")
    wait("Baseline: its artifacts")
    type_("seed000/measurements.json [one-block]")
    wait("Variant: its artifacts")
    type_("seed000/measurements.json [renderer-per-block]")
    wait("The measure that decides")
    type_("")
    wait("Next: a false lead that made it worse")
    print("=== first-experiment\n" + screen())
    wait(PROMPT, 15)
    type_("h the memo as one block materializes every line")
    wait("The one variable you change", 2)
    type_("the same memo split into 2,500 blocks")
    wait("Baseline: its artifacts", 2)
    tmux("send-keys", "-t", "t", "C-c")
    wait("Interrupted at step 8")
    print("=== interrupted\n" + screen())

    start(f"'{binary}' triage --resume '{session}'")
    wait("Resuming memory-hunt at step 8")
    wait(PROMPT)
    type_("h the memo as one block materializes every line")
    wait("The one variable you change")
    type_("the same memo split into 2,500 blocks")
    wait("Baseline: its artifacts")
    type_("seed000/measurements.json [one-block]")
    wait("Variant: its artifacts")
    type_("seed000/measurements.json [2500-blocks]")
    wait("The measure that decides")
    type_("repro.peakMB")
    wait("Next: measure the fix")
    print("=== second-experiment\n" + screen())
    type_("")
    wait("Write a postmortem draft")
    type_("")
    wait("Attach the findings")
    type_("")
    wait("memhunt: wrote")
    print("=== resumed\n" + screen())
finally:
    stop()
