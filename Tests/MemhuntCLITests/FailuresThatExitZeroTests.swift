import Foundation
import MemhuntTestSupport
import Testing

/// Failures that exited 0 (issue "Safe under attack and under concurrency", defect 9), through the real binary:
/// a failure the user cannot see must not pass for success.
@Suite struct FailuresThatExitZeroTests {
    /// A report that could not be written to standard output is exit 2, with the reason on stderr, once.
    @Test(.enabled(if: BinaryTests.binary != nil && FileManager.default.fileExists(atPath: "/dev/full")))
    func aReportThatCannotBeWrittenToStandardOutputIsExitTwo() async throws {
        let run = try await BinaryTests.execute(["run", "--app", "JustSend", "Fixtures/justsend"], stdout: "/dev/full")
        #expect(run.reason == .exit)
        #expect(run.status == 2)
        #expect(run.stderr.contains("could not write to standard output: No space left on device"))
        #expect(run.stderr.components(separatedBy: "standard output").count == 2)

        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let saved = folder.path + "/run.json"
        let json = try await BinaryTests.execute(
            ["run", "--app", "JustSend", "--format", "json", "-o", saved, "Fixtures/justsend"])
        #expect(json.status == 0)
        let report = try await BinaryTests.execute(["report", saved], stdout: "/dev/full")
        #expect(report.status == 2)
        #expect(report.stderr.contains("could not write to standard output: No space left on device"))

        // Findings at --fail-on that could not be shown: the hunt could not be done as asked.
        let gated = try await BinaryTests.execute(
            ["run", "--app", "JustSend", "--fail-on", "warning", "Fixtures/justsend"], stdout: "/dev/full")
        #expect(gated.status == 2)
        #expect(!gated.stderr.contains("exit 1"))
        #expect(gated.stderr.contains("memhunt: exit 2: could not write to standard output"))
        let version = try await BinaryTests.execute(["--version"], stdout: "/dev/full")
        #expect(version.status == 2)
        #expect(version.stderr.contains("could not write to standard output"))
    }
}
