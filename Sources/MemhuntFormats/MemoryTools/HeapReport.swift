/// One row of a `heap` class table: how many objects of a class (or `non-object` blocks) the heap holds.
public struct HeapClass: Sendable, Hashable {
    /// COUNT: objects (or blocks) of the class.
    public var count: Int
    /// BYTES: their bytes (`-H` prints `5K`, read with binary multiples).
    public var bytes: Int
    /// AVG as written (bytes per object); nil when it is not a number (`nan`).
    public var averageBytes: Double?
    /// CLASS_NAME: `CFString (Storage)`, `Swift._DictionaryStorage<Swift.String, Foundation._Locale>`, `non-object`.
    public var className: String
    /// TYPE: `ObjC`, `Swift`, `C`, `C++`, `CFType`, `malloc`; nil when the row has none.
    public var type: String?
    /// BINARY: the image that defines the class (`CoreFoundation`, `<unknown>`); nil when the row has none.
    public var binary: String?
    /// 1-based line in the report.
    public var line: Int

    public init(
        count: Int, bytes: Int, averageBytes: Double?, className: String, type: String?, binary: String?, line: Int
    ) {
        self.count = count
        self.bytes = bytes
        self.averageBytes = averageBytes
        self.className = className
        self.type = type
        self.binary = binary
        self.line = line
    }

    /// What names the class across two heaps: the name, its type and its binary (`heap` prints one class name in
    /// several rows, of different binaries or size classes).
    public var key: String { className + "\t" + (type ?? "") + "\t" + (binary ?? "") }

    /// The class in words: `FAQ (Swift, AluminumWeight)`, `non-object`.
    public var label: String {
        let parts = [type, binary].compactMap { $0 }
        return parts.isEmpty ? className : className + " (" + parts.joined(separator: ", ") + ")"
    }
}

/// `heap <pid|App.memgraph>` text (also `--sortBySize`, `-H`, and `--diffFrom=<earlier.memgraph>`, which prints
/// the same table for the objects only the later graph holds): the header of the process, the `All zones: N nodes
/// (M bytes)` total and the `COUNT BYTES AVG CLASS_NAME TYPE BINARY` table.
///
/// The shape is that of real `heap` output quoted in public code and issues (macOS 14 to 26, iOS simulator 17): the
/// vmmap-style header, `Process N: K zones`, `All zones: N nodes malloced - Sizes: …`, `Found: …`, a dashed line,
/// `All zones: N nodes (M bytes)` and the table. A `--diffFrom` report was not found in full anywhere: it is read
/// as a heap report, and nothing in it says it is a difference.
public struct HeapReport: Sendable, Hashable {
    public var processName: String?
    public var pid: Int?
    /// `Date/Time:` as written (`(null)` for some simulator graphs: kept as nil).
    public var date: String?
    /// `Physical footprint:` in bytes.
    public var footprintBytes: Int?
    /// `Physical footprint (peak):` in bytes.
    public var footprintPeakBytes: Int?
    /// `Process N: K zones`.
    public var zones: Int?
    /// `All zones: N nodes (M bytes)`: nodes and bytes of the whole heap (of the table's objects for a difference).
    public var nodes: Int?
    public var bytes: Int?
    /// The table's rows in file order (a report cut short holds the first ones only).
    public var classes: [HeapClass]
    /// Whether the class table's header line was found.
    public var hasTable: Bool
    /// What could not be read, each with its line: rows cut mid-line, numbers that are none (`nan`), a second table.
    public var unreadable: [String]
    /// Rows of the class table past the first `HeapScanner.maxRows`: counted and their COUNT and BYTES summed, not
    /// kept. A class may have rows on both sides of the bound, so the kept rows then tell no class's whole count.
    public var rowsLeftOut = 0
    public var countLeftOut = 0
    public var bytesLeftOut = 0

    /// Whether the class table was read and every row of it kept: what a per-class sentence needs.
    public var tableWhole: Bool { hasTable && rowsLeftOut == 0 }

    public init(
        processName: String? = nil, pid: Int? = nil, date: String? = nil, footprintBytes: Int? = nil,
        footprintPeakBytes: Int? = nil, zones: Int? = nil, nodes: Int? = nil, bytes: Int? = nil,
        classes: [HeapClass] = [], hasTable: Bool = false, unreadable: [String] = []
    ) {
        self.processName = processName
        self.pid = pid
        self.date = date
        self.footprintBytes = footprintBytes
        self.footprintPeakBytes = footprintPeakBytes
        self.zones = zones
        self.nodes = nodes
        self.bytes = bytes
        self.classes = classes
        self.hasTable = hasTable
        self.unreadable = unreadable
    }

    /// At most this many unreadable lines are named one by one; the rest are counted.
    static let namedLimit = 20

    /// Whether the sniffed lines are a `heap` report: its class table header, its `All zones: N nodes (M bytes)`
    /// line, or `Analysis Tool: …/heap` in the header.
    public static func matches(lines: [String]) -> Bool {
        lines.contains { line in
            isTableHeader(line) || totals(line) != nil
                || (line.hasPrefix("Analysis Tool:") && (line.hasSuffix("/heap") || line.hasSuffix(" heap")))
        }
    }

    /// `   COUNT      BYTES       AVG   CLASS_NAME   TYPE    BINARY`.
    static func isTableHeader(_ line: String) -> Bool {
        guard ReproText.containsBytes(line, "CLASS_NAME") else { return false }
        let tokens = ReproText.tokens(line)
        return tokens.count >= 4 && tokens[0] == "COUNT" && tokens[1] == "BYTES" && tokens[2] == "AVG"
            && tokens[3] == "CLASS_NAME"
    }

    /// `All zones: 202503 nodes (47995927 bytes)` or `All zones: 186 nodes (12K)` → nodes and bytes; nil for any
    /// other line (the `nodes malloced - Sizes:` histogram line included).
    static func totals(_ line: String) -> (nodes: Int, bytes: Int)? {
        guard line.hasPrefix("All zones:"), ReproText.containsBytes(line, " nodes (") else { return nil }
        let tokens = ReproText.tokens(line.dropFirst("All zones:".count))
        guard tokens.count >= 3, tokens[1] == "nodes", let nodes = Int(tokens[0]), tokens[2].hasPrefix("("),
            let close = line.lastIndex(of: ")"), let open = line.firstIndex(of: "("), open < close
        else { return nil }
        let inside = line[line.index(after: open)..<close]
        guard let bytes = LeaksReport.size(inside) else { return nil }
        return (nodes, bytes)
    }

    /// `All zones: 98460 nodes malloced - 27417 KB` (older macOS) → nodes and bytes; nil for any other line (the
    /// `nodes malloced - Sizes:` histogram line included).
    static func mallocedTotals(_ line: String) -> (nodes: Int, bytes: Int)? {
        guard line.hasPrefix("All zones:"), let dash = line.firstRange(of: " nodes malloced - ") else { return nil }
        let count = line[line.index(line.startIndex, offsetBy: "All zones:".count)..<dash.lowerBound]
        let size = line[dash.upperBound...].trimmingSpaces
        guard !size.hasPrefix("Sizes"), let nodes = Int(count.trimmingSpaces) else { return nil }
        let compact = String(size.filter { $0 != " " })
        guard let last = compact.last, last == "B", let bytes = LeaksReport.size(Substring(compact.dropLast()))
        else { return nil }
        return (nodes, bytes)
    }

    /// `Zone DefaultMallocZone_0x102a00000: 98460 nodes (28075313 bytes)` → nodes and bytes of one zone.
    static func zoneTotals(_ line: String) -> (nodes: Int, bytes: Int)? {
        guard line.hasPrefix("Zone "), let colon = line.firstRange(of: ": ") else { return nil }
        return totals("All zones: " + line[colon.upperBound...])
    }

    /// The TYPE values `heap` prints.
    static let types: Set<Substring> = ["ObjC", "Swift", "C", "C++", "CFType", "malloc"]

    /// Reads a header line of the report (process, date, footprint, zones) into `report`; false for other lines.
    static func header(_ line: String, into report: inout HeapReport) -> Bool {
        if let value = ReproText.headerValue(line, "Process:") {
            (report.processName, report.pid) = ReproText.nameAndPID(value)
        } else if let value = ReproText.headerValue(line, "Date/Time:") {
            report.date = value.isEmpty || value == "(null)" ? nil : String(value)
        } else if let value = ReproText.headerValue(line, "Physical footprint (peak):") {
            report.footprintPeakBytes = LeaksReport.size(value)
        } else if let value = ReproText.headerValue(line, "Physical footprint:") {
            report.footprintBytes = LeaksReport.size(value)
        } else if line.hasPrefix("Process "), line.hasSuffix(" zones") || line.hasSuffix(" zone") {
            let words = ReproText.tokens(line)
            if words.count == 4 { report.zones = Int(words[2]) }
        } else {
            return false
        }
        return true
    }

    public static func parse(_ bytes: [UInt8]) -> Result<HeapReport, FormatError> {
        var scanner = HeapScanner()
        bytes.withUnsafeBytes { scanner.feed($0) }
        return scanner.finish()
    }

    /// `   73126   25846913     353.5   non-object` or `6014   316480   52.6   CFString   ObjC   CoreFoundation`: the
    /// row and, when AVG is no number, what is wrong with it.
    static func row(_ line: String, number: Int) -> Result<(HeapClass, String?), FormatError> {
        let tokens = ReproText.tokens(line)
        let quoted = "'\(String(ReproText.trimmed(line).prefix(60)))'"
        guard tokens.count >= 4 else {
            return .failure(FormatError("line \(number): \(quoted) has no class name (a row cut short?)"))
        }
        guard let count = Int(tokens[0]), count >= 0, let size = ReproText.binarySize(tokens[1]), size >= 0 else {
            return .failure(FormatError("line \(number): \(quoted): COUNT and BYTES are not numbers"))
        }
        var problem: String?
        var average: Double?
        if let value = ReproText.decimal(tokens[2]) {
            average = value
        } else if let value = ReproText.binarySize(tokens[2]) {
            average = Double(value)
        } else {
            problem = "line \(number): AVG '\(tokens[2])' is not a number (the row's count and bytes are read)"
        }
        // CLASS_NAME may hold single spaces (`Closure context`, `CFString (Storage)`); the columns are two or more
        // spaces apart. TYPE is one of `types`; a row may lack it and still name a BINARY.
        let rest = line[tokens[3].startIndex...]
        var fields: [Substring] = []
        var start = rest.startIndex
        var index = rest.startIndex
        // The run of blanks before `index`: where it began, and its width (a tab is a column break on its own).
        var run: String.Index?
        var width = 0
        while index < rest.endIndex {
            let character = rest[index]
            if character == " " || character == "\t" {
                if run == nil { run = index }
                width += character == "\t" ? 2 : 1
            } else {
                if width >= 2, let end = run {
                    fields.append(ReproText.trimmed(rest[start..<end]))
                    start = index
                }
                run = nil
                width = 0
            }
            index = rest.index(after: index)
        }
        fields.append(ReproText.trimmed(rest[start...]))
        fields = fields.filter { !$0.isEmpty }
        var type: Substring?
        var binary: Substring?
        if fields.count >= 3, types.contains(fields[fields.count - 2]) {
            type = fields[fields.count - 2]
            binary = fields[fields.count - 1]
            fields.removeLast(2)
        } else if fields.count >= 2 {
            if types.contains(fields[fields.count - 1]) {
                type = fields[fields.count - 1]
            } else {
                binary = fields[fields.count - 1]
            }
            fields.removeLast()
        }
        let name = fields.joined(separator: "  ")
        return .success(
            (
                HeapClass(
                    count: count, bytes: size, averageBytes: average, className: name, type: type.map(String.init),
                    binary: binary.map(String.init), line: number),
                problem
            ))
    }
}

extension HeapReport: ReproFormat {
    public static let kind = ArtifactKind.heap
    public static let fixtures = ["Fixtures/heap/faq-visit-1.heap.txt"]
    public static func recognises(_ sniff: FormatSniff) -> Bool { matches(lines: sniff.lines) }
    public static func artifact(_ value: HeapReport) -> ReproArtifact { .heap(value) }
}
