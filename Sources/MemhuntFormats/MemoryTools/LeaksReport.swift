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
    /// The trees after the summary, line by line (bounded: `LeakForest`).
    public var forest = LeakForest()
    /// Whether the report's `N leaks for M total leaked bytes` line was read. A tree pasted alone (an issue's
    /// excerpt) has none: its trees are read, and `leaks` and `leakedBytes` say nothing then.
    public var summaryKnown = true

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
        let scale: Double
        switch unit {
        case "K": scale = 1024
        case "M": scale = 1_048_576
        case "G": scale = 1_073_741_824
        default: return nil
        }
        let bytes = number * scale
        return bytes < 9e18 ? Int(bytes.rounded()) : nil
    }

    public static func parse(_ bytes: [UInt8]) -> Result<LeaksReport, FormatError> {
        var report = LeaksReport(leaks: 0, leakedBytes: 0)
        var summary = false
        var rootIndent: Int?
        var number = 0
        var treesFrom: Int?
        let lines = ReproText.lines(bytes[...])
        for raw in lines {
            number += 1
            let line = raw.hasSuffix("\r") ? String(raw.dropLast()) : raw
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
                report.footprintPeakBytes = size(peak)
            } else if let footprint = value("Physical footprint:") {
                report.footprintBytes = size(footprint)
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
                    return .failure(
                        FormatError("line \(number): the leaks summary is not 'N leaks for M total leaked bytes'"))
                }
                report.leaks = count
                report.leakedBytes = leaked
                summary = true
                treesFrom = treesFrom ?? number
            } else if summary, !line.contains("<< TOTAL >>") {
                let indent = line.prefix { $0 == " " }.count
                let body = line.dropFirst(indent)
                guard let first = body.first, first.isNumber else { continue }
                if rootIndent == nil { rootIndent = indent }
                guard indent == rootIndent else { continue }
                // `543 (56.9K) ROOT CYCLE: <Class 0x15a9f1e00> [640]`, `1 (32 bytes) <CFDictionary 0x…> [64]`
                guard let open = body.firstIndex(of: "("), let close = body.firstIndex(of: ")"), open < close,
                    let count = Int(body[..<open].trimmingSpaces),
                    let size = size(body[body.index(after: open)..<close])
                else {
                    report.unreadable.append("line \(number): '\(String(body.prefix(60)))' is no leak entry")
                    continue
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
                    className =
                        words.last?.hasPrefix("0x") == true ? words.dropLast().joined(separator: " ") : String(inner)
                }
                report.roots.append(LeakRoot(kind: kind, count: count, bytes: size, className: className, line: number))
            }
        }
        guard summary, let treesFrom else {
            // Trees pasted alone: read as trees, with no count of the report's.
            let forest = LeakForest.read(lines.lazy.map { Substring($0) })
            guard forest.trees.contains(where: { $0.contains { $0.marker != nil } }) else {
                return .failure(FormatError("a leaks report without its 'N leaks for M total leaked bytes' line"))
            }
            report.forest = forest
            report.summaryKnown = false
            return .success(report)
        }
        report.forest = LeakForest.read(lines[treesFrom...].lazy.map { Substring($0) }, firstLine: treesFrom + 1)
        return .success(report)
    }
}

extension LeaksReport: ReproFormat {
    public static let kind = ArtifactKind.leaks
    public static let fixtures = ["Fixtures/leaks/DemoApp-after.leaks.txt"]
    public static func recognises(_ sniff: FormatSniff) -> Bool { matches(lines: sniff.lines) }
    public static func artifact(_ value: LeaksReport) -> ReproArtifact { .leaks(value) }
}
