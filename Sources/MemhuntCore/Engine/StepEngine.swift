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

/// Runs one step of a playbook over artifacts: the checks it names, with their merged parameters.
/// A hunt session (`HuntSession`) walks the steps; `run` is a loop over one.
public struct StepEngine: Sendable {
    public var checks: [String: any Check.Type]
    public var external: (any ExternalCheckRunner)?
    public var toolVersion: String

    public init(checks: [any Check.Type], external: (any ExternalCheckRunner)? = nil, toolVersion: String) {
        self.checks = Dictionary(checks.map { ($0.description.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.external = external
        self.toolVersion = toolVersion
    }

    /// Runs every step. Never throws: a failing check becomes a `CheckFailure` and the walk goes on.
    public func run(
        playbook: Playbook, artifacts: [Artifact], app: String?, allowExec: Bool = false,
        events: @Sendable (RunEvent) -> Void = { _ in }
    ) async -> RunResult {
        var session = HuntSession(playbook: playbook, artifacts: artifacts, app: app, allowExec: allowExec)
        while let pending = session.pendingIndex {
            events(.stepStarted(number: pending + 1, of: playbook.steps.count, playbook.steps[pending]))
            let result = await session.runPending(using: self)
            events(.stepFinished(result))
        }
        return session.result(toolVersion: toolVersion)
    }

    /// The given name wins; otherwise the app the crash reports name, when they all agree.
    public static func resolveSubject(app: String?, artifacts: [Artifact]) -> Subject {
        if let app, !app.isEmpty { return Subject(app: app, origin: .given) }
        let named = Set(
            artifacts.compactMap { artifact -> String? in
                guard artifact.status == .ok, case .crashReport(let report)? = artifact.content else { return nil }
                return report.appName
            })
        if named.count == 1 { return Subject(app: named.first, origin: .crashReports) }
        return Subject(app: nil, origin: .none)
    }

    /// Runs one step's checks over the `ok` artifacts of its kinds.
    public func run(
        step: Step, number: Int, playbook: Playbook, artifacts: [Artifact], subject: Subject, facts: Facts,
        allowExec: Bool
    ) async -> StepResult {
        let stepArtifacts = artifacts.filter { artifact in
            artifact.status == .ok && (artifact.kind.map(step.reads.contains) ?? false)
        }
        var output = CheckOutput()
        var failures: [CheckFailure] = []
        var factInfo: [String: FactInfo] = [:]
        var checksRun: [String] = []
        var ranAny = false
        for invocation in step.checks {
            var context = CheckContext(
                stepID: step.id, parameters: invocation.parameters, artifacts: stepArtifacts, subject: subject,
                facts: facts.merging(output.facts) { _, new in new }, playbookDirectory: playbook.directory)
            let produced: CheckOutput
            var declared: [String: FactDescription] = [:]
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
                declared = Dictionary(description.facts.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
                do {
                    produced = try await type.init().run(context)
                } catch {
                    produced = CheckOutput(failure: "check failed: \(error)")
                }
            case .exec(let argv, let timeout):
                if !allowExec {
                    let program = argv.first ?? ""
                    failures.append(
                        CheckFailure(
                            check: invocation.id,
                            message: "refused to run '\(program)': playbook \(playbook.origin) was loaded from a URL, "
                                + "and remote playbooks may not run executables",
                            next: .decide(.allowExec, "Allow this playbook to run its programs, if you trust it.")))
                    checksRun.append(invocation.id)
                    continue
                } else if let external {
                    produced = await external.run(argv: argv, timeout: timeout, context: context)
                } else {
                    produced = CheckOutput(failure: "external checks are not available")
                }
            }
            checksRun.append(invocation.id)
            if let failure = produced.failure {
                failures.append(CheckFailure(check: invocation.id, message: failure))
            }
            ranAny = ranAny || !produced.noInput
            output.facts.merge(produced.facts) { _, new in new }
            for key in produced.facts.keys {
                let unit = declared[key]?.unit ?? produced.units[key] ?? .number
                factInfo[key] = FactInfo(unit: unit, meaning: declared[key]?.meaning ?? "", check: invocation.id)
            }
            let checkID = invocation.id
            output.findings += produced.findings.map { finding in
                var finding = finding
                finding.step = step.id
                if finding.check.isEmpty { finding.check = checkID }
                return finding
            }
        }
        let status: StepStatus
        if !failures.isEmpty {
            status = .error
        } else if !ranAny && output.findings.isEmpty && output.facts.isEmpty {
            status = .noArtifact
        } else if output.findings.contains(where: { $0.severity >= .notice }) {
            status = .finding
        } else {
            status = .clear
        }
        return StepResult(
            number: number, step: step, status: status, facts: output.facts,
            findings: Self.bySeverity(output.findings), failures: failures, checksRun: checksRun, factInfo: factInfo)
    }

    /// Most severe first; the checks' order within one severity.
    static func bySeverity(_ findings: [Finding]) -> [Finding] {
        findings.enumerated().sorted { a, b in
            a.element.severity != b.element.severity ? a.element.severity > b.element.severity : a.offset < b.offset
        }.map(\.element)
    }

    /// A notice naming an artifact of this step's kinds that could not be read, and why.
    static func unreadable(_ artifact: Artifact, step: Step) -> Finding {
        let name = artifact.source.split(separator: "/").last.map(String.init) ?? artifact.source
        return Finding(
            code: "artifacts.unreadable", step: step.id, check: "artifacts", severity: .notice,
            title: "\(name) could not be read as \(artifact.kind!.rawValue)",
            detail:
                "\(artifact.source): \(artifact.error ?? "unreadable"). The step's facts come from the other artifacts.",
            evidence: [Evidence(source: artifact.source)],
            next: .collect(
                artifact.kind!,
                "Collect the file again whole (copies pasted from blogs and issues are often elided with '...')."))
    }
}
