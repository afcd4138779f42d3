import Foundation
import MemhuntReports
import MemhuntTestSupport
import Testing

/// A device log's kill lines through the built binary: `run` states the kill in steps 1 and 2, `inspect` lists
/// the log's kill records.
@Suite struct KillLogEndToEndTests {
    @Test func runStatesTheKillOfALog() async throws {
        let run = try await BinaryTests.execute(["run", "--app", "Memo", "--format", "json", "Fixtures/kill-log"])
        #expect(run.status == 0, "\(run.stderr)")
        let document = try FindingsDocument.decode(Array(run.stdout.utf8))
        #expect(document.facts["kill.limitMB"] == 2098)
        #expect(document.facts["kill.reason"] == "per-process-limit")
        #expect(document.facts["kill.otherKills"] == 2)
        #expect(document.facts["crash.endedBy"] == .array(["kill-log"]))
        #expect(document.findings.contains { $0.code == "memory-kill.killed" && $0.severity == .critical })
        #expect(document.findings.contains { $0.code == "memory-kill.soft-limit" } == false)
        let text = try await BinaryTests.execute(["run", "--app", "Memo", "Fixtures/kill-log"])
        #expect(
            text.stdout.contains(
                "critical  Memo was killed by jetsam (per-process-limit) at its 2098 MB memory limit (ActiveHard), "
                    + "2,148,532 KB footprint at the kill"), "\(text.stdout)")
    }

    @Test func inspectListsTheKillRecords() async throws {
        let run = try await BinaryTests.execute([
            "inspect", "--format", "json", "Fixtures/kill-lines/idevicesyslog.log",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("\"kind\" : \"kill-log\"") || run.stdout.contains("\"kind\": \"kill-log\""))
        #expect(run.stdout.contains("\"footprintKB\"") && run.stdout.contains("2097400"), "\(run.stdout)")
    }
}
