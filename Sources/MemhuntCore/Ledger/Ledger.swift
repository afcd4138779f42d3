/// An investigation as a checked document, `memhunt.ledger/1`: the symptom in the user's words, the
/// hypotheses, the experiments that change one variable each, bisections of toggles, counter-evidence and
/// the fix. Read from YAML by `LedgerLoader`; judged by `LedgerJudge` over the artifacts each entry names.
///
/// Artifact paths are relative to the ledger's directory, so a ledger travels with its artifacts.
public struct Ledger: Sendable, Hashable {
    /// The schema this code reads: the value of the ledger's `ledger:` key.
    public static let schema = "memhunt.ledger/1"

    /// Where it was read from: the file part of every diagnostic and of every sentence that cites an entry.
    public var origin: String
    /// The directory artifact paths are relative to; nil when read from standard input.
    public var directory: String?
    /// The app whose artifacts decide (a process name or bundle id); nil to let each side's artifacts say.
    public var subject: String?
    /// The hunt's own artifacts (a jetsam record, a crash report): what the playbook walks when the run is
    /// given no operands.
    public var artifacts: [String]
    public var symptoms: [LedgerSymptom]
    public var hypotheses: [Hypothesis]
    public var experiments: [Experiment]
    public var bisections: [Bisection]
    public var counterEvidence: [CounterEvidence]
    public var fixes: [Fix]
    /// Hex sha256 of the text read: a writer that replaces the file checks it first (two writers, no loss).
    public var sha256: String?

    public init(
        origin: String, directory: String?, subject: String? = nil, artifacts: [String] = [],
        symptoms: [LedgerSymptom] = [], hypotheses: [Hypothesis] = [], experiments: [Experiment] = [],
        bisections: [Bisection] = [], counterEvidence: [CounterEvidence] = [], fixes: [Fix] = []
    ) {
        self.origin = origin
        self.directory = directory
        self.subject = subject
        self.artifacts = artifacts
        self.symptoms = symptoms
        self.hypotheses = hypotheses
        self.experiments = experiments
        self.bisections = bisections
        self.counterEvidence = counterEvidence
        self.fixes = fixes
    }

    /// The ids of every entry (the loader keeps them unique across kinds): what a new entry's id must avoid.
    public var entryIDs: Set<String> {
        Set(
            symptoms.map(\.id) + hypotheses.map(\.id) + experiments.map(\.id) + bisections.map(\.id)
                + counterEvidence.map(\.id) + fixes.map(\.id))
    }

    /// The symptom an entry names, else the ledger's first.
    public func symptom(_ id: String?) -> LedgerSymptom? {
        id.flatMap { id in symptoms.first { $0.id == id } } ?? symptoms.first
    }
}

/// What the user saw, in their words, and what it means in symptoms; `shows` says when an artifact shows it.
public struct LedgerSymptom: Sendable, Hashable {
    public var id: String
    /// The user's own sentence, as reported.
    public var words: String?
    /// Its translation into symptoms (what the app does, what it does not).
    public var means: [String]
    /// When a side's artifacts show the symptom; nil when no artifact can (then no experiment of it decides).
    public var shows: Condition?
    public var location: SourceLocation?

    public init(
        id: String, words: String? = nil, means: [String] = [], shows: Condition? = nil,
        location: SourceLocation? = nil
    ) {
        self.id = id
        self.words = words
        self.means = means
        self.shows = shows
        self.location = location
    }
}

/// What is measured on each side: a numeric fact a check records (a map fact with one of its keys), or whether
/// a check's finding code is present.
public enum LedgerMeasure: Sendable, Hashable {
    case fact(String, key: String?)
    case verdict(String)

    /// `repro.peakMB`, `changes.views[RootView]`, `finding silent-loop.layout-loop`.
    public var name: String {
        switch self {
        case .fact(let fact, nil): fact
        case .fact(let fact, let key?): "\(fact)[\(key)]"
        case .verdict(let code): "finding \(code)"
        }
    }
}

/// A measure against a threshold: the symptom is there when the value is above (or below) it, or when the
/// finding is present.
public struct Condition: Sendable, Hashable {
    public enum Test: Sendable, Hashable {
        case above(Double)
        case below(Double)
        case present
    }

    public var measure: LedgerMeasure
    public var test: Test

    public init(measure: LedgerMeasure, test: Test) {
        self.measure = measure
        self.test = test
    }
}

/// How far a measure may move and still be noise: an amount in the measure's unit, or a share of the baseline.
public enum Margin: Sendable, Hashable {
    case absolute(Double)
    case percent(Double)
}

/// One side of a comparison: artifacts, and for measurement sets the label of the rows that are this side.
public struct LedgerSide: Sendable, Hashable {
    public var artifacts: [String]
    public var label: String?
    public var location: SourceLocation?

    public init(artifacts: [String], label: String? = nil, location: SourceLocation? = nil) {
        self.artifacts = artifacts
        self.label = label
        self.location = location
    }

    /// One key for equal sides: a side named by two entries is read once.
    public var key: String { artifacts.joined(separator: "\u{0}") + "\u{1}" + (label ?? "") }
}

/// A suspicion to test.
public struct Hypothesis: Sendable, Hashable {
    public var id: String
    public var statement: String
    /// What is suspected: a view, a type, a file or free text.
    public var suspect: String?
    public var symptom: String?
    public var location: SourceLocation?

    public init(
        id: String, statement: String, suspect: String? = nil, symptom: String? = nil,
        location: SourceLocation? = nil
    ) {
        self.id = id
        self.statement = statement
        self.suspect = suspect
        self.symptom = symptom
        self.location = location
    }
}

/// What may differ between the two sides of an experiment besides its variable: when both sides' artifacts
/// say and they differ, the experiment changed more than one thing.
public enum SideCondition: String, Sendable, Hashable, Codable, CaseIterable {
    case inputSize = "input-size"
    case inputLines = "input-lines"
    case scenario
    case device
    case os
    case appVersion = "app-version"

    /// The words of a sentence: "input size", "OS build".
    public var words: String {
        switch self {
        case .inputSize: "input size"
        case .inputLines: "input lines"
        case .scenario: "scenario"
        case .device: "device"
        case .os: "OS build"
        case .appVersion: "app version"
        }
    }
}

/// A comparison of two sides that differ in one variable: an experiment, a try of a bisection, or a fix.
public struct Comparand: Sendable, Hashable {
    /// The one variable changed, in the person's words.
    public var variable: String
    /// What decides; nil to use the symptom's own measure.
    public var measure: LedgerMeasure?
    /// The direction that is better; nil for the fact's own (lower for memory, counts and shares).
    public var expect: Better?
    public var margin: Margin?
    /// Conditions the variable itself changes (an experiment on input size varies `input-size`).
    public var varies: [SideCondition]
    /// Other facts to show side by side (CoreAnimation beside the footprint); they do not decide.
    public var also: [String]

    public init(
        variable: String, measure: LedgerMeasure? = nil, expect: Better? = nil, margin: Margin? = nil,
        varies: [SideCondition] = [], also: [String] = []
    ) {
        self.variable = variable
        self.measure = measure
        self.expect = expect
        self.margin = margin
        self.varies = varies
        self.also = also
    }
}

/// One variable changed between a baseline and a variant, to test a hypothesis.
public struct Experiment: Sendable, Hashable {
    public var id: String
    /// The hypothesis it tests.
    public var tests: String
    public var symptom: String?
    public var comparand: Comparand
    public var baseline: LedgerSide
    public var variant: LedgerSide
    public var location: SourceLocation?

    public init(
        id: String, tests: String, symptom: String? = nil, comparand: Comparand, baseline: LedgerSide,
        variant: LedgerSide, location: SourceLocation? = nil
    ) {
        self.id = id
        self.tests = tests
        self.symptom = symptom
        self.comparand = comparand
        self.baseline = baseline
        self.variant = variant
        self.location = location
    }
}

/// An ordered list of toggles switched off to find which one removes the symptom, and the tries so far.
public struct Bisection: Sendable, Hashable {
    public struct Toggle: Sendable, Hashable {
        public var id: String
        /// What switching it off changes, in the person's words.
        public var variable: String
        public init(id: String, variable: String) {
            self.id = id
            self.variable = variable
        }
    }

    /// One try: some toggles off, and the variant's artifacts once measured.
    public struct Try: Sendable, Hashable {
        public var off: [String]
        /// Nil while the try is proposed and not measured yet.
        public var variant: LedgerSide?
        public var location: SourceLocation?
        public init(off: [String], variant: LedgerSide?, location: SourceLocation? = nil) {
            self.off = off
            self.variant = variant
            self.location = location
        }
    }

    public var id: String
    public var tests: String?
    public var symptom: String?
    public var measure: LedgerMeasure?
    public var margin: Margin?
    public var baseline: LedgerSide
    public var toggles: [Toggle]
    public var tries: [Try]
    public var location: SourceLocation?

    public init(
        id: String, tests: String? = nil, symptom: String? = nil, measure: LedgerMeasure? = nil,
        margin: Margin? = nil, baseline: LedgerSide, toggles: [Toggle], tries: [Try] = [],
        location: SourceLocation? = nil
    ) {
        self.id = id
        self.tests = tests
        self.symptom = symptom
        self.measure = measure
        self.margin = margin
        self.baseline = baseline
        self.toggles = toggles
        self.tries = tries
        self.location = location
    }
}

/// An artifact that rules a hypothesis out without an experiment (a second client that saw the server work).
public struct CounterEvidence: Sendable, Hashable {
    public var id: String
    /// The hypothesis it rules out.
    public var against: String
    public var artifacts: [String]
    /// What it shows, in the person's words.
    public var says: String
    /// What memhunt checks in its artifacts; nil when it is the person's reading alone.
    public var shows: Condition?
    public var location: SourceLocation?

    public init(
        id: String, against: String, artifacts: [String], says: String, shows: Condition? = nil,
        location: SourceLocation? = nil
    ) {
        self.id = id
        self.against = against
        self.artifacts = artifacts
        self.says = says
        self.shows = shows
        self.location = location
    }
}

/// The fix and its proof: the fixed variant must not show the symptom, and must equal the good side
/// (`equals`) within the margin, or be past the margin from the broken one (`baseline`).
public struct Fix: Sendable, Hashable {
    public var id: String
    /// The hypothesis whose cause it fixes.
    public var fixes: String?
    public var symptom: String?
    public var comparand: Comparand
    public var variant: LedgerSide
    public var baseline: LedgerSide?
    public var equals: LedgerSide?
    public var location: SourceLocation?

    public init(
        id: String, fixes: String? = nil, symptom: String? = nil, comparand: Comparand, variant: LedgerSide,
        baseline: LedgerSide? = nil, equals: LedgerSide? = nil, location: SourceLocation? = nil
    ) {
        self.id = id
        self.fixes = fixes
        self.symptom = symptom
        self.comparand = comparand
        self.variant = variant
        self.baseline = baseline
        self.equals = equals
        self.location = location
    }
}
