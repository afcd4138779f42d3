import MemhuntFormats

/// Two captures of one kind compared per class: instances and bytes before and after, and their changes, the
/// largest change of bytes first. What is compared:
///
/// - two `heap` reports: each class's instances and bytes (rows of one class, type and binary summed);
/// - two `leaks` reports: the leaked nodes of each class in their trees (a `CYCLE BACK TO` line names a node
///   already counted) and their own bytes (`[n]`);
/// - two Allocations exports: each category's persistent allocations and bytes (Allocations Statistics).
public struct CaptureDiff: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case heap, leaks, allocations
        /// What a row counts.
        public var unit: String {
            switch self {
            case .heap: return "instances"
            case .leaks: return "leaked objects"
            case .allocations: return "persistent allocations"
            }
        }
    }

    public struct Tally: Sendable, Equatable {
        public var count = 0
        public var bytes = 0
    }

    /// One class: nil on a side that does not list it (an Allocations export lists the categories it lists; a
    /// heap's table and a leaks report's trees list every class they hold, so a class missing there is 0).
    public struct Row: Sendable, Equatable {
        public var label: String
        public var before: Tally?
        public var after: Tally?
        public var deltaCount: Int? { before.flatMap { b in after.map { $0.count - b.count } } }
        public var deltaBytes: Int? { before.flatMap { b in after.map { $0.bytes - b.bytes } } }
        /// An Allocations Statistics summary row ("All Heap Allocations"): it holds other rows, so no total adds it.
        public var isSummary: Bool
    }

    public var kind: Kind
    /// Every class whose count or bytes changed, the largest change of bytes first (ties by name).
    public var rows: [Row]
    /// Classes in both captures that did not change.
    public var unchanged: Int
    /// The changed rows listed on both sides, summary rows aside, summed.
    public var total: (before: Tally, after: Tally) {
        rows.reduce((Tally(), Tally())) { sum, row in
            guard let before = row.before, let after = row.after, !row.isSummary else { return sum }
            return (
                Tally(count: sum.0.count + before.count, bytes: sum.0.bytes + before.bytes),
                Tally(count: sum.1.count + after.count, bytes: sum.1.bytes + after.bytes)
            )
        }
    }
    /// What the captures left out of the comparison (trees past the reader's bound, rows not read).
    public var caveats: [String]

    public static func == (a: Self, b: Self) -> Bool {
        a.kind == b.kind && a.rows == b.rows && a.unchanged == b.unchanged && a.caveats == b.caveats
    }

    public init(kind: Kind, before: [String: Tally], after: [String: Tally], caveats: [String] = []) {
        self.kind = kind
        self.caveats = caveats
        var rows: [Row] = []
        var unchanged = 0
        let missing: Tally? = kind == .allocations ? nil : Tally()
        for label in Set(before.keys).union(after.keys) {
            let row = Row(
                label: label, before: before[label] ?? missing, after: after[label] ?? missing,
                isSummary: kind == .allocations && label.hasPrefix("All "))
            if row.deltaCount == 0, row.deltaBytes == 0 { unchanged += 1 } else { rows.append(row) }
        }
        // The largest change of bytes first; rows listed on one side only after them, by their bytes.
        func order(_ row: Row) -> (Int, Int, Int) {
            guard let bytes = row.deltaBytes, let count = row.deltaCount else {
                return (0, 0, (row.before ?? row.after)?.bytes ?? 0)
            }
            return (1, abs(bytes), abs(count))
        }
        self.rows = rows.sorted { a, b in
            let (x, y) = (order(a), order(b))
            return (x.0, x.1, x.2, b.label) > (y.0, y.1, y.2, a.label)
        }
        self.unchanged = unchanged
    }

    /// A heap report's classes: "FAQ (Swift, AluminumWeight)" with its instances and bytes.
    public static func classes(_ report: HeapReport) -> [String: Tally] {
        var result: [String: Tally] = [:]
        for row in report.classes {
            result[row.label, default: Tally()].count += row.count
            result[row.label]!.bytes += row.bytes
        }
        return result
    }

    /// A leaks report's leaked objects per class, from its trees ("untyped block" for a node of no class).
    public static func classes(_ report: LeaksReport) -> [String: Tally] {
        report.forest.shapes.classes.mapValues { Tally(count: $0.count, bytes: $0.bytes) }
    }

    /// An Allocations export's categories with their persistent allocations and bytes.
    public static func classes(_ export: XCTraceExport) -> [String: Tally] {
        var result: [String: Tally] = [:]
        for table in export.tables {
            for category in table.categories {
                result[category.category, default: Tally()].count += category.persistentCount ?? 0
                result[category.category]!.bytes += category.persistentBytes ?? 0
            }
        }
        return result
    }

    /// What a heap report's bounded table leaves out, in words; nil when it holds every row.
    public static func leftOut(_ report: HeapReport, name: String) -> String? {
        guard report.rowsLeftOut > 0 else { return nil }
        return "\(name): \(report.rowsLeftOut) rows past the table's first \(HeapScanner.maxRows) "
            + "(\(report.bytesLeftOut) bytes) were not compared, and a class with rows among them is compared by "
            + "part of its count"
    }

    /// What a leaks report's bounded trees leave out, in words; nil when they hold every tree whole.
    public static func leftOut(_ report: LeaksReport, name: String) -> String? {
        let forest = report.forest
        guard !report.treesReadWhole else { return nil }
        return "\(name): \(forest.treesLeftOut) trees and \(forest.linesLeftOut) lines past the first "
            + "\(LeakForest.maxTrees) trees of \(LeakForest.maxLines) lines were not compared"
    }
}
