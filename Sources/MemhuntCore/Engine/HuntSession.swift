import MemhuntFormats

/// A hunt walked one step at a time: the pending step, what it reads, the candidate artifacts;
/// artifacts may be added between steps, a step skipped, gone back to, or run again. `StepEngine.run`
/// is a loop over one, and guided triage drives one a person's answer at a time.
///
/// Its state (`state`) encodes to JSON and restores with the same playbook and artifacts.
public struct HuntSession: Sendable {
    public let playbook: Playbook
    /// Every artifact given so far, in the order given.
    public private(set) var artifacts: [Artifact] {
        didSet { subject = StepEngine.resolveSubject(app: app, artifacts: artifacts) }
    }
    /// The app named by the person, if any.
    public private(set) var app: String? {
        didSet { subject = StepEngine.resolveSubject(app: app, artifacts: artifacts) }
    }
    /// Whether `exec:` checks may run (always for local and built-in playbooks).
    public var allowExec: Bool
    /// Each step's result once run or skipped; nil while pending.
    public private(set) var results: [StepResult?]
    /// The step the walk is at.
    public private(set) var cursor: Int
    /// What this session's checks computed once for all of them.
    let memo = RunMemo()

    public init(playbook: Playbook, artifacts: [Artifact], app: String?, allowExec: Bool = false) {
        self.playbook = playbook
        self.artifacts = Artifact.markingDuplicates(artifacts)
        self.app = app
        self.allowExec = allowExec || !playbook.isRemote
        self.results = Array(repeating: nil, count: playbook.steps.count)
        self.cursor = 0
        self.subject = StepEngine.resolveSubject(app: app, artifacts: artifacts)
    }

    /// The subject as the artifacts and the given name decide it now: resolved when they change, not at
    /// each use (it walks every process of every JetsamEvent; a run asked for it nine times).
    public private(set) var subject: Subject

    /// The index of the step to run next, or nil when every step has a result.
    public var pendingIndex: Int? { cursor < playbook.steps.count ? cursor : nil }

    /// The step to run next.
    public var pendingStep: Step? { pendingIndex.map { playbook.steps[$0] } }

    /// Whether every step has run or been skipped.
    public var isFinished: Bool { pendingIndex == nil }

    /// The artifacts of the kinds step `index` reads, readable or not.
    public func candidates(forStep index: Int) -> [Artifact] {
        let reads = playbook.steps[index].reads
        return artifacts.filter { $0.kind.map(reads.contains) ?? false }
    }

    /// Adds artifacts; steps already run keep their results until run again.
    public mutating func add(_ more: [Artifact]) { artifacts = Artifact.markingDuplicates(artifacts + more) }

    /// Names the app under investigation.
    public mutating func setApp(_ name: String?) { app = name }

    /// Marks the pending step skipped and moves on.
    public mutating func skip() {
        guard let index = pendingIndex else { return }
        let step = playbook.steps[index]
        results[index] = StepResult(number: index + 1, step: step, status: .skipped, facts: [:], findings: [])
        cursor += 1
    }

    /// Goes back one step; its result stays until it is run again or skipped.
    public mutating func back() { cursor = max(0, cursor - 1) }

    /// Moves to step `index` (0-based), to run it again.
    public mutating func go(to index: Int) { cursor = min(max(0, index), playbook.steps.count) }

    /// The facts recorded by the steps before `index`.
    public func facts(before index: Int) -> Facts {
        results[..<index].reduce(into: Facts()) { all, result in
            if let result { all.merge(result.facts) { _, new in new } }
        }
    }

    /// Runs the pending step, stores its result and moves on.
    @discardableResult
    public mutating func runPending(using engine: StepEngine) async -> StepResult {
        let index = cursor
        let step = playbook.steps[index]
        var result = await engine.run(
            step: step, number: index + 1, playbook: playbook, artifacts: artifacts, subject: subject,
            facts: facts(before: index), allowExec: allowExec, memo: memo)
        let broken = unreadable(forStep: index)
        if !broken.isEmpty {
            result.findings = StepEngine.bySeverity(
                result.findings + broken.map { StepEngine.unreadable($0, step: step) })
            if [.clear, .noArtifact, .unanswered].contains(result.status) { result.status = .finding }
        }
        results[index] = result
        cursor = index + 1
        return result
    }

    /// Artifacts of a known kind that could not be read, reported by the first step that reads their kind.
    private func unreadable(forStep index: Int) -> [Artifact] {
        let earlier = Set(playbook.steps[..<index].flatMap(\.reads))
        let reads = playbook.steps[index].reads
        return artifacts.filter { artifact in
            guard artifact.status == .error, let kind = artifact.kind else { return false }
            return reads.contains(kind) && !earlier.contains(kind)
        }
    }

    /// The run so far: pending steps are left out.
    public func result(toolVersion: String) -> RunResult {
        var steps = results.compactMap { $0 }
        StepEngine.noteUnattributed(&steps, artifacts: artifacts, subject: subject)
        return RunResult(
            toolVersion: toolVersion, playbook: playbook, subject: subject, steps: steps, artifacts: artifacts)
    }

    // MARK: - State

    /// What a session needs to continue elsewhere: the playbook and artifacts are named, not copied.
    public struct State: Sendable, Hashable, Codable {
        public var playbookOrigin: String
        public var playbookSHA256: String?
        public var app: String?
        public var artifactSources: [String]
        public var cursor: Int
        public var steps: [StepState?]
    }

    /// One step's stored result.
    public struct StepState: Sendable, Hashable, Codable {
        public var id: String
        public var status: StepStatus
        public var facts: Facts
        public var factInfo: [String: FactInfo]
        public var findings: [Finding]
        public var failures: [CheckFailure]
        public var checksRun: [String]
        /// What the checks said a reader should see (absent in sessions saved before it existed).
        public var presentation: Presentation?
    }

    /// The session's state, to encode.
    public var state: State {
        State(
            playbookOrigin: playbook.origin, playbookSHA256: playbook.sha256, app: app,
            artifactSources: artifacts.map(\.source), cursor: cursor,
            steps: results.map { result in
                result.map {
                    StepState(
                        id: $0.step.id, status: $0.status, facts: $0.facts, factInfo: $0.factInfo,
                        findings: $0.findings, failures: $0.failures, checksRun: $0.checksRun,
                        presentation: $0.presentation)
                }
            })
    }

    /// Why a stored state does not fit the playbook it is restored with.
    public struct RestoreError: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// A session continued from `state`, over the same playbook (checked by sha256 and step ids) and the
    /// artifacts collected again from `state.artifactSources`.
    public init(restoring state: State, playbook: Playbook, artifacts: [Artifact], allowExec: Bool = false)
        throws(RestoreError)
    {
        if let stored = state.playbookSHA256, let now = playbook.sha256, stored != now {
            throw RestoreError(
                description: "the playbook \(playbook.origin) changed since the session was saved (sha256 differs)")
        }
        guard state.steps.count == playbook.steps.count else {
            throw RestoreError(
                description: "the session has \(state.steps.count) steps; playbook \(playbook.id) has "
                    + "\(playbook.steps.count)")
        }
        self.init(playbook: playbook, artifacts: artifacts, app: state.app, allowExec: allowExec)
        for (index, stored) in state.steps.enumerated() {
            guard let stored else { continue }
            let step = playbook.steps[index]
            guard stored.id == step.id else {
                throw RestoreError(
                    description: "step \(index + 1) of the session is '\(stored.id)'; the playbook's is '\(step.id)'")
            }
            results[index] = StepResult(
                number: index + 1, step: step, status: stored.status, facts: stored.facts, findings: stored.findings,
                failures: stored.failures, checksRun: stored.checksRun, factInfo: stored.factInfo,
                presentation: stored.presentation ?? Presentation())
        }
        cursor = min(max(0, state.cursor), playbook.steps.count)
    }
}
