"""A private tmux server for the terminal tests (triage_tmux.py, terminal_tmux.py): commands to it by its socket
name, and the way to end it with every process of its panes."""
import os
import signal
import subprocess


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
