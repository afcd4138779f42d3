import MemhuntCore

/// Findings a team accepted with a reason (`suppress:` in the project file): listed as suppressed, with the
/// reason, in every format, and out of the gate and the verdict; an expired suppression no longer applies and
/// says so.
extension FindingsDocument {
    /// A finding accepted by a suppression, with the suppression.
    public struct SuppressedFinding: Sendable, Hashable, Codable {
        public var finding: Finding
        public var suppression: Suppression
    }

    /// What the project file's suppressions did to a run.
    public struct SuppressionInfo: Sendable, Hashable, Codable {
        public var suppressed: [SuppressedFinding]
        /// Suppressions past their date: the findings they named are reported again.
        public var expired: [Suppression]
    }

    /// The document with the findings `suppressions` accept moved out of the steps (and the gate and verdict),
    /// into `suppression.suppressed`; a suppression past `today` (`YYYY-MM-DD`) is listed as expired instead.
    public func suppressing(_ suppressions: [Suppression], today: String) -> FindingsDocument {
        let live = suppressions.filter { !$0.expired(today: today) }
        var info = SuppressionInfo(suppressed: [], expired: suppressions.filter { $0.expired(today: today) })
        var copy = self
        for index in copy.steps.indices {
            copy.steps[index].findings = copy.steps[index].findings.filter { finding in
                guard let rule = live.first(where: { $0.covers(finding) }) else { return true }
                info.suppressed.append(SuppressedFinding(finding: finding, suppression: rule))
                return false
            }
            if copy.steps[index].status == .finding,
                !copy.steps[index].findings.contains(where: { $0.severity >= .notice })
            {
                copy.steps[index].status = .clear
            }
        }
        copy.findings = copy.steps.flatMap(\.findings)
        copy.summary = Summary(steps: copy.steps, artifacts: copy.artifacts)
        copy.verdict = Verdict(steps: copy.steps, artifacts: copy.artifacts, subject: copy.subject)
        copy.suppression = info.suppressed.isEmpty && info.expired.isEmpty ? nil : info
        return copy
    }

    /// One line per suppressed finding and per expired suppression, for the text formats.
    public var suppressionLines: [String] {
        guard let suppression else { return [] }
        let accepted = suppression.suppressed.map { entry in
            "suppressed  \(entry.finding.title)  [\(entry.finding.code)]: \(entry.suppression.reason)"
                + (entry.suppression.owner.map { " (\($0))" } ?? "")
                + (entry.suppression.expires.map { ", until \($0)" } ?? "")
        }
        let expired = suppression.expired.map { rule in
            "expired     the suppression at \(rule.location ?? "?") (\(rule.signature ?? rule.code ?? "?")) ended "
                + "\(rule.expires ?? "?"): what it named is reported again"
        }
        return accepted + expired
    }
}
