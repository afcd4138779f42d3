/// What a ledger's entries were judged, with the numbers: the part of the findings document a run with a
/// ledger adds (`ledger` key), and what `memhunt ledger judge` prints.
public struct LedgerJudgement: Sendable, Hashable, Codable {
    public var origin: String
    public var subject: String?
    public var symptoms: [SymptomRecord]
    public var hypotheses: [HypothesisJudgement]
    public var experiments: [ComparisonJudgement]
    public var bisections: [BisectionJudgement]
    public var counterEvidence: [CounterJudgement]
    public var fixes: [ComparisonJudgement]

    public init(
        origin: String, subject: String?, symptoms: [SymptomRecord], hypotheses: [HypothesisJudgement],
        experiments: [ComparisonJudgement], bisections: [BisectionJudgement], counterEvidence: [CounterJudgement],
        fixes: [ComparisonJudgement]
    ) {
        self.origin = origin
        self.subject = subject
        self.symptoms = symptoms
        self.hypotheses = hypotheses
        self.experiments = experiments
        self.bisections = bisections
        self.counterEvidence = counterEvidence
        self.fixes = fixes
    }

    /// Every comparison judged: experiments, the bisections' tries, fixes, in the ledger's order.
    public var comparisons: [ComparisonJudgement] { experiments + bisections.flatMap(\.tries) + fixes }

    /// The false leads in the order the ledger tested them: hypotheses ruled out or found to make it worse.
    public var falseLeads: [HypothesisJudgement] {
        hypotheses.filter { [.ruledOut, .worse].contains($0.status) }
    }
}

/// The symptom as the ledger states it.
public struct SymptomRecord: Sendable, Hashable, Codable {
    public var id: String
    public var words: String?
    public var means: [String]
    /// When an artifact shows it, in words (`repro.peakMB above 300 MB`).
    public var shows: String?
}

/// How an experiment, a try or a fix came out.
public enum LedgerVerdict: String, Sendable, Hashable, Codable, CaseIterable {
    /// Changing the variable removed the symptom, past the margin.
    case cause
    /// The measure moved past the margin the right way, and the symptom stayed.
    case amplifier
    /// No move past the margin, and the symptom stayed.
    case ruledOut = "ruled-out"
    /// The measure moved past the margin the wrong way.
    case worse
    /// The fixed variant equals the good side within the margin (or is past it from the broken one), and
    /// shows no symptom.
    case fixHolds = "fix-holds"
    /// The fixed variant was measured and does not meet that.
    case fixFails = "fix-fails"
    /// Something needed was not read, is of another app, or the sides differ in more than the variable.
    case inconclusive

    /// The words of a sentence: "ruled out", "the fix holds".
    public var words: String {
        switch self {
        case .cause: "cause"
        case .amplifier: "amplifier, not the cause"
        case .ruledOut: "ruled out"
        case .worse: "made it worse"
        case .fixHolds: "the fix holds"
        case .fixFails: "the fix does not hold"
        case .inconclusive: "inconclusive"
        }
    }
}

/// One side as read: the artifacts, the measure's value (a median when it was taken several times) and
/// whether the symptom is there.
public struct SideReading: Sendable, Hashable, Codable {
    public var artifacts: [String]
    public var label: String?
    public var value: Double?
    /// The measure's value with its unit (`623 MB`, `present`).
    public var shown: String?
    /// The repeated values the value is the median of.
    public var values: [Double]?
    /// Whether the side shows the symptom; nil when its artifacts cannot say.
    public var symptom: Bool?
    /// The symptom's measure on this side, with its unit.
    public var symptomShown: String?
    public var problems: [String]
}

/// The margin a move must pass, and where it came from.
public struct MarginReading: Sendable, Hashable, Codable {
    public enum Source: String, Sendable, Hashable, Codable {
        /// The widest spread of values measured several times on one side.
        case repeated
        /// The ledger's own `margin:`.
        case declared
        /// The default of the measure's unit.
        case `default`
    }

    public var value: Double
    public var source: Source
    /// In words: `31.2 MB (5 % of the baseline, the default for MB)`.
    public var text: String
}

/// A fact shown beside the measure, for the record; it does not decide.
public struct AlsoReading: Sendable, Hashable, Codable {
    public var fact: String
    public var baseline: String?
    public var variant: String?

    public init(fact: String, baseline: String?, variant: String?) {
        self.fact = fact
        self.baseline = baseline
        self.variant = variant
    }
}

/// One experiment, bisection try or fix judged.
public struct ComparisonJudgement: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case experiment, `try`, fix
    }

    public var id: String
    public var kind: Kind
    /// The hypothesis it tests (or fixes).
    public var hypothesis: String?
    public var variable: String
    /// The measure's name (`repro.peakMB`, `changes.views[RootView]`).
    public var measure: String
    public var verdict: LedgerVerdict
    /// The verdict in one sentence, with the numbers and the margin's source.
    public var sentence: String
    public var baseline: SideReading?
    public var variant: SideReading
    /// For a fix: the good side it must equal.
    public var equals: SideReading?
    public var margin: MarginReading?
    /// Why it is inconclusive, one reason each.
    public var reasons: [String]
    public var also: [AlsoReading]
    /// `file:line:col` of the entry.
    public var location: String?
}

/// What the ledger's entries say of a hypothesis.
public struct HypothesisJudgement: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable {
        case cause, amplifier
        /// Its change made things worse: a false lead.
        case worse
        case ruledOut = "ruled-out"
        /// Counter-evidence speaks against it, in the ledger's reading only: memhunt checked nothing in it.
        case setAside = "set-aside"
        /// Nothing decided it yet.
        case open
    }

    public var id: String
    public var statement: String
    public var suspect: String?
    public var status: Status
    public var sentence: String
    /// The entries that decided it.
    public var by: [String]
}

/// A bisection: its toggles, the tries judged, what is left and what to try next.
public struct BisectionJudgement: Sendable, Hashable, Codable {
    public struct Toggle: Sendable, Hashable, Codable {
        public var id: String
        public var variable: String
    }

    public var id: String
    public var hypothesis: String?
    public var toggles: [Toggle]
    public var tries: [ComparisonJudgement]
    /// The toggles the cause may still be among.
    public var remaining: [String]
    /// The toggles that alone removed the symptom.
    public var found: [String]
    /// The toggles to switch off next (halving what is left, or a try to repeat); nil when done.
    public var next: [String]?
    public var sentence: String
}

/// A piece of counter-evidence and what memhunt could check of it.
public struct CounterJudgement: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Hashable, Codable {
        /// memhunt checked what it shows in its artifacts.
        case rulesOut = "rules-out"
        /// The artifacts are here; what they show is the ledger's reading, not checked by memhunt.
        case noted
        /// memhunt checked, and the artifacts do not show it.
        case notShown = "not-shown"
        /// An artifact is missing or could not be read.
        case inconclusive
    }

    public var id: String
    public var against: String
    public var artifacts: [String]
    public var says: String
    public var status: Status
    public var sentence: String
}
