import Foundation
import MemhuntCore
import MemhuntTestSupport
import Testing

@testable import MemhuntChecks

@Suite struct ExternalCheckTests {
    let runner = ProcessCheckRunner(stdoutLimit: 64 << 10)

    func context() -> CheckContext {
        CheckContext(
            stepID: "custom", parameters: ["threshold": 5],
            artifacts: [
                Artifact(source: "Fixtures/justsend/x.ips", localPath: "/tmp/x.ips", kind: .jetsamEvent, status: .ok)
            ],
            subject: Subject(app: "JustSend", origin: .given), facts: ["jetsam.compressions": 15_734_833],
            playbookDirectory: Repo.fixture("checks"))
    }

    @Test func okCheckRunsAndReportsNothing() async {
        let output = await runner.run(argv: ["./ok.sh"], timeout: 10, context: context())
        #expect(output.failure == nil)
        #expect(output.findings.isEmpty)
        #expect(output.facts.isEmpty)
    }

    @Test func emitsFactsAndFindingsFromTheRequest() async {
        let output = await runner.run(argv: ["python3", "emits.py"], timeout: 10, context: context())
        #expect(output.failure == nil)
        #expect(output.facts["custom.artifacts"] == 1)
        #expect(output.facts["custom.step"] == "custom")
        #expect(output.facts["custom.threshold"] == 5)
        #expect(output.findings.count == 1)
        #expect(output.findings.first?.severity == .warning)
        #expect(output.findings.first?.title == "Custom rule tripped for JustSend")
        #expect(output.findings.first?.detail == "compressions seen: 15734833")
        #expect(output.findings.first?.evidence == [Evidence(source: "Fixtures/justsend/x.ips", line: 1)])
    }

    @Test func malformedJSONNamesTheLine() async {
        let output = await runner.run(argv: ["./bad-json.sh"], timeout: 10, context: context())
        #expect(output.failure == "'./bad-json.sh' printed malformed JSON on stdout line 2: {not json")
    }

    @Test func hangingCheckIsKilledAtItsTimeout() async {
        let start = Date()
        let output = await runner.run(argv: ["./hangs.sh"], timeout: 1, context: context())
        // The child sleeps 600 s; coming back well before that proves the kill. The bound is loose
        // because a loaded 2-core machine delays process start-up by seconds, and the CPU-bound sync suites
        // (ReproRobustness, ChangeLogBounds: 75 s at load average 12) hold both threads of the cooperative pool
        // that this test resumes on (measured 85 s). ProcessRunnerTests times the kill on its own thread.
        #expect(Date().timeIntervalSince(start) < 180)
        #expect(output.failure == "'./hangs.sh' timed out after 1 s and was killed; stderr: about to hang")
    }

    @Test func nonZeroExitKeepsStderr() async {
        let output = await runner.run(argv: ["./exits-3.sh"], timeout: 10, context: context())
        #expect(output.failure == "'./exits-3.sh' exited with status 3; stderr: database of thresholds not found")
    }

    @Test func floodIsStoppedAtTheCap() async {
        let output = await runner.run(argv: ["./floods.sh"], timeout: 10, context: context())
        #expect(output.failure == "'./floods.sh' printed more than 64 KB on stdout and was stopped")
    }

    @Test func missingProgramIsAnError() async {
        let output = await runner.run(argv: ["./no-such-check"], timeout: 10, context: context())
        #expect(output.failure?.hasPrefix("could not start '\(Repo.fixture("checks"))/./no-such-check'") == true)
    }
}
