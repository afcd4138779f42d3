import Foundation
import MemhuntCore
import MemhuntFormats
import Testing

/// The engine one step at a time: pending step, candidates, skip, back, re-run, and state that restores.
@Suite struct HuntSessionTests {
    let engine = StepEngine(
        checks: [StepEngineTests.Counts.self, StepEngineTests.ReadsEarlierFacts.self], toolVersion: "test")

    var playbook: Playbook {
        Playbook(
            id: "p", title: "P", summary: "",
            steps: [
                Step(id: "one", title: "One", reads: [.jetsamEvent], checks: [.init(kind: .builtIn("counts"))]),
                Step(id: "two", title: "Two", checks: [.init(kind: .builtIn("doubles"))]),
                Step(id: "three", title: "Three", reads: [.crashReport]),
            ], origin: "test", sha256: "abc")
    }

    func jetsam(_ source: String) -> Artifact { Artifact(source: source, kind: .jetsamEvent, status: .ok) }

    @Test func walksOneStepAtATimeWithArtifactsAddedBetween() async {
        var session = HuntSession(playbook: playbook, artifacts: [jetsam("a")], app: "JustSend")
        #expect(session.pendingStep?.id == "one")
        #expect(session.candidates(forStep: 0).map(\.source) == ["a"])
        await session.runPending(using: engine)
        #expect(session.results[0]?.facts == ["count": 1])
        // Back, add a second record, run step one again: the later step sees the new count.
        session.back()
        session.add([jetsam("b")])
        #expect(session.candidates(forStep: 0).map(\.source) == ["a", "b"])
        await session.runPending(using: engine)
        await session.runPending(using: engine)
        #expect(session.results[1]?.facts == ["double": 4])
        session.skip()
        #expect(session.isFinished)
        let result = session.result(toolVersion: "test")
        #expect(result.steps.map(\.status) == [.finding, .clear, .skipped])
        #expect(result.subject == Subject(app: "JustSend", origin: .given))
    }

    @Test func stateEncodesAndRestoresWithEveryEarlierAnswer() async throws {
        var session = HuntSession(playbook: playbook, artifacts: [jetsam("a"), jetsam("b")], app: "JustSend")
        await session.runPending(using: engine)
        let data = try JSONEncoder().encode(session.state)
        let state = try JSONDecoder().decode(HuntSession.State.self, from: data)
        #expect(state.artifactSources == ["a", "b"])
        var restored = try HuntSession(restoring: state, playbook: playbook, artifacts: [jetsam("a"), jetsam("b")])
        #expect(restored.pendingStep?.id == "two")
        #expect(restored.results[0]?.facts == ["count": 2])
        #expect(restored.results[0]?.findings.map(\.code) == ["counts.records"])
        await restored.runPending(using: engine)
        #expect(restored.results[1]?.facts == ["double": 4])
    }

    @Test func restoreRefusesAChangedPlaybook() throws {
        let session = HuntSession(playbook: playbook, artifacts: [], app: nil)
        var changed = playbook
        changed.sha256 = "def"
        #expect(throws: HuntSession.RestoreError.self) {
            try HuntSession(restoring: session.state, playbook: changed, artifacts: [])
        }
    }
}
