import MemhuntCore
import MemhuntFormats

/// What `xctrace export` tables of Instruments' memory instruments say: VM Tracker's regions (dirty and swapped
/// bytes per region type), the `virtual-memory` table's operations, Allocations' persistent bytes (and their
/// growth between two exports), the Leaks table, SwiftUI's updates per view; and the tables it does not read,
/// by their schema names.
struct XCTraceMemoryCheck: MeasuringCheck {
    private static func mb(_ bytes: Int) -> FactValue { .megabytes(bytes: Double(bytes)) }

    private static func top(_ pairs: [(String, Int)], _ count: Int, value: (Int) -> FactValue) -> FactValue {
        let sorted = pairs.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.prefix(count)
        var object: [String: FactValue] = [:]
        for (name, amount) in sorted { object[name] = value(amount) }
        return .object(object)
    }

    /// The exports and their tables, the schemas they hold and those memhunt does not read.
    struct Measurement {
        var exports: [(artifact: Artifact, export: XCTraceExport)]
        var schemas: [String]
        var unread: [String]

        /// The last table of `shape` among the exports, with its artifact.
        func last(_ shape: XCTraceTable.Shape) -> (Artifact, XCTraceTable)? {
            exports.flatMap { artifact, export in export.tables.filter { $0.shape == shape }.map { (artifact, $0) } }
                .last
        }

        /// Every table of `shape`, in the order given.
        func all(_ shape: XCTraceTable.Shape) -> [(Artifact, XCTraceTable)] {
            exports.flatMap { artifact, export in export.tables.filter { $0.shape == shape }.map { (artifact, $0) } }
        }
    }

    static let summaryRow = "All Heap & Anonymous VM"

    func measure(_ context: CheckContext) async throws -> Measurement? {
        let exports = context.artifacts(of: .xctraceExport).compactMap { artifact -> (Artifact, XCTraceExport)? in
            guard case .repro(.xctraceExport(let export))? = artifact.content else { return nil }
            return (artifact, export)
        }
        guard !exports.isEmpty else { return nil }
        var schemas: [String] = []
        var unread: [String] = []
        for (_, export) in exports {
            for name in export.schemaNames where !schemas.contains(name) { schemas.append(name) }
            for table in export.tables where table.shape == .unread && !unread.contains(table.name) {
                unread.append(table.name)
            }
        }
        return Measurement(exports: exports.map { (artifact: $0.0, export: $0.1) }, schemas: schemas, unread: unread)
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        output.record(Fact.exports, .int(m.exports.count))
        output.record(Fact.schemas, .array(m.schemas.map(FactValue.string)))
        if !m.unread.isEmpty { output.record(Fact.unread, .array(m.unread.map(FactValue.string))) }
        if let (_, regions) = m.last(.vmRegions) { Self.regions(regions, to: &output) }
        if let (_, vm) = m.last(.virtualMemory) {
            output.record(Fact.operationEvents, .int(vm.rows - vm.skippedRows))
            output.record(
                Fact.operations, Self.top(vm.operations.map { ($0.name, $0.bytes) }, 20, value: FactValue.int))
        }
        Self.statistics(m.all(.allocationsStatistics), minGrowth: context.double("min_growth_mb"), to: &output)
        if let (_, list) = m.last(.allocationsList) { output.record(Fact.liveMB, Self.mb(list.liveBytes)) }
        if let (artifact, leaks) = m.last(.leaks) { Self.leaks(leaks, of: artifact, to: &output) }
        if let (_, swiftUI) = m.last(.swiftUIUpdates) {
            output.record(Fact.updates, .int(swiftUI.rows - swiftUI.skippedRows))
            output.record(
                Fact.updatesByView, Self.top(swiftUI.viewUpdates.map { ($0.key, $0.value) }, 10, value: FactValue.int))
        }
        if !m.unread.isEmpty {
            let read = m.exports.flatMap(\.export.tables).filter { $0.shape != .unread }
            output.emit(
                Code.unread, title: "Not read: " + m.unread.joined(separator: ", "),
                detail: Words.unread(m.unread, othersRead: !read.isEmpty),
                evidence: m.exports.filter { $0.export.tables.contains { $0.shape == .unread } }.map {
                    Evidence(source: $0.artifact.source)
                })
        }
    }

    /// VM Tracker's region types: resident, dirty and swapped bytes, the largest types.
    static func regions(_ regions: XCTraceTable, to output: inout CheckOutput) {
        let types = regions.regionTypes
        output.record(Fact.residentMB, mb(types.reduce(0) { $0 + $1.residentBytes }))
        output.record(Fact.dirtyMB, mb(types.reduce(0) { $0 + $1.dirtyBytes }))
        output.record(Fact.swappedMB, mb(types.reduce(0) { $0 + $1.swappedBytes }))
        output.record(
            Fact.footprintByType, top(types.map { ($0.type, $0.dirtyBytes + $0.swappedBytes) }, 10, value: mb))
        if let largest = types.max(by: { ($0.dirtyBytes + $0.swappedBytes) < ($1.dirtyBytes + $1.swappedBytes) }) {
            output.headline(
                Fact.dirtyMB, "VM Tracker",
                Words.regions(
                    dirty: output.facts[Fact.dirtyMB.key]!, swapped: output.facts[Fact.swappedMB.key]!, largest: largest
                ))
        }
    }

    /// Allocations Statistics: the last export's summary row, and the growth from the first export to the last.
    static func statistics(_ statistics: [(Artifact, XCTraceTable)], minGrowth: Double, to output: inout CheckOutput) {
        guard let (artifact, table) = statistics.last, let all = table.category(summaryRow) else { return }
        output.record(Fact.persistentMB, all.persistentBytes.map(mb))
        output.record(Fact.persistentCount, all.persistentCount.map(FactValue.int))
        output.record(Fact.totalMB, all.totalBytes.map(mb))
        output.record(
            Fact.topCategories,
            top(
                table.categories.filter { !$0.category.hasPrefix("All ") }.map {
                    ($0.category, $0.persistentBytes ?? 0)
                },
                5, value: mb))
        if let persistent = all.persistentBytes {
            output.headline(Fact.persistentMB, "Allocations", "\(Double(persistent).megabytesText) persistent")
        }
        guard statistics.count >= 2, let (firstArtifact, firstTable) = statistics.first,
            let first = firstTable.category(summaryRow)?.persistentBytes, let later = all.persistentBytes
        else { return }
        let (from, to) = (Double(first) / 1_048_576, Double(later) / 1_048_576)
        // The exports' series, a change of a tenth of the threshold counting.
        let series = statistics.compactMap { $0.1.category(summaryRow)?.persistentBytes }.map { Double($0) / 1_048_576 }
        let shape = series.count == statistics.count ? GrowthShape.of(series, least: minGrowth / 10, minR2: 0.9) : nil
        output.record(Fact.persistentShape, shape.map { .string($0.kind.rawValue) })
        output.compare(
            Comparison(
                kind: .growth, label: "Allocations: persistent bytes", unit: .megabytes, better: .lower,
                from: .init(label: firstArtifact.fileName, value: from, text: Double(first).megabytesText),
                to: .init(label: artifact.fileName, value: to, text: Double(later).megabytesText)))
        guard to - from >= minGrowth else { return }
        output.emit(
            Code.growth, title: Words.growthTitle(first, later, firstArtifact, artifact),
            detail: Words.growth(first, later, firstArtifact, artifact, limit: minGrowth),
            evidence: [
                Evidence(source: firstArtifact.source, line: firstTable.category(summaryRow)?.line),
                Evidence(source: artifact.source, line: all.line),
            ],
            next: .change("Compare the categories that grew between the two exports."))
    }

    /// The Leaks table: its counts, and the largest leaked objects when there are any.
    static func leaks(_ leaks: XCTraceTable, of artifact: Artifact, to output: inout CheckOutput) {
        output.record(Fact.leakCount, .int(leaks.leakCount))
        output.record(Fact.leakedBytes, .int(leaks.leakedBytes))
        output.headline(
            Fact.leakCount, "Leaks",
            "\(FactValue.grouped(leaks.leakCount)) leaked objects, \(Double(leaks.leakedBytes).sizeText)")
        guard leaks.leakCount > 0 else { return }
        output.emit(
            Code.leaks,
            title: "\(FactValue.grouped(leaks.leakCount)) leaked objects for "
                + Double(leaks.leakedBytes).sizeText,
            detail: Words.leaks(leaks, artifact),
            evidence: [Evidence(source: artifact.source, line: leaks.largestLeaks.first?.line)],
            next: .change("Break the retain cycle of the largest leaked object: a weak capture or delegate."))
    }
}

/// Every sentence the check says.
extension XCTraceMemoryCheck {
    enum Words {
        static func regions(dirty: FactValue, swapped: FactValue, largest: XCTraceRegionType) -> String {
            "dirty \(Fact.dirtyMB.format(dirty)), swapped \(Fact.swappedMB.format(swapped)); the largest region type "
                + "\(largest.type) (\(Double(largest.dirtyBytes + largest.swappedBytes).megabytesText) dirty + swapped)"
        }

        static func growthTitle(_ first: Int, _ later: Int, _ firstArtifact: Artifact, _ artifact: Artifact) -> String {
            "Persistent bytes grew: \(Double(first).megabytesText) → \(Double(later).megabytesText)"
                + " (\(firstArtifact.fileName) → \(artifact.fileName))"
        }

        static func growth(_ first: Int, _ later: Int, _ firstArtifact: Artifact, _ artifact: Artifact, limit: Double)
            -> String
        {
            let added = Double(later) / 1_048_576 - Double(first) / 1_048_576
            return "Allocations Statistics, '\(summaryRow)': \(FactValue.grouped(first)) persistent bytes in "
                + "\(firstArtifact.fileName), \(FactValue.grouped(later)) in \(artifact.fileName) "
                + "(+\(added.oneDecimalText) MB; threshold \(limit.oneDecimalText) MB). The exports are compared in "
                + "the order given."
        }

        static func leaks(_ leaks: XCTraceTable, _ artifact: Artifact) -> String {
            let top = leaks.largestLeaks.prefix(3).map {
                "\($0.object.isEmpty ? "(unnamed)" : $0.object) (\(FactValue.grouped($0.bytes)) bytes)"
            }
            return "\(artifact.source): the Leaks table lists \(FactValue.grouped(leaks.leakCount)) leaked objects, "
                + "\(FactValue.grouped(leaks.leakedBytes)) bytes; the largest rows: " + top.joined(separator: "; ")
                + "."
        }

        static func unread(_ unread: [String], othersRead: Bool) -> String {
            "memhunt does not read tables of " + (unread.count == 1 ? "the schema " : "the schemas ")
                + unread.joined(separator: ", ") + ": nothing is said of them"
                + (othersRead ? "; the other tables are read." : ".")
        }
    }
}
