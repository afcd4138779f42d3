#!/usr/bin/env python3
"""Realistic inputs for Benchmarks/run.py's memory-tool rows (issue 50), seeded and deterministic, each written
as a stream (never held whole in memory) with its expected figures beside it in PATH.json.

  allocations  `xcrun xctrace export` of Allocations' `Allocations List` detail: `<row …/>` elements whose values
               are attributes (address, category, live, responsible-caller, size, identifier, responsible-library,
               timestamp, index), most with a `<backtrace>` child whose frames and binaries are given once with
               `id` and referred to afterwards with `ref` (the track-detail shape public code that reads real
               exports describes); thousands of categories and distinct backtraces, long callers with XML entities
  leaks        `leaks` text: the process header, `Process N: X leaks for Y total leaked bytes.`, the
               `<< TOTAL >>` line, then ROOT CYCLE / ROOT LEAK trees largest first, with labelled edges
               (`__strong`, `__weak`, `+ 16` offsets), nested cycles, `CYCLE BACK TO` lines, string previews and
               blocks' images
  heap         `heap -addresses all` text: the header, `All zones:` lines, the COUNT / BYTES / AVG / CLASS_NAME /
               TYPE / BINARY table by count (long generic names, `malloc in <caller>` types, a class in several
               rows by block size), then every block's `0xADDR: Class (N bytes)` line in address order
  footprint    `footprint --sample … -j` JSON of an app and its children (extensions, WebKit processes), each
               with 30-45 categories per sample, the app growing
  sysdiagnose  a sysdiagnose `.tar.gz`: folders, crashes_and_spins reports (JetsamEvents, crash reports),
               logs/ text, the top-level command outputs, plists and other files memhunt skips, and a
               system_logs.logarchive of tracev3 and uuidtext files (incompressible, like the real ones)
  killlog      `log show --style ndjson` of a device: many processes' lines and, among them, the kernel's
               memorystatus lines of kills (limit crossed, kill in its band, kill with its footprint) and
               ReportSystemMemory's, soft-limit crossings, memorystatus lines that are no kill
  metrickit    a fleet of MetricKit payload files: bare, wrapped (`payload`, `_source`), daily arrays, localized
               units, payloads without a bundle id or memory metrics, diagnostic payloads, exact duplicates
  jetsam-fleet a fleet of full-size JetsamEvents of 600 devices: about 380 daemons (with the `daemon` state) and
               the apps each device has installed and running (one frontmost, some killed), pretty-printed in the
               key order of real records

    Benchmarks/memtools_gen.py write KIND PATH [--size-mb N] [--count N] [--members N] [--seed N]
"""
import argparse
import datetime
import gzip
import hashlib
import io
import json
import math
import os
import random
import shutil
import tarfile
from xml.sax.saxutils import escape

# Bumped whenever a generator's output changes: inputs written by an older one are written again.
VERSION = 3


def megabytes(nbytes):
    """Bytes as MB (1,048,576 bytes) with one decimal, halves rounded away from zero (memhunt's rounding)."""
    x = nbytes / 1048576 * 10
    whole = math.floor(x)
    return (whole + (1 if x - whole >= 0.5 else 0)) / 10


def round_half_away(x):
    whole = math.floor(x)
    return whole + (1 if x - whole >= 0.5 else 0)


def cached(path, version=VERSION):
    """The expected figures of an input written by this version of the generator (or of its kind), or None."""
    side = path + ".json"
    if os.path.exists(path) and os.path.exists(side):
        with open(side) as f:
            data = json.load(f)
        if data.get("version") == version:
            return data
    return None


def save(path, expected, version=VERSION):
    """Writes the expected figures beside `path` (after the input itself is in place)."""
    expected["version"] = version
    with open(path + ".json.part", "w") as f:
        json.dump(expected, f, sort_keys=True)
    os.replace(path + ".json.part", path + ".json")
    return expected


# ---- Names shared by the generators ----

MODULES = ["Atlas", "AtlasKit", "AtlasUI", "FeedCore", "Networking", "Persistence", "Analytics", "DesignSystem",
           "Payments", "Messaging", "MediaPipeline", "SearchKit"]
STEMS = ["Feed", "Profile", "Thumbnail", "Session", "Image", "Photo", "Comment", "Story", "Cart", "Checkout",
         "Search", "Inbox", "Message", "Timeline", "Player", "Upload", "Download", "Cache", "Token", "Location",
         "Map", "Settings", "Account", "Notification", "Badge", "Reaction", "Draft", "Attachment", "Contact", "Group",
         "Onboarding", "Paywall", "Subscription", "Video", "Audio", "Playlist", "Filter", "Sticker", "Emoji", "Link"]
KINDS = ["ViewModel", "Store", "Service", "Repository", "Coordinator", "ViewController", "View", "Cell", "Item",
         "Model", "Manager", "Loader", "Client", "Request", "Response", "Cache", "Provider", "DataSource",
         "Controller", "Presenter", "Interactor", "Router", "State", "Reducer", "Observer", "Delegate", "Handler",
         "Builder", "Formatter", "Decoder"]
SYSTEM_CLASSES = [
    ("NSMutableArray", "ObjC", "CoreFoundation"), ("__NSArrayM", "ObjC", "CoreFoundation"),
    ("__NSArrayI", "ObjC", "CoreFoundation"), ("__NSDictionaryM", "ObjC", "CoreFoundation"),
    ("NSMutableDictionary", "ObjC", "CoreFoundation"), ("CFString", "ObjC", "CoreFoundation"),
    ("CFString (Storage)", "C", "CoreFoundation"), ("NSMutableArray (Storage)", "C", "CoreFoundation"),
    ("CFDictionary", "ObjC", "CoreFoundation"), ("CFDictionary (Key Storage)", "C", "CoreFoundation"),
    ("CFDictionary (Value Storage)", "C", "CoreFoundation"), ("NSConcreteData", "ObjC", "Foundation"),
    ("NSURL", "ObjC", "CoreFoundation"), ("__NSSetM", "ObjC", "CoreFoundation"), ("NSLock", "ObjC", "Foundation"),
    ("NSRecursiveLock", "ObjC", "Foundation"), ("NSOperation", "ObjC", "Foundation"), ("CALayer", "ObjC", "QuartzCore"),
    ("CAShapeLayer", "ObjC", "QuartzCore"), ("CATransaction", "ObjC", "QuartzCore"), ("UIView", "ObjC", "UIKitCore"),
    ("UILabel", "ObjC", "UIKitCore"), ("UIImageView", "ObjC", "UIKitCore"), ("UIImage", "ObjC", "UIKitCore"),
    ("UITraitCollection", "ObjC", "UIKitCore"), ("_UILabelLayer", "ObjC", "UIKitCore"),
    ("CGImage", "CFType", "CoreGraphics"), ("CGColor", "CFType", "CoreGraphics"), ("CGPath", "CFType", "CoreGraphics"),
    ("NSAttributedString", "ObjC", "Foundation"), ("NSConcreteMutableAttributedString", "ObjC", "Foundation"),
    ("__NSMallocBlock__", "ObjC", "libsystem_blocks.dylib"), ("OS_dispatch_queue_serial", "ObjC", "libdispatch.dylib"),
    ("OS_dispatch_group", "ObjC", "libdispatch.dylib"), ("OS_xpc_dictionary", "ObjC", "libxpc.dylib"),
    ("NSXPCConnection", "ObjC", "Foundation"), ("__NSURLSessionLocal", "ObjC", "CFNetwork"),
    ("NSURLSessionConfiguration", "ObjC", "CFNetwork"), ("__NSCFLocalDataTask", "ObjC", "CFNetwork"),
    ("NSHashTable", "ObjC", "Foundation"), ("NSMapTable", "ObjC", "Foundation"), ("NSPointerArray", "ObjC", "Foundation"),
    ("CFRunLoopSource", "CFType", "CoreFoundation"), ("CFRunLoopTimer", "CFType", "CoreFoundation"),
    ("NSDate", "ObjC", "CoreFoundation"), ("__NSCFNumber", "ObjC", "CoreFoundation"),
    ("NSKeyValueObservance", "ObjC", "Foundation"), ("CADisplayLink", "ObjC", "QuartzCore"),
    ("AVPlayerItem", "ObjC", "AVFCore"), ("WKWebView", "ObjC", "WebKit"), ("JSContext", "ObjC", "JavaScriptCore"),
    ("Swift.StringStorage", "Swift", "libswiftCore.dylib"), ("Closure context", "Swift", "<unknown>"),
    ("Swift weak reference storage", "Swift", "libswiftCore.dylib"), ("dispatch_queue_t (serial)", "ObjC",
                                                                       "libdispatch.dylib"),
    ("xpc_connection_t", "ObjC", "libxpc.dylib"), ("HIDEvent", "ObjC", "IOKit"),
]
GENERIC_WRAPPERS = [
    ("Swift._ContiguousArrayStorage<%s>", "libswiftCore.dylib"),
    ("Swift._DictionaryStorage<Swift.String, %s>", "libswiftCore.dylib"),
    ("Swift._DictionaryStorage<Foundation.UUID, %s>", "libswiftCore.dylib"),
    ("Swift._SetStorage<%s>", "libswiftCore.dylib"),
    ("Combine.PublishedSubject<Swift.Optional<%s>>", "Combine"),
    ("Combine.CurrentValueSubject<%s, Swift.Never>", "Combine"),
    ("SwiftUI.StoredLocation<%s>", "SwiftUICore"),
    ("SwiftUI.LocationBox<SwiftUI.Binding<%s>.(ScopedLocation in $1a9377b1c)<>>", "SwiftUICore"),
    ("Foundation.LockedState<%s>.(_Buffer in $19c8d6e8c)<>", "Foundation"),
    ("SwiftUI.ModifiedContent<%s, SwiftUI._PaddingLayout>", "SwiftUICore"),
    ("Swift._ContiguousArrayStorage<(offset: Swift.Int, element: %s)>", "libswiftCore.dylib"),
    ("std::__1::__shared_ptr_emplace<%s::Impl, std::__1::allocator<%s::Impl>>", "libc++.1.dylib"),
]
LIBRARIES = [
    ("libsystem_malloc.dylib", "/usr/lib/system/libsystem_malloc.dylib"),
    ("libswiftCore.dylib", "/usr/lib/swift/libswiftCore.dylib"),
    ("Foundation", "/System/Library/Frameworks/Foundation.framework/Foundation"),
    ("CoreFoundation", "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"),
    ("UIKitCore", "/System/Library/PrivateFrameworks/UIKitCore.framework/UIKitCore"),
    ("SwiftUI", "/System/Library/Frameworks/SwiftUI.framework/SwiftUI"),
    ("SwiftUICore", "/System/Library/Frameworks/SwiftUICore.framework/SwiftUICore"),
    ("AttributeGraph", "/System/Library/PrivateFrameworks/AttributeGraph.framework/AttributeGraph"),
    ("QuartzCore", "/System/Library/Frameworks/QuartzCore.framework/QuartzCore"),
    ("ImageIO", "/System/Library/Frameworks/ImageIO.framework/ImageIO"),
    ("libobjc.A.dylib", "/usr/lib/libobjc.A.dylib"),
    ("CFNetwork", "/System/Library/Frameworks/CFNetwork.framework/CFNetwork"),
    ("libdispatch.dylib", "/usr/lib/system/libdispatch.dylib"),
    ("WebKit", "/System/Library/Frameworks/WebKit.framework/WebKit"),
    ("JavaScriptCore", "/System/Library/Frameworks/JavaScriptCore.framework/JavaScriptCore"),
    ("CoreData", "/System/Library/Frameworks/CoreData.framework/CoreData"),
    ("Combine", "/System/Library/Frameworks/Combine.framework/Combine"),
    ("libc++.1.dylib", "/usr/lib/libc++.1.dylib"),
    ("libsqlite3.dylib", "/usr/lib/libsqlite3.dylib"),
    ("Atlas", "/private/var/containers/Bundle/Application/5E3C1A2B-7D4F-4E6A-9B8C-0D1E2F3A4B5C/Atlas.app/Atlas"),
    ("AtlasKit", "/private/var/containers/Bundle/Application/5E3C1A2B-7D4F-4E6A-9B8C-0D1E2F3A4B5C/Atlas.app/"
                 "Frameworks/AtlasKit.framework/AtlasKit"),
]


def app_types(rng, count):
    """`count` distinct app type names, `Module.StemKind` and a few with a nested type."""
    names, seen = [], set()
    while len(names) < count:
        name = "%s.%s%s" % (rng.choice(MODULES), rng.choice(STEMS), rng.choice(KINDS))
        if rng.random() < 0.15:
            name += ".%s" % rng.choice(["State", "Action", "Entry", "Key", "Snapshot", "Payload", "Options"])
        if name not in seen:
            seen.add(name)
            names.append(name)
    return names


def class_pool(rng, count):
    """`count` distinct (class name, TYPE, BINARY) of a large app: system classes, app classes and their
    generic containers, closure contexts and C++ types."""
    pool, seen = [], set()

    def add(entry):
        if entry not in seen:
            seen.add(entry)
            pool.append(entry)

    for entry in SYSTEM_CLASSES:
        add(entry)
    types = app_types(rng, max(50, count // 3))
    while len(pool) < count:
        roll = rng.random()
        t = rng.choice(types)
        module = t.split(".", 1)[0]
        if roll < 0.45:
            add((t, "Swift", module))
        elif roll < 0.85:
            wrapper, binary = rng.choice(GENERIC_WRAPPERS)
            name = wrapper % ((t, t) if wrapper.count("%s") == 2 else (t,))
            add((name, "C++" if name.startswith("std::") else "Swift", binary))
        elif roll < 0.95:
            add(("%s.(%s in $%09x)" % (t, rng.choice(["Inner", "_Storage", "Box", "Token"]), rng.randrange(1 << 36)),
                 "Swift", module))
        else:
            add(("%s (Storage)" % rng.choice(SYSTEM_CLASSES)[0], "C", rng.choice(LIBRARIES)[0]))
    return pool


def symbols(rng, count, types):
    """`count` symbol names as backtraces and responsible callers show them: Swift methods and closures,
    Objective-C methods, C++ functions with templates, C functions."""
    out = []
    for _ in range(count):
        t = rng.choice(types)
        short = t.split(".")[-1]
        roll = rng.random()
        if roll < 0.3:
            out.append("%s.%s(%s)" % (t, rng.choice(["load", "reload", "decode", "render", "prefetch", "update",
                                                      "apply", "merge", "fetch", "layout"]),
                                      rng.choice(["", "with:", "_:completion:", "from:", "for:at:", "_:_:"])))
        elif roll < 0.5:
            out.append("closure #%d in %s.%s()" % (rng.randint(1, 4), t, rng.choice(["body.getter", "bind",
                                                                                     "subscribe", "start"])))
        elif roll < 0.65:
            out.append("-[%s %s]" % (rng.choice(SYSTEM_CLASSES)[0],
                                     rng.choice(["layoutSublayers", "_didMoveFromWindow:toWindow:", "copyWithZone:",
                                                 "initWithCoder:", "addObject:", "setObject:forKey:"])))
        elif roll < 0.8:
            out.append("std::__1::vector<%s::Node, std::__1::allocator<%s::Node>>::__push_back_slow_path"
                       "<%s::Node const&>(%s::Node const&)" % (short, short, short, short))
        elif roll < 0.9:
            out.append("specialized static %s.== infix(_:_:) && %s.init(from:)" % (t, short))
        else:
            out.append(rng.choice(["swift_allocObject", "swift_slowAlloc", "malloc", "calloc", "_malloc_zone_malloc",
                                   "objc_alloc_init", "CFStringCreateWithBytes", "_CFRuntimeCreateInstance",
                                   "CGBitmapContextCreate", "ImageIO_Malloc"]))
    return out


# ---- Allocations List export ----

def alloc_category(rng, classes):
    """(category as escaped in an attribute, size of one allocation, whether it is a VM region)."""
    roll = rng.random()
    if roll < 0.5:
        size = 16 * rng.choice([1, 1, 2, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64])
        return "Malloc %d Bytes" % size, size, False
    if roll < 0.58:
        kib = rng.choice([1, 1.5, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 128, 256])
        size = int(kib * 1024)
        return ("Malloc %.2f KiB" % kib if kib < 10 else "Malloc %.1f KiB" % kib), size, False
    if roll < 0.62:
        pages = rng.choice([1, 1, 2, 4, 8, 16, 32, 64, 256])
        return rng.choice(["VM: Anonymous VM", "VM: IOSurface", "VM: CoreAnimation", "VM: ImageIO_PNG_Data",
                           "VM: ImageIO_JPEG_Data", "VM: CG raster data", "VM: SQLite page cache",
                           "VM: WebKit Malloc", "VM: JS JIT generated code", "VM: Foundation"]), pages * 16384, True
    name, size = rng.choice(classes)
    return name, size, False


def write_allocations(path, size, seed=50):
    """An Allocations List export of about `size` bytes; returns its rows, live allocations and bytes."""
    found = cached(path)
    if found:
        return found
    rng = random.Random(seed)
    types = app_types(rng, 600)
    classes = [(escape(name), 16 * rng.randint(1, 40)) for name, _, _ in class_pool(rng, 3000)]
    callers = [escape(s, {'"': "&quot;"}) for s in symbols(rng, 6000, types)]
    callers += ["&lt;Call stack limit reached&gt;"] * 200 + ["0x%x" % rng.randrange(1 << 36) for _ in range(300)]
    entry_points = ["malloc", "calloc", "realloc", "malloc_zone_malloc", "_malloc_zone_malloc", "swift_allocObject",
                    "swift_slowAlloc", "objc_alloc_init", "_objc_rootAllocWithZone", "_CFRuntimeCreateInstance",
                    "operator new(unsigned long)", "mmap", "mach_vm_allocate", "IOSurfaceCreate"]
    outermost = ["start", "main", "UIApplicationMain", "-[UIApplication _run]", "GSEventRunModal",
                 "CFRunLoopRunSpecific", "__CFRunLoopRun", "_dispatch_worker_thread2", "_pthread_wqthread",
                 "start_wqthread", "thread_start", "_pthread_start"]
    frame_names = [escape(s, {'"': "&quot;"}) for s in entry_points + outermost + symbols(rng, 20000, types)]
    libraries = [(escape(name), escape(p)) for name, p in LIBRARIES]
    frames = [(index, rng.randrange(len(libraries)), 0x180000000 + rng.randrange(1 << 30))
              for index in range(len(frame_names))]
    frames += [(rng.randrange(len(entry_points) + len(outermost), len(frame_names)), rng.randrange(len(libraries)),
                0x180000000 + rng.randrange(1 << 30)) for _ in range(10000)]  # a symbol in several places
    leaf = frames[:len(entry_points)]
    roots = frames[len(entry_points):len(entry_points) + len(outermost)]
    middle_frames = frames[len(entry_points) + len(outermost):]
    stacks = []
    ids = {}  # a frame ("f", name, binary, address) or a binary ("b", index) -> the id it was given
    next_id = [1]
    rows = live = live_bytes = listed = 0
    head = ('<?xml version="1.0"?>\n<trace-query-result>\n'
            "<node xpath='//trace-toc[1]/run[1]/tracks[1]/track[1]/details[1]/detail[2]'>")
    tail = "</node></trace-query-result>\n"
    # Timestamps rise to under an hour (`MM:SS.mmm.uuu`): rows are at least 300 bytes.
    clock = 0
    step = max(2, int(2 * 3_400_000_000 / max(1, size / 300)))
    with open(path + ".part", "w", encoding="utf-8") as out:
        out.write(head)
        written = len(head)
        chunk = []
        while written < size - len(tail):
            category, unit, vm = alloc_category(rng, classes)
            count = 1
            if not vm and unit <= 512 and rng.random() < 0.1:
                count = rng.randint(2, 8)  # calloc of several: a multiple of the size class
            nbytes = unit * count
            is_live = rng.random() < (0.6 if vm else 0.33)
            caller = callers[int(rng.paretovariate(1.1)) % len(callers)] if rng.random() < 0.7 \
                else rng.choice(callers)
            library = rng.choice(libraries)[0] if not caller.startswith("&lt;") else ""
            address = (0x100000000 + rng.randrange(1 << 24) * 16384) if vm \
                else (0x600000000000 + rng.randrange(1 << 36) * 16)
            clock += rng.randrange(1, step)
            stamp = "%02d:%02d.%03d.%03d" % (clock // 60_000_000, clock // 1_000_000 % 60, clock // 1000 % 1000,
                                             clock % 1000)
            attrs = ('<row address="0x%x" category="%s" live="%s" responsible-caller="%s" size="%d" identifier="%d" '
                     'responsible-library="%s" timestamp="%s" index="%d"'
                     % (address, category, "true" if is_live else "false", caller, nbytes,
                        1000 + rows * 2 + rng.randrange(2), library, stamp, rows))
            if rng.random() < 0.8:
                if stacks and rng.random() < 0.7:
                    stack = stacks[min(int(rng.paretovariate(0.8)) - 1, len(stacks) - 1)] if rng.random() < 0.5 \
                        else rng.choice(stacks)
                else:
                    middle = [rng.choice(middle_frames) for _ in range(rng.randint(4, 36))]
                    stack = [rng.choice(leaf)] + middle + rng.sample(roots, rng.randint(2, 6))
                    stacks.append(stack)
                parts = []
                for name_index, library_index, addr in stack:
                    key = ("f", name_index, library_index, addr)
                    if key in ids:
                        parts.append('<frame ref="%d"/>' % ids[key])
                        continue
                    ids[key] = next_id[0]
                    next_id[0] += 1
                    bkey = ("b", library_index)
                    if bkey in ids:
                        binary = '<binary ref="%d"/>' % ids[bkey]
                    else:
                        ids[bkey] = next_id[0]
                        next_id[0] += 1
                        lib_name, lib_path = libraries[library_index]
                        binary = ('<binary id="%d" name="%s" UUID="%08X-0000-4000-8000-%012X" arch="arm64e" '
                                  'load-addr="0x%x" path="%s"/>'
                                  % (ids[bkey], lib_name, library_index * 7919, library_index,
                                     0x180000000 + library_index * 0x4000000, lib_path))
                    parts.append('<frame id="%d" name="%s" addr="0x%x">%s</frame>'
                                 % (ids[key], frame_names[name_index], addr, binary))
                text = attrs + "><backtrace>" + "".join(parts) + "</backtrace></row>\n"
            else:
                text = attrs + "/>\n"
            chunk.append(text)
            written += len(text.encode())
            rows += 1
            listed += nbytes
            if is_live:
                live += 1
                live_bytes += nbytes
            if len(chunk) >= 2000:
                out.write("".join(chunk))
                chunk = []
        out.write("".join(chunk))
        out.write(tail)
    os.replace(path + ".part", path)
    return save(path, {"rows": rows, "liveCount": live, "liveBytes": live_bytes, "listedBytes": listed,
                       "liveMB": megabytes(live_bytes), "backtraces": len(stacks)})


# ---- leaks ----

def human(nbytes):
    """A size as `leaks` prints a tree's: `80 bytes`, `1.16K`, `56.9K`, `512K`, `7.89M`."""
    if nbytes < 1024:
        return "%d bytes" % nbytes
    value, unit = nbytes / 1024, "K"
    for bigger in ("M", "G"):
        if value < 1024:
            break
        value, unit = value / 1024, bigger
    text = "%.2f" % value if value < 10 else "%.1f" % value if value < 100 else "%.0f" % value
    return text + unit


def human_bytes(text):
    """The bytes `text` (as `human` writes it) stands for, read back as memhunt and the awk reference read it."""
    if text.endswith(" bytes"):
        return int(text[:-6])
    scale = {"K": 1024, "M": 1048576, "G": 1073741824}[text[-1]]
    return round_half_away(float(text[:-1]) * scale)


LEAK_FIELDS = ["delegate", "onChange", "completion", "handler", "viewModel", "store", "cache", "session", "owner",
               "parent", "observer", "timer", "_viewModel.wrappedValue", "cancellables._variant", "subscription",
               "_storage", "context", "onClose.context", "receiveValue.context", "downstream", "upstream", "coordinator",
               "dataSource", "_delegate_ivar", "items._buffer", "_rawValues", "_values", "value", "list", ".base",
               "_cache.buffer", "_nwContext", "countAndCapacity", "_local_immutable_configuration_ivar", "[capture]"]
PREVIEWS = ['length: %d  "https://api.example.com/v1/feed?page=%d"', 'length: %d  "Bearer eyJhbGciOiJIUzI1NiJ9.%d"',
            'length: %d  immutable  "com.example.atlas.cache.%d"',
            'length: %d  "/var/mobile/Containers/Data/Application/%d/tmp"']
BLOCK_IMAGES = [("CFNetwork", "invocation function for block in PAC::PACClient::initialize(void const*)"),
                ("Atlas", "closure #1 in FeedViewModel.reload(with:completion:)"),
                ("NetworkExtension", "__92-[NEFilterSocketFlow getVerdictWithCompletionHandler:]_block_invoke"),
                ("Foundation", "__NSOperationQueueAddOperation_block_invoke")]


class LeakTrees:
    """Builds `leaks` trees: each node a class, an address, its own bytes and its children; cycles close with
    `CYCLE BACK TO` lines to an ancestor that is a ROOT CYCLE."""

    def __init__(self, rng):
        self.rng = rng
        pool = class_pool(rng, 2500)
        self.classes = [(name, 16 * rng.choice([1, 2, 2, 3, 4, 4, 5, 6, 8, 10, 14, 20, 28, 40, 64, 224]))
                        for name, _, _ in pool if not name.startswith("std::")]
        self.classes += [("std::__1::__shared_ptr_emplace<PAC::PACClient, std::__1::allocator<PAC::PACClient>>", 224),
                         ("SwiftUI.(_AnyHashableBox in $1a935e9b0)<SwiftUI.(TagIndexProjection in $1a9377bf4)"
                          "<Swift.Int>>", 32)]
        self.next_address = 0x104000000

    def address(self):
        self.next_address += 16 * self.rng.randint(1, 4096)
        return "0x%x" % self.next_address

    def node(self, budget, depth, marker, cycle_ancestors):
        """A tree of at most `budget` nodes under a node of `marker` (ROOT CYCLE, ROOT LEAK or None) at `depth`:
        its lines as (depth, (count, bytes) or a `CYCLE BACK TO` line's label, node text, marker or "BACK"), and
        its count and bytes. `cycle_ancestors` are the texts of the ROOT CYCLE nodes above it."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.03 and depth > 0:
            own = 16 * rng.choice([2, 3, 4, 8])
            text = "%s [%d]" % (self.address(), own)  # a block of no known type
        elif roll < 0.08:
            own = 16 * rng.choice([2, 4, 6])
            text = "<CFString %s> [%d]  %s" % (self.address(), own,
                                               rng.choice(PREVIEWS) % (rng.randint(10, 200), rng.randrange(10000)))
        elif roll < 0.11:
            own = 16 * rng.choice([2, 3])
            image, symbol = rng.choice(BLOCK_IMAGES)
            text = "<__NSMallocBlock__ %s> [%d]  %s  %s" % (self.address(), own, image, symbol)
        else:
            name, own = rng.choice(self.classes)
            if rng.random() < 0.02:
                own = 16 * rng.randint(64, 640)  # a storage buffer
            text = "<%s %s> [%d]" % (name, self.address(), own)
        ancestors = cycle_ancestors + [text] if marker == "ROOT CYCLE" else cycle_ancestors
        children = []
        count, total = 1, own
        remaining = budget - 1
        # The budget is shared among the children; wide nodes where it is large, a depth of at most 16.
        fanout = 0 if remaining <= 0 or depth >= 16 else \
            min(remaining, 1 + int(rng.expovariate(1.2)) + remaining // 60)
        for index in range(fanout):
            if remaining <= 0:
                break
            left = fanout - index
            share = remaining if left == 1 else max(1, min(remaining - left + 1,
                                                           int(remaining / left * rng.uniform(0.3, 1.7))))
            child_marker = "ROOT CYCLE" if rng.random() < 0.12 else None
            sub_lines, sub_count, sub_bytes = self.node(share, depth + 1, child_marker, ancestors)
            children.append(sub_lines)
            count += sub_count
            total += sub_bytes
            remaining -= sub_count
        # A reference back to a ROOT CYCLE above closes a cycle: among the children, in no particular place.
        if ancestors and rng.random() < (0.5 if marker == "ROOT CYCLE" else 0.2):
            back = [(depth + 1, "%s --> CYCLE BACK TO " % self.label(weak=False), rng.choice(ancestors), "BACK")]
            children.insert(rng.randrange(len(children) + 1), back)
        lines = [(depth, (count, total), text, marker)]
        for sub in children:
            lines.extend(sub)
        return lines, count, total

    def label(self, weak=None):
        rng = self.rng
        field = rng.choice(LEAK_FIELDS)
        if rng.random() < 0.12:
            field += " + %d" % (8 * rng.randint(1, 8))
        roll = rng.random()
        if weak is None and roll < 0.08:
            return "__weak " + field
        if roll < 0.55:
            return "__strong " + field
        return field


def write_leaks(path, size, seed=51):
    """`leaks` output of about `size` bytes; returns its leaked objects and bytes, its roots and the largest."""
    found = cached(path)
    if found:
        return found
    rng = random.Random(seed)
    trees = LeakTrees(rng)
    # Trees are printed largest first: their node counts are drawn first, then sorted.
    planned, estimate = [], 0
    while estimate < size:
        nodes = 1 if rng.random() < 0.45 else min(4000, int(rng.paretovariate(1.05)))
        planned.append(nodes)
        estimate += 120 * nodes + 40
    planned.sort(reverse=True)
    planned[0] = max(planned[0], 200)
    body = path + ".body"
    nodes = leaked = roots = cycles = lone = 0
    largest = None  # (bytes as printed, class)
    written = 0
    with open(body, "w", encoding="utf-8") as out:
        chunk = []
        for budget in planned:
            if written >= size:
                break
            marker = "ROOT CYCLE" if rng.random() < 0.4 else "ROOT LEAK"
            lines, count, total = trees.node(budget, 0, marker, [])
            roots += 1
            cycles += marker == "ROOT CYCLE"
            lone += marker == "ROOT LEAK"
            for depth, tally, text, node_marker in lines:
                indent = " " * (6 + 3 * depth)
                if node_marker == "BACK":
                    line = "%s%s%s\n" % (indent, tally, text)
                else:
                    n, b = tally
                    label = "" if depth == 0 or trees.rng.random() < 0.15 else trees.label() + " --> "
                    mark = node_marker + ": " if node_marker else ""
                    line = "%s%d (%s) %s%s%s\n" % (indent, n, human(b), label, mark, text)
                    nodes += 1
                    leaked += int(text[text.index("[") + 1:text.index("]")]) if text.startswith("0x") else \
                        int(text[text.index("> [") + 3:text.index("]", text.index("> ["))])
                    if depth == 0:
                        printed = human_bytes(human(b))
                        name = text[1:text.index(" 0x")] if text.startswith("<") else text
                        if largest is None or printed > largest[0]:
                            largest = (printed, name)
                chunk.append(line)
                written += len(line.encode())
            if len(chunk) >= 5000:
                out.write("".join(chunk))
                chunk = []
        out.write("".join(chunk))
    header = ("Process:         Atlas [23817]\n"
              "Path:            /private/var/containers/Bundle/Application/5E3C1A2B-7D4F-4E6A-9B8C-0D1E2F3A4B5C/"
              "Atlas.app/Atlas\n"
              "Load Address:    0x104a8c000\n"
              "Identifier:      com.example.atlas\n"
              "Version:         5.12.0 (5120)\n"
              "Code Type:       ARM64\n"
              "Platform:        iOS\n"
              "Parent Process:  debugserver [23818]\n"
              "Target Type:     live task\n\n"
              "Date/Time:       2026-11-02 09:30:00.000 +0100\n"
              "Launch Time:     2026-11-02 09:12:41.508 +0100\n"
              "OS Version:      iPhone OS 26.1 (23B85)\n"
              "Report Version:  104\n\n"
              "Physical footprint:         1.2G\n"
              "Physical footprint (peak):  1.4G\n"
              "Idle exit:                  untracked\n"
              "----\n\n"
              "leaks Report Version: 4.0\n"
              "Process 23817: %d nodes malloced for %d KB\n"
              "Process 23817: %d leaks for %d total leaked bytes.\n\n"
              "    %d (%s) << TOTAL >>\n\n" % (nodes * 37 + 1210004, leaked // 1024 * 9 + 496306, nodes, leaked, nodes,
                                               human(leaked)))
    with open(path + ".part", "w", encoding="utf-8") as out, open(body, encoding="utf-8") as tree_text:
        out.write(header)
        shutil.copyfileobj(tree_text, out, 1 << 20)
    os.remove(body)
    os.replace(path + ".part", path)
    return save(path, {"nodes": nodes, "bytes": leaked, "leakedMB": megabytes(leaked), "roots": roots,
                       "rootCycles": cycles, "rootLeaks": lone, "largestRoot": largest[1]})


# ---- heap ----

def heap_row(count, nbytes, name, kind, binary):
    """One row of `heap`'s class table, in its columns (COUNT, BYTES, AVG, CLASS_NAME to column 82, TYPE, BINARY);
    a name too long for its column is followed by two spaces."""
    cells = "%8d  %9d%10.1f   " % (count, nbytes, nbytes / count)
    if kind is None:
        return cells + name + "\n"
    return cells + (name.ljust(50) if len(name) <= 48 else name + "  ") + kind.ljust(8) + binary + "\n"


def heap_label(name, kind, binary):
    parts = [p for p in (kind, binary) if p]
    return name + (" (" + ", ".join(parts) + ")" if parts else "")


def write_heap(path, size, seed=52):
    """`heap -addresses all` output of about `size` bytes; returns its nodes, bytes, rows, classes and the class
    with the most bytes ("non-object" aside).

    What makes a heap text large is its block listing, not its table: a large app's table has thousands of classes
    (the Mouser sample in ../shared/realworld/leaks-cycles: 1588 ObjC, 244 Swift, 314 C++ classes and 259 CFTypes),
    more rows when MallocStackLogging names non-objects (`malloc in <caller>`) and `-showSizes` prints a class once
    per block size. So the table is at most 20,000 rows (a class in several rows, by size), sorted by count, and the
    rest of the file is `Active blocks in all zones that match pattern '.*':` with one `0xADDR: Class (N bytes)` line
    per block of the table, in ascending address order (the classes interleaved)."""
    found = cached(path)
    # A table of over a million rows and no listing was the shape before the block listing.
    if found and found.get("shape") == "addresses":
        return found
    rng = random.Random(seed)
    pool = class_pool(rng, 6000)
    types = app_types(rng, 2000)
    callers = symbols(rng, 3000, types)
    # Rows: (name, TYPE, BINARY, block size). A class in several rows has one block size per row (`-showSizes`).
    rows_wanted = max(50, min(20_000, size // 10_000))
    entries = []
    seen = set()
    while len(entries) < rows_wanted - 1:
        roll = rng.random()
        if roll < 0.7:
            name, kind, binary = rng.choice(pool)
        else:
            caller = rng.choice(callers)
            name = "%s in %s" % (rng.choice(["malloc", "calloc", "realloc", "operator new"]), caller)
            kind, binary = ("C++" if "std::" in caller else "C"), rng.choice(LIBRARIES)[0]
        unit = 16 * rng.choice([1, 2, 2, 3, 4, 5, 6, 8, 10, 12, 14, 20, 28, 40, 64, 128])
        if (name, kind, binary, unit) not in seen:
            seen.add((name, kind, binary, unit))
            entries.append((name, kind, binary, unit))
    # Blocks: about one listing line per 72 bytes of what the table leaves; counts fall off with the rank.
    line_bytes = 72
    blocks_wanted = max(rows_wanted * 2, (size - rows_wanted * 110) // line_bytes)
    weights = [1 / (1 + rank) ** 1.05 for rank in range(len(entries) + 1)]
    scale = blocks_wanted / sum(weights)
    counts = sorted((max(1, int(w * scale * rng.uniform(0.8, 1.0))) for w in weights), reverse=True)
    # The non-object blocks lead with the most blocks, of many sizes (their AVG is no whole number).
    table = [("non-object", None, None, None, counts[0])]
    table += [entry + (count,) for entry, count in zip(entries, counts[1:])]
    sizes = []  # per row: the sizes its blocks take, in order, and their sum
    nodes = total = 0
    per_class = {}
    for name, kind, binary, unit, count in table:
        if unit is None:
            block_sizes = [16 * rng.choice([1, 2, 3, 4, 6, 8, 12, 20, 32, 64, 96]) for _ in range(min(count, 64))]
            nbytes = sum(block_sizes[i % len(block_sizes)] for i in range(count))
        else:
            block_sizes = [unit]
            nbytes = count * unit
        sizes.append(block_sizes)
        nodes += count
        total += nbytes
        key = (name, kind or "", binary or "")
        per_class[key] = per_class.get(key, 0) + nbytes
    largest = (-1, "")
    for (name, kind, binary), nbytes in per_class.items():
        if name == "non-object" and not kind and not binary:
            continue
        label = heap_label(name, kind or None, binary or None)
        if nbytes > largest[0] or (nbytes == largest[0] and label < largest[1]):
            largest = (nbytes, label)
    histogram = " ".join("%d[%d]" % (s, max(1, nodes // (3 << k))) for k, s in
                         enumerate([48, 32, 16, 64, 80, 112, 128, 144, 160, 256, 320]))
    header = ("Process:         Atlas [23817]\n"
              "Path:            /private/var/containers/Bundle/Application/5E3C1A2B-7D4F-4E6A-9B8C-0D1E2F3A4B5C/"
              "Atlas.app/Atlas\n"
              "Load Address:    0x104a8c000\n"
              "Identifier:      com.example.atlas\n"
              "Version:         5.12.0 (5120)\n"
              "Code Type:       ARM64\n"
              "Platform:        iOS\n"
              "Parent Process:  debugserver [23818]\n"
              "Target Type:     live task\n\n"
              "Date/Time:       2026-11-02 09:31:12.402 +0100\n"
              "Launch Time:     2026-11-02 09:12:41.508 +0100\n"
              "OS Version:      iPhone OS 26.1 (23B85)\n"
              "Report Version:  7\n"
              "Analysis Tool:   /Applications/Xcode.app/Contents/Developer/usr/bin/heap\n"
              "Analysis Tool Version:  Xcode 26.1 (17B55)\n\n"
              "Physical footprint:         1.2G\n"
              "Physical footprint (peak):  1.4G\n"
              "Idle exit:                  untracked\n"
              "----\n\n"
              "Process 23817: 5 zones\n\n"
              "All zones: %d nodes malloced - Sizes: 48604KB[2] 8212KB[2] 1280KB[25] 640KB[39] %s\n\n"
              "Found:  1588 ObjC classes  6244 Swift classes  314 C++ classes  259 CFTypes\n"
              "Type names for non-objects could be derived from allocation backtraces if the process used "
              "MallocStackLogging\n\n"
              "-----------------------------------------------------------------------\n"
              "All zones: %d nodes (%d bytes)\n\n"
              "   COUNT      BYTES       AVG   CLASS_NAME                                        TYPE    BINARY\n"
              "   =====      =====       ===   ==========                                        ====    ======\n"
              % (nodes, histogram, nodes, total))
    with open(path + ".part", "w", encoding="utf-8") as out:
        out.write(header)
        chunk = []
        for (name, kind, binary, unit, count), block_sizes in zip(table, sizes):
            nbytes = count * unit if unit else sum(block_sizes[i % len(block_sizes)] for i in range(count))
            chunk.append(heap_row(count, nbytes, name, kind, binary))
        out.write("".join(chunk))
        out.write("\nActive blocks in all zones that match pattern '.*':\n")
        # Every block once, in ascending address order: the rows' blocks interleaved.
        order = [index for index, row in enumerate(table) for _ in range(row[4])]
        rng.shuffle(order)
        taken = [0] * len(table)
        address = 0x600000000000
        chunk = []
        for index in order:
            block_sizes = sizes[index]
            nbytes = block_sizes[taken[index] % len(block_sizes)]
            taken[index] += 1
            chunk.append("0x%x: %s (%d bytes)\n" % (address, table[index][0], nbytes))
            address += nbytes + 16 * rng.randrange(4)
            if len(chunk) >= 20000:
                out.write("".join(chunk))
                chunk = []
        out.write("".join(chunk))
    os.replace(path + ".part", path)
    return save(path, {"shape": "addresses", "nodes": nodes, "bytes": total, "allocatedMB": megabytes(total),
                       "rows": len(table),
                       "classes": len(per_class), "largestClass": largest[1], "largestClassMB": megabytes(largest[0])})


# ---- footprint JSON ----

FOOTPRINT_CATEGORIES = [
    "MALLOC_SMALL", "MALLOC_LARGE", "MALLOC_TINY", "MALLOC_NANO", "MALLOC_MEDIUM", "MALLOC metadata", "IOSurface",
    "IOAccelerator", "IOKit", "CoreAnimation", "CoreUI image data", "CG image", "ImageIO", "WebKit Malloc",
    "JS JIT generated code", "JS VM Gigacage", "JS VM Isoheap", "VM_ALLOCATE", "Untagged", "mapped file",
    "__DATA", "__DATA_DIRTY", "__DATA_CONST", "__AUTH", "__AUTH_CONST", "__OBJC_RW", "__LINKEDIT", "__TEXT",
    "Stack", "Kernel Alloc Once", "Dispatch continuations", "Activity Tracing", "SQLite page cache", "Foundation",
    "libnetwork", "os_alloc_once", "Accelerate framework", "CoreData", "CoreData Object IDs",
    "Performance tool data", "shared memory", "page table", "owned physical footprint (unmapped)",
    "owned unmapped (graphics)", "ColorSync", "Memory Tag 253",
]
FOOTPRINT_PROCESSES = [
    ("Atlas", 23817, 1.0), ("AtlasWidgetExtension", 23901, 0.35), ("AtlasNotificationService", 23955, 0.2),
    ("AtlasShareExtension", 24010, 0.1), ("com.apple.WebKit.WebContent", 24102, 0.9),
    ("com.apple.WebKit.WebContent", 24177, 0.45), ("com.apple.WebKit.WebContent", 24230, 0.2),
    ("com.apple.WebKit.Networking", 24101, 0.9), ("com.apple.WebKit.GPU", 24100, 0.8),
]


def footprint_sample(processes):
    """What memhunt reads of one sample: each process with a footprint (`footprint`, else the kernel's
    `phys_footprint`), its peak and the category with the most dirty bytes (the first of equals)."""
    procs = []
    for p in processes:
        value = p.get("footprint", p.get("auxiliary", {}).get("phys_footprint"))
        if value is None:
            continue
        top = None
        for name, category in p.get("categories", {}).items():
            if top is None or category["dirty"] > top[1]:
                top = (name, category["dirty"])
        procs.append({"name": p["name"], "pid": p["pid"], "bytes": value,
                      "peak": p.get("auxiliary", {}).get("phys_footprint_peak"),
                      "cat": top and {"name": top[0], "dirty": top[1]}})
    return procs


# The footprint facts' own version: from 5 on, one process is read throughout a file (memhunt's `followed`).
FOOTPRINT_VERSION = 5


def footprint_facts(samples):
    """memhunt's footprint facts of one file's samples (each `{"t": seconds, "procs": footprint_sample(...)}`)
    with no app named: the process that is the largest in the most samples (the first of equal footprints in a
    sample; of a tie, the larger in its newest such sample, then the lower pid) is read in every sample that has
    it, in time order; never the largest of each sample joined into one line."""
    several = any(len(sample["procs"]) > 1 for sample in samples)
    wins = {}
    for sample in samples:
        largest = None
        for proc in sample["procs"]:
            if largest is None or proc["bytes"] > largest["bytes"]:
                largest = proc
        if largest is not None:
            wins[largest["pid"]] = (wins.get(largest["pid"], (0, 0))[0] + 1, largest["bytes"])
    followed = max(wins, key=lambda pid: (wins[pid][0], wins[pid][1], -pid)) if several and wins else None
    best = []
    for sample in samples:
        procs = [p for p in sample["procs"] if followed is None or p["pid"] == followed]
        if procs and (followed is not None or len(sample["procs"]) == 1):
            best.append(dict(procs[0], t=sample["t"]))
    readings = [r for _, r in sorted(enumerate(best), key=lambda pair: (pair[1]["t"], pair[0]))]
    newest, first = readings[-1], readings[0]
    peak = max(max((r["peak"] for r in readings if r["peak"] is not None), default=0), max(r["bytes"] for r in readings))
    facts = {"footprint.process": "%s [%d]" % (newest["name"], newest["pid"]),
             "footprint.footprintMB": megabytes(newest["bytes"]), "footprint.peakMB": megabytes(peak),
             "footprint.samples": len(readings)}
    with_categories = [r for r in readings if r["cat"]]
    if with_categories:
        facts["footprint.largestCategory"] = with_categories[-1]["cat"]["name"]
        facts["footprint.largestCategoryMB"] = megabytes(with_categories[-1]["cat"]["dirty"])
    if len(readings) >= 2:
        facts["footprint.firstMB"] = megabytes(first["bytes"])
        facts["footprint.growthMB"] = megabytes(newest["bytes"] - first["bytes"])
        if newest["t"] > first["t"]:
            # The least-squares line over minutes since the first sample, summed left to right as memhunt sums.
            xs = [(r["t"] - first["t"]) / 60 for r in readings]
            ys = [r["bytes"] / 1048576 for r in readings]
            n = float(len(xs))
            sx = sy = 0.0
            for x, y in zip(xs, ys):
                sx += x
                sy += y
            mx, my = sx / n, sy / n
            sxy = sxx = syy = 0.0
            for x, y in zip(xs, ys):
                sxy += (x - mx) * (y - my)
                sxx += (x - mx) * (x - mx)
                syy += (y - my) * (y - my)
            slope, r2 = (sxy / sxx, (sxy * sxy) / (sxx * syy) if syy > 0 else 1) if sxx > 0 else (0, 0)
            facts["footprint.slopeMBPerMinute"] = round_half_away(slope * 10) / 10
            facts["footprint.r2"] = round_half_away(r2 * 100) / 100
    return facts


def write_footprint(path, size, seed=53):
    """`footprint --sample … -j` JSON of about `size` bytes; returns the facts memhunt gives of it."""
    found = cached(path, version=FOOTPRINT_VERSION)
    if found:
        return found
    rng = random.Random(seed)
    page = 16384
    state = {}
    for name, pid, _ in FOOTPRINT_PROCESSES:
        categories = rng.sample(FOOTPRINT_CATEGORIES, rng.randint(30, 45))
        weights = {c: rng.paretovariate(1.3) * (6 if c.startswith("MALLOC") or c in ("IOSurface", "WebKit Malloc") else 1)
                   for c in categories}
        scale = 900 if name == "Atlas" else 420 if "WebContent" in name else 60
        total = sum(weights.values())
        state[(name, pid)] = {c: max(1, int(scale * 64 * w / total)) * page for c, w in weights.items()}
    peaks = {}
    readings = []
    clock = 86400.25
    with open(path + ".part", "w", encoding="utf-8") as out:
        out.write('{\n "unit": "byte",\n "bytes per unit": 1,\n "page size": %d,\n "samples": [\n' % page)
        written = 0
        index = 0
        while written < size or index < 2:
            clock += 1.0 + rng.randrange(0, 40) / 1000
            processes = []
            used = set()
            for name, pid, presence in FOOTPRINT_PROCESSES:
                if name != "Atlas" and rng.random() > presence:
                    continue
                base = state[(name, pid)]
                # The app's malloc regions grow; the others move about their level; a web page loaded now and
                # then makes a WebContent process the largest for a sample.
                spike = "WebContent" in name and rng.random() < 0.04
                categories = {}
                for c in base:
                    if name == "Atlas" and c.startswith("MALLOC"):
                        base[c] += page * rng.randint(0, 6)
                    dirty = max(page, base[c] + page * rng.randint(-40, 40))
                    if spike and c in ("WebKit Malloc", "JS VM Gigacage", "IOSurface", "MALLOC_LARGE", "MALLOC_SMALL"):
                        dirty += page * rng.randint(8000, 30000)
                    categories[c] = dirty
                entries = {}
                footprint = 0
                for c, dirty in categories.items():
                    swapped = page * rng.randint(0, dirty // page // 8) if rng.random() < 0.3 else 0
                    clean = page * rng.randint(0, 4000) if c in ("mapped file", "__TEXT", "__LINKEDIT") else 0
                    entries[c] = {"dirty": dirty, "swapped": swapped, "clean": clean,
                                  "reclaimable": page * rng.randint(0, 64) if c == "IOSurface" else 0,
                                  "wired": page * rng.randint(1, 8) if c == "page table" else 0,
                                  "regions": rng.randint(1, 400)}
                    footprint += dirty
                while footprint in used:  # no two processes of a sample with one footprint
                    footprint += page
                    entries[next(iter(entries))]["dirty"] += page
                used.add(footprint)
                peaks[(name, pid)] = max(peaks.get((name, pid), 0), footprint + page * rng.randint(0, 300))
                process = {"name": name, "pid": pid, "footprint": footprint,
                           "auxiliary": {"phys_footprint": footprint, "phys_footprint_peak": peaks[(name, pid)]},
                           "categories": entries}
                if name != "Atlas" and rng.random() < 0.01:
                    del process["footprint"]  # a child that exited while it was read: the kernel's figure only
                processes.append(process)
            sample = {"start_time": {"wall_time_s": round(clock, 3)},
                      "total footprint": sum(p["auxiliary"]["phys_footprint"] for p in processes),
                      "processes": processes}
            text = json.dumps(sample, indent=1)
            text = ("" if index == 0 else ",\n") + "\n".join("  " + line for line in text.split("\n"))
            out.write(text)
            written += len(text)
            readings.append({"t": sample["start_time"]["wall_time_s"], "procs": footprint_sample(processes)})
            index += 1
        out.write('\n ],\n "errors": [],\n "warnings": [\n'
                  '  "Unable to retrieve ledger entry info - No such process"\n ]\n}\n')
    os.replace(path + ".part", path)
    return save(path, dict(footprint_facts(readings)), version=FOOTPRINT_VERSION)


# ---- unified log (ndjson) with kill lines ----

LOG_SOURCES = [
    # (process, image path, pid, subsystem, category, messages)
    ("kernel", "/kernel", 0, "", "", [
        "Sandbox: %(app)s(%(pid)d) deny(1) file-read-data "
        "/private/var/mobile/Library/Preferences/com.apple.%(word)s.plist",
        "AppleKeyStore: operation failed (pid: %(pid)d sel: 7 ret: e00002c2 '-536870206')",
        "memorystatus: set assertion priority(%(pri)d) target %(app)s:%(pid)d",
        "AppleSEPManager: ep %(n)d: response latency %(ms)d ms",
        "IOSurface: buffer allocation size is zero, pid %(pid)d",
    ]),
    ("runningboardd", "/usr/libexec/runningboardd", 33, "com.apple.runningboard", "process", [
        "[app<application.com.example.atlas.%(n)d>:%(pid)d] Setting jetsam priority to %(pri)d [0x%(hex)x]",
        "Acquiring assertion targeting [app<application.com.example.atlas.%(n)d>:%(pid)d] from originator "
        "[osservice<com.apple.SpringBoard>:34] with description <RBSAssertionDescriptor| \"FBWorkspace (ProcessScene)\" "
        "ID:33-34-%(n)d target:%(pid)d attributes:[\n\t<RBSDomainAttribute| domain:\"com.apple.frontboard\" "
        "name:\"Visible\" sourceEnvironment:\"(null)\">\n\t]>",
        "[app<application.com.example.atlas.%(n)d>:%(pid)d] Ignoring jetsam update because this process is not "
        "memory-managed",
        "[osservice<com.apple.%(word)s>:%(pid)d] termination reported by launchd (0, 0, 0)",
    ]),
    ("SpringBoard", "/System/Library/CoreServices/SpringBoard.app/SpringBoard", 34, "com.apple.FrontBoard", "Process", [
        "[app<com.example.atlas>:%(pid)d] Received state update for %(pid)d (app<com.example.atlas(%(hex)X)>, "
        "running-active-NotVisible",
        "Presenting <SBUserNotificationAlert: 0x%(hex)x; title: Low Storage; source: %(word)s; pid: %(pid)d>",
        "[sceneID:com.example.atlas-default] Scene lifecycle state did change: Foreground",
    ]),
    ("locationd", "/usr/libexec/locationd", 71, "com.apple.locationd.Position", "Core",
     ["{\"msg\":\"#fusion tracking\", \"horizontalAccuracy\":%(ms)d, \"lat\":\"<private>\", \"lon\":\"<private>\"}",
      "Client com.example.atlas disconnected, %(n)d clients left"]),
    ("CommCenter", "/System/Library/Frameworks/CoreTelephony.framework/Support/CommCenter", 88, "com.apple.CommCenter",
     "ul", ["#I Data usage of %(word)s: %(n)d bytes in, %(ms)d bytes out",
            "QMI: Svc=0x%(hex)x MsgId=0x%(pri)d Bin=[<private>]"]),
    ("nsurlsessiond", "/usr/libexec/nsurlsessiond", 112, "com.apple.nsurlsessiond", "background",
     ["Task <%(hex)X-%(n)d>.<%(pri)d> resuming, QOS(0x19) Voucher <private>", "Discretionary task %(n)d scheduled"]),
    ("mediaserverd", "/usr/sbin/mediaserverd", 57, "com.apple.coremedia", "", [
        "<<<< FigPlayer >>>> fpfs_ReportPlaybackState: [%(hex)x] state: Playing rate: 1.00 (‘%(word)s’)",
        "-CMSessionMgr- cmsSetIsActive: CMSession[%(word)s(%(pid)d)] activating"]),
    ("Atlas", "/private/var/containers/Bundle/Application/5E3C1A2B-7D4F-4E6A-9B8C-0D1E2F3A4B5C/Atlas.app/Atlas", None,
     "com.example.atlas", "network", [
         "[Network] request %(n)d GET https://api.example.com/v1/feed?page=%(pri)d finished in %(ms)d ms",
         "[ImageCache] evicted %(pri)d images, %(n)d bytes: below 50 MB",
         "[CoreData] fetch of %(pri)d Item objects took %(ms)d ms",
         "Thumbnail decode: %(ms)d ms for page %(pri)d — “%(word)s”"]),
    ("com.apple.WebKit.WebContent", "/System/Library/Frameworks/WebKit.framework/XPCServices/"
     "com.apple.WebKit.WebContent.xpc/com.apple.WebKit.WebContent", None, "com.apple.WebKit", "Process", [
         "0x%(hex)x - [webPageID=%(n)d, frameID=%(pri)d, isMainFrame=1] WebFrameLoaderClient::dispatchDidFinishLoad",
         "WebProcess::updateFreezerStatus: isFreezable=1, error=0"]),
    ("backboardd", "/usr/libexec/backboardd", 66, "com.apple.backboard.hid", "Event",
     ["Sending event: <IOHIDEvent %(hex)x> to client: <BKHIDClientConnection: %(word)s pid: %(pid)d>"]),
]
WORDS = ["preferences", "springboard", "weather", "photos", "health", "mobilemail", "news", "itunesstored",
         "assetsd", "cloudd", "Atlas", "Safari", "WhatsApp", "Spotify", "YouTube", "Messages", "Maps"]
OTHER_APPS = ["MobileSafari", "com.apple.WebKit.WebContent", "Spotify", "WhatsApp", "YouTube", "Instagram",
              "MobileSlideShow", "Maps", "Music", "AtlasWidgetExtension"]
DAEMONS = ["cloudd", "assetsd", "mediaanalysisd", "photoanalysisd", "nsurlsessiond", "healthd", "searchd",
           "suggestd", "duetexpertd", "biomesyncd"]
BANDS = [("FOREGROUND", 100), ("BACKGROUND", 40), ("IDLE", 0), ("AUDIO_AND_ACCESSORY", 30)]


def log_record(stamp, message, process, path, pid, subsystem, category, thread, sender, trace):
    """One `log show --style ndjson` record, its keys in the order `log` writes them and `/` written `\\/`."""
    return ('{"traceID":%d,"eventMessage":%s,"eventType":"logEvent","source":null,"formatString":"%%{public}s",'
            '"activityIdentifier":0,"subsystem":"%s","category":"%s","threadID":%d,'
            '"senderImageUUID":"8B1F0C2A-5D1E-3C4B-9A7F-0E6D5C4B3A29","backtrace":{"frames":[{"imageOffset":%d,'
            '"imageUUID":"8B1F0C2A-5D1E-3C4B-9A7F-0E6D5C4B3A29"}]},"bootUUID":"","processImagePath":"%s",'
            '"timestamp":"%s","senderImagePath":"%s","machTimestamp":%d,"messageType":"Default",'
            '"processImageUUID":"0C2A8B1F-5D1E-3C4B-9A7F-0E6D5C4B3A29","processID":%d,"senderProgramCounter":%d,'
            '"parentActivityIdentifier":0,"timezoneName":""}\n'
            % (trace, json.dumps(message, ensure_ascii=False), subsystem, category, thread, trace % 1048576, path,
               stamp, sender, trace * 3, pid, trace % 65536)).replace("/", "\\/")


def write_killlog(path, size, seed=54, app="Atlas"):
    """`log show --style ndjson` of about `size` bytes with memory kills among other lines; returns the kills of
    `app` (killed and soft-limit crossings), the other processes' kills, the kernel's kill lines and the facts of
    `app`'s last kill."""
    found = cached(path)
    if found:
        return found
    rng = random.Random(seed)
    clock = datetime.datetime(2026, 8, 12, 9, 0, 0)
    micros = 0
    next_pid = [31000]
    app_pid = [30411]
    every = max(40, int(size / 820 / 5200))  # about 5,200 kills in 1 GiB: under memhunt's 10,000 records
    counts = {"kills": 0, "softLimitCrossings": 0, "otherKills": 0, "killLines": 0}
    last = None
    trace = 1 << 40

    def stamp():
        return (clock + datetime.timedelta(microseconds=micros)).strftime("%Y-%m-%d %H:%M:%S.%f") + "+0900"

    with open(path + ".part", "w", encoding="utf-8") as out:
        chunk = []
        written = 0
        line = 0
        until_kill = 7  # the first kill is among the first lines, as in a log of a day of kills
        while written < size:
            micros += rng.randrange(200, 60_000)
            trace += rng.randrange(1, 1 << 20)
            until_kill -= 1
            if until_kill <= 0:
                until_kill = rng.randint(every // 3, every * 2)
                kernel = ("/kernel", 0, "", "")
                lines = []
                roll = rng.random()
                if roll < 0.08:
                    # The app crosses its soft limit and lives on.
                    limit = rng.choice([1400, 1500, 1850])
                    lines.append(("memorystatus: %s [%d] exceeded mem limit: ActiveSoft %d MB (non-fatal)"
                                  % (app, app_pid[0], limit),) + kernel)
                    counts["softLimitCrossings"] += 1
                else:
                    if roll < 0.35:
                        name, kind = app, "app"
                        app_pid[0] += rng.randint(5, 900)  # relaunched: a new pid
                        pid = app_pid[0]
                    elif roll < 0.7:
                        name, kind = rng.choice(OTHER_APPS), "app"
                        next_pid[0] += rng.randint(1, 400)
                        pid = next_pid[0]
                    else:
                        name, kind = rng.choice(DAEMONS), "daemon"
                        next_pid[0] += rng.randint(1, 400)
                        pid = next_pid[0]
                    if kind == "daemon":
                        reason, (band, priority) = rng.choice(["idle-exit", "idle-exit", "highwater", "vnode-limit"]), \
                            rng.choice(BANDS[1:])
                    else:
                        reason = rng.choice(["per-process-limit", "per-process-limit", "vm-pageshortage", "fc-thrashing"])
                        band, priority = BANDS[0] if reason == "per-process-limit" or rng.random() < 0.3 else BANDS[1]
                    pages = rng.randint(1500, 120000)
                    footprint = rng.randint(20000, 3000000)
                    age = rng.randint(2, 90000)
                    record = {"reason": reason, "footprintKB": footprint}
                    first = stamp()
                    limit = None
                    if reason == "per-process-limit":
                        limit = rng.choice([1450, 2098, 2850, 3072]) if kind == "app" else rng.choice([50, 120, 300])
                        lines.append(("memorystatus: %s [%d] exceeded mem limit: ActiveHard %d MB (fatal)"
                                      % (name, pid, limit),) + kernel)
                        record["limitMB"], record["limitKind"] = limit, "ActiveHard"
                    if rng.random() < 0.5:
                        lines.append(("memorystatus: killing process %d [%s] in high band %s (%d) - "
                                      "memorystatus_available_pages: %d" % (pid, name, band, priority,
                                                                             pages - rng.randint(1, 40)),) + kernel)
                        record["band"] = band
                    word = {"idle-exit": "killing_idle_process", "per-process-limit": "killing_specific_process"}.get(
                        reason, "killing_top_process")
                    lines.append(("memorystatus: %s pid %d [%s] (%s %d %ds rf:- type:%s) %dKB - "
                                  "memorystatus_available_pages: %d" % (word, pid, name, reason, priority, age, kind,
                                                                        footprint, pages),) + kernel)
                    record["availablePages"] = pages
                    counts["killLines"] += 1
                    if kind == "app" or rng.random() < 0.3:
                        lines.append(("Process %s [%d] killed by jetsam reason %s" % (name, pid, reason),
                                      "/usr/libexec/ReportSystemMemory", 142, "com.apple.ReportSystemMemory", ""))
                    if name == app:
                        counts["kills"] += 1
                        record["time"] = first
                        last = record
                    else:
                        counts["otherKills"] += 1
                for message, image, pid_of_line, subsystem, category in lines:
                    text = log_record(stamp(), message, image.rsplit("/", 1)[-1], image, pid_of_line, subsystem,
                                      category, rng.randrange(1 << 20), image, trace)
                    micros += rng.randrange(50, 400)
                    trace += rng.randrange(1, 4096)
                    chunk.append(text)
                    written += len(text.encode())
                    line += 1
                continue
            process, image, pid, subsystem, category, messages = LOG_SOURCES[
                min(int(rng.paretovariate(0.9)) - 1, len(LOG_SOURCES) - 1) if rng.random() < 0.6
                else rng.randrange(len(LOG_SOURCES))]
            if pid is None:
                pid = app_pid[0] if process == app else 24102
            values = {"app": rng.choice(WORDS), "pid": rng.randrange(30, 40000), "word": rng.choice(WORDS),
                      "n": rng.randrange(1 << 20), "ms": rng.randrange(1, 3000), "pri": rng.choice([0, 3, 10, 40, 100]),
                      "hex": rng.randrange(1 << 40)}
            text = log_record(stamp(), rng.choice(messages) % values, process, image, pid, subsystem, category,
                              rng.randrange(1 << 20), image, trace)
            chunk.append(text)
            written += len(text.encode())
            line += 1
            if len(chunk) >= 5000:
                out.write("".join(chunk))
                chunk = []
        out.write("".join(chunk))
    os.replace(path + ".part", path)
    expected = dict(counts)
    expected["last"] = last
    return save(path, expected)


# ---- sysdiagnose archive ----

SYSDIAGNOSE_NAMED = ["ps.txt", "ps_thread.txt", "taskinfo.txt", "vm_stat.txt", "memory_pressure.txt"]


def sysdiagnose_role(name):
    """What memhunt does with a member named `name` (as `tar -t` lists it): `folder`, `logarchive:PATH`,
    `document`, `named` or `skipped` (memhunt's documented routing, `SysdiagnoseRole`)."""
    if name.endswith("/"):
        return "folder"
    parts = [p for p in name.split("/") if p and p != "."]
    for index, part in enumerate(parts):
        if part.endswith(".logarchive"):
            return "logarchive:" + "/".join(parts[:index + 1])
    last, folders = parts[-1], parts[:-1]
    if "crashes_and_spins" in folders and (last.endswith(".ips") or ".ips." in last or last.endswith(".crash")):
        return "document"
    if len(parts) <= 2 and last in SYSDIAGNOSE_NAMED:
        return "named"
    if "logs" in folders and (last.endswith(".txt") or ".log" in last):
        return "document"
    return "skipped"


def jetsam_event_text(rng, processes, when, incident):
    """A JetsamEvent .ips (header line, then the body) of `processes` process records."""
    names = ["backboardd", "SpringBoard", "mediaserverd", "Atlas", "MobileSafari", "com.apple.WebKit.WebContent",
             "Photos", "MobileMail", "cloudd", "nsurlsessiond", "assetsd", "searchd", "WhatsApp", "Maps", "Music",
             "locationd", "CommCenter", "wifid", "runningboardd", "duetexpertd"]
    records = []
    for index in range(processes):
        name = names[index] if index < len(names) else "%s%d" % (rng.choice(names[6:]), index)
        rpages = rng.randint(16, 60000)
        records.append({
            "uuid": "%08X-%04X-%04X-%04X-%012X" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(16),
                                                   rng.getrandbits(16), rng.getrandbits(48)),
            "states": rng.choice([["daemon"], ["daemon", "idle"], ["frontmost"], ["suspended"], ["background"], []]),
            "lifetimeMax": rpages + rng.randint(0, 20000), "purgeable": rng.randint(0, 100),
            "jetsamBand": rng.choice([0, 3, 10, 40, 100, 180]), "fds": rng.randint(10, 400),
            "coalition": rng.randint(0, 900), "rpages": rpages, "priority": rng.choice([0, 3, 10, 180, 999]),
            "physicalPages": {"internal": [rpages, rng.randint(0, 9000)]}, "pid": 100 + index,
            "cpuTime": round(rng.uniform(0, 900), 6), "name": name,
        })
    records[3]["reason"] = rng.choice(["per-process-limit", "vm-pageshortage"])
    body = {"crashReporterKey": "%040x" % rng.getrandbits(160), "kernel": "Darwin Kernel Version 25.1.0",
            "product": rng.choice(["iPhone18,1", "iPhone17,3", "iPhone15,2"]), "incident": incident,
            "date": when, "build": "iPhone OS 26.1 (23B85)", "timeDelta": rng.randint(1, 9),
            "memoryStatus": {"compressorSize": rng.randint(20000, 90000), "compressions": rng.randint(10 ** 6, 10 ** 8),
                             "decompressions": rng.randint(10 ** 6, 10 ** 7), "busyBufferCount": 0,
                             "memorystatusLevel": rng.randint(2, 40), "pageSize": 16384,
                             "uncompressed": rng.randint(100000, 300000),
                             "memoryPages": {"active": rng.randint(50000, 150000), "throttled": 0,
                                             "fileBacked": rng.randint(10000, 90000), "wired": rng.randint(50000, 99000),
                                             "anonymous": rng.randint(50000, 150000), "purgeable": rng.randint(0, 900),
                                             "inactive": rng.randint(40000, 120000), "free": rng.randint(1000, 9000),
                                             "speculative": rng.randint(100, 3000)}},
            "largestProcess": "com.apple.WebKit.WebContent", "genCounter": 0, "processes": records}
    header = {"bug_type": "298", "timestamp": when, "os_version": "iPhone OS 26.1 (23B85)", "roots_installed": 0,
              "incident_id": incident}
    return json.dumps(header, separators=(",", ":")) + "\n" + json.dumps(body, indent=2) + "\n"


def log_text(rng, size, kind):
    """About `size` bytes of a daemon's text log, timestamped lines of its own vocabulary."""
    lines, written = [], 0
    clock = rng.randrange(10 ** 6)
    while written < size:
        clock += rng.randrange(1, 90_000)
        stamp = "Mon Nov  2 %02d:%02d:%02d 2026" % (clock // 3600 % 24, clock // 60 % 60, clock % 60)
        text = "%s [%d] <Notice>: %s\n" % (stamp, rng.randrange(30, 9000), rng.choice([
            "%s: install of com.example.%s completed in %d ms" % (kind, rng.choice(WORDS), rng.randrange(9000)),
            "%s: container /private/var/mobile/Containers/Data/Application/%08X is %d bytes" % (
                kind, rng.getrandbits(32), rng.randrange(10 ** 9)),
            "%s: lookup of %s returned %d entries" % (kind, rng.choice(WORDS), rng.randrange(50)),
            "%s: state changed to %s" % (kind, rng.choice(["idle", "active", "suspended", "terminated"])),
        ]))
        lines.append(text)
        written += len(text)
    return "".join(lines).encode()


def write_sysdiagnose(path, size, members=20000, seed=55):
    """A sysdiagnose .tar.gz of about `size` bytes (compressed) and `members` members; returns what memhunt
    should count of it: members, folders, documents, named, log archives, skipped members and bytes, the tar
    stream's length to its end blocks and with its record padding."""
    found = cached(path)
    if found:
        return found
    rng = random.Random(seed)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    crash_fixtures = [os.path.join(root, "Fixtures", *p) for p in (
        ("formats", "crash-309-memory.ips"), ("formats", "crash-309-watchdog.ips"), ("formats", "crash-309-dead10cc.ips"),
        ("watchdog", "JustSend-2026-08-13-224107.ips"))]
    crash_texts = []
    for fixture in crash_fixtures:
        with open(fixture, "rb") as f:
            crash_texts.append(f.read())
    top = "sysdiagnose_2026.11.02_09-41-12+0100_iPhone-OS_iPhone_23B85"
    mtime = 1793608872
    expected = {"members": 0, "folders": 0, "documents": 0, "named": 0, "skipped": 0, "skippedBytes": 0,
                "logArchives": 0, "logArchiveMembers": 0, "jetsamEvents": 0, "crashReports": 0}
    folders_made = set()
    raw = open(path + ".part", "wb")
    # The gzip header names the tar inside, as gzip does (not the file being written): the same arguments write the
    # same bytes.
    inner = os.path.basename(path)
    inner = inner[:-3] if inner.endswith(".gz") else inner[:-4] + ".tar" if inner.endswith(".tgz") else inner
    gz = gzip.GzipFile(filename=inner, fileobj=raw, mode="wb", compresslevel=6, mtime=0)
    tar = tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT)

    def folder(name):
        parts = name.split("/")
        for depth in range(1, len(parts) + 1):
            sub = "/".join(parts[:depth])
            if sub in folders_made:
                continue
            folders_made.add(sub)
            info = tarfile.TarInfo(sub)
            info.type, info.mode, info.mtime, info.uname, info.gname = tarfile.DIRTYPE, 0o755, mtime, "root", "wheel"
            tar.addfile(info)
            expected["members"] += 1
            expected["folders"] += 1

    def add(name, data):
        folder(os.path.dirname(name))
        info = tarfile.TarInfo(name)
        info.size, info.mode, info.mtime, info.uname, info.gname = len(data), 0o644, mtime + rng.randrange(600), \
            "mobile", "mobile"
        tar.addfile(info, io.BytesIO(data))
        expected["members"] += 1
        role = sysdiagnose_role(name)
        if role == "document" or role == "named":
            expected[role + "s" if role == "document" else "named"] += 1
        elif role == "skipped":
            expected["skipped"] += 1
            expected["skippedBytes"] += len(data)
        else:
            expected["logArchiveMembers"] += 1

    scale = members / 20000
    n_crashes = max(3, int(120 * scale))
    n_logs = max(10, int(1500 * scale))
    n_other = max(20, int(5000 * scale))
    # The folders below are counted as they are made; the log archive takes the members left.
    for index in range(n_crashes):
        when = "2026-11-%02d %02d:%02d:%02d.00 +0100" % (1 + index % 2, rng.randrange(24), rng.randrange(60),
                                                         rng.randrange(60))
        stamp = when[:10] + "-" + when[11:19].replace(":", "")
        if index % 3 == 0:
            incident = "%08X-0000-4000-8000-%012X" % (seed, index)
            text = jetsam_event_text(rng, rng.randint(60, 420), when, incident).encode()
            add("%s/crashes_and_spins/JetsamEvent-%s.ips" % (top, stamp), text)
            expected["jetsamEvents"] += 1
        else:
            text = crash_texts[index % len(crash_texts)]
            suffix = ".ips.synced" if index % 7 == 1 else ".ips"
            add("%s/crashes_and_spins/%s-%s%s" % (top, rng.choice(["Atlas", "MobileSafari", "Heavy", "JustSend"]),
                                                  stamp, suffix), text)
            expected["crashReports"] += 1
    log_folders = ["MobileInstallation", "MobileContainerManager", "CrashReporter", "Networking", "lockdownd",
                   "AppSupport", "SystemConfiguration", "MobileBackup", "Accessibility", "BluetoothRecords"]
    for index in range(n_logs):
        sub = rng.choice(log_folders)
        name = "%s/logs/%s/%s.%s" % (top, sub, sub.lower(), rng.choice(["log", "log.0", "log.1", "txt", "log.2"]))
        name = name.replace(sub.lower() + ".", "%s-%d." % (sub.lower(), index))
        add(name, log_text(rng, int(rng.paretovariate(1.5) * 8000 * min(1, scale * 4 + 0.2)), sub))
    for named in SYSDIAGNOSE_NAMED:
        add("%s/%s" % (top, named), log_text(rng, rng.randint(20000, 200000), named.split(".")[0]))
    for other in ["ifconfig.txt", "netstat.txt", "df.txt", "mount.txt", "sysctl.txt", "zprint.txt", "lsof.txt",
                  "jetsam_priority.txt", "disks.txt", "spindump-nosymbols.txt", "footprint-all.txt",
                  "remotectl_dumpstate.txt"]:
        add("%s/%s" % (top, other), log_text(rng, int(rng.randint(20000, 600000) * max(scale, 0.05) * 5), other[:-4]))
    other_folders = ["Preferences", "summaries", "ASPSnapshots", "WiFi", "brctl", "CoreLocation", "Personalization",
                     "SystemConfiguration", "ioreg", "MobileActivation", "powerlogs", "Security"]
    for index in range(n_other):
        sub = rng.choice(other_folders)
        extension = rng.choice([".plist", ".plist", ".db", ".csv", ".json", ".PLSQL", ".log"])
        data = (b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict>' + b"".join(
            b"<key>%s</key><integer>%d</integer>" % (rng.choice(WORDS).encode(), rng.randrange(10 ** 6))
            for _ in range(rng.randint(2, 200))) + b"</dict></plist>\n") if extension == ".plist" else \
            rng.randbytes(rng.randint(200, 30000))
        add("%s/%s/%s-%d%s" % (top, sub, rng.choice(WORDS), index, extension), data)
    # The unified log archive: metadata, uuidtext and timesync files, then the tracev3 chunks that fill the size.
    archive = "%s/system_logs.logarchive" % top
    left = members - expected["members"]
    add(archive + "/Info.plist", b'<?xml version="1.0"?><plist version="1.0"><dict><key>OSArchiveVersion</key>'
                                 b'<integer>5</integer></dict></plist>\n')
    n_persist = max(2, int(48 * scale))
    n_special = max(1, int(30 * scale))
    uuid_folders = max(1, min(256, left // 40))
    for prefix in range(uuid_folders):
        folder("%s/uuidtext/%02X" % (archive, prefix))
    # What follows the uuidtext files: timesync, Special and Persist folders and files, version.plist.
    n_uuid = max(0, members - expected["members"] - n_persist - n_special - 5)
    for index in range(n_uuid):
        strings = b"".join(b"%s: %%{public}s %%d %s\x00" % (rng.choice(WORDS).encode(), rng.choice(STEMS).encode())
                           for _ in range(rng.randint(1, 60)))
        add("%s/uuidtext/%02X/%030X" % (archive, index % uuid_folders, rng.getrandbits(120)),
            b"\x99\x88\x77\x66" + rng.randbytes(rng.randint(64, 2048)) + strings)
    add(archive + "/timesync/0000000000000001.timesync", rng.randbytes(4096))
    for index in range(n_special):
        add("%s/Special/%016x.tracev3" % (archive, index + 1), rng.randbytes(rng.randint(4096, 65536)))
    gz.flush()
    for index in range(n_persist):
        remaining = size - raw.tell() - 4096 * (n_persist - index)
        share = max(4096, remaining // (n_persist - index))
        add("%s/Persist/%016x.tracev3" % (archive, index + 1), rng.randbytes(share))
        gz.flush()
    add(archive + "/version.plist", b"<plist><dict><key>Version</key><string>5</string></dict></plist>\n")
    expected["expandedBytes"] = tar.offset + 1024
    tar.close()
    gz.close()
    raw.close()
    expected["tarBytes"] = -(-expected["expandedBytes"] // tarfile.RECORDSIZE) * tarfile.RECORDSIZE
    expected["logArchives"] = 1
    os.replace(path + ".part", path)
    return save(path, expected)


# ---- MetricKit fleet ----

METRICKIT_APPS = ["com.example.atlas", "com.example.atlas.beta", "com.acme.shop", "com.acme.news", "com.acme.radio",
                  "io.northwind.travel", "io.northwind.maps", "app.lumen.photos", "app.lumen.video", "net.fable.reader",
                  "net.fable.audiobooks", "com.orbit.chat", "com.orbit.meet", "com.quill.notes", "com.quill.tasks",
                  "com.tidal.weather", "com.tidal.tides", "org.sparrow.mail", "org.sparrow.calendar", "dev.kiln.game",
                  "dev.kiln.puzzle", "com.harbor.bank", "com.harbor.invest", "com.pico.fitness", "com.pico.sleep",
                  "tv.vista.stream", "tv.vista.kids", "com.ember.food", "com.ember.grocery", "co.atlas.rides"]
LOCALES = [  # (regionFormat, grouping separator, unit word)
    ("US", ",", " kB"), ("GB", ",", " kB"), ("DE", ".", " kB"), ("FR", "\u202f", "\u00a0Ko"), ("CN", ",", "千字节"),
    ("RU", "\u00a0", "\u00a0КБ"), ("JP", ",", " kB"), ("KR", ",", " kB"), ("IN", ",", " kB"), ("BR", ".", " kB"),
]
DEVICES = [("iPhone18,1", 1.0), ("iPhone17,3", 0.9), ("iPhone16,2", 0.85), ("iPhone15,2", 0.7), ("iPhone14,5", 0.6),
           ("iPhone12,1", 0.45), ("iPad14,3", 1.3), ("iPhone11,8", 0.4)]
OS_BUILDS = ["iPhone OS 26.1 (23B85)", "iPhone OS 26.0.1 (23A355)", "iPhone OS 18.6.2 (22G100)",
             "iPhone OS 17.7 (21H16)", "iPhone OS 16.7.10 (20H350)", "iPhone OS 14.8 (18H17)"]


def grouped(value, separator):
    digits = str(value)
    parts = []
    while len(digits) > 3:
        parts.insert(0, digits[-3:])
        digits = digits[:-3]
    parts.insert(0, digits)
    return separator.join(parts)


def metric_payload(rng, app, day, device, factor, build, locale, with_bundle=True):
    """One MXMetricPayload dictionary, as `jsonRepresentation()` writes it."""
    region, separator, unit = locale
    base = 150_000 + (METRICKIT_APPS.index(app) * 37_000) % 900_000
    peak = max(1000, int(base * factor * rng.lognormvariate(0, 0.35)))
    kb = lambda v: (grouped(v, separator) if rng.random() < 0.9 else str(v)) + unit
    meta = {"appBuildVersion": str(rng.choice([812, 813, 820, 901])), "osVersion": build, "regionFormat": region,
            "platformArchitecture": "arm64e", "deviceType": device}
    if with_bundle:
        meta["bundleIdentifier"] = app
    if not build.startswith("iPhone OS 14"):
        meta["lowPowerModeEnabled"] = rng.random() < 0.2
        meta["isTestFlightApp"] = False
        meta["pid"] = rng.randrange(300, 9000)
    payload = {
        "timeStampBegin": "2026-08-%02d 00:00:00 +0000" % day, "timeStampEnd": "2026-08-%02d 23:59:00 +0000" % day,
        "appVersion": rng.choice(["4.2.0", "4.2.1", "4.3.0"]), "metaData": meta,
        "locationActivityMetrics": {k: "%d sec" % rng.randrange(0, 600) for k in (
            "cumulativeBestAccuracyForNavigationTime", "cumulativeBestAccuracyTime", "cumulativeHundredMetersAccuracyTime",
            "cumulativeNearestTenMetersAccuracyTime", "cumulativeKilometerAccuracyTime",
            "cumulativeThreeKilometersAccuracyTime")},
        "cellularConditionMetrics": {"cellConditionTime": {"histogramNumBuckets": 3, "histogramValue": {
            str(i): {"bucketCount": rng.randrange(100), "bucketStart": "%d bars" % (i + 1),
                     "bucketEnd": "%d bars" % (i + 1)}
            for i in range(3)}}},
        "gpuMetrics": {"cumulativeGPUTime": "%d sec" % rng.randrange(1000)},
        "cpuMetrics": {"cumulativeCPUTime": "%s sec" % grouped(rng.randrange(5000), ","),
                       "cumulativeCPUInstructions": "%s kiloinstructions" % grouped(rng.randrange(10 ** 10), ",")},
        "networkTransferMetrics": {k: kb(rng.randrange(10 ** 7)) for k in (
            "cumulativeCellularDownload", "cumulativeWifiDownload", "cumulativeCellularUpload", "cumulativeWifiUpload")},
        "applicationLaunchMetrics": {"histogrammedTimeToFirstDrawKey": {"histogramNumBuckets": 6, "histogramValue": {
            str(i): {"bucketCount": rng.randrange(50), "bucketStart": "%d ms" % (i * 100),
                     "bucketEnd": "%d ms" % (i * 100 + 100)}
            for i in range(6)}}},
        "applicationResponsivenessMetrics": {"histogrammedAppHangTime": {"histogramNumBuckets": 3, "histogramValue": {
            str(i): {"bucketCount": rng.randrange(20), "bucketStart": "%d ms" % (i * 1000),
                     "bucketEnd": "%d ms" % (i * 1000 + 1000)}
            for i in range(3)}}},
        "diskIOMetrics": {"cumulativeLogicalWrites": kb(rng.randrange(10 ** 7))},
        "displayMetrics": {"averagePixelLuminance": {"averageValue": "%d apl" % rng.randrange(100),
                                                     "standardDeviation": 0, "sampleCount": rng.randrange(500)}},
        "applicationExitMetrics": {
            "foregroundExitData": {"cumulativeNormalAppExitCount": rng.randrange(30),
                                   "cumulativeMemoryResourceLimitExitCount": rng.choice([0, 0, 0, 1, 2]),
                                   "cumulativeAppWatchdogExitCount": rng.choice([0, 0, 1])},
            "backgroundExitData": {"cumulativeMemoryPressureExitCount": rng.randrange(15),
                                   "cumulativeSuspendedWithLockedFileExitCount": rng.choice([0, 0, 1]),
                                   "cumulativeMemoryResourceLimitExitCount": rng.choice([0, 0, 1]),
                                   "cumulativeBackgroundTaskAssertionTimeoutExitCount": rng.choice([0, 1])}},
        "signpostMetrics": [{"signpostIntervalData": {"histogrammedSignpostDurations": {"histogramNumBuckets": 2,
                            "histogramValue": {str(i): {"bucketCount": rng.randrange(80), "bucketStart": "%d ms" % (i * 10),
                                                        "bucketEnd": "%d ms" % (i * 10 + 10)} for i in range(2)}},
                            "signpostCumulativeCPUTime": "%d ms" % rng.randrange(900),
                            "signpostAverageMemory": kb(rng.randrange(10 ** 6)),
                            "signpostCumulativeLogicalWrites": kb(rng.randrange(10 ** 5))},
                            "signpostCategory": "Feed", "signpostName": rng.choice(["Load", "Scroll", "Decode"]),
                            "totalSignpostCount": rng.randrange(100)}],
    }
    if rng.random() > 0.02:
        memory = {"peakMemoryUsage": kb(peak)}
        if rng.random() > 0.1:
            memory["averageSuspendedMemory"] = {"averageValue": kb(max(100, int(peak * rng.uniform(0.08, 0.4)))),
                                                "standardDeviation": round(rng.uniform(0, 90000), 6),
                                                "sampleCount": rng.randrange(1, 600)}
        payload["memoryMetrics"] = memory
    return payload


def diagnostic_payload(rng, app, day, device, build):
    meta = {"appBuildVersion": "812", "appVersion": "4.2.0", "osVersion": build, "deviceType": device,
            "regionFormat": "US", "platformArchitecture": "arm64e", "bundleIdentifier": app}
    crash = dict(meta, exceptionType=rng.choice([1, 10]), signal=rng.choice([9, 11]), exceptionCode=0,
                 terminationReason="Namespace SIGNAL, Code 0xb")
    frames = [{"binaryUUID": "%032X" % rng.getrandbits(128), "offsetIntoBinaryTextSegment": rng.randrange(1 << 24),
               "sampleCount": 1, "binaryName": rng.choice(["Atlas", "UIKitCore", "libswiftCore.dylib"]),
               "address": rng.randrange(1 << 36)} for _ in range(rng.randint(5, 30))]
    return {"timeStampBegin": "2026-08-%02d 00:00:00 +0000" % day, "timeStampEnd": "2026-08-%02d 23:59:00 +0000" % day,
            "crashDiagnostics": [{"version": "1.0.0", "diagnosticMetaData": crash,
                                  "callStackTree": {"callStackPerThread": True,
                                                    "callStacks": [{"threadAttributed": True,
                                                                    "callStackRootFrames": frames[:1]}]}}],
            "hangDiagnostics": []}


def fleet_cached(folder):
    """The expected figures of a fleet this version of the generator wrote under `folder`, or None. They are kept
    beside the fleet (`folder`.json), not in it: the scans read every file under it."""
    marker = folder + ".json"
    if os.path.isdir(folder) and os.path.exists(marker):
        with open(marker) as f:
            data = json.load(f)
        if data.get("version") == VERSION:
            return data
    return None


def fleet_part(folder):
    """An empty folder beside `folder` to write a fleet into before it takes `folder`'s place."""
    part = folder + ".part"
    if os.path.isdir(part):
        shutil.rmtree(part)
    return part


def fleet_done(folder, part, expected):
    """Puts the fleet written under `part` in `folder`'s place and keeps `expected` (with the version) beside it."""
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    os.replace(part, folder)
    expected = dict(expected, version=VERSION)
    with open(folder + ".json", "w") as f:
        json.dump(expected, f)
    return expected


def write_metrickit_fleet(folder, count=100000, seed=56):
    """`count` MetricKit payload files under `folder` (1,000 a sub-folder); returns how many of each shape."""
    written_before = fleet_cached(folder)
    if written_before:
        return written_before
    rng = random.Random(seed)
    part = fleet_part(folder)
    shapes = {}
    written = []
    weights = [1 / (rank + 1) ** 0.9 for rank in range(len(METRICKIT_APPS))]
    for index in range(count):
        sub = os.path.join(part, "%03d" % (index // 1000))
        if index % 1000 == 0:
            os.makedirs(sub)
        name = os.path.join(sub, "payload-%06d.json" % index)
        if written and rng.random() < 0.005:
            with open(rng.choice(written), "rb") as f:
                data = f.read()  # the same upload twice
            shape = "duplicate"
        else:
            app = rng.choices(METRICKIT_APPS, weights)[0]
            device, factor = rng.choice(DEVICES)
            build = rng.choice(OS_BUILDS)
            locale = rng.choice(LOCALES)
            day = rng.randint(1, 28)
            roll = rng.random()
            if roll < 0.06:
                shape, value = "diagnostic", diagnostic_payload(rng, app, day, device, build)
            else:
                payload = metric_payload(rng, app, day, device, factor, build, locale,
                                         with_bundle=not build.startswith("iPhone OS 14") or rng.random() < 0.3)
                if roll < 0.76:
                    shape, value = "bare", payload
                elif roll < 0.86:
                    shape, value = "wrapped", {"payload": payload, "receivedAt": "2026-08-%02dT06:12:00Z" % day,
                                               "sdkVersion": "3.4.1"}
                elif roll < 0.91:
                    shape, value = "source", {"_index": "metrickit-2026.08", "_id": "%024x" % rng.getrandbits(96),
                                              "_source": payload}
                else:
                    days = sorted(rng.sample(range(1, 29), rng.randint(2, 4)))
                    shape = "array"
                    value = [metric_payload(rng, app, d, device, factor, build, locale) for d in days[:-1]] + [payload]
                    payload["timeStampBegin"] = "2026-08-%02d 00:00:00 +0000" % days[-1]
                    payload["timeStampEnd"] = "2026-08-%02d 23:59:00 +0000" % days[-1]
                    rng.shuffle(value)
            if shape in ("bare", "array", "diagnostic"):
                data = json.dumps(value, indent=2, separators=(",", " : "), ensure_ascii=False).encode()
            else:
                data = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
        shapes[shape] = shapes.get(shape, 0) + 1
        with open(name, "wb") as f:
            f.write(data)
        if len(written) < 5000:
            written.append(name)
    return fleet_done(folder, part, {"files": count, "shapes": shapes})


# The daemons of a device's JetsamEvents: real names, then more made the way launchd's jobs are named, so that a
# record lists about 380 of them as a real one does. They carry the `daemon` state, as real records' daemons do.
JETSAM_DAEMONS = ["backboardd", "SpringBoard", "mediaserverd", "CommCenter", "locationd", "wifid", "runningboardd",
                  "duetexpertd", "cloudd", "nsurlsessiond", "assetsd", "searchd", "bluetoothd", "configd", "powerd",
                  "symptomsd", "apsd", "identityservicesd", "mDNSResponder", "thermalmonitord", "coreduetd", "dasd",
                  "trustd", "securityd", "useractivityd", "sharingd", "rapportd", "healthd", "fseventsd", "logd",
                  "aggregated", "analyticsd", "bird", "callservicesd", "contextstored", "coreauthd", "druid",
                  "fitcored", "geod", "itunesstored", "kbd", "lsd", "mobileassetd", "navd", "nearbyd", "nfcd",
                  "passd", "photoanalysisd", "routined", "siriknowledged", "suggestd", "tccd", "timed", "triald",
                  "watchdogd", "com.apple.WebKit.Networking", "com.apple.WebKit.GPU", "com.apple.quicklook.ThumbnailsAgent",
                  "com.apple.accessibility.heard", "com.apple.dt.instruments.dtsecurity"]
JETSAM_DAEMONS += ["%s%sd" % (stem, suffix) for stem in ("accounts", "audio", "backup", "calendar", "camera", "carkit",
                                                         "contacts", "coremedia", "display", "familycircle", "game",
                                                         "homekit", "imagent", "keyboard", "mail", "maps", "media",
                                                         "memory", "metrics", "music", "notes", "phone", "print",
                                                         "reminders", "screentime", "siri", "spotlight", "storekit",
                                                         "sync", "usage", "video", "voicemail", "wallet", "weather")
                   for suffix in ("", "agent", "helper", "sync", "cache", "service", "monitor", "index", "store",
                                  "bridge")]
# Apps a device may have installed (their extensions too), most-installed first.
JETSAM_APPS = ["MobileSafari", "MobileMail", "Photos", "Maps", "Music", "Atlas", "JustSend", "WhatsApp", "Instagram",
               "Spotify", "YouTube", "Messenger", "Telegram", "Slack", "Notion", "Uber", "Airbnb", "Duolingo",
               "Strava", "Netflix", "Discord", "Reddit", "Signal", "Zoom", "Outlook", "Teams", "LinkedIn", "Pinterest",
               "Snapchat", "TikTok", "Threads", "Bluesky", "Mastodon", "Ivory", "Overcast", "Pocket", "Things",
               "Fantastical", "1Password", "Authenticator", "AtlasWidgetExtension", "JustSendShareExtension",
               "WhatsAppNotificationService", "SpotifyWidgetExtension", "PhotosReliveWidget",
               "MobileSMS", "MobileCal", "MobileNotes", "Reminders", "Weather", "Health", "Fitness", "Wallet",
               "Podcasts", "Books", "News", "Stocks", "Translate", "Shortcuts", "Files", "Camera", "Clock",
               "GarageBand", "iMovie", "Keynote", "Pages", "Numbers", "TestFlight", "Xcode Previews", "Lightroom"]


def process_uuid(rng):
    """A process's image UUID as JetsamEvents write it (lower-case hex)."""
    return "%08x-%04x-%04x-%04x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(16),
                                          rng.getrandbits(16), rng.getrandbits(48))


def jetsam_fleet_record(rng, device, apps, when, incident):
    """One full-size JetsamEvent of `device` (product, build, key) whose installed apps are `apps`: its daemons,
    then the apps it has running (one frontmost, some killed), in the key order and pretty-printing of real
    records (`"key" : value`, two-space indent)."""
    product, build, key = device
    processes = []
    pid = 30
    for name in JETSAM_DAEMONS:
        if rng.random() < 0.04:
            continue  # not running at this moment
        rpages = int(rng.lognormvariate(6.5, 1.2)) + 16
        process = {"uuid": process_uuid(rng),
                   "states": ["daemon", "idle"] if rng.random() < 0.6 else ["daemon"]}
        if rng.random() < 0.5:
            process["lifetimeMax"] = rpages + rng.randint(0, 4000)
        process.update({"age": rng.getrandbits(42), "purgeable": rng.randint(0, 40), "fds": rng.randint(4, 300),
                        "coalition": rng.randint(1, 900), "rpages": rpages, "priority": rng.choice([0, 3, 5, 40, 180]),
                        "physicalPages": {"internal": [rng.randint(0, rpages), rpages]}, "pid": pid,
                        "cpuTime": round(rng.uniform(0, 400), 6), "name": name})
        processes.append(process)
        pid += rng.randint(1, 9)
    running = [app for app in apps if rng.random() < 0.7]
    frontmost = rng.choice(running) if running else None
    for name in running:
        rpages = int(rng.lognormvariate(8.3, 0.9)) + 64
        states = ["frontmost"] if name == frontmost else [rng.choice(["suspended", "suspended", "background"])]
        process = {"uuid": process_uuid(rng),
                   "states": states, "lifetimeMax": rpages + rng.randint(0, 30000), "age": rng.getrandbits(40),
                   "purgeable": rng.randint(0, 2000), "fds": rng.randint(20, 200), "coalition": rng.randint(1, 900),
                   "rpages": rpages, "priority": 100 if name == frontmost else rng.choice([0, 4, 10]),
                   "physicalPages": {"internal": [rng.randint(0, rpages), rpages]}, "pid": pid,
                   "cpuTime": round(rng.uniform(0, 900), 6), "name": name}
        roll = rng.random()
        if roll < 0.03:
            process["reason"] = "per-process-limit"
        elif roll < 0.08:
            process["reason"] = "vm-pageshortage"
        elif roll < 0.10:
            process["reason"] = "idle-exit"
        if "reason" in process:
            process["killDelta"] = rng.randint(100, 90000)
        processes.append(process)
        pid += rng.randint(1, 9)
    body = {"crashReporterKey": key, "kernel": "Darwin Kernel Version 25.1.0: root:xnu-12377.42.6~55/RELEASE_ARM64_T8140",
            "product": product, "incident": incident, "date": when, "build": build, "timeDelta": rng.randint(1, 9),
            "memoryStatus": {"compressorSize": rng.randint(20000, 90000), "compressions": rng.randint(10 ** 6, 10 ** 8),
                             "decompressions": rng.randint(10 ** 6, 10 ** 7), "zoneMapCap": 1472872448,
                             "largestZone": "APFS_4K_OBJS", "largestZoneSize": rng.randint(10 ** 7, 6 * 10 ** 7),
                             "pageSize": 16384, "uncompressed": rng.randint(100000, 300000),
                             "zoneMapSize": rng.randint(10 ** 8, 3 * 10 ** 8),
                             "memoryPages": {"active": rng.randint(40000, 150000), "throttled": 0,
                                             "fileBacked": rng.randint(10000, 90000), "wired": rng.randint(40000, 99000),
                                             "anonymous": rng.randint(40000, 150000), "purgeable": rng.randint(0, 900),
                                             "inactive": rng.randint(30000, 120000), "free": rng.randint(1000, 9000),
                                             "speculative": rng.randint(100, 4000)}},
            "largestProcess": max(processes, key=lambda p: p["rpages"])["name"], "genCounter": rng.randint(0, 3),
            "processes": processes}
    header = {"bug_type": "298", "timestamp": when, "os_version": build, "roots_installed": 0, "incident_id": incident}
    return (json.dumps(header, separators=(",", ":")) + "\n"
            + json.dumps(body, indent=2, separators=(",", " : ")) + "\n")


def write_jetsam_fleet(folder, count=10000, seed=58):
    """`count` full-size JetsamEvents (about 440 processes each) of 600 devices under `folder`, 1,000 a sub-folder.
    Returns how many records and processes were written."""
    written_before = fleet_cached(folder)
    if written_before:
        return written_before
    rng = random.Random(seed)
    part = fleet_part(folder)
    weights = [1 / (rank + 1) ** 0.7 for rank in range(len(JETSAM_APPS))]
    devices = []
    for _ in range(600):
        product = rng.choice(["iPhone18,1", "iPhone17,3", "iPhone16,2", "iPhone15,2", "iPhone14,5"])
        build = rng.choice(["iPhone OS 26.1 (23B85)", "iPhone OS 26.0 (23A341)", "iPhone OS 18.6 (22G86)"])
        installed = sorted(set(rng.choices(JETSAM_APPS, weights, k=rng.randint(30, 70))), key=JETSAM_APPS.index)
        devices.append(((product, build, "%040x" % rng.getrandbits(160)), installed))
    processes = 0
    for index in range(count):
        sub = os.path.join(part, "%03d" % (index // 1000))
        if index % 1000 == 0:
            os.makedirs(sub)
        device, apps = devices[index % len(devices)]
        stamp = datetime.datetime(2026, 8, 1) + datetime.timedelta(seconds=index * 257)
        when = stamp.strftime("%Y-%m-%d %H:%M:%S.00 +0900")
        incident = "%08X-%04X-4%03X-8%03X-%012X" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12),
                                                     rng.getrandbits(12), index)
        text = jetsam_fleet_record(rng, device, apps, when, incident)
        processes += text.count('"name" : ')
        with open(os.path.join(sub, "JetsamEvent-%s-%06d.ips" % (stamp.strftime("%Y-%m-%d-%H%M%S"), index)), "w") as f:
            f.write(text)
    return fleet_done(folder, part, {"records": count, "processes": processes})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("write",))
    parser.add_argument("kind", choices=("allocations", "leaks", "heap", "footprint", "sysdiagnose", "killlog",
                                         "metrickit", "jetsam-fleet"))
    parser.add_argument("path")
    parser.add_argument("--size-mb", type=float, default=16)
    parser.add_argument("--count", type=int, default=1000, help="metrickit: payload files; jetsam-fleet: records")
    parser.add_argument("--members", type=int, default=2000, help="sysdiagnose: members")
    parser.add_argument("--seed", type=int)
    args = parser.parse_args()
    size = int(args.size_mb * 1024 * 1024)
    seed = {} if args.seed is None else {"seed": args.seed}
    if args.kind == "metrickit":
        result = write_metrickit_fleet(args.path, args.count, **seed)
    elif args.kind == "jetsam-fleet":
        result = write_jetsam_fleet(args.path, args.count, **seed)
    elif args.kind == "sysdiagnose":
        result = write_sysdiagnose(args.path, size, args.members, **seed)
    else:
        result = {"allocations": write_allocations, "leaks": write_leaks, "heap": write_heap,
                  "footprint": write_footprint, "killlog": write_killlog}[args.kind](args.path, size, **seed)
    print(json.dumps(result, sort_keys=True, ensure_ascii=False))


if __name__ == "__main__":
    main()
