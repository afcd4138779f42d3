import MemhuntCore
import MemhuntFormats

/// Field context: App Store Connect's memory metrics (peak, average suspended) per app version, device class
/// and percentile. Apple's aggregate over the devices that ran a version, never one incident.
struct ASCMemoryCheck: MeasuringCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let version = FactDescription(
            "asc.version", .text,
            "The app version of App Store Connect's newest memory point (the last of its dataset, in Apple's order).")
        static let peakP50MB = FactDescription(
            "asc.peak.p50MB", .megabytes,
            "App Store Connect's p50 peak memory over the devices of one class that ran the newest version, in "
                + "Apple's MB as written (not converted).")
        static let peakP90MB = FactDescription(
            "asc.peak.p90MB", .megabytes,
            "App Store Connect's p90 peak memory over the devices of one class that ran the newest version, in "
                + "Apple's MB as written (not converted).")
        static let peakGrowthPercent = FactDescription(
            "asc.peak.growthPercent", .percent,
            "How much App Store Connect's p50 peak memory grew from the version before the newest to the newest.")
        static let suspendedP50MB = FactDescription(
            "asc.suspended.p50MB", .megabytes,
            "App Store Connect's p50 average suspended memory over the devices of one class that ran the newest "
                + "version, in Apple's MB as written (not converted).")
        static let suspendedP90MB = FactDescription(
            "asc.suspended.p90MB", .megabytes,
            "App Store Connect's p90 average suspended memory over the devices of one class that ran the newest "
                + "version, in Apple's MB as written (not converted).")
        static let suspendedGrowthPercent = FactDescription(
            "asc.suspended.growthPercent", .percent,
            "How much App Store Connect's p50 average suspended memory grew from the version before the newest to "
                + "the newest.")
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let growth = FindingCode(
            "asc-memory.growth", .notice,
            "App Store Connect's p50 of the metric grew from one version to the next by at least the threshold.",
            examples: [
                .raises(
                    "Fixtures/asc/perfPowerMetrics-memory.json",
                    facts: [Fact.version.key: "4.2", Fact.peakP50MB.key: 418.9],
                    title: "App Store Connect p50 peak memory grew 39 % from 4.1 to 4.2 (All iPhones)"),
                .quiet(
                    "Fixtures/asc/perfPowerMetrics-memory.json", with: ["metric": "averageSuspendedMemory"],
                    facts: [Fact.version.key: "4.2", Fact.suspendedP50MB.key: 51.7]),
            ])
        static let unreadable = FindingCode(
            "asc-memory.unreadable", .notice,
            "A point of App Store Connect's memory category could not be read, or is in a unit other than MB.",
            examples: [
                .raises(
                    "Fixtures/asc/perfPowerMetrics-broken.json",
                    facts: [Fact.version.key: "5.0", Fact.peakP50MB.key: 200.5],
                    title: "App Store Connect value not read in perfPowerMetrics-broken.json"),
                .quiet(
                    "Fixtures/asc/perfPowerMetrics-memory.json",
                    facts: [Fact.version.key: "4.2", Fact.peakP50MB.key: 418.9]),
            ])
    }

    static let description = CheckDescription(
        id: "asc-memory",
        title: "App Store Connect memory metrics",
        step: "jetsam-record",
        rationale: """
            App Store Connect's power and performance metrics give the app's peak and average suspended memory \
            per version and device class, as percentiles over the devices that ran it: the fleet's level beside \
            one record, and a version that grew.
            """,
        reads: [.ascMetrics],
        facts: [
            Fact.version,
            Fact.peakP50MB,
            Fact.peakP90MB,
            Fact.peakGrowthPercent,
            Fact.suspendedP50MB,
            Fact.suspendedP90MB,
            Fact.suspendedGrowthPercent,
        ],
        codes: [
            Code.growth,
            Code.unreadable,
        ],
        parameters: [
            CheckParameter(
                "metric", default: .string("peakMemory"),
                "The memory metric to read: peakMemory or averageSuspendedMemory (its facts are the suspended ones)."),
            CheckParameter(
                "max_growth_percent", default: 20,
                "Note a growth of the p50 from one version to the next of at least this many percent (0 = never)."),
        ]
    )

    /// The points of the metric asked for, in megabytes, of one device class; the points that could not be read.
    struct Measurement {
        var metric: String
        var problems: [(artifact: Artifact, notes: [String])]
        /// The device class's points: all iPhones when given, else the first met.
        var points: [(artifact: Artifact, point: ASCMetricPoint)]
        var deviceName: String
        var p50: [(artifact: Artifact, point: ASCMetricPoint)] { points.filter { $0.point.percentileLabel == "p50" } }
        var p90: [(artifact: Artifact, point: ASCMetricPoint)] { points.filter { $0.point.percentileLabel == "p90" } }
        var suspended: Bool { metric == "averageSuspendedMemory" }
        var name: String { suspended ? "average suspended memory" : metric == "peakMemory" ? "peak memory" : metric }
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        let metric = context.string("metric") ?? "peakMemory"
        var points: [(artifact: Artifact, point: ASCMetricPoint)] = []
        var problems: [(artifact: Artifact, notes: [String])] = []
        var found = false
        for artifact in context.artifacts(of: .ascMetrics) {
            guard case .ascMetrics(let metrics)? = artifact.content else { continue }
            found = true
            var notes = artifact.notes
            for point in metrics.memory where point.metric == metric {
                if point.megabytes == nil {
                    notes.append(Words.notMegabytes(point))
                } else {
                    points.append((artifact, point))
                }
            }
            if !notes.isEmpty { problems.append((artifact, notes)) }
        }
        guard found else { return nil }
        let device = points.contains { $0.point.device == "all_iphones" } ? "all_iphones" : points.first?.point.device
        let ofDevice = points.filter { $0.point.device == device }
        return Measurement(
            metric: metric, problems: problems, points: ofDevice,
            deviceName: ofDevice.first?.point.deviceName ?? device ?? "devices of no class named")
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        for (artifact, notes) in m.problems {
            output.emit(
                Code.unreadable, title: "App Store Connect value not read in \(artifact.fileName)",
                detail: artifact.source + ": " + notes.joined(separator: "; ")
                    + ". Those points are left out rather than guessed; the others are read.",
                evidence: [Evidence(source: artifact.source, pointer: "/productData")])
        }
        let (p50Fact, p90Fact) =
            m.suspended ? (Fact.suspendedP50MB, Fact.suspendedP90MB) : (Fact.peakP50MB, Fact.peakP90MB)
        guard let newest = m.p50.last ?? m.p90.last ?? m.points.last else {
            output.impact("App Store Connect: no \(m.name) point for any version in the given response.")
            return
        }
        let version = newest.point.version
        output.record(Fact.version, .string(version))
        if let last = m.p50.last(where: { $0.point.version == version }) {
            output.record(p50Fact, .oneDecimal(last.point.value))
            output.headline(
                p50Fact, "App Store Connect p50 \(m.name)",
                "App Store Connect p50 \(m.name) \(Words.mb(last.point.value)) (\(version), \(m.deviceName))")
        }
        if let last = m.p90.last(where: { $0.point.version == version }) {
            output.record(p90Fact, .oneDecimal(last.point.value))
        }
        let levels = [("p50", m.p50), ("p90", m.p90)].compactMap { label, set in
            set.last(where: { $0.point.version == version }).map { "\(label) \(Words.mb($0.point.value))" }
        }
        if !levels.isEmpty { output.impact(Words.impact(m, levels: levels, version: version)) }
        Self.growth(m, limit: context.double("max_growth_percent"), to: &output)
    }

    /// The p50 per version, and its change from the version before the newest to the newest.
    static func growth(_ m: Measurement, limit: Double, to output: inout CheckOutput) {
        let p50 = m.p50
        guard p50.count >= 2 else { return }
        output.chart(
            Series(
                id: "asc-\(m.metric)-p50", title: "App Store Connect p50 \(m.name) per version, \(m.deviceName)",
                caption: "\(Words.aggregate); \(p50.count) versions.", style: .line, axis: "\(m.name) (MB)",
                unit: .megabytes,
                points: p50.map {
                    Series.Point(label: $0.point.version, value: $0.point.value, text: Words.mb($0.point.value))
                }))
        let (from, to) = (p50[p50.count - 2], p50[p50.count - 1])
        guard from.point.value > 0 else { return }
        let percent = (to.point.value - from.point.value) / from.point.value * 100
        output.record(m.suspended ? Fact.suspendedGrowthPercent : Fact.peakGrowthPercent, .oneDecimal(percent))
        output.compare(
            Comparison(
                kind: .growth, label: "App Store Connect p50 \(m.name), \(m.deviceName), version → version",
                unit: .megabytes, better: .lower,
                from: .init(label: from.point.version, value: from.point.value, text: Words.mb(from.point.value)),
                to: .init(label: to.point.version, value: to.point.value, text: Words.mb(to.point.value)),
                change: (percent >= 0 ? "+" : "") + FactValue.oneDecimal(percent).description + " %"))
        guard limit > 0, percent >= limit else { return }
        output.emit(
            Code.growth, title: Words.growthTitle(m, percent: percent, from: from.point, to: to.point),
            detail: Words.growth(m, from: from.point, to: to.point, limit: limit),
            evidence: [Evidence(source: to.artifact.source, pointer: to.point.pointer)])
    }
}

/// Every sentence the check says.
extension ASCMemoryCheck {
    enum Words {
        static let aggregate = "Apple's aggregate over the devices of the class that ran the version, not one incident"

        static func mb(_ value: Double) -> String { FactValue.oneDecimal(value).description + " MB" }

        static func notMegabytes(_ point: ASCMetricPoint) -> String {
            "\(point.pointer): the unit '\(point.unit ?? point.unitName ?? "none")' is not megabytes: left out"
        }

        static func impact(_ m: Measurement, levels: [String], version: String) -> String {
            "App Store Connect: \(m.name) \(levels.joined(separator: ", ")) for version \(version) on \(m.deviceName) "
                + "(\(aggregate))."
        }

        static func growthTitle(_ m: Measurement, percent: Double, from: ASCMetricPoint, to: ASCMetricPoint) -> String {
            "App Store Connect p50 \(m.name) grew \(FactValue.oneDecimal(percent)) % from \(from.version) to "
                + "\(to.version) (\(m.deviceName))"
        }

        static func growth(_ m: Measurement, from: ASCMetricPoint, to: ASCMetricPoint, limit: Double) -> String {
            "App Store Connect's p50 \(m.name) on \(m.deviceName) is \(mb(from.value)) for version \(from.version) and "
                + "\(mb(to.value)) for \(to.version) (threshold \(FactValue.oneDecimal(limit)) %). This is "
                + "\(aggregate); the response names no app (the request's URL did)."
        }
    }
}
