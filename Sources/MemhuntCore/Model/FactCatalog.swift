/// The unit of a fact: how renderers print it, and what a consumer of the findings document may assume.
public enum FactUnit: String, Sendable, Hashable, Codable, CaseIterable {
    /// Megabytes of 1,048,576 bytes, one decimal: printed `725 MB`.
    case megabytes = "MB"
    /// A byte count: printed `1,234 bytes`.
    case bytes
    /// A count of memory pages (the record's page size tells bytes): printed `1,234 pages`.
    case pages
    /// A count of things (processes, layers, evaluations): printed `3,573`.
    case count
    /// One quantity divided by another: printed `13.6` (the finding texts write `×13.6`).
    case ratio
    /// A percentage, 0–100: printed `57 %`.
    case percent
    /// A name, a kind, a state: printed as it is.
    case text
    /// A yes-or-no answer: printed `true` or `false`.
    case flag
    /// A list of values: printed `[a, b]`.
    case list
    /// A map from names to values: printed `{a: 1, b: 2}`.
    case map
    /// A number whose unit nobody declared (an external check's fact without `unit`): printed as it is.
    case number

    /// `value` with this unit, as every renderer prints it.
    public func format(_ value: FactValue) -> String {
        switch self {
        case .megabytes: value.doubleValue == nil ? value.description : value.description + " MB"
        case .bytes: value.doubleValue == nil ? value.description : value.description + " bytes"
        case .pages: value.doubleValue == nil ? value.description : value.description + " pages"
        case .percent: value.doubleValue == nil ? value.description : value.description + " %"
        case .count, .ratio, .text, .flag, .list, .map, .number: value.description
        }
    }
}

/// A value an artifact may hold several times over: a measurement row's columns, an XCTest memory metric's runs.
public enum RepeatedReading: String, Sendable, Hashable, Codable {
    /// A measurement row's footprint (MB).
    case footprint
    /// A measurement row's CoreAnimation memory (MB).
    case coreAnimation
    /// A measurement row's layer count.
    case layers
    /// The runs of the heaviest XCTest memory metric (MB).
    case xctestMemory
}

/// What a fact gives the verdict of a fix (`VerifyFix`), declared with the fact so that the judge names no
/// check's keys: each role is one fact of one check.
public enum FixEvidence: String, Sendable, Hashable, Codable, CaseIterable {
    /// A list of `{pattern, owner, instances, path}`: the leak shapes of a report, by pattern and owner.
    case leakPatterns = "leak-patterns"
    /// Whether that list holds every shape of the report: false when trees past the reader's bounds were not read
    /// or the list was cut, so a pattern's count there is not the report's.
    case leakPatternsComplete = "leak-patterns-complete"
    /// How many objects a leaks report found leaked.
    case leakCount = "leak-count"
    /// How many bytes a leaks report found leaked.
    case leakedBytes = "leaked-bytes"
    /// A list of `{class, deltaCount}`: what each class gained between a run's first capture and its last.
    case classGrowth = "class-growth"
    /// How many captures that growth spans.
    case captures
    /// The shape of a series of readings per repetition (`GrowthShape.Kind`).
    case growthShape = "growth-shape"
    /// The fitted growth per repetition, in MB.
    case growthPerRepetition = "growth-per-repetition"
    /// A list of `{test, peakMB}`: each test's heaviest memory metric.
    case testPeaks = "test-peaks"
    /// The ceiling the tests are held under, in MB.
    case testCeiling = "test-ceiling"
}

/// One fact a check may record: its key, unit and meaning. The catalog of all of them drives
/// `memhunt checks`, the README's fact table and the renderers' units.
public struct FactDescription: Sendable, Hashable, Codable {
    /// Dotted key (`jetsam.app.peakMB`).
    public var key: String
    public var unit: FactUnit
    /// What the number is, in one sentence.
    public var meaning: String
    /// Which way is better, for `diff` and the comparisons: the unit's implied direction unless declared.
    public var better: Better
    /// A number that justifies a fix, to keep beside it (the postmortem's measurements), not only context.
    public var measure: Bool
    /// A check's setting (a parameter, or what it computes from parameters alone), not something any artifact
    /// says: `inspect`, which shows what a file says, leaves it out.
    public var setting: Bool
    /// The reading of an artifact that this fact reports when the artifact holds it several times (rows of
    /// one label, a metric's runs): the values a ledger's noise margin comes from. Nil for most facts.
    public var repeatedAs: RepeatedReading?
    /// What it gives the verdict of a fix, if anything.
    public var verifies: FixEvidence?

    public init(
        _ key: String, _ unit: FactUnit, _ meaning: String, better: Better? = nil, measure: Bool = false,
        setting: Bool = false, repeatedAs: RepeatedReading? = nil, verifies: FixEvidence? = nil
    ) {
        self.key = key
        self.unit = unit
        self.meaning = meaning
        self.better = better ?? .implied(by: unit)
        self.measure = measure
        self.setting = setting
        self.repeatedAs = repeatedAs
        self.verifies = verifies
    }

    /// The value with this fact's unit, as every renderer prints it.
    public func format(_ value: FactValue) -> String { unit.format(value) }
}

/// One kind of finding a check may emit: its stable code, default severity and meaning.
public struct FindingCode: Sendable, Hashable, Codable {
    /// `check-id.what` in kebab case, never a number (`jetsam-rank.dominant`).
    public var code: String
    /// The severity it is emitted with unless the evidence says otherwise (a kill reason can raise it).
    public var severity: Severity
    /// What it means, in one line.
    public var meaning: String
    /// Artifacts that raise it and artifacts of the same kinds that do not, SwiftLint's habit: one test
    /// runs them all, and `memhunt checks --format json` lists them.
    public var examples: [CodeExample]

    public init(_ code: String, _ severity: Severity, _ meaning: String, examples: [CodeExample] = []) {
        self.code = code
        self.severity = severity
        self.meaning = meaning
        self.examples = examples
    }
}

/// Artifacts given to a check, and whether its finding code must be among what it says of them; the facts and the
/// title it gives them are pinned too, so an example tests the numbers and words as well as the code.
public struct CodeExample: Sendable, Hashable, Codable {
    /// Repository-relative paths given as operands (files or folders).
    public var paths: [String]
    /// The app named as the subject, if any.
    public var app: String?
    /// True: the code is raised. False: the check reads them and does not raise it.
    public var raises: Bool
    /// Parameters given under `with:` (a threshold whose default never fires).
    public var parameters: [String: FactValue]
    /// Facts the step records from these artifacts, with their values (nil: the step records no such fact).
    public var facts: [String: FactValue?]
    /// The title of the finding of this code, when it is raised.
    public var title: String?

    public init(
        paths: [String], app: String? = nil, raises: Bool, parameters: [String: FactValue] = [:],
        facts: [String: FactValue?] = [:], title: String? = nil
    ) {
        self.paths = paths
        self.app = app
        self.raises = raises
        self.parameters = parameters
        self.facts = facts
        self.title = title
    }

    /// Artifacts that raise the code, the facts they give and the finding's title.
    public static func raises(
        _ paths: String..., app: String? = nil, with parameters: [String: FactValue] = [:],
        facts: [String: FactValue?] = [:], title: String? = nil
    ) -> CodeExample {
        CodeExample(paths: paths, app: app, raises: true, parameters: parameters, facts: facts, title: title)
    }

    /// Artifacts of the check's kinds that do not raise the code, and the facts they give.
    public static func quiet(
        _ paths: String..., app: String? = nil, with parameters: [String: FactValue] = [:],
        facts: [String: FactValue?] = [:]
    ) -> CodeExample {
        CodeExample(paths: paths, app: app, raises: false, parameters: parameters, facts: facts)
    }
}
