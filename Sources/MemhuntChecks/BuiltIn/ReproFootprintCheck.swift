import MemhuntCore
import MemhuntFormats

/// Step 5: footprint before and after entering a screen in a simulator reproduction.
struct ReproFootprintCheck: Check {
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

    func run(_ context: CheckContext) async throws -> CheckOutput {
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
        guard let baseline, let peak else { return CheckOutput(noInput: true) }
        var output = CheckOutput()
        output.record(Fact.baselineMB, .oneDecimal(baseline.footprintMB))
        output.record(Fact.peakMB, .oneDecimal(peak.footprintMB))
        output.record(Fact.label, .string(peak.label))
        let fromTo =
            "\(FactValue.oneDecimal(baseline.footprintMB)) → " + Fact.peakMB.format(.oneDecimal(peak.footprintMB))
        guard count > 1, baseline.footprintMB > 0 else {
            output.headline(Fact.peakMB, "baseline → peak", fromTo)
            return output
        }
        let ratio = peak.footprintMB / baseline.footprintMB
        output.record(Fact.ratio, .oneDecimal(ratio))
        output.headline(Fact.peakMB, "baseline → peak", fromTo + " (×\(ratio.oneDecimalText))")
        let mb = FactValue.oneDecimal
        output.compare(
            Comparison(
                kind: .growth, label: "Simulator reproduction: footprint, baseline → peak", unit: .megabytes,
                better: .lower,
                from: .init(
                    label: "baseline", value: baseline.footprintMB,
                    text: Fact.baselineMB.format(mb(baseline.footprintMB))),
                to: .init(label: peak.label, value: peak.footprintMB, text: Fact.peakMB.format(mb(peak.footprintMB))),
                change: "×" + ratio.oneDecimalText))
        output.chart(
            Series(
                id: "repro-footprint", title: "Simulator reproduction: baseline vs peak footprint",
                caption: "The first reading and the largest, ×\(ratio.oneDecimalText).", axis: "footprint (MB)",
                unit: .megabytes,
                points: [
                    .init(
                        label: "baseline", value: baseline.footprintMB,
                        text: Fact.baselineMB.format(mb(baseline.footprintMB))),
                    .init(
                        label: peak.label, value: peak.footprintMB, text: Fact.peakMB.format(mb(peak.footprintMB)),
                        role: .subject),
                ]))
        output.strength(
            "A simulator reproduction (\(Fact.baselineMB.format(mb(baseline.footprintMB))) → "
                + "\(Fact.peakMB.format(mb(peak.footprintMB)))) made the problem measurable.")
        output.measurementEvents(firstOfFile, in: context)
        let limit = context.double("max_ratio")
        if ratio >= limit {
            output.emit(
                Code.growth,
                title: "\(peak.label): \(baseline.footprintMB.oneDecimalText) → \(peak.footprintMB.oneDecimalText) MB "
                    + "(×\(ratio.oneDecimalText))",
                detail: "Footprint went from \(baseline.text) to \(peak.text), ×\(ratio.oneDecimalText) "
                    + "(threshold ×\(limit.oneDecimalText)). Readings in time order"
                    + (listed.count < count ? " (the first \(listed.count) of \(FactValue.grouped(count)))" : "")
                    + ": " + listed.map(\.text).joined(separator: ", ") + ".",
                evidence: [baseline.evidence, peak.evidence],
                next: .step(
                    "coreanimation-layers", "Count what the screen materializes: CoreAnimation memory and layers."))
        }
        return output
    }
}
