import MemhuntCore
import MemhuntFormats

/// Step 7: the same input in different structures. Which variable matters?
struct StructureVariationCheck: Check {
    static let description = CheckDescription(
        id: "structure-variation",
        title: "Structure-only variation",
        step: "structure-variation",
        rationale: """
            Measure the same input with only the structure changed. When the footprint differs several-fold \
            at the same size, structure is the variable; a row labelled "after"/"fix" that lands next to the \
            best variant proves the fix.
            """,
        reads: [.measurements],
        facts: [
            FactDescription("variation.variants", .list, "The labels of the variants compared."),
            FactDescription("variation.minMB", .megabytes, "The smallest variant's footprint."),
            FactDescription("variation.maxMB", .megabytes, "The largest variant's footprint."),
            FactDescription("variation.ratio", .ratio, "The largest variant's footprint divided by the smallest's."),
            FactDescription("variation.sameInput", .flag, "Whether every variant measured the same input size."),
        ],
        codes: [
            FindingCode(
                "structure-variation.structure", .warning,
                "Same input, different structure: the footprint differs by the threshold's multiple."),
            FindingCode("structure-variation.inputs-differ", .notice, "The variants differ, but so do their inputs."),
            FindingCode(
                "structure-variation.fix-holds", .info, "The fix measures within tolerance of the best variant."),
            FindingCode("structure-variation.fix-short", .warning, "The fix does not reach the best variant."),
        ],
        parameters: [
            CheckParameter("min_ratio", default: 2.0, "Warn when the largest variant is this many times the smallest."),
            CheckParameter("fix_tolerance", default: 0.1, "A fix holds within this fraction of the best variant."),
        ]
    )

    /// A row whose label says it was measured after a fix.
    static func isFix(_ sample: ReproSample) -> Bool {
        let label = sample.label.lowercased()
        return label.contains("fix") || label.contains("after")
    }

    func run(_ context: CheckContext) async throws -> CheckOutput {
        let rows = ReproSample.all(in: context).filter { $0.variant != nil }
        let scenarios = Dictionary(grouping: rows) { $0.scenario ?? "" }
        // With several scenarios, speak about the one where structure matters most.
        let candidates = scenarios.values.compactMap { rows -> (compared: [ReproSample], fixes: [ReproSample])? in
            let compared = rows.filter { !Self.isFix($0) }
            return compared.count >= 2 ? (compared, rows.filter(Self.isFix)) : nil
        }
        func ratio(_ rows: [ReproSample]) -> Double {
            let values = rows.map(\.footprintMB)
            return (values.max() ?? 0) / max(values.min() ?? 1, 0.001)
        }
        guard let (compared, fixes) = candidates.max(by: { ratio($0.compared) < ratio($1.compared) }) else {
            return CheckOutput(noInput: true)
        }
        let smallest = compared.min { $0.footprintMB < $1.footprintMB }!
        let largest = compared.max { $0.footprintMB < $1.footprintMB }!
        let inputs = Set(
            compared.map { "\($0.inputBytes.map(String.init) ?? "?")/\($0.inputLines.map(String.init) ?? "?")" })
        let sameInput = inputs.count == 1 && (compared[0].inputBytes != nil || compared[0].inputLines != nil)
        let factor = largest.footprintMB / max(smallest.footprintMB, 0.001)

        var output = CheckOutput()
        output.record("variation.variants", .array(compared.map { .string($0.label) }))
        output.record("variation.minMB", .oneDecimal(smallest.footprintMB))
        output.record("variation.maxMB", .oneDecimal(largest.footprintMB))
        output.record("variation.ratio", .oneDecimal(factor))
        output.record("variation.sameInput", .bool(sameInput))

        let minRatio = context.double("min_ratio")
        let scenario = compared[0].scenario.map { " in \($0)" } ?? ""
        if factor >= minRatio {
            output.emit(
                sameInput
                    ? Finding(
                        code: "structure-variation.structure",
                        severity: .warning,
                        title: "Structure is the variable: \(largest.text) vs \(smallest.text)",
                        detail: "Same input (\(compared[0].inputText ?? "same size"))\(scenario), only the structure "
                            + "changed: \(largest.text) vs \(smallest.text), ×\(factor.oneDecimalText) "
                            + "(threshold ×\(minRatio.oneDecimalText)). Variants: "
                            + compared.map(\.text).joined(separator: ", ") + ".",
                        evidence: [largest.evidence, smallest.evidence],
                        next: .change(
                            "Change the structure that materializes everything at once; leave the data alone."))
                    : Finding(
                        code: "structure-variation.inputs-differ",
                        severity: .notice,
                        title: "\(largest.text) vs \(smallest.text), but the inputs differ",
                        detail: "The variants\(scenario) were measured with different input sizes, so structure and "
                            + "size stay confounded.",
                        evidence: [largest.evidence, smallest.evidence],
                        next: .change("Measure every variant with the same input (input_bytes or input_lines).")))
        }
        let tolerance = context.double("fix_tolerance")
        for fix in fixes {
            let holds = fix.footprintMB <= smallest.footprintMB * (1 + tolerance)
            output.emit(
                Finding(
                    code: holds ? "structure-variation.fix-holds" : "structure-variation.fix-short",
                    severity: holds ? .info : .warning,
                    title: holds
                        ? "The fix holds: \(fix.text) vs \(smallest.text)"
                        : "The fix does not reach the best variant: \(fix.text) vs \(smallest.text)",
                    detail: "\(fix.label) measured \(fix.footprintMB.oneDecimalText) MB; the best variant "
                        + "\(smallest.label) measured \(smallest.footprintMB.oneDecimalText) MB (tolerance "
                        + "\(Int(saturating: tolerance * 100)) %).",
                    evidence: [fix.evidence, smallest.evidence],
                    next: .change(
                        holds
                            ? "Leave the measured numbers in a comment beside the fix, so nobody undoes it."
                            : "Something else still materializes: compare layer counts before and after.")))
        }
        return output
    }
}
