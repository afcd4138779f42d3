import MemhuntCore
import MemhuntFormats

/// Step 7: the same input in different structures. Which variable matters?
struct StructureVariationCheck: MeasuringCheck {
    /// The headline, the comparison of the extremes and the chart of every variant by its own name.
    static func present(
        _ output: inout CheckOutput, compared: [ReproSample], fixes: [ReproSample], largest: ReproSample,
        smallest: ReproSample, sameInput: Bool, of count: Int
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
                caption: (compared.count < count
                    ? "Footprint of \(compared.count) of the \(FactValue.grouped(count)) variants (the first and the "
                        + "extremes)" : "Footprint of each variant")
                    + (fixes.isEmpty ? "" : " and of each fix") + ", ×"
                    + factor.oneDecimalText + " from the largest to the smallest.",
                axis: "footprint (MB)", unit: .megabytes, points: points))
        if sameInput {
            output.strength(
                "Changing only the structure for the same input (\(largest.footprintMB.megabytesValueText) vs "
                    + "\(smallest.footprintMB.megabytesValueText)) isolated the variable.")
        }
    }

    static let shownRows = ReproSample.shownRows

    /// `rows` when they are few; else the first `shownRows - 2` in file order and the largest and smallest.
    static func shown(_ rows: [ReproSample], largest: ReproSample, smallest: ReproSample) -> [ReproSample] {
        guard rows.count > shownRows else { return rows }
        var kept = Array(rows.prefix(shownRows - 2))
        for extreme in [largest, smallest] where !kept.contains(where: { $0.label == extreme.label }) {
            kept.append(extreme)
        }
        return kept
    }

    /// A row whose label says it was measured after a fix.
    static func isFix(_ sample: ReproSample) -> Bool {
        let label = sample.label.lowercased()
        return label.contains("fix") || label.contains("after")
    }

    /// The scenario where structure matters most: its variants and fixes, the extremes, and whether the variants
    /// had one input; one row of each file of variants, for the files' events.
    struct Measurement {
        var compared: [ReproSample]
        var fixes: [ReproSample]
        var smallest: ReproSample
        var largest: ReproSample
        var sameInput: Bool
        var firstOfFiles: [ReproSample]
        var factor: Double { largest.footprintMB / max(smallest.footprintMB, 0.001) }
        /// What a list names: every variant, or the first and the extremes of many.
        var shown: [ReproSample] { StructureVariationCheck.shown(compared, largest: largest, smallest: smallest) }
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        let all = ReproSample.all(in: context)
        // Each scenario's rows by their index, variants and fixes apart: a file may hold 100,000 rows, and a copy of
        // them per grouping and filter was most of a run's memory.
        var scenarios: [String: (compared: [Int], fixes: [Int])] = [:]
        for (index, row) in all.enumerated() where row.variant != nil {
            if Self.isFix(row) {
                scenarios[row.scenario ?? "", default: ([], [])].fixes.append(index)
            } else {
                scenarios[row.scenario ?? "", default: ([], [])].compared.append(index)
            }
        }
        func ratio(_ indices: [Int]) -> Double {
            let values = indices.lazy.map { all[$0].footprintMB }
            return (values.max() ?? 0) / max(values.min() ?? 1, 0.001)
        }
        // With several scenarios, speak about the one where structure matters most.
        guard
            let chosen = scenarios.values.filter({ $0.compared.count >= 2 }).max(by: {
                ratio($0.compared) < ratio($1.compared)
            })
        else { return nil }
        let compared = chosen.compared.map { all[$0] }
        let inputs = Set(
            compared.map { "\($0.inputBytes.map(String.init) ?? "?")/\($0.inputLines.map(String.init) ?? "?")" })
        var seen = Set<String>()
        return Measurement(
            compared: compared, fixes: chosen.fixes.map { all[$0] },
            smallest: compared.min { $0.footprintMB < $1.footprintMB }!,
            largest: compared.max { $0.footprintMB < $1.footprintMB }!,
            sameInput: inputs.count == 1 && (compared[0].inputBytes != nil || compared[0].inputLines != nil),
            firstOfFiles: all.filter { $0.variant != nil && seen.insert($0.source).inserted })
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        let shown = m.shown
        output.record(Fact.variants, .array(shown.map { .string($0.label) }))
        output.record(Fact.minMB, .oneDecimal(m.smallest.footprintMB))
        output.record(Fact.maxMB, .oneDecimal(m.largest.footprintMB))
        output.record(Fact.ratio, .oneDecimal(m.factor))
        output.record(Fact.sameInput, .bool(m.sameInput))
        output.measurementEvents(m.firstOfFiles, in: context)
        Self.present(
            &output, compared: shown, fixes: Array(m.fixes.prefix(Self.shownRows)), largest: m.largest,
            smallest: m.smallest, sameInput: m.sameInput, of: m.compared.count)
        let minRatio = context.double("min_ratio")
        if m.factor >= minRatio {
            let evidence = [m.largest.evidence, m.smallest.evidence]
            if m.sameInput {
                output.emit(
                    Code.structure, title: "Structure is the variable: \(m.largest.text) vs \(m.smallest.text)",
                    detail: Words.structure(m, minRatio: minRatio), evidence: evidence,
                    next: .change(Words.changeTheStructure))
            } else {
                output.emit(
                    Code.inputsDiffer, title: "\(m.largest.text) vs \(m.smallest.text), but the inputs differ",
                    detail: Words.inputsDiffer(m), evidence: evidence, next: .collect(.measurements, Words.sameInput))
            }
        }
        let tolerance = context.double("fix_tolerance")
        for fix in m.fixes.prefix(Self.shownRows) {
            let holds = fix.footprintMB <= m.smallest.footprintMB * (1 + tolerance)
            output.emit(
                holds ? Code.fixHolds : Code.fixShort, severity: holds ? .info : .warning,
                title: Words.fixTitle(fix, m.smallest, holds: holds),
                detail: Words.fix(fix, m.smallest, tolerance: tolerance),
                evidence: [fix.evidence, m.smallest.evidence],
                next: .change(holds ? Words.leaveTheNumbers : Words.somethingElse))
        }
    }
}

/// Every sentence the check says.
extension StructureVariationCheck {
    enum Words {
        static let changeTheStructure =
            "Change the structure that materializes everything at once; leave the data alone."
        static let sameInput = "Measure every variant with the same input (input_bytes or input_lines)."
        static let leaveTheNumbers = "Leave the measured numbers in a comment beside the fix, so nobody undoes it."
        static let somethingElse = "Something else still materializes: compare layer counts before and after."

        static func scenario(_ m: Measurement) -> String { m.compared[0].scenario.map { " in \($0)" } ?? "" }

        static func structure(_ m: Measurement, minRatio: Double) -> String {
            let shown = m.shown
            return "Same input (\(m.compared[0].inputText ?? "same size"))\(scenario(m)), only the structure changed: "
                + "\(m.largest.text) vs \(m.smallest.text), ×\(m.factor.oneDecimalText) (threshold "
                + "×\(minRatio.oneDecimalText)). Variants"
                + (shown.count < m.compared.count ? " (\(shown.count) of \(FactValue.grouped(m.compared.count)))" : "")
                + ": " + shown.map(\.text).joined(separator: ", ") + "."
        }

        static func inputsDiffer(_ m: Measurement) -> String {
            "The variants\(scenario(m)) were measured with different input sizes, so structure and size stay "
                + "confounded."
        }

        static func fixTitle(_ fix: ReproSample, _ smallest: ReproSample, holds: Bool) -> String {
            holds
                ? "The fix holds: \(fix.text) vs \(smallest.text)"
                : "The fix does not reach the best variant: \(fix.text) vs \(smallest.text)"
        }

        static func fix(_ fix: ReproSample, _ smallest: ReproSample, tolerance: Double) -> String {
            "\(fix.label) measured \(fix.footprintMB.oneDecimalText) MB; the best variant \(smallest.label) measured "
                + "\(smallest.footprintMB.oneDecimalText) MB (tolerance \(Int(saturating: tolerance * 100)) %)."
        }
    }
}
