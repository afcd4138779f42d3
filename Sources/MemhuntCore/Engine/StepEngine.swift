import MemhuntFormats

/// Something that runs an `exec:` check. Implemented outside the core (subprocesses are I/O).
public protocol ExternalCheckRunner: Sendable {
    /// Runs `argv` with the minimal environment and the variables `env` names.
    func run(argv: [String], timeout: Double, env: [String], context: CheckContext) async -> CheckOutput
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

    /// The given name wins (with `matched` saying whether any artifact names it, and the apps they do name
    /// when none does; spelled as the artifacts spell it when they differ from it in case only); otherwise the app every artifact that names one agrees on (crash reports, MetricKit
    /// payloads, vmmap, footprint, samples). When they name several apps, no subject, and `candidates` lists them.
    public static func resolveSubject(app: String?, artifacts: [Artifact]) -> Subject {
        let owned = artifacts.compactMap { artifact -> (artifact: Artifact, names: [String])? in
            let names = ArtifactOwner.names(of: artifact)
            return names.isEmpty ? nil : (artifact, names)
        }
        if let app, !app.isEmpty {
            var subject = Subject(app: app, origin: .given)
            let records = artifacts.compactMap { artifact -> JetsamEvent? in
                guard artifact.status == .ok, case .jetsamEvent(let event)? = artifact.content else { return nil }
                return event
            }
            // The processes a log's kill lines name count as a JetsamEvent's do: they name the app, not choose it.
            let killed = artifacts.flatMap { $0.killLog?.processNames ?? [] }
            guard !owned.isEmpty || records.contains(where: { !$0.processes.isEmpty }) || !killed.isEmpty else {
                return subject
            }
            // A record's largestProcess names a process too, even where its process list was cut.
            let matched =
                owned.contains { $0.names.contains(where: subject.matches) }
                || records.contains { $0.processes.contains { subject.matches($0.name) } }
                || records.contains { subject.matches($0.largestProcess) }
                || killed.contains(where: subject.matches)
            subject.matched = matched
            // `--app justsend` for the process `JustSend`: the texts name the app as its artifacts spell it,
            // when they spell it one way and never as given.
            // Only names the subject matches (its cheap ASCII comparison) are lowercased: lowercasing every name of a
            // JetsamEvent for each of the run's calls showed in a run's profile.
            let wanted = app.lowercased()
            let named = owned.flatMap(\.names) + records.flatMap { $0.processes.map(\.name) } + killed
            let spellings = unique(named.filter { subject.matches($0) && $0.lowercased() == wanted })
            if matched, spellings.count == 1, let spelling = spellings.first, spelling != app {
                subject.app = spelling
            }
            if !matched {
                var names = owned.compactMap(\.names.first)
                for event in records {
                    names += JetsamEventNames.apps(event)
                }
                names += killed
                subject.candidates = unique(names)
                // A record that lists every living process and leaves the app out answers: it was not running
                // then. So do names of the app's family. A close spelling is a typo more likely than an absence.
                let complete = records.contains { !$0.processes.isEmpty && ($0.recovery?.isComplete ?? true) }
                let carried = owned.flatMap(\.names) + records.flatMap { $0.processes.map(\.name) }
                let family = carried.contains { Self.sameFamily(app, $0) }
                subject.absenceAnswered =
                    (complete || family) && Suggestion.closest(to: app, among: subject.candidates ?? []) == nil
            }
            return subject
        }
        guard let first = owned.first else { return Subject(app: nil, origin: .none) }
        // Agreement: every owner matches the first one's names (case-insensitive, bundle id or cut name).
        let probe = Subject(app: first.names[0], bundleID: first.names.first(where: Subject.isBundleID), origin: .none)
        let agree = owned.allSatisfy { owner in owner.names.contains(where: probe.matches) }
        guard agree else {
            return Subject(app: nil, origin: .none, candidates: unique(owned.compactMap(\.names.first)))
        }
        // The app's name: a crash report's app name, else a process name, else the bundle id's last component.
        let reports = owned.filter { if case .crashReport? = $0.artifact.content { true } else { false } }
        let name =
            reports.first?.names.first
            ?? owned.flatMap(\.names).first { !Subject.isBundleID($0) }
            ?? Subject.shortName(first.names[0])
        let bundle = owned.flatMap(\.names).first { Subject.isBundleID($0) && $0 != name }
        return Subject(
            app: name, bundleID: bundle, origin: reports.count == owned.count ? .crashReports : .artifacts)
    }

    /// Whether two names are of one app family: one a bundle id that starts with the other and a dot
    /// (`com.example.JustSend` and its extension `com.example.JustSend.Widget`), ignoring case.
    static func sameFamily(_ a: String, _ b: String) -> Bool {
        let x = a.lowercased(), y = b.lowercased()
        return x != y && (x.hasPrefix(y + ".") || y.hasPrefix(x + ".")) && x.contains(".") && y.contains(".")
    }

    /// Whether an artifact is a record of many processes (a JetsamEvent, a log's kill lines): never one app's as a
    /// whole; the checks pick the subject's process or kills.
    static func isOfManyProcesses(_ artifact: Artifact) -> Bool {
        artifact.kind == .jetsamEvent || artifact.kind == .killLog
    }

    private static func unique(_ names: [String]) -> [String] {
        var seen: [String] = []
        for name in names where !seen.contains(name) { seen.append(name) }
        return seen
    }

    /// Runs one step's checks over the `ok` artifacts of its kinds.
    public func run(
        step: Step, number: Int, playbook: Playbook, artifacts: [Artifact], subject: Subject, facts: Facts,
        allowExec: Bool, memo: RunMemo = RunMemo()
    ) async -> StepResult {
        // Artifacts that name another app never speak for the subject; they are listed instead. Without a
        // subject because the artifacts name several apps, none of those that name one speaks for "the app"
        // (crash reports excepted: the crash check attributes each to its own app).
        let undecided = subject.app == nil && !(subject.candidates ?? []).isEmpty
        // A JetsamEvent and a log's kill lines are records of many processes: never another app's as a whole (the
        // checks pick the subject's process or kills).
        func isForeign(_ artifact: Artifact, for kinds: [ArtifactKind]) -> Bool {
            guard !Self.isOfManyProcesses(artifact) else { return false }
            if kinds.contains(.killLog), artifact.killLog != nil { return false }
            if undecided { return artifact.kind != .crashReport && ArtifactOwner.name(of: artifact) != nil }
            return ArtifactOwner.belongs(artifact, to: subject) == false
        }
        func reads(_ artifact: Artifact, _ kinds: [ArtifactKind]) -> Bool {
            artifact.status == .ok && artifact.duplicateOf == nil && kinds.contains(where: artifact.holds)
        }
        func usable(_ kinds: [ArtifactKind]) -> [Artifact] {
            artifacts.filter { reads($0, kinds) && !isForeign($0, for: kinds) }
        }
        let foreign = artifacts.filter { reads($0, step.reads) && isForeign($0, for: step.reads) }
        let stepArtifacts = usable(step.reads)
        var output = CheckOutput()
        var failures: [CheckFailure] = []
        var factInfo: [String: FactInfo] = [:]
        var checksRun: [String] = []
        var ranAny = false
        var applies = false
        var inapplicable = false
        for invocation in step.checks {
            var context = CheckContext(
                stepID: step.id, parameters: invocation.parameters, artifacts: stepArtifacts, subject: subject,
                facts: facts.merging(output.facts) { _, new in new }, playbookDirectory: playbook.directory,
                memo: memo)
            let produced: CheckOutput
            var declared: [String: FactDescription] = [:]
            switch invocation.kind {
            case .builtIn(let id):
                guard let type = checks[id] else {
                    produced = CheckOutput(failure: "unknown check '\(id)'")
                    break
                }
                let description = type.description
                if !description.weighs.isEmpty { context.artifacts = usable(step.reads + description.weighs) }
                let readsAny = stepArtifacts.contains { description.reads.contains(where: $0.holds) }
                guard readsAny || description.runsWithoutArtifacts else { continue }
                declared = Dictionary(description.facts.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
                produced = await Self.run(type, in: context, given: artifacts)
            case .exec(let argv, let timeout, let env):
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
                    produced = await external.run(argv: argv, timeout: timeout, env: env, context: context)
                } else {
                    produced = CheckOutput(failure: "external checks are not available")
                }
            }
            checksRun.append(invocation.id)
            if let failure = produced.failure {
                failures.append(CheckFailure(check: invocation.id, message: failure))
            }
            ranAny = ranAny || !produced.noInput
            if produced.notApplicable { inapplicable = true } else if !produced.noInput { applies = true }
            Self.absorb(produced, of: invocation, declared: declared, step: step, into: &output, factInfo: &factInfo)
        }
        if !foreign.isEmpty { output.findings.append(Self.otherApps(foreign, subject: subject, step: step)) }
        let status: StepStatus
        if !failures.isEmpty {
            status = .error
        } else if !ranAny && output.facts.isEmpty
            && output.findings.allSatisfy({ $0.code == EngineFindings.otherApp.code })
        {
            // With artifacts of its kinds given, the step is not short of artifacts: they say nothing of the
            // subject (a JetsamEvent without `--app`, or one that does not list the app).
            // Artifacts of the step's kinds that are of other apps were given too: unanswered, not no artifact.
            status = stepArtifacts.isEmpty && foreign.isEmpty ? .noArtifact : .unanswered
        } else {
            status = Self.status(of: output.findings, inapplicable: inapplicable && !applies)
        }
        return StepResult(
            number: number, step: step, status: status, facts: output.facts,
            findings: Self.bySeverity(output.findings), failures: failures, checksRun: checksRun, factInfo: factInfo,
            presentation: output.presentation)
    }

    /// A built-in check run over `context`: the files of its kinds that could not be read, and its parameters'
    /// defaults, given first; a check that throws is a failure of its own.
    private static func run(_ type: any Check.Type, in context: CheckContext, given artifacts: [Artifact]) async
        -> CheckOutput
    {
        var context = context
        let description = type.description
        let kinds = description.reads + description.weighs
        context.unread = artifacts.filter { artifact in
            artifact.holdsUnknownContent && (artifact.kind.map(kinds.contains) ?? true)
        }
        for parameter in description.parameters where context.parameters[parameter.name] == nil {
            context.parameters[parameter.name] = parameter.defaultValue
        }
        do {
            return try await type.init().run(context)
        } catch {
            return CheckOutput(failure: "check failed: \(error)")
        }
    }

    /// What one check produced, added to the step's output: its facts (with their declared unit and meaning),
    /// its presentation, and its findings marked with the step and the check.
    private static func absorb(
        _ produced: CheckOutput, of invocation: CheckInvocation, declared: [String: FactDescription], step: Step,
        into output: inout CheckOutput, factInfo: inout [String: FactInfo]
    ) {
        output.facts.merge(produced.facts) { _, new in new }
        for key in produced.facts.keys {
            let unit = declared[key]?.unit ?? produced.units[key] ?? .number
            factInfo[key] = FactInfo(
                unit: unit, meaning: declared[key]?.meaning ?? "", check: invocation.id,
                better: declared[key]?.better, measure: declared[key]?.measure ?? false,
                verifies: declared[key]?.verifies)
        }
        output.presentation.append(produced.presentation)
        if case .exec = invocation.kind {
            // An external check says nothing of how to show its facts: each is its own headline item.
            for key in produced.facts.keys.sorted() {
                let unit = produced.units[key] ?? .number
                output.presentation.headline.append(
                    Headline(key: key, label: key, text: unit.format(produced.facts[key]!)))
            }
        }
        output.findings += produced.findings.map { finding in
            var finding = finding
            finding.step = step.id
            if finding.check.isEmpty { finding.check = invocation.id }
            return finding
        }
    }

    /// A step that ran and spoke: a finding at notice or above, else not applicable when every check that read
    /// something said so, else clear.
    private static func status(of findings: [Finding], inapplicable: Bool) -> StepStatus {
        if findings.contains(where: { $0.severity >= .notice }) { return .finding }
        return inapplicable ? .notApplicable : .clear
    }

    /// Most severe first; the checks' order within one severity.
    static func bySeverity(_ findings: [Finding]) -> [Finding] {
        findings.enumerated().sorted { a, b in
            a.element.severity != b.element.severity ? a.element.severity > b.element.severity : a.offset < b.offset
        }.map(\.element)
    }

    /// The subject was named and no artifact of one app names it (a JetsamEvent lists every process, so its
    /// listing the subject ties nothing else to it): what names no app is read as the subject's only because it
    /// was named, and each step that read such artifacts says so. Over the run's results and all its artifacts,
    /// once the steps ran, so that a run and a triage of the same artifacts say the same.
    static func noteUnattributed(_ results: inout [StepResult], artifacts: [Artifact], subject: Subject) {
        guard subject.origin == .given, let app = subject.app else { return }
        func ofOneApp(_ artifact: Artifact) -> Bool { !isOfManyProcesses(artifact) }
        guard !artifacts.contains(where: { ofOneApp($0) && ArtifactOwner.belongs($0, to: subject) == true }) else {
            return
        }
        for index in results.indices where [.clear, .finding].contains(results[index].status) {
            let step = results[index].step
            let anonymous = artifacts.filter {
                $0.status == .ok && $0.duplicateOf == nil && step.reads.contains(where: $0.holds) && ofOneApp($0)
                    && ArtifactOwner.name(of: $0) == nil
            }
            guard !anonymous.isEmpty else { continue }
            results[index].findings.append(
                Finding(
                    code: EngineFindings.unattributed.code, step: step.id, check: EngineFindings.check,
                    severity: .info,
                    title: Plural.count(anonymous.count, "artifact")
                        + (anonymous.count == 1 ? " that names" : " that name") + " no app, read as \(app)'s "
                        + "because it was named",
                    detail: "No artifact of one app names \(app) (a JetsamEvent lists every process), and "
                        + (anonymous.count == 1 ? "this one names" : "these name") + " no app at all: "
                        + anonymous.map(\.source).joined(separator: ", ")
                        + ". What this step says of them is of \(app) only if they were taken of it.",
                    evidence: anonymous.map { Evidence(source: $0.source) }))
        }
    }

    /// An info listing the artifacts of this step's kinds that belong to other apps, grouped by app.
    static func otherApps(_ artifacts: [Artifact], subject: Subject, step: Step) -> Finding {
        var groups: [(app: String, sources: [String])] = []
        for artifact in artifacts {
            let app = ArtifactOwner.name(of: artifact) ?? "?"
            if let index = groups.firstIndex(where: { $0.app == app }) {
                groups[index].sources.append(artifact.source)
            } else {
                groups.append((app, [artifact.source]))
            }
        }
        let listing = groups.map { "\($0.app) (\(Plural.count($0.sources.count, "artifact")))" }
        let files = groups.map { "\($0.app): " + $0.sources.joined(separator: ", ") }.joined(separator: "; ") + "."
        guard let mine = subject.app else {
            return Finding(
                code: EngineFindings.otherApp.code, step: step.id, check: EngineFindings.check, severity: .info,
                title: Plural.count(artifacts.count, "artifact") + " of apps not chosen: "
                    + listing.joined(separator: ", "),
                detail: "The artifacts name several apps and none was chosen, so these are not read as the app's: "
                    + files,
                evidence: artifacts.map { Evidence(source: $0.source) },
                next: .decide(.chooseApp, "Name the app under investigation."))
        }
        return Finding(
            code: EngineFindings.otherApp.code, step: step.id, check: EngineFindings.check, severity: .info,
            title: Plural.count(artifacts.count, "artifact") + " of other apps, not of \(mine): "
                + listing.joined(separator: ", "),
            detail: "These name another process than \(mine), so none of their numbers is counted as \(mine)'s: "
                + files,
            evidence: artifacts.map { Evidence(source: $0.source) })
    }

    /// A notice naming an artifact of this step's kinds that could not be read, and why.
    static func unreadable(_ artifact: Artifact, step: Step) -> Finding {
        let name = artifact.fileName
        return Finding(
            code: EngineFindings.unreadable.code, step: step.id, check: EngineFindings.check, severity: .notice,
            title: "\(name) could not be read as \(artifact.kind!.rawValue)",
            detail:
                "\(artifact.source): \(artifact.error ?? "unreadable"). The step's facts come from the other artifacts.",
            evidence: [Evidence(source: artifact.source)],
            next: .collect(
                artifact.kind!,
                "Collect the file again whole (copies pasted from blogs and issues are often elided with '...')."))
    }
}
