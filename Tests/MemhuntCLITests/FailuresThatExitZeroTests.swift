import Foundation
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

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

    /// `attach --dry-run` whose listing cannot be written is exit 2 with the reason, and does not say the dry run
    /// went through.
    @Test(.enabled(if: BinaryTests.binary != nil && FileManager.default.fileExists(atPath: "/dev/full")))
    func aDryRunThatCannotBeWrittenIsExitTwo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let saved = folder.path + "/run.json"
        let json = try await BinaryTests.execute(
            ["run", "--app", "JustSend", "--format", "json", "-o", saved, "Fixtures/justsend"])
        #expect(json.status == 0)
        for target in ["github:acme/app#12", "redmine:http://127.0.0.1:9#1"] {
            let run = try await BinaryTests.execute(
                ["attach", saved, "--to", target, "--dry-run"], environment: ["GITHUB_TOKEN": "t0ken"],
                stdout: "/dev/full")
            #expect(run.reason == .exit)
            #expect(run.status == 2)
            #expect(
                run.stderr
                    == "memhunt: exit 2: could not write to standard output: No space left on device "
                    + "(the output is incomplete)\n")
        }
    }

    /// Standard input that cannot be read whole (larger than the limit) is an operand that failed, named once, in
    /// one true sentence; the rest of the run goes on.
    @Test(.enabled(if: BinaryTests.binary != nil && FileManager.default.fileExists(atPath: "/dev/zero")))
    func standardInputLargerThanTheLimitIsExitTwo() async throws {
        let run = try await BinaryTests.execute(
            ["run", "--app", "JustSend", "-", "Fixtures/justsend"], stdin: "/dev/zero")
        #expect(run.status == 2)
        #expect(run.stderr.contains("memhunt: exit 2: -: standard input is larger than the 64 MB limit"))
        #expect(!run.stderr.contains("could not be read, or"))
        #expect(run.stdout.contains("jetsam.app.peakMB = 725 MB"))
    }

    /// Standard input that holds no artifact (text of no known kind, binary bytes) is named and is exit 2.
    @Test(arguments: [Array("hello\n".utf8), [0x00, 0xFF, 0x00, 0x13, 0x37, 0x00, 0x00, 0x01]])
    func standardInputThatIsNoArtifactIsExitTwo(bytes: [UInt8]) async {
        let out = OutputWriter(), err = OutputWriter()
        let status = await Memhunt.main(
            arguments: ["run", "-"], environment: [:], stdin: InputReader(bytes: bytes), stdout: out, stderr: err)
        #expect(status == 2)
        #expect(err.captured.contains("memhunt: exit 2: -: standard input"))
    }

    /// The same unusable operand, the same answer: an empty or a binary file named on the command line is exit 2
    /// in `run`, `inspect` and `scan`, with the same words (inspect and scan said exit 0).
    @Test func anEmptyOrBinaryOperandIsTheSameAnswerEverywhere() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("empty.ips", "")
        try dir.write("binary.ips", (0..<2048).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) })
        for (name, why) in [("empty.ips", "empty file"), ("binary.ips", "binary content, not a text artifact")] {
            for command in ["run", "inspect", "scan"] {
                let run = await memhunt(command, dir.path + "/" + name)
                #expect(run.status == 2, "\(command) \(name)")
                #expect(
                    run.stderr.contains("memhunt: exit 2: \(dir.path)/\(name): \(why)"), "\(command): \(run.stderr)")
            }
        }
        // In a folder they are rejected files of a fleet, not operands: scan and inspect go on, exit 0.
        #expect(await memhunt("scan", dir.path).status == 0)
        #expect(await memhunt("inspect", dir.path).status == 0)
    }

    /// `inspect` and `scan` of an operand that cannot be read are exit 2, as `run` is, with the reason on
    /// stderr; the other operands are still shown.
    @Test(arguments: ["inspect", "scan"])
    func anOperandThatCannotBeReadIsExitTwo(command: String) async {
        let missing = await memhunt(command, "/nonexistent")
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("memhunt: exit 2: /nonexistent: no such file or directory"))
        let mixed = await memhunt(command, "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", "/nonexistent")
        #expect(mixed.status == 2)
        #expect(mixed.stdout.contains(command == "inspect" ? "jetsam.processes = 16" : "Records: 1"))
        let device = await memhunt(command, "/dev/null")
        #expect(device.status == 2)
        #expect(device.stderr.contains("memhunt: exit 2: /dev/null: not a regular file"))
        let fine = await memhunt(command, "Fixtures/justsend")
        #expect(fine.status == 0)
        #expect(fine.stderr.isEmpty)
    }
}
