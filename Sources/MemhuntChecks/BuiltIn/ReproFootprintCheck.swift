import MemhuntCore
import MemhuntFormats

/// Step 5: footprint before and after entering a screen in a simulator reproduction.
struct ReproFootprintCheck: Check {
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
            FactDescription("repro.baselineMB", .megabytes, "The first reproduction reading's footprint."),
            FactDescription("repro.peakMB", .megabytes, "The largest reproduction reading's footprint."),
            FactDescription("repro.ratio", .ratio, "Peak divided by baseline, one decimal (45 → 611 MB is 13.6)."),
            FactDescription("repro.label", .text, "The label of the peak reading."),
        ],
        codes: [
            FindingCode(
                "repro-footprint.growth", .warning,
                "The reproduction's peak is the threshold's multiple of its baseline.")
        ],
        parameters: [
            CheckParameter("max_ratio", default: 3.0, "Warn when the peak is at least this many times the baseline.")
        ]
    )

    func run(_ context: CheckContext) async throws -> CheckOutput {
        // Rows with a variant belong to the structure-only variation.
        let samples = ReproSample.all(in: context).filter { $0.variant == nil }
        guard let baseline = samples.first, let peak = samples.max(by: { $0.footprintMB < $1.footprintMB }) else {
            return CheckOutput(noInput: true)
        }
        var output = CheckOutput()
        output.record("repro.baselineMB", .oneDecimal(baseline.footprintMB))
        output.record("repro.peakMB", .oneDecimal(peak.footprintMB))
        output.record("repro.label", .string(peak.label))
        guard samples.count > 1, baseline.footprintMB > 0 else { return output }
        let ratio = peak.footprintMB / baseline.footprintMB
        output.record("repro.ratio", .oneDecimal(ratio))
        let limit = context.double("max_ratio")
        if ratio >= limit {
            output.emit(
                Finding(
                    code: "repro-footprint.growth",
                    severity: .warning,
                    title:
                        "\(peak.label): \(baseline.footprintMB.oneDecimalText) → \(peak.footprintMB.oneDecimalText) MB "
                        + "(×\(ratio.oneDecimalText))",
                    detail: "Footprint went from \(baseline.text) to \(peak.text), ×\(ratio.oneDecimalText) "
                        + "(threshold ×\(limit.oneDecimalText)). Readings in time order: "
                        + samples.map(\.text).joined(separator: ", ") + ".",
                    evidence: [baseline.evidence, peak.evidence],
                    next: .step(
                        "coreanimation-layers", "Count what the screen materializes: CoreAnimation memory and layers.")
                ))
        }
        return output
    }
}
