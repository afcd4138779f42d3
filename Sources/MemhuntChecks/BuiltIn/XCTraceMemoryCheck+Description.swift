import MemhuntCore
import MemhuntFormats

/// What the check declares: its facts, its codes with their examples, and its description.
extension XCTraceMemoryCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let exports = FactDescription(
            "xctrace.exports", .count, "xctrace exports among the artifacts.", better: .neutral)
        static let schemas = FactDescription(
            "xctrace.schemas", .list,
            "The tables the exports hold: schema names, or a track detail's shape (allocations-statistics, leaks, …).")
        static let unread = FactDescription(
            "xctrace.unread", .list, "Tables of the exports memhunt does not read, by schema name: named, not read.")
        static let residentMB = FactDescription(
            "xctrace.vm.residentMB", .megabytes, "VM Tracker Regions Map: resident bytes of all rows, in MB.")
        static let dirtyMB = FactDescription(
            "xctrace.vm.dirtyMB", .megabytes, "VM Tracker Regions Map: dirty bytes of all rows, in MB.", measure: true)
        static let swappedMB = FactDescription(
            "xctrace.vm.swappedMB", .megabytes,
            "VM Tracker Regions Map: swapped (compressed) bytes of all rows, in MB.", measure: true)
        static let footprintByType = FactDescription(
            "xctrace.vm.footprintByTypeMB", .map,
            "VM Tracker Regions Map: dirty + swapped MB (what the footprint charges) of the ten largest region types.")
        static let operations = FactDescription(
            "xctrace.vmops.bytesByOperation", .map, "virtual-memory table: bytes of the rows' sizes per VM operation.")
        static let operationEvents = FactDescription(
            "xctrace.vmops.events", .count, "virtual-memory table: rows counted.", better: .neutral)
        static let persistentMB = FactDescription(
            "xctrace.allocations.persistentMB", .megabytes,
            "Allocations Statistics, 'All Heap & Anonymous VM': persistent (live) bytes of the last export, in MB.",
            measure: true)
        static let persistentShape = FactDescription(
            "xctrace.allocations.shape", .text,
            "With three Allocations Statistics exports or more, the shape of their persistent bytes: linear, step, "
                + "transient, flat or uneven.")
        static let persistentCount = FactDescription(
            "xctrace.allocations.persistentCount", .count,
            "Allocations Statistics, 'All Heap & Anonymous VM': persistent allocations of the last export.")
        static let totalMB = FactDescription(
            "xctrace.allocations.totalMB", .megabytes,
            "Allocations Statistics, 'All Heap & Anonymous VM': bytes allocated over the recording (live and freed).",
            better: .neutral)
        static let topCategories = FactDescription(
            "xctrace.allocations.topCategoriesMB", .map,
            "Allocations Statistics: persistent MB of the five categories holding most (summary rows left out).")
        static let liveMB = FactDescription(
            "xctrace.allocations.liveMB", .megabytes, "Allocations List: bytes of the allocations marked live, in MB.")
        static let leakCount = FactDescription(
            "xctrace.leaks.count", .count, "Leaks table: leaked objects (the rows' counts).", measure: true)
        static let leakedBytes = FactDescription(
            "xctrace.leaks.leakedBytes", .bytes, "Leaks table: leaked bytes.", measure: true)
        static let updates = FactDescription(
            "xctrace.swiftui.updates", .count, "swiftui-updates table: updates counted.")
        static let updatesByView = FactDescription(
            "xctrace.swiftui.updatesByView", .map, "swiftui-updates table: updates of the ten views updated most.")
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let leaks = FindingCode(
            "xctrace-memory.leaks", .warning, "The Leaks table of an export lists leaked objects: how many, how much.",
            examples: [
                .raises(
                    "Fixtures/xctrace/leaks.xml", facts: [Fact.exports.key: 1, Fact.leakCount.key: 4],
                    title: "4 leaked objects for 4,272 bytes"),
                .quiet("Fixtures/xctrace/vm-regions.xml", facts: [Fact.exports.key: 1, Fact.residentMB.key: 35]),
            ])
        static let growth = FindingCode(
            "xctrace-memory.persistent-growth", .warning,
            "Two Allocations Statistics exports: persistent bytes grew by at least the threshold from the first to the last.",
            examples: [
                .raises(
                    "Fixtures/xctrace/allocations-statistics.xml", "Fixtures/xctrace/allocations-statistics-later.xml",
                    facts: [Fact.exports.key: 2, Fact.persistentMB.key: 80],
                    title:
                        "Persistent bytes grew: 50 MB → 80 MB (allocations-statistics.xml → allocations-statistics-later.xml)"
                ),
                .quiet(
                    "Fixtures/xctrace/allocations-statistics.xml",
                    facts: [Fact.exports.key: 1, Fact.persistentMB.key: 50]),
            ])
        static let unread = FindingCode(
            "xctrace-memory.unread", .info,
            "The exports hold tables memhunt does not read: named by their schema, nothing is said of them.",
            examples: [
                .raises(
                    "Fixtures/xctrace/thermal.xml", facts: [Fact.exports.key: 1],
                    title: "Not read: device-thermal-state-intervals"),
                .quiet("Fixtures/xctrace/vm-regions.xml", facts: [Fact.exports.key: 1, Fact.residentMB.key: 35]),
            ])
    }

    static let description = CheckDescription(
        id: "xctrace-memory",
        title: "Instruments memory tables (xctrace export)",
        step: "simulator-repro",
        rationale: """
            Instruments records what a reproduction did to memory; `xctrace export` writes its tables as XML. \
            VM Tracker's dirty and swapped bytes per region type say what the footprint is made of, Allocations' \
            persistent bytes what the heap still holds, and two exports of one gesture whether it grows; the \
            Leaks table what nothing can free; SwiftUI's updates per view which views redraw. A table of any \
            other schema is named and left unread.
            """,
        reads: [.xctraceExport],
        facts: [
            Fact.exports, Fact.schemas, Fact.unread, Fact.residentMB, Fact.dirtyMB, Fact.swappedMB,
            Fact.footprintByType, Fact.operations, Fact.operationEvents, Fact.persistentMB, Fact.persistentShape,
            Fact.persistentCount,
            Fact.totalMB, Fact.topCategories, Fact.liveMB, Fact.leakCount, Fact.leakedBytes, Fact.updates,
            Fact.updatesByView,
        ],
        codes: [Code.leaks, Code.growth, Code.unread],
        parameters: [
            CheckParameter(
                "min_growth_mb", default: 10.0,
                "Warn when persistent bytes grew by at least this many MB between the first and last export.")
        ]
    )
}
