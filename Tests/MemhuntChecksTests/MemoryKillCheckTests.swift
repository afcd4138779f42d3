import MemhuntCore
import MemhuntTestSupport
import Testing

@testable import MemhuntChecks

/// Steps 1 and 2 weigh a log's kill lines: a kill seen only in a log is a kill, with its limit and footprint;
/// a kill of another process is never the subject's.
@Suite struct MemoryKillCheckTests {
    /// Only a log: no JetsamEvent, no crash report. Both steps state the kill, and never contradict.
    @Test func aKillSeenOnlyInALog() async throws {
        let result = try await Hunt.run(["kill-log/unified-log.log"], app: "Memo")
        let facts = result.facts
        #expect(facts["kill.kills"] == 1)
        #expect(facts["kill.reason"] == "per-process-limit")
        #expect(facts["kill.limitMB"] == 2098)
        #expect(facts["kill.limitKind"] == "ActiveHard")
        #expect(facts["kill.footprintMB"] == 2098.2)
        #expect(facts["kill.band"] == "FOREGROUND")
        #expect(facts["kill.availablePages"] == 73240)
        #expect(facts["kill.time"] == "2026-08-12 14:03:05.104211+0900")
        #expect(facts["crash.reports"] == 0)
        #expect(facts["crash.ended"] == true)
        #expect(facts["crash.endedBy"] == .array(["kill-log"]))
        let crash = try #require(result.findings.first { $0.check == "crash-report" })
        #expect(crash.code == "crash-report.ended-without-report")
        #expect(
            crash.title
                == "No crash report of Memo, but it ended: killed by jetsam (per-process-limit) at its 2098 MB memory "
                + "limit (ActiveHard), 2,148,532 KB footprint at the kill, recorded at "
                + "2026-08-12 14:03:05.104211+0900 (unified-log.log line 2)")
        #expect(crash.evidence.map(\.reference) == ["Fixtures/kill-log/unified-log.log:2"])
        let kill = try #require(result.findings.first { $0.code == "memory-kill.killed" })
        #expect(kill.severity == .critical)
        #expect(
            kill.title
                == "Memo was killed by jetsam (per-process-limit) at its 2098 MB memory limit (ActiveHard), "
                + "2,148,532 KB footprint at the kill")
        #expect(
            kill.detail.contains(
                "At the kill: in band FOREGROUND (100), 341 s old, type app, footprint 2,148,532 KB (2,098.2 MB) "
                    + "against its 2098 MB limit, 73,240 pages available to jetsam."))
        #expect(result.steps.prefix(2).map(\.status) == [.finding, .finding])
    }

    /// The realworld excerpt through the whole hunt: KeyboardSpike's kill at its 77 MB limit.
    @Test(.enabled(if: Repo.realworld != nil, "shared/realworld is not beside the checkout"))
    func realWorldExcerpt() async throws {
        let path = try #require(Repo.realworld) + "/unified-log/unified-log-memorystatus-EXCERPT.txt"
        let result = try await Hunt.run([path], app: "KeyboardSpike")
        #expect(result.facts["kill.reason"] == "per-process-limit")
        #expect(result.facts["kill.limitMB"] == 77)
        #expect(result.facts["kill.footprintMB"] == 77)
        let kill = try #require(result.findings.first { $0.code == "memory-kill.killed" })
        #expect(
            kill.title
                == "KeyboardSpike was killed by jetsam (per-process-limit) at its 77 MB memory limit (ActiveHard), "
                + "78,850 KB footprint at the kill")
    }

    /// Kills of other processes are listed, never the subject's; the crash step says nothing ended.
    @Test func killsOfOtherProcesses() async throws {
        let result = try await Hunt.run(["kill-log/killed.log"], app: "Memo")
        #expect(result.facts["kill.kills"] == 0)
        #expect(result.facts["kill.otherKills"] == 2)
        #expect(result.facts["crash.ended"] == false)
        let others = try #require(result.findings.first { $0.code == "memory-kill.others-only" })
        #expect(
            others.title
                == "The logs record 2 kills of other processes, none of Memo: MobileSafari (vm-pageshortage), "
                + "cloudd (idle-exit)")
        #expect(others.detail.hasSuffix("it does not show that Memo was not killed outside it."))
        #expect(result.findings.contains { $0.code == "crash-report.none" })
    }

    /// A non-fatal crossing is said as one, and is no ending.
    @Test func aSoftLimitIsNoKill() async throws {
        let result = try await Hunt.run(["kill-log/soft-limit.log"], app: "MobileSafari")
        #expect(result.facts["kill.kills"] == 0)
        #expect(result.facts["kill.softLimitCrossings"] == 1)
        #expect(result.facts["crash.ended"] == false)
        let soft = try #require(result.findings.first { $0.code == "memory-kill.soft-limit" })
        #expect(soft.title == "MobileSafari crossed its non-fatal ActiveSoft memory limit of 350 MB")
    }

    /// A change log with kill lines: the change-log step reads its change lines, steps 1 and 2 its kill.
    @Test func aMixedLogIsReadForBoth() async throws {
        let result = try await Hunt.run(["kill-lines/mixed.log"], app: "Memo")
        #expect(result.facts["changes.evaluations"] == 2)
        #expect(result.facts["kill.kills"] == 1)
        #expect(result.facts["kill.limitMB"] == 2098)
        #expect(result.facts["crash.endedBy"] == .array(["kill-log"]))
    }

    /// A debugger's stop names no process: it is the subject's in a log of the subject, never in another app's.
    @Test func aDebuggerStopIsOfTheDebuggedApp() async throws {
        let own = try await Hunt.run(["kill-lines/xcode-debugger.txt"], app: "Memo")
        #expect(own.facts["kill.kills"] == 1)
        #expect(own.facts["kill.limitMB"] == 2098)
        let kill = try #require(own.findings.first { $0.code == "memory-kill.killed" })
        #expect(kill.title == "Memo was stopped in the debugger at its 2098 MB memory limit (EXC_RESOURCE MEMORY)")
        #expect(kill.detail.contains("names no process"))
        let other = try await Hunt.run(
            ["kill-lines/xcode-debugger.txt", "kill-log/killed.log"], app: "MobileSafari")
        #expect(other.facts["kill.kills"] == 1)
        #expect(other.facts["kill.reason"] == "vm-pageshortage")
        #expect(other.facts["kill.limitMB"] == nil)
    }

    /// A kill line with a pid and no name is named; the other kill is read.
    @Test func aKillLineWithoutAName() async throws {
        let result = try await Hunt.run(["examples/memory-kill.unreadable/raises"], app: "KeyboardSpike")
        let problem = try #require(result.findings.first { $0.code == "memory-kill.unreadable" })
        #expect(problem.title == "1 kill line could not be read whole")
        #expect(problem.detail.hasPrefix("no-name.log line 1: a kill line with pid 48212 but no process name."))
        #expect(result.facts["kill.kills"] == 1)
        #expect(result.facts["kill.limitMB"] == 77)
    }
}
