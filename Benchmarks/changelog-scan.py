#!/usr/bin/env python3
"""Benchmark: summarize a 1 GB SwiftUI change log with memhunt, beside awk counting the same views.

Generates the log once (under $TMPDIR, reused when the size matches), builds memhunt in release
mode, runs `memhunt inspect --format json LOG` and an awk one-liner over the same file, and prints
wall time, throughput and peak memory (max RSS of the child, from wait4) for both, plus whether
their per-view counts agree. The target from the issue: memhunt's peak memory under 64 MB.

    Benchmarks/changelog-scan.py [--size-mb 1024] [--keep]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# One burst of a drawer gesture and a thumbnail fan-out, in Xcode-console form; generic key paths
# carry commas so the item splitter is exercised too.
BURST = [
    "RootView: _dragProgress changed.",
    "StreamScreen: @self changed.",
    "LibraryScreen: _thumbnailStore changed.",
    "ThumbnailGrid: \\ThumbnailStore.<computed> (Dictionary<String, Int>) changed.",
    "SidebarView: @dependencies changed.",
    "StatusBar: unchanged.",
    "LibraryRow: @self, _isSelected changed.",
    "ChangedBodyPropertyTests.ContentView: @self, @identity, _count changed.",
]


def generate(path, size):
    """Writes `size` bytes of timestamped change-log lines; returns the expected per-view counts."""
    counts = {}
    block_lines = []
    for i in range(2000):
        stamp = "2026-08-12 14:%02d:%02d.%06d+0900" % (i // 3600 % 60, i // 60 % 60, (i * 2000) % 1000000)
        for line in BURST:
            block_lines.append("%s Memo[48211:3456789] %s" % (stamp, line))
    block = ("\n".join(block_lines) + "\n").encode()
    per_block = {}
    for line in BURST:
        view = line.split(": ", 1)[0]
        per_block[view] = per_block.get(view, 0) + 2000
    written = 0
    with open(path, "wb") as f:
        while written + len(block) <= size:
            f.write(block)
            written += len(block)
            for view, n in per_block.items():
                counts[view] = counts.get(view, 0) + n
    return counts


def measure(argv, stdout_path):
    """Runs argv with stdout to a file; returns (seconds, peak RSS in MB)."""
    with open(stdout_path, "wb") as out:
        start = time.monotonic()
        child = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.monotonic() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit("%s failed with %d: %s" % (argv[0], child.returncode, child.stderr.read().decode()[:500]))
    # ru_maxrss is KB on Linux and bytes on macOS.
    peak = usage.ru_maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)
    return seconds, peak


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--keep", action="store_true", help="keep the generated log")
    args = parser.parse_args()

    work = os.path.join(tempfile.gettempdir(), "memhunt-bench")
    os.makedirs(work, exist_ok=True)
    log = os.path.join(work, "changelog-%dmb.log" % args.size_mb)
    print("generating %s ..." % log, file=sys.stderr)
    expected = generate(log, args.size_mb * 1024 * 1024)
    size = os.path.getsize(log)

    print("building memhunt (release) ...", file=sys.stderr)
    subprocess.run(["swift", "build", "-c", "release", "--product", "memhunt"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    memhunt = os.path.join(ROOT, ".build", "release", "memhunt")

    m_seconds, m_peak = measure([memhunt, "inspect", "--format", "json", log], os.path.join(work, "memhunt.json"))
    with open(os.path.join(work, "memhunt.json")) as f:
        facts = json.load(f)[0]["facts"]
    m_views = facts["changes.byLog"][os.path.splitext(os.path.basename(log))[0]]["views"]

    awk = ("/ (un)?changed\\.$/ { line = $0; sub(/^.*\\] /, \"\", line); "
           "i = index(line, \": \"); n[substr(line, 1, i - 1)]++ } END { for (k in n) print n[k] \"\\t\" k }")
    a_seconds, a_peak = measure(["awk", awk, log], os.path.join(work, "awk.txt"))
    a_views = {}
    with open(os.path.join(work, "awk.txt")) as f:
        for row in f:
            count, view = row.rstrip("\n").split("\t", 1)
            a_views[view] = int(count)

    mb = size / 1048576
    print("change log: %.0f MB, %s lines, %d views" % (mb, format(sum(expected.values()), ","), len(expected)))
    print("%-8s %9s %10s %14s %14s" % ("tool", "seconds", "MB/s", "peak RSS (MB)", "evaluations"))
    for name, seconds, peak, views in (("memhunt", m_seconds, m_peak, m_views), ("awk", a_seconds, a_peak, a_views)):
        print("%-8s %9.2f %10.1f %14.1f %14s" % (name, seconds, mb / seconds, peak, format(sum(views.values()), ",")))
    agree = m_views == a_views == expected
    print("per-view counts agree (memhunt, awk, generator): %s" % ("yes" if agree else "NO"))
    target = m_peak < 64
    print("target: memhunt peak memory under 64 MB: %s (%.1f MB)" % ("met" if target else "MISSED", m_peak))
    if not args.keep:
        os.remove(log)
    sys.exit(0 if agree and target else 1)


if __name__ == "__main__":
    main()
