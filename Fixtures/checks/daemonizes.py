#!/usr/bin/env python3
"""Reads the request, starts `sleep 60` as a daemon (fork, setsid, fork again: a session and process group
of its own, its parent gone), writes the daemon's pid to the file named by the first argument and answers;
with a second argument `hang`, it hangs instead. A check that leaves a process behind outside its group."""
import os
import sys
import time

sys.stdin.read()
pidfile = sys.argv[1]
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        with open(pidfile + ".part", "w") as out:
            out.write(str(os.getpid()))
        os.rename(pidfile + ".part", pidfile)
        os.execvp("sleep", ["sleep", "60"])
    os._exit(0)
os.wait()
for _ in range(500):
    if os.path.exists(pidfile):
        break
    time.sleep(0.01)
if sys.argv[2:] == ["hang"]:
    time.sleep(600)
print('{"fact": "check.daemonized", "value": true}')
