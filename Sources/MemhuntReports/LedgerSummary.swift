import MemhuntCore

/// The ledger's judgement as the reports write it: the symptom, each hypothesis with its status, each
/// experiment, bisection try and fix with its verdict and sentence, the counter-evidence. One order and
/// one wording for the text walk, Markdown, HTML, tracker notes and `ledger judge`.
public enum LedgerSummary {
    /// One line of the section: a label (a status or a verdict), the entry's id and its sentence.
    public struct Line: Sendable, Hashable {
        public var label: String
        public var id: String
        public var text: String
        /// Nested under the hypothesis above it (its experiments), or a top-level line.
        public var nested: Bool
    }

    /// The symptoms, in the user's words with their translation.
    public static func symptoms(_ judgement: LedgerJudgement) -> [String] {
        judgement.symptoms.map { symptom in
            var text = symptom.words.map { "“\($0)”" } ?? symptom.id
            if !symptom.means.isEmpty { text += ": " + symptom.means.joined(separator: "; ") }
            if let shows = symptom.shows { text += " (shown by \(shows))" }
            return text
        }
    }

    /// The hypotheses in the ledger's order, each followed by the entries that test it, then the fixes and
    /// the counter-evidence that name no hypothesis of the list.
    public static func lines(_ judgement: LedgerJudgement) -> [Line] {
        var lines: [Line] = []
        var shown: Set<String> = []
        func comparison(_ c: ComparisonJudgement, nested: Bool) -> Line {
            shown.insert(c.kind.rawValue + c.id)
            return Line(label: c.verdict.rawValue, id: c.id, text: c.sentence, nested: nested)
        }
        for hypothesis in judgement.hypotheses {
            lines.append(
                Line(
                    label: hypothesis.status.rawValue, id: hypothesis.id,
                    text: hypothesis.statement + (hypothesis.suspect.map { " (suspect: \($0))" } ?? ""), nested: false))
            for experiment in judgement.experiments where experiment.hypothesis == hypothesis.id {
                lines.append(comparison(experiment, nested: true))
            }
            for bisection in judgement.bisections where bisection.hypothesis == hypothesis.id {
                lines += bisectionLines(bisection, mark: &shown)
            }
            for counter in judgement.counterEvidence where counter.against == hypothesis.id {
                shown.insert("counter" + counter.id)
                lines.append(Line(label: counter.status.rawValue, id: counter.id, text: counter.sentence, nested: true))
            }
            for fix in judgement.fixes where fix.hypothesis == hypothesis.id {
                lines.append(comparison(fix, nested: true))
            }
        }
        for experiment in judgement.experiments where !shown.contains("experiment" + experiment.id) {
            lines.append(comparison(experiment, nested: false))
        }
        for bisection in judgement.bisections where !bisection.tries.contains(where: { shown.contains("try" + $0.id) })
        {
            if bisection.hypothesis == nil || !judgement.hypotheses.contains(where: { $0.id == bisection.hypothesis }) {
                lines += bisectionLines(bisection, mark: &shown)
            }
        }
        for fix in judgement.fixes where !shown.contains("fix" + fix.id) {
            lines.append(comparison(fix, nested: false))
        }
        for counter in judgement.counterEvidence where !shown.contains("counter" + counter.id) {
            lines.append(Line(label: counter.status.rawValue, id: counter.id, text: counter.sentence, nested: false))
        }
        return lines
    }

    static func bisectionLines(_ bisection: BisectionJudgement, mark shown: inout Set<String>) -> [Line] {
        var lines = [Line(label: "bisection", id: bisection.id, text: bisection.sentence, nested: true)]
        for attempt in bisection.tries {
            shown.insert("try" + attempt.id)
            lines.append(Line(label: attempt.verdict.rawValue, id: attempt.id, text: attempt.sentence, nested: true))
        }
        return lines
    }

    /// The ledger in one sentence, for a tracker note's head: the hypotheses by status, the fixes by
    /// verdict (`Ledger: 2 ruled out, 1 amplifier, 1 cause; the fix holds (vstack-transcript).`).
    public static func oneLine(_ judgement: LedgerJudgement) -> String {
        let order: [(HypothesisJudgement.Status, String)] = [
            (.ruledOut, "ruled out"), (.worse, "made it worse"), (.amplifier, "amplifier"), (.cause, "cause"),
            (.setAside, "set aside"), (.open, "open"),
        ]
        var parts: [String] = []
        for (status, words) in order {
            let n = judgement.hypotheses.count { $0.status == status }
            if n > 0 { parts.append("\(n) \(words)") }
        }
        var line = "Ledger: " + (parts.isEmpty ? "no hypothesis" : parts.joined(separator: ", "))
        let fixes = judgement.fixes.map { "\($0.verdict.words) (\($0.id))" }
        if !fixes.isEmpty { line += "; " + fixes.joined(separator: "; ") }
        return line + "."
    }

    /// The section of the text walk.
    public static func text(_ judgement: LedgerJudgement, options: ReportOptions) -> String {
        let style = Style(enabled: options.colored)
        func e(_ text: String) -> String { TerminalText.escaped(text) }
        var out = style.bold("Hypotheses") + style.dim("  (ledger \(e(judgement.origin)))") + "\n"
        for symptom in symptoms(judgement) { out += "   symptom: " + e(symptom) + "\n" }
        for line in lines(judgement) {
            let indent = line.nested ? "      " : "   "
            let label = line.label.padding(toLength: max(line.label.count, 13), withPad: " ", startingAt: 0)
            out += TextReporter.wrap(
                style.bold(e(label)) + " " + e(line.id) + ": " + e(line.text), indent: indent, width: options.width)
        }
        return out
    }

    /// The section of the Markdown report.
    public static func markdown(_ judgement: LedgerJudgement) -> String {
        var out = "### Hypotheses\n\n"
        for symptom in symptoms(judgement) { out += "Symptom: " + Escape.markdown(symptom) + "\n\n" }
        for line in lines(judgement) {
            out +=
                (line.nested ? "  - " : "- ") + "**" + Escape.markdown(line.label) + "** " + Escape.code(line.id) + ": "
                + Escape.markdown(line.text) + "\n"
        }
        return out + "\n"
    }

    /// The section of the HTML report.
    public static func html(_ judgement: LedgerJudgement) -> String {
        var out = "<section id=\"hypotheses\">\n<h2>Hypotheses</h2>\n"
        for symptom in symptoms(judgement) { out += "<p>Symptom: \(Escape.html(symptom))</p>\n" }
        out += "<table>\n<thead><tr><th>Judged</th><th>Entry</th><th>What it shows</th></tr></thead>\n<tbody>\n"
        for line in lines(judgement) {
            out +=
                "<tr class=\"\(line.nested ? "nested" : "hypothesis")\"><td>\(Escape.html(line.label))</td>"
                + "<td><code>\(Escape.html(line.id))</code></td><td>\(Escape.html(line.text))</td></tr>\n"
        }
        return out + "</tbody>\n</table>\n</section>\n"
    }
}
