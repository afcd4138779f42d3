import MemhuntCore
import MemhuntFormats

/// What one artifact says on its own: the facts of every built-in check that reads its kind, run over
/// that artifact alone, with no playbook and no subject. A lone JetsamEvent gets jetsam facts and no
/// crash facts (the crash check reads crash reports only).
public enum RecordFacts {
    public static func describe(_ artifact: Artifact) async -> (facts: Facts, catalog: [String: FactInfo]) {
        guard artifact.status == .ok, let kind = artifact.kind else { return ([:], [:]) }
        // A change log that holds kill lines is read for both.
        let kinds = [kind] + (kind != .killLog && artifact.holds(.killLog) ? [.killLog] : [])
        let readers = builtInChecks.filter { $0.description.reads.contains(where: kinds.contains) }
        guard !readers.isEmpty else { return ([:], [:]) }
        let step = Step(
            id: "inspect", title: "Inspect", reads: kinds,
            checks: readers.map { CheckInvocation(kind: .builtIn($0.description.id)) })
        let playbook = Playbook(id: "inspect", title: "Inspect", summary: "", steps: [step], origin: "inspect")
        let engine = StepEngine(checks: builtInChecks, toolVersion: "")
        let result = await engine.run(
            step: step, number: 1, playbook: playbook, artifacts: [artifact], subject: Subject(app: nil, origin: .none),
            facts: [:], allowExec: false)
        // A check's settings (a limit and its default) are no fact of the file.
        let settings = Set(readers.flatMap { $0.description.facts.filter(\.setting).map(\.key) })
        return (
            result.facts.filter { !settings.contains($0.key) }, result.factInfo.filter { !settings.contains($0.key) }
        )
    }
}
