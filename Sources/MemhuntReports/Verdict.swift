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
    /// The verdict of a run (see `init(steps:artifacts:subject:)`).
    public init(_ result: RunResult) {
        self = FindingsDocument(result, run: FindingsDocument.RunInfo(id: "")).verdict ?? Verdict(sentences: [])
    }

    /// The verdict of a run's steps, as reported: a pure function of them and of the artifacts given.
    ///
    /// - A step with findings gives the title of its strongest finding (findings are sorted by severity;
    ///   the first that is not about the artifacts themselves), as a sentence.
    /// - Steps whose kinds were not given give one closing sentence naming what is missing; when files
    ///   could not be read, it never says "for lack of artifacts": what they hold is not known.
    /// - Files that could not be read are counted and named.
    /// - Steps whose checks could not run, or did not apply, are named too.
    public init(
        steps: [FindingsDocument.StepRecord], artifacts: [FindingsDocument.ArtifactRecord], subject: Subject,
        suppressed: Int = 0
    ) {
        let (headlines, kinds) = Self.headlines(steps)
        var sentences = headlines + Self.aside(kinds, steps: steps, artifacts: artifacts, subject: subject)
        if suppressed > 0 {
            // `run --baseline`: the sentences above are of what is reported; say what was left out.
            sentences.append(
                Sentence(
                    text: (sentences.isEmpty ? "Nothing new since the baseline: " : "Also ")
                        + Plural.count(suppressed, "finding") + " the baseline already has "
                        + (suppressed == 1 ? "is" : "are") + " left out.",
                    step: nil, codes: []))
        }
        if sentences.isEmpty {
            sentences.append(Sentence(text: "The artifacts answer nothing this playbook asks.", step: nil, codes: []))
        }
        self.init(sentences: sentences)
    }

    /// The steps that say no finding of their own, by why.
    struct Unsaid {
        var missing: [FindingsDocument.StepRecord] = []
        var failed: [FindingsDocument.StepRecord] = []
        var notApplicable: [FindingsDocument.StepRecord] = []
        var unanswered: [FindingsDocument.StepRecord] = []
    }

    /// Each step's top finding as a sentence (the first that is not about the artifacts themselves), and the
    /// steps that give none, by why.
    static func headlines(_ steps: [FindingsDocument.StepRecord]) -> ([Sentence], Unsaid) {
        var sentences: [Sentence] = []
        var unsaid = Unsaid()
        for step in steps {
            switch step.status {
            case .unanswered:
                unsaid.unanswered.append(step)
                continue
            case .noArtifact:
                if !step.isGuidanceOnly { unsaid.missing.append(step) }
                continue
            case .error:
                unsaid.failed.append(step)
            case .notApplicable:
                unsaid.notApplicable.append(step)
                continue
            case .skipped:
                continue
            case .clear, .finding:
                break
            }
            let ranked =
                step.findings.filter { !$0.code.hasPrefix("artifacts.") }
                + step.findings.filter { $0.code.hasPrefix("artifacts.") && $0.severity >= .notice }
            guard let top = ranked.first else { continue }
            let text = top.title.first?.isUppercase == true ? top.title : step.title + ": " + top.title
            sentences.append(Sentence(text: Self.sentence(text), step: step.id, codes: [top.code]))
        }
        return (sentences, unsaid)
    }

    /// The closing sentences: what rests on artifacts that name no app, the steps that said nothing and why, and
    /// the files given that could not be read or were empty.
    static func aside(
        _ unsaid: Unsaid, steps: [FindingsDocument.StepRecord], artifacts: [FindingsDocument.ArtifactRecord],
        subject: Subject
    ) -> [Sentence] {
        var sentences: [Sentence] = []
        func say(_ text: String, codes: [String] = []) {
            sentences.append(Sentence(text: text, step: nil, codes: codes))
        }
        // What was said of the subject from artifacts that name no app, when no artifact names it, is said as such.
        let assumed = steps.filter { $0.findings.contains { $0.code == EngineFindings.unattributed.code } }
        if !assumed.isEmpty, let app = subject.app {
            say(
                "No artifact of one app names \(app): what " + Self.list(assumed)
                    + (assumed.count == 1 ? " says" : " say") + " is of artifacts that name no app, read as \(app)'s "
                    + "because it was named.",
                codes: [EngineFindings.unattributed.code])
        }
        if !unsaid.failed.isEmpty { say("Not known, because a check could not run: " + Self.list(unsaid.failed) + ".") }
        if !unsaid.notApplicable.isEmpty { say("Not applicable to this run: " + Self.list(unsaid.notApplicable) + ".") }
        // A file given and not read is evidence of unknown content: no step may then speak of an absence.
        let unread = artifacts.filter(\.holdsUnknownContent)
        if !unsaid.unanswered.isEmpty {
            let steps = Self.list(unsaid.unanswered)
            if let app = subject.app {
                say(
                    unread.isEmpty
                        ? "The artifacts given say nothing of \(app) for " + steps + "."
                        : "Nothing read speaks of \(app) for " + steps + "; the files that could not be read may.")
            } else {
                say("Not answered until an app is named, though the artifacts are given: " + steps + ".")
            }
        }
        sentences += Self.files(artifacts, unread: unread)
        if !unsaid.missing.isEmpty {
            say(
                unread.isEmpty
                    ? "No evidence, for lack of artifacts: " + Self.list(unsaid.missing) + "."
                    : "Nothing was read for " + Self.list(unsaid.missing)
                        + "; the files that could not be read may be of their kinds.")
        }
        return sentences
    }

    /// The files given that could not be read, and the empty ones, named.
    static func files(_ artifacts: [FindingsDocument.ArtifactRecord], unread: [FindingsDocument.ArtifactRecord])
        -> [Sentence]
    {
        var sentences: [Sentence] = []
        if !unread.isEmpty {
            let named = unread.prefix(3).map { artifact -> String in
                let name = Artifact.fileName(of: artifact.source)
                let why = artifact.diagnostics.first.map { ": " + $0 } ?? ""
                return name + " (" + (artifact.kind.map(\.rawValue) ?? "of no known kind") + why + ")"
            }
            let more = unread.count > 3 ? ", and \(unread.count - 3) more" : ""
            sentences.append(
                Sentence(
                    text: Plural.count(unread.count, "file") + " given could not be read, so what "
                        + (unread.count == 1 ? "it holds" : "they hold") + " is not known: "
                        + named.joined(separator: "; ") + more + ".",
                    step: nil, codes: []))
        }
        // An empty file holds nothing, so it is no evidence of anything; still, it was given: it is named.
        let empty = artifacts.filter { $0.status != .ok && $0.size == 0 }
        if !empty.isEmpty {
            let names = empty.prefix(3).map { Artifact.fileName(of: $0.source) }.joined(separator: ", ")
            let more = empty.count > 3 ? ", and \(empty.count - 3) more" : ""
            sentences.append(
                Sentence(
                    text: Plural.count(empty.count, "file") + " given " + (empty.count == 1 ? "is" : "are")
                        + " empty, so " + (empty.count == 1 ? "it holds" : "they hold") + " nothing to read: "
                        + names + more + ".",
                    step: nil, codes: []))
        }
        return sentences
    }

    /// "step 5 (Simulator reproduction), step 6 (CoreAnimation memory and layer count)".
    private static func list(_ steps: [FindingsDocument.StepRecord]) -> String {
        steps.map { "step \($0.number) (\($0.title))" }.joined(separator: ", ")
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
