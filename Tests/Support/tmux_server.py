"""A private tmux server for the terminal tests (triage_tmux.py, terminal_tmux.py): commands to it by its socket
name, and the way to end it with every process of its panes."""
import ctypes
import os
import signal
import subprocess
import sys

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
