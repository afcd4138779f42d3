import Foundation
import MemhuntTestSupport
import Testing

/// The real binary in a real terminal: `Tests/Support/triage_tmux.py` types the answers into tmux,
/// presses Ctrl-C at step 5, resumes with `--resume`; this test asserts what the screens showed and
/// that the same answers piped in write the same report.
@Suite struct TriageTerminalTests {
    static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// `run` on a thread of its own: a test waiting on a terminal for a minute must not hold one of the
    /// cooperative pool's two threads (an MCP test's timer beside it starved and timed out).
    static func detached(_ executable: String, _ arguments: [String]) async throws -> (Int32, String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try run(executable, arguments) }) }
        }
    }

    static func run(_ executable: String, _ arguments: [String], input: String? = nil) throws -> (Int32, String) {
        let out = Pipe()
        let process = try Tool.start(executable, arguments, input: input, stdout: out)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(.enabled(if: tmux != nil && BinaryTests.binary != nil))
    func typedThroughInterruptedAtStepFiveAndResumed() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let binary = try #require(BinaryTests.binary)
        let (status, output) = try await Self.detached(
            "/usr/bin/env", ["python3", Repo.root + "/Tests/Support/triage_tmux.py", binary, Repo.root, dir.path])
        #expect(status == 0, "\(output)")
        let screens = output.components(separatedBy: "=== ")
        let before = try #require(screens.first { $0.hasPrefix("before-interrupt") })
        for shown in [
            "jetsam.app.peakMB = 725 MB", "jetsam.app.rank = 7", "jetsam.app.residentMB = 122 MB",
            "jetsam.compressions = 15,734,833", "Step 5/8 · Simulator reproduction",
        ] {
            #expect(before.contains(shown), "steps 2–4 show \(shown)")
        }
        let interrupted = try #require(screens.first { $0.hasPrefix("interrupted") })
        #expect(
            interrupted.contains(
                "Interrupted at step 5 (Simulator reproduction). The session is saved; resume it with:\n  memhunt triage --resume "
            ))
        let resumed = try #require(screens.first { $0.hasPrefix("resumed") })
        #expect(resumed.contains("Resuming memory-hunt at step 5 (Simulator reproduction); steps kept:"))
        #expect(resumed.contains("4  Compressor compressions  finding: 15,734,833 compressions since boot"))
        #expect(resumed.contains("2  Jetsam record  finding: 725 MB, rank 7 of 16, suspended"))
        let written = try String(contentsOfFile: dir.path + "/report.txt", encoding: .utf8)
        for number in ["725 MB", "122 MB", "15,734,833", "45 MB", "611 MB", "3,573", "623 MB", "103 MB"] {
            #expect(written.contains(number), "the report holds \(number)")
        }

        // The same answers piped in write the same report.
        let answers =
            [
                "The screen transition stops but scrolling still works", "", "",
                "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", "", "",
                "Fixtures/justsend/measurements-detail.csv",
                "", "Fixtures/justsend/measurements-variation.json", "Fixtures/justsend/drawer-before.log",
            ].joined(separator: "\n") + "\n"
        let piped = dir.path + "/piped.txt"
        let (pipedStatus, _) = try Self.run(
            binary, ["triage", "--app", "JustSend", "--session", dir.path + "/p.json", "-o", piped], input: answers)
        #expect(pipedStatus == 0)
        #expect(try String(contentsOfFile: piped, encoding: .utf8) == written)
    }

    /// A two-experiment ledger typed in a real terminal, interrupted in the second and resumed: the first
    /// experiment is kept in the ledger across the interruption, both are judged with seed 000's numbers, and
    /// the report carries the Hypotheses.
    @Test(.enabled(if: tmux != nil && BinaryTests.binary != nil))
    func aTwoExperimentLedgerTypedInterruptedAndResumed() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        for name in ["ledger.yaml", "measurements.json", "drawer-before.log", "drawer-after.log"] {
            try dir.write("seed000/" + name, try Repo.bytes("ledgers/seed000/" + name))
        }
        let binary = try #require(BinaryTests.binary)
        let (status, output) = try await Self.detached(
            "/usr/bin/env",
            ["python3", Repo.root + "/Tests/Support/triage_ledger_tmux.py", binary, Repo.root, dir.path])
        #expect(status == 0, "\(output)")
        let screens = output.components(separatedBy: "=== ")
        let first = try #require(screens.first { $0.hasPrefix("first-experiment") })
        #expect(first.contains("Started the ledger \(dir.path)/memhunt-ledger.yaml."), "\(first)")
        #expect(
            first.contains(
                "worse: one renderer per block instead of per sentence made it worse: repro.peakMB 623 MB → 948 MB"))
        let interrupted = try #require(screens.first { $0.hasPrefix("interrupted") })
        #expect(
            interrupted.contains(
                "Interrupted at step 8 (Change logging). The session is saved; resume it with:\n  memhunt triage --resume "
            ))
        let second = try #require(screens.first { $0.hasPrefix("second-experiment") })
        #expect(
            second.contains(
                "cause: the same memo split into 2,500 blocks removes the symptom: repro.peakMB 623 MB → 103 MB"))
        let ledger = try String(contentsOfFile: dir.path + "/memhunt-ledger.yaml", encoding: .utf8)
        #expect(ledger.contains("words: \"The app gets slow, and then the whole phone is slow\""))
        #expect(ledger.contains("shows: {fact: \"repro.peakMB\", above: 300}"))
        #expect(ledger.components(separatedBy: "tests: \"").count == 3, "two experiments: \(ledger)")
        let report = try String(contentsOfFile: dir.path + "/report.txt", encoding: .utf8)
        #expect(report.contains("Hypotheses  (ledger memhunt-ledger.yaml)"))
        #expect(report.contains("worse one-markdown-renderer-per"))
        #expect(report.contains("cause memo-one-block-materializes"))
    }
}
