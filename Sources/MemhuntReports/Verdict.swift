import MemhuntCore

// DERIVED VERDICT: a stand-in until the findings document carries its own `verdict` (branch
// `verdicts`). Every reporter reads the verdict through `FindingsDocument.verdict` below and
// nowhere else; when the document's field lands, this file is the one place to swap.

/// A few sentences at the top of a report: what the run concluded, derived from the strongest
/// finding of each step.
public struct Verdict: Sendable, Hashable {
    /// One sentence: the subject, the count of findings at notice or above, and the strongest.
    public var headline: String
    /// Per step with a finding at notice or above: the step and its strongest finding's title.
    public var strongest: [(step: FindingsDocument.StepRecord, finding: Finding)]

    public static func == (lhs: Verdict, rhs: Verdict) -> Bool {
        lhs.headline == rhs.headline
            && lhs.strongest.map { [$0.step.id, $0.finding.code, $0.finding.title] }
                == rhs.strongest.map { [$0.step.id, $0.finding.code, $0.finding.title] }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(headline) }
}

extension FindingsDocument {
    /// The verdict of the run (derived here until the document carries one).
    public var verdict: Verdict {
        let subject = subject.app ?? "The app"
        let strongest = steps.compactMap { step -> (step: StepRecord, finding: Finding)? in
            guard let top = step.strongestFinding, top.severity >= .notice else { return nil }
            return (step, top)
        }
        let raised = findings.filter { $0.severity >= .notice }
        let headline: String
        if !failures.isEmpty {
            headline =
                "The hunt is incomplete: \(failures.count == 1 ? "1 check" : "\(failures.count) checks") could not run."
        } else if let top = raised.max(by: { $0.severity < $1.severity }) {
            let stepsWord = strongest.count == 1 ? "1 step" : "\(strongest.count) steps"
            headline =
                "\(subject): \(raised.count == 1 ? "1 finding" : "\(raised.count) findings") at notice or above "
                + "in \(stepsWord); the strongest: \(top.title)."
        } else {
            let read = steps.count { $0.status == .clear }
            headline = "\(subject): nothing reached notice in \(read == 1 ? "1 step" : "\(read) steps") with evidence."
        }
        return Verdict(headline: headline, strongest: strongest)
    }
}

extension FindingsDocument.StepRecord {
    /// The first of the step's most severe findings.
    public var strongestFinding: Finding? {
        findings.reduce(nil) { best, f in best.map { f.severity > $0.severity ? f : $0 } ?? f }
    }
}
