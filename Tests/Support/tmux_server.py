"""A private tmux server for the terminal tests (triage_tmux.py, triage_ledger_tmux.py, terminal_tmux.py): commands to it by its socket
name, and the way to end it with every process of its panes."""
import ctypes
import os
import signal
import subprocess
import sys
import time

# tmux's server daemonizes (fork, setsid): its parent exits and it is reparented to the nearest subreaper.
# The test process is one (memhunt's external-check runner makes it one), and adopts it as a check's
# leftover and kills it when an external-check test ends meanwhile (seen: ExampleExternalCheckTests and
# TerminalTmuxTests failing together). This script becomes the subreaper instead, and `stop` ends the server.
if sys.platform.startswith("linux"):
    try:
        ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass


def tmux(socket, *args, capture=False):
    """`tmux -L SOCKET ARGS…`; its stdout when `capture`."""
    return subprocess.run(
        ["tmux", "-L", socket, *args], check=False, text=True,
        stdout=subprocess.PIPE if capture else subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    ).stdout


def stop(socket):
    """Ends the pane's processes, then the server. `kill-server` alone left the shell, memhunt and the tmux
    server running (seen: 6 servers and their `memhunt triage` prompts, hours after their tests passed)."""
    for pid in (tmux(socket, "list-panes", "-a", "-F", "#{pane_pid}", capture=True) or "").split():
        try:
            os.killpg(int(pid), signal.SIGKILL)
        except (ValueError, ProcessLookupError, PermissionError):
            pass
    tmux(socket, "kill-server")


class Walk:
    """A command walked through in a 200×60 pane of a private server, as a person types: `start` (again) begins
    it on a fresh server, `wait` for text on the screen (the scrollback of `history` lines included), `type_`
    a line. A prompt that does not appear within 60 s prints the screen and exits 1."""

    def __init__(self, name, history=2000):
        self.sockets = iter(f"{name}-{os.getpid()}-{n}" for n in range(3))
        self.socket = f"{name}-{os.getpid()}-unused"
        self.history = history

    def tmux(self, *args, capture=False):
        return tmux(self.socket, *args, capture=capture)

    def stop(self):
        stop(self.socket)

    def screen(self):
        return self.tmux("capture-pane", "-p", "-J", "-S", f"-{self.history}", "-t", "t", capture=True) or ""

    def wait(self, text, count=1):
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.screen().count(text) >= count:
                return
            time.sleep(0.1)
        sys.stdout.write(f"TIMEOUT waiting for {text!r} x{count}; the screen:\n{self.screen()}\n")
        self.stop()
        sys.exit(1)

    def type_(self, text):
        if text:
            self.tmux("send-keys", "-t", "t", "-l", text)
        self.tmux("send-keys", "-t", "t", "Enter")

    def start(self, folder, command):
        self.stop()
        self.socket = next(self.sockets)
        self.tmux("new-session", "-d", "-x", "200", "-y", "60", "-s", "t", f"cd '{folder}' && {command}; sleep 120")
