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
Exits non-zero with the screen when something does not appear within 60 s.
"""
import os
import subprocess
import sys
import time

import tmux_server

binary, root, work = sys.argv[1:4]
socket = f"memhunt-term-{os.getpid()}"
MARK = "READY$ "


def tmux(*args, capture=False):
    return tmux_server.tmux(socket, *args, capture=capture)


def stop():
    tmux_server.stop(socket)


def screen(joined=True):
    return tmux("capture-pane", "-p", *(["-J"] if joined else []), "-S", "-2000", "-t", "t", capture=True) or ""


def wait(predicate, what):
    deadline = time.time() + 60
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
finally:
    stop()
