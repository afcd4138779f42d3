import MemhuntFormats

/// A parameter a check accepts under `with:` in a playbook.
public struct CheckParameter: Sendable, Hashable {
    public var name: String
    public var defaultValue: FactValue
    public var help: String

    public init(_ name: String, default defaultValue: FactValue, _ help: String) {
        self.name = name
        self.defaultValue = defaultValue
        self.help = help
    }
}

/// The one description of a check: drives `memhunt checks`, the docs and the check's tests.
public struct CheckDescription: Sendable, Hashable {
    /// Kebab-case id used in playbooks (`jetsam-rank`).
    public var id: String
    public var title: String
    /// Id of the step this check serves in the shipped playbooks (`jetsam-record`), for listings only.
    public var step: String
    /// Why the check exists: what the number tells.
    public var rationale: String
    /// Kinds the check reads.
    public var reads: [ArtifactKind]
    /// The facts the check may record, with units and meanings.
    public var facts: [FactDescription]
    /// The findings the check may emit; a test fails when a check emits a code it did not declare.
    public var codes: [FindingCode]
    /// Thresholds and their only defaults; the engine merges a playbook's `with:` over them.
    public var parameters: [CheckParameter]
    /// Whether the check runs when none of its artifacts is present (the crash check does:
    /// no crash report is information).
    public var runsWithoutArtifacts: Bool
    /// Kinds the check also reads wherever it runs, whether or not its step reads them, to weigh them
    /// against its own (the crash check weighs a jetsam kill reason and MetricKit's exit counts before it
    /// says the app stayed alive). They never make a step `no-artifact` or not.
    public var weighs: [ArtifactKind]

    public init(
        id: String, title: String, step: String, rationale: String, reads: [ArtifactKind], facts: [FactDescription],
        codes: [FindingCode], parameters: [CheckParameter] = [], runsWithoutArtifacts: Bool = false,
        weighs: [ArtifactKind] = []
    ) {
        self.weighs = weighs
        self.id = id
        self.title = title
        self.step = step
        self.rationale = rationale
        self.reads = reads
        self.facts = facts
        self.codes = codes
        self.parameters = parameters
        self.runsWithoutArtifacts = runsWithoutArtifacts
    }
}

/// What a check is handed: its step, merged parameters, artifacts, subject and the facts so far.
public struct CheckContext: Sendable {
    public var stepID: String
    /// `with:` values over the description's defaults.
    public var parameters: [String: FactValue]
    /// Every artifact of the run with status `ok`; use `artifacts(of:)`.
    public var artifacts: [Artifact]
    public var subject: Subject
    /// Facts recorded by earlier steps.
    public var facts: Facts
    /// Directory of the playbook file, for resolving relative paths (nil for built-in playbooks).
    public var playbookDirectory: String?
    /// What the run computed once for all its checks (record snapshots).
    public var memo: RunMemo
    /// Artifacts given that could not be read and that may be of the kinds the check reads (their kind was
    /// detected as one of them, or no kind was): evidence of unknown content, so the check never says "no X"
    /// while one is here.
    public var unread: [Artifact] = []

    public init(
        stepID: String, parameters: [String: FactValue], artifacts: [Artifact], subject: Subject, facts: Facts,
        playbookDirectory: String? = nil, memo: RunMemo = RunMemo()
    ) {
        self.stepID = stepID
        self.parameters = parameters
        self.artifacts = artifacts
        self.subject = subject
        self.facts = facts
        self.playbookDirectory = playbookDirectory
        self.memo = memo
    }

    /// "1 file that may be a crash report could not be read: NAME: why", for the unread artifacts that may
    /// be of `kind`; nil when there are none.
    public func unreadNote(_ kind: ArtifactKind, as what: String) -> String? {
        let files = unread.filter { $0.kind == nil || $0.kind == kind }
        guard !files.isEmpty else { return nil }
        let named = files.prefix(3).map { $0.fileName + ($0.error.map { ": " + $0 } ?? "") }
        return Plural.count(files.count, "file") + " that may be " + what + " could not be read ("
            + named.joined(separator: "; ") + (files.count > 3 ? "; …" : "") + ")"
    }

    /// The `ok` artifacts that hold records of one kind (`Artifact.holds`: a change log with kill lines is also
    /// one of `kill-log`), in source order.
    public func artifacts(of kind: ArtifactKind) -> [Artifact] {
        artifacts.filter { $0.status == .ok && $0.holds(kind) }
    }

    /// A numeric parameter. The engine has merged the description's defaults, so a declared parameter
    /// is always present; 0 only for a name the check never declared (a test guards that).
    public func double(_ name: String) -> Double { parameters[name]?.doubleValue ?? 0 }
    /// A whole-number parameter (see `double(_:)`).
    public func int(_ name: String) -> Int { parameters[name]?.intValue ?? Int(saturating: double(name)) }
    /// A text parameter, if given.
    public func string(_ name: String) -> String? { parameters[name]?.stringValue }
}

/// What a check produced.
public struct CheckOutput: Sendable, Hashable {
    public var facts: Facts
    /// Units of facts the check did not declare in its description (external checks say them per fact).
    public var units: [String: FactUnit]
    public var findings: [Finding]
    /// Set when the check found no input of its own to speak about (the step may then be `no-artifact`).
    public var noInput: Bool
    /// Set when the check could not run (an external check that timed out, crashed, printed garbage).
    /// The engine records it as a `CheckFailure` and the step's status becomes `error`.
    public var failure: String?
    /// Set when the check read its artifacts and what it inspects does not apply to them (the app was not
    /// suspended): the step is then `not-applicable` rather than `clear`, unless another check found something.
    public var notApplicable: Bool = false
    /// What a reader of the step should see first: headline facts, comparisons, series, events, impact.
    public var presentation = Presentation()

    public init(
        facts: Facts = [:], units: [String: FactUnit] = [:], findings: [Finding] = [], noInput: Bool = false,
        failure: String? = nil
    ) {
        self.facts = facts
        self.units = units
        self.findings = findings
        self.noInput = noInput
        self.failure = failure
    }

    public mutating func record(_ key: String, _ value: FactValue?) {
        if let value { facts[key] = value }
    }

    /// Records a declared fact.
    public mutating func record(_ fact: FactDescription, _ value: FactValue?) { record(fact.key, value) }

    public mutating func emit(_ finding: Finding) { findings.append(finding) }

    /// Emits a finding of a declared code, at the code's severity unless the evidence says otherwise.
    public mutating func emit(
        _ code: FindingCode, severity: Severity? = nil, title: String, detail: String, evidence: [Evidence] = [],
        next: NextAction? = nil, pattern: String? = nil
    ) {
        var finding = code.finding(severity: severity, title: title, detail: detail, evidence: evidence, next: next)
        finding.pattern = pattern
        findings.append(finding)
    }
}

extension FindingCode {
    /// A finding of this code, at its declared severity unless the evidence says otherwise: what a check's helper
    /// gives back for its caller to emit.
    public func finding(
        severity: Severity? = nil, title: String, detail: String, evidence: [Evidence] = [], next: NextAction? = nil
    ) -> Finding {
        Finding(
            code: code, severity: severity ?? self.severity, title: title, detail: detail, evidence: evidence,
            next: next)
    }
}

extension CheckOutput {

    /// Shows a recorded fact in the step's headline: `text` is the value with its context
    /// ("7 of 16"); without it, the value with its unit.
    public mutating func headline(_ fact: FactDescription, _ label: String, _ text: String? = nil) {
        guard let value = facts[fact.key] else { return }
        presentation.headline.append(Headline(key: fact.key, label: label, text: text ?? fact.format(value)))
    }

    /// Lays two measures side by side.
    public mutating func compare(_ comparison: Comparison) { presentation.comparisons.append(comparison) }

    /// Adds values to chart.
    public mutating func chart(_ series: Series) { presentation.series.append(series) }

    /// Adds a timeline event.
    public mutating func event(_ event: TimelineEvent) { presentation.events.append(event) }

    /// Adds a line a postmortem's impact may quote.
    public mutating func impact(_ line: String) { presentation.impact.append(line) }

    /// Adds a line a postmortem's "what went well" may quote.
    public mutating func strength(_ line: String) { presentation.strengths.append(line) }
}

/// A check: reads artifacts and facts, records facts, emits findings. Stateless.
public protocol Check: Sendable {
    static var description: CheckDescription { get }
    init()
    func run(_ context: CheckContext) async throws -> CheckOutput
}

extension Check {
    public var description: CheckDescription { Self.description }
}

/// A check in two parts: `measure` reads the artifacts into a small typed value (numbers, names, evidence
/// places, never a sentence), and `say` turns it into facts, presentation and findings, through the declared
/// codes only. The words live in the check's message builders, at the end of its file. `run` is the two in turn.
public protocol MeasuringCheck: Check {
    associatedtype Measurement
    /// What the artifacts show; nil when the check has nothing to read.
    func measure(_ context: CheckContext) async throws -> Measurement?
    /// The facts, presentation and findings of `measurement`.
    func say(_ measurement: Measurement, in context: CheckContext, to output: inout CheckOutput)
}

extension MeasuringCheck {
    public func run(_ context: CheckContext) async throws -> CheckOutput {
        guard let measurement = try await measure(context) else { return CheckOutput(noInput: true) }
        var output = CheckOutput()
        say(measurement, in: context, to: &output)
        return output
    }
}

extension CheckOutput {
    /// A timeline event at the artifact's own time (`Crash report written`), when it writes one.
    public mutating func event(_ text: String, of artifact: Artifact) {
        guard let time = artifact.incidentTime else { return }
        event(TimelineEvent(time: time, text: text, source: artifact.source))
    }
}
