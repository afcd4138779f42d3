import MemhuntCore
import MemhuntFormats

/// Step 2 (field data): MetricKit's peak memory for the app over a day.
struct MetricKitMemoryCheck: MeasuringCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let peakMB = FactDescription(
            "metrickit.peakMB", .megabytes,
            "MetricKit's peakMemoryUsage of the newest metric payload (kB = 1,000 bytes; localized units read).")
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let peak = FindingCode(
            "metrickit-memory.peak", .warning, "MetricKit's peak memory reached the threshold.",
            examples: [
                .raises(
                    "Fixtures/metrickit", with: ["max_peak_mb": 600], facts: [Fact.peakMB.key: 708],
                    title: "JustSend peaked at 708 MB (MetricKit)"),
                .quiet(
                    "Fixtures/formats/metrics-en-US.json", with: ["max_peak_mb": 600],
                    facts: [Fact.peakMB.key: 488.3]),
            ])
        static let exits = FindingCode(
            "metrickit-memory.exits", .warning, "MetricKit counts exits for memory in the field.",
            examples: [
                .raises(
                    "Fixtures/metrickit", facts: [Fact.peakMB.key: 708],
                    title: "JustSend ended for memory 3 times in the field (MetricKit)"),
                .quiet("Fixtures/formats/metrics-wrapped.json", facts: [Fact.peakMB.key: 1430.5]),
            ])
        static let unreadable = FindingCode(
            "metrickit-memory.unreadable", .notice,
            "A memory measurement of the payload is present but its unit or number is not understood.",
            examples: [
                .raises(
                    // The peak it cannot read is named, never guessed: no peak is recorded.
                    "Fixtures/formats/metrics-unknown-unit.json", facts: [Fact.peakMB.key: nil],
                    title: "MetricKit value not understood in metrics-unknown-unit.json"),
                .quiet("Fixtures/formats/metrics-en-US.json", facts: [Fact.peakMB.key: 488.3]),
            ])
    }

    static let description = CheckDescription(
        id: "metrickit-memory",
        title: "MetricKit peak memory",
        step: "jetsam-record",
        rationale: """
            MetricKit reports the app's peak footprint per day from real devices: a second source for \
            the lifetime peak, and exit counts that say whether memory kills happen in the field.
            """,
        reads: [.metricPayload],
        facts: [
            Fact.peakMB
        ],
        codes: [
            Code.peak,
            Code.exits,
            Code.unreadable,
        ],
        parameters: [
            CheckParameter("max_peak_mb", default: 0, "Warn when MetricKit's peak reaches this many MB (0 = never).")
        ]
    )

    /// The subject's newest metric payload.
    typealias Measurement = (artifact: Artifact, payload: MetricPayload)

    func measure(_ context: CheckContext) async throws -> Measurement? { MetricKitSelection.newest(in: context) }

    func say(_ metrics: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        let (artifact, payload) = metrics
        let app = context.subject.app ?? payload.bundleIdentifier ?? "the app"
        if !payload.unreadable.isEmpty {
            output.emit(
                Code.unreadable, title: "MetricKit value not understood in " + artifact.fileName,
                detail: artifact.source + ": " + payload.unreadable.joined(separator: "; ")
                    + ". The value is left out of the facts rather than guessed.",
                evidence: [Evidence(source: artifact.source, pointer: "/memoryMetrics")])
        }
        if let peak = payload.peakMemoryBytes {
            output.record(Fact.peakMB, .megabytes(bytes: peak))
            output.headline(Fact.peakMB, "MetricKit peak", "MetricKit peak " + peak.megabytesText)
            output.impact("MetricKit: peak memory \(peak.megabytesText) in the payload's window.")
            let limit = context.double("max_peak_mb")
            if limit > 0, peak >= limit * 1_048_576 {
                output.emit(
                    Code.peak, title: "\(app) peaked at \(peak.megabytesText) (MetricKit)",
                    detail:
                        "MetricKit's peakMemoryUsage is \(peak.megabytesText) (threshold \(FactValue.oneDecimal(limit)) MB).",
                    evidence: [Evidence(source: artifact.source, pointer: "/memoryMetrics/peakMemoryUsage")])
            }
        }
        output.event("MetricKit payload window ends", of: artifact)
        let (limitExits, pressureExits) = (payload.memoryResourceLimitExits ?? 0, payload.memoryPressureExits ?? 0)
        guard limitExits + pressureExits > 0 else { return }
        output.emit(
            Code.exits,
            title: "\(app) ended for memory " + Plural.count(limitExits + pressureExits, "time")
                + " in the field (MetricKit)",
            detail: "MetricKit counts " + Plural.count(limitExits, "memory-limit exit") + " and "
                + Plural.count(pressureExits, "memory-pressure exit") + " while in the background.",
            evidence: [Evidence(source: artifact.source, pointer: "/applicationExitMetrics")])
    }
}

/// The newest MetricKit metric payload of a context that is the subject's: its `metaData.bundleIdentifier`
/// denotes the subject (or it names no bundle). Without a subject, the newest of any.
enum MetricKitSelection {
    static func newest(in context: CheckContext) -> (artifact: Artifact, payload: MetricPayload)? {
        let payloads = context.artifacts(of: .metricPayload).enumerated().compactMap {
            offset, artifact -> (offset: Int, artifact: Artifact, payload: MetricPayload)? in
            guard case .metricPayload(let payload)? = artifact.content,
                ArtifactOwner.belongs(artifact, to: context.subject) != false
            else { return nil }
            return (offset, artifact, payload)
        }
        let newest = payloads.max { a, b in (a.payload.time ?? 0, a.offset) < (b.payload.time ?? 0, b.offset) }
        return newest.map { ($0.artifact, $0.payload) }
    }
}
