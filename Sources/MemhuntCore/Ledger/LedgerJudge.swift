/// Judges a ledger's entries over the evidence of each side: pure, so that the rules are tested without
/// artifacts, and the same for `run --ledger`, `ledger judge` and every reporter.
///
/// The rules, in the order they apply to an experiment or a bisection's try:
/// - a side with a problem (an artifact missing, unread or of another app), a measure not recorded, sides
///   that state different conditions the variable does not vary, or a baseline without the symptom:
///   `inconclusive`, each reason named;
/// - the measure moved past the margin the wrong way: `worse`;
/// - it moved the right way and the symptom is gone from the variant: `cause`; it stayed: `amplifier`;
/// - no move past the margin and the symptom stayed: `ruled-out`.
///
/// A symptom is gone only when every repeated value of its measure is on the good side of its threshold,
/// there only when every one is on the bad side: values on both sides say neither.
public struct LedgerJudge: Sendable {
    /// Fact descriptions by key, for units and directions.
    public var facts: [String: FactDescription]

    public init(knownChecks: [CheckDescription]) {
        var facts: [String: FactDescription] = [:]
        for check in knownChecks { for fact in check.facts where facts[fact.key] == nil { facts[fact.key] = fact } }
        self.facts = facts
    }

    /// The facts whose repeated values set a margin, with the reading each reports.
    public var readings: [String: RepeatedReading] {
        facts.compactMapValues(\.repeatedAs)
    }

    /// The facts a ledger's measures, conditions and `also` lists name: all a side needs to keep.
    public static func neededFacts(_ ledger: Ledger) -> Set<String> {
        var keys: Set<String> = []
        func add(_ measure: LedgerMeasure?) { if case .fact(let key, _)? = measure { keys.insert(key) } }
        for symptom in ledger.symptoms { add(symptom.shows?.measure) }
        for counter in ledger.counterEvidence { add(counter.shows?.measure) }
        for comparand in ledger.experiments.map(\.comparand) + ledger.fixes.map(\.comparand) {
            add(comparand.measure)
            keys.formUnion(comparand.also)
        }
        for bisection in ledger.bisections { add(bisection.measure) }
        return keys
    }

    /// Every side a ledger's entries name, once each, in the order they appear: what a caller must read.
    public static func sides(of ledger: Ledger) -> [LedgerSide] {
        var seen: Set<String> = []
        var result: [LedgerSide] = []
        func add(_ side: LedgerSide?) {
            guard let side, seen.insert(side.key).inserted else { return }
            result.append(side)
        }
        for experiment in ledger.experiments {
            add(experiment.baseline)
            add(experiment.variant)
        }
        for bisection in ledger.bisections {
            add(bisection.baseline)
            for attempt in bisection.tries { add(attempt.variant) }
        }
        for counter in ledger.counterEvidence { add(LedgerSide(artifacts: counter.artifacts)) }
        for fix in ledger.fixes {
            add(fix.baseline)
            add(fix.variant)
            add(fix.equals)
        }
        return result
    }

    /// The ledger judged; `evidence` gives what each side showed (keyed by `LedgerSide.key`).
    public func judge(_ ledger: Ledger, evidence: [String: SideEvidence]) -> LedgerJudgement {
        func read(_ side: LedgerSide) -> SideEvidence {
            evidence[side.key] ?? .unavailable(side, ["its artifacts were not read"])
        }
        let experiments = ledger.experiments.map { experiment in
            compare(
                id: experiment.id, kind: .experiment, hypothesis: experiment.tests,
                symptom: ledger.symptom(experiment.symptom ?? hypothesisSymptom(ledger, experiment.tests)),
                comparand: experiment.comparand, baseline: (experiment.baseline, read(experiment.baseline)),
                variant: (experiment.variant, read(experiment.variant)), location: experiment.location)
        }
        let bisections = ledger.bisections.map { bisect($0, ledger: ledger, read: read) }
        let counters = ledger.counterEvidence.map { counter($0, read(LedgerSide(artifacts: $0.artifacts))) }
        let fixes = ledger.fixes.map { fix($0, ledger: ledger, read: read) }
        let hypotheses = ledger.hypotheses.map { hypothesis in
            status(of: hypothesis, experiments: experiments, bisections: bisections, counters: counters, fixes: fixes)
        }
        return LedgerJudgement(
            origin: ledger.origin, subject: ledger.subject,
            symptoms: ledger.symptoms.map { symptom in
                SymptomRecord(
                    id: symptom.id, words: symptom.words, means: symptom.means,
                    shows: symptom.shows.map(describe))
            },
            hypotheses: hypotheses, experiments: experiments, bisections: bisections, counterEvidence: counters,
            fixes: fixes)
    }

    func hypothesisSymptom(_ ledger: Ledger, _ id: String?) -> String? {
        ledger.hypotheses.first { $0.id == id }?.symptom
    }

    // MARK: - Reading a measure

    /// A measure's unit and better direction; map entries take their unit from the map's name.
    func unit(of measure: LedgerMeasure) -> (unit: FactUnit, better: Better) {
        switch measure {
        case .verdict: return (.flag, .lower)
        case .fact(let key, nil):
            let fact = facts[key]
            return (fact?.unit ?? .number, fact?.better ?? .neutral)
        case .fact(let key, _?):
            if key.hasSuffix("MB") { return (.megabytes, .lower) }
            if key.hasSuffix("Bytes") || key.hasSuffix("bytes") { return (.bytes, .lower) }
            return (.count, .lower)
        }
    }

    /// The values of a measure on a side: the repeated ones when taken several times, else the one recorded.
    func values(_ measure: LedgerMeasure, on side: SideEvidence) -> [Double]? {
        switch measure {
        case .verdict(let code): return [side.codes.contains(code) ? 1 : 0]
        case .fact(let key, nil):
            if let repeated = side.repeats[key], repeated.count >= 2 { return repeated }
            return side.facts[key]?.doubleValue.map { [$0] }
        case .fact(let key, let entry?):
            guard case .object(let map)? = side.facts[key], let value = map[entry]?.doubleValue else { return nil }
            return [value]
        }
    }

    func format(_ value: Double, _ measure: LedgerMeasure) -> String {
        if case .verdict = measure { return value > 0 ? "present" : "absent" }
        let (unit, _) = unit(of: measure)
        let rounded = FactValue.oneDecimal(value)
        if unit == .count, value == value.rounded(), abs(value) < 9e15 {
            return FactValue.grouped(Int(value))
        }
        return unit.format(rounded.intValue.map(FactValue.int) ?? rounded)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// `repro.peakMB above 300 MB`.
    func describe(_ condition: Condition) -> String {
        switch condition.test {
        case .present: return "\(condition.measure.name) present"
        case .above(let bound): return "\(condition.measure.name) above \(format(bound, condition.measure))"
        case .below(let bound): return "\(condition.measure.name) below \(format(bound, condition.measure))"
        }
    }

    /// Whether a side shows the symptom: true when every value is on its bad side, false when every one is
    /// on its good side, nil when the side cannot say (not recorded, or values on both sides).
    func shows(_ condition: Condition, on side: SideEvidence) -> (shows: Bool?, shown: String?) {
        guard let values = values(condition.measure, on: side) else { return (nil, nil) }
        let bad = values.map { value -> Bool in
            switch condition.test {
            case .present: value > 0
            case .above(let bound): value > bound
            case .below(let bound): value < bound
            }
        }
        let shown = values.count == 1 ? format(values[0], condition.measure) : range(values, condition.measure)
        if bad.allSatisfy({ $0 }) { return (true, shown) }
        if bad.allSatisfy({ !$0 }) { return (false, shown) }
        return (nil, shown)
    }

    func range(_ values: [Double], _ measure: LedgerMeasure) -> String {
        "\(format(values.min() ?? 0, measure))–\(format(values.max() ?? 0, measure)) over \(values.count) runs"
    }

    // MARK: - Margin

    /// The margin a move must pass: the ledger's, else the widest spread of repeated values, else the unit's
    /// default.
    func margin(
        _ declared: Margin?, _ measure: LedgerMeasure, reference: Double, repeated: [[Double]]
    ) -> MarginReading? {
        if case .verdict = measure { return nil }
        let (unit, _) = unit(of: measure)
        switch declared {
        case .absolute(let amount)?:
            return MarginReading(
                value: amount, source: .declared, text: "\(format(amount, measure)) (the ledger's margin)")
        case .percent(let share)?:
            let amount = abs(reference) * share / 100
            return MarginReading(
                value: amount, source: .declared,
                text:
                    "\(format(amount, measure)) (the ledger's \(Self.number(share)) % of \(format(reference, measure)))"
            )
        case nil: break
        }
        let spreads = repeated.filter { $0.count >= 2 }
        if let widest = spreads.map({ ($0.max() ?? 0) - ($0.min() ?? 0) }).max(), widest > 0 {
            let runs = spreads.map(\.count).reduce(0, +)
            return MarginReading(
                value: widest, source: .repeated,
                text: "\(format(widest, measure)) (the widest spread of \(runs) repeated runs)")
        }
        let amount: Double
        let rule: String
        switch unit {
        case .megabytes:
            amount = max(abs(reference) * 0.05, 1)
            rule = "5 % of \(format(reference, measure)), at least 1 MB, the default for MB"
        case .percent:
            return MarginReading(value: 5, source: .default, text: "5 points (the default for a percentage)")
        case .count:
            amount = max((abs(reference) * 0.1).rounded(.up), 1)
            rule = "10 % of \(format(reference, measure)), at least 1, the default for a count"
        default:
            amount = abs(reference) * 0.05
            rule = "5 % of \(format(reference, measure)), the default for \(unit.rawValue)"
        }
        return MarginReading(value: amount, source: .default, text: "\(format(amount, measure)) (\(rule))")
    }

    static func number(_ value: Double) -> String {
        let rounded = FactValue.oneDecimal(value)
        return (rounded.intValue.map(FactValue.int) ?? rounded).description
    }

    // MARK: - Comparing two sides

    typealias Read = (side: LedgerSide, evidence: SideEvidence)

    func reading(_ read: Read, _ measure: LedgerMeasure, _ symptom: LedgerSymptom?) -> SideReading {
        let values = values(measure, on: read.evidence)
        let value = values.map(Self.median)
        var shown = value.map { format($0, measure) }
        if let values, values.count >= 2, let text = shown {
            shown = "\(text) (median of \(range(values, measure)))"
        }
        let symptomReading = symptom?.shows.map { shows($0, on: read.evidence) }
        return SideReading(
            artifacts: read.side.artifacts, label: read.side.label, value: value, shown: shown,
            values: (values?.count ?? 0) >= 2 ? values : nil, symptom: symptomReading?.shows,
            symptomShown: symptomReading?.shown, problems: read.evidence.problems)
    }

    /// The reasons two sides cannot be compared: what kept an artifact out, and conditions that differ.
    func blockers(_ sides: [(String, Read)], varies: [SideCondition]) -> [String] {
        var reasons: [String] = []
        for (name, read) in sides {
            reasons += read.evidence.problems.map { "\(name): \($0)" }
        }
        guard sides.count >= 2 else { return reasons }
        let (firstName, first) = sides[0]
        for (name, other) in sides.dropFirst() {
            for condition in SideCondition.allCases where !varies.contains(condition) {
                guard let a = first.evidence.conditions[condition], let b = other.evidence.conditions[condition],
                    a != b
                else { continue }
                reasons.append("the \(firstName) and the \(name) differ in \(condition.words) too (\(a) vs \(b))")
            }
        }
        return reasons
    }

    func also(_ comparand: Comparand, _ baseline: SideEvidence?, _ variant: SideEvidence) -> [AlsoReading] {
        comparand.also.map { key in
            let measure = LedgerMeasure.fact(key, key: nil)
            func shown(_ side: SideEvidence?) -> String? {
                side.flatMap { values(measure, on: $0) }.map { format(Self.median($0), measure) }
            }
            return AlsoReading(fact: key, baseline: shown(baseline), variant: shown(variant))
        }
    }

    /// One experiment or bisection try judged.
    func compare(
        id: String, kind: ComparisonJudgement.Kind, hypothesis: String?, symptom: LedgerSymptom?,
        comparand: Comparand, baseline: Read, variant: Read, location: SourceLocation?
    ) -> ComparisonJudgement {
        let measure = comparand.measure ?? symptom?.shows?.measure
        let measureName = measure?.name ?? "no measure"
        var judgement = ComparisonJudgement(
            id: id, kind: kind, hypothesis: hypothesis, variable: comparand.variable, measure: measureName,
            verdict: .inconclusive, sentence: "",
            baseline: measure.map { reading(baseline, $0, symptom) },
            variant: measure.map { reading(variant, $0, symptom) }
                ?? SideReading(
                    artifacts: variant.side.artifacts, label: variant.side.label, problems: variant.evidence.problems),
            reasons: [], also: also(comparand, baseline.evidence, variant.evidence), location: location?.description)
        var reasons = blockers([("baseline", baseline), ("variant", variant)], varies: comparand.varies)
        guard let measure, let base = judgement.baseline else {
            reasons.append("no measure decides: the entry names none and its symptom has no 'shows'")
            return finish(judgement, .inconclusive, reasons: reasons)
        }
        let after = judgement.variant
        if base.value == nil { reasons.append("the baseline records no \(measureName)") }
        if after.value == nil { reasons.append("the variant records no \(measureName)") }
        if let condition = symptom?.shows {
            switch base.symptom {
            case false?:
                reasons.append(
                    "the baseline does not show the symptom (\(base.symptomShown ?? "?"); it is \(describe(condition)))"
                )
            case nil where base.symptomShown != nil:
                reasons.append(
                    "the baseline's runs fall on both sides of the symptom's threshold (\(base.symptomShown!))")
            case nil: reasons.append("the baseline records no \(condition.measure.name), so it cannot show the symptom")
            default: break
            }
        }
        guard reasons.isEmpty, let from = base.value, let to = after.value else {
            return finish(judgement, .inconclusive, reasons: reasons)
        }
        let margin = margin(
            comparand.margin, measure, reference: from,
            repeated: [base.values ?? [], after.values ?? []])
        judgement.margin = margin
        let direction = comparand.expect ?? unit(of: measure).better
        let delta = to - from
        let moved = abs(delta) > (margin?.value ?? 0)
        let improved = direction == .higher ? delta > 0 : delta < 0
        let move = "\(measureName) \(base.shown ?? "?") → \(after.shown ?? "?")"
        let within = margin.map { ", margin \($0.text)" } ?? ""
        if moved, !improved, direction != .neutral {
            return finish(judgement, .worse, sentence: "\(comparand.variable) made it worse: \(move)\(within)")
        }
        guard let condition = symptom?.shows else {
            return finish(
                judgement, .inconclusive,
                reasons: ["the symptom has no 'shows': what the variant shows of it cannot be read (\(move))"])
        }
        switch (moved, after.symptom) {
        case (true, false?):
            return finish(
                judgement, .cause,
                sentence: "\(comparand.variable) removes the symptom: \(move)\(within); "
                    + "the variant is no longer \(describe(condition)) (\(after.symptomShown ?? "?"))")
        case (true, true?):
            return finish(
                judgement, .amplifier,
                sentence: "\(comparand.variable) moves the measure but the symptom stays: \(move)\(within); "
                    + "still \(describe(condition)) (\(after.symptomShown ?? "?"))")
        case (false, true?):
            return finish(
                judgement, .ruledOut,
                sentence: "\(comparand.variable) changes nothing past the margin and the symptom stays: "
                    + "\(move)\(within)")
        case (false, false?):
            return finish(
                judgement, .inconclusive,
                reasons: [
                    "the symptom is gone (\(after.symptomShown ?? "?")) but \(measureName) did not move past the margin "
                        + "(\(move)\(within)): measure it again, or decide by the symptom's own measure"
                ])
        case (_, nil):
            return finish(
                judgement, .inconclusive,
                reasons: [
                    after.symptomShown == nil
                        ? "the variant records no \(condition.measure.name), so it cannot say whether the symptom stays"
                        : "the variant's runs fall on both sides of the symptom's threshold (\(after.symptomShown!))"
                ])
        }
    }

    func finish(
        _ judgement: ComparisonJudgement, _ verdict: LedgerVerdict, sentence: String? = nil, reasons: [String] = []
    ) -> ComparisonJudgement {
        var judgement = judgement
        judgement.verdict = verdict
        judgement.reasons = reasons
        judgement.sentence =
            sentence
            ?? "\(judgement.variable): inconclusive, "
            + (reasons.isEmpty ? "nothing decides" : reasons.joined(separator: "; "))
        return judgement
    }

    // MARK: - Fix

    /// A fix judged by its measure and, where the broken and fixed sides both read what a fix is verified by
    /// (leak patterns, classes growing between heaps, growth per visit, tests over a ceiling), by the
    /// verify-fix verdict too: it decides a fix that names no measure, and a fix whose measure moved cannot be
    /// said to hold while what it was to remove is still there or new.
    func fix(_ fix: Fix, ledger: Ledger, read: (LedgerSide) -> SideEvidence) -> ComparisonJudgement {
        let judged = measured(fix, ledger: ledger, read: read)
        guard let broken = fix.baseline.map(read) else { return judged }
        let fixed = read(fix.variant)
        let verified = VerifyFix(
            before: broken.facts, after: fixed.facts,
            keys: broken.verifies.merging(fixed.verifies) { first, _ in first })
        guard let overall = verified.overall else { return judged }
        let rows = verified.rows.filter { !$0.expectedAlive }.sorted { $0.grade > $1.grade }.prefix(3)
        let said = "verify-fix \(overall.word): " + rows.map { "\($0.key) \($0.text)" }.joined(separator: "; ")
        if judged.verdict == .inconclusive, judged.measure == "no measure" {
            return finish(
                judged, overall == .pass ? .fixHolds : .fixFails,
                sentence: "\(fix.comparand.variable): the fix \(overall == .pass ? "holds" : "does not hold"), \(said)")
        }
        guard judged.verdict == .fixHolds, overall >= .partial else { return judged }
        return finish(
            judged, .fixFails,
            sentence: "\(fix.comparand.variable): the measure moved, but what the fix was to remove is not gone: "
                + said)
    }

    func measured(_ fix: Fix, ledger: Ledger, read: (LedgerSide) -> SideEvidence) -> ComparisonJudgement {
        let symptom = ledger.symptom(fix.symptom ?? hypothesisSymptom(ledger, fix.fixes))
        let measure = fix.comparand.measure ?? symptom?.shows?.measure
        let variant: Read = (fix.variant, read(fix.variant))
        let equals: Read? = fix.equals.map { ($0, read($0)) }
        let baseline: Read? = fix.baseline.map { ($0, read($0)) }
        var judgement = ComparisonJudgement(
            id: fix.id, kind: .fix, hypothesis: fix.fixes, variable: fix.comparand.variable,
            measure: measure?.name ?? "no measure", verdict: .inconclusive, sentence: "",
            baseline: measure.flatMap { m in baseline.map { reading($0, m, symptom) } },
            variant: measure.map { reading(variant, $0, symptom) }
                ?? SideReading(artifacts: fix.variant.artifacts, label: fix.variant.label, problems: []),
            equals: measure.flatMap { m in equals.map { reading($0, m, symptom) } },
            reasons: [], also: also(fix.comparand, (equals ?? baseline)?.evidence, variant.evidence),
            location: fix.location?.description)
        var sides: [(String, Read)] = [("fixed variant", variant)]
        if let equals { sides.append(("good side", equals)) }
        if let baseline { sides.append(("broken side", baseline)) }
        var reasons = blockers(sides, varies: fix.comparand.varies)
        guard let measure else {
            reasons.append("no measure decides: the fix names none and its symptom has no 'shows'")
            return finish(judgement, .inconclusive, reasons: reasons)
        }
        let name = measure.name
        let fixed = judgement.variant
        if fixed.value == nil { reasons.append("the fixed variant records no \(name)") }
        if let good = judgement.equals, good.value == nil { reasons.append("the good side records no \(name)") }
        if let broken = judgement.baseline, broken.value == nil { reasons.append("the broken side records no \(name)") }
        guard reasons.isEmpty, let value = fixed.value else {
            return finish(judgement, .inconclusive, reasons: reasons)
        }
        let direction = fix.comparand.expect ?? unit(of: measure).better
        if symptom?.shows != nil, fixed.symptom == true {
            return finish(
                judgement, .fixFails,
                sentence:
                    "\(fix.comparand.variable): the fixed variant still shows the symptom (\(fixed.symptomShown ?? "?"))"
            )
        }
        if symptom?.shows != nil, fixed.symptom == nil {
            return finish(
                judgement, .inconclusive,
                reasons: [
                    "the fixed variant cannot say whether the symptom is gone (\(fixed.symptomShown ?? "not recorded"))"
                ])
        }
        if let good = judgement.equals, let target = good.value {
            let margin = margin(
                fix.comparand.margin, measure, reference: target, repeated: [fixed.values ?? [], good.values ?? []])
            judgement.margin = margin
            let delta = value - target
            let better = direction == .higher ? delta > 0 : delta < 0
            let pair = "\(name) \(fixed.shown ?? "?") against \(good.shown ?? "?") on the good side"
            let broken = judgement.baseline?.shown.map { " (broken: \($0))" } ?? ""
            if abs(delta) <= (margin?.value ?? 0) {
                return finish(
                    judgement, .fixHolds,
                    sentence:
                        "\(fix.comparand.variable): the fix holds, \(pair)\(broken), within \(margin?.text ?? "0")")
            }
            if better, direction != .neutral {
                return finish(
                    judgement, .fixHolds,
                    sentence: "\(fix.comparand.variable): the fix holds, \(pair)\(broken): better than the good side")
            }
            return finish(
                judgement, .fixFails,
                sentence: "\(fix.comparand.variable): the fix does not reach the good side, \(pair)\(broken), "
                    + "beyond \(margin?.text ?? "0")")
        }
        guard let broken = judgement.baseline, let from = broken.value else {
            return finish(judgement, .inconclusive, reasons: ["the fix names no side to compare with"])
        }
        let margin = margin(
            fix.comparand.margin, measure, reference: from, repeated: [fixed.values ?? [], broken.values ?? []])
        judgement.margin = margin
        let delta = value - from
        let improved = direction == .higher ? delta > 0 : delta < 0
        let move = "\(name) \(broken.shown ?? "?") → \(fixed.shown ?? "?")"
        if abs(delta) > (margin?.value ?? 0), improved {
            let gone = symptom?.shows.map { "; no longer \(describe($0))" } ?? ""
            return finish(
                judgement, .fixHolds,
                sentence: "\(fix.comparand.variable): the fix holds, \(move), past \(margin?.text ?? "0")\(gone)")
        }
        return finish(
            judgement, .fixFails,
            sentence: "\(fix.comparand.variable): the fix does not move the measure past the margin: \(move), "
                + "margin \(margin?.text ?? "0")")
    }

    // MARK: - Bisection

    func bisect(_ bisection: Bisection, ledger: Ledger, read: (LedgerSide) -> SideEvidence) -> BisectionJudgement {
        let symptom = ledger.symptom(bisection.symptom ?? hypothesisSymptom(ledger, bisection.tests))
        let variables = Dictionary(bisection.toggles.map { ($0.id, $0.variable) }, uniquingKeysWith: { a, _ in a })
        let order = bisection.toggles.map(\.id)
        var remaining = order
        var tries: [ComparisonJudgement] = []
        var repeatTry: [String]?
        var planned: [String]?
        for (index, attempt) in bisection.tries.enumerated() {
            guard let side = attempt.variant else {
                if planned == nil { planned = attempt.off }
                continue
            }
            let variable = "switching off " + attempt.off.map { variables[$0] ?? $0 }.joined(separator: " and ")
            let judged = compare(
                id: "\(bisection.id)-\(index + 1)", kind: .try, hypothesis: bisection.tests, symptom: symptom,
                comparand: Comparand(variable: variable, measure: bisection.measure, margin: bisection.margin),
                baseline: (bisection.baseline, read(bisection.baseline)), variant: (side, read(side)),
                location: attempt.location)
            tries.append(judged)
            switch judged.verdict {
            case .cause: remaining = remaining.filter { attempt.off.contains($0) }
            case .ruledOut, .amplifier, .worse: remaining = remaining.filter { !attempt.off.contains($0) }
            case .inconclusive: if repeatTry == nil { repeatTry = attempt.off }
            case .fixHolds, .fixFails: break
            }
        }
        let found = order.filter { toggle in
            zip(bisection.tries.filter { $0.variant != nil }, tries).contains { attempt, judged in
                attempt.off == [toggle] && judged.verdict == .cause
            }
        }
        var next: [String]?
        let sentence: String
        func words(_ ids: [String]) -> String { ids.map { variables[$0] ?? $0 }.joined(separator: ", ") }
        if found.count == 1 {
            sentence = "\(words(found)) alone removes the symptom"
        } else if found.count > 1 {
            sentence =
                "each of \(found.map { variables[$0] ?? $0 }.joined(separator: " and ")) alone removes the symptom: "
                + "it needs them together"
        } else if let again = repeatTry {
            next = again
            sentence = "a try was inconclusive: switch off \(words(again)) again, with artifacts that can be read"
        } else if let planned {
            next = planned
            sentence = "next, as planned: switch off \(words(planned))"
        } else if remaining.isEmpty {
            sentence = "no toggle is left: the symptom is not in one of them alone"
        } else {
            let half = Array(remaining.prefix(max(1, (remaining.count + 1) / 2)))
            next = half
            sentence = Plural.count(remaining.count, "toggle") + " left; next, switch off \(words(half))"
        }
        return BisectionJudgement(
            id: bisection.id, hypothesis: bisection.tests,
            toggles: bisection.toggles.map { .init(id: $0.id, variable: $0.variable) }, tries: tries,
            remaining: found.count > 1 ? found : remaining, found: found, next: next, sentence: sentence)
    }

    // MARK: - Counter-evidence

    func counter(_ counter: CounterEvidence, _ evidence: SideEvidence) -> CounterJudgement {
        func judged(_ status: CounterJudgement.Status, _ sentence: String) -> CounterJudgement {
            CounterJudgement(
                id: counter.id, against: counter.against, artifacts: counter.artifacts, says: counter.says,
                status: status, sentence: sentence)
        }
        guard let condition = counter.shows else {
            let missing = evidence.problems.filter { !$0.hasSuffix(SideEvidence.unrecognizedSuffix) }
            if !missing.isEmpty {
                return judged(.inconclusive, "\(counter.says), but " + missing.joined(separator: "; "))
            }
            return judged(
                .noted,
                "\(counter.says) (the ledger's reading of \(counter.artifacts.joined(separator: ", ")); memhunt checked nothing in it)"
            )
        }
        if !evidence.problems.isEmpty {
            return judged(.inconclusive, "\(counter.says), but " + evidence.problems.joined(separator: "; "))
        }
        switch shows(condition, on: evidence) {
        case (true?, let shown):
            return judged(.rulesOut, "\(counter.says): \(describe(condition)) (\(shown ?? "?"))")
        case (false?, let shown):
            return judged(
                .notShown, "\(counter.says), but its artifacts are not \(describe(condition)) (\(shown ?? "?"))")
        case (nil, _):
            return judged(.inconclusive, "\(counter.says), but its artifacts record no \(condition.measure.name)")
        }
    }

    // MARK: - Hypotheses

    func status(
        of hypothesis: Hypothesis, experiments: [ComparisonJudgement], bisections: [BisectionJudgement],
        counters: [CounterJudgement], fixes: [ComparisonJudgement]
    ) -> HypothesisJudgement {
        let own = experiments.filter { $0.hypothesis == hypothesis.id }
        let bisected = bisections.filter { $0.hypothesis == hypothesis.id && !$0.found.isEmpty }
        let against = counters.filter { $0.against == hypothesis.id && [.rulesOut, .noted].contains($0.status) }
        let fixed = fixes.filter { $0.hypothesis == hypothesis.id && $0.verdict == .fixHolds }
        func by(_ verdict: LedgerVerdict) -> [ComparisonJudgement] { own.filter { $0.verdict == verdict } }
        var status = HypothesisJudgement.Status.open
        var deciding: [String] = []
        var sentence = "nothing has decided it yet"
        if !by(.cause).isEmpty || !bisected.isEmpty {
            status = .cause
            deciding = by(.cause).map(\.id) + bisected.map(\.id)
            sentence = (by(.cause).map(\.sentence) + bisected.map(\.sentence)).joined(separator: "; ")
            if !fixed.isEmpty { sentence += "; " + fixed.map(\.sentence).joined(separator: "; ") }
        } else if !by(.amplifier).isEmpty {
            status = .amplifier
            deciding = by(.amplifier).map(\.id)
            sentence = by(.amplifier).map(\.sentence).joined(separator: "; ")
        } else if !by(.worse).isEmpty {
            status = .worse
            deciding = by(.worse).map(\.id)
            sentence = by(.worse).map(\.sentence).joined(separator: "; ")
        } else if !by(.ruledOut).isEmpty || against.contains(where: { $0.status == .rulesOut }) {
            let checked = against.filter { $0.status == .rulesOut }
            status = .ruledOut
            deciding = by(.ruledOut).map(\.id) + checked.map(\.id)
            sentence = (by(.ruledOut).map(\.sentence) + checked.map(\.sentence)).joined(separator: "; ")
        } else if !against.isEmpty {
            status = .setAside
            deciding = against.map(\.id)
            sentence =
                "set aside by counter-evidence memhunt did not check: "
                + against.map(\.sentence).joined(separator: "; ")
        } else if !own.isEmpty {
            sentence = own.map(\.sentence).joined(separator: "; ")
        }
        let conflicting = against.filter { _ in status == .cause || status == .amplifier }
        if !conflicting.isEmpty {
            sentence += "; counter-evidence says otherwise: " + conflicting.map(\.sentence).joined(separator: "; ")
        }
        return HypothesisJudgement(
            id: hypothesis.id, statement: hypothesis.statement, suspect: hypothesis.suspect, status: status,
            sentence: sentence, by: deciding)
    }
}
