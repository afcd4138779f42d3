import MemhuntCore

/// The postmortem's account of the investigation, from the ledger a run judged: in the seeds' order, what was
/// ruled out (each false lead with its variable and numbers), what made it worse, the amplifiers, the cause,
/// the counter-evidence, and the fix with its proof.
extension Postmortem {
    /// The ledger of the first run that judged one.
    var ledger: LedgerJudgement? { runs.lazy.compactMap(\.ledger).first }

    var hypotheses: String {
        guard let ledger else {
            return Self.prompt(
                "the hypotheses tested, one variable at a time, and what each showed: no run judged a ledger "
                    + "(memhunt run --ledger).")
        }
        var out =
            "_From the ledger \(Escape.code(ledger.origin)): "
            + Plural.count(ledger.hypotheses.count, "hypothesis", "hypotheses") + ", "
            + Plural.count(ledger.comparisons.count, "comparison") + " judged._\n\n"
        let groups: [(String, [HypothesisJudgement.Status])] = [
            ("What we ruled out", [.ruledOut]),
            ("What made it worse", [.worse]),
            ("Amplifiers, not the cause", [.amplifier]),
            ("The cause", [.cause]),
            ("Set aside by counter-evidence", [.setAside]),
            ("Still open", [.open]),
        ]
        for (title, statuses) in groups {
            let members = ledger.hypotheses.filter { statuses.contains($0.status) }
            guard !members.isEmpty else { continue }
            out += "### \(title)\n\n"
            for (index, hypothesis) in members.enumerated() {
                out += "\(index + 1). **\(Escape.markdown(hypothesis.statement))** (\(Escape.code(hypothesis.id)))\n"
                for comparison in ledger.comparisons
                where comparison.hypothesis == hypothesis.id
                    && comparison.kind != .fix
                {
                    out += "   - " + Self.comparisonLine(comparison) + "\n"
                    if comparison.verdict == .worse { out += "\n" + Self.table(comparison, indent: "     ") + "\n" }
                }
                for counter in ledger.counterEvidence where counter.against == hypothesis.id {
                    out +=
                        "   - counter-evidence \(Escape.code(counter.id)) (\(counter.status.rawValue)): "
                        + Escape.markdown(counter.sentence) + "\n"
                }
                if ledger.comparisons.allSatisfy({ $0.hypothesis != hypothesis.id }),
                    !ledger.counterEvidence.contains(where: { $0.against == hypothesis.id })
                {
                    out += "   - " + Escape.markdown(hypothesis.sentence) + "\n"
                }
            }
            out += "\n"
        }
        for bisection in ledger.bisections {
            out += "### Bisection \(Escape.code(bisection.id))\n\n" + Escape.markdown(bisection.sentence) + ".\n"
            if let next = bisection.next {
                out += "Next: switch off " + next.map(Escape.code).joined(separator: ", ") + ".\n"
            }
            out += "\n"
        }
        let counters = ledger.counterEvidence
        if !counters.isEmpty {
            out += "### Counter-evidence\n\n"
            for counter in counters {
                out +=
                    "- \(Escape.code(counter.id)) against \(Escape.code(counter.against)) "
                    + "(\(counter.status.rawValue)): " + Escape.markdown(counter.sentence) + "\n"
            }
            out += "\n"
        }
        if !ledger.fixes.isEmpty {
            out += "### The fix and its proof\n\n"
            for fix in ledger.fixes {
                out +=
                    "**\(fix.verdict.words.prefix(1).uppercased() + fix.verdict.words.dropFirst())** "
                    + "(\(Escape.code(fix.id))): " + Escape.markdown(fix.sentence) + ".\n\n"
                out += Self.table(fix, indent: "") + "\n"
            }
        }
        return out + Self.prompt("what the team believed at each step, and why it tried what it tried next.")
    }

    static func comparisonLine(_ comparison: ComparisonJudgement) -> String {
        var line =
            "\(comparison.verdict.words) (\(Escape.code(comparison.id))): " + Escape.markdown(comparison.sentence)
        if !comparison.reasons.isEmpty, comparison.verdict != .inconclusive {
            line += "; " + Escape.markdown(comparison.reasons.joined(separator: "; "))
        }
        return line
    }

    /// The sides of a comparison with the measure and the facts shown beside it: seed 000's rows.
    static func table(_ comparison: ComparisonJudgement, indent: String) -> String {
        var rows: [(String, SideReading)] = []
        if let baseline = comparison.baseline {
            rows.append((comparison.kind == .fix ? "broken" : "baseline", baseline))
        }
        if let equals = comparison.equals { rows.append(("good side", equals)) }
        rows.append((comparison.kind == .fix ? "fixed" : "variant", comparison.variant))
        let also = comparison.also
        var out = indent + "| Side | Artifacts | " + Escape.markdown(comparison.measure)
        for reading in also { out += " | " + Escape.markdown(reading.fact) }
        out += " |\n" + indent + "|---|---|---" + String(repeating: "|---", count: also.count) + "|\n"
        for (index, (name, side)) in rows.enumerated() {
            let artifacts =
                side.artifacts.map(Escape.code).joined(separator: ", ")
                + (side.label.map { " (label \(Escape.code($0)))" } ?? "")
            out += indent + "| \(name) | \(artifacts) | " + Escape.markdown(side.shown ?? "not recorded")
            for reading in also {
                let value = index == rows.count - 1 ? reading.variant : reading.baseline
                out += " | " + Escape.markdown(rows.count > 2 && index == 1 ? "" : value ?? "not recorded")
            }
            out += " |\n"
        }
        return out
    }
}
