import MemhuntCore
import MemhuntFormats

/// Step 7: the same input in different structures. Which variable matters?
struct StructureVariationCheck: Check {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let variants = FactDescription("variation.variants", .list, "The labels of the variants compared.")
        static let minMB = FactDescription(
            "variation.minMB", .megabytes, "The smallest variant's footprint.", measure: true)
        static let maxMB = FactDescription(
            "variation.maxMB", .megabytes, "The largest variant's footprint.", measure: true)
        static let ratio = FactDescription(
            "variation.ratio", .ratio, "The largest variant's footprint divided by the smallest's.")
        static let sameInput = FactDescription(
            "variation.sameInput", .flag, "Whether every variant measured the same input size.")
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let structure = FindingCode(
            "structure-variation.structure", .warning,
            "Same input, different structure: the footprint differs by the threshold's multiple.",
            examples: [
                .raises("Fixtures/justsend/measurements-variation.json"),
                .quiet("Fixtures/justsend-fixed/measurements-variation.json"),
            ])
        static let inputsDiffer = FindingCode(
            "structure-variation.inputs-differ", .notice, "The variants differ, but so do their inputs.",
            examples: [
                .raises("Fixtures/examples/structure-variation.inputs-differ/raises"),
                .quiet("Fixtures/justsend/measurements-variation.json"),
            ])
        static let fixHolds = FindingCode(
            "structure-variation.fix-holds", .info, "The fix measures within tolerance of the best variant.",
            examples: [
                .raises("Fixtures/justsend/measurements-variation.json"),
                .quiet("Fixtures/examples/structure-variation.fix-short/raises"),
            ])
        static let fixShort = FindingCode(
            "structure-variation.fix-short", .warning, "The fix does not reach the best variant.",
            examples: [
                .raises("Fixtures/examples/structure-variation.fix-short/raises"),
                .quiet("Fixtures/justsend/measurements-variation.json"),
            ])
    }

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
            Fact.variants,
            Fact.minMB,
            Fact.maxMB,
            Fact.ratio,
            Fact.sameInput,
        ],
        codes: [
            Code.structure,
            Code.inputsDiffer,
            Code.fixHolds,
            Code.fixShort,
        ],
        parameters: [
            CheckParameter("min_ratio", default: 2.0, "Warn when the largest variant is this many times the smallest."),
            CheckParameter("fix_tolerance", default: 0.1, "A fix holds within this fraction of the best variant."),
        ]
    )

    /// The headline, the comparison of the extremes and the chart of every variant by its own name.
    static func present(
        _ output: inout CheckOutput, compared: [ReproSample], fixes: [ReproSample], largest: ReproSample,
        smallest: ReproSample, sameInput: Bool
    ) {
        let factor = largest.footprintMB / max(smallest.footprintMB, 0.001)
        output.headline(
            Fact.maxMB, "largest vs smallest variant",
            "\(largest.label) \(largest.footprintMB.megabytesValueText) vs \(smallest.label) \(smallest.footprintMB.megabytesValueText) "
                + "(×\(factor.oneDecimalText))")
        output.compare(
            Comparison(
                kind: .variation,
                label: sameInput ? "Structure variants, same input" : "Structure variants, inputs differ",
                unit: .megabytes, better: .lower,
                from: .init(
                    label: largest.label, value: largest.footprintMB, text: largest.footprintMB.megabytesValueText),
                to: .init(
                    label: smallest.label, value: smallest.footprintMB, text: smallest.footprintMB.megabytesValueText),
                change: "×" + factor.oneDecimalText))
        let points =
            compared.map { sample in
                Series.Point(
                    label: sample.label, value: sample.footprintMB, text: sample.footprintMB.megabytesValueText,
                    role: sample.label == largest.label ? .subject : sample.label == smallest.label ? .after : .plain)
            }
            + fixes.map {
                Series.Point(
                    label: $0.label, value: $0.footprintMB, text: $0.footprintMB.megabytesValueText, role: .after)
            }
        output.chart(
            Series(
                id: "structure-variants",
                title: sameInput ? "Structure variants side by side, same input" : "Structure variants side by side",
                caption: "Footprint of each variant" + (fixes.isEmpty ? "" : " and of each fix") + ", ×"
                    + factor.oneDecimalText + " from the largest to the smallest.",
                axis: "footprint (MB)", unit: .megabytes, points: points))
        if sameInput {
            output.strength(
                "Changing only the structure for the same input (\(largest.footprintMB.megabytesValueText) vs "
                    + "\(smallest.footprintMB.megabytesValueText)) isolated the variable.")
        }
    }

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
        output.record(Fact.variants, .array(compared.map { .string($0.label) }))
        output.record(Fact.minMB, .oneDecimal(smallest.footprintMB))
        output.record(Fact.maxMB, .oneDecimal(largest.footprintMB))
        output.record(Fact.ratio, .oneDecimal(factor))
        output.record(Fact.sameInput, .bool(sameInput))
        output.measurementEvents(rows, in: context)
        Self.present(
            &output, compared: compared, fixes: fixes, largest: largest, smallest: smallest, sameInput: sameInput)

        let minRatio = context.double("min_ratio")
        let scenario = compared[0].scenario.map { " in \($0)" } ?? ""
        if factor >= minRatio {
            output.emit(
                sameInput
                    ? Finding(
                        code: Code.structure.code,
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
                        code: Code.inputsDiffer.code,
                        severity: .notice,
                        title: "\(largest.text) vs \(smallest.text), but the inputs differ",
                        detail: "The variants\(scenario) were measured with different input sizes, so structure and "
                            + "size stay confounded.",
                        evidence: [largest.evidence, smallest.evidence],
                        next: .collect(
                            .measurements, "Measure every variant with the same input (input_bytes or input_lines).")))
        }
        let tolerance = context.double("fix_tolerance")
        for fix in fixes {
            let holds = fix.footprintMB <= smallest.footprintMB * (1 + tolerance)
            output.emit(
                Finding(
                    code: holds ? Code.fixHolds.code : Code.fixShort.code,
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
