import MemhuntCore

/// The answer at the top of every report: a few sentences, each taken from one step's strongest finding
/// (so never stronger than it) and naming that step and the finding's code, then what could not be
/// said for lack of artifacts or because a check failed.
///
/// In the findings document as `verdict: {"sentences": [{"text", "step", "codes"}]}`. Every reporter
/// renders the sentences in order; `step` (a step id, absent for the closing sentences about missing
/// evidence) and `codes` trace each one to its finding.
public struct Verdict: Sendable, Hashable, Codable {
    public struct Sentence: Sendable, Hashable, Codable {
        /// One sentence, ending with a period.
        public var text: String
        /// The id of the step it comes from; nil for a sentence about several steps.
        public var step: String?
        /// The codes of the findings it states.
        public var codes: [String]

        public init(text: String, step: String?, codes: [String]) {
            self.text = text
            self.step = step
            self.codes = codes
        }
    }

    public var sentences: [Sentence]

    public init(sentences: [Sentence]) { self.sentences = sentences }
}

extension Verdict {
    /// The verdict of a run: a pure function of its steps.
    ///
    /// - A step with findings gives the title of its strongest finding (findings are sorted by severity;
    ///   the first that is not about the artifacts themselves), as a sentence.
    /// - Steps whose kinds were not given give one closing sentence naming what is missing.
    /// - Steps whose checks could not run, or did not apply, are named too.
    public init(_ result: RunResult) {
        var sentences: [Sentence] = []
        var missing: [StepResult] = []
        var failed: [StepResult] = []
        var notApplicable: [StepResult] = []
        var unanswered: [StepResult] = []
        for step in result.steps {
            switch step.status {
            case .unanswered:
                unanswered.append(step)
                continue
            case .noArtifact:
                if !(step.step.reads.isEmpty && step.step.checks.isEmpty) { missing.append(step) }
                continue
            case .error:
                failed.append(step)
            case .notApplicable:
                notApplicable.append(step)
                continue
            case .skipped:
                continue
            case .clear, .finding:
                break
            }
            let ranked =
                step.findings.filter { !$0.code.hasPrefix("artifacts.") }
                + step.findings.filter {
                    $0.code.hasPrefix("artifacts.") && $0.severity >= .notice
                }
            guard let top = ranked.first else { continue }
            let text = top.title.first?.isUppercase == true ? top.title : step.step.title + ": " + top.title
            sentences.append(Sentence(text: Self.sentence(text), step: step.step.id, codes: [top.code]))
        }
        if !failed.isEmpty {
            sentences.append(
                Sentence(
                    text: "Not known, because a check could not run: " + Self.list(failed) + ".", step: nil,
                    codes: []))
        }
        if !notApplicable.isEmpty {
            sentences.append(
                Sentence(text: "Not applicable to this run: " + Self.list(notApplicable) + ".", step: nil, codes: []))
        }
        if !unanswered.isEmpty {
            let text =
                result.subject.app.map { "The artifacts given say nothing of \($0) for " }
                ?? "Not answered until an app is named, though the artifacts are given: "
            sentences.append(Sentence(text: text + Self.list(unanswered) + ".", step: nil, codes: []))
        }
        if !missing.isEmpty {
            sentences.append(
                Sentence(
                    text: "No evidence, for lack of artifacts: " + Self.list(missing) + ".", step: nil, codes: []))
        }
        if sentences.isEmpty {
            sentences.append(Sentence(text: "The artifacts answer nothing this playbook asks.", step: nil, codes: []))
        }
        self.init(sentences: sentences)
    }

    /// "step 5 (Simulator reproduction), step 6 (CoreAnimation memory and layer count)".
    private static func list(_ steps: [StepResult]) -> String {
        steps.map { "step \($0.number) (\($0.step.title))" }.joined(separator: ", ")
    }

    /// A title as a sentence: with a closing period.
    static func sentence(_ title: String) -> String {
        var text = title
        if let last = text.last, !".!?".contains(last) { text += "." }
        return text
    }
}

extension FindingsDocument.StepRecord {
    /// The first of the step's most severe findings.
    public var strongestFinding: Finding? {
        findings.reduce(nil) { best, f in best.map { f.severity > $0.severity ? f : $0 } ?? f }
    }
}
