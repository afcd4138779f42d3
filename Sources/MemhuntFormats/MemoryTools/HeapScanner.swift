/// `heap` output read as it streams, line by line, in bounded memory whatever its size: the header, the totals and
/// the class table (its first `maxRows` rows kept, the rest counted and summed). What makes a `heap` text large is
/// not its table (a few thousand classes; `-showSizes` and MallocStackLogging's `malloc in <caller>` types make
/// tens of thousands of rows) but `-addresses`, which lists every block after the table, one line each
/// (`0x600003a04000: NSObject (16 bytes)`, under `Active blocks in all zones that match pattern '.*':`): those lines
/// are passed over on their bytes, and a line longer than `lineCap` is counted and not read.
public struct HeapScanner: Sendable, LineScanning {
    public static let lineCap = 1 << 20
    /// Table rows kept, in file order: more than any `heap` table holds, and a few megabytes of rows at most.
    public static let maxRows = 50_000

    private enum Table { case before, header, rows, after }
    private enum Totals { case none, malloced, allZones }

    private var report = HeapReport()
    private var table = Table.before
    private var unread = 0
    private var totalsFrom = Totals.none
    private var zoneLines = 0
    private var oneZone: (nodes: Int, bytes: Int)?
    private var number = 0
    private var tooLong = 0
    /// Set while the last line, which no line end closed, is read: the file was cut inside it.
    private var atCutEnd = false
    var splitter = LineSplitter(cap: lineCap)

    public init() {}

    /// Consumes the next chunk; lines may span chunks.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        feedLines(chunk)
    }

    public mutating func finish() -> Result<HeapReport, FormatError> {
        atCutEnd = !splitter.isEmpty
        finishLines()
        atCutEnd = false
        if tooLong > 0 { note("\(tooLong) lines over \(Self.lineCap >> 20) MB were not read") }
        // A single `Zone …: N nodes (M bytes)` and no `All zones` line: that zone is the heap.
        if totalsFrom == .none, zoneLines == 1, let oneZone {
            report.nodes = oneZone.nodes
            report.bytes = oneZone.bytes
        }
        if report.rowsLeftOut > 0 {
            note(
                "rows past the table's first \(Self.maxRows): \(report.rowsLeftOut) more rows (\(report.bytesLeftOut) "
                    + "bytes) counted in no class")
        }
        if unread > report.unreadable.count {
            report.unreadable.append("and \(unread - report.unreadable.count) more lines not read")
        }
        guard report.hasTable || report.nodes != nil else {
            return .failure(
                FormatError(
                    "a heap report without its class table ('COUNT BYTES AVG CLASS_NAME') or its 'All zones: N nodes "
                        + "(M bytes)' line: cut before them?"))
        }
        return .success(report)
    }

    private mutating func note(_ text: String) {
        unread += 1
        if report.unreadable.count < HeapReport.namedLimit { report.unreadable.append(text) }
    }

    mutating func line(_ bytes: UnsafeBufferPointer<UInt8>, tooLong: Bool) {
        number += 1
        guard !tooLong else {
            self.tooLong += 1
            return
        }
        // After the table, only a second table's header matters: the block addresses of `-addresses` are skipped
        // on their bytes, without a string made of each. A header's first word is `COUNT` (`HeapReport.isTableHeader`),
        // so its first byte past the blanks is a `C`; an address line's is a `0`.
        if table == .after, !Self.mayBeTableHeader(bytes) { return }
        read(Self.text(bytes, first: number == 1))
    }

    /// Whether the line's first byte past spaces and tabs is `C` and it holds `CLASS_NAME`.
    private static func mayBeTableHeader(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        return index < bytes.count && bytes[index] == UInt8(ascii: "C") && ReproText.containsBytes(bytes, "CLASS_NAME")
    }

    private mutating func read(_ line: String) {
        switch table {
        case .before, .after: outside(line)
        case .header:
            // The `=====` underline; a report without it starts its rows here.
            table = .rows
            if ReproText.trimmed(line).hasPrefix("=") { return }
            row(line)
        case .rows: row(line)
        }
    }

    /// A line before the table (the header and totals) or after it.
    private mutating func outside(_ line: String) {
        if HeapReport.isTableHeader(line) {
            if table == .after {
                note("line \(number): a second class table (of one zone?), not read")
                return
            }
            report.hasTable = true
            table = .header
        } else if table == .after || HeapReport.header(line, into: &report) {
            return
        } else if let (nodes, total) = HeapReport.totals(line) {
            report.nodes = nodes
            report.bytes = total
            totalsFrom = .allZones
        } else if let (nodes, total) = HeapReport.mallocedTotals(line), totalsFrom != .allZones {
            // Older macOS: `All zones: 98460 nodes malloced - 27417 KB`, without the line below.
            report.nodes = nodes
            report.bytes = total
            totalsFrom = .malloced
        } else if let (nodes, total) = HeapReport.zoneTotals(line) {
            zoneLines += 1
            if zoneLines == 1 { oneZone = (nodes, total) }
        } else if line.hasPrefix("All zones:"), ReproText.containsBytes(line, " nodes ("),
            !ReproText.containsBytes(line, "malloced")
        {
            note("line \(number): '\(String(line.prefix(60)))' is not 'All zones: N nodes (M bytes)'")
        }
    }

    /// A line of the table: a row, or what ends the rows.
    private mutating func row(_ line: String) {
        let body = ReproText.trimmed(line)
        // A blank or dashed line, the Markdown fence a paste closes the table with, or the block addresses of
        // `-addresses` end the rows.
        if body.isEmpty || body.hasPrefix("---") || body.hasPrefix("===") || body.hasPrefix("```")
            || body.hasPrefix("~~~") || body.hasPrefix("Active blocks ")
        {
            table = .after
            return
        }
        if atCutEnd {
            note("line \(number): the file ends inside this row ('\(String(body.prefix(60)))'); not read")
            return
        }
        switch HeapReport.row(line, number: number) {
        case .success(let (entry, problem)):
            if report.classes.count < Self.maxRows {
                report.classes.append(entry)
            } else {
                report.rowsLeftOut += 1
                report.countLeftOut = Self.sum(report.countLeftOut, entry.count)
                report.bytesLeftOut = Self.sum(report.bytesLeftOut, entry.bytes)
            }
            if let problem { note(problem) }
        case .failure(let problem): note(problem.message)
        }
    }

    /// `a + b`, held at `Int.max` where it would overflow (rows of a hostile table).
    private static func sum(_ a: Int, _ b: Int) -> Int {
        let (total, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : total
    }
}
