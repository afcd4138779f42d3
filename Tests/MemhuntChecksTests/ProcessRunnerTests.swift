import Foundation
import MemhuntCore
import MemhuntTestSupport
import Testing

@testable import MemhuntChecks

/// `exec:` checks run in a process group of their own (issue 8, defect 6).
@Suite struct ProcessRunnerTests {
    let runner = ProcessCheckRunner()

    func context(_ directory: String? = nil) -> CheckContext {
        CheckContext(
            stepID: "custom", parameters: [:], artifacts: [], subject: Subject(app: nil, origin: .none), facts: [:],
            playbookDirectory: directory)
    }

    /// Whether `pid` is gone (or a zombie waiting for a parent that does not reap).
    static func isGone(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
            return kill(pid, 0) != 0
        }
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    /// Runs a shell script through `ProcessRunner` on a thread of its own and times it there, so a busy
    /// cooperative pool in the test process cannot inflate the measurement.
    static func timed(_ script: String, timeout: Double) async -> (outcome: ProcessRunner.Outcome, seconds: Double) {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let start = Date()
                let outcome = ProcessRunner.run(
                    executable: "/bin/sh", arguments: ["-c", script], environment: ["PATH": "/usr/bin:/bin"],
                    directory: nil, input: [], timeout: timeout, stdoutLimit: 1 << 20, stderrLimit: 1 << 10)
                continuation.resume(returning: (outcome, Date().timeIntervalSince(start)))
            }
        }
    }

    @Test func theTimeoutKillsTheWholeGroup() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // Before: the kill reached the shell only; the sleep held the pipes and the run for 20 s.
        let (outcome, seconds) = await Self.timed("sleep 20 & echo $! > \(dir.path)/pid; wait", timeout: 1)
        #expect(seconds < 5)
        #expect(outcome.ending == .timedOut)
        let text = try String(contentsOfFile: dir.path + "/pid", encoding: .utf8)
        let pid = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        try await Task.sleep(for: .milliseconds(200))
        #expect(Self.isGone(pid))
    }

    /// Cancelling the task that launched a child kills its group as the timeout does, and says so.
    @Test func aCancelledLaunchKillsTheWholeGroup() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let task = Task {
            await ProcessRunner.launch(
                executable: "/bin/sh", arguments: ["-c", "sleep 30 & echo $! > \(dir.path)/pid; wait"],
                environment: ["PATH": "/usr/bin:/bin"], directory: nil, input: [], timeout: 600, stdoutLimit: 1 << 10,
                stderrLimit: 1 << 10)
        }
        var text = ""
        for _ in 0..<600 where text.isEmpty {
            try await Task.sleep(for: .milliseconds(50))
            text = (try? String(contentsOfFile: dir.path + "/pid", encoding: .utf8)) ?? ""
        }
        let pid = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        task.cancel()
        // No wall-clock bound: the ending says it was the cancellation, not the 600 s timeout.
        #expect(await task.value.ending == .cancelled)
        try await Task.sleep(for: .milliseconds(200))
        #expect(Self.isGone(pid))
    }

    @Test func aCheckThatAnswersAndLeavesAChildBehindIsNotHeldByIt() async throws {
        // The leftover inherits stdout and stderr; before, memhunt waited for their EOF: 30 s, "timed out".
        let (outcome, seconds) = await Self.timed(
            #"sleep 30 & echo '{"fact": "team.ran", "value": true}'"#, timeout: 20)
        #expect(seconds < 5)
        #expect(outcome.ending == .exited(0))
        #expect(String(decoding: outcome.stdout, as: UTF8.self) == #"{"fact": "team.ran", "value": true}"# + "\n")
        // And through the runner, the answer is read.
        let output = await runner.run(
            argv: ["/bin/sh", "-c", #"sleep 30 & echo '{"fact": "team.ran", "value": true}'"#], timeout: 20,
            context: context())
        #expect(output.failure == nil)
        #expect(output.facts["team.ran"] == true)
    }

    /// Issue 26, defect 3: a check that daemonizes (fork, setsid, fork) left its `sleep 60` running after the run,
    /// out of reach of the kill of its process group. Now it is found and killed, and the failure names it.
    @Test(arguments: [false, true])
    func aDaemonThatACheckLeavesIsKilledAndNamed(hangs: Bool) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let pidFile = dir.path + "/daemon.pid"
        var pid: Int32?
        defer {
            // Only the daemon this test started, by its pid, if the runner left it.
            if let pid, !Self.isGone(pid) { kill(pid, SIGKILL) }
        }
        let output = await runner.run(
            argv: ["python3", "daemonizes.py", pidFile] + (hangs ? ["hang"] : []), timeout: hangs ? 3 : 20,
            context: context(Repo.fixture("checks")))
        let text = try String(contentsOfFile: pidFile, encoding: .utf8)
        pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        let daemon = try #require(pid)
        try await Task.sleep(for: .milliseconds(200))
        #expect(Self.isGone(daemon), "the daemon \(daemon) outlived the check")
        let failure = try #require(output.failure)
        #expect(failure.contains("sleep (pid \(daemon))"), "\(failure)")
        #expect(failure.hasPrefix(hangs ? "'python3 daemonizes.py \(pidFile) hang' timed out after 3 s" : "'python3"))
    }

    @Test func theCheckRunsInItsPlaybookDirectoryWithDefaultSignals() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let output = await runner.run(
            argv: [
                "/bin/sh", "-c",
                #"printf '{"fact": "check.dir", "value": "%s"}\n{"fact": "check.sigint", "value": "%s"}\n' "$(pwd -P)" "$(grep SigIgn /proc/self/status | cut -f2)""#,
            ], timeout: 10, context: context(dir.path))
        #expect(output.failure == nil)
        let real = try #require(URL(fileURLWithPath: dir.path).resolvingSymlinksInPath().path as String?)
        #expect(output.facts["check.dir"] == .string(real))
        // SIGINT (bit 2) and SIGPIPE (bit 13) ignored by memhunt must not be ignored by the check.
        let mask = try #require(output.facts["check.sigint"].flatMap { if case .string(let s) = $0 { s } else { nil } })
        let bits = try #require(UInt64(mask, radix: 16))
        #expect(bits & (1 << 1) == 0)
        #expect(bits & (1 << 12) == 0)
    }
}
