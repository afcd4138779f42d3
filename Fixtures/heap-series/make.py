#!/usr/bin/env python3
"""Writes the heap series of the four growth shapes (run once; the outputs are the fixtures).

Each folder is one process (`Relay`, pid 7301) after each of four visits of one screen, as `heap` prints it:
the same background classes in every heap with small moves, and one class (with its closure contexts where
the shape needs them) shaped as the folder says. Every table's rows sum to its `All zones` line.

    leak/        Session and its Closure context +50 per visit; leaks.txt lists every Session in a cycle
    abandoned/   ImageCacheEntry and CGImage +120 per visit; leaks.txt finds no leak (still reachable)
    step/        ThumbnailEntry 0 -> 400 after the first visit, then flat
    transient/   DecodedPage 20 -> 520 -> 900 -> 25: made and released
"""
import os

HEAD = """Process:         Relay [7301]
Path:            /private/var/containers/Bundle/Application/C/Relay.app/Relay
Load Address:    0x100fa0000
Identifier:      dev.memhunt.relay
Version:         2.4 (88)
Code Type:       ARM64
Platform:        iOS
Parent Process:  debugserver [7302]

Date/Time:       2026-11-20 10:{minute:02d}:00.000 +0100
Launch Time:     2026-11-20 09:58:12.204 +0100
OS Version:      iPhone OS 26.1 (23B85)
Report Version:  7
Analysis Tool:   /usr/bin/heap

Physical footprint:         {footprint:.1f}M
Physical footprint (peak):  {peak:.1f}M
Idle exit:                  untracked
----

Process 7301: 3 zones

All zones: {nodes} nodes malloced - Sizes: 192[{raw}] 64[{sixty}] 32[{thirty}]

Found:  1702 ObjC classes  2911 Swift classes  233 C++ classes  281 CFTypes
Type names for non-objects could be derived from allocation backtraces if the process used MallocStackLogging

-----------------------------------------------------------------------
All zones: {nodes} nodes ({bytes} bytes)

   COUNT      BYTES       AVG   CLASS_NAME                                        TYPE    BINARY
   =====      =====       ===   ==========                                        ====    ======
"""

# (class, type, binary, size) with counts per visit around a base.
BACKGROUND = [
    ("non-object", "", "", 352, [61012, 61188, 61040, 61233]),
    ("CFString", "ObjC", "CoreFoundation", 52, [5210, 5214, 5209, 5220]),
    ("Class.data (class_rw_t)", "C", "libobjc.A.dylib", 32, [5801, 5801, 5801, 5801]),
    ("Closure context", "Swift", "<unknown>", 160, [4410, 4418, 4406, 4415]),
    ("NSMutableDictionary", "ObjC", "CoreFoundation", 32, [2104, 2110, 2101, 2108]),
    ("CALayer", "ObjC", "QuartzCore", 96, [388, 392, 386, 390]),
    ("MessageRow", "Swift", "Relay", 144, [60, 61, 60, 62]),
]

SHAPES = {
    "leak": [("Session", "Swift", "Relay", 96, [10, 60, 110, 160]),
             ("Closure context", "Swift", "<unknown>", 48, [0, 50, 100, 150])],
    "abandoned": [("ImageCacheEntry", "Swift", "Relay", 64, [30, 150, 270, 390]),
                  ("CGImage", "C", "CoreGraphics", 208, [30, 150, 270, 390])],
    "step": [("ThumbnailEntry", "Swift", "Relay", 80, [0, 400, 400, 400])],
    "transient": [("DecodedPage", "Swift", "Relay", 4096, [20, 520, 900, 25])],
}


def table(rows):
    merged = {}
    for name, kind, binary, size, count in rows:
        key = (name, kind, binary)
        c, b = merged.get(key, (0, 0))
        merged[key] = (c + count, b + count * size)
    return sorted(((c, b, k) for k, (c, b) in merged.items() if c > 0), key=lambda r: (-r[0], r[2]))


def heap(shape, visit):
    rows = [(n, t, b, s, counts[visit]) for n, t, b, s, counts in BACKGROUND + SHAPES[shape]]
    lines = table(rows)
    nodes = sum(c for c, _, _ in lines)
    total = sum(b for _, b, _ in lines)
    raw = next(c for c, _, k in lines if k[0] == "non-object")
    text = HEAD.format(minute=visit * 2, footprint=70 + total / 1048576 * 3, peak=72 + total / 1048576 * 3,
                       nodes=nodes, bytes=total, raw=raw, sixty=nodes // 3, thirty=nodes - raw - nodes // 3)
    for count, size, (name, kind, binary) in lines:
        text += ("%8d %10d %9.1f   %-50s%-8s%s" % (count, size, size / count, name, kind, binary)).rstrip() + "\n"
    return text


LEAKS_HEAD = """Process:         Relay [7301]
Path:            /private/var/containers/Bundle/Application/C/Relay.app/Relay
Identifier:      dev.memhunt.relay
Version:         2.4 (88)
Code Type:       ARM64
Platform:        iOS
Parent Process:  debugserver [7302]
Target Type:     live task

Date/Time:       2026-11-20 10:09:00.000 +0100
OS Version:      iPhone OS 26.1 (23B85)
Report Version:  104

Physical footprint:         88.0M
Physical footprint (peak):  90.1M
Idle exit:                  untracked
----

leaks Report Version: 4.0
Process 7301: 82411 nodes malloced for 24120 KB
"""


def leaks(cycles):
    if cycles == 0:
        return LEAKS_HEAD + "Process 7301: 0 leaks for 0 total leaked bytes.\n"
    text = LEAKS_HEAD + "Process 7301: %d leaks for %d total leaked bytes.\n\n" % (cycles * 2, cycles * 144)
    text += "    %d (%d bytes) << TOTAL >>\n\n" % (cycles * 2, cycles * 144)
    for i in range(cycles):
        session, closure = 0x10c000000 + i * 0x100, 0x10d000000 + i * 0x100
        text += "      2 (144 bytes) ROOT CYCLE: <Relay.Session 0x%x> [96]\n" % session
        text += "         __strong onMessage --> ROOT CYCLE: <Closure context 0x%x> [48]\n" % closure
        text += "            __strong self --> CYCLE BACK TO <Relay.Session 0x%x> [96]\n" % session
    return text


here = os.path.dirname(os.path.abspath(__file__))
for shape in SHAPES:
    os.makedirs(os.path.join(here, shape), exist_ok=True)
    for visit in range(4):
        with open(os.path.join(here, shape, "relay-visit-%d.heap.txt" % (visit + 1)), "w") as f:
            f.write(heap(shape, visit))
with open(os.path.join(here, "leak", "relay-visit-4.leaks.txt"), "w") as f:
    f.write(leaks(150))
with open(os.path.join(here, "abandoned", "relay-visit-4.leaks.txt"), "w") as f:
    f.write(leaks(0))
