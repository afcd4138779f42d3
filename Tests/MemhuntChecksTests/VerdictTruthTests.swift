import Foundation
import MemhuntCore
import MemhuntTestSupport
import Testing

@testable import MemhuntChecks

/// Issue 9: a verdict says what its artifacts show, never more.
@Suite struct VerdictTruthTests {
    // MARK: - "Alive" next to "it was killed"

    @Test func aJetsamKillIsAnEndingWithoutACrashReport() async throws {
        let result = try await Hunt.run(["killed"], app: "JustSend")
        let codes = result.findings.map(\.code)
        #expect(!codes.contains("crash-report.none"))
        #expect(codes.contains("crash-report.ended-without-report"))
        #expect(codes.contains("jetsam-rank.killed"))
        #expect(result.facts["crash.reports"] == 0)
        #expect(result.facts["crash.ended"] == true)
        #expect(result.facts["crash.endedBy"] == ["jetsam"])
        let first = try #require(result.steps.first?.findings.first)
        #expect(
            first.title
                == "No crash report of JustSend, but it ended: killed by jetsam (per-process-limit), recorded at "
                + "2026-08-12 09:02:11.00 +0900")
        // The record's time is when it was written, not the kill's own moment.
        #expect(!first.title.contains(") at 2026"))
        #expect(!result.findings.contains { $0.title.contains("did not die") })
    }

    /// A kill for the system's sake points at what the app held in the background only when it was suspended:
    /// for a frontmost app that step does not apply, so the finding points at how short memory was, and that
    /// finding on at a reproduction.
    @Test(arguments: [("frontmost", "compressor-pressure"), ("suspended", "suspended-footprint")])
    func aKillForTheSystemPointsAtAStepThatApplies(state: String, step: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let name = "JetsamEvent-2026-08-12-090211.ips"
        var text = try String(contentsOfFile: Repo.fixture("killed/" + name), encoding: .utf8)
        let states = "\"uuid\" : \"F646E1F4-AB10-13DE-C3BA-92B18EDE0D7A\",\n      \"states\" : [\n        \"frontmost\""
        #expect(text.contains(states) && text.contains("\"reason\" : \"per-process-limit\""))
        text = text.replacingOccurrences(of: states, with: states.replacingOccurrences(of: "frontmost", with: state))
        text = text.replacingOccurrences(
            of: "\"reason\" : \"per-process-limit\"", with: "\"reason\" : \"vm-thrashing\"")
        try text.write(toFile: directory.path + "/" + name, atomically: true, encoding: .utf8)
        let result = try await Hunt.run([directory.path], app: "JustSend")
        let killed = try #require(result.findings.first { $0.code == "jetsam-rank.killed" })
        #expect(killed.title == "JustSend was killed: vm-thrashing")
        guard case .step(let id, _) = killed.next else {
            Issue.record("next is \(String(describing: killed.next))")
            return
        }
        #expect(id == step)
        let target = try #require(result.steps.first { $0.step.id == step })
        #expect(target.status != .notApplicable)
        // The pressure finding points on the same way: to the background footprint only for a suspended app.
        let pressure = try #require(result.findings.first { $0.code == "compressor-pressure.at-that-moment" })
        guard case .step(let after, _) = pressure.next else {
            Issue.record("next is \(String(describing: pressure.next))")
            return
        }
        #expect(after == (state == "suspended" ? "suspended-footprint" : "simulator-repro"))
        #expect(result.steps.first { $0.step.id == after }?.status != .notApplicable)
    }

    /// A jetsam record shows the app alive at its moment, not that it never ended afterwards: the
    /// finding says the first and never "did not die".
    @Test func aLivingAppInTheRecordWasAliveAtThatMoment() async throws {
        let result = try await Hunt.run(["justsend"], app: "JustSend")
        let none = try #require(result.findings.first { $0.code == "crash-report.none" })
        #expect(
            none.title == "No crash report of JustSend, and no sign that it ended: the jetsam record lists it alive")
        #expect(none.detail.contains("the jetsam record of 2026-08-11 11:20:56.00 +0900 lists it alive (suspended)"))
        #expect(none.detail.contains("no artifact here shows what came after it"))
        #expect(!(none.title + none.detail).contains("did not die"))
        #expect(result.facts["crash.ended"] == false)
    }

    /// Without an app the record's app processes are listed, and the sentence says how many there are: "the
    /// five largest" of a record with four was not true (a real iOS 18.5 record).
    @Test func theAppProcessesOfARecordAreCountedAsTheyAre() async throws {
        func detail(_ folder: String) async throws -> String {
            let result = try await Hunt.run([folder], app: nil)
            return try #require(result.findings.first { $0.code == "jetsam-rank.no-subject" }).detail
        }
        #expect(
            try await detail("justsend/JetsamEvent-2026-08-11-112056.ips")
                == "No app was named and no crash report names one. The five largest of 6 app processes by lifetime "
                + "peak in Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips: JustSend 725 MB, ChatGPT 362 MB, "
                + "Spotify 328.1 MB, MobileMail 218.8 MB, JustSendWidget 31 MB.")
        #expect(
            try await detail("pressure/JetsamEvent-2026-08-11-111000.ips")
                == "No app was named and no crash report names one. The 2 app processes in "
                + "Fixtures/pressure/JetsamEvent-2026-08-11-111000.ips, by lifetime peak: JustSend 640 MB, "
                + "ChatGPT 328.6 MB.")
    }

    /// Crash reports of several apps leave no subject: the record's list does not then say that no crash
    /// report names an app.
    @Test func withoutASubjectAmongSeveralAppsNoCrashReportIsSaidToNameNone() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(
            "JetsamEvent-2026-08-11-112056.ips", try Repo.bytes("justsend/JetsamEvent-2026-08-11-112056.ips"))
        try directory.write("JustSend.ips", try Repo.bytes("watchdog/JustSend-2026-08-13-224107.ips"))
        try directory.write("other.ips", try Repo.bytes("formats/crash-309-memory.ips"))
        let result = try await Hunt.run([directory.path], app: nil)
        let apps = try #require(result.subject.candidates)
        #expect(apps.count == 2)
        let detail = try #require(result.findings.first { $0.code == "jetsam-rank.no-subject" }).detail
        #expect(detail.hasPrefix("No app was named, and the artifacts name 2 apps, so none was chosen. "))
        #expect(!detail.contains("no crash report names one"))
    }

    @Test func noCrashReportAloneIsNotProofOfLife() async throws {
        let result = try await Hunt.run(["justsend/measurements-detail.csv"], app: "JustSend")
        let none = try #require(result.findings.first { $0.code == "crash-report.none" })
        #expect(none.title == "No crash report of JustSend among the artifacts")
        #expect(!none.title.contains("did not die"))
    }

    @Test func metricKitExitsAndCrashDiagnosticsAreEndings() async throws {
        let exits = try await Hunt.run(["metrickit"], app: "JustSend")
        #expect(exits.facts["crash.endedBy"] == ["metrickit-exits"])
        #expect(exits.findings.contains { $0.code == "crash-report.ended-without-report" })
        let diagnostics = try await Hunt.run(["justsend", "metrickit-mixed"], app: "JustSend")
        #expect(diagnostics.facts["crash.endedBy"] == ["metrickit-crashes"])
        #expect(!diagnostics.findings.contains { $0.code == "crash-report.none" })
    }

    @Test(.enabled(if: Repo.realworld != nil, "shared/realworld is not beside the checkout"))
    func apolloKilledForPageShortageOnARealRecord() async throws {
        let path = try #require(Repo.realworld) + "/jetsam/jetsam_vm-pageshortage.crash"
        let result = try await Hunt.run([path], app: "Apollo")
        #expect(result.facts["jetsam.app.reason"] == "vm-pageshortage")
        #expect(result.facts["crash.ended"] == true)
        #expect(!result.findings.contains { $0.code == "crash-report.none" })
    }

    // MARK: - Other apps' artifacts

    @Test func crashReportsOfSeveralAppsCountForTheirOwnApp() async throws {
        let result = try await Hunt.run(["several-apps"], app: nil)
        #expect(result.subject.app == nil)
        #expect(result.subject.candidates == ["JustSend", "Locker", "Transit"])
        #expect(result.facts["crash.apps"] == 3)
        #expect(result.facts["crash.reports"] == nil)
        let several = try #require(result.findings.first { $0.code == "crash-report.several-apps" })
        #expect(several.title == "Crash reports of 3 apps: JustSend 1, Locker 1, Transit 1")
        #expect(several.next == .decide(.chooseApp, "Name the app under investigation: JustSend, Locker, Transit."))
        #expect(!result.findings.contains { $0.code == "crash-report.ended" })
    }

    @Test func givenTheAppOnlyItsReportCountsAndTheRestAreListed() async throws {
        let result = try await Hunt.run(["several-apps"], app: "transit")
        #expect(result.facts["crash.reports"] == 1)
        #expect(result.facts["crash.kind"] == "crash")
        let others = try #require(result.findings.first { $0.code == "artifacts.other-app" })
        // Given as "transit", named as its report spells it.
        #expect(others.title == "2 artifacts of other apps, not of Transit: JustSend (1 artifact), Locker (1 artifact)")
    }

    @Test func metricKitOfAnotherAppIsNotTheSubjects() async throws {
        let result = try await Hunt.run(["justsend", "metrickit-mixed"], app: "JustSend")
        #expect(result.facts["metrickit.peakMB"] == nil, "Weather's 1,024,000 kB is not JustSend's")
        #expect(!result.findings.contains { $0.code == "metrickit-memory.exits" })
        #expect(
            result.findings.contains { $0.code == "artifacts.other-app" && $0.title.contains("com.example.Weather") })
    }

    // MARK: - Matching the app

    @Test func matchingIsCaseInsensitiveAndCombinesBundleIDsWithTheCutName() {
        let subject = Subject(app: "justsend", origin: .given)
        #expect(subject.matches("JustSend"))
        #expect(subject.matches("com.example.JustSend"))
        #expect(!subject.matches("JustSendWidget"))
        let long = Subject(app: "com.example.HealthMentalHealthWidgetExtensionForToday", origin: .given)
        #expect(long.matches("HealthMentalHealthWidgetExtensio"), "the last component cut at 32 characters")
        #expect(!long.matches("HealthMentalHealthWidgetExtension"), "33 characters: a different name")
    }

    // MARK: - Crash findings a person can act on

    @Test func aWatchdogInTheBackgroundSaysSoWithTheMainThreadsFrames() async throws {
        let result = try await Hunt.run(["several-apps"], app: "JustSend")
        #expect(result.facts["crash.kind"] == "watchdog")
        #expect(result.facts["crash.termination"] == "FRONTBOARD 0x8badf00d")
        #expect(
            result.facts["crash.exception"]
                == "EXC_CRASH (SIGKILL), codes 0x0000000000000000, 0x0000000000000000")
        #expect(result.facts["crash.os"] == "iPhone OS 13.7 (17H35)")
        #expect(result.facts["crash.device"] == "iPhone12,1")
        #expect(result.facts["crash.appVersion"] == "4.1.2 (790)")
        let frames = try #require(result.facts["crash.frames"]?.arrayValue)
        #expect(frames.count == 6)
        #expect(frames[3] == "JustSend ThumbnailStore.flush()")
        let ended = try #require(result.findings.first { $0.code == "crash-report.ended" })
        #expect(ended.title == "JustSend was ended by the watchdog: EXC_CRASH (SIGKILL), FRONTBOARD 0x8badf00d")
        #expect(ended.detail.contains("Failed to terminate gracefully after 5.0s"))
        #expect(ended.detail.contains("It was in the background."))
        #expect(ended.detail.contains("Top frames of thread 0 (main thread), triggered: libsystem_kernel.dylib"))
    }

    /// A legacy report saved with CRLF line ends (a Windows machine, a ticket attachment) reads as the same
    /// report: its lines were split by `Character`, and `\r\n` is one, so the threads and frames were lost.
    @Test func aReportWithCRLFLineEndsKeepsItsFrames() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let lf = try Repo.bytes("several-apps/JustSend-2026-08-16-231200.crash")
        try directory.write("JustSend.crash", lf.flatMap { $0 == 10 ? [13, 10] : [$0] })
        let crlf = try await Hunt.run([directory.path], app: "JustSend")
        let frames = try #require(crlf.facts["crash.frames"]?.arrayValue)
        #expect(frames.count == 6)
        #expect(frames[3] == "JustSend ThumbnailStore.flush()")
        #expect(crlf.facts["crash.kind"] == "watchdog")
        let asSaved = try await Hunt.run(["several-apps/JustSend-2026-08-16-231200.crash"], app: "JustSend")
        #expect(crlf.facts["crash.frames"] == asSaved.facts["crash.frames"])
    }

    /// "@self" among a view's changed items says its value differed from the last, not that nothing else
    /// changed and not which input: a row that also lists `_isSelected` is never "only @self", and the cause
    /// is never asserted to be a closure.
    @Test func selfChangedSaysWhatTheLogListsNotWhy() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("rows.log", String(repeating: "LibraryRow: @self, _isSelected changed.\n", count: 8))
        let result = try await Hunt.run([directory.path], app: nil)
        let churn = try #require(result.findings.first { $0.code == "change-log.closure-churn" })
        #expect(churn.title == "Unequal inputs: LibraryRow re-evaluated 8 times with @self changed")
        #expect(churn.detail.hasPrefix("In rows, 8 of LibraryRow's 8 evaluations listed @self as changed"))
        #expect(churn.detail.contains("The log does not say which input."))
        #expect(!churn.detail.contains("only"))
    }

    /// A burst tells what was evaluated close together, not what caused it; one that starts with `@self`
    /// names no changed item (the title said "one  change re-evaluated 4 views").
    @Test func aBurstSaysWhatCameFirstNotWhatItCaused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("burst.log", "Grid: @self changed.\nRow: _x changed.\nBar: _y changed.\nTab: _z changed.\n")
        let result = try await Hunt.run([directory.path], app: nil)
        let fanOut = try #require(result.findings.first { $0.code == "change-log.fan-out" })
        #expect(fanOut.title == "Fan-out: 4 views evaluated in one burst, starting with Grid")
        #expect(
            fanOut.detail.hasPrefix("Starting with Grid, 4 different views evaluated in the same burst (4 evaluations)")
        )
    }

    /// The summary keeps a burst's first 20 views: a burst of 25 lists 20 and says so, where "25 different views
    /// … : A, B, …" named 20 as if they were all.
    @Test func aWideBurstSaysItsListIsTheFirstViews() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("wide.log", (0..<25).map { "V\($0): _x changed.\n" }.joined())
        let result = try await Hunt.run([directory.path], app: nil)
        let fanOut = try #require(result.findings.first { $0.code == "change-log.fan-out" })
        #expect(
            fanOut.detail.hasPrefix(
                "After V0: _x changed, 25 different views evaluated in the same burst (25 evaluations), the first 20 "
                    + "of them: V0, V1,"))
        #expect(fanOut.detail.contains("V19. Views that subscribe"))
        #expect(!fanOut.detail.contains("V20"))
    }

    /// A "SQLite page cache" region is in almost every app: not file-lock evidence. The termination reason's
    /// locked files are the system's own words, quoted as such.
    @Test func deadlockCodeShowsOnlyWhatTheReportShows() async throws {
        let result = try await Hunt.run(["several-apps"], app: "Locker")
        #expect(result.facts["crash.kind"] == "system")
        #expect(result.facts["crash.fileLock"] == nil)
        let ended = try #require(result.findings.first { $0.code == "crash-report.ended" })
        #expect(!ended.detail.contains("File-lock evidence"))
        #expect(
            ended.detail.contains(
                "The termination reason names the locked files; no thread of the report is inside SQLite."))
        #expect(ended.detail.contains("Locker.sqlite"))
    }

    @Test func aSegfaultNamesTheTriggeredThread() async throws {
        let result = try await Hunt.run(["several-apps"], app: "Transit")
        #expect(
            result.facts["crash.frames"] == [
                "Transit DepartureBoard.decode(from:)", "Transit closure #1 in FeedLoader.refresh()",
            ])
        let ended = try #require(result.findings.first { $0.code == "crash-report.ended" })
        #expect(
            ended.title
                == "Transit crashed: EXC_BAD_ACCESS (SIGSEGV), KERN_INVALID_ADDRESS at 0x0000000000000010, SIGNAL 0xb")
        #expect(ended.detail.contains("App version 7.1 (7104), iPhone OS 26.0 (23A341), iPhone17,3."))
    }

    // MARK: - Pressure from a counter

    @Test func theCounterAloneIsANotice() async throws {
        let result = try await Hunt.run(["pressure/JetsamEvent-2026-08-11-110000.ips"], app: "JustSend")
        #expect(result.facts["jetsam.compressions"] == 20_000_000)
        #expect(result.facts["jetsam.compressorPercent"] == 5.5)
        // memoryPages.free holds the speculative pages (XNU's vm_stats): free is free less speculative.
        #expect(result.facts["jetsam.freePercent"] == 5.5)
        #expect(result.facts["jetsam.availablePercent"] == 28.1)
        let step = try #require(result.steps.first { $0.step.id == "compressor-pressure" })
        #expect(step.findings.map(\.code) == ["compressor-pressure.compressions"])
        #expect(step.findings.first?.severity == .notice)
    }

    /// A counter of UInt64.max (-1 written unsigned) is no count: said as written, never clamped to
    /// Int.max, never a fact, never a rate.
    @Test func aCounterNoCountReachesIsSaidAsWrittenAndLeftOut() async throws {
        let result = try await Hunt.run(["formats/jetsam-16k.ips"], app: "FixtureApp")
        #expect(result.facts["jetsam.compressions"] == nil)
        #expect(result.facts["jetsam.decompressions"] == 99_000)
        let step = try #require(result.steps.first { $0.step.id == "compressor-pressure" })
        #expect(step.findings.map(\.code) == ["compressor-pressure.not-a-count"])
        let finding = try #require(step.findings.first)
        #expect(finding.title == "The record's compressions counter, 18,446,744,073,709,551,615, is no count")
        #expect(finding.detail.contains("(it is UInt64.max, -1 written unsigned)"))
        #expect(finding.detail.hasSuffix("The record has no compressor size or page queues to tell its moment either."))
        #expect(!result.findings.contains { $0.title.contains("9,223,372,036,854,775,807") })
    }

    @Test func twoRecordsOfOneBootGiveARate() async throws {
        let result = try await Hunt.run(["pressure"], app: "JustSend")
        #expect(result.facts["jetsam.compressionsPerMinute"] == 180_000)
        let rate = try #require(result.findings.first { $0.code == "compressor-pressure.rate" })
        #expect(rate.severity == .warning)
        #expect(rate.title == "180,000 compressions per minute between two records of one boot")
    }

    /// Pressure is judged as the kernel judges it for jetsam: memorystatus_available_pages (file-backed +
    /// free), not free pages alone; "free" is said only of free pages.
    @Test func theSeedKeepsItsCounterAndWarnsOnWhatJetsamCountsAvailable() async throws {
        let result = try await Hunt.run(["justsend"], app: "JustSend")
        #expect(result.facts["jetsam.compressions"] == 15_734_833)
        #expect(result.facts["jetsam.freePercent"] == 0.6)
        #expect(result.facts["jetsam.availablePercent"] == 6)
        #expect(result.facts["jetsam.compressorPercent"] == 15.7)
        let short = try #require(result.findings.first { $0.code == "compressor-pressure.at-that-moment" })
        #expect(short.severity == .warning)
        #expect(
            short.title
                == "Memory was short when the record was taken: 6 % of memory was available to jetsam (23,430 pages: "
                + "21,200 file-backed and 2,230 free, of 390,510 pages)")
        // Many inactive and file-backed pages are reclaimable: the same record with the file cache kept is not short.
        let calm = try await Hunt.run(["killed"], app: "JustSend")
        #expect(calm.facts["jetsam.freePercent"] == 0.6)
        #expect((calm.facts["jetsam.availablePercent"]?.doubleValue ?? 0) >= 15)
        #expect(!calm.findings.contains { $0.title.contains("% of memory was free") })
    }

    @Test(.enabled(if: Repo.realworld != nil, "shared/realworld is not beside the checkout"))
    func aPageShortageKillIsPressureAtThatMoment() async throws {
        let path = try #require(Repo.realworld) + "/jetsam/jetsam_vm-pageshortage.crash"
        let result = try await Hunt.run([path], app: "Apollo")
        #expect(result.facts["jetsam.compressions"] == 32_334_949)
        let pressure = try #require(result.findings.first { $0.code == "compressor-pressure.at-that-moment" })
        #expect(pressure.title.contains("killed for a system-wide shortage (proc-thrashing"))
    }

    @Test func anUnknownMetricKitUnitIsAFindingNamingUnitAndArtifact() async throws {
        let result = try await Hunt.run(["formats/metrics-unknown-unit.json"], app: nil)
        #expect(result.facts["metrickit.peakMB"] == nil)
        let finding = try #require(result.findings.first { $0.code == "metrickit-memory.unreadable" })
        #expect(finding.title == "MetricKit value not understood in metrics-unknown-unit.json")
        #expect(finding.detail.contains("the unit 'كيلوبايت' is not one memhunt knows"))
    }

    @Test func severalMatchingProcessesAreListedWithTheirPeaks() async throws {
        let result = try await Hunt.run(["webcontent"], app: "com.apple.WebKit.WebContent")
        #expect(result.facts["jetsam.app.peakMB"] == 340)
        let several = try #require(result.findings.first { $0.code == "jetsam-rank.several-processes" })
        #expect(several.title == "3 processes match com.apple.WebKit.WebContent; the facts are of the largest")
        #expect(
            several.detail.contains(
                "com.apple.WebKit.WebContent pid 640 340 MB, com.apple.WebKit.WebContent pid 642 187.8 MB, "
                    + "com.apple.WebKit.WebContent pid 641 34.5 MB"))
        let exact = try await Hunt.run(["webcontent"], app: "MobileSafari")
        #expect(!exact.findings.contains { $0.code == "jetsam-rank.several-processes" })
    }

    @Test func inspectingALoneCrashReportStillGivesItsFacts() async throws {
        let result = try await Hunt.run(["watchdog"], app: nil)
        #expect(result.facts["crash.kind"] == "watchdog")
        #expect(
            result.facts["crash.terminationReason"]?.stringValue?.contains(" | ProcessVisibility: Foreground") == true)
    }

    @Test func withoutAChosenAppNoArtifactNamingOneSpeaksForIt() async throws {
        // Crash reports of three apps and a sample of Chat: no subject, and Chat's sample is not "the app's".
        let result = try await Hunt.run(["several-apps", "layout-freeze"], app: nil, playbook: "layout-freeze")
        #expect(result.subject.app == nil)
        #expect(result.subject.candidates == ["JustSend", "Locker", "Transit", "Chat"])
        #expect(result.facts["sample.layoutPercent"] == nil)
        let sample = try #require(result.steps.first { $0.step.id == "main-thread-sample" })
        // Its artifact was given, of an app not chosen: unanswered, not "no artifact".
        #expect(sample.status == .unanswered)
        #expect(sample.findings.map(\.title) == ["1 artifact of apps not chosen: Chat (1 artifact)"])
        let chat = try await Hunt.run(["several-apps", "layout-freeze"], app: "Chat", playbook: "layout-freeze")
        #expect(chat.facts["sample.layoutPercent"] == 99.6)
    }

    /// A counter since boot makes a rate only between records of one device and one boot: two iPhones
    /// 2.5 years apart give none, and say why.
    @Test func aRateNeedsOneDeviceAndOneBoot() async throws {
        let result = try await Hunt.run(
            [Repo.root + "/Fixtures/examples/compressor-pressure.no-rate/raises"], app: "JustSend")
        #expect(result.facts["jetsam.compressionsPerMinute"] == nil)
        let refusal = try #require(result.findings.first { $0.code == "compressor-pressure.no-rate" })
        #expect(refusal.title.hasSuffix("are of two different devices"))
        // One device, one boot: the rate stands.
        let same = try await Hunt.run(["pressure"], app: "JustSend")
        #expect(same.facts["jetsam.compressionsPerMinute"] == 180_000)
        #expect(!same.findings.contains { $0.code == "compressor-pressure.no-rate" })
    }

    /// A change log that names no process (another project's, in the same folder) is never weighed beside the
    /// subject's own logs; alone, every sentence about it says what it rests on.
    @Test func anUnattributedLogIsNotTheSubjects() async throws {
        let other = Repo.root + "/Fixtures/examples/change-log.unattributed/raises"
        let beside = try await Hunt.run([Repo.root + "/Fixtures/justsend/drawer-before.log", other], app: "JustSend")
        #expect(!beside.findings.contains { $0.code == "change-log.fan-out" })
        #expect(beside.findings.contains { $0.code == "change-log.unattributed" })
        #expect(beside.facts["changes.logs"] == 1)
        let alone = try await Hunt.run([other], app: "JustSend")
        let fanOut = try #require(alone.findings.first { $0.code == "change-log.fan-out" })
        #expect(fanOut.title.hasSuffix("(in a log that names no process, not tied to JustSend)"))
    }

    /// A number out of range or a key given twice is named in the artifact's diagnostics, never zeroed or
    /// chosen in silence; an unreadable page count gives no peak and no rank.
    @Test func numbersOutOfRangeAreNamedNeverGuessed() async throws {
        let folder = Repo.root + "/Fixtures/examples/jetsam-rank.unreadable/raises"
        let result = try await Hunt.run([folder], app: "JustSend")
        #expect(result.facts["jetsam.app.peakMB"] == nil && result.facts["jetsam.app.rank"] == nil)
        let notice = try #require(result.findings.first { $0.code == "jetsam-rank.unreadable" })
        #expect(
            notice.title
                == "JustSend's lifetime peak is not known: lifetimeMax 18446744073709551616000 is no page count")
        let notes = try #require(result.artifacts.first).notes
        #expect(notes.contains("the key \"largestProcess\" is given 2 times: the first is read"))
        #expect(
            notes.contains("processes[4] (JustSend): lifetimeMax 18446744073709551616000 is no page count, left out"))
        // Another process's unreadable peak: the subject's peak stands, its rank is not given.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let seed = String(decoding: try Repo.bytes("justsend/JetsamEvent-2026-08-11-112056.ips"), as: UTF8.self)
        let chatGPT = try #require(seed.range(of: "\"name\" : \"ChatGPT\""))
        let start = try #require(
            seed.range(of: "\n    {", options: .backwards, range: seed.startIndex..<chatGPT.lowerBound))
        var record = seed
        let block = record[start.lowerBound..<chatGPT.lowerBound]
        let maximum = try #require(block.range(of: #""lifetimeMax" : \d+"#, options: .regularExpression))
        record.replaceSubrange(maximum, with: "\"lifetimeMax\" : 1.5")
        try directory.write("JetsamEvent.ips", record)
        let other = try await Hunt.run([directory.path], app: "JustSend")
        #expect(other.facts["jetsam.app.peakMB"] == 725)
        #expect(other.facts["jetsam.app.rank"] == nil)
        #expect(
            other.findings.contains {
                $0.code == "jetsam-rank.unreadable" && $0.title.hasPrefix("No rank for JustSend")
            })
        #expect(!other.findings.contains { $0.code == "jetsam-rank.high-rank" })
    }
}
