/// How a step ended.
public enum StepStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Checks ran and found nothing at notice or above.
    case clear
    /// At least one finding at notice or above.
    case finding
    /// None of the artifacts this step reads was given.
    case noArtifact = "no-artifact"
    /// A check failed to run (timed out, crashed, printed garbage, was refused).
    case error
    /// The person skipped the step.
    case skipped
    /// The checks ran on the artifacts, and what the step inspects does not apply to them (the app was
    /// frontmost, not suspended, at step 3). Not the same as `clear`: nothing was found because there was
    /// nothing of this kind to find.
    case notApplicable = "not-applicable"
    /// Artifacts of the kinds this step reads were given, and its checks found nothing in them about the
    /// subject: no app was named, or none of them lists it. Not `no-artifact`: the artifacts are here.
    case unanswered
}

/// A check that could not run: its own record, never a finding, so a gate can tell it from a result.
public struct CheckFailure: Sendable, Hashable, Codable {
    /// Id of the check.
    public var check: String
    /// What went wrong, naming the program and the reason.
    public var message: String
    /// What would let it run, when the person can decide it (allow executables).
    public var next: NextAction?

    public init(check: String, message: String, next: NextAction? = nil) {
        self.check = check
        self.message = message
        self.next = next
    }
}

/// What a fact is, as recorded in a run: its unit, meaning and the check that recorded it.
public struct FactInfo: Sendable, Hashable, Codable {
    public var unit: FactUnit
    public var meaning: String
    /// Id of the check that recorded it.
    public var check: String
    /// Which way is better (`diff`, the comparisons): declared with the fact, else implied by its unit.
    public var better: Better
    /// A number that justifies a fix, to keep beside it.
    public var measure: Bool
    /// What it gives the verdict of a fix, if anything (`VerifyFix`).
    public var verifies: FixEvidence?

    public init(
        unit: FactUnit, meaning: String, check: String, better: Better? = nil, measure: Bool = false,
        verifies: FixEvidence? = nil
    ) {
        self.unit = unit
        self.meaning = meaning
        self.check = check
        self.better = better ?? .implied(by: unit)
        self.measure = measure
        self.verifies = verifies
    }
}

/// The outcome of one step.
public struct StepResult: Sendable, Hashable {
    public var number: Int
    public var step: Step
    public var status: StepStatus
    public var facts: Facts
    public var findings: [Finding]
    public var failures: [CheckFailure]
    /// Ids of the checks that ran (for per-check reports such as JUnit).
    public var checksRun: [String]
    /// Unit, meaning and check of each fact of this step.
    public var factInfo: [String: FactInfo]
    /// What the checks said a reader of the step should see, in check order.
    public var presentation: Presentation

    public init(
        number: Int, step: Step, status: StepStatus, facts: Facts, findings: [Finding], failures: [CheckFailure] = [],
        checksRun: [String] = [], factInfo: [String: FactInfo] = [:], presentation: Presentation = Presentation()
    ) {
        self.presentation = presentation
        self.number = number
        self.step = step
        self.status = status
        self.facts = facts
        self.findings = findings
        self.failures = failures
        self.checksRun = checksRun
        self.factInfo = factInfo
    }
}

/// Everything a run produced: the input from which the findings document is built.
public struct RunResult: Sendable, Hashable {
    public var toolVersion: String
    public var playbook: Playbook
    public var subject: Subject
    public var steps: [StepResult]
    public var artifacts: [Artifact]
    public init(toolVersion: String, playbook: Playbook, subject: Subject, steps: [StepResult], artifacts: [Artifact]) {
        self.toolVersion = toolVersion
        self.playbook = playbook
        self.subject = subject
        self.steps = steps
        self.artifacts = artifacts
    }

    /// Unit, meaning and check of every fact recorded.
    public var factCatalog: [String: FactInfo] {
        steps.reduce(into: [:]) { all, step in all.merge(step.factInfo) { _, new in new } }
    }

    /// All facts of all steps.
    public var facts: Facts {
        steps.reduce(into: Facts()) { all, step in all.merge(step.facts) { _, new in new } }
    }

    /// All findings, in step order.
    public var findings: [Finding] { steps.flatMap(\.findings) }

    /// Every check that could not run, in step order.
    public var failures: [CheckFailure] { steps.flatMap(\.failures) }

    /// The most severe finding, if any.
    public var highestSeverity: Severity? { findings.map(\.severity).max() }
}
