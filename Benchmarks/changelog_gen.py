#!/usr/bin/env python3
"""Realistic SwiftUI change logs, and a reference counter of their change lines (issue 30).

The generator writes a log shaped like a real one, not like the benchmark's repeated burst: 200 views
(long and generic names, `Module.Type`, `ModifiedContent<…, …>`, `ForEach<Array<Item>, UUID, Row>`),
each with its own set of properties drawn from about 30, 1-4 of them changed per line in any order;
`unchanged.` lines; other subsystems' lines between (`[Network] request … finished in … ms`, Core Data,
layout warnings); bursts of 1-16 ms steps with irregular gaps of 60 ms to 5 s; several threads; and a few
malformed lines (cut short, no items, an item that is none, a name with a `-` or a non-ASCII letter, a long
line of noise). Seeded: the same arguments write the same bytes. Styles:

  console  Xcode's console / `log show --style default`: `2026-08-12 14:03:05.123456+0900 Memo[48211:…] View: … changed.`
  ndjson   `log show --style ndjson`: one record per line, `eventMessage`, `processImagePath` (slashes escaped as
           `\\/`, as `log` writes them), `timestamp` among the other keys, and other subsystems' records between
  json     `log show --style json`: the same records, one member per line, `[{` … `},{` … `}]`

The reference counter reads a log of any of the styles with Python's own tools (`json.loads`, `re`,
`datetime`) and the scanner's documented grammar (`ChangeLogScanner`'s doc comment): per-view evaluations,
per-(view, item) counts, `@self` per view, `unchanged.` lines, per-process evaluations and bursts. It is the
other side of the differential test (`ChangeLogDifferentialTests`) and of `Benchmarks/run.py`'s rows.

    Benchmarks/changelog_gen.py write PATH --style console|ndjson|json [--size-mb 16] [--seed 30] [--views 200]
    Benchmarks/changelog_gen.py count PATH --style console|ndjson|json     (prints the counts as JSON)
"""
import argparse
import datetime
import json
import os
import random
import re
import unicodedata
import sys

PROPERTIES = [
    "@self", "@identity", "@dependencies", "_model", "_count", "_isSelected", "_isPresented", "_path", "_query",
    "_scrollPosition", "_dragProgress", "_isDrawerOpen", "_focus", "_selection", "_items", "_thumbnailStore",
    "_viewModel", "_settings", "_draft", "_error", "\\Model.items", "\\Model.selection", "\\Session.user",
    "\\ThumbnailStore.<computed> (Dictionary<String, Int>)", "\\Library.sections.<computed> (Array<Section>)",
    "\\Store.state.filter", "\\Theme.palette", "_animationPhase", "_geometry", "@3",
]

STEMS = ["Library", "Thumbnail", "Sidebar", "Status", "Stream", "Root", "Settings", "Profile", "Search", "Player",
         "Composer", "Inbox", "Detail", "Gallery", "Timeline", "Account", "Onboarding", "Filter", "Map", "Cart"]
KINDS = ["Screen", "Grid", "Row", "Cell", "View", "Bar", "Header", "Section", "Sheet", "List"]


def view_names(rng, count=200):
    names = []
    for index in range(count):
        stem, kind = STEMS[index % len(STEMS)], KINDS[(index // len(STEMS)) % len(KINDS)]
        # Past the first 200 (an app of thousands of views), each base has a number of its own, so every name
        # is distinct; the first 200 are the same as with 200 views.
        base = "%s%s" % (stem, kind) if index < 200 else "%s%s%d" % (stem, kind, index // 200)
        shape = index % 7
        if shape == 0:
            name = "FeatureModule%d.%s" % (index % 13, base)
        elif shape == 1:
            name = "ModifiedContent<%s, _PaddingLayout>" % base
        elif shape == 2:
            name = "ForEach<Array<%sItem>, UUID, %s>" % (stem, base)
        elif shape == 3:
            name = "%sContentContainerWithAVeryLongDescriptiveNameForTheTeam%d" % (base, index)
        elif shape == 4:
            name = "_ConditionalContent<%s, EmptyView>" % base
        else:
            name = "%s%d" % (base, index)
        names.append(name)
    return names


NOISE = [
    "[Network] request %(n)d GET https://api.example.com/v1/items?page=%(p)d finished in %(ms)d ms",
    "[CoreData] fetch of %(p)d Item objects took %(ms)d ms",
    "[Analytics] flushed %(p)d events (%(n)d bytes)",
    "[UIKit] Unable to simultaneously satisfy constraints. Will attempt to recover by breaking <NSLayoutConstraint:0x%(n)x>",
    "nw_connection_receive_internal_block_invoke [C%(p)d] Receive reply failed with error \"Operation canceled\"",
    "[ImageCache] evicted %(p)d images, %(n)d bytes: below 50 MB",
    "Thumbnail decode: %(ms)d ms for page %(p)d",
]

MALFORMED = [
    "RootScreen: changed.",                     # no items
    "RootScreen: selection changed.",           # an item that is none
    "Root-Screen: @self changed.",              # a '-' in the name
    "R\u00f6\u00f6tScreen: @self changed.",     # a non-ASCII letter in the name
    "LibraryScreen: @self chan",                # cut short
    ": @self changed.",                         # no name
]


def messages(rng, names, props):
    """Endless (message, kind, thread) tuples; kind is 'change', 'noise' or 'malformed'."""
    while True:
        burst = rng.choice((1, 2, 3, 5, 8, 13, 21, 40))
        for _ in range(burst):
            roll = rng.random()
            if roll < 0.18:
                text = rng.choice(NOISE) % {"n": rng.randrange(1 << 24), "p": rng.randrange(1, 400),
                                            "ms": rng.randrange(1, 2000)}
                yield text, "noise", rng.choice((1, 1, 2, 3))
            elif roll < 0.185:
                yield rng.choice(MALFORMED), "malformed", 0
            elif roll < 0.1853:
                yield "[Logging] " + "x" * rng.randrange(2000, 9000), "noise", 2
            else:
                view = names[min(int(rng.paretovariate(0.9)) - 1, len(names) - 1) if rng.random() < 0.5
                             else rng.randrange(len(names))]
                if rng.random() < 0.05:
                    yield "%s: unchanged." % view, "change", 0
                else:
                    own = props[view]
                    items = rng.sample(own, rng.choice((1, 1, 2, 2, 3, 4)))
                    yield "%s: %s changed." % (view, ", ".join(items)), "change", 0
        yield None, "gap", 0


def write(path, style, size, seed=30, views=200):
    """Writes about `size` bytes of a log of `style` with `views` views; deterministic for the same arguments."""
    rng = random.Random(seed)
    names = view_names(rng, views)
    props = {name: rng.sample(PROPERTIES, rng.randrange(4, 11)) for name in names}
    clock = datetime.datetime(2026, 8, 12, 14, 3, 5)
    micros = 0
    threads = ["3456789", "3456790", "3456791", "3456802"]
    written = 0
    first = True
    with open(path + ".part", "w", encoding="utf-8", newline="\n") as out:
        if style == "json":
            out.write("[")
        for message, kind, thread in messages(rng, names, props):
            if written >= size:
                break
            if kind == "gap":
                micros += rng.choice((60_000, 120_000, 400_000, 1_500_000, 5_000_000)) + rng.randrange(1000)
                if style == "console" and rng.random() < 0.1:
                    out.write("\n")
                    written += 1
                continue
            micros += rng.randrange(1000, 16_000)
            stamp = (clock + datetime.timedelta(microseconds=micros)).strftime("%Y-%m-%d %H:%M:%S.%f") + "+0900"
            process = "Memo" if rng.random() < 0.97 else "MemoWidget"
            if style == "console":
                text = "%s %s[48211:%s] %s\n" % (stamp, process, threads[thread], message)
            else:
                record = [
                    ("traceID", rng.randrange(1 << 60)), ("eventMessage", message), ("eventType", "logEvent"),
                    ("source", None), ("formatString", "%s"), ("activityIdentifier", 0),
                    ("subsystem", "com.apple.SwiftUI" if kind == "change" else "com.example.memo"),
                    ("category", "Changed Body Properties" if kind == "change" else "default"),
                    ("threadID", int(threads[thread])), ("senderImageUUID", "8B1F0C2A-5D1E-3C4B-9A7F-0E6D5C4B3A29"),
                    ("backtrace", {"frames": [{"imageOffset": rng.randrange(1 << 20),
                                               "imageUUID": "8B1F0C2A-5D1E-3C4B-9A7F-0E6D5C4B3A29"}]}),
                    ("bootUUID", ""), ("processImagePath", "/Applications/%s.app/%s" % (process, process)),
                    ("timestamp", stamp), ("senderImagePath", "/System/Library/Frameworks/SwiftUI.framework/SwiftUI"),
                    ("machTimestamp", 1_000_000_000 + micros * 24), ("messageType", "Default"),
                    ("processImageUUID", "0C2A8B1F-5D1E-3C4B-9A7F-0E6D5C4B3A29"), ("processID", 48211),
                    ("senderProgramCounter", rng.randrange(1 << 20)), ("parentActivityIdentifier", 0),
                    ("timezoneName", ""),
                ]
                if style == "ndjson":
                    text = "{" + ",".join(json.dumps(k) + ":" + json.dumps(v, separators=(",", ":"))
                                          for k, v in record).replace("/", "\\/") + "}\n"
                    if kind == "malformed" and rng.random() < 0.5:
                        text = text[: len(text) // 3] + "\n"  # a record cut short (its message is lost)
                else:
                    members = ",\n".join("  %s : %s" % (json.dumps(k), json.dumps(v, separators=(",", ":")))
                                         for k, v in record).replace("/", "\\/")
                    text = ("{\n" if first else "},{\n") + members + "\n"
                    first = False
            out.write(text)
            written += len(text.encode())
        if style == "json":
            out.write("}]\n")
        if style == "ndjson":
            # The last line is a whole record, so a cut one before it never ends the file.
            out.write('{"eventMessage":"[Network] done","processImagePath":"\\/Applications\\/Memo.app\\/Memo",'
                      '"timestamp":"2026-08-12 23:59:59.000000+0900"}\n')
    os.replace(path + ".part", path)


# ---- The reference counter ----

STAMP = re.compile(r"^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:Z|[+-]\d\d:?\d\d)?")
PROCESS = re.compile(r"^\s*(\S+?)(?:\([^)]*\))?\[\d+[:\]]")


def split_items(text):
    items, depth, current = [], 0, ""
    for ch in text:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            items.append(current.strip(" \t\r"))
            current = ""
            continue
        current += ch
    items.append(current.strip(" \t\r"))
    return [item for item in items if item]


def last_word(text):
    """The last word of `text` outside <>, () and []."""
    depth, index = 0, len(text)
    while index > 0:
        ch = text[index - 1]
        if ch in ">)]":
            depth += 1
        elif ch in "<([":
            if depth == 0:
                return text[index:]
            depth -= 1
        elif ch in " \t" and depth == 0:
            return text[index:]
        index -= 1
    return text


def type_name(name):
    """The name a view is counted under (memhunt's ViewTypeName), or None when it is no type's name: ASCII
    letters, digits and `_.<>()[], ?$`, any other character but a space, a control or U+FFFD; a mangled name
    of plain nominal types (`$s7Courier11ContentViewV`) demangled to its path without the module."""
    if not name or not (name[0] in "_$" or (name[0].isascii() and name[0].isalpha()) or not name[0].isascii()):
        return None
    for ch in name:
        if ch.isascii():
            if not (ch.isalnum() or ch in "_.<>()[], ?$"):
                return None
        elif ch == "\ufffd" or ch.isspace() or unicodedata.category(ch) == "Cc" or "\udc80" <= ch <= "\udcff":
            return None
    if name[0] == "$":
        return demangled(name) or name
    return name


def demangled(name):
    m = re.match(r"^_?\$[sS]", name)
    if not m:
        return None
    rest, path, module = name[m.end():], [], True
    while rest:
        if rest == "D" and path:
            break
        d = re.match(r"^([1-9][0-9]{0,3})", rest)
        if not d or len(rest) < d.end() + int(d.group(1)):
            return None
        word = rest[d.end(): d.end() + int(d.group(1))]
        if not re.fullmatch(r"[A-Za-z0-9_]+", word):
            return None
        rest = rest[d.end() + int(d.group(1)):]
        if module:
            module = False
            continue
        if not rest or rest[0] not in "VCO":
            return None
        path.append(word)
        rest = rest[1:]
    return ".".join(path) or None


def parse_change(line):
    """(view, items, unchanged) of a change line, or None. A line cut by an elision (`…`, `...`) counts as the
    change of the items before its last `, `."""
    line = line.rstrip(" \t\r")
    if (line.endswith("\u2026") or line.endswith("...")) and ", " in line[:-3 if line.endswith("...") else -1]:
        cut = line.rfind(", ", 0, len(line) - (3 if line.endswith("...") else 1))
        if cut > 0:
            return parse_change(line[:cut] + " changed.")
    if line.endswith(": unchanged."):
        head, items, unchanged = line[: -len(": unchanged.")], [], True
    elif line.endswith(" changed."):
        body = line[: -len(" changed.")]
        colon = body.rfind(": ")
        if colon <= 0:
            return None
        head, unchanged = body[:colon], False
        items = split_items(body[colon + 2:])
        if not items or any(item[0] not in "@_\\" for item in items):
            return None
    else:
        return None
    name = last_word(head)
    if name == "body" and head.endswith(" body") and len(head) > 5:
        name = last_word(head[:-5])
    name = type_name(name)
    if name is None:
        return None
    return name, items, unchanged


def millis(stamp):
    m = STAMP.match(stamp)
    if not m:
        return None
    y, mo, d, h, mi, s = (int(g) for g in m.groups()[:6])
    fraction = (m.group(7) or "")[:3].ljust(3, "0")
    days = datetime.date(y, mo, d).toordinal()
    return (((days * 24 + h) * 60 + mi) * 60 + s) * 1000 + int(fraction)


class Counts:
    def __init__(self):
        self.views, self.items, self.self_changed, self.processes = {}, {}, {}, {}
        self.evaluations = self.unchanged = self.bursts = 0
        self.last_millis, self.separated, self.in_burst = None, False, False

    def other(self):
        self.separated = True

    def change(self, text, stamp, process):
        parsed = parse_change(text)
        if parsed is None:
            self.separated = True
            return
        view, items, unchanged = parsed
        self.evaluations += 1
        self.unchanged += unchanged
        self.views[view] = self.views.get(view, 0) + 1
        per = self.items.setdefault(view, {})
        for item in items:
            per[item] = per.get(item, 0) + 1
        if "@self" in items:
            self.self_changed[view] = self.self_changed.get(view, 0) + 1
        if process:
            self.processes[process] = self.processes.get(process, 0) + 1
        now = millis(stamp) if stamp else None
        if now is not None and self.last_millis is not None:
            starts = abs(now - self.last_millis) > 50
        else:
            starts = self.separated
        if not self.in_burst or starts:
            self.bursts += 1
            self.in_burst = True
        self.last_millis, self.separated = now, False

    def result(self):
        return {"evaluations": self.evaluations, "unchanged": self.unchanged, "bursts": self.bursts,
                "views": self.views, "items": {v: i for v, i in self.items.items()},
                "selfChanged": self.self_changed, "processes": self.processes}


def count(path, style):
    counts = Counts()
    with open(path, encoding="utf-8", errors="surrogateescape", newline="\n") as f:
        if style == "console":
            for raw in f:
                line = raw.rstrip("\n")
                if not line.strip(" \t\r"):
                    counts.other()
                    continue
                m = STAMP.match(line)
                stamp = m.group(0) if m else None
                rest = line[m.end():] if m else line
                process = PROCESS.match(rest) if m else None
                counts.change(line, stamp, process.group(1) if process else None)
        elif style == "ndjson":
            for raw in f:
                try:
                    record = json.loads(raw)
                except ValueError:
                    continue  # a record cut short: the scanner drops it for the next record's values
                record_lines(counts, record)
        else:
            for record in json.load(f):
                record_lines(counts, record)
    return counts.result()


def record_lines(counts, record):
    message = record.get("eventMessage")
    if not isinstance(message, str):
        return
    process = record.get("processImagePath") or ""
    process = process.rsplit("/", 1)[-1] or None
    for part in message.split("\n"):
        if not part.strip(" \t\r"):
            counts.other()
        else:
            counts.change(part, record.get("timestamp"), process)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("write", "count"))
    parser.add_argument("path")
    parser.add_argument("--style", choices=("console", "ndjson", "json"), default="console")
    parser.add_argument("--size-mb", type=float, default=16)
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--views", type=int, default=200)
    args = parser.parse_args()
    if args.action == "write":
        write(args.path, args.style, int(args.size_mb * 1024 * 1024), args.seed, args.views)
    else:
        json.dump(count(args.path, args.style), sys.stdout, sort_keys=True, indent=1)
        print()


if __name__ == "__main__":
    main()
