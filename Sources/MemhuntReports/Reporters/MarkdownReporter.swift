import MemhuntCore

/// GitHub-flavored Markdown for a pull-request comment, an issue or a job summary: the verdict, the
/// steps as a table, before/after tables, findings by severity with evidence; long lists folded.
///
/// It fits GitHub's comment limit (65,536 characters): when the full report is longer, it folds the
/// least severe details first (artifacts, then info, notice, warning and critical details, then
/// finding lists) and says what it folded.
public enum MarkdownReporter: Reporter {
    public static let identifier = "markdown"
    public static let summary =
        "GitHub-flavored Markdown: verdict, steps table, before/after, findings (fits a comment)."

    /// GitHub's limit for a comment body, in characters (UTF-16 code units, as GitHub counts them).
    public static let commentLimit = 65_536

    /// How much the report leaves out, from nothing to titles only.
    struct Folding: Equatable {
        var artifacts = false
        /// Severities whose detail, evidence and next step are left out.
        var bareSeverities: Set<Severity> = []
        /// Severities whose findings are left out (counted only).
        var droppedSeverities: Set<Severity> = []
        var stepFacts = false

        /// Each stage folds more, least severe first.
        static let stages: [Folding] = {
            var stages = [Folding()]
            var f = Folding()
            f.stepFacts = true
            stages.append(f)
            f.artifacts = true
            stages.append(f)
            for severity in Severity.allCases {
                f.bareSeverities.insert(severity)
                stages.append(f)
            }
            for severity in Severity.allCases {
                f.droppedSeverities.insert(severity)
                stages.append(f)
            }
            return stages
        }()

        var notes: [String] {
            var notes: [String] = []
            if stepFacts { notes.append("the facts of each step") }
            if artifacts { notes.append("the artifact list") }
            let bare = Severity.allCases.filter { bareSeverities.contains($0) && !droppedSeverities.contains($0) }
            if !bare.isEmpty {
                notes.append("details of \(bare.map(\.rawValue).joined(separator: ", ")) findings (titles kept)")
            }
            let dropped = Severity.allCases.filter { droppedSeverities.contains($0) }
            if !dropped.isEmpty {
                notes.append("\(dropped.map(\.rawValue).joined(separator: ", ")) findings (counted)")
            }
            return notes
        }
    }

    public static func render(_ document: FindingsDocument, options: ReportOptions) -> String {
        render(document, options: options, limit: commentLimit)
    }

    /// The report, folded until it fits `limit` characters.
    public static func render(_ document: FindingsDocument, options: ReportOptions, limit: Int) -> String {
        var last = ""
        for folding in Folding.stages {
            last = render(document, options: options, folding: folding, limit: limit)
            if last.utf16.count <= limit { return last }
        }
        // Even titles alone do not fit: cut at the limit, on a line boundary, and say so.
        let note = "\n\n_Cut at GitHub's \(FactValue.grouped(limit))-character limit._\n"
        var cut = ""
        for line in last.split(separator: "\n", omittingEmptySubsequences: false) {
            if cut.utf16.count + line.utf16.count + 1 + note.utf16.count > limit { break }
            cut += line + "\n"
        }
        return cut + note
    }

    static func render(_ document: FindingsDocument, options: ReportOptions, folding: Folding, limit: Int) -> String {
        var out = "## " + Escape.markdown(document.playbook.title)
        if let app = document.subject.app { out += ": " + Escape.markdown(app) }
        out += "\n\n"
        out += verdict(document)
        if let baseline = document.baseline {
            out +=
                "> \(Plural.count(baseline.suppressed, "finding")) known from the baseline "
                + Escape.code(baseline.source) + " left out.\n\n"
        }
        let suppressed = document.suppressionLines
        if !suppressed.isEmpty {
            out += "<details><summary>Suppressions (\(suppressed.count))</summary>\n\n"
            out += suppressed.map { "- " + Escape.markdown($0) }.joined(separator: "\n") + "\n\n</details>\n\n"
        }
        let notes = folding.notes
        if !notes.isEmpty {
            out +=
                "> [!NOTE]\n> Folded to fit GitHub's \(FactValue.grouped(limit))-character comment limit: "
                + notes.joined(separator: "; ") + ". The full report: `memhunt report FINDINGS.json`.\n\n"
        }
        if let ledger = document.ledger { out += LedgerSummary.markdown(ledger) }
        out += stepsTable(document, folding: folding)
        out += beforeAfter(document)
        out += findings(document, options: options, folding: folding)
        if !folding.artifacts { out += artifacts(document) }
        out += TextReporter.summaryLine(document) + "\n"
        if document.gate.exitStatus != 0, let reason = document.gate.reason {
            out += "\n**Gate: exit \(document.gate.exitStatus)**: \(Escape.markdown(reason))\n"
        }
        return out
    }

    /// The document's verdict as a quote: one sentence per step, each naming the step it rests on.
    static func verdict(_ document: FindingsDocument) -> String {
        guard let verdict = document.verdict, !verdict.sentences.isEmpty else { return "" }
        var out = "> **Verdict**\n>\n"
        for sentence in verdict.sentences {
            let number = sentence.step.flatMap { id in document.step(id: id)?.number }
            out += "> - " + Escape.markdown(sentence.text) + (number.map { " (step \($0))" } ?? "") + "\n"
        }
        return out + "\n"
    }

    static func status(_ step: FindingsDocument.StepRecord) -> String {
        switch step.status {
        case .clear: "clear"
        case .finding:
            "**" + (step.strongestFinding?.severity.rawValue ?? "finding") + "**"
        case .noArtifact: step.isGuidanceOnly ? "guidance" : "no artifact"
        case .error: "**error**"
        case .skipped: "skipped"
        case .notApplicable: "not applicable"
        case .unanswered: "unanswered"
        }
    }

    static func stepsTable(_ document: FindingsDocument, folding: Folding) -> String {
        var out = "### Steps\n\n| # | What I inspect | What it tells me | Result | Status |\n|---:|---|---|---|---|\n"
        for step in document.steps {
            var result = Escape.markdown(document.result(of: step))
            let titles = step.findings.map { Escape.markdown($0.title) }
            if !titles.isEmpty { result += (result.isEmpty ? "" : "<br>") + titles.joined(separator: "<br>") }
            // What to collect only where nothing was given: an unanswered step has its artifacts.
            if result.isEmpty {
                let collect = step.status == .unanswered ? nil : step.guidance?.collect
                result = collect.map { "_collect:_ " + Escape.markdown($0) } ?? "—"
            }
            let inspects = step.inspects.isEmpty ? step.title : step.inspects
            out +=
                "| \(step.number) | \(Escape.markdown(inspects)) | \(Escape.markdown(step.tells)) | \(result) | "
                + status(step) + " |\n"
        }
        out += "\n"
        let withFacts = document.steps.filter { !$0.facts.isEmpty }
        if !folding.stepFacts && !withFacts.isEmpty {
            out +=
                "<details><summary>Every fact (\(document.facts.count))</summary>\n\n| Step | Fact | Value |\n|---:|---|---|\n"
            for step in withFacts {
                for key in step.facts.keys.sorted() {
                    out +=
                        "| \(step.number) | \(Escape.code(key)) | "
                        + Escape.markdown(document.formatted(key, step.facts[key]!)) + " |\n"
                }
            }
            out += "\n</details>\n\n"
        }
        return out
    }

    /// The run's comparisons as tables, one per group, each pair under its sides' own names; then the
    /// values the checks chart, folded.
    static func beforeAfter(_ document: FindingsDocument) -> String {
        var out = ""
        for table in document.comparisonTables {
            out += table.group.map { Escape.markdown($0) + ":\n\n" } ?? ""
            out += "| Measure | Kind | From | To | Change |\n|---|---|---:|---:|---:|\n"
            for row in table.rows {
                out +=
                    "| \(Escape.markdown(row.label)) | \(row.kind.word) | \(Escape.markdown(row.from.text)) "
                    + "(\(Escape.markdown(row.from.label))) | \(Escape.markdown(row.to.text)) (\(Escape.markdown(row.to.label))) | "
                    + Escape.markdown(row.change ?? "\(row.from.text) → \(row.to.text)") + " |\n"
            }
            out += "\n"
        }
        if !out.isEmpty { out = "### Comparisons\n\n" + out }
        for series in document.drawnSeries {
            out +=
                "<details><summary>\(Escape.markdown(series.title))</summary>\n\n"
                + "| \(Escape.markdown(series.style == .line ? "Point" : "Name")) | \(Escape.markdown(series.axis)) |\n|---|---:|\n"
            for point in series.points {
                let name =
                    point.role == .subject ? "**" + Escape.markdown(point.label) + "**" : Escape.markdown(point.label)
                out += "| \(name) | \(Escape.markdown(point.text)) |\n"
            }
            out += "\n" + Escape.markdown(series.caption) + "\n\n</details>\n\n"
        }
        return out
    }

    static func findings(_ document: FindingsDocument, options: ReportOptions, folding: Folding) -> String {
        var out = document.findings.isEmpty && document.failures.isEmpty ? "" : "### Findings\n\n"
        for step in document.steps {
            for failure in step.failures {
                out += "- **error** in step \(step.number): check \(Escape.code(failure.check)) could not run: "
                out += Escape.markdown(failure.message) + "\n"
            }
        }
        if !document.failures.isEmpty { out += "\n" }
        for severity in Severity.allCases.reversed() {
            let group = document.findings.filter { $0.severity == severity }
            guard !group.isEmpty else { continue }
            let heading = "\(severity.rawValue.capitalized) (\(group.count))"
            if folding.droppedSeverities.contains(severity) {
                out += "#### \(heading)\n\n_\(group.count) folded._\n\n"
                continue
            }
            // A finding's title and its detail are paragraphs of their own (a blank line between them): a
            // renderer never runs them together.
            var body = ""
            for finding in group {
                let step = document.step(id: finding.step)
                body += "- **" + Escape.markdown(finding.title) + "** " + Escape.code(finding.code)
                if let step { body += " · step \(step.number)" }
                body += "\n"
                guard !folding.bareSeverities.contains(severity) else { continue }
                body += "\n  " + Escape.markdown(finding.detail) + "\n"
                var items = finding.evidence.map { "  - evidence: " + Escape.code($0.reference) + "\n" }
                if let next = finding.next {
                    items.append(
                        "  - next: " + Escape.markdown(document.phrase(next, from: finding.step, options: options))
                            + "\n")
                }
                if let signature = finding.signature { items.append("  - signature: " + Escape.code(signature) + "\n") }
                if !items.isEmpty { body += "\n" + items.joined() }
                body += "\n"
            }
            while body.hasSuffix("\n\n") { body.removeLast() }
            // Info findings and long groups are folded; the more severe stay open.
            if severity == .info || group.count > 10 {
                out += "<details><summary>\(heading)</summary>\n\n" + body + "\n</details>\n\n"
            } else {
                out += "#### \(heading)\n\n" + body + "\n"
            }
        }
        return out
    }

    static func artifacts(_ document: FindingsDocument) -> String {
        guard !document.artifacts.isEmpty else { return "" }
        var out =
            "<details><summary>Artifacts (\(document.artifacts.count))</summary>\n\n"
            + "| Status | Kind | Source | sha256 |\n|---|---|---|---|\n"
        for artifact in document.artifacts {
            let sha = artifact.sha256.map { Escape.code(String($0.prefix(12))) } ?? ""
            var status = artifact.status.rawValue
            if !artifact.diagnostics.isEmpty { status += ": " + artifact.diagnostics.joined(separator: "; ") }
            out +=
                "| \(Escape.markdown(status)) | \(artifact.kind?.rawValue ?? "—") | \(Escape.code(artifact.source)) | \(sha) |\n"
        }
        return out + "\n</details>\n\n"
    }
}
