#!/usr/bin/env python3
"""Writes the hostile-input suite (issue 26): at least 100 files of every kind memhunt reads, each made to
break something: terminal escapes, bidi overrides, raw HTML and formula starters in app names, file names and
values; giant words; deep nesting; huge, negative and non-finite numbers; duplicate keys; invalid UTF-8,
UTF-16 with and without a byte order mark, NUL bytes; files cut at many offsets; empty files; symbolic link
loops, a FIFO, a folder named like a file; findings documents, playbooks and triage sessions from outside.

    Tests/Support/hostile_inputs.py ROOT REPO BINARY

REPO is the repository (the fixtures are the starting points), BINARY the built memhunt (it writes the
findings document and the triage session that the hostile ones are made from). Under ROOT:

    artifacts/    every artifact kind (walked by run and scan, each file an operand of inspect)
    manifests/    manifests, each an operand of its own
    documents/    findings documents for report, diff and postmortem
    playbooks/    playbooks for run --playbook and validate
    sessions/     one folder per triage session, for triage --resume
    index.json    one entry per input: {"group", "path" (relative to ROOT), "case", "kind", "status"}

`kind` and `status` are what `inspect --format json` must say of an artifact where the case decides it
(null where it does not: the case is about what happens next, not about what the file is).
"""
import json
import os
import shutil
import subprocess
import sys

ESC = "\x1b]0;PWNED\x07\x1b[2J\x1b[31mred\x1b[0m\x1b]8;;http://x.invalid\x1b\\link\x1b]8;;\x1b\\\x9b31m\x7f"
BIDI = "\u202egnp.exe\u202c\u2066x\u2069\u202a\u202b\u202d\u2067\u2068"
FORGE = "x\r\nSummary: no findings.\n::error file=x::forged\n"
HTML = "<img src=x onerror=alert(1)><script>alert(2)</script>"
FORMULAS = {"eq": "=cmd|' /C calc'!A0", "plus": "+1+cmd|' /C calc'!A0", "at": "@SUM(1+1)*cmd|' /C calc'!A0",
            "minus": "-2+3+cmd|' /C calc'!A0", "tab": "\t=1+1", "cr": "\r=1+1"}
GIANT = "W" * (1 << 20)  # a word of 1 MB, no space


class Suite:
    def __init__(self, root, repo):
        self.root, self.repo, self.index = root, repo, []

    def fixture(self, relative):
        with open(os.path.join(self.repo, "Fixtures", relative), "rb") as f:
            return f.read()

    def add(self, group, name, data, case, kind=None, status=None):
        path = os.path.join(self.root, group, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
        self.entry(group, name, case, kind, status)

    def entry(self, group, name, case, kind=None, status=None):
        self.index.append({"group": group, "path": group + "/" + name, "case": case, "kind": kind, "status": status})


def jetsam_with_app(s, app):
    """The JustSend JetsamEvent with the app's process named `app` (a JSON string, escaped by json.dumps)."""
    text = s.fixture("justsend/JetsamEvent-2026-08-11-112056.ips").decode()
    return text.replace('"JustSend"', json.dumps(app))


def artifacts(s):
    a = "artifacts"
    jetsam = s.fixture("justsend/JetsamEvent-2026-08-11-112056.ips")
    crash309 = s.fixture("formats/crash-309-memory.ips")
    legacy = s.fixture("formats/crash-legacy-sigsegv.crash")
    metrics = s.fixture("metrickit/MXMetricPayload-2026-08-10.json")
    diagnostics = s.fixture("formats/diagnostics.json")
    csv = s.fixture("justsend/measurements-detail.csv")
    mjson = s.fixture("justsend/measurements-variation.json")
    changes = s.fixture("justsend/drawer-before.log")
    views = s.fixture("justsend/pviews-detail.txt")[:20000]
    views = views[: views.rindex(b"\n") + 1]
    vmmap = s.fixture("formats/repro/vmmap-detail-after.txt")
    footprint = s.fixture("formats/repro/footprint-detail.txt")
    leaks = s.fixture("leaks/DemoApp-before.leaks.txt")
    sample = s.fixture("layout-freeze/silent-loop-sample.txt")
    xclog = s.fixture("xctest/xcodebuild-widget-over.log")
    xcjson = s.fixture("xctest/xcresult-metrics-memory.json")

    # Hostile app names inside valid records: each still reads as its kind.
    for tag, app in [("esc", ESC), ("bidi", BIDI), ("forge", FORGE), ("html", HTML)] + [
        ("formula-" + k, v) for k, v in FORMULAS.items()
    ]:
        s.add(a, f"jetsam-app-{tag}.ips", jetsam_with_app(s, app), f"JetsamEvent, app named {tag}",
              "jetsam-event", "ok")
    s.add(a, "jetsam-app-giant.ips", jetsam_with_app(s, GIANT), "JetsamEvent, app named by a 1 MB word",
          "jetsam-event", None)
    s.add(a, "crash-309-html.ips", crash309.replace(b'"Heavy"', json.dumps(HTML + ESC).encode()),
          "crash .ips 309, procName and name of HTML and escapes", "crash-report", "ok")
    s.add(a, "crash-309-formula.ips", crash309.replace(b'"Heavy"', json.dumps(FORMULAS["eq"]).encode()),
          "crash .ips 309, procName a formula", "crash-report", "ok")
    s.add(a, "crash-legacy-esc.crash", legacy.replace(b"Segfaulter [321]", (ESC + HTML + " [321]").encode()),
          "legacy crash, Process of escapes and HTML", "crash-report", None)
    s.add(a, "crash-legacy-giant.crash", legacy.replace(b"dev.memhunt.segfaulter", GIANT.encode()),
          "legacy crash, Identifier a 1 MB word", "crash-report", None)
    s.add(a, "metrics-bundle-html.json",
          metrics.replace(b"com.example.JustSend", (HTML + ESC).encode().replace(b"\\", b"\\\\").replace(
              b"\x1b", b"\\u001b").replace(b"\x07", b"\\u0007").replace(b"\x7f", b"\\u007f").replace(
              "\x9b".encode(), b"\\u009b")),
          "MetricKit metrics, bundle id of HTML and escapes", "metrickit-metrics", "ok")
    s.add(a, "metrics-formula.json", metrics.replace(b"com.example.JustSend", b"=1+1"),
          "MetricKit metrics, bundle id a formula", "metrickit-metrics", "ok")
    s.add(a, "diagnostics-html.json", diagnostics.replace(b"dev.memhunt.diag", HTML.encode()),
          "MetricKit diagnostics, bundle id HTML", "metrickit-diagnostics", "ok")
    s.add(a, "measurements-formula.csv",
          b"label,footprint_mb,note\n"
          + "".join(f'"{v}",{i + 1},"{HTML}"\n' for i, v in enumerate(FORMULAS.values())).encode(),
          "measurements CSV, labels formula starters, notes HTML", "measurements", "ok")
    s.add(a, "measurements-esc.csv", ("label,footprint_mb\n" + f'"{ESC}{BIDI}",5\n"{FORGE}",6\n').encode(),
          "measurements CSV, labels of escapes and forged lines", "measurements", "ok")
    s.add(a, "measurements-giant.csv", ("label,footprint_mb\n" + GIANT + ",5\nb,6\n").encode(),
          "measurements CSV, a 1 MB label", "measurements", None)
    s.add(a, "measurements-giant-cell.csv", ("label,footprint_mb\na," + "9" * (1 << 20) + "\n").encode(),
          "measurements CSV, a 1 MB number", "measurements", None)
    s.add(a, "measurements-numbers.csv",
          b"label,footprint_mb,layers\na,1e400,1\nb,-5,-3\nc,NaN,2\nd,Infinity,99999999999999999999999\ne,-0,0\n",
          "measurements CSV: huge, negative and non-finite numbers", "measurements", None)
    s.add(a, "measurements-html.json", mjson.replace(b'"one-block"', json.dumps(HTML + ESC).encode()),
          "measurements JSON, labels HTML and escapes", "measurements", "ok")
    s.add(a, "measurements-deep.json",
          b'{"memhunt":"measurements/1","measurements":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
          "measurements JSON nested 100,000 deep", "measurements", "error")
    s.add(a, "measurements-nonfinite.json",
          b'{"memhunt":"measurements/1","measurements":[{"label":"a","footprint_mb":NaN},'
          b'{"label":"b","footprint_mb":Infinity},{"label":"c","footprint_mb":-1e999}]}',
          "measurements JSON with NaN and Infinity (not JSON)", "measurements", "error")
    s.add(a, "measurements-duplicate.json",
          b'{"memhunt":"measurements/1","memhunt":"measurements/9","measurements":[{"label":"a","label":"'
          + HTML.encode() + b'","footprint_mb":1,"footprint_mb":-1e308}]}',
          "measurements JSON with duplicate keys", None, None)
    s.add(a, "changes-esc.log",
          changes + "".join(f"2026-08-12 14:03:06.0+0900 JustSend[1:2] {v}: _x changed.\n"
                            for v in [ESC, BIDI, HTML, FORMULAS["eq"]]).encode(),
          "change log, view names of escapes, bidi, HTML and a formula", "change-log", "ok")
    s.add(a, "changes-giant.log", ("JustSend[1:2] " + GIANT + ": _x changed.\n").encode() * 2,
          "change log, a view named by a 1 MB word", "change-log", None)
    s.add(a, "changes-giant-line.log", changes + b"x" * (1 << 20) + b"\n" + changes,
          "change log, a 1 MB line between two logs", "change-log", None)
    s.add(a, "changes-nul.log", changes.replace(b"RootView", b"Root\x00View", 3),
          "change log with NUL bytes", None, None)
    s.add(a, "views-html.txt", views.replace(b"UITransitionView", (HTML + ESC).encode()),
          "view hierarchy, class names of HTML and escapes", "view-hierarchy", "ok")
    s.add(a, "views-giant.txt", views.replace(b"UITransitionView", GIANT.encode(), 1),
          "view hierarchy, a 1 MB class name", "view-hierarchy", None)
    s.add(a, "views-deep.txt",
          b"<UIWindow: 0x1; frame = (0 0; 1 1); layer = <CALayer: 0x2>>\n"
          + b"".join(b"   | " * d + b"<UIView: 0x%x; frame = (0 0; 1 1); layer = <CALayer: 0x%x>>\n"
                     % (0x1000 + d, 0x9000 + d) for d in range(1, 400)),
          "view hierarchy nested 400 deep", "view-hierarchy", "ok")
    s.add(a, "vmmap-esc.txt", vmmap.replace(b"Memo [48211]", (ESC + HTML + " [48211]").encode()),
          "vmmap, Process of escapes and HTML", "vmmap", "ok")
    s.add(a, "vmmap-huge.txt", vmmap.replace(b"611.0M", b"99999999999999999999999G").replace(b"346.0M", b"-5M"),
          "vmmap, huge and negative sizes", "vmmap", None)
    s.add(a, "footprint-esc.txt", footprint.replace(b"Memo [48211]", (ESC + BIDI + " [48211]").encode()),
          "footprint, process of escapes", "footprint", None)
    s.add(a, "footprint-huge.txt",
          footprint.replace(b"640679936 B", b"-640679936 B").replace(b"625664 KB", b"9999999999999999999999999 KB"),
          "footprint, negative and huge sizes", "footprint", None)
    s.add(a, "leaks-html.txt", leaks.replace(b"DetailViewModel", (HTML + ESC).encode()),
          "leaks, class names of HTML and escapes", "leaks", "ok")
    s.add(a, "leaks-giant.txt", leaks.replace(b"GalleryStore", GIANT.encode()),
          "leaks, a 1 MB class name", "leaks", None)
    s.add(a, "leaks-negative.txt", leaks.replace(b"3120 leaks for 524288", b"-3120 leaks for -524288"),
          "leaks, negative counts", None, None)
    s.add(a, "sample-esc.txt", sample.replace(b"Chat", (ESC + HTML).encode()),
          "sample, process of escapes and HTML", "sample", None)
    s.add(a, "xctest-esc.log", xclog.replace(b"testSystemLargeTimeline", (ESC + HTML).encode()),
          "xcodebuild log, test names of escapes and HTML", "xctest-metrics", "ok")
    s.add(a, "xctest-giant.log", xclog.replace(b"testSystemLargeTimeline", GIANT.encode(), 1),
          "xcodebuild log, a 1 MB test name", "xctest-metrics", None)
    s.add(a, "xcresult-html.json", xcjson.replace(b"TimelineMemoryTests", HTML.encode()),
          "xcresulttool metrics, test names HTML", "xctest-metrics", "ok")
    s.add(a, "xcresult-numbers.json",
          xcjson.replace(b"27001,27680", b"1e308,-27680").replace(b"27552", b"99999999999999999999999999"),
          "xcresulttool metrics, huge and negative measurements", "xctest-metrics", None)

    # Numbers, keys and structure.
    s.add(a, "jetsam-negative.ips",
          jetsam.replace(b'"pageSize" : 16384', b'"pageSize" : -16384').replace(b'"rpages" : ', b'"rpages" : -'),
          "JetsamEvent, negative page size and resident pages", "jetsam-event", None)
    s.add(a, "jetsam-huge.ips",
          jetsam.replace(b'"pageSize" : 16384', b'"pageSize" : 1e308')
          .replace(b'"lifetimeMax" : ', b'"lifetimeMax" : 99999999999999999999999999'),
          "JetsamEvent, huge numbers", "jetsam-event", None)
    s.add(a, "jetsam-nan.ips", jetsam.replace(b'"pageSize" : 16384', b'"pageSize" : NaN'),
          "JetsamEvent, NaN (not JSON)", "jetsam-event", "error")
    s.add(a, "jetsam-infinity.ips", jetsam.replace(b'"compressions" : 15734833', b'"compressions" : Infinity'),
          "JetsamEvent, Infinity (not JSON)", "jetsam-event", "error")
    s.add(a, "jetsam-duplicate.ips",
          jetsam.replace(b'"pageSize" : 16384', b'"pageSize" : 16384, "pageSize" : 4096, "pageSize" : 0'),
          "JetsamEvent, a key three times", "jetsam-event", None)
    s.add(a, "jetsam-deep.ips",
          jetsam.split(b"\n", 1)[0] + b"\n" + b'{"memoryStatus":{},"processes":' + b"[" * 200_000 + b"]" * 200_000 + b"}",
          "JetsamEvent body nested 200,000 deep", "jetsam-event", "error")
    s.add(a, "jetsam-badutf8.ips", jetsam.replace(b'"JustSend"', b'"Just\xff\xfeSend\xc0\xaf\xed\xa0\x80"'),
          "JetsamEvent, invalid UTF-8 in the app's name", None, None)
    s.add(a, "jetsam-nul.ips", jetsam.replace(b'"JustSend"', b'"Just\x00Send"'),
          "JetsamEvent, a raw NUL in a string", None, None)
    s.add(a, "jetsam-nul-escaped.ips", jetsam.replace(b'"JustSend"', b'"Just\\u0000Send\\u001b[31m"'),
          "JetsamEvent, NUL and ESC escaped in a string", "jetsam-event", "ok")
    s.add(a, "jetsam-utf16le-bom.ips", b"\xff\xfe" + jetsam.decode().encode("utf-16-le"),
          "JetsamEvent in UTF-16 LE after its mark", "jetsam-event", "ok")
    s.add(a, "jetsam-utf16be-bom.ips", b"\xfe\xff" + jetsam.decode().encode("utf-16-be"),
          "JetsamEvent in UTF-16 BE after its mark", "jetsam-event", "ok")
    s.add(a, "jetsam-utf16le-nobom.ips", jetsam.decode().encode("utf-16-le"),
          "JetsamEvent in UTF-16 LE without a mark", None, "error")
    s.add(a, "jetsam-utf16-odd.ips", b"\xff\xfe" + jetsam.decode().encode("utf-16-le")[:-1],
          "UTF-16 LE with an odd byte count", None, None)
    s.add(a, "jetsam-utf16-lone-surrogate.ips",
          b"\xff\xfe" + jetsam.decode().encode("utf-16-le").replace("JustSend".encode("utf-16-le"),
                                                                     b"\x00\xd8J\x00"),
          "UTF-16 LE with a lone surrogate in the app's name", None, None)
    s.add(a, "crash-309-duplicate.ips",
          crash309.replace(b'"procName" : "Heavy",', b'"procName" : "Heavy", "procName" : "' + HTML.encode() + b'",'),
          "crash .ips 309, procName twice", "crash-report", None)
    s.add(a, "crash-309-bug-type.ips", crash309.replace(b'"bug_type":"309"', b'"bug_type":"309","bug_type":"298"'),
          "crash .ips, bug_type twice", None, None)
    s.add(a, "crash-legacy-crlf-cr.crash", legacy.replace(b"\n", b"\r"),
          "legacy crash with bare CR line ends", None, None)
    s.add(a, "metrics-huge.json",
          metrics.replace(b'"742,400 kB"', b'"99999999999999999999999999 kB"').replace(b'"124,928 kB"', b'"-5 kB"'),
          "MetricKit metrics, huge and negative memory", "metrickit-metrics", None)
    s.add(a, "metrics-deep.json", b'{"payload":' + b'{"payload":' * 50_000 + b"1" + b"}" * 50_001,
          "MetricKit wrapped 50,000 deep", None, None)
    s.add(a, "json-giant-string.json", b'{"applicationExitMetrics":"' + GIANT.encode() + b'"}',
          "JSON with a 1 MB string where an object belongs", None, None)

    # Cut at many offsets, empty files, binary.
    for kind_name, data, kind in [("jetsam", jetsam, "jetsam-event"), ("crash-309", crash309, "crash-report"),
                                  ("metrics", metrics, "metrickit-metrics"), ("measurements", mjson, "measurements")]:
        for fraction in (0.02, 0.1, 0.25, 0.5, 0.75, 0.99):
            cut = max(1, int(len(data) * fraction))
            s.add(a, f"cut-{kind_name}-{cut}.json", data[:cut], f"{kind_name} cut at byte {cut} of {len(data)}",
                  None, None)
    for cut in (1, 100, 1000):
        s.add(a, f"cut-legacy-{cut}.crash", legacy[:cut], f"legacy crash cut at byte {cut}", None, None)
    for name in ("empty.ips", "empty.json", "empty.csv", "empty.log", "empty.crash"):
        s.add(a, name, b"", "an empty file", None, "error")
    s.add(a, "nul-only.ips", b"\x00" * 4096, "4 KB of NUL bytes", None, "error")
    s.add(a, "bom-only.json", b"\xef\xbb\xbf", "a UTF-8 byte order mark alone", None, "error")
    s.add(a, "utf16-bom-only.json", b"\xff\xfe", "a UTF-16 byte order mark alone", None, "error")
    s.add(a, "random.bin", bytes((i * 7919 + 13) % 256 for i in range(8192)), "8 KB of binary", None, "error")
    s.add(a, "giant-word.txt", GIANT.encode(), "a 1 MB word of no kind", None, "unrecognized")
    s.add(a, "esc-only.txt", (ESC * 1000).encode(), "terminal escapes only", None, "unrecognized")
    s.add(a, "deep-array.json", b"[" * 500_000, "500,000 open brackets", None, None)

    # Hostile file names over valid content: every name is shown, escaped.
    for tag, name in [("esc", ESC), ("bidi", BIDI), ("newline", "x\nSummary: no findings"), ("cr", "x\rOK"),
                      ("html", HTML.replace("/", "|")), ("formula", FORMULAS["eq"]), ("plus", "+1"), ("at", "@x"),
                      ("minus", "-x"), ("tab", "\tx")]:
        s.add(a, "names/" + name.replace("/", "|") + ".ips", jetsam, f"a JetsamEvent in a file named with {tag}", "jetsam-event", "ok")
    s.add(a, "names/" + "N" * 255, jetsam, "a JetsamEvent in a file of the longest name", "jetsam-event", "ok")
    with open(os.path.join(s.root, a, "names").encode() + b"/bad-utf8-\xff\xfe.ips", "wb") as f:
        f.write(jetsam)
    s.index.append({"group": a, "path": a + "/names/bad-utf8-??.ips", "case": "a file name of invalid UTF-8",
                    "kind": "jetsam-event", "status": None, "operand": False})

    # What is not a regular file.
    special = os.path.join(s.root, a, "special")
    os.makedirs(special, exist_ok=True)
    os.symlink("loop-b.ips", os.path.join(special, "loop-a.ips"))
    os.symlink("loop-a.ips", os.path.join(special, "loop-b.ips"))
    s.entry(a, "special/loop-a.ips", "a symbolic link loop", None, "error")
    s.entry(a, "special/loop-b.ips", "a symbolic link loop", None, "error")
    os.symlink("self.ips", os.path.join(special, "self.ips"))
    s.entry(a, "special/self.ips", "a symbolic link to itself", None, "error")
    os.symlink("/nonexistent/target.ips", os.path.join(special, "dangling.ips"))
    s.entry(a, "special/dangling.ips", "a dangling symbolic link", None, None)
    os.mkfifo(os.path.join(special, "fifo.ips"))
    s.entry(a, "special/fifo.ips", "a FIFO named like a crash report", None, "error")
    os.makedirs(os.path.join(special, "JetsamEvent-2026-08-11-112056.ips"))
    s.add(a, "special/JetsamEvent-2026-08-11-112056.ips/inside.txt", b"hello\n", "a file inside a folder named .ips",
          None, "unrecognized")
    os.makedirs(os.path.join(special, "empty-folder.ips"))
    s.entry(a, "special/empty-folder.ips", "an empty folder named like a file", None, None)


def tar_header(name, size=0, size_field=None, type_flag=b"0"):
    """One ustar header block; `size_field` (12 bytes) replaces the octal size."""
    block = bytearray(512)
    block[0:len(name[:100])] = name[:100]
    block[100:108] = b"0000644\0"
    block[124:136] = size_field if size_field is not None else b"%011o\0" % size
    block[136:148] = b"00000000000\0"
    block[156:157] = type_flag
    block[257:265] = b"ustar\x0000"
    block[148:156] = b" " * 8
    block[148:156] = b"%06o\0 " % sum(block)
    return bytes(block)


def tar_member(name, data, type_flag=b"0"):
    return tar_header(name, len(data), type_flag=type_flag) + data + b"\0" * ((512 - len(data) % 512) % 512)


def pax(records):
    body = b""
    for key, value in records:
        rest = b" " + key + b"=" + value + b"\n"
        length = len(rest) + 1
        while len(str(length)) + len(rest) != length:
            length += 1
        body += str(length).encode() + rest
    return tar_member(b"././@PaxHeader", body, b"x")


def round_four(s):
    """Issue 43's shapes: tar sizes near Int.max, a gzip trailer cut, long refused names, many members,
    impossible metric values, fenced pastes that hold two records, re-encoded duplicates."""
    import gzip
    a = "artifacts/round-four"
    top = b"sysdiagnose_2026.08.11_11-20-56+0900_iPhone-OS_iPhone_23A341/"
    jetsam = s.fixture("justsend/JetsamEvent-2026-08-11-112056.ips")
    end = b"\0" * 1024
    s.add(a, "tar-pax-size-intmax.tar.gz",
          gzip.compress(pax([(b"size", b"9223372036854775807")]) + tar_header(top + b"logs/huge.log") + end),
          "a .tar.gz whose pax size is Int.max", "sysdiagnose", "error")
    s.add(a, "tar-base256-size-intmax.tar",
          tar_header(top + b"ps.txt", 0) + tar_header(top + b"logs/huge.log", size_field=b"\x80\0\0\0\x7f" + b"\xff" * 7)
          + end, "a tar whose GNU base-256 size is Int.max", "sysdiagnose", "error")
    whole = gzip.compress(tar_member(top + b"crashes_and_spins/JetsamEvent-2026-08-11-112056.ips", jetsam) + end)
    s.add(a, "tar-trailer-cut.tar.gz", whole[:-4], "a .tar.gz cut inside its gzip trailer", "sysdiagnose", "error")
    long_names = b"".join(pax([(b"path", b"../" * 20_000 + b"%d.ips" % i)]) + tar_member(b"x", b"1") for i in range(50))
    s.add(a, "tar-long-refused-names.tar.gz", gzip.compress(long_names + end),
          "50 members with 60 KB pax paths holding '..'", "sysdiagnose", None)
    many = b"".join(tar_member(top + b"logs/f%05d.log" % i, b"line %d\n" % i) for i in range(11_000))
    s.add(a, "tar-many-members.tar.gz", gzip.compress(many + end), "11,000 tiny log members", "sysdiagnose", "error")
    metric = ("Test Case '-[A b]' measured [Memory Peak Physical, kB] average: 24000.0, relative standard deviation: "
              "0.1%, values: [{}], performanceMetricID:com.apple.dt.XCTMetric_Memory.physical_peak, "
              "baselineName: \"\", baselineAverage: , maxPercentRegression: 10.000%\n")
    for tag, values in [("inf", "1e308, 24000"), ("negative", "-32984.8, 24000"), ("thousands", "32,984.8, 24000"),
                        ("hex", "0x1p20, 24000")]:
        s.add(a, f"xcodebuild-{tag}.log", "Test Suite 'All tests' started.\nTest Case '-[A b]' started.\n"
              + metric.format(values), f"an xcodebuild log with an impossible value ({tag})", "xctest-metrics", None)
    for name in ("jetsam-elided-then-another-record.md", "jetsam-fragment-then-whole.md",
                 "crash-fragment-then-whole.md"):
        s.add(a, "pages/" + name, s.fixture("pasted-pages/" + name), "a page of two records: " + name, None, "ok")
    text = jetsam.decode()
    s.add(a, "dup/a.ips", jetsam, "a JetsamEvent", "jetsam-event", "ok")
    s.add(a, "dup/b-crlf.ips", text.replace("\n", "\r\n"), "the same JetsamEvent with CRLF", "jetsam-event", "ok")
    s.add(a, "dup/c-utf16.ips", b"\xff\xfe" + text.encode("utf-16-le"), "the same JetsamEvent in UTF-16",
          "jetsam-event", "ok")
    s.add(a, "dup/d-fenced.md", "The record:\n\n```\n" + text + "\n```\n", "the same JetsamEvent fenced",
          "jetsam-event", "ok")


def manifests(s):
    m = "manifests"
    s.add(m, "target.ips", s.fixture("justsend/JetsamEvent-2026-08-11-112056.ips"), "a manifest's target",
          "jetsam-event", "ok")
    entries = [{"url": "target.ips"}, {"url": ESC + HTML + ".ips"}, {"url": "x\nError: forged"},
               {"url": "target.ips", "sha256": "0" * 64}, {"url": "target.ips", "sha256": ESC},
               {"url": "http://127.0.0.1:9/" + ESC}, {"url": 5}, {"nope": HTML}, "=cmd|' /C calc'!A0"]
    s.add(m, "hostile-entries.json", json.dumps({"artifacts": entries}), "a manifest of hostile entries",
          "manifest", None)
    s.add(m, "self.json", json.dumps({"artifacts": [{"url": "self.json"}, {"url": "target.ips"}]}),
          "a manifest listing itself", "manifest", None)
    s.add(m, "loop-a.json", json.dumps({"artifacts": [{"url": "loop-b.json"}]}), "manifests listing each other",
          "manifest", None)
    s.add(m, "loop-b.json", json.dumps({"artifacts": [{"url": "loop-a.json"}]}), "manifests listing each other",
          "manifest", None)
    s.add(m, "many.json", json.dumps({"artifacts": [{"url": f"missing-{i}.ips"} for i in range(20_000)]}),
          "a manifest of 20,000 entries", "manifest", None)
    s.add(m, "deep.json", b'{"artifacts":' + b"[" * 100_000 + b"]" * 100_000 + b"}", "a manifest nested deep",
          None, None)
    s.add(m, "bomb.yaml",
          "artifacts:\n  - url: target.ips\na: &a [" + ",".join(["x"] * 10) + "]\n"
          + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 10) + "]\n" for i in range(8)),
          "a YAML manifest with an alias bomb", None, None)
    s.add(m, "html.yaml", f"artifacts:\n  - url: {json.dumps(HTML + ESC)}\n  - url: target.ips\n",
          "a YAML manifest naming HTML and escapes", "manifest", None)


def documents(s, binary):
    d = "documents"
    base_path = os.path.join(s.root, d, "base.json")
    os.makedirs(os.path.dirname(base_path), exist_ok=True)
    with open(base_path, "wb") as f:
        subprocess.run([binary, "run", "--app", "JustSend", "--format", "json", "Fixtures/justsend"], cwd=s.repo,
                       stdout=f, check=True, env=dict(os.environ, SOURCE_DATE_EPOCH="1786000000"))
    s.entry(d, "base.json", "the JustSend run, as saved")
    with open(base_path, "rb") as f:
        raw = f.read()
    base = json.loads(raw)

    def free_text(value):
        """Whether a string of the document is free text (not an id, a code, a time, a hash or an enum)."""
        if len(value) < 3 or value[:4].isdigit():
            return False
        if all(c.islower() or c.isdigit() or c in ".-_/:" for c in value):
            return False
        return not (len(value) == 64 and all(c in "0123456789abcdef" for c in value))

    def poison(node, payload):
        if isinstance(node, dict):
            return {k: poison(v, payload) for k, v in node.items()}
        if isinstance(node, list):
            return [poison(v, payload) for v in node]
        if isinstance(node, str) and free_text(node):
            return node + payload
        return node

    def write(name, document, case, compact=False):
        text = json.dumps(document, indent=None if compact else 2, ensure_ascii=False)
        s.add(d, name, text, case)

    for tag, payload in [("esc", ESC + BIDI + FORGE), ("html", HTML + "]]>`|*_[x](javascript:alert(1))"),
                         ("formula", "\n" + FORMULAS["eq"])]:
        document = poison(base, payload)
        document["subject"]["app"] = payload.strip() if tag != "formula" else FORMULAS["eq"]
        document["run"]["id"] = payload
        write(f"every-text-{tag}.json", document, f"every free text of the document ends in {tag}")
    giant = json.loads(raw)
    giant["subject"]["app"] = GIANT
    giant["steps"][1]["findings"][0]["detail"] = GIANT
    write("giant-words.json", giant, "a 1 MB app name and finding detail", compact=True)
    numbers = json.loads(raw)
    numbers["facts"]["jetsam.app.peakMB"] = 1e308
    numbers["facts"]["jetsam.app.rank"] = -99999999999999999999999999
    numbers["facts"]["repro.ratio"] = -1e-308
    numbers["steps"][1]["facts"]["jetsam.app.peakMB"] = -1e308
    write("huge-numbers.json", numbers, "facts of 1e308, -1e308 and a 26-digit integer")
    s.add(d, "nan.json", raw.replace(b'"jetsam.app.peakMB" : 725', b'"jetsam.app.peakMB" : NaN', 1)
          .replace(b'"jetsam.app.peakMB": 725', b'"jetsam.app.peakMB": NaN', 1), "NaN as a fact (not JSON)")
    s.add(d, "duplicate-keys.json", raw.replace(b"{", b'{"schema": "memhunt.findings/9", ', 1),
          "the schema key twice")
    s.add(d, "deep.json", b'{"schema":"memhunt.findings/3","facts":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
          "a document nested 100,000 deep")
    s.add(d, "bad-utf8.json", raw.replace(b'"JustSend"', b'"Just\xff\xc0\xafSend"'), "invalid UTF-8 in strings")
    s.add(d, "utf16.json", b"\xff\xfe" + raw.decode().encode("utf-16-le"), "the document in UTF-16 after its mark")
    s.add(d, "nul.json", raw.replace(b'"JustSend"', b'"Just\x00Send"', 1), "a raw NUL in a string")
    wrong = json.loads(raw)
    wrong["schema"] = ESC
    write("wrong-schema.json", wrong, "a schema of escapes")
    types = json.loads(raw)
    types["steps"] = {"x": HTML}
    write("wrong-types.json", types, "steps an object")
    s.add(d, "array.json", b"[" + raw + b"]", "the document inside an array")
    s.add(d, "empty.json", b"", "an empty file")
    for fraction in (0.01, 0.3, 0.6, 0.95):
        cut = int(len(raw) * fraction)
        s.add(d, f"cut-{cut}.json", raw[:cut], f"the document cut at byte {cut} of {len(raw)}")


def playbooks(s):
    p = "playbooks"
    with open(os.path.join(s.repo, "Playbooks/memory-hunt.yaml")) as f:
        body = f.read()
    s.add(p, "title-esc.yaml", body.replace("title:", "title: " + json.dumps(ESC + HTML + FORGE) + " #", 1),
          "a playbook titled with escapes, HTML and forged lines")
    s.add(p, "giant.yaml", body.replace("title:", "title: " + GIANT + " #", 1), "a playbook with a 1 MB title")
    s.add(p, "bomb.yaml",
          "a: &a [" + ",".join(["x"] * 10) + "]\n"
          + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [" + ",".join([f"*{chr(97 + i)}"] * 10) + "]\n" for i in range(8))
          + body, "a playbook with an alias bomb")
    s.add(p, "deep.yaml", "id: deep\ntitle: x\nsteps: " + "[" * 50_000 + "]" * 50_000 + "\n", "a playbook nested deep")
    s.add(p, "bad-utf8.yaml", body.encode().replace(b"title:", b"title: \xff\xfe", 1), "invalid UTF-8")
    s.add(p, "nul.yaml", body.encode().replace(b"title:", b"title: a\x00b #", 1), "a NUL byte")
    s.add(p, "empty.yaml", b"", "an empty playbook")
    s.add(p, "unknown-check.yaml", body.replace("jetsam-rank", ESC + HTML, 1), "a check id of escapes and HTML")
    s.add(p, "utf16.yaml", b"\xff\xfe" + body.encode("utf-16-le"), "a playbook in UTF-16 after its mark")


def sessions(s, binary):
    base_dir = os.path.join(s.root, "sessions", "base")
    os.makedirs(base_dir)
    shutil.copy(os.path.join(s.repo, "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips"), base_dir)
    answers = "The app gets slow\n\nJustSend\n\nJetsamEvent-2026-08-11-112056.ips\n"
    subprocess.run([binary, "triage", "--session", "session.json", "-o", "report.txt"], cwd=base_dir,
                   input=answers.encode(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(base_dir, "session.json"), "rb") as f:
        raw = f.read()
    s.entry("sessions", "base/session.json", "a session stopped at the end of its input")
    base = json.loads(raw)

    def write(tag, data, case):
        folder = os.path.join(s.root, "sessions", tag)
        os.makedirs(folder)
        shutil.copy(os.path.join(base_dir, "JetsamEvent-2026-08-11-112056.ips"), folder)
        s.add("sessions", tag + "/session.json", data, case)

    def field(tag, path, value, case):
        document = json.loads(raw)
        node = document
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        write(tag, json.dumps(document), case)

    field("output-absolute", ["output"], "/tmp/memhunt-hostile-victim.txt", "an absolute output")
    field("output-parent", ["output"], "../../../victim.txt", "an output in a parent folder")
    field("output-esc", ["output"], ESC + FORGE, "an output named with escapes")
    field("output-artifact", ["output"], "JetsamEvent-2026-08-11-112056.ips", "an output that is an artifact")
    field("operands-esc", ["operands"], [ESC + HTML, "/etc/passwd", "../../" * 20 + "etc/shadow"],
          "operands of escapes and outside paths")
    field("sources-outside", ["session", "artifactSources"], ["/etc/passwd", ESC], "artifact sources outside")
    field("cursor-huge", ["session", "cursor"], 99999999999999999999, "a cursor past every integer")
    field("cursor-negative", ["session", "cursor"], -1, "a negative cursor")
    field("playbook-html", ["playbook"], HTML + ESC, "a playbook of HTML and escapes")
    field("playbook-url", ["playbook"], "http://127.0.0.1:9/x.yaml", "a playbook URL nobody serves")
    field("app-giant", ["session", "app"], GIANT, "a 1 MB app name")
    field("format-esc", ["format"], ESC, "a format of escapes")
    field("steps-object", ["session", "steps"], {"x": 1}, "steps an object")
    write("deep", b'{"schema":"memhunt.triage/2","session":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
          "a session nested 100,000 deep")
    write("bad-utf8", raw.replace(b'"JustSend"', b'"\xff\xfe"'), "invalid UTF-8")
    write("empty", b"", "an empty session")
    write("cut", raw[: len(raw) // 2], "a session cut in half")
    write("nan", raw.replace(b'"cursor":', b'"cursor":NaN,"x":', 1), "NaN (not JSON)")
    write("array", b"[" + raw + b"]", "a session inside an array")


def main():
    root, repo, binary = sys.argv[1:4]
    s = Suite(root, repo)
    artifacts(s)
    round_four(s)
    manifests(s)
    documents(s, binary)
    playbooks(s)
    sessions(s, binary)
    with open(os.path.join(root, "index.json"), "w") as f:
        json.dump(s.index, f, indent=1, ensure_ascii=True)
    print(len(s.index))


if __name__ == "__main__":
    main()
