/// One top-level entry of a `leaks` tree: a ROOT CYCLE, a ROOT LEAK or a plain leaked block.
public struct LeakRoot: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case cycle = "ROOT CYCLE"
        case leak = "ROOT LEAK"
        case block
    }

    public var kind: Kind
    /// Objects in the tree under it (the entry's count).
    public var count: Int
    /// Bytes of the tree, from its `(56.9K)` / `(80 bytes)` size.
    public var bytes: Int
    /// The class of the root object (`Swift._DictionaryStorage<…>`, `Closure context`, or a raw address).
    public var className: String
    /// 1-based line in the report.
    public var line: Int

    public init(kind: Kind, count: Int, bytes: Int, className: String, line: Int) {
        self.kind = kind
        self.count = count
        self.bytes = bytes
        self.className = className
        self.line = line
    }
}

/// `leaks App.memgraph` (or `leaks --outputGraph` / `leaks PID`) text: the header of the process, the
/// summary (`Process 12345: 60436 leaks for 8277184 total leaked bytes.`) and the top-level entries of
/// its leak trees.
public struct LeaksReport: Sendable, Hashable {
    public var processName: String?
    public var pid: Int?
    /// `Date/Time:` as written.
    public var date: String?
    /// `Physical footprint:` in bytes.
    public var footprintBytes: Int?
    /// `Physical footprint (peak):` in bytes.
    public var footprintPeakBytes: Int?
    /// `N nodes malloced for M KB`.
    public var nodes: Int?
    public var mallocedBytes: Int?
    /// `N leaks for M total leaked bytes`.
    public var leaks: Int
    public var leakedBytes: Int
    /// The top-level entries of the trees, in file order (a report cut short holds the first ones only).
    public var roots: [LeakRoot]
    /// Entry lines that could not be read (a tree cut mid-line), with their line numbers.
    public var unreadable: [String]
    /// The trees after the summary, folded into their shapes as each closed (bounded: `LeakForest`); their lines
    /// are not kept.
    public var forest = LeakForest()
    /// Whether the report's `N leaks for M total leaked bytes` line was read. A tree pasted alone (an issue's
    /// excerpt) has none: its trees are read, and `leaks` and `leakedBytes` say nothing then.
    public var summaryKnown = true

    /// Whether every tree was read: none and no line of one past the forest's bounds. What is said of its trees'
    /// classes is of the trees read; only a report read whole can show that something is absent.
    public var treesReadWhole: Bool { forest.treesLeftOut == 0 && forest.linesLeftOut == 0 }

    /// Whether every cycle and lone object of the report is in a named group of its tally: its trees read whole,
    /// and no shape past the tally's bound of distinct shapes.
    public var shapesNamedWhole: Bool { treesReadWhole && forest.shapes.unnamed == 0 }

    public init(
        processName: String? = nil, pid: Int? = nil, date: String? = nil, footprintBytes: Int? = nil,
        footprintPeakBytes: Int? = nil, nodes: Int? = nil, mallocedBytes: Int? = nil, leaks: Int, leakedBytes: Int,
        roots: [LeakRoot] = [], unreadable: [String] = []
    ) {
        self.processName = processName
        self.pid = pid
        self.date = date
        self.footprintBytes = footprintBytes
        self.footprintPeakBytes = footprintPeakBytes
        self.nodes = nodes
        self.mallocedBytes = mallocedBytes
        self.leaks = leaks
        self.leakedBytes = leakedBytes
        self.roots = roots
        self.unreadable = unreadable
    }

    /// Whether the sniffed lines are a `leaks` report, or trees of one pasted alone (a line with its count and
    /// `ROOT CYCLE:` or `ROOT LEAK:` and a node, or a `CYCLE BACK TO` line).
    public static func matches(lines: [String]) -> Bool {
        lines.contains { $0.hasPrefix("leaks Report Version:") }
            || lines.contains {
                $0.hasPrefix("Process ") && $0.contains(" leaks for ") && $0.hasSuffix("leaked bytes.")
            }
            || lines.contains { line in
                (line.contains("ROOT CYCLE:") || line.contains("ROOT LEAK:") || line.contains("CYCLE BACK TO "))
                    && LeakTreeLine.parse(Substring(line), line: 0).map { $0.marker != nil } == true
            }
    }

    /// `960.1M`, `1.0G`, `56.9K`, `80 bytes` → bytes (binary multiples, as `leaks` and `footprint` print them).
    static func size(_ text: Substring) -> Int? {
        let trimmed = text.trimmingSpaces
        if trimmed.hasSuffix(" bytes") { return Int(trimmed.dropLast(" bytes".count).trimmingSpaces) }
        guard let unit = trimmed.last, let number = ReproText.measure(trimmed.dropLast()) else {
            return Int(trimmed)
        }
        return unit.asciiValue.flatMap { bytes(number, unit: $0) }
    }

    /// `number` of `unit` (`K`, `M` or `G`, binary multiples) in bytes; nil for another unit or past `Int`.
    static func bytes(_ number: Double, unit: UInt8) -> Int? {
        let scale: Double
        switch unit {
        case UInt8(ascii: "K"): scale = 1024
        case UInt8(ascii: "M"): scale = 1_048_576
        case UInt8(ascii: "G"): scale = 1_073_741_824
        default: return nil
        }
        let bytes = number * scale
        return bytes < 9e18 ? Int(bytes.rounded()) : nil
    }

    public static func parse(_ bytes: [UInt8]) -> Result<LeaksReport, FormatError> {
        var scanner = LeaksScanner()
        bytes.withUnsafeBytes { scanner.feed($0) }
        return scanner.finish()
    }
}

/// `leaks` output read as it streams, line by line, in bounded memory whatever its size: the header, the
/// summary, the top-level entries (the `maxRoots` with the most bytes) and the trees (`LeakForest`'s bounds). A
/// line longer than `lineCap` is counted and not read.
public struct LeaksScanner: Sendable, LineScanning {
    public static let lineCap = 1 << 20
    /// Top-level entries kept: the largest by bytes (ties by line), enough for every sentence that names them.
    public static let maxRoots = 1_000

    private var report = LeaksReport(leaks: 0, leakedBytes: 0)
    private var summary = false
    private var rootIndent: Int?
    private var number = 0
    private var forest = LeakForest.Builder(firstLine: 1)
    private var failure: FormatError?
    var splitter = LineSplitter(cap: lineCap)
    private var tooLong = 0
    private let bounds: LeakForest.Bounds
    private let fast: Bool
    private let keepingLines: Bool

    public init() { self.init(bounds: LeakForest.Bounds(), fast: true) }

    /// A scanner keeping `bounds` of the forest that reads ASCII lines from their bytes and passes lines over by
    /// them (`fast`), or reads every line as a string: the fuzz target holds the two reads equal past small bounds.
    /// With `keepingLines`, the trees' lines are kept beside their tally (the fuzz target groups them again).
    init(bounds: LeakForest.Bounds, fast: Bool, keepingLines: Bool = false) {
        self.bounds = bounds
        self.fast = fast
        self.keepingLines = keepingLines
        forest = LeakForest.Builder(firstLine: 1, bounds: bounds, fast: fast, keepingLines: keepingLines)
    }

    /// Consumes the next chunk; lines may span chunks.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        feedLines(chunk)
    }

    public mutating func finish() -> Result<LeaksReport, FormatError> {
        finishLines()
        if let failure { return .failure(failure) }
        if tooLong > 0 {
            report.unreadable.append("\(tooLong) lines over \(Self.lineCap >> 20) MB were not read")
        }
        report.roots = Self.largest(report.roots).sorted { $0.line < $1.line }
        let trees = forest.finish()
        guard summary else {
            // Trees pasted alone: read as trees, with no count of the report's.
            guard forest.sawMarker else {
                return .failure(FormatError("a leaks report without its 'N leaks for M total leaked bytes' line"))
            }
            report.forest = trees
            report.summaryKnown = false
            return .success(report)
        }
        report.forest = trees
        return .success(report)
    }

    /// The `maxRoots` entries with the most bytes.
    static func largest(_ roots: [LeakRoot]) -> [LeakRoot] {
        guard roots.count > maxRoots else { return roots }
        return Array(roots.sorted { ($0.bytes, -$0.line) > ($1.bytes, -$1.line) }.prefix(maxRoots))
    }

    mutating func line(_ bytes: UnsafeBufferPointer<UInt8>, tooLong: Bool) {
        number += 1
        guard failure == nil else { return }
        guard !tooLong else {
            self.tooLong += 1
            forest.skip()
            return
        }
        // Past the first line (which may open with a byte order mark), an ASCII line is read from its bytes.
        if fast, number > 1, LeakLineBytes.isASCII(bytes) {
            let line = LeakLineBytes(
                bytes: bytes.last == 0x0D ? UnsafeBufferPointer(rebasing: bytes.dropLast()) : bytes)
            if summary, passesOver(line) { return }
            forest.add(ascii: line)
            read(line)
            return
        }
        let line = Self.text(bytes, first: number == 1)
        forest.add(Substring(line))
        read(line)
    }

    /// Whether a line after the summary is done with by its bytes: it names no header field (those start at the
    /// margin with `P` or `D`), cannot be a top-level entry (its first byte past the indent is no digit, or it is
    /// not at the entries' indent) and the forest passes over it (`LeakForest.Builder.passOver`).
    private mutating func passesOver(_ line: LeakLineBytes) -> Bool {
        guard Self.namesNoField(line) else { return false }
        let indent = line.skippingSpaces(0)
        if indent < line.count, LeakLineBytes.isDigit(line[indent]), rootIndent == nil || rootIndent == indent {
            return false
        }
        return forest.passOver(line, indent: indent)
    }

    /// `read` of an ASCII line: after the summary, a line not at the margin with `P` or `D` can only be an entry.
    private mutating func read(_ line: LeakLineBytes) {
        guard summary, Self.namesNoField(line) else {
            read(line.string(0, line.count))
            return
        }
        guard !line.holdsTotal else { return }
        entry(line)
    }

    /// Whether a line cannot name a header field: those start at the margin with `P` or `D`.
    private static func namesNoField(_ line: LeakLineBytes) -> Bool {
        guard let head = line.bytes.first else { return false }
        return head != UInt8(ascii: "P") && head != UInt8(ascii: "D")
    }

    /// `entry` of an ASCII line.
    private mutating func entry(_ line: LeakLineBytes) {
        let (indent, end) = (line.skippingSpaces(0), line.count)
        guard indent < end, LeakLineBytes.isDigit(line[indent]) else { return }
        if rootIndent == nil { rootIndent = indent }
        guard indent == rootIndent else { return }
        guard let open = line.first(UInt8(ascii: "("), from: indent, to: end),
            let close = line.first(UInt8(ascii: ")"), from: indent, to: end), open < close,
            let count = line.int(indent..<open), let size = line.size((open + 1)..<close)
        else {
            if report.unreadable.count < 100 {
                let body = line.string(indent, min(end, indent + 60))
                report.unreadable.append("line \(number): '\(body)' is no leak entry")
            }
            return
        }
        var rest = line.trimmed(close + 1, end)
        var kind = LeakRoot.Kind.block
        if line.hasPrefix("ROOT CYCLE:", at: rest.lowerBound, end: rest.upperBound) {
            kind = .cycle
            rest = line.trimmed(rest.lowerBound + 11, rest.upperBound)
        }
        if line.hasPrefix("ROOT LEAK:", at: rest.lowerBound, end: rest.upperBound) {
            kind = .leak
            rest = line.trimmed(rest.lowerBound + 10, rest.upperBound)
        }
        var className = line.string(rest.lowerBound, rest.upperBound)
        if !rest.isEmpty, line[rest.lowerBound] == UInt8(ascii: "<"),
            let close = line.last(UInt8(ascii: ">"), from: rest.lowerBound, to: rest.upperBound)
        {
            // `<Class 0x15a9f1e00>`: the class without the address, its words joined by one space.
            var words: [Range<Int>] = []
            var start = rest.lowerBound + 1
            while start < close {
                let stop = line.first(0x20, from: start, to: close) ?? close
                if stop > start { words.append(start..<stop) }
                start = stop + 1
            }
            if let last = words.last, line.hasPrefix("0x", at: last.lowerBound, end: last.upperBound) {
                className = words.dropLast().map { line.string($0.lowerBound, $0.upperBound) }.joined(separator: " ")
            } else {
                className = line.string(rest.lowerBound + 1, close)
            }
        }
        appendRoot(LeakRoot(kind: kind, count: count, bytes: size, className: className, line: number))
    }

    private mutating func read(_ line: String) {
        func value(_ key: String) -> Substring? {
            guard line.hasPrefix(key) else { return nil }
            return Substring(line.dropFirst(key.count).trimmingSpaces)
        }
        if let process = value("Process:") {
            let (name, pid) = ReproText.nameAndPID(String(process))
            report.processName = name
            report.pid = pid
        } else if let date = value("Date/Time:") {
            report.date = String(date)
        } else if let peak = value("Physical footprint (peak):") {
            report.footprintPeakBytes = LeaksReport.size(peak)
        } else if let footprint = value("Physical footprint:") {
            report.footprintBytes = LeaksReport.size(footprint)
        } else if line.hasPrefix("Process "), line.contains(" nodes malloced for ") {
            let words = line.split(separator: " ")
            if words.count >= 8 {
                report.nodes = Int(words[2])
                // A count of KB too large for bytes in an Int is no size (it trapped: the `leaks` fuzz target).
                report.mallocedBytes = Int(words[6]).flatMap { kilobytes in
                    let (bytes, overflow) = kilobytes.multipliedReportingOverflow(by: 1024)
                    return overflow ? nil : bytes
                }
            }
        } else if line.hasPrefix("Process "), line.contains(" leaks for "), line.hasSuffix("leaked bytes.") {
            let words = line.split(separator: " ")
            guard words.count >= 8, let count = Int(words[2]), let leaked = Int(words[5]) else {
                failure = FormatError("line \(number): the leaks summary is not 'N leaks for M total leaked bytes'")
                return
            }
            report.leaks = count
            report.leakedBytes = leaked
            // The trees are those after the first summary: what came before it is no tree of this report.
            if !summary {
                forest = LeakForest.Builder(
                    firstLine: number + 1, bounds: bounds, fast: fast, keepingLines: keepingLines)
            }
            summary = true
        } else if summary, !ReproText.containsText(line, "<< TOTAL >>") {
            entry(line)
        }
    }

    /// A top-level entry: `543 (56.9K) ROOT CYCLE: <Class 0x15a9f1e00> [640]`, `1 (32 bytes) <CFDictionary 0x…> [64]`.
    private mutating func entry(_ line: String) {
        let indent = line.prefix { $0 == " " }.count
        let body = line.dropFirst(indent)
        guard let first = body.first, first.isNumber else { return }
        if rootIndent == nil { rootIndent = indent }
        guard indent == rootIndent else { return }
        guard let open = body.firstIndex(of: "("), let close = body.firstIndex(of: ")"), open < close,
            let count = Int(body[..<open].trimmingSpaces),
            let size = LeaksReport.size(body[body.index(after: open)..<close])
        else {
            if report.unreadable.count < 100 {
                report.unreadable.append("line \(number): '\(String(body.prefix(60)))' is no leak entry")
            }
            return
        }
        var rest = Substring(body[body.index(after: close)...].trimmingSpaces)
        var kind = LeakRoot.Kind.block
        for candidate in [LeakRoot.Kind.cycle, .leak] where rest.hasPrefix(candidate.rawValue + ":") {
            kind = candidate
            rest = Substring(rest.dropFirst(candidate.rawValue.count + 1).trimmingSpaces)
        }
        var className = String(rest)
        if rest.first == "<", let end = rest.lastIndex(of: ">") {
            let inner = rest[rest.index(after: rest.startIndex)..<end]
            // `<Class 0x15a9f1e00>`: the class without the address.
            let words = inner.split(separator: " ")
            className = words.last?.hasPrefix("0x") == true ? words.dropLast().joined(separator: " ") : String(inner)
        }
        appendRoot(LeakRoot(kind: kind, count: count, bytes: size, className: className, line: number))
    }

    /// Kept bounded: past twice the bound, the largest are kept.
    private mutating func appendRoot(_ root: LeakRoot) {
        report.roots.append(root)
        if report.roots.count >= 2 * Self.maxRoots { report.roots = Self.largest(report.roots) }
    }
}

extension LeaksReport: ReproFormat {
    public static let kind = ArtifactKind.leaks
    public static let fixtures = ["Fixtures/leaks/DemoApp-after.leaks.txt"]
    /// Every line `matches` takes holds one of these.
    public static func recognises(_ sniff: FormatSniff) -> Bool {
        sniff.mayHold(anyOf: "leaks Report Version:", " leaks for ", "ROOT CYCLE:", "ROOT LEAK:", "CYCLE BACK TO ")
            && matches(lines: sniff.lines)
    }
    public static func artifact(_ value: LeaksReport) -> ReproArtifact { .leaks(value) }
}
