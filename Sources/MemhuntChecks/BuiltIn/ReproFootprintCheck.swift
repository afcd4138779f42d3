import MemhuntCore
import MemhuntFormats

/// Step 5: footprint before and after entering a screen in a simulator reproduction.
struct ReproFootprintCheck: MeasuringCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let baselineMB = FactDescription(
            "repro.baselineMB", .megabytes, "The first reproduction reading's footprint.")
        static let peakMB = FactDescription(
            "repro.peakMB", .megabytes, "The largest reproduction reading's footprint.", measure: true,
            repeatedAs: .footprint)
        static let ratio = FactDescription(
            "repro.ratio", .ratio, "Peak divided by baseline, one decimal (45 → 611 MB is 13.6).")
        static let label = FactDescription("repro.label", .text, "The label of the peak reading.")
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let growth = FindingCode(
            "repro-footprint.growth", .warning,
            "The reproduction's peak is the threshold's multiple of its baseline.",
            examples: [
                .raises(
                    "Fixtures/justsend/measurements-detail.csv",
                    facts: [Fact.baselineMB.key: 45, Fact.peakMB.key: 611],
                    title: "after-detail: 45 → 611 MB (×13.6)"),
                .quiet(
                    "Fixtures/justsend-fixed/measurements-detail.csv",
                    facts: [Fact.baselineMB.key: 45, Fact.peakMB.key: 102]),
            ])
    }

    static let description = CheckDescription(
        id: "repro-footprint",
        title: "Simulator reproduction: footprint before and after",
        step: "simulator-repro",
        rationale: """
            A device-only problem cannot tell you whether it is fixed. Reproduced in the simulator with \
            data of the user's character, "before entering the screen" vs "after" says which screen is \
            responsible and makes the fix measurable.
            """,
        reads: [.measurements, .vmmapSummary, .footprint],
        facts: [
            Fact.baselineMB,
            Fact.peakMB,
            Fact.ratio,
            Fact.label,
        ],
        codes: [
            Code.growth
        ],
        parameters: [
            CheckParameter("max_ratio", default: 3.0, "Warn when the peak is at least this many times the baseline.")
        ]
    )

    /// The reproduction's readings (rows without a variant): the first, the largest, how many, the first
    /// `ReproSample.shownRows` of them, and a reading of each file.
    struct Measurement {
        var baseline: ReproSample
        var peak: ReproSample
        var count: Int
        var listed: [ReproSample]
        var firstOfFile: [ReproSample]
        var ratio: Double { peak.footprintMB / baseline.footprintMB }
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        // Rows with a variant belong to the structure-only variation. One pass, no copy of the rows: a file may
        // hold 100,000 of them.
        var baseline: ReproSample?
        var peak: ReproSample?
        var count = 0
        var listed: [ReproSample] = []
        var firstOfFile: [ReproSample] = []
        var files = Set<String>()
        for sample in ReproSample.all(in: context) where sample.variant == nil {
            count += 1
            if baseline == nil { baseline = sample }
            if peak.map({ sample.footprintMB > $0.footprintMB }) ?? true { peak = sample }
            if listed.count < ReproSample.shownRows { listed.append(sample) }
            if files.insert(sample.source).inserted { firstOfFile.append(sample) }
        }
        guard let baseline, let peak else { return nil }
        return Measurement(baseline: baseline, peak: peak, count: count, listed: listed, firstOfFile: firstOfFile)
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        let (baseline, peak) = (m.baseline, m.peak)
        output.record(Fact.baselineMB, .oneDecimal(baseline.footprintMB))
        output.record(Fact.peakMB, .oneDecimal(peak.footprintMB))
        output.record(Fact.label, .string(peak.label))
        guard m.count > 1, baseline.footprintMB > 0 else {
            output.headline(Fact.peakMB, "baseline → peak", Words.fromTo(m))
            return
        }
        output.record(Fact.ratio, .oneDecimal(m.ratio))
        output.headline(Fact.peakMB, "baseline → peak", Words.fromTo(m) + " (×\(m.ratio.oneDecimalText))")
        let (from, to) = (
            Fact.baselineMB.format(.oneDecimal(baseline.footprintMB)), Fact.peakMB.format(.oneDecimal(peak.footprintMB))
        )
        output.compare(
            Comparison(
                kind: .growth, label: "Simulator reproduction: footprint, baseline → peak", unit: .megabytes,
                better: .lower, from: .init(label: "baseline", value: baseline.footprintMB, text: from),
                to: .init(label: peak.label, value: peak.footprintMB, text: to), change: "×" + m.ratio.oneDecimalText))
        output.chart(
            Series(
                id: "repro-footprint", title: "Simulator reproduction: baseline vs peak footprint",
                caption: "The first reading and the largest, ×\(m.ratio.oneDecimalText).", axis: "footprint (MB)",
                unit: .megabytes,
                points: [
                    .init(label: "baseline", value: baseline.footprintMB, text: from),
                    .init(label: peak.label, value: peak.footprintMB, text: to, role: .subject),
                ]))
        output.strength("A simulator reproduction (\(from) → \(to)) made the problem measurable.")
        output.measurementEvents(m.firstOfFile, in: context)
        let limit = context.double("max_ratio")
        guard m.ratio >= limit else { return }
        output.emit(
            Code.growth,
            title: "\(peak.label): \(baseline.footprintMB.oneDecimalText) → \(peak.footprintMB.oneDecimalText) MB "
                + "(×\(m.ratio.oneDecimalText))",
            detail: Words.growth(m, limit: limit), evidence: [baseline.evidence, peak.evidence],
            next: .step("coreanimation-layers", Words.countWhatItMaterializes))
    }
}

/// Every sentence the check says.
extension ReproFootprintCheck {
    enum Words {
        static let countWhatItMaterializes = "Count what the screen materializes: CoreAnimation memory and layers."

        static func fromTo(_ m: Measurement) -> String {
            "\(FactValue.oneDecimal(m.baseline.footprintMB)) → " + Fact.peakMB.format(.oneDecimal(m.peak.footprintMB))
        }

        static func growth(_ m: Measurement, limit: Double) -> String {
            "Footprint went from \(m.baseline.text) to \(m.peak.text), ×\(m.ratio.oneDecimalText) (threshold "
                + "×\(limit.oneDecimalText)). Readings in time order"
                + (m.listed.count < m.count ? " (the first \(m.listed.count) of \(FactValue.grouped(m.count)))" : "")
                + ": " + m.listed.map(\.text).joined(separator: ", ") + "."
        }
    }
}
