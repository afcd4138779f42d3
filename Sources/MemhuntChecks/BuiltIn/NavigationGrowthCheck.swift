import MemhuntCore
import MemhuntFormats

/// Seed 001: memory that steps up on every visit to a screen instead of returning to a plateau.
struct NavigationGrowthCheck: MeasuringCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let visits = FactDescription("growth.visits", .count, "Visits of the screen measured.", better: .neutral)
        static let firstMB = FactDescription("growth.firstMB", .megabytes, "The footprint after the first visit.")
        static let lastMB = FactDescription("growth.lastMB", .megabytes, "The footprint after the last visit.")
        static let slopeMB = FactDescription(
            "growth.slopeMB", .megabytes, "The fitted growth per visit (MB per visit).")
        static let r2 = FactDescription(
            "growth.r2", .ratio, "How well a line fits the visits (R², 0–1).", better: .neutral)
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let stair = FindingCode(
            "navigation-growth.stair", .warning, "The footprint steps up on every visit along a straight line.",
            examples: [
                .raises(
                    "Fixtures/navigation-growth/measurements-faq-visits.csv",
                    facts: [Fact.visits.key: 4, Fact.firstMB.key: 82.4],
                    title: "Memory steps up 13.8 MB per visit over 4 visits"),
                .quiet(
                    "Fixtures/examples/navigation-growth.plateau/raises",
                    facts: [Fact.visits.key: 4, Fact.firstMB.key: 82.4]),
            ])
        static let plateau = FindingCode(
            "navigation-growth.plateau", .info, "The footprint returns to a plateau across visits.",
            examples: [
                .raises(
                    "Fixtures/examples/navigation-growth.plateau/raises",
                    facts: [Fact.visits.key: 4, Fact.firstMB.key: 82.4],
                    title: "No stair: 82.4 → 84.1 → 83 → 83.6 MB over 4 visits"),
                .quiet(
                    "Fixtures/navigation-growth/measurements-faq-visits.csv",
                    facts: [Fact.visits.key: 4, Fact.firstMB.key: 82.4]),
            ])
    }

    static let description = CheckDescription(
        id: "navigation-growth",
        title: "Growth per navigation",
        step: "navigation-growth",
        rationale: """
            A screen that reloads its data every time it appears steps memory up per visit (the Allocations \
            instrument shows a stair). A fit over repeated visits separates a stair (steady slope, R² near 1) \
            from a plateau.
            """,
        reads: [.measurements, .vmmapSummary, .footprint],
        facts: [
            Fact.visits,
            Fact.firstMB,
            Fact.lastMB,
            Fact.slopeMB,
            Fact.r2,
        ],
        codes: [
            Code.stair,
            Code.plateau,
        ],
        parameters: [
            CheckParameter(
                "min_slope_mb", default: 1.0, "Warn when the footprint grows at least this many MB per visit."),
            CheckParameter("min_r2", default: 0.9, "… with a fit at least this good."),
            CheckParameter("min_visits", default: 3, "Visits needed before judging."),
        ]
    )

    /// The footprint after each visit: the reproduction's readings (rows without a variant), in time order.
    struct Measurement {
        var visits: [ReproSample]
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        let visits = ReproSample.all(in: context).filter { $0.variant == nil }
        return visits.isEmpty ? nil : Measurement(visits: visits)
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        let visits = m.visits
        let first = visits.first!.footprintMB, last = visits.last!.footprintMB
        output.record(Fact.visits, .int(visits.count))
        output.record(Fact.firstMB, .oneDecimal(first))
        output.record(Fact.lastMB, .oneDecimal(last))
        output.measurementEvents(visits, in: context)
        output.headline(
            Fact.lastMB, "first → last visit",
            "\(FactValue.oneDecimal(first)) → \(last.megabytesValueText) over \(visits.count) visits")
        if visits.count >= 2 {
            output.compare(
                Comparison(
                    kind: .growth, label: "Footprint per visit, first → last", unit: .megabytes, better: .lower,
                    from: .init(label: "visit 1", value: first, text: first.megabytesValueText),
                    to: .init(label: "visit \(visits.count)", value: last, text: last.megabytesValueText)))
        }
        guard visits.count >= max(2, context.int("min_visits")) else { return }
        Self.stair(visits, minSlope: context.double("min_slope_mb"), minR2: context.double("min_r2"), to: &output)
    }

    /// The line fitted to the visits: its slope per visit, the chart, and a stair or a plateau.
    static func stair(_ visits: [ReproSample], minSlope: Double, minR2: Double, to output: inout CheckOutput) {
        let (slope, r2) = Self.fit(visits.map(\.footprintMB))
        let meanX = Double(visits.count + 1) / 2
        let meanY = visits.map(\.footprintMB).reduce(0, +) / Double(visits.count)
        output.headline(Fact.slopeMB, "per visit", "+" + slope.megabytesValueText + " per visit")
        output.presentation.comparisons[output.presentation.comparisons.count - 1].change =
            "+" + slope.megabytesValueText + "/visit"
        output.chart(
            Series(
                id: "navigation-growth", title: "Footprint per visit with its fitted line",
                caption: "\(visits.count) visits, +\(slope.megabytesValueText) per visit, R² \(format2(r2)).",
                style: .line, axis: "footprint (MB)", unit: .megabytes,
                points: visits.enumerated().map { index, visit in
                    Series.Point(
                        label: "visit \(index + 1)", value: visit.footprintMB,
                        text: visit.footprintMB.megabytesValueText)
                },
                fit: Series.Fit(slope: slope, intercept: meanY - slope * meanX, r2: (r2 * 100).rounded() / 100)))
        output.record(Fact.slopeMB, .oneDecimal(slope))
        output.record(Fact.r2, .double((r2 * 100).rounded() / 100))
        let series = visits.map { $0.footprintMB.oneDecimalText }.joined(separator: " → ")
        if slope >= minSlope, r2 >= minR2 {
            output.emit(
                Code.stair, title: "Memory steps up \(slope.oneDecimalText) MB per visit over \(visits.count) visits",
                detail: Words.stair(series, slope: slope, r2: r2, minSlope: minSlope, minR2: minR2),
                evidence: [visits.first!.evidence, visits.last!.evidence], next: .change(Words.loadOnce))
        } else {
            output.emit(
                Code.plateau, title: "No stair: \(series) MB over \(visits.count) visits",
                detail:
                    "Slope \(slope.oneDecimalText) MB per visit, R² \(format2(r2)): the footprint returns to a plateau.",
                evidence: [visits.last!.evidence])
        }
    }

    /// Least-squares slope per visit and R² of footprints against visit numbers 1…n.
    static func fit(_ values: [Double]) -> (slope: Double, r2: Double) {
        let n = Double(values.count)
        let xs = (1...values.count).map(Double.init)
        let meanX = xs.reduce(0, +) / n, meanY = values.reduce(0, +) / n
        let sxy = zip(xs, values).reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
        let sxx = xs.reduce(0) { $0 + ($1 - meanX) * ($1 - meanX) }
        let syy = values.reduce(0) { $0 + ($1 - meanY) * ($1 - meanY) }
        guard sxx > 0 else { return (0, 0) }
        let slope = sxy / sxx
        return (slope, syy > 0 ? (sxy * sxy) / (sxx * syy) : 1)
    }
}

/// "0.99".
func format2(_ value: Double) -> String {
    let hundredths = Int(saturating: value * 100)
    return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
}

/// Every sentence the check says.
extension NavigationGrowthCheck {
    enum Words {
        static let loadOnce =
            "Load once into a shared store (an environment object) instead of in the view's initial state; confirm "
            + "with the Allocations instrument's generations."

        static func stair(_ series: String, slope: Double, r2: Double, minSlope: Double, minR2: Double) -> String {
            "Footprint \(series) MB: +\(slope.oneDecimalText) MB per visit, R² \(format2(r2)) (thresholds "
                + "\(minSlope.oneDecimalText) MB, R² \(format2(minR2))). It does not return to a plateau: something is "
                + "loaded again on every appearance and kept."
        }
    }
}
