#!/usr/bin/env python3
"""Benchmarks of issue 13 ("Fast and frugal"): memhunt beside a standard tool on the same input.

Builds memhunt with scripts/build-release (release; static Swift runtime on Linux), generates the
inputs deterministically (seeded, under $TMPDIR, reused when present) and prints one row per work:
wall time and CPU time (medians of --runs runs; CPU time moves less when the machine is shared), peak
RSS (/usr/bin/time -v, one extra run), memhunt's wall time over the standard tool's, the target, and
whether it is met. memhunt and the tool beside it run in turn (A B A B ...), so that the host's drift
reaches both alike. Rows:

  change log   a 1 GiB SwiftUI `_printChanges` log to per-view counts: `memhunt inspect --format json`
               beside mawk counting the same views (the answers are compared).
  realistic    1 GiB change logs shaped like real ones (Benchmarks/changelog_gen.py: 200 long and generic views,
               1-4 of ~30 properties a line in any order, other subsystems' lines, bursts and gaps, several
               threads, a few malformed lines) in three styles: the console's, `log show --style ndjson` and
               `--style json`. `memhunt inspect --format json` beside mawk counting the views and `wc -l`
               (the read floor); memhunt's evaluations, views and processes are compared with the generator's
               reference counter (its counts are kept beside the log as .counts.json).
  views        the realistic console log of a large app: 3,000 views (90,000 view and property pairs), a
               quarter of --size-mb; the same comparisons. A shape, not a target: its tables outgrow the
               caches that 200 views fit in.
  jetsam       one 200 KB JetsamEvent of 442 processes through steps 2-4 (`memhunt run --app`) beside jq
               computing the same rank, peak, resident size and compressions (compared).
  xctrace      a 1 GiB `xctrace export` of a `virtual-memory` table (generated in the real export's shape: ids
               given once and referred to with `ref`, threads nesting their process, backtraces with frames
               and binaries) to bytes per VM operation: `memhunt inspect --format json` beside Python's
               `xml.etree.ElementTree.iterparse` resolving the same refs (the answers are compared).
  justsend     the full eight-step run on Fixtures/justsend beside `memhunt --version` (process start).
  fleet        10,000 generated JetsamEvents (Tests/Support/gen_jetsam.py, 40 MB in 10 folders) to per-app
               figures: `memhunt scan --format json` beside Benchmarks/fleet_scan.py, a single-process
               Python `json` loop computing the same figures (compared). On this 2-core machine with
               nothing else running (2026-11-30, files in the page cache): release
               (scripts/build-release) 0.18 s wall, 0.30 s CPU, 27 MB peak RSS, 57,000 records/s; the
               Python loop 0.67 s, 14.6 MB, 15,000 records/s. With another engineer's jobs holding about
               one core: 0.48 s against 0.78 s; the debug build 3.4 s, 35 MB. memhunt now hashes every file it reads whole (the same bytes twice are
               one record): SHA-256 of the 40 MB is 0.03 s of CPU (openssl dgst, 2026-12-02), about a tenth
               of the scan's 0.30 s; not re-measured with the scan itself.
               The first run right after generating the 40 MB took 9.3 s wall for 0.9 s CPU (the new
               files still being written back): read the CPU column.
               `--fleet-sizes 10000,100000,1000000` adds larger fleets (one run each at 1,000,000: 4 GB in
               1,000 folders) and every fleet row has a read floor beside it: `cat` of every file, through
               `find | xargs` (opening and reading the files, no parsing).
  xcodebuild   a 500 MiB `xcodebuild test` log (compiler invocations of 0.1-8 KB, build and test noise,
               2,000 test cases each with a memory metric line) to its metrics: `memhunt inspect --format
               json` beside `grep -c ' measured \['` (the metric count is compared, and the generator's
               heaviest test with memhunt's).

These are figures, never tests: the machine is shared, so numbers move by 10-20 % between runs.
Exits 1 when an answer disagrees, never because a target is missed.

    Benchmarks/run.py [--size-mb 1024] [--runs 15] [--binary PATH]
        [--only changelog,realistic,views,ndjson,json,xctrace,jetsam,justsend,fleet,xcodebuild]
        [--fleet-sizes 10000,100000,1000000]
"""
import argparse
import importlib.util
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(tempfile.gettempdir(), "memhunt-bench")

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

AWK = ("/ (un)?changed\\.$/ { line = $0; sub(/^.*\\] /, \"\", line); "
       "i = index(line, \": \"); n[substr(line, 1, i - 1)]++ } END { for (k in n) print n[k] \"\\t\" k }")

# The realistic logs' views, per style: mawk finds the message and counts its name (malformed lines aside).
AWK_END = " END { for (k in n) print n[k] \"\\t\" k }"
AWK_STYLE = {
    "console": AWK,
    "ndjson": ("{ i = index($0, \"\\\"eventMessage\\\":\\\"\"); if (i) { m = substr($0, i + 16); "
               "j = index(m, \"\\\",\\\"\"); m = substr(m, 1, j - 1); if (m ~ / (un)?changed\\.$/) "
               "{ k = index(m, \": \"); n[substr(m, 1, k - 1)]++ } } }" + AWK_END),
    "json": ("/^  \"eventMessage\" : \"/ { m = substr($0, 20); sub(/\",?$/, \"\", m); "
             "if (m ~ / (un)?changed\\.$/) { k = index(m, \": \"); n[substr(m, 1, k - 1)]++ } }" + AWK_END),
}

JQ = """
  .[1] as $b | $b.memoryStatus.pageSize as $ps
  | ($b.processes | sort_by(-(.lifetimeMax // .rpages))) as $p
  | ($p | map(.name) | index("JustSend")) as $i
  | {rank: ($i + 1), peakMB: (($p[$i].lifetimeMax // $p[$i].rpages) * $ps / 1048576 | round),
     residentMB: ($p[$i].rpages * $ps / 1048576 | round), processes: ($p | length),
     compressions: $b.memoryStatus.compressions}
"""


def ensure_tools():
    """mawk and jq from Debian when missing (the standard tools of the comparison)."""
    missing = [tool for tool in ("mawk", "jq") if shutil.which(tool) is None]
    if missing and shutil.which("apt-get"):
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        print("installing %s ..." % " ".join(missing), file=sys.stderr)
        subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends"] + missing, check=True,
                       stdout=subprocess.DEVNULL, env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    for tool in ("mawk", "jq"):
        if shutil.which(tool) is None:
            sys.exit("%s is needed (apt-get install %s)" % (tool, tool))


def generate_log(path, size):
    """Writes `size` bytes of timestamped change-log lines (deterministic); returns per-view counts."""
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
    blocks = size // len(block)
    for view, n in per_block.items():
        counts[view] = n * blocks
    if os.path.exists(path) and os.path.getsize(path) == blocks * len(block):
        return counts
    with open(path + ".part", "wb") as f:
        for _ in range(blocks):
            f.write(block)
    os.replace(path + ".part", path)
    return counts


VM_OPS = ["Zero Fill", "Page Cache Hit", "Page In", "Copy-on-Write"]
VM_HEAD = ('<?xml version="1.0"?>\n<trace-query-result>\n<node xpath=\'//trace-toc[1]/run[1]/data[1]/table[29]\'>'
           '<schema name="virtual-memory">' + "".join(
               "<col><mnemonic>%s</mnemonic><name>%s</name><engineering-type>%s</engineering-type></col>" % c for c in [
                   ("start", "Start Time", "start-time"), ("duration", "Duration", "duration"),
                   ("thread", "Thread", "thread"), ("operation", "Operation", "vm-op"),
                   ("process", "Process", "process"), ("cputime", "CPU Time", "duration-on-core"),
                   ("waittime", "Wait Time", "duration-waiting"), ("address", "Address", "address"),
                   ("size", "Size", "size-in-bytes"), ("backtrace", "Stack", "backtrace")]) + "</schema>")

XCTRACE_PY = r"""
import json, sys, xml.etree.ElementTree as ET
values, ops, cols, cells, depth, in_row = {}, {}, [], [], 0, False
for event, e in ET.iterparse(sys.argv[1], events=("start", "end")):
    if event == "start":
        depth += 1
        in_row = in_row or e.tag == "row"
        continue
    depth -= 1
    if e.tag == "mnemonic":
        cols.append(e.text)
    i = e.get("id")
    if i is not None:
        text = (e.text or "").strip()
        values[i] = text or e.get("fmt", "")
    if depth == 3 and in_row:
        r = e.get("ref")
        cells.append(None if e.tag == "sentinel" else values[r] if r is not None else values.get(i, ""))
    elif e.tag == "row":
        op, size = cells[cols.index("operation")], cells[cols.index("size")]
        entry = ops.setdefault(op, [0, 0])
        entry[0] += 1
        entry[1] += int(size) if size else 0
        cells, in_row = [], False
        e.clear()
print(json.dumps({op: v[1] for op, v in ops.items()}))
"""


def generate_xctrace(path, size, seed=7):
    """A virtual-memory export of `size` bytes in the real export's shape; returns bytes per operation."""
    if os.path.exists(path) and os.path.exists(path + ".json"):
        with open(path + ".json") as f:
            return json.load(f)
    rng = random.Random(seed)
    sizes = [4096 * (1 << k) for k in range(6)]
    expected = {}
    next_id = [1]

    def new():
        next_id[0] += 1
        return next_id[0] - 1

    processes, threads, sized, opids, binaries = {}, {}, {}, {}, []
    tail = "</node></trace-query-result>\n"
    with open(path, "w") as f:
        f.write(VM_HEAD)
        written = len(VM_HEAD)
        row = 0
        while written < size - len(tail) - 4096:
            parts = []
            t = new()
            parts.append('<start-time id="%d" fmt="00:00.%06d">%d</start-time>' % (t, row % 1000000, row * 1000))
            parts.append('<duration id="%d" fmt="4.71 µs">%d</duration>' % (new(), 4000 + row % 997))
            th = rng.randrange(60)
            pid = th % 20
            if th in threads:
                parts.append('<thread ref="%d"/>' % threads[th])
            else:
                tid = new()
                threads[th] = tid
                inner = '<tid id="%d" fmt="0x%x">%d</tid>' % (new(), th, th)
                if pid in processes:
                    inner += '<process ref="%d"/>' % processes[pid]
                else:
                    processes[pid] = new()
                    inner += ('<process id="%d" fmt="App%d (%d)"><pid id="%d" fmt="%d">%d</pid>'
                              '<device-session id="%d" fmt="TODO">TODO</device-session></process>'
                              % (processes[pid], pid, 100 + pid, new(), 100 + pid, 100 + pid, new()))
                parts.append('<thread id="%d" fmt="worker 0x%x (App%d, pid: %d)">%s</thread>'
                             % (tid, th, pid, 100 + pid, inner))
            op = VM_OPS[rng.randrange(len(VM_OPS))]
            if op in opids:
                parts.append('<vm-op ref="%d"/>' % opids[op])
            else:
                opids[op] = new()
                parts.append('<vm-op id="%d" fmt="%s">%s</vm-op>' % (opids[op], op, op))
            parts.append('<process ref="%d"/>' % processes[pid])
            parts.append("<sentinel/><sentinel/>")
            parts.append('<address id="%d" fmt="0x%x">%d</address>' % (new(), 0x100000000 + row * 4096,
                                                                      0x100000000 + row * 4096))
            sz = sizes[rng.randrange(len(sizes))]
            if sz in sized:
                parts.append('<size-in-bytes ref="%d"/>' % sized[sz])
            else:
                sized[sz] = new()
                parts.append('<size-in-bytes id="%d" fmt="%d KiB">%d</size-in-bytes>' % (sized[sz], sz // 1024, sz))
            frames = []
            for k in range(5):
                if binaries and rng.random() < 0.9:
                    binary = '<binary ref="%d"/>' % binaries[rng.randrange(len(binaries))]
                else:
                    b = new()
                    binaries.append(b)
                    binary = ('<binary id="%d" name="Lib%d" UUID="00000000-0000-0000-0000-%012d" arch="arm64e" '
                              'load-addr="0x1%08x" path="/usr/lib/Lib%d.dylib"/>' % (b, b, b, b, b))
                frames.append('<frame id="%d" name="function_%d(int)" addr="0x1%08x">%s</frame>'
                              % (new(), rng.randrange(5000), rng.randrange(1 << 30), binary))
            parts.append('<backtrace id="%d">%s</backtrace>' % (new(), "".join(frames)))
            text = "<row>" + "".join(parts) + "</row>\n"
            f.write(text)
            written += len(text.encode())
            expected[op] = expected.get(op, 0) + sz
            row += 1
        f.write(tail)
    with open(path + ".json", "w") as f:
        json.dump(expected, f)
    return expected


def generate_jetsam(path, processes=442, seed=13):
    """A JetsamEvent .ips of `processes` records (about 200 KB), JustSend among them; seeded."""
    rng = random.Random(seed)
    names = ["backboardd", "SpringBoard", "mediaserverd", "ChatGPT", "Safari", "Photos", "MobileMail",
             "cloudd", "nsurlsessiond", "assetsd", "searchd", "WhatsApp", "Maps", "Music", "locationd"]
    records = []
    for index in range(processes):
        name = "JustSend" if index == 217 else "%s%s" % (names[index % len(names)], "" if index < 15 else index)
        rpages = 7808 if name == "JustSend" else rng.randint(16, 40000)
        record = {
            "states": ["suspended"] if name == "JustSend" else rng.choice([["daemon"], ["frontmost"], []]),
            "purgeable": rng.randint(0, 100), "age": rng.getrandbits(40),
            "fds": rng.randint(10, 400), "coalition": rng.randint(0, 900), "csTrustLevel": 8, "rpages": rpages,
            "lifetimeMax": 46400 if name == "JustSend" else rpages + rng.randint(0, 20000),
            "priority": rng.choice([0, 3, 10, 180, 999]), "mem_regions": rng.randint(50, 900),
            "physicalPages": {"internal": [rpages, rng.randint(0, 9000)]},
            "freeze_skip_reason:": "disabled", "pid": 100 + index, "cpuTime": round(rng.uniform(0, 900), 6),
            "name": name,
        }
        records.append(record)
    body = {
        "build": "iPhone OS 26.0 (23A341)", "product": "iPhone18,1", "incident": "5F0C7B1E-2B7A-4C1E-9C0F-7E1D2A3B4C5D",
        "date": "2026-08-11 11:20:56.00 +0900", "bug_type": "298", "timeDelta": 7,
        "memoryStatus": {"compressorSize": 61234, "compressions": 15734833, "decompressions": 9120447,
                         "pageSize": 16384, "uncompressed": 190442,
                         "memoryPages": {"active": 120443, "wired": 95512, "free": 3120}},
        "largestProcess": "kernel_task", "genCounter": 0, "processes": records,
    }
    header = {"bug_type": "298", "timestamp": "2026-08-11 11:20:56.00 +0900",
              "os_version": "iPhone OS 26.0 (23A341)", "incident_id": "5F0C7B1E-2B7A-4C1E-9C0F-7E1D2A3B4C5D"}
    with open(path, "w") as f:
        f.write(json.dumps(header, separators=(",", ":")) + "\n" + json.dumps(body, indent=2) + "\n")


def run_once(argv, stdout_path):
    """Wall seconds and CPU seconds (user + system, from wait4) of one run."""
    with open(stdout_path, "wb") as out:
        start = time.monotonic()
        child = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE)
        stderr = child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.monotonic() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):  # memhunt run exits 1 when a finding reaches --fail-on
        sys.exit("%s failed with %d: %s" % (argv[0], code, stderr.decode()[:500]))
    return seconds, usage.ru_utime + usage.ru_stime


def warm(paths):
    """Reads every file under `paths` once, untimed, so that a timed run finds them in the page cache. This
    machine's kernel pages out whatever has not been touched for 60 s (DAMON: a `pageout` scheme for regions
    cold for 12 aggregation intervals of 5 s, /sys/kernel/mm/damon/admin/kdamonds/0), so a run that follows
    two others over a 4 GB fleet read much of it from disk again: the 1,000,000-record row measured memhunt
    at 152 s wall for 42.7 s of CPU, Python at 96 s for 45.8 s and `cat` at 29 s for 19.7 s (2026-12-02,
    21:45); by hand, right after a first read, memhunt took 22.1 s and `cat` 19.4 s."""
    for path in paths:
        subprocess.run(["sh", "-c", "find -H \"$1\" -type f -print0 | xargs -0 cat > /dev/null", "warm", path],
                       check=True)


def measure_turns(commands, runs, inputs=()):
    """`measure_pair` for any number of commands, run in turn (A B C A B C ...); the files under `inputs` are
    read before each run (`warm`)."""
    samples = tuple([] for _ in commands)
    for _ in range(runs):
        for index, (argv, stdout_path) in enumerate(commands):
            warm(inputs)
            samples[index].append(run_once(argv, stdout_path))
    return tuple(summarize(argv, taken, inputs) for (argv, _), taken in zip(commands, samples))


def measure_pair(first, second, runs, inputs=()):
    """`measure` for two commands run in turn (A B A B ...): on this shared 2-core machine the host's speed
    drifts by 30-50 % over a minute (jq on the same file: 30 ms, then 50 ms), and measuring all of one
    command before the other turned that drift into the ratio. Each is (argv, stdout path); returns the
    (times, peak) of each."""
    return measure_turns([first, second], runs, inputs)


def summarize(argv, samples, inputs=()):
    """Median wall and CPU seconds of `samples`, and peak RSS in MB (/usr/bin/time -v, one more run). CPU
    time moves far less than wall time when other builds share the machine."""
    seconds = statistics.median(s[0] for s in samples)
    cpu = statistics.median(s[1] for s in samples)
    warm(inputs)
    timed = subprocess.run(["/usr/bin/time", "-v"] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    match = re.search(rb"Maximum resident set size \(kbytes\): (\d+)", timed.stderr)
    peak = int(match.group(1)) / 1024 if match else float("nan")
    return (seconds, cpu), peak


ROWS = []


def row(work, tool, times, peak, throughput="", ratio="", target="", met=""):
    ROWS.append((work, tool, "%.3f" % times[0], "%.3f" % times[1], throughput, "%.1f" % peak, ratio, target, met))


def bench_changelog(memhunt, args):
    log = os.path.join(WORK, "changelog-%dmb.log" % args.size_mb)
    print("generating %s ..." % log, file=sys.stderr)
    expected = generate_log(log, args.size_mb * 1024 * 1024)
    size = os.path.getsize(log)
    runs = max(1, min(args.runs, 3))
    m_out, a_out = os.path.join(WORK, "memhunt.json"), os.path.join(WORK, "awk.txt")
    (m_times, m_peak), (a_times, a_peak) = measure_pair(
        ([memhunt, "inspect", "--format", "json", log], m_out), (["mawk", AWK, log], a_out), runs, inputs=(log,))
    m_seconds, a_seconds = m_times[0], a_times[0]
    with open(m_out) as f:
        facts = json.load(f)[0]["facts"]
    m_views = facts["changes.byLog"][os.path.splitext(os.path.basename(log))[0]]["views"]
    a_views = {}
    with open(a_out) as f:
        for line in f:
            count, view = line.rstrip("\n").split("\t", 1)
            a_views[view] = int(count)
    work = "change log %.0f MB" % (size / 1e6)
    rate = size / m_seconds / 1e6
    ratio = m_seconds / a_seconds
    ok = rate >= 1000 and ratio <= 0.4 and m_peak <= 32
    row(work, "memhunt", m_times, m_peak, "%.0f MB/s" % rate, "%.2f x mawk" % ratio,
        ">= 1000 MB/s, <= 0.4 x, <= 32 MB", "yes" if ok else "no")
    row(work, "mawk", a_times, a_peak, "%.0f MB/s" % (size / a_seconds / 1e6))
    agree = m_views == a_views == expected
    print("change log: %s lines; per-view counts agree (memhunt, mawk, generator): %s"
          % (format(sum(expected.values()), ","), "yes" if agree else "NO"), file=sys.stderr)
    return agree


def changelog_gen():
    spec = importlib.util.spec_from_file_location("changelog_gen", os.path.join(ROOT, "Benchmarks", "changelog_gen.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bench_realistic(memhunt, args, style, views=200):
    """A realistic log of `style` (see changelog_gen.py) beside mawk and `wc -l`; counts against the reference.
    With more than 200 views, a quarter of --size-mb (the shape of a large app, not a target of the issue)."""
    gen = changelog_gen()
    large = views != 200
    size_mb = max(1, args.size_mb // 4) if large else args.size_mb
    log = os.path.join(WORK, "realistic-%s-%s%dmb.log" % (style, "%dviews-" % views if large else "", size_mb))
    if not os.path.exists(log):
        print("generating %s ..." % log, file=sys.stderr)
        gen.write(log, style, size_mb * 1024 * 1024, views=views)
    counted = log + ".counts.json"
    # Counted again when the log or the reference counter (the generator) is newer than the counts.
    stale_after = max(os.path.getmtime(log), os.path.getmtime(gen.__file__))
    if not os.path.exists(counted) or os.path.getmtime(counted) < stale_after:
        print("counting %s with the reference counter ..." % log, file=sys.stderr)
        with open(counted, "w") as f:
            json.dump(gen.count(log, style), f)
    with open(counted) as f:
        expected = json.load(f)
    size = os.path.getsize(log)
    runs = max(1, min(args.runs, 3))
    m_out, a_out, w_out = (os.path.join(WORK, "realistic-%s%s.%s" % (style, "-%d" % views if large else "", e))
                           for e in ("json", "awk", "wc"))
    (m_times, m_peak), (a_times, a_peak), (w_times, w_peak) = measure_turns(
        [([memhunt, "inspect", "--format", "json", log], m_out), (["mawk", AWK_STYLE[style], log], a_out),
         (["wc", "-l", log], w_out)], runs, inputs=(log,))
    with open(m_out) as f:
        facts = json.load(f)[0]["facts"]
    mine = facts["changes.byLog"][os.path.splitext(os.path.basename(log))[0]]
    work = "%s log %.0f MB" % ({"console": "realistic console", "ndjson": "log show ndjson",
                                "json": "log show json"}[style], size / 1e6)
    if large:
        work = "console, %s views, %.0f MB" % (format(views, ","), size / 1e6)
    rate = size / m_times[0] / 1e6
    ratio = m_times[0] / a_times[0]
    if large:
        target, ok = "none of its own (a large app's shape)", None
    elif style == "console":
        target, ok = ">= 1000 MB/s, <= 0.2 x mawk, <= 32 MB", rate >= 1000 and ratio <= 0.2 and m_peak <= 32
    else:
        target, ok = ">= 500 MB/s, <= 32 MB", rate >= 500 and m_peak <= 32
    row(work, "memhunt", m_times, m_peak, "%.0f MB/s" % rate,
        "%.2f x mawk, %.1f x wc" % (ratio, m_times[0] / w_times[0]), target, "-" if ok is None else "yes" if ok else "no")
    row(work, "mawk", a_times, a_peak, "%.0f MB/s" % (size / a_times[0] / 1e6))
    row(work, "wc -l", w_times, w_peak, "%.0f MB/s" % (size / w_times[0] / 1e6))
    agree = (mine.get("evaluations") == expected["evaluations"] and mine.get("views") == expected["views"]
             and mine.get("processes", {}) == expected["processes"])
    print("%s: %s evaluations; evaluations, views and processes agree with the reference counter: %s"
          % (work, format(expected["evaluations"], ","), "yes" if agree else "NO"), file=sys.stderr)
    return agree


def bench_xctrace(memhunt, args):
    export = os.path.join(WORK, "xctrace-vm-%dmb.xml" % args.size_mb)
    print("generating %s ..." % export, file=sys.stderr)
    expected = generate_xctrace(export, args.size_mb * 1024 * 1024)
    script = os.path.join(WORK, "xctrace_iterparse.py")
    with open(script, "w") as f:
        f.write(XCTRACE_PY)
    size = os.path.getsize(export)
    runs = max(1, min(args.runs, 3))
    m_out, p_out = os.path.join(WORK, "xctrace-memhunt.json"), os.path.join(WORK, "xctrace-python.json")
    (m_times, m_peak), (p_times, p_peak) = measure_pair(
        ([memhunt, "inspect", "--format", "json", export], m_out), ([sys.executable, script, export], p_out), runs)
    with open(m_out) as f:
        facts = json.load(f)[0]["facts"]
    with open(p_out) as f:
        python = json.load(f)
    mine = facts.get("xctrace.vmops.bytesByOperation")
    work = "xctrace export %.0f MB" % (size / 1e6)
    ratio = m_times[0] / p_times[0]
    row(work, "memhunt", m_times, m_peak, "%.0f MB/s" % (size / m_times[0] / 1e6), "%.2f x python" % ratio)
    row(work, "python iterparse", p_times, p_peak, "%.0f MB/s" % (size / p_times[0] / 1e6))
    agree = mine == python == expected
    print("xctrace: bytes per operation of memhunt, Python's iterparse and the generator %s"
          % ("agree" if agree else "DISAGREE: %s %s %s" % (mine, python, expected)), file=sys.stderr)
    return agree


def bench_jetsam(memhunt, args):
    ips = os.path.join(WORK, "JetsamEvent-442.ips")
    generate_jetsam(ips)
    m_out, j_out = os.path.join(WORK, "jetsam-memhunt.json"), os.path.join(WORK, "jetsam-jq.json")
    (m_times, m_peak), (j_times, j_peak) = measure_pair(
        ([memhunt, "run", "--app", "JustSend", "--format", "json", ips], m_out), (["jq", "-s", JQ, ips], j_out),
        args.runs)
    m_seconds, j_seconds = m_times[0], j_times[0]
    with open(m_out) as f:
        facts = {k: v for step in json.load(f)["steps"] for k, v in step["facts"].items()}
    with open(j_out) as f:
        jq = json.load(f)
    mine = {"rank": facts.get("jetsam.app.rank"), "peakMB": facts.get("jetsam.app.peakMB"),
            "residentMB": facts.get("jetsam.app.residentMB"), "processes": facts.get("jetsam.processes"),
            "compressions": facts.get("jetsam.compressions")}
    work = "JetsamEvent %.0f KB" % (os.path.getsize(ips) / 1e3)
    ratio = m_seconds / j_seconds
    row(work, "memhunt", m_times, m_peak, "", "%.2f x jq" % ratio, "<= 0.5 x jq", "yes" if ratio <= 0.5 else "no")
    row(work, "jq", j_times, j_peak)
    agree = mine == jq
    print("jetsam: memhunt %s, jq %s: %s" % (mine, jq, "agree" if agree else "DISAGREE"), file=sys.stderr)
    return agree


def bench_justsend(memhunt, args):
    out = os.path.join(WORK, "justsend.txt")
    (m_times, m_peak), (v_times, v_peak) = measure_pair(
        ([memhunt, "run", "--app", "JustSend", os.path.join(ROOT, "Fixtures", "justsend")], out),
        ([memhunt, "--version"], os.path.join(WORK, "version.txt")), args.runs)
    row("Fixtures/justsend run", "memhunt", m_times, m_peak, "", "%.1f x --version" % (m_times[0] / v_times[0]),
        "< 30 ms", "yes" if m_times[0] < 0.030 else "no")
    row("process start", "memhunt --version", v_times, v_peak)
    return True


def bench_fleet(memhunt, args, count=10000):
    """`memhunt scan` of `count` generated JetsamEvents beside the plain-Python loop and the read floor (every
    file read once, by `cat` through `find | xargs`: the cost of opening and reading the fleet, no parsing).
    Issue 30's targets: <= 1.5 x the read floor, <= 0.2 x Python, peak <= 100 MB, linear to 1,000,000."""
    folder = os.path.join(WORK, "fleet-%d" % count)
    if not os.path.isdir(folder):
        print("generating %s ..." % folder, file=sys.stderr)
        subprocess.run([sys.executable, os.path.join(ROOT, "Tests", "Support", "gen_jetsam.py"), folder,
                        "--count", str(count)], check=True)
        # The new files are written back before anything is timed: the 1,000,000-record row measured right
        # after generating its 4 GB read 32.6 s wall and 39.0 s CPU (perf: iowrite16 and the kernel a third of
        # the samples), and 13.9-14.8 s wall, 25.5 s CPU, after `sync` (2026-12-02, load 4, fuzzers beside it).
        os.sync()
    m_out, p_out = os.path.join(WORK, "fleet-memhunt.json"), os.path.join(WORK, "fleet-python.json")
    floor = ["sh", "-c", "find -H \"$1\" -type f -print0 | xargs -0 cat", "floor", folder]
    # The 1,000,000-record fleet takes minutes a run: one run of each there.
    runs = args.runs if count <= 100_000 else 1
    (m_times, m_peak), (p_times, p_peak), (f_times, f_peak) = measure_turns(
        [([memhunt, "scan", "--format", "json", folder], m_out),
         ([sys.executable, os.path.join(ROOT, "Benchmarks", "fleet_scan.py"), folder], p_out),
         (floor, os.devnull)], runs, inputs=(folder,))
    with open(m_out) as f:
        document = json.load(f)
    with open(p_out) as f:
        python = json.load(f)
    mine = {app["name"]: {key: app.get(key) for key in ("records", "ranks", "peakMB", "suspendedResidentMB", "reasons")}
            for app in document["apps"]}
    work = "fleet %s records" % format(count, ",")
    ratio, floor_ratio = m_times[0] / p_times[0], m_times[0] / f_times[0]
    rate = count / m_times[0]
    ok = floor_ratio <= 1.5 and ratio <= 0.2 and m_peak <= 100
    row(work, "memhunt scan", m_times, m_peak, "%.0f records/s" % rate,
        "%.2f x python, %.1f x floor" % (ratio, floor_ratio), "<= 1.5 x floor, <= 0.2 x python, <= 100 MB",
        "yes" if ok else "no")
    row(work, "python json loop", p_times, p_peak, "%.0f records/s" % (count / p_times[0]))
    row(work, "read floor (cat)", f_times, f_peak, "%.0f records/s" % (count / f_times[0]))
    agree = mine == python and document["records"] == count
    print("fleet %d: per-app figures of memhunt and the Python loop %s" % (count, "agree" if agree else "DISAGREE"),
          file=sys.stderr)
    return agree


def generate_xcodebuild_log(path, size, tests=2000, seed=29):
    """A seeded `xcodebuild test` log of about `size` bytes: the banner, then compiler invocations (long lines),
    short build and test lines, and `tests` test cases spread through it, each with one memory metric line.
    Returns the expected heaviest test and its largest value in kB. Reused when present."""
    rng = random.Random(seed)
    heaviest = ("", -1.0)
    peaks = []
    for index in range(tests):
        values = [round(rng.uniform(20000, 90000), 3) for _ in range(5)]
        peaks.append(values)
        name = "-[AppTests.Suite%03d test%04d]" % (index % 97, index)
        if max(values) > heaviest[1]:
            heaviest = (name, max(values))
    if os.path.exists(path) and os.path.getsize(path) >= size * 0.99:
        return heaviest
    flags = " ".join("-Xfrontend -flag%d" % i for i in range(40))
    with open(path, "w") as out:
        out.write("Command line invocation:\n    /Applications/Xcode.app/Contents/Developer/usr/bin/xcodebuild test "
                  "-scheme App -destination 'platform=iOS Simulator,name=iPhone 16'\n\n")
        written = 0
        every = max(1, size // tests)
        next_test = every // 2
        index = 0
        while written < size:
            kind = rng.random()
            if kind < 0.3:
                length = rng.randint(1, 200)
                line = ("    cd /Users/dev/App\n    builtin-swiftDriverJobExecution -- /Applications/Xcode.app/swift-frontend "
                        "-c /Users/dev/App/Sources/F%d.swift %s%s\n" % (rng.randint(0, 9999), flags, " -I/x" * length))
            elif kind < 0.7:
                line = "CompileSwift normal arm64 /Users/dev/App/Sources/Feature%d.swift (in target 'App' from project 'App')\n" % rng.randint(0, 99999)
            elif kind < 0.9:
                line = "2026-12-02 10:%02d:%02d.%03d App[4711:1234] [Network] request %d finished in %d ms\n" % (
                    rng.randint(0, 59), rng.randint(0, 59), rng.randint(0, 999), rng.randint(0, 10**6), rng.randint(1, 900))
            else:
                line = "Test Suite 'Suite%03d' passed at 2026-12-02 10:11:12.345.\n" % rng.randint(0, 96)
            out.write(line)
            written += len(line)
            while index < tests and written >= next_test:
                name = "-[AppTests.Suite%03d test%04d]" % (index % 97, index)
                values = peaks[index]
                block = ("Test Case '%s' started.\n/Users/dev/App/Tests/T.swift:12: Test Case '%s' measured [Memory Peak "
                         "Physical, kB] average: %.3f, relative standard deviation: 1.000%%, values: [%s], "
                         "performanceMetricID:com.apple.dt.XCTMetric_Memory.physical_peak, baselineName: \"\", "
                         "baselineAverage: , polarity: prefers smaller, maxPercentRegression: 10.000%%, "
                         "maxPercentRelativeStandardDeviation: 10.000%%, maxRegression: 0.000, maxStandardDeviation: 0.000\n"
                         "Test Case '%s' passed (0.412 seconds).\n") % (
                    name, name, sum(values) / len(values), ", ".join("%.6f" % v for v in values), name)
                out.write(block)
                written += len(block)
                index += 1
                next_test += every
    return heaviest


def bench_xcodebuild(memhunt, args, size_mb=500):
    log = os.path.join(WORK, "xcodebuild-%dmb.log" % size_mb)
    print("generating %s ..." % log, file=sys.stderr)
    heaviest = generate_xcodebuild_log(log, size_mb * 1024 * 1024)
    size = os.path.getsize(log)
    runs = max(1, min(args.runs, 3))
    m_out, g_out = os.path.join(WORK, "xcodebuild-memhunt.json"), os.path.join(WORK, "xcodebuild-grep.txt")
    (m_times, m_peak), (g_times, g_peak) = measure_pair(
        ([memhunt, "inspect", "--format", "json", log], m_out), (["grep", "-c", " measured \\[", log], g_out), runs)
    with open(m_out) as f:
        facts = json.load(f)[0]["facts"]
    with open(g_out) as f:
        lines = int(f.read().strip())
    work = "xcodebuild log %.0f MB" % (size / 1e6)
    rate = size / m_times[0] / 1e6
    ratio = m_times[0] / g_times[0]
    ok = m_peak <= 32
    row(work, "memhunt", m_times, m_peak, "%.0f MB/s" % rate, "%.2f x grep" % ratio, "<= 32 MB, streamed",
        "yes" if ok else "no")
    row(work, "grep -c", g_times, g_peak, "%.0f MB/s" % (size / g_times[0] / 1e6))
    agree = facts.get("xctest.memoryTests") == lines == 2000 and facts.get("xctest.heaviestTest") == heaviest[0]
    print("xcodebuild: %d metric lines (grep), memhunt %s tests, heaviest %s (generator %s): %s"
          % (lines, facts.get("xctest.memoryTests"), facts.get("xctest.heaviestTest"), heaviest[0],
             "agree" if agree else "DISAGREE"), file=sys.stderr)
    return agree


def other_work_warning(load):
    """A warning when other work shares the cores at the start (load average above 0.5), or None. With the
    kernel's autogroup scheduling on, `nice 19` does not make a process yield to another session's: each
    session's group gets an equal share of the cores whatever its processes' nice values. On this machine
    (2026-12-02) the 100,000-record fleet took 3.92-4.28 s wall beside two fuzzers at `nice 19` started with
    `setsid`, and 1.58-1.60 s once their groups were set to 19 (`echo 19 > /proc/<pid>/autogroup`)."""
    if load <= 0.5:
        return None
    note = "run.py: load average %.1f at the start: other work shares the cores, and the figures will measure memhunt beside it" % load
    try:
        with open("/proc/sys/kernel/sched_autogroup_enabled") as f:
            if f.read().strip() == "1":
                note += ("; autogroup scheduling is on, so `nice` alone does not make another session's work yield"
                         " (echo 19 > /proc/<pid>/autogroup does)")
    except OSError:
        pass
    return note


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=1024, help="change-log and xctrace export size in MiB")
    parser.add_argument("--runs", type=int, default=15, help="runs per command (the 1 GiB log: at most 3)")
    parser.add_argument("--binary", help="a memhunt binary to measure instead of building this checkout")
    parser.add_argument("--only",
                        default="changelog,realistic,views,ndjson,json,xctrace,jetsam,justsend,fleet,xcodebuild")
    parser.add_argument("--fleet-sizes", default="10000",
                        help="records per fleet row, comma-separated (e.g. 10000,100000,1000000)")
    args = parser.parse_args()
    os.makedirs(WORK, exist_ok=True)
    ensure_tools()
    start_load = os.getloadavg()[0]
    busy = other_work_warning(start_load)
    if busy:
        print(busy, file=sys.stderr)
    memhunt = args.binary
    if memhunt is None:
        print("building memhunt (scripts/build-release) ...", file=sys.stderr)
        memhunt = subprocess.run([os.path.join(ROOT, "scripts", "build-release")], cwd=ROOT, check=True,
                                 stdout=subprocess.PIPE, text=True).stdout.strip()
    agree = True
    only = args.only.split(",")
    if "changelog" in only:
        agree &= bench_changelog(memhunt, args)
    if "realistic" in only:
        agree &= bench_realistic(memhunt, args, "console")
    if "views" in only:
        agree &= bench_realistic(memhunt, args, "console", views=3000)
    if "ndjson" in only:
        agree &= bench_realistic(memhunt, args, "ndjson")
    if "json" in only:
        agree &= bench_realistic(memhunt, args, "json")
    if "xctrace" in only:
        agree &= bench_xctrace(memhunt, args)
    if "jetsam" in only:
        agree &= bench_jetsam(memhunt, args)
    if "justsend" in only:
        agree &= bench_justsend(memhunt, args)
    if "fleet" in only:
        for count in (int(size) for size in args.fleet_sizes.split(",")):
            agree &= bench_fleet(memhunt, args, count)
    if "xcodebuild" in only:
        agree &= bench_xcodebuild(memhunt, args)

    header = ("work", "tool", "seconds", "cpu s", "throughput", "peak RSS MB", "ratio", "target", "met")
    widths = [max(len(str(r[i])) for r in ROWS + [header]) for i in range(len(header))]
    for r in [header] + ROWS:
        print("  ".join(str(cell).ljust(width) for cell, width in zip(r, widths)).rstrip())
    print("(wall and CPU seconds: medians of %d runs, 3 for the change log; ratios and targets on wall time;"
          % args.runs)
    print(" peak RSS from /usr/bin/time -v; %s, load average %.1f at the start, %.1f at the end)"
          % (os.uname().machine, start_load, os.getloadavg()[0]))
    sys.exit(0 if agree else 1)


if __name__ == "__main__":
    main()
