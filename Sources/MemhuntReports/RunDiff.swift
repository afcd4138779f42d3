import Foundation
import MemhuntCore

/// Two runs compared: facts side by side with deltas and ratios, findings resolved, new and unchanged,
/// body evaluations per view, regressions past a tolerance, and a verdict. A pure value built from two
/// findings documents; `memhunt diff` renders it as text, JSON or Markdown.
///
/// Which way is worse is declared with each fact (`FactDescription.better`): unless a check says otherwise,
/// lower is better for memory (MB, bytes, pages), counts, ratios and percentages.
public struct RunDiff: Sendable {
    /// Which way a fact should move: declared with the fact (`FactDescription.better`).
    public typealias Better = MemhuntCore.Better

    /// How a fact moved from BEFORE to AFTER.
    public enum Movement: String, Sendable, Codable {
        case better, worse, unchanged
        /// Moved, but the fact has no better direction (or is not a number).
        case changed
        /// Only in AFTER, or only in BEFORE.
        case added, removed

        /// The word the human reports print: a fact missing from AFTER was not measured there (no artifact, or
        /// none that names the app), which "removed" made sound like the memory went away.
        public var label: String {
            switch self {
            case .added: "only in AFTER"
            case .removed: "only in BEFORE"
            default: rawValue
            }
        }
    }

    public struct FactChange: Sendable {
        public var key: String
        public var unit: FactUnit
        public var better: Better
        public var before: FactValue?
        public var after: FactValue?
        /// after - before, for numbers.
        public var delta: Double?
        /// after / before, for numbers with a non-zero before.
        public var ratio: Double?
        public var movement: Movement
        /// Worse past the tolerance.
        public var regression: Bool
    }

    /// What happened to a finding.
    public enum FindingState: String, Sendable, Codable {
        /// In BEFORE, not in AFTER, and AFTER measured its step.
        case resolved
        /// In AFTER only.
        case new
        /// In both (matched by code and subject).
        case unchanged
        /// In BEFORE; AFTER had no artifact for its step, so nothing says whether it is resolved.
        case notRemeasured = "not-remeasured"
        /// In BEFORE, not in AFTER, which measured its step; it was no problem (an info finding: a fix that
        /// held, a comparison), so it is no problem resolved either.
        case noLongerSaid = "no-longer-said"
    }

    /// The one rule for a finding of an earlier run that a later run does not raise again, for `diff`, the
    /// tracker notes, the postmortem's verification and everything that says "resolved": when `after` did not
    /// measure its step (no artifact there, none of the subject's, or the step is not in the playbook), it is
    /// not re-measured; when it did, a problem (notice or above) is resolved, anything else is no longer said.
    /// `step` and `severity` are the earlier finding's; nil when only its code is known (a tracker's marker),
    /// then `after`'s code catalog tells its check and severity, and the step that runs the check is asked.
    public static func state(
        ofGone code: String, step: String?, severity: Severity?, in after: FindingsDocument
    ) -> FindingState {
        let record =
            step.flatMap { after.step(id: $0) }
            ?? after.codeCatalog?[code].flatMap { info in after.steps.first { $0.checks.contains(info.check) } }
        guard let record, record.status == .clear || record.status == .finding else { return .notRemeasured }
        guard let severity = severity ?? after.codeCatalog?[code]?.severity else { return .notRemeasured }
        return severity >= .notice ? .resolved : .noLongerSaid
    }

    public struct FindingChange: Sendable {
        public var state: FindingState
        public var before: Finding?
        public var after: Finding?
        /// The finding as AFTER words it, else as BEFORE did.
        public var finding: Finding { after ?? before! }
    }

    /// One view's body evaluations per gesture (the largest count in one change log) before and after.
    public struct ViewChange: Sendable {
        public var view: String
        public var before: Int?
        public var after: Int?
    }

    public var before: FindingsDocument
    public var after: FindingsDocument
    /// A fraction: 0.05 lets a fact move 5 % the wrong way before it is a regression.
    public var tolerance: Double
    public var facts: [FactChange]
    public var findings: [FindingChange]
    public var views: [ViewChange]
    /// The two runs' ledgers, entry by entry; nil when neither judged one.
    public var ledger: [LedgerChange]?
    /// The fix judged per leak pattern, growing class, growth per visit and test over the ceiling.
    public var fix: VerifyFix

    public init(
        before: FindingsDocument, after: FindingsDocument, tolerance: Double = 0.05, expectedAlive: Set<String> = []
    ) {
        self.before = before
        self.after = after
        self.tolerance = tolerance
        fix = VerifyFix(
            before: before.facts, after: after.facts,
            catalog: before.factCatalog.merging(after.factCatalog) { _, new in new }, expectedAlive: expectedAlive)
        let keys = Set(before.facts.keys).union(after.facts.keys).sorted()
        facts = keys.map { key in
            let info = after.factCatalog[key] ?? before.factCatalog[key]
            let unit = info?.unit ?? .number
            return Self.change(
                key, unit: unit, better: info?.better ?? .implied(by: unit), before.facts[key], after.facts[key],
                tolerance: tolerance)
        }
        findings = Self.match(before, after)
        views = Self.views(before, after)
        ledger = LedgerChange.changes(before.ledger, after.ledger)
    }

    public static func change(
        _ key: String, unit: FactUnit, better: Better, _ old: FactValue?, _ new: FactValue?, tolerance: Double
    ) -> FactChange {
        var change = FactChange(
            key: key, unit: unit, better: better, before: old, after: new, movement: .unchanged, regression: false)
        guard let old else {
            change.movement = .added
            return change
        }
        guard let new else {
            change.movement = .removed
            return change
        }
        guard let a = old.doubleValue, let b = new.doubleValue else {
            change.movement = old == new ? .unchanged : .changed
            return change
        }
        change.delta = b - a
        change.ratio = a != 0 ? b / a : nil
        if a == b {
            change.movement = .unchanged
        } else if better == .neutral {
            change.movement = .changed
        } else {
            let improved = better == .lower ? b < a : b > a
            change.movement = improved ? .better : .worse
            if !improved {
                let allowed = abs(a) * tolerance
                change.regression = abs(b - a) > allowed
            }
        }
        return change
    }

    /// Findings matched by code and subject (titles carry numbers and may differ); several findings
    /// with one code pair in order, identical titles first.
    static func match(_ before: FindingsDocument, _ after: FindingsDocument) -> [FindingChange] {
        var remaining = after.findings.enumerated().map { $0 }
        var changes: [FindingChange] = []
        let sameSubject = before.subject.app == after.subject.app
        for old in before.findings {
            let candidates = remaining.indices.filter { sameSubject && remaining[$0].element.code == old.code }
            let pick = candidates.first { remaining[$0].element.title == old.title } ?? candidates.first
            if let pick {
                changes.append(FindingChange(state: .unchanged, before: old, after: remaining[pick].element))
                remaining.remove(at: pick)
            } else {
                let state = Self.state(ofGone: old.code, step: old.step, severity: old.severity, in: after)
                changes.append(FindingChange(state: state, before: old, after: nil))
            }
        }
        for (_, new) in remaining { changes.append(FindingChange(state: .new, before: nil, after: new)) }
        return changes
    }

    /// The points of every series the checks mark for comparison across runs, matched by series and label
    /// (per view, the most body evaluations in one change log).
    static func views(_ before: FindingsDocument, _ after: FindingsDocument) -> [ViewChange] {
        func points(_ document: FindingsDocument) -> [String: (value: Double, text: String)] {
            var points: [String: (value: Double, text: String)] = [:]
            for series in document.steps.flatMap(\.presentation.series) where series.acrossRuns {
                for point in series.points { points[point.label] = (point.value, point.text) }
            }
            return points
        }
        let old = points(before), new = points(after)
        return Set(old.keys).union(new.keys).sorted().map {
            ViewChange(
                view: $0, before: old[$0].map { Int(saturating: $0.value) },
                after: new[$0].map { Int(saturating: $0.value) })
        }
    }

    /// Facts that moved the wrong way past the tolerance.
    public var regressedFacts: [FactChange] { facts.filter(\.regression) }

    /// New findings at warning or above.
    public var newSevereFindings: [FindingChange] {
        findings.filter { $0.state == .new && $0.finding.severity >= .warning }
    }

    /// What was judged new after the fix (a leak pattern, a growing class, a test over its ceiling).
    public var regressedRows: [VerifyFix.Row] { fix.rows.filter { $0.grade == .regressed && !$0.expectedAlive } }

    /// Whether `--fail-on-regression` fails.
    public var regressed: Bool { !regressedFacts.isEmpty || !newSevereFindings.isEmpty || !regressedRows.isEmpty }

    /// `before → after unit`, with the catalog's unit.
    public func transition(_ change: FactChange) -> String {
        if change.unit == .list || change.unit == .map {
            return change.movement == .unchanged ? "same" : change.movement.label
        }
        let old = change.before.map { $0.description } ?? "—"
        let new = change.after.map { change.unit.format($0) } ?? "—"
        return old + " → " + new
    }

    /// `+509 MB (×0.17)`.
    public func deltaText(_ change: FactChange) -> String {
        guard let delta = change.delta else { return "" }
        var text = (delta > 0 ? "+" : "") + change.unit.format(.oneDecimal(delta))
        if let ratio = change.ratio {
            text += " (×" + String(format: "%.2f", ratio) + ")"
        }
        return text
    }

    /// One sentence: whether the fix holds, with the largest improvement and the view evaluations.
    public var verdict: String {
        if regressed {
            var reasons = regressedFacts.prefix(3).map {
                "\($0.key) \(transition($0)) (\(deltaText($0)), past the \(percent(tolerance)) tolerance)"
            }
            reasons += newSevereFindings.prefix(3).map { "new \($0.finding.severity.rawValue): \($0.finding.title)" }
            reasons += regressedRows.prefix(3).map { "new after: \($0.key) (\($0.text))" }
            return "The fix does not hold: " + reasons.joined(separator: "; ") + "."
        }
        // What the fix was to remove decides before anything that merely moved.
        if fix.overall == .fail {
            let rows = fix.rows.filter { $0.grade == .fail && !$0.expectedAlive }.prefix(3)
            return "The fix does not hold: " + rows.map { "\($0.key) \($0.text)" }.joined(separator: "; ") + "."
        }
        var parts: [String] = []
        let memory = facts.filter { $0.movement == .better && $0.unit == .megabytes && ($0.ratio ?? 1) < 1 }
        if let best = memory.min(by: { ($0.ratio ?? 1, $0.key) < ($1.ratio ?? 1, $1.key) }) {
            parts.append("\(transition(best)) (\(best.key))")
        }
        let views = views.compactMap { v -> (String, Int, Int)? in
            guard let b = v.before, let a = v.after, a < b else { return nil }
            return (v.view, b, a)
        }
        if let view = views.max(by: { ($0.1 - $0.2, $1.0) < ($1.1 - $1.2, $0.0) }) {
            parts.append("\(view.0) +\(view.1) → +\(view.2) per gesture")
        }
        let resolved = findings.count { $0.state == .resolved }
        if resolved > 0 { parts.append(Plural.count(resolved, "finding") + " resolved") }
        let judged = fix.rows.filter { !$0.expectedAlive && $0.grade <= .partial }
        parts = judged.prefix(3).map { "\($0.key) \($0.text)" } + parts
        if parts.isEmpty {
            return "Nothing moved the wrong way past the \(percent(tolerance)) tolerance, and nothing improved either."
        }
        return (fix.overall == .partial ? "The fix holds in part: " : "The fix holds: ") + parts.joined(separator: "; ")
            + "."
    }

    func percent(_ fraction: Double) -> String { FactValue.oneDecimal(fraction * 100).description + " %" }
}
