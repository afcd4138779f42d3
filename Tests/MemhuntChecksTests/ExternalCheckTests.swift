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

    /// Issue 26, defect 2: the trackers' tokens were in every check's environment (only MEMHUNT_HTTP_TOKEN was
    /// taken out). A check gets PATH, HOME, LANG, TMPDIR and what its playbook entry names under `env:`.
    @Test func aCheckGetsAMinimalEnvironmentAndWhatItsPlaybookNames() async throws {
        let secrets = [
            "REDMINE_API_KEY", "GITHUB_TOKEN", "GITLAB_TOKEN", "JIRA_API_TOKEN", "MEMHUNT_WEBHOOK_SECRET",
            "MEMHUNT_HTTP_TOKEN", "AWS_SECRET_ACCESS_KEY",
        ]
        var environment = Dictionary(uniqueKeysWithValues: secrets.map { ($0, "s3cr3t-\($0)") })
        environment["PATH"] = "/usr/bin:/bin"
        environment["HOME"] = "/home/tester"
        environment["LANG"] = "C.UTF-8"
        environment["TMPDIR"] = "/tmp"
        environment["TEAM_DB"] = "/srv/thresholds.db"
        let runner = ProcessCheckRunner(stdoutLimit: 64 << 10, environment: environment)
        let plain = await runner.run(argv: ["./prints-env.sh"], timeout: 10, env: [], context: context())
        #expect(plain.failure == nil)
        let names = try #require(plain.facts["check.env"]?.stringValue).split(separator: " ").map(String.init)
        for secret in secrets + ["TEAM_DB"] { #expect(!names.contains(secret), "\(secret) reached the check") }
        for given in ["PATH", "HOME", "LANG", "TMPDIR"] { #expect(names.contains(given)) }
        #expect(plain.facts["check.teamDB"] == "unset")
        // Named, it is given; a name the environment does not have is left out; a token named is given.
        let named = await runner.run(
            argv: ["./prints-env.sh"], timeout: 10, env: ["TEAM_DB", "NOT_SET", "GITHUB_TOKEN"], context: context())
        let given = try #require(named.facts["check.env"]?.stringValue).split(separator: " ").map(String.init)
        #expect(named.facts["check.teamDB"] == "/srv/thresholds.db")
        #expect(given.contains("GITHUB_TOKEN") && !given.contains("NOT_SET") && !given.contains("GITLAB_TOKEN"))
    }

    @Test func missingProgramIsAnError() async {
        let output = await runner.run(argv: ["./no-such-check"], timeout: 10, context: context())
        #expect(output.failure?.hasPrefix("could not start '\(Repo.fixture("checks"))/./no-such-check'") == true)
    }
}
