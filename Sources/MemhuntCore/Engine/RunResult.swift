/// How a step ended.
public enum StepStatus: String, Sendable, Hashable, Codable {
    /// Checks ran and found nothing at notice or above.
    case clear
    /// At least one finding at notice or above.
    case finding
    /// None of the artifacts this step reads was given.
    case noArtifact = "no-artifact"
    /// A check failed to run.
    case error
}

/// The outcome of one step.
public struct StepResult: Sendable, Hashable {
    public var number: Int
    public var step: Step
    public var status: StepStatus
    public var facts: Facts
    public var findings: [Finding]

    public init(number: Int, step: Step, status: StepStatus, facts: Facts, findings: [Finding]) {
        self.number = number
        self.step = step
        self.status = status
        self.facts = facts
        self.findings = findings
    }
}

/// Everything a run produced: the single input of every report renderer.
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

    /// All facts of all steps.
    public var facts: Facts {
        steps.reduce(into: Facts()) { all, step in all.merge(step.facts) { _, new in new } }
    }

    /// All findings, in step order.
    public var findings: [Finding] { steps.flatMap(\.findings) }

    /// The most severe finding, if any.
    public var highestSeverity: Severity? { findings.map(\.severity).max() }
}
