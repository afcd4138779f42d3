#!/usr/bin/env python3
"""Drives memhunt in a real 80-column terminal (tmux, bash) as a person would, for TerminalTmuxTests.

    terminal_tmux.py BINARY REPO_ROOT WORKDIR

Prints each screen it saw after a line `=== NAME` for the Swift test to assert on:
  completion-subcommand  `memhunt chec<TAB>` in a folder that holds checks/
  completion-format      `memhunt run --format <TAB><TAB>`
  completion-app         `memhunt run --app <TAB><TAB>` (the value is a name: no file names)
  report                 `memhunt run --app JustSend Fixtures/justsend` on the terminal, lines joined (-J)
  progress               the same with stdout to a file: what stderr left on the screen
  piped                  the same piped to head: at the terminal's width too (stderr's terminal)
  big-read               `memhunt run` of a 300 MB change log, stdout to a file: the screen it left, then
                         `=== big-read-raw`: every byte the terminal was sent meanwhile (the percentages)
  big-quiet              `memhunt run -q` of the same log on the terminal: the verdict and the summary only
  triage                 `memhunt triage` to step 2's prompt, `?` answered with the step's guidance, then
                         Ctrl-C: its prompts and the resume line at 80 columns
Exits non-zero with the screen when something does not appear within 60 s (600 s for the 300 MB reads).
"""
import os
import subprocess
import sys
import time

import tmux_server

binary, root, work = sys.argv[1:4]
socket = f"memhunt-term-{os.getpid()}"
MARK = "READY$ "
# A debug build reads the 300 MB log beside the rest of the suite on two cores: this test is about what the
# screen shows, not how fast, so the large reads get as long as they need within reason.
BIG_READ_SECONDS = 600


def tmux(*args, capture=False):
    return tmux_server.tmux(socket, *args, capture=capture)


def stop():
    tmux_server.stop(socket)


def screen(joined=True):
    return tmux("capture-pane", "-p", *(["-J"] if joined else []), "-S", "-2000", "-t", "t", capture=True) or ""


def wait(predicate, what, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate(screen()):
            return
        time.sleep(0.1)
    sys.stdout.write(f"TIMEOUT waiting for {what}; the screen:\n{screen()}\n")
    stop()
    sys.exit(1)


def clear():
    tmux("send-keys", "-t", "t", "C-u")
    tmux("send-keys", "-t", "t", "-l", "clear")
    tmux("send-keys", "-t", "t", "Enter")
    tmux("clear-history", "-t", "t")
    wait(lambda s: s.strip() == MARK.strip(), "a clear screen")


def keys(*parts):
    for part in parts:
        if part in ("Tab", "Enter"):
            tmux("send-keys", "-t", "t", part)
        else:
            tmux("send-keys", "-t", "t", "-l", part)
        time.sleep(0.3)


def show(name):
    sys.stdout.write(f"=== {name}\n{screen()}\n")


os.makedirs(f"{work}/checks", exist_ok=True)
bindir = os.path.dirname(binary)
with open(f"{work}/memhunt.bash", "w") as script:
    script.write(subprocess.run([binary, "completions", "bash"], check=True, text=True, capture_output=True).stdout)
with open(f"{work}/bashrc", "w") as rc:
    rc.write(f"PS1='{MARK}'\nexport PATH='{bindir}':$PATH\nunset COLUMNS\nbind 'set bell-style none'\n")
    rc.write(f"source '{work}/memhunt.bash'\ncd '{work}'\n")
try:
    tmux("new-session", "-d", "-x", "80", "-y", "50", "-s", "t", f"env -i HOME='{work}' TERM=xterm-256color "
         f"PATH=/usr/bin:/bin bash --noprofile --rcfile '{work}/bashrc' -i")
    wait(lambda s: MARK in s, "the prompt")

    keys("memhunt chec", "Tab")
    wait(lambda s: "memhunt checks" in s, "the completion of chec")
    time.sleep(0.5)
    show("completion-subcommand")
    clear()

    keys("memhunt run --format ", "Tab", "Tab")
    wait(lambda s: "markdown" in s, "the formats")
    show("completion-format")
    clear()

    keys("memhunt run --app ", "Tab", "Tab")
    time.sleep(1.5)
    show("completion-app")
    clear()

    keys(f"cd '{root}' && memhunt run --app JustSend Fixtures/justsend; echo EXIT=$?", "Enter")
    wait(lambda s: "\nEXIT=" in s, "the report")
    show("report")
    clear()

    keys(f"memhunt run --app JustSend Fixtures/justsend >'{work}/report.txt'; echo EXIT=$?", "Enter")
    wait(lambda s: "\nEXIT=" in s, "the run")
    show("progress")
    clear()

    # Piped to a pager, the report is still read on this terminal: its width, not 100.
    keys(f"memhunt run --app JustSend Fixtures/justsend | head -40; echo EXIT=$?", "Enter")
    wait(lambda s: "\nEXIT=" in s, "the piped report")
    show("piped")
    clear()

    # A change log of 300 MB: a realistic 30 MB one (Benchmarks/changelog_gen.py) ten times over.
    log = f"{work}/big.log"
    subprocess.run([sys.executable, f"{root}/Benchmarks/changelog_gen.py", "write", f"{work}/part.log",
                    "--style", "console", "--size-mb", "30"], check=True)
    with open(log, "wb") as out, open(f"{work}/part.log", "rb") as part:
        chunk = part.read()
        for _ in range(10):
            out.write(chunk)
    os.remove(f"{work}/part.log")
    raw = f"{work}/raw.txt"
    tmux("pipe-pane", "-t", "t", "-o", f"cat >> '{raw}'")
    keys(f"memhunt run '{log}' >'{work}/big.txt'; echo EXIT=$?", "Enter")
    wait(lambda s: "\nEXIT=" in s, "the read of the large log", BIG_READ_SECONDS)
    tmux("pipe-pane", "-t", "t")
    show("big-read")
    with open(raw, "rb") as recorded:
        sys.stdout.write("=== big-read-raw\n" + recorded.read().decode("utf-8", "replace") + "\n")
    clear()

    keys(f"memhunt run -q '{log}'; echo EXIT=$?", "Enter")
    wait(lambda s: "\nEXIT=" in s, "the quiet run", BIG_READ_SECONDS)
    show("big-quiet")
    clear()

    keys(f"memhunt triage --app JustSend --session '{work}/session.json'; echo EXIT=$?", "Enter")
    wait(lambda s: "What did the user report" in s, "triage's first question")
    keys("The screen transition stops but scrolling still works", "Enter")
    wait(lambda s: "Playbook: memory-hunt" in s, "the playbook")
    keys("", "Enter")
    wait(lambda s: "q quit >" in s, "step 1's prompt")
    keys("", "Enter")
    wait(lambda s: s.count("q quit >") >= 2, "step 2's prompt")
    keys("?", "Enter")
    wait(lambda s: s.count("q quit >") >= 3, "the prompt after the guidance")
    tmux("send-keys", "-t", "t", "C-c")
    wait(lambda s: "\nEXIT=" in s, "the interrupted triage")
    show("triage")
finally:
    stop()
