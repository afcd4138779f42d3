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
            "growth.slopeMB", .megabytes, "The fitted growth per visit (MB per visit).",
            verifies: .growthPerRepetition)
        static let r2 = FactDescription(
            "growth.r2", .ratio, "How well a line fits the visits (R², 0–1).", better: .neutral)
        static let shape = FactDescription(
            "growth.shape", .text,
            "The visits' shape: linear (about the same per visit), step (one rise, then flat), transient (back to "
                + "the first visit's level), flat or uneven.", verifies: .growthShape)
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
        static let step = FindingCode(
            "navigation-growth.step", .notice,
            "The footprint rises once, then stays at its new level across visits: something filled once.",
            examples: [
                .raises(
                    "Fixtures/examples/navigation-growth.step/raises", facts: [Fact.visits.key: 5],
                    title: "One step of 16 MB after visit 1, then flat over 4 visits"),
                .quiet("Fixtures/navigation-growth/measurements-faq-visits.csv", facts: [Fact.visits.key: 4]),
            ])
        static let transient = FindingCode(
            "navigation-growth.transient", .info,
            "The footprint rises across visits, then returns to the first visit's level.",
            examples: [
                .raises(
                    "Fixtures/examples/navigation-growth.transient/raises", facts: [Fact.visits.key: 4],
                    title: "Transient: up 26.2 MB by visit 3, back to 71.6 MB by visit 4"),
                .quiet("Fixtures/navigation-growth/measurements-faq-visits.csv", facts: [Fact.visits.key: 4]),
            ])
        static let uneven = FindingCode(
            "navigation-growth.uneven", .notice,
            "The footprint grows across visits, but along no line and in no single step.",
            examples: [
                .raises(
                    "Fixtures/examples/navigation-growth.uneven/raises", facts: [Fact.visits.key: 5],
                    title: "Memory grows 62 MB over 5 visits, unevenly: 90 → 118 → 119 → 120 → 152 MB"),
                .quiet("Fixtures/navigation-growth/measurements-faq-visits.csv", facts: [Fact.visits.key: 4]),
            ])
    }

    static let description = CheckDescription(
        id: "navigation-growth",
        title: "Growth per navigation",
        step: "navigation-growth",
        rationale: """
            A screen that reloads its data every time it appears steps memory up per visit (the Allocations \
            instrument shows a stair). A fit over repeated visits separates a stair (steady slope, R² near 1) \
            from one step (a cache filled once), a rise that comes back (transient) and a plateau.
            """,
        reads: [.measurements, .vmmapSummary, .footprint],
        facts: [
            Fact.visits,
            Fact.firstMB,
            Fact.lastMB,
            Fact.slopeMB,
            Fact.r2,
            Fact.shape,
        ],
        codes: [
            Code.stair,
            Code.plateau,
            Code.step,
            Code.transient,
            Code.uneven,
        ],
        parameters: [
            CheckParameter(
                "min_slope_mb", default: 1.0, "Warn when the footprint grows at least this many MB per visit."),
            CheckParameter("min_r2", default: 0.9, "… with a fit at least this good."),
            CheckParameter(
                "min_visits", default: 3, "Visits needed before judging (three at least: two always fit a line)."),
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
        guard visits.count >= max(3, context.int("min_visits")) else { return }
        Self.shape(visits, minSlope: context.double("min_slope_mb"), minR2: context.double("min_r2"), to: &output)
    }

    /// The visits' shape with its fitted line: a stair, one step, a transient rise, a plateau or uneven growth.
    static func shape(_ visits: [ReproSample], minSlope: Double, minR2: Double, to output: inout CheckOutput) {
        let values = visits.map(\.footprintMB)
        guard let shape = GrowthShape.of(values, least: minSlope, minR2: minR2) else { return }
        let (slope, r2) = (shape.slope, shape.r2)
        let meanX = Double(visits.count + 1) / 2
        let meanY = values.reduce(0, +) / Double(visits.count)
        output.headline(Fact.slopeMB, "per visit", (slope >= 0 ? "+" : "") + slope.megabytesValueText + " per visit")
        output.presentation.comparisons[output.presentation.comparisons.count - 1].change =
            (slope >= 0 ? "+" : "") + slope.megabytesValueText + "/visit"
        output.chart(
            Series(
                id: "navigation-growth", title: "Footprint per visit with its fitted line",
                caption: "\(visits.count) visits, \(slope >= 0 ? "+" : "")\(slope.megabytesValueText) per visit, "
                    + "R² \(format2(r2)).",
                style: .line, axis: "footprint (MB)", unit: .megabytes,
                points: visits.enumerated().map { index, visit in
                    Series.Point(
                        label: "visit \(index + 1)", value: visit.footprintMB,
                        text: visit.footprintMB.megabytesValueText)
                },
                fit: Series.Fit(slope: slope, intercept: meanY - slope * meanX, r2: (r2 * 100).rounded() / 100)))
        output.record(Fact.slopeMB, .oneDecimal(slope))
        output.record(Fact.r2, .double((r2 * 100).rounded() / 100))
        output.record(Fact.shape, .string(shape.kind.rawValue))
        let series = values.map(\.oneDecimalText).joined(separator: " → ")
        let (first, last) = (visits.first!.evidence, visits.last!.evidence)
        switch shape.kind {
        case .linear:
            output.emit(
                Code.stair, title: "Memory steps up \(slope.oneDecimalText) MB per visit over \(visits.count) visits",
                detail: Words.stair(series, slope: slope, r2: r2, minSlope: minSlope, minR2: minR2),
                evidence: [first, last], next: .change(Words.loadOnce))
        case .step:
            let at = shape.stepAfter!
            output.emit(
                Code.step,
                title:
                    "One step of \((values[at...].reduce(0, +) / Double(values.count - at) - values[..<at].reduce(0, +) / Double(at)).oneDecimalText) MB after visit \(at), then flat over \(values.count - at) visits",
                detail: Words.step(
                    series, at: at, level: values[at...].reduce(0, +) / Double(values.count - at),
                    range: values[at...].min()!...values[at...].max()!),
                evidence: [visits[at - 1].evidence, visits[at].evidence, last])
        case .transient:
            let top = values.firstIndex(of: values.max()!)!
            output.emit(
                Code.transient,
                title:
                    "Transient: up \(shape.peak.oneDecimalText) MB by visit \(top + 1), back to \(values.last!.oneDecimalText) MB by visit \(values.count)",
                detail: Words.transient(series, minSlope: minSlope), evidence: [visits[top].evidence, last])
        case .flat:
            output.emit(
                Code.plateau, title: "No stair: \(series) MB over \(visits.count) visits",
                detail: Words.plateau(slope: slope, r2: r2, minSlope: minSlope), evidence: [last])
        case .uneven:
            output.emit(
                Code.uneven,
                title:
                    "Memory \(shape.rise >= 0 ? "grows" : "falls") \(abs(shape.rise).oneDecimalText) MB over \(visits.count) visits, unevenly: \(series) MB",
                detail: Words.uneven(series, slope: slope, r2: r2, minR2: minR2), evidence: [first, last])
        }
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
                + "loaded again on every appearance and kept. The footprint cannot tell leaked memory from memory "
                + "still reachable and never used again (abandoned): heap reports after each visit name the class "
                + "that grows, and a leaks report whether it is reachable."
        }

        static func step(_ series: String, at: Int, level: Double, range: ClosedRange<Double>) -> String {
            "Footprint \(series) MB: one rise after visit \(at), then about \(level.oneDecimalText) MB "
                + "(\(range.lowerBound.oneDecimalText)–\(range.upperBound.oneDecimalText) MB) on every later visit. Something is filled once and kept (a cache warmed by the first visits), not loaded again "
                + "per visit. Whether that level is acceptable is a budget question; more visits would show a "
                + "second step if the cache has no bound."
        }

        static func transient(_ series: String, minSlope: Double) -> String {
            "Footprint \(series) MB: it rose and came back to within \(minSlope.oneDecimalText) MB of the first "
                + "visit. What the visits made was released; nothing here is kept per visit."
        }

        static func plateau(slope: Double, r2: Double, minSlope: Double) -> String {
            "Slope \(slope.oneDecimalText) MB per visit, R² \(format2(r2)); every visit within "
                + "\(minSlope.oneDecimalText) MB of the middle of the readings: the footprint holds a plateau."
        }

        static func uneven(_ series: String, slope: Double, r2: Double, minR2: Double) -> String {
            "Footprint \(series) MB: \(slope >= 0 ? "+" : "")\(slope.oneDecimalText) MB per visit on average, but "
                + "a line fits with R² \(format2(r2)) (under \(format2(minR2))) and no single step explains it. The "
                + "visits may differ in what they load; more visits of one exact gesture would tell a stair from noise."
        }
    }
}
