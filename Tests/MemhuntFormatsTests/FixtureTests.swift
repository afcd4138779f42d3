import MemhuntFormats
import MemhuntTestSupport
import Testing

/// Reads `Fixtures/formats/<name>` and returns its parsed artifact, failing the test otherwise.
func parsed(_ name: String) throws -> ParsedArtifact {
    let outcome = ArtifactReader.read(try Repo.bytes("formats/" + name))
    return try outcome.result.get()
}

@Suite struct JetsamFixtureTests {
    @Test func sixteenKiBPagesModernKeys() throws {
        guard case .jetsamEvent(let event) = try parsed("jetsam-16k.ips") else { throw Failure("not a JetsamEvent") }
        #expect(event.header?.bugType == "298")
        #expect(event.header?.incidentID == "11111111-2222-3333-4444-555555555555")
        #expect(event.pageSize == 16384)
        #expect(event.compressions == UInt64.max)
        #expect(event.product == "iPhone15,2")
        #expect(event.build == "iPhone OS 18.2 (22C152)")
        #expect(event.largestProcess == "FixtureApp")
        #expect(event.date == "2025-03-04 05:06:07.20 +0100")
        #expect(event.time == 1_741_061_167.2)
        #expect(event.processes.count == 3)
        #expect(
            event.processes[0]
                == JetsamProcess(
                    index: 0, name: "fixtured", pid: 81, rpages: 120, lifetimeMax: 150, states: ["daemon", "idle"],
                    priority: 0, residentInternalPages: 10, compressedInternalPages: 100, freezeSkipReason: "disabled"))
        #expect(
            event.processes[1]
                == JetsamProcess(
                    index: 1, name: "FixtureApp", pid: 4242, rpages: 90000, lifetimeMax: 91234, states: ["suspended"],
                    reason: "per-process-limit", priority: 10, residentInternalPages: 2000,
                    compressedInternalPages: 85000, freezeSkipReason: "out-of-budget"))
        #expect(event.processes[2] == JetsamProcess(index: 2, name: "pid 99", pid: 99, rpages: 7))
    }

    @Test func fourKiBPagesIOS10() throws {
        guard case .jetsamEvent(let event) = try parsed("jetsam-4k-ios10.crash") else {
            throw Failure("not a JetsamEvent")
        }
        #expect(event.pageSize == 4096)
        #expect(event.compressions == 1_234_567)
        #expect(event.date == "2016-11-02 08:09:10.11 -0700")
        #expect(event.header?.timestamp == "2016-11-02 08:09:10.11 -0700")
        #expect(event.time == 1_478_099_350.11)
        #expect(event.processes.map(\.name) == ["SpringBoard", "OldApp"])
        #expect(event.processes[0].reason == "highwater")
        #expect(event.processes[0].states == [])
        #expect(event.processes[0].lifetimeMax == 24000)
        #expect(event.processes[0].priority == nil)
        #expect(event.processes[1].states == ["frontmost", "resume"])
        #expect(event.processes[1].residentInternalPages == nil)
    }

    @Test func headerlessBodyIsAJetsamEvent() throws {
        let bytes = try Repo.bytes("formats/jetsam-16k.ips")
        let body = Array(bytes.drop { $0 != UInt8(ascii: "\n") }.dropFirst())
        guard case .success(.jetsamEvent(let event)) = ArtifactReader.read(body).result else {
            throw Failure("not a JetsamEvent")
        }
        #expect(event.header == nil)
        #expect(event.date == "2025-03-04 05:06:07.20 +0100")
        #expect(event.processes.count == 3)
    }
}

@Suite struct CrashFixtureTests {
    @Test func watchdog309() throws {
        guard case .crashReport(let report) = try parsed("crash-309-watchdog.ips") else { throw Failure("not a crash") }
        #expect(report.format == .ipsJSON)
        #expect(report.kind == .watchdog)
        #expect(report.appName == "Fixture")
        #expect(report.processName == "Fixture")
        #expect(report.bundleID == "dev.memhunt.fixture")
        #expect(report.date == "2025-06-07 08:09:09.5000 +0200")
        #expect(report.time == 1_749_276_549.5)
        #expect(report.exceptionType == "EXC_CRASH")
        #expect(report.signal == "SIGKILL")
        #expect(report.terminationNamespace == "FRONTBOARD")
        #expect(report.terminationCode == 2_343_432_205)
        #expect(report.terminationCode == 0x8BAD_F00D)
        #expect(
            report.terminationDescription
                == "<RBSTerminateContext| domain:10 code:0x8BADF00D explanation:scene-update watchdog transgression\n"
                + "WatchdogEvent: scene-update\nProcessVisibility: Foreground")
    }

    @Test func memoryLimit309() throws {
        guard case .crashReport(let report) = try parsed("crash-309-memory.ips") else { throw Failure("not a crash") }
        #expect(report.kind == .memoryLimit)
        #expect(report.appName == "Heavy")
        #expect(report.exceptionType == "EXC_RESOURCE")
        #expect(report.exceptionSubtype == "MEMORY")
        #expect(report.exceptionMessage == "(Limit 2098 MB) Crossed High Water Mark")
        #expect(report.terminationNamespace == "JETSAM")
        #expect(report.terminationDescription == "per-process-limit")
    }

    @Test func dead10cc309FallsBackToProcName() throws {
        guard case .crashReport(let report) = try parsed("crash-309-dead10cc.ips") else { throw Failure("not a crash") }
        #expect(report.kind == .system)
        #expect(report.appName == "Locker")
        #expect(report.bundleID == "dev.memhunt.locker")
        #expect(report.terminationCode == 3_735_883_980)
        #expect(report.date == "2024-05-06 07:08:09.00 -0400")
        #expect(report.time == 1_714_993_689)
    }

    @Test func legacySIGSEGV() throws {
        guard case .crashReport(let report) = try parsed("crash-legacy-sigsegv.crash") else {
            throw Failure("not a crash")
        }
        #expect(report.format == .text)
        #expect(report.header == nil)
        #expect(report.kind == .crash)
        #expect(report.appName == "Segfaulter")
        #expect(report.bundleID == "dev.memhunt.segfaulter")
        #expect(report.date == "2021-02-03 04:05:06.7890 -0800")
        #expect(report.exceptionType == "EXC_BAD_ACCESS")
        #expect(report.signal == "SIGSEGV")
        #expect(report.exceptionSubtype == "KERN_INVALID_ADDRESS at 0x0000000000000010")
        #expect(report.terminationNamespace == "SIGNAL")
        #expect(report.terminationCode == 11)
    }

    @Test func hybrid109() throws {
        guard case .crashReport(let report) = try parsed("crash-hybrid-109.crash") else { throw Failure("not a crash") }
        #expect(report.format == .ipsText)
        #expect(report.header?.bugType == "109")
        #expect(report.kind == .system)
        #expect(report.appName == "Hybrid")
        #expect(report.processName == "Hybrid")
        #expect(report.date == "2019-09-10 11:12:12.9000 +0000")
        #expect(report.terminationNamespace == "SPRINGBOARD")
        #expect(report.terminationCode == 0xDEAD_10CC)
        #expect(report.terminationDescription == "SPRINGBOARD, held a file lock while suspended")
    }

    @Test func classificationPrefersTermination() {
        func kind(
            _ type: String?, _ signal: String?, subtype: String? = nil, message: String? = nil,
            namespace: String? = nil, code: UInt64? = nil
        ) -> CrashKind {
            CrashParser.classify(
                CrashReport(
                    format: .text, exceptionType: type, signal: signal, exceptionSubtype: subtype,
                    exceptionMessage: message, terminationNamespace: namespace, terminationCode: code, kind: .none))
        }
        #expect(kind("EXC_BAD_ACCESS", "SIGKILL", namespace: "SPRINGBOARD", code: 0x8BAD_F00D) == .watchdog)
        #expect(kind("EXC_RESOURCE", nil, subtype: "MEMORY", message: "Crossed High Water Mark") == .memoryLimit)
        let diagnostic =
            "(Threshold 1800 MB) Crossed Threshold For Diagnostic Log Generation (this log does not indicate a memory limit violation)"
        #expect(kind("EXC_RESOURCE", nil, subtype: "MEMORY", message: diagnostic) == .other)
        #expect(kind("EXC_RESOURCE", nil, subtype: "CPU", message: "(Limit 50%) Observed 60% over 180 secs") == .other)
        #expect(kind("EXC_CRASH", "SIGKILL", namespace: "JETSAM") == .memoryLimit)
        #expect(kind("EXC_CRASH", "SIGKILL", namespace: "RUNNINGBOARD", code: 0xDEAD_10CC) == .system)
        #expect(kind("EXC_CRASH", "SIGABRT") == .crash)
        #expect(kind("EXC_BREAKPOINT", nil) == .crash)
        #expect(kind(nil, nil) == .other)
    }

    @Test func translatedReportBanner() throws {
        let text = """
            -------------------------------------
            Translated Report (Full Report Below)
            -------------------------------------

            Process:             Demo [42]
            Identifier:          dev.memhunt.demo
            Date/Time:           2025-02-01 18:45:54.0676 -0500

            Exception Type:  EXC_BREAKPOINT (SIGTRAP)
            Termination Reason: SIGNAL 5 Trace/BPT trap: 5
            Terminating Process: exc handler [42]
            """
        guard case .success(.crashReport(let report)) = ArtifactReader.read(Array(text.utf8)).result else {
            throw Failure("not a crash")
        }
        #expect(report.kind == .crash)
        #expect(report.appName == "Demo")
        #expect(report.terminationNamespace == "SIGNAL")
        #expect(report.terminationCode == 5)
        #expect(report.terminationDescription == "Trace/BPT trap: 5")
        #expect(report.time == 1_738_453_554.0676)
    }
}

@Suite struct MetricKitFixtureTests {
    @Test func englishPayload() throws {
        guard case .metricPayload(let payload) = try parsed("metrics-en-US.json") else { throw Failure("not metrics") }
        #expect(
            payload
                == MetricPayload(
                    timeStampBegin: "2024-10-01 00:00:00 +0000", timeStampEnd: "2024-10-01 23:59:00 +0000",
                    time: 1_727_827_140, bundleIdentifier: "dev.memhunt.metrics", appVersion: "4.5.6",
                    peakMemoryBytes: 512_000_000, averageSuspendedMemoryBytes: 48_500_000, memoryResourceLimitExits: 4,
                    memoryPressureExits: 7))
    }

    @Test func chineseLocalizedPayload() throws {
        guard case .metricPayload(let payload) = try parsed("metrics-zh_CN.json") else { throw Failure("not metrics") }
        #expect(payload.peakMemoryBytes == 1_106_818_000)
        #expect(payload.averageSuspendedMemoryBytes == 228_145_000)
        #expect(payload.memoryResourceLimitExits == nil)
        #expect(payload.memoryPressureExits == 13)
        #expect(payload.appVersion == "6.60.0")
        #expect(payload.bundleIdentifier == nil)
    }

    @Test func wrappedArrayTakesTheNewest() throws {
        guard case .metricPayload(let payload) = try parsed("metrics-wrapped.json") else {
            throw Failure("not metrics")
        }
        #expect(payload.timeStampEnd == "2024-01-03 23:59:00 +0000")
        #expect(payload.peakMemoryBytes == 1_500_000_000)
    }

    @Test func singleWrappedPayload() throws {
        let text =
            #"{"payload": {"timeStampEnd": "2024-01-01 00:00:00", "memoryMetrics": {"peakMemoryUsage": "5 kB"}}}"#
        guard case .success(.metricPayload(let payload)) = ArtifactReader.read(Array(text.utf8)).result else {
            throw Failure("not metrics")
        }
        #expect(payload.peakMemoryBytes == 5000)
        #expect(payload.time == 1_704_067_200)
    }

    @Test func diagnosticPayload() throws {
        guard case .diagnosticPayload(let payload) = try parsed("diagnostics.json") else {
            throw Failure("not diagnostics")
        }
        #expect(
            payload
                == DiagnosticPayload(
                    timeStampEnd: "2024-02-01 23:59:00 +0000", bundleIdentifier: "dev.memhunt.diag", crashCount: 2,
                    hangCount: 1))
    }

    @Test(arguments: [
        ("200000 kB", 200_000_000.0), ("1,106,818千字节", 1_106_818_000), ("1.106.818 Ko", 1_106_818_000),
        ("1\u{202F}234 KB", 1_234_000), ("1'234 kB", 1_234_000), ("1.5 MB", 1_500_000), ("2,5 GB", 2_500_000_000),
        ("1.234,5 kB", 1_234_500), ("12 bytes", 12), ("3 字节", 3), ("7兆字节", 7_000_000), ("1 KiB", 1024),
    ])
    func measurementBytes(text: String, bytes: Double) {
        #expect(MeasurementText.bytes(text) == bytes)
    }

    @Test(arguments: ["", "kB", "0 bars", "2,717秒", "12 parsecs", "1-2 kB"])
    func unparseableMeasurements(text: String) {
        #expect(MeasurementText.bytes(text) == nil)
    }
}

struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
