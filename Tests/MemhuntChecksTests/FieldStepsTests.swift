import Foundation
import MemhuntCore
import MemhuntTestSupport
import Testing

@testable import MemhuntChecks

/// Steps 1-4 over the fixtures, asserting the numbers of seed 000.
@Suite struct FieldStepsTests {
    @Test func justSendRecordGivesTheSeedNumbers() async throws {
        let result = try await Hunt.run(["justsend"], app: "JustSend")
        let facts = result.facts
        #expect(facts["crash.reports"] == 0)
        #expect(facts["crash.kind"] == "none")
        #expect(facts["jetsam.records"] == 1)
        #expect(facts["jetsam.processes"] == 16)
        #expect(facts["jetsam.pageSize"] == 16384)
        #expect(facts["jetsam.largestProcess"] == "kernel_task")
        #expect(facts["jetsam.app.peakMB"] == 725)
        #expect(facts["jetsam.app.rank"] == 7)
        #expect(facts["jetsam.app.state"] == "suspended")
        #expect(facts["jetsam.app.residentMB"] == 122)
        #expect(facts["jetsam.compressions"] == 15_734_833)
        #expect(facts["jetsam.app.reason"] == nil)
        #expect(result.steps.prefix(4).map(\.status) == [.clear, .finding, .finding, .finding])
    }

    @Test func justSendFindings() async throws {
        let result = try await Hunt.run(["justsend"], app: "JustSend")
        let titles = result.steps.prefix(4).flatMap(\.findings).map { "\($0.severity.rawValue): \($0.title)" }
        #expect(
            titles == [
                "info: No crash report of JustSend, and no sign that it ended: the jetsam record lists it alive",
                "warning: JustSend ranked 7 of 16 processes by lifetime peak (725 MB)",
                "notice: JustSend 725 MB vs ChatGPT 362 MB",
                "warning: JustSend held 122 MB while suspended",
                "warning: Memory was short when the record was taken: 6 % of memory was available to jetsam "
                    + "(23,430 pages: 21,200 file-backed and 2,230 free, of 390,510 pages)",
                "notice: 15,734,833 compressions since boot",
            ])
        let suspended = try #require(result.findings.first { $0.check == "suspended-footprint" })
        #expect(suspended.detail.contains("another app dies instead"))
        #expect(
            suspended.evidence.first?.reference
                == "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips#/processes/4/rpages")
    }

    @Test func widgetOfTheSameNameIsNotTheApp() async throws {
        let result = try await Hunt.run(["justsend"], app: "JustSendWidget")
        #expect(result.facts["jetsam.app.peakMB"] == 31)
        let other = try await Hunt.run(["justsend"], app: "JustSen")
        #expect(other.facts["jetsam.app.peakMB"] == nil)
        #expect(other.findings.contains { $0.title == "JustSen is not in the jetsam record" })
    }

    @Test func truncatedNameAndBundleIDMatch() async throws {
        let long = try await Hunt.run(["justsend"], app: "HealthMentalHealthWidgetExtension")
        #expect(long.facts["jetsam.app.peakMB"] == 3.1)
        let bundle = try await Hunt.run(["justsend"], app: "com.example.JustSend")
        #expect(bundle.facts["jetsam.app.rank"] == 7)
    }

    @Test func withoutAppTheFindingListsTheFiveLargestApps() async throws {
        // The JetsamEvent alone: the folder's change logs name their process (JustSend), which would choose it.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(
            "JetsamEvent-2026-08-11-112056.ips", try Repo.bytes("justsend/JetsamEvent-2026-08-11-112056.ips"))
        let result = try await Hunt.run([directory.path], app: nil)
        #expect(result.subject.app == nil)
        let ask = try #require(result.findings.first { $0.code == "jetsam-rank.no-subject" })
        #expect(
            ask.detail.hasSuffix(
                "JustSend 725 MB, ChatGPT 362 MB, Spotify 328.1 MB, MobileMail 218.8 MB, JustSendWidget 31 MB."))
        #expect(result.facts["jetsam.compressions"] == 15_734_833)
    }

    @Test func oldDeviceUsesFourKilobytePages() async throws {
        let result = try await Hunt.run(["old-device"], app: "LegacyNotes")
        #expect(result.facts["jetsam.pageSize"] == 4096)
        #expect(result.facts["jetsam.app.peakMB"] == 260)
        #expect(result.facts["jetsam.app.residentMB"] == 210)
        #expect(result.facts["jetsam.app.reason"] == "vm-pageshortage")
        #expect(result.facts["jetsam.compressions"] == 842_113)
        #expect(result.findings.contains { $0.title == "LegacyNotes was killed: vm-pageshortage" })
    }

    @Test func killedAtTheLimitIsCritical() async throws {
        let result = try await Hunt.run(["killed"], app: "JustSend")
        #expect(result.facts["jetsam.app.reason"] == "per-process-limit")
        #expect(result.facts["jetsam.app.peakMB"] == 2098)
        #expect(result.facts["jetsam.app.rank"] == 1)
        #expect(result.facts["jetsam.app.state"] == "frontmost")
        let killed = try #require(result.findings.first { $0.title == "JustSend was killed: per-process-limit" })
        #expect(killed.severity == .critical)
    }

    @Test func severalRecordsUseTheNewestThatListsTheApp() async throws {
        let result = try await Hunt.run(["justsend", "killed", "old-device"], app: "JustSend")
        #expect(result.facts["jetsam.records"] == 3)
        #expect(result.facts["jetsam.compressions"] == 16_920_114)
        let rank = try #require(result.findings.first { $0.check == "jetsam-rank" && $0.title.contains("ranked") })
        #expect(rank.detail.contains("JetsamEvent-2026-08-11-112056.ips"))
        #expect(rank.detail.contains("JetsamEvent-2016-11-20-101500.ips"))
    }

    @Test func watchdogReportNamesTheApp() async throws {
        let result = try await Hunt.run(["watchdog"], app: nil)
        #expect(result.subject == Subject(app: "JustSend", bundleID: "com.example.JustSend", origin: .crashReports))
        #expect(result.facts["crash.reports"] == 1)
        #expect(result.facts["crash.kind"] == "watchdog")
    }

    /// The crash report and the change logs' lines agree on JustSend: the artifacts choose it.
    @Test func theCrashReportAndTheChangeLogsNameTheApp() async throws {
        let result = try await Hunt.run(["watchdog", "justsend"], app: nil)
        #expect(result.subject == Subject(app: "JustSend", bundleID: "com.example.JustSend", origin: .artifacts))
        #expect(result.facts["crash.reports"] == 1)
        #expect(result.facts["crash.kind"] == "watchdog")
        #expect(result.facts["jetsam.app.rank"] == 7)
    }

    @Test func metricKitPayload() async throws {
        let result = try await Hunt.run(["metrickit"], app: "JustSend")
        // 742,400 kB and 124,928 kB, where kB is 1,000 bytes.
        #expect(result.facts["metrickit.peakMB"] == 708)
        #expect(result.facts["metrickit.suspendedMB"] == 119.1)
        // An average over the payload's period: never told as one moment, and no death is claimed.
        let suspended = try #require(result.findings.first { $0.code == "suspended-footprint.metrickit" })
        #expect(suspended.detail.contains("an average over the payload's period, not one moment"))
        #expect(suspended.detail.hasSuffix("If a background app does not release memory, another app dies instead."))
        #expect(result.findings.contains { $0.title == "JustSend ended for memory 3 times in the field (MetricKit)" })
    }

    /// Each count of exits in its own number: "1 memory-pressure exit", not "1 … exits".
    @Test func metricKitExitsAreCountedInWords() async throws {
        let fixture = try #require(
            try FileManager.default.contentsOfDirectory(atPath: Repo.fixture("metrickit")).first {
                $0.hasSuffix(".json")
            })
        let text = try String(contentsOfFile: Repo.fixture("metrickit") + "/" + fixture, encoding: .utf8)
        #expect(text.contains(#""cumulativeMemoryPressureExitCount": 3"#))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(
            fixture,
            Array(
                text.replacingOccurrences(
                    of: #""cumulativeMemoryPressureExitCount": 3"#, with: #""cumulativeMemoryPressureExitCount": 1"#
                ).utf8))
        let result = try await Hunt.run([directory.path], app: "JustSend")
        let exits = try #require(result.findings.first { $0.title.hasPrefix("JustSend ended for memory") })
        #expect(exits.title == "JustSend ended for memory 1 time in the field (MetricKit)")
        #expect(
            exits.detail == "MetricKit counts 0 memory-limit exits and 1 memory-pressure exit while in the background.")
    }

    @Test func badInputsAreListedAndTheGoodFactsRemain() async throws {
        let result = try await Hunt.run(["justsend", "bad"], app: "JustSend")
        #expect(result.facts["jetsam.app.peakMB"] == 725)
        #expect(result.facts["jetsam.app.rank"] == 7)
        let statuses = Dictionary(uniqueKeysWithValues: result.artifacts.map { ($0.source, $0.status) })
        #expect(statuses["Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips"] == .ok)
        for bad in ["JetsamEvent-elided.ips", "JetsamEvent-truncated.ips", "empty.ips", "random.bin"] {
            #expect(statuses["Fixtures/bad/\(bad)"] == .error, "\(bad)")
        }
        #expect(statuses["Fixtures/bad/notes.txt"] == .unrecognized)
        let unreadable = result.findings.filter { $0.check == "artifacts" }
        #expect(unreadable.map(\.step) == ["jetsam-record", "jetsam-record"])
        #expect(
            unreadable.map(\.title) == [
                "JetsamEvent-elided.ips could not be read as jetsam-event",
                "JetsamEvent-truncated.ips could not be read as jetsam-event",
            ])
        #expect(unreadable.last?.detail.contains("truncated: JSON ends") == true)
        for artifact in result.artifacts where artifact.status != .ok {
            #expect(artifact.error?.isEmpty == false, "\(artifact.source) has no reason")
        }
    }
}
