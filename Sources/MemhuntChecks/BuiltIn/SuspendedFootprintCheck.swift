import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// Step 3: what the app still holds while suspended in the background.
struct SuspendedFootprintCheck: MeasuringCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let residentMB = FactDescription(
            "jetsam.app.residentMB", .megabytes,
            "The subject's footprint at that moment (rpages: phys_footprint, resident + compressed); the seed's "
                + "'resident in that state'. The key keeps its name.")
        static let inMemoryMB = FactDescription(
            "jetsam.app.inMemoryMB", .megabytes,
            "Of that footprint, internal pages in memory (physicalPages.internal[0], iOS 14+).")
        static let compressedMB = FactDescription(
            "jetsam.app.compressedMB", .megabytes,
            "Of that footprint, internal pages compressed (physicalPages.internal[1], iOS 14+).")
        static let suspendedMB = FactDescription(
            "metrickit.suspendedMB", .megabytes, "MetricKit's averageSuspendedMemory of the newest metric payload.")
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let jetsam = FindingCode(
            "suspended-footprint.jetsam", .warning, "The subject was suspended and held the threshold or more.",
            examples: [
                .raises(
                    "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", app: "JustSend",
                    facts: [Fact.residentMB.key: 122, Fact.inMemoryMB.key: 18.9],
                    title: "JustSend held 122 MB while suspended"),
                .quiet(
                    "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", app: "JustSendWidget",
                    facts: [Fact.residentMB.key: 10.9, Fact.inMemoryMB.key: 1.9]),
            ])
        static let metrickit = FindingCode(
            "suspended-footprint.metrickit", .warning, "MetricKit's average suspended memory reached the threshold.",
            examples: [
                .raises(
                    "Fixtures/metrickit", facts: [Fact.suspendedMB.key: 119.1],
                    title: "JustSend averaged 119.1 MB while suspended (MetricKit)"),
                .quiet("Fixtures/formats/metrics-en-US.json", facts: [Fact.suspendedMB.key: 46.3]),
            ])
        static let notSuspended = FindingCode(
            "suspended-footprint.not-suspended", .info,
            "The record lists the subject, but not suspended: the step does not apply (not-applicable).",
            examples: [
                .raises(
                    "Fixtures/killed", app: "JustSend",
                    facts: [Fact.residentMB.key: 2098, Fact.inMemoryMB.key: 18.9],
                    title: "Not applicable: JustSend was frontmost, not suspended, when the record was taken"),
                .quiet(
                    "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", app: "JustSend",
                    facts: [Fact.residentMB.key: 122, Fact.inMemoryMB.key: 18.9]),
            ])
    }

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
            Fact.residentMB,
            Fact.inMemoryMB,
            Fact.compressedMB,
            Fact.suspendedMB,
        ],
        codes: [
            Code.jetsam,
            Code.metrickit,
            Code.notSuspended,
        ],
        parameters: [
            CheckParameter("max_suspended_mb", default: 50, "Warn when a suspended app holds at least this many MB.")
        ]
    )

    /// The subject's process in the chosen jetsam record (when the record has a page size), and MetricKit's
    /// average while suspended.
    struct Measurement {
        var jetsam: (record: JetsamRecord, process: JetsamSnapshot.Process)?
        var metrics: (artifact: Artifact, bytes: Double)?
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        var m = Measurement()
        if let record = JetsamRecord.chosen(in: context), record.event.pageSizeKnown,
            let process = record.process(of: context.subject)
        {
            m.jetsam = (record, process)
        }
        if let metrics = MetricKitSelection.newest(in: context), let bytes = metrics.payload.averageSuspendedMemoryBytes
        {
            m.metrics = (metrics.artifact, bytes)
        }
        return m.jetsam == nil && m.metrics == nil ? nil : m
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        let limit = context.double("max_suspended_mb")
        let app = context.subject.app ?? "the app"
        if let (record, process) = m.jetsam { Self.jetsam(record, process, app: app, limit: limit, to: &output) }
        if let (artifact, bytes) = m.metrics {
            output.notApplicable = false
            output.record(Fact.suspendedMB, .megabytes(bytes: bytes))
            output.headline(
                Fact.suspendedMB, "average while suspended", bytes.megabytesText + " averaged while suspended")
            if bytes >= limit * 1_048_576 {
                output.emit(
                    Code.metrickit, title: "\(app) averaged \(bytes.megabytesText) while suspended (MetricKit)",
                    detail: Words.metrickit(bytes, limit: limit),
                    evidence: [Evidence(source: artifact.source, pointer: "/memoryMetrics/averageSuspendedMemory")],
                    next: .mitigate(Words.release))
            }
        }
    }

    /// What the jetsam record shows the subject held, and whether it was suspended then.
    static func jetsam(
        _ record: JetsamRecord, _ process: JetsamSnapshot.Process, app: String, limit: Double,
        to output: inout CheckOutput
    ) {
        let resident = record.bytes(pages: process.residentPages)
        output.record(Fact.residentMB, .megabytes(bytes: resident))
        let inMemory = process.residentInternalPages.map { record.bytes(pages: $0) }
        let compressed = process.compressedInternalPages.map { record.bytes(pages: $0) }
        output.record(Fact.inMemoryMB, inMemory.map { .megabytes(bytes: $0) })
        output.record(Fact.compressedMB, compressed.map { .megabytes(bytes: $0) })
        let state = process.states.first.map { " (\($0))" } ?? ""
        let parts = Words.parts(inMemory, compressed, lead: ": ")
        output.headline(Fact.residentMB, "footprint", resident.megabytesText + " footprint" + state + parts)
        guard process.isSuspended else {
            output.notApplicable = true
            output.emit(
                Code.notSuspended,
                title: "Not applicable: \(app) was \(process.states.first ?? "not suspended"), not suspended, when the "
                    + "record was taken",
                detail: "The record lists \(app) as " + process.states.joined(separator: ", ")
                    + ", so its \(resident.megabytesText) footprint is not what it holds in the background.",
                evidence: [record.evidence(process, "states")])
            return
        }
        output.impact("Held a footprint of \(resident.megabytesText) while suspended" + parts + ".")
        guard resident >= limit * 1_048_576 else { return }
        output.emit(
            Code.jetsam, title: "\(app) held \(resident.megabytesText) while suspended",
            detail: Words.held(
                app, resident, process, split: Words.parts(inMemory, compressed, lead: "; "), limit: limit),
            evidence: [record.evidence(process, "rpages"), record.evidence(process, "states")],
            next: .mitigate(Words.release))
    }
}

/// Every sentence the check says.
extension SuspendedFootprintCheck {
    enum Words {
        static let release = "Release caches, images and view trees on entering the background; measure again."

        /// "…: 80 MB in memory, 42 MB compressed" when the record splits the footprint.
        static func parts(_ inMemory: Double?, _ compressed: Double?, lead: String) -> String {
            inMemory.flatMap { m in
                compressed.map { c in "\(lead)\(m.megabytesText) in memory, \(c.megabytesText) compressed" }
            } ?? ""
        }

        static func held(
            _ app: String, _ resident: Double, _ process: JetsamSnapshot.Process, split: String, limit: Double
        )
            -> String
        {
            "When the jetsam record was taken, \(app) was suspended and still held a footprint of "
                + "\(resident.megabytesText) (\(FactValue.grouped(Int(clamping: process.residentPages))) pages\(split); "
                + "threshold \(FactValue.oneDecimal(limit)) MB). If a background app does not release memory, another "
                + "app dies instead."
        }

        static func metrickit(_ bytes: Double, limit: Double) -> String {
            "MetricKit's averageSuspendedMemory is \(bytes.megabytesText) (threshold \(FactValue.oneDecimal(limit)) MB), "
                + "an average over the payload's period, not one moment. If a background app does not release memory, "
                + "another app dies instead."
        }
    }
}
