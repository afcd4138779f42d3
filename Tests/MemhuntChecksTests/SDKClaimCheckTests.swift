import Foundation
import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots
import MemhuntTestSupport
import Testing

@testable import MemhuntChecks

/// A crash SDK's memory claim graded against the OS records: each grade from a pair written for it, with both
/// sides' times and the device match's basis in the sentence.
@Suite struct SDKClaimCheckTests {
    func finding(_ result: RunResult, _ code: String) throws -> Finding {
        try #require(result.findings.first { $0.code == code }, "\(code) not in \(result.findings.map(\.code))")
    }

    /// Sentry's watchdog event at 00:02:02Z; the JetsamEvent of 09:02:11 +0900 (00:02:11Z) shows JustSend killed
    /// at per-process-limit with 92,800 pages of 16 KiB (1,450 MB): confirmed, 9 s later, same device.
    @Test func confirmedByAJetsamEventNineSecondsLater() async throws {
        let result = try await Hunt.run(["sdk/confirmed"], app: "JustSend")
        #expect(result.facts["sdk.confirmed"] == 1)
        #expect(result.facts["sdk.contradicted"] == 0)
        let found = try finding(result, "sdk-claim.confirmed")
        #expect(found.title == "Sentry watchdog termination of JustSend: confirmed by the JetsamEvent")
        #expect(found.detail.contains("at 2026-08-12T00:02:02Z (the last breadcrumb of the ended run"))
        #expect(found.detail.contains("of 2026-08-12T00:02:11Z (written 2026-08-12 09:02:11.00 +0900), 9 s after"))
        #expect(found.detail.contains("the same device by model iPhone18,1 and OS build 23A341"))
        #expect(found.detail.contains("JustSend [1288] killed for memory (per-process-limit) with 1,450 MB resident"))
        #expect(found.detail.hasSuffix("Confirmed: the watchdog termination was a memory kill."))
        // The crash check says the same ending.
        #expect(result.facts["crash.ended"] == true)
    }

    /// The same kind of event, with a JetsamEvent five minutes later listing JustSend alive, before the launch
    /// that sent the event: contradicted.
    @Test func contradictedByTheAppAlive() async throws {
        let result = try await Hunt.run(["sdk/contradicted"], app: "JustSend")
        let found = try finding(result, "sdk-claim.contradicted")
        #expect(found.title == "Sentry watchdog termination of JustSend: contradicted (alive after the claimed time)")
        #expect(found.detail.contains("5 min 0 s after Sentry's time"))
        #expect(found.detail.contains("it lists JustSend [1402] alive (frontmost, resume), 438 MB resident"))
        #expect(found.detail.contains("before the launch that sent the event (2026-08-14T05:20:41Z)"))
        #expect(result.facts["crash.ended"] == false)
    }

    @Test func aWatchdogReportIsAWatchdogNotMemory() async throws {
        let result = try await Hunt.run(["sdk/watchdog-not-memory"], app: "JustSend")
        let found = try finding(result, "sdk-claim.contradicted")
        #expect(found.title.hasSuffix("contradicted (watchdog, not memory)"))
        #expect(found.detail.contains("8 s after Sentry's time"))
        #expect(
            found.detail.contains("ended by the watchdog (termination code 0x8badf00d): a watchdog, but not memory"))
    }

    @Test func aDebuggerIsAKnownFalsePositiveClass() async throws {
        let result = try await Hunt.run(["sdk/debugger"], app: "Roadbook")
        let found = try finding(result, "sdk-claim.false-positive-class")
        #expect(found.title == "Bugsnag out of memory of Roadbook: a known false-positive class (debugger)")
        #expect(found.detail.contains("debugger (app.isDebuggerAttached: true)"))
        #expect(result.facts["sdk.falsePositiveClass"] == 1)
    }

    @Test func kscrashWithNoOSRecordIsUnconfirmed() async throws {
        let result = try await Hunt.run(["sdk/unconfirmed"], app: "Roadbook")
        let found = try finding(result, "sdk-claim.unconfirmed")
        #expect(found.detail.contains("KSCrash says out of memory ('memory_termination') at 2026-09-02T10:10:02Z"))
        #expect(found.detail.contains("Unix microseconds, written 1788343802118440"))
        #expect(found.detail.contains("covers 2026-09-02T10:10:02Z to 2026-09-02T10:20:02Z (10 minutes after)"))
        // Unconfirmed is not "it did not die": the crash check says an SDK says a run ended.
        let crash = try finding(result, "crash-report.none")
        #expect(crash.detail.contains("A crash SDK's export says a run ended (KSCrash: out of memory)"))
    }

    /// Bugsnag #1687's shape: 70 MB of a 1,400 MB limit and no warning.
    @Test func theSDKsOwnSampleFarBelowTheLimit() async throws {
        let result = try await Hunt.run(["sdk/far-below"], app: "Roadbook")
        let found = try finding(result, "sdk-claim.contradicted")
        #expect(found.detail.contains("footprint at 70 MB of its 1,400 MB limit (5 %), no low-memory warning"))
    }

    /// An export of another app is listed, not graded; a copy of an event counts once.
    @Test func anotherAppsExportAndACopy() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let event = try Repo.bytes("sdk/confirmed/sentry-watchdog-event.json")
        try directory.write("a.json", event)
        try directory.write("copy/a.json", event)
        try directory.write("jetsam.ips", try Repo.bytes("sdk/confirmed/JetsamEvent-2026-08-12-090211.ips"))
        let result = try await Hunt.run([directory.path], app: "JustSend")
        #expect(result.facts["sdk.events"] == 1)
        #expect(result.facts["sdk.confirmed"] == 1)
        let other = try await Hunt.run([directory.path, "sdk/readers"], app: "Roadbook")
        // The engine lists the export of another app; it is not graded for this one.
        #expect(other.findings.contains { $0.code == "artifacts.other-app" })
        #expect(!other.findings.contains { $0.code == "sdk-claim.confirmed" })
        #expect(other.facts["sdk.memoryClaims"] == 3)
    }

    /// A record of another device never grades a claim; a time without a zone is not graded.
    @Test func anotherDeviceAndAZonelessTime() {
        var event = SDKEvent(sdk: .sentry, shape: "Sentry event", claim: .oom)
        event.app = "JustSend"
        event.device = "iPhone18,1"
        event.time = SDKTime(
            text: "2026-08-12T00:02:02Z", utc: 1_786_492_922, clock: "ISO 8601 UTC", basis: "b", pointer: "/t")
        let other = OSRecord(
            what: "JetsamEvent", file: "j.ips", process: "JustSend", outcome: .memoryKill(reason: "per-process-limit"),
            time: 1_786_492_931, timeText: "2026-08-12 09:02:11.00 +0900", device: "iPhone15,2",
            os: "iPhone OS 17.5 (21F79)")
        let graded = SDKClaimGrader.grade(event, records: [other])
        #expect(graded.grade == .unconfirmed)
        #expect(graded.sentence.contains("1 OS record of JustSend of another device or OS (j.ips: iPhone15,2"))
        event.time = SDKTime(
            text: "2026-08-12T00:02:02", utc: nil, clock: "ISO 8601 without a zone", basis: "b",
            pointer: "/t")
        let zoneless = SDKClaimGrader.grade(event, records: [other])
        #expect(zoneless.grade == .unconfirmed)
        #expect(zoneless.sentence.contains("has no zone"))
    }
}
