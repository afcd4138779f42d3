import Foundation
import MemhuntFormats
import MemhuntTestSupport
import Testing

/// The crash SDKs' exports: each read with its SDK, claim, time and what that time is, app, device and figures.
@Suite struct SDKReaderTests {
    static func export(_ bytes: [UInt8]) throws -> SDKExport {
        let outcome = ArtifactReader.read(bytes)
        guard case .success(.sdkExport(let export)) = outcome.result else {
            throw Failure("not an SDK export: \(outcome.kind as Any) \(outcome.result)")
        }
        return export
    }

    static func event(_ relative: String) throws -> SDKEvent {
        let found = try export(try Repo.bytes(relative))
        #expect(found.events.count == 1, "\(relative)")
        return try #require(found.events.first)
    }

    @Test func sentryWatchdogEventOfTheAPI() throws {
        let event = try Self.event("sdk/confirmed/sentry-watchdog-event.json")
        #expect(event.sdk == .sentry)
        #expect(event.claim == .watchdog)
        #expect(event.eventID == "7c1f3a9e2b4d4f6a8e0c1b3d5f7a9c2e")
        #expect(event.time?.text == "2026-08-12T00:02:02.000Z")
        #expect(event.time?.utc == 1_786_492_922)
        #expect(event.time?.clock == "ISO 8601 UTC")
        #expect(event.time?.basis.hasPrefix("the last breadcrumb of the ended run") == true)
        #expect(event.relaunch?.text == "2026-08-12T00:03:30Z")
        #expect(event.app == "JustSend")
        #expect(event.bundleID == "com.example.JustSend")
        #expect(event.device == "iPhone18,1")
        #expect(event.os == "iOS 26.0")
        #expect(event.osBuild == "23A341")
        // A watchdog event's contexts are the reporting launch's: the device's size is no figure of the ended run.
        #expect(event.figure("device total") == nil)
        #expect(event.memory.first { $0.name == "device total" }?.bytes == 8_321_499_136)
    }

    @Test func bugsnagOOMWithADebuggerAttached() throws {
        let event = try Self.event("sdk/debugger/bugsnag-oom-event.json")
        #expect(event.sdk == .bugsnag)
        #expect(event.claim == .oom)
        #expect(event.contexts.map(\.kind) == [.debugger])
        #expect(event.figure("footprint")?.bytes == 1_310_720_000)
        #expect(event.figure("limit")?.bytes == 1_468_006_400)
        #expect(event.osBuild == "21F79")
        #expect(event.time?.utc == AppleDate.parse("2026-09-02T10:15:42Z"))
    }

    @Test func kscrashMemoryTerminationInMicroseconds() throws {
        let event = try Self.event("sdk/unconfirmed/kscrash-memory-termination.json")
        #expect(event.sdk == .kscrash)
        #expect(event.claim == .oom)
        #expect(event.time?.clock == "Unix microseconds")
        #expect(event.time.flatMap(\.utc).map(AppleDate.utcText) == "2026-09-02T10:10:02Z")
        #expect(event.memoryLevel == "critical")
        #expect(event.pid == 2231)
        #expect(event.figure("footprint")?.bytes == 1_288_490_188)
    }

    @Test func crashlyticsMakesNoClaim() throws {
        let event = try Self.event("sdk/no-claim/crashlytics-metadata.clsrecord")
        #expect(event.sdk == .crashlytics)
        #expect(event.claim == .none)
        #expect(event.eventID == "4c2d9e0a7b1f4e3c8a6d5b2e1f0c9d8a")
        #expect(event.time?.clock == "Unix seconds")
        #expect(event.bundleID == "com.example.Roadbook")
    }

    @Test func readersOfDatadogEmbraceAndAnEnvelopeAsSent() throws {
        let datadog = try Self.event("sdk/readers/datadog-watchdog-error.json")
        #expect(datadog.sdk == .datadog)
        #expect(datadog.claim == .watchdog)
        #expect(datadog.time?.clock == "Unix milliseconds")
        #expect(datadog.figure("view peak")?.bytes == 1_397_751_808)
        let embrace = try Self.event("sdk/readers/embrace-termination-memory-limit.json")
        #expect(embrace.sdk == .embrace)
        #expect(embrace.claim == .oom)
        let envelope = try Self.event("sdk/readers/sentry-watchdog.envelope")
        #expect(envelope.shape == "Sentry envelope event")
        #expect(envelope.claim == .watchdog)
        #expect(envelope.eventID == "9a8b7c6d5e4f40312a1b0c9d8e7f6a5b")
        #expect(envelope.time?.utc == 1_788_592_922.25)
    }

    /// A paste cut inside `contexts.device`, after a comment line: what is whole is read, and the cut is named.
    @Test func aCutPasteIsReadForWhatIsWhole() throws {
        let export = try Self.export(try Repo.bytes("sdk/cut/sentry-oom-event-paste.txt"))
        #expect(export.cut?.contains("inside contexts.device") == true)
        let event = try #require(export.events.first)
        #expect(event.claim == .oom)
        #expect(event.device == "iPhone15,2")
        #expect(event.bundleID == "com.example.Roadbook")
    }

    /// A time without a zone is named as such, never taken as UTC.
    @Test func aTimeWithoutAZoneHasNoInstant() throws {
        let text = """
            {"event_id":"0d1e2f","platform":"cocoa","level":"fatal","timestamp":"2026-08-12T09:02:02",
             "exception":{"values":[{"type":"WatchdogTermination","mechanism":{"type":"watchdog_termination"}}]}}
            """
        let event = try #require(try Self.export(Array(text.utf8)).events.first)
        #expect(event.time?.utc == nil)
        #expect(event.time?.lacksZone == true)
        #expect(event.time?.clock == "ISO 8601 without a zone")
    }

    /// Placeholders, text where a number goes, and odd types are left out, never guessed.
    @Test func fieldsOfAnotherTypeAreLeftOut() throws {
        let text = """
            {"event_id":"x","sdk":{"name":"sentry.cocoa"},"timestamp":"<timestamp>",
             "contexts":{"device":{"memory_size":"<runtime-value>","model":7},"app":{"app_memory":-5}}}
            """
        let event = try #require(try Self.export(Array(text.utf8)).events.first)
        #expect(event.memory.isEmpty)
        #expect(event.device == nil)
        #expect(event.time?.utc == nil)
        #expect(event.claim == .none)
    }

    /// Bytes that fail every reader stay unrecognized: the SDK reader claims nothing it cannot read.
    @Test func jsonOfNoSDKStaysUnrecognized() {
        let outcome = ArtifactReader.read(Array(#"{"report": 1, "crash": 2, "system": 3"#.utf8))
        #expect(outcome.kind == nil)
    }
}

/// The SDK samples under `shared/realworld/sdk`, read in place: each with its SDK, claim and exact facts.
@Suite(.enabled(if: Repo.realworld != nil, "shared/realworld is not beside the checkout"))
struct SDKRealWorldTests {
    static func event(_ relative: String) throws -> (SDKExport, SDKEvent) {
        let root = try #require(Repo.realworld)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/sdk/" + relative)))
        let export = try SDKReaderTests.export(bytes)
        return (export, try #require(export.events.first))
    }

    @Test func sentryCrashSIGTERMReport() throws {
        let (_, event) = try Self.event("sentry/sentrycrash-report-SIGTERM-iOS16.2-iPhone11,8-with-scope.json")
        #expect(event.sdk == .sentryCrash)
        #expect(event.shape == "SentryCrash report 3.2.0")
        #expect(event.claim == .crash)
        #expect(event.claimText == "signal SIGTERM")
        #expect(event.eventID == "42A64046-9255-4995-98C2-553FA204DF4D")
        #expect(event.time?.utc == 1_675_069_636)
        #expect(event.time?.clock == "Unix seconds")
        #expect(event.app == "iOS-Swift")
        #expect(event.bundleID == "io.sentry.sample.iOS-Swift")
        #expect(event.version == "7.31.5")
        #expect(event.device == "iPhone11,8")
        #expect(event.os == "iOS 16.2")
        #expect(event.osBuild == "20C5043e")
        #expect(event.pid == 495)
        #expect(event.memory.first { $0.name == "device total" }?.bytes == 2_976_202_752)
        #expect(event.figure("device free")?.bytes == 66_846_720)
        #expect(event.contexts.isEmpty)
    }

    @Test func sentryCrashFatalErrorReport() throws {
        let (_, event) = try Self.event("sentry/sentrycrash-report-fatalError-iOS15.2-iPhone13,2-with-scope.json")
        #expect(event.sdk == .sentryCrash)
        #expect(event.claim == .crash)
        #expect(event.claimText == "mach EXC_BREAKPOINT")
        #expect(event.eventID == "95447374-9DF3-4747-88A2-761C690C359D")
        #expect(event.time?.utc == AppleDate.parse("2021-12-28T09:45:53Z"))
        #expect(event.device == "iPhone13,2")
        #expect(event.osBuild == "19C56")
        #expect(event.version == "7.7.0")
        #expect(event.pid == 14688)
    }

    @Test func sentryEventConvertedFromACrashReport() throws {
        let (_, event) = try Self.event("sentry/sentry-event-converted-from-crash-report-iOS.json")
        #expect(event.sdk == .sentry)
        #expect(event.claim == .crash)
        #expect(event.claimText == "EXC_BAD_ACCESS: doCrash > DRHT > objectAtIndex:")
        #expect(event.eventID == "f31ce2b69e8e470c858eed4753fda78c")
        #expect(event.time?.utc == AppleDate.parse("2017-05-17T16:33:05Z"))
        #expect(event.app == nil)
    }

    @Test func sentryEnvelopeOfPlaceholders() throws {
        let (_, event) = try Self.event("sentry/sentry-envelope-snapshot-failed-request-event-ios-TEMPLATED.json")
        #expect(event.shape == "Sentry envelope event")
        #expect(event.claim == .none)
        #expect(event.bundleID == "io.sentry.network-envelope-snapshot")
        #expect(event.version == "1.0.0")
        #expect(event.memory.isEmpty)
        #expect(event.time?.utc == nil)
    }

    /// The real production OOM event of sentry-cocoa #1852: redacted, cut inside `contexts.app`.
    @Test func sentryIssue1852PasteCutInsideContextsApp() throws {
        let (export, event) = try Self.event("sentry/sentry-cocoa-issue1852-OutOfMemory-event-redacted-EXCERPT.txt")
        #expect(export.cut?.contains("inside contexts.app") == true)
        #expect(export.diagnostics == ["1 value is a bare word (a redaction), kept as written"])
        #expect(event.claim == .oom)
        #expect(event.claimText == "mechanism out_of_memory")
        #expect(event.time?.text == "2022-05-23T08:12:56.779649Z")
        #expect(event.relaunch?.text == "2022-05-23T08:12:56Z")
        #expect(event.device == "iPhone12,8")
        #expect(event.os == "iOS 15.4.1")
        #expect(event.bundleID == "com.Bygglet.bygglet")
        #expect(event.app == "Bygglet 2.0")
        #expect(event.version == "1.0.10")
    }

    @Test func kscrashOOMOfAnXCTestHostInTheSimulator() throws {
        let (_, event) = try Self.event("kscrash/kscrash-oom-memory_termination-visionOS-simulator.json")
        #expect(event.sdk == .kscrash)
        #expect(event.shape == "KSCrash report 3.3.0")
        #expect(event.claim == .oom)
        #expect(event.eventID == "A686D4F9-5708-4E24-ADF3-24216C15F0ED")
        #expect(event.time?.utc == 1_716_226_564.474658)
        #expect(event.time?.clock == "Unix microseconds")
        #expect(event.bundleID == "com.apple.dt.xctest.tool")
        #expect(event.os == "visionOS 1.1")
        #expect(event.osBuild == "23E224")
        #expect(event.device == "RealityDevice14,1")
        #expect(event.figure("footprint")?.bytes == 100)
        #expect(event.figure("limit")?.bytes == 100)
        #expect(event.figure("remaining")?.bytes == 0)
        #expect(event.memoryLevel == "terminal")
        #expect(event.memoryPressure == "normal")
        #expect(event.contexts.map(\.kind) == [.simulator, .automatedTest])
    }

    @Test func kscrash26WatchdogExitReason() throws {
        let (_, event) = try Self.event(
            "kscrash/kscrash-2.6-example-WatchdogTimeout-0x8badf00d-iOS26.1-simulator-EXCERPT.json")
        #expect(event.claim == .watchdog)
        #expect(event.exitReasonCode == 2_343_432_205)
        #expect(event.shape == "KSCrash report 3.7.0")
        #expect(event.app == "CrashTest")
        #expect(event.device == "iPhone18,1")
        #expect(event.osBuild == "25B78")
        #expect(event.pid == 83472)
        #expect(event.figure("footprint")?.bytes == 43_125_712)
        #expect(event.figure("limit")?.bytes == 6_000_000_000)
        #expect(event.time?.utc == 1_765_315_421.500795)
        #expect(event.contexts.map(\.kind) == [.simulator])
    }

    @Test func bugsnagNSExceptionEvent() throws {
        let (_, event) = try Self.event("bugsnag/bugsnag-event-NSException-iOS14.3-simulator.json")
        #expect(event.sdk == .bugsnag)
        #expect(event.claim == .crash)
        #expect(event.claimText?.hasPrefix("NSInvalidArgumentException: -[ViewController someRandomMethod]") == true)
        #expect(event.time?.utc == AppleDate.parse("2021-01-19T11:16:25Z"))
        #expect(event.bundleID == "bugsnag.Bugsnag-Test-App")
        #expect(event.app == "Bugsnag Test App")
        #expect(event.device == "iPod9,1")
        #expect(event.os == "iOS 14.3")
        #expect(event.figure("device free")?.bytes == 27_904_143_360)
        #expect(event.memory.first { $0.name == "device total" }?.bytes == 68_715_134_976)
        #expect(event.contexts.map(\.kind) == [.simulator])
    }

    @Test func bugsnagLastLaunchState() throws {
        let (_, event) = try Self.event("bugsnag/bugsnag-v0-system_state-last-launch.json")
        #expect(event.shape == "Bugsnag last-launch state")
        #expect(event.claim == .none)
        #expect(event.app == "Bugsnag Test App")
        #expect(event.osBuild == "19H15")
        #expect(event.os == "iOS 14.1")
        #expect(event.contexts.map(\.kind) == [.simulator])
        #expect(event.time == nil)
    }

    @Test func embraceTerminations() throws {
        let (_, oom) = try Self.event("embrace/embrace-termination_oom_foreground_report.json")
        #expect(oom.sdk == .embrace)
        #expect(oom.claim == .oom)
        #expect(oom.eventID == "6D4B1F2E-1C3A-4E7B-9A0D-2F5C8B3E7A11")
        #expect(oom.time?.utc == 1_696_619_964.760585)
        let (_, other) = try Self.event("embrace/embrace-termination_unexplained_report.json")
        #expect(other.claim == .unexplained)
    }

    @Test func crashlyticsRecords() throws {
        let (_, metadata) = try Self.event("crashlytics/crashlytics-ios_all_files_crash-metadata.clsrecord")
        #expect(metadata.sdk == .crashlytics)
        #expect(metadata.claim == .none)
        #expect(metadata.eventID == "af86acaaad2f41f8b660b3c17a41c6e8")
        #expect(metadata.bundleID == "com.crashlytics.release-test-4-0-0-beta-1")
        #expect(metadata.version == "1.4")
        #expect(metadata.osBuild == "19C57")
        #expect(metadata.time?.utc == 1_581_375_414)
        #expect(metadata.contexts.map(\.kind) == [.simulator])
        let (_, signal) = try Self.event("crashlytics/crashlytics-ios_all_files_crash-signal-EXCERPT.clsrecord")
        #expect(signal.claim == .crash)
        #expect(signal.claimText == "signal SIGABRT")
        #expect(signal.time?.utc == 1_579_796_965)
        #expect(signal.figure("resident")?.bytes == 847_511_552)
        #expect(signal.figure("device free")?.bytes == 97_353_728)
    }
}
