import MemhuntFormats

/// Something that runs an `exec:` check. Implemented outside the core (subprocesses are I/O).
public protocol ExternalCheckRunner: Sendable {
    func run(argv: [String], timeout: Double, context: CheckContext) async -> CheckOutput
}

/// Progress of a run, for the terminal.
public enum RunEvent: Sendable {
    case stepStarted(number: Int, of: Int, Step)
    case stepFinished(StepResult)
}

/// Walks a playbook's steps in order over a set of artifacts.
public struct StepEngine: Sendable {
    public var checks: [String: any Check.Type]
    public var external: (any ExternalCheckRunner)?
    public var toolVersion: String

    public init(checks: [any Check.Type], external: (any ExternalCheckRunner)? = nil, toolVersion: String) {
        self.checks = Dictionary(checks.map { ($0.description.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.external = external
        self.toolVersion = toolVersion
    }

    /// Runs every step. Never throws: a failing check becomes an error finding and the walk goes on.
    public func run(
        playbook: Playbook, artifacts: [Artifact], app: String?, allowExec: Bool = false,
        events: @Sendable (RunEvent) -> Void = { _ in }
    ) async -> RunResult {
        let subject = Self.resolveSubject(app: app, artifacts: artifacts)
        let usable = artifacts.filter { $0.status == .ok }
        var facts = Facts()
        var results: [StepResult] = []
        var unreported = artifacts.filter { $0.status == .error && $0.kind != nil }
        for (index, step) in playbook.steps.enumerated() {
            events(.stepStarted(number: index + 1, of: playbook.steps.count, step))
            var result = await runStep(
                step, number: index + 1, playbook: playbook, artifacts: usable, subject: subject, facts: facts,
                allowExec: allowExec || !playbook.isRemote)
            // A JetsamEvent that was given but could not be read matters to the step that reads JetsamEvents.
            let broken = unreported.filter { step.reads.contains($0.kind!) }
            unreported.removeAll { step.reads.contains($0.kind!) }
            if !broken.isEmpty {
                result.findings += broken.map { Self.unreadable($0, step: step) }
                if result.status == .clear || result.status == .noArtifact { result.status = .finding }
            }
            facts.merge(result.facts) { _, new in new }
            results.append(result)
            events(.stepFinished(result))
        }
        return RunResult(
            toolVersion: toolVersion, playbook: playbook, subject: subject, steps: results, artifacts: artifacts)
    }

    /// `--app` wins; otherwise the app the crash reports name, when they all agree.
    public static func resolveSubject(app: String?, artifacts: [Artifact]) -> Subject {
        if let app, !app.isEmpty { return Subject(app: app, origin: "option") }
        let named = Set(
            artifacts.compactMap { artifact -> String? in
                guard artifact.status == .ok, case .crashReport(let report)? = artifact.content else { return nil }
                return report.appName
            })
        if named.count == 1 { return Subject(app: named.first, origin: "crash-reports") }
        return Subject(app: nil, origin: "none")
    }

    private func runStep(
        _ step: Step, number: Int, playbook: Playbook, artifacts: [Artifact], subject: Subject, facts: Facts,
        allowExec: Bool
    ) async -> StepResult {
        let stepArtifacts = artifacts.filter { artifact in artifact.kind.map(step.reads.contains) ?? false }
        var output = CheckOutput()
        var ranAny = false
        var failed = false
        for invocation in step.checks {
            var context = CheckContext(
                stepID: step.id, parameters: invocation.parameters, artifacts: stepArtifacts, subject: subject,
                facts: facts.merging(output.facts) { _, new in new }, playbookDirectory: playbook.directory)
            let produced: CheckOutput
            switch invocation.kind {
            case .builtIn(let id):
                guard let type = checks[id] else {
                    produced = CheckOutput(failure: "unknown check '\(id)'")
                    break
                }
                let description = type.description
                let readsAny = stepArtifacts.contains { $0.kind.map(description.reads.contains) ?? false }
                guard readsAny || description.runsWithoutArtifacts else { continue }
                for parameter in description.parameters where context.parameters[parameter.name] == nil {
                    context.parameters[parameter.name] = parameter.defaultValue
                }
                do {
                    produced = try await type.init().run(context)
                } catch {
                    produced = CheckOutput(failure: "check failed: \(error)")
                }
            case .exec(let argv, let timeout):
                if !allowExec {
                    produced = CheckOutput(
                        failure: "refused to run '\(argv.first ?? "")': playbook \(playbook.origin) was loaded from a "
                            + "URL, and remote playbooks may not run executables. Pass --allow-exec to allow it.")
                } else if let external {
                    produced = await external.run(argv: argv, timeout: timeout, context: context)
                } else {
                    produced = CheckOutput(failure: "external checks are not available")
                }
            }
            if let failure = produced.failure {
                failed = true
                output.emit(Self.errorFinding(step: step, check: invocation.id, failure))
            }
            ranAny = ranAny || !produced.noInput
            output.facts.merge(produced.facts) { _, new in new }
            let checkID = invocation.id
            output.findings += produced.findings.map { finding in
                var finding = finding
                finding.step = step.id
                if finding.check.isEmpty { finding.check = checkID }
                return finding
            }
        }
        let status: StepStatus
        if failed {
            status = .error
        } else if !ranAny && output.findings.isEmpty && output.facts.isEmpty {
            status = .noArtifact
        } else if output.findings.contains(where: { $0.severity >= .notice }) {
            status = .finding
        } else {
            status = .clear
        }
        return StepResult(number: number, step: step, status: status, facts: output.facts, findings: output.findings)
    }

    /// A notice naming an artifact of this step's kinds that could not be read, and why.
    private static func unreadable(_ artifact: Artifact, step: Step) -> Finding {
        let name = artifact.source.split(separator: "/").last.map(String.init) ?? artifact.source
        return Finding(
            step: step.id, check: "artifacts", severity: .notice,
            title: "\(name) could not be read as \(artifact.kind!.rawValue)",
            detail:
                "\(artifact.source): \(artifact.error ?? "unreadable"). The step's facts come from the other artifacts.",
            evidence: [Evidence(source: artifact.source)],
            next: "Collect the file again whole (copies pasted from blogs and issues are often elided with '...').")
    }

    private static func errorFinding(step: Step, check: String, _ message: String) -> Finding {
        Finding(
            step: step.id, check: check, severity: .warning, title: "Check '\(check)' could not run", detail: message)
    }
}
