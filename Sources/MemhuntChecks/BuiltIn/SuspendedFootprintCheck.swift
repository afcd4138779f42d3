import MemhuntCore
import MemhuntFormats

/// Step 3: what the app still holds while suspended in the background.
struct SuspendedFootprintCheck: Check {
    static let description = CheckDescription(
        id: "suspended-footprint",
        title: "Resident size while suspended",
        step: "suspended-footprint",
        rationale: """
            A suspended app that does not release memory makes the system end another app instead: \
            that is where "the whole phone is slow" comes from.
            """,
        reads: [.jetsamEvent, .metricPayload],
        facts: [
            FactDescription(
                "jetsam.app.residentMB", .megabytes,
                "The subject's footprint at that moment (rpages: phys_footprint, resident + compressed); the seed's "
                    + "'resident in that state'. The key keeps its name."),
            FactDescription(
                "jetsam.app.inMemoryMB", .megabytes,
                "Of that footprint, internal pages in memory (physicalPages.internal[0], iOS 14+)."),
            FactDescription(
                "jetsam.app.compressedMB", .megabytes,
                "Of that footprint, internal pages compressed (physicalPages.internal[1], iOS 14+)."),
            FactDescription(
                "metrickit.suspendedMB", .megabytes, "MetricKit's averageSuspendedMemory of the newest metric payload."),
        ],
        codes: [
            FindingCode(
                "suspended-footprint.jetsam", .warning, "The subject was suspended and held the threshold or more."),
            FindingCode(
                "suspended-footprint.metrickit", .warning, "MetricKit's average suspended memory reached the threshold."
            ),
            FindingCode(
                "suspended-footprint.not-suspended", .info,
                "The record lists the subject, but not suspended: the step does not apply (not-applicable)."),
        ],
        parameters: [
            CheckParameter("max_suspended_mb", default: 50, "Warn when a suspended app holds at least this many MB.")
        ]
    )

    func run(_ context: CheckContext) async throws -> CheckOutput {
        var output = CheckOutput()
        let limit = context.double("max_suspended_mb")
        let app = context.subject.app ?? "the app"
        let next = NextAction.change(
            "Release caches, images and view trees on entering the background; measure again.")
        if let record = JetsamRecord.chosen(in: context), let process = record.process(of: context.subject) {
            let resident = record.bytes(pages: process.residentPages)
            output.record("jetsam.app.residentMB", .megabytes(bytes: resident))
            let inMemory = process.residentInternalPages.map { record.bytes(pages: $0) }
            let compressed = process.compressedInternalPages.map { record.bytes(pages: $0) }
            output.record("jetsam.app.inMemoryMB", inMemory.map { .megabytes(bytes: $0) })
            output.record("jetsam.app.compressedMB", compressed.map { .megabytes(bytes: $0) })
            let split =
                inMemory.flatMap { m in
                    compressed.map { c in "; \(m.megabytesText) in memory, \(c.megabytesText) compressed" }
                }
                ?? ""
            let suspended = process.states.contains("suspended")
            if !suspended {
                let state = process.states.first ?? "not suspended"
                output.notApplicable = true
                output.emit(
                    Finding(
                        code: "suspended-footprint.not-suspended",
                        severity: .info,
                        title: "Not applicable: \(app) was \(state), not suspended, when the record was taken",
                        detail: "The record lists \(app) as " + process.states.joined(separator: ", ")
                            + ", so its \(resident.megabytesText) footprint is not what it holds in the background.",
                        evidence: [record.evidence(process, "states")]))
            }
            if suspended, resident >= limit * 1_048_576 {
                output.emit(
                    Finding(
                        code: "suspended-footprint.jetsam",
                        severity: .warning,
                        title: "\(app) held \(resident.megabytesText) while suspended",
                        detail: "When the jetsam record was taken, \(app) was suspended and still held a footprint "
                            + "of \(resident.megabytesText) (\(FactValue.grouped(Int(clamping: process.residentPages))) "
                            + "pages\(split); threshold "
                            + "\(FactValue.oneDecimal(limit)) MB). "
                            + "If a background app does not release memory, another app dies instead.",
                        evidence: [record.evidence(process, "rpages"), record.evidence(process, "states")],
                        next: next
                    ))
            }
        }
        if let metrics = MetricKitSelection.newest(in: context), let bytes = metrics.payload.averageSuspendedMemoryBytes
        {
            output.notApplicable = false
            output.record("metrickit.suspendedMB", .megabytes(bytes: bytes))
            if bytes >= limit * 1_048_576 {
                output.emit(
                    Finding(
                        code: "suspended-footprint.metrickit",
                        severity: .warning,
                        title: "\(app) averaged \(bytes.megabytesText) while suspended (MetricKit)",
                        detail: "MetricKit's averageSuspendedMemory is \(bytes.megabytesText) "
                            + "(threshold \(FactValue.oneDecimal(limit)) MB), an average over the payload's period, not "
                            + "one moment. If a background app does not release memory, another app dies instead.",
                        evidence: [
                            Evidence(source: metrics.artifact.source, pointer: "/memoryMetrics/averageSuspendedMemory")
                        ],
                        next: next
                    ))
            }
        }
        if output.facts.isEmpty { output.noInput = true }
        return output
    }
}
