import MemhuntCore

/// `memhunt diff`'s formats: text for a terminal, JSON (`memhunt.diff/1`) for tools, Markdown for a
/// pull request. Each is a pure function of the diff.
extension RunDiff {
    /// The `--format` values `memhunt diff` supports.
    public static let formats = ["json", "markdown", "text"]

    /// The diff in one of `formats`.
    public func rendered(_ format: String) -> String {
        switch format {
        case "json": json()
        case "markdown": markdown()
        default: text()
        }
    }

    /// Facts that moved, then those that did not (folded in Markdown, counted in text).
    var movedFacts: [FactChange] { facts.filter { $0.movement != .unchanged } }

    static func runLabel(_ document: FindingsDocument) -> String {
        var label = document.playbook.id
        if let app = document.subject.app { label += ", " + app }
        if let started = document.run.startedAt { label += ", " + started }
        return label
    }

    /// The terminal text.
    public func text() -> String {
        var out = "BEFORE: \(Self.runLabel(before))\nAFTER:  \(Self.runLabel(after))\n\n\(verdict)\n\n"
        if let overall = fix.overall {
            out += "Fix verdict: \(overall.word)\n"
            let width = (fix.rows.map(\.key.count).max() ?? 0) + 2
            for row in fix.rows {
                out += "  " + TextReporter.pad(row.grade.word, 11) + TextReporter.pad(row.key, width) + row.text
                out += (row.expectedAlive ? "  (expected alive: not judged)" : "") + "\n"
            }
            if let bytes = fix.leakedBytes {
                out +=
                    "  leaked: \(FactValue.grouped(bytes.before)) → \(FactValue.grouped(bytes.after)) bytes, "
                    + "\(FactValue.grouped(max(0, bytes.before - bytes.after))) freed, "
                    + "\(FactValue.grouped(bytes.after)) still leaked\n"
            }
            out += "\n"
        }
        let moved = movedFacts
        if !moved.isEmpty {
            let width = max(moved.map(\.key.count).max() ?? 0, 4) + 2
            out += "Facts\n"
            for change in moved {
                out += "  " + TextReporter.pad(change.key, width) + TextReporter.pad(transition(change), 26)
                out += TextReporter.pad(deltaText(change), 22) + change.movement.label
                if change.regression { out += "  REGRESSION" }
                out += "\n"
            }
            let same = facts.count - moved.count
            if same > 0 { out += "  (\(Plural.count(same, "fact")) unchanged)\n" }
            out += "\n"
        }
        if !views.isEmpty {
            out += "Body evaluations per gesture (the largest count in one change log)\n"
            let width = (views.map(\.view.count).max() ?? 0) + 2
            for view in views {
                out += "  " + TextReporter.pad(view.view, width) + Self.evaluations(view) + "\n"
            }
            out += "\n"
        }
        if let ledger, !ledger.isEmpty {
            out += "Ledger\n"
            let width = (ledger.map { $0.kind.count + $0.id.count + 1 }.max() ?? 0) + 2
            for change in ledger {
                out += "  " + TextReporter.pad(change.kind + " " + change.id, width)
                out +=
                    TextReporter.pad((change.before ?? "—") + " → " + (change.after ?? "—"), 28) + change.state + "\n"
            }
            out += "\n"
        }
        if !findings.isEmpty {
            out += "Findings\n"
            for change in findings {
                let f = change.finding
                out += "  " + TextReporter.pad(change.state.rawValue, 15) + TextReporter.pad(f.severity.rawValue, 9)
                out += f.title + "  [\(f.code)]\n"
                if change.state == .unchanged, let old = change.before?.title, old != f.title {
                    out += "  " + String(repeating: " ", count: 24) + "was: " + old + "\n"
                }
            }
            out += "\n"
        }
        out += summaryLine + "\n"
        // Keys, titles and view names come from the documents: their control characters escaped.
        return TerminalText.escaped(out, keepingNewlines: true)
    }

    static func evaluations(_ view: ViewChange) -> String {
        (view.before.map { "+\($0)" } ?? "—") + " → " + (view.after.map { "+\($0)" } ?? "—")
    }

    /// "Findings: 6 resolved, 2 unchanged, 0 new · regressions: none (tolerance 5 %)".
    public var summaryLine: String {
        let counts = [FindingState.resolved, .unchanged, .new, .notRemeasured, .noLongerSaid].compactMap {
            state -> String? in
            let n = findings.count { $0.state == state }
            return n == 0 && (state == .notRemeasured || state == .noLongerSaid) ? nil : "\(n) \(state.rawValue)"
        }
        let regressions = regressedFacts.count + newSevereFindings.count
        return "Findings: " + counts.joined(separator: ", ") + " · regressions: "
            + (regressions == 0 ? "none" : String(regressions)) + " (tolerance \(percent(tolerance)))"
    }

    /// GitHub-flavored Markdown.
    public func markdown() -> String {
        var out = "## memhunt diff\n\n> **Verdict:** " + Escape.markdown(verdict) + "\n\n"
        out += "| | Run |\n|---|---|\n| Before | \(Escape.markdown(Self.runLabel(before))) |\n"
        out += "| After | \(Escape.markdown(Self.runLabel(after))) |\n\n"
        func row(_ change: FactChange) -> String {
            let complex = change.unit == .list || change.unit == .map
            let old = change.before.map { complex ? "(\(change.unit.rawValue))" : change.unit.format($0) } ?? "—"
            let new = change.after.map { complex ? "(\(change.unit.rawValue))" : change.unit.format($0) } ?? "—"
            let movement = change.regression ? "**regression**" : change.movement.label
            return "| \(Escape.code(change.key)) | \(Escape.markdown(old)) | \(Escape.markdown(new)) | "
                + "\(Escape.markdown(deltaText(change))) | \(movement) |\n"
        }
        let header = "| Fact | Before | After | Change | Movement |\n|---|---:|---:|---:|---|\n"
        let moved = movedFacts
        if !moved.isEmpty { out += "### Facts that moved\n\n" + header + moved.map(row).joined() + "\n" }
        let same = facts.filter { $0.movement == .unchanged }
        if !same.isEmpty {
            out += "<details><summary>Unchanged facts (\(same.count))</summary>\n\n" + header
            out += same.map(row).joined() + "\n</details>\n\n"
        }
        if let overall = fix.overall {
            out += "### Fix verdict: \(overall.word)\n\n| Grade | What | Before → after |\n|---|---|---|\n"
            for row in fix.rows {
                out +=
                    "| \(row.expectedAlive ? "expected alive" : row.grade.word) | \(Escape.markdown(row.key)) | "
                    + "\(Escape.markdown(row.text)) |\n"
            }
            out += "\n"
        }
        if !views.isEmpty {
            out += "### Body evaluations per gesture\n\n| View | Before | After |\n|---|---:|---:|\n"
            for view in views {
                out += "| \(Escape.markdown(view.view)) | \(view.before.map { "+\($0)" } ?? "—") | "
                out += "\(view.after.map { "+\($0)" } ?? "—") |\n"
            }
            out += "\n"
        }
        if let ledger, !ledger.isEmpty {
            out += "### Ledger\n\n| Entry | Before | After | State |\n|---|---|---|---|\n"
            for change in ledger {
                out +=
                    "| \(change.kind) \(Escape.code(change.id)) | \(change.before ?? "—") | \(change.after ?? "—") | "
                    + "\(change.state) |\n"
            }
            out += "\n"
        }
        if !findings.isEmpty {
            out += "### Findings\n\n| State | Severity | Finding | Code |\n|---|---|---|---|\n"
            for change in findings {
                let f = change.finding
                var title = Escape.markdown(f.title)
                if change.state == .unchanged, let old = change.before?.title, old != f.title {
                    title += "<br>was: " + Escape.markdown(old)
                }
                out += "| \(change.state.rawValue) | \(f.severity.rawValue) | \(title) | \(Escape.code(f.code)) |\n"
            }
            out += "\n"
        }
        return out + Escape.markdown(summaryLine) + "\n"
    }

    /// `memhunt.diff/1`: pretty JSON with sorted keys.
    public func json() -> String {
        struct Run: Encodable {
            var id: String
            var startedAt: String?
            var playbook: String
            var subject: String?
        }
        struct Fact: Encodable {
            var key: String
            var unit: String
            var better: Better
            var before: FactValue?
            var after: FactValue?
            var delta: Double?
            var ratio: Double?
            var movement: Movement
            var regression: Bool
        }
        struct FindingEntry: Encodable {
            var state: FindingState
            var code: String
            var severity: Severity
            var step: String
            var before: String?
            var after: String?
        }
        struct View: Encodable {
            var view: String
            var before: Int?
            var after: Int?
        }
        struct FixRow: Encodable {
            var subject: String
            var key: String
            var before: Double
            var after: Double
            var grade: String
            var expectedAlive: Bool
            var text: String
        }
        struct Fix: Encodable {
            var verdict: String?
            var rows: [FixRow]
            var leakedBytesBefore: Int?
            var leakedBytesAfter: Int?
        }
        struct Document: Encodable {
            var schema = "memhunt.diff/1"
            var before: Run
            var after: Run
            var tolerance: Double
            var verdict: String
            var regressed: Bool
            var facts: [Fact]
            var findings: [FindingEntry]
            var views: [View]
            var ledger: [LedgerChange]?
            var fix: Fix
        }
        func run(_ d: FindingsDocument) -> Run {
            Run(id: d.run.id, startedAt: d.run.startedAt, playbook: d.playbook.id, subject: d.subject.app)
        }
        let document = Document(
            before: run(before), after: run(after), tolerance: tolerance, verdict: verdict, regressed: regressed,
            facts: facts.map {
                Fact(
                    key: $0.key, unit: $0.unit.rawValue, better: $0.better, before: $0.before, after: $0.after,
                    delta: $0.delta.map { ($0 * 10).rounded() / 10 },
                    ratio: $0.ratio.map { ($0 * 100).rounded() / 100 },
                    movement: $0.movement, regression: $0.regression)
            },
            findings: findings.map {
                FindingEntry(
                    state: $0.state, code: $0.finding.code, severity: $0.finding.severity, step: $0.finding.step,
                    before: $0.before?.title, after: $0.after?.title)
            },
            views: views.map { View(view: $0.view, before: $0.before, after: $0.after) }, ledger: ledger,
            fix: Fix(
                verdict: fix.overall?.word,
                rows: fix.rows.map {
                    FixRow(
                        subject: $0.subject.rawValue, key: $0.key, before: ($0.before * 10).rounded() / 10,
                        after: ($0.after * 10).rounded() / 10, grade: $0.grade.word, expectedAlive: $0.expectedAlive,
                        text: $0.text)
                }, leakedBytesBefore: fix.leakedBytes?.before, leakedBytesAfter: fix.leakedBytes?.after))
        return JSONText.pretty(document)
    }
}
