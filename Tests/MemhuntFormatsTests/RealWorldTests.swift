import Foundation
import MemhuntFormats
import MemhuntTestSupport
import Testing

/// The public files under `shared/realworld` (read in place, never copied), with the kinds SOURCES.md gives.
@Suite(.enabled(if: Repo.realworld != nil, "shared/realworld is not beside the checkout"))
struct RealWorldTests {
    enum Expected {
        case jetsam
        case jetsamFailure
        /// Read up to its elision, with these processes.
        case jetsamElided(processes: Int)
        case crash(CrashKind)
        case recognized(ArtifactKind)
        case metrics(peakBytes: Double)
        case failure(ArtifactKind, containing: String)
        case unrecognized
        case kills(Int)
    }

    static let expectations: [String: Expected] = [
        "jetsam/JetsamEvent-2020-10-15-172958.ips.synced": .jetsam,
        "jetsam/JetsamEvent-iOS18.5-22F76-EXCERPT.ips": .jetsam,
        "jetsam/jetsam_vm-pageshortage.crash": .jetsam,
        "jetsam/jetsam_vnode-limit.crash": .jetsam,
        "jetsam/jetsam_highwater.crash": .jetsam,
        "jetsam/jetsam_vm-thrashing.crash": .jetsamElided(processes: 1),
        "jetsam/jetsam_per-process-limit.crash": .recognized(.analyticsLog),
        "crash-ips/web4app.app.ips": .crash(.system),
        "crash-ips/App-watchdog-0x8BADF00D-iOS26.6.2-EXCERPT.ips": .crash(.watchdog),
        "crash-ips/ips2crashlog_source.ips": .crash(.crash),
        "crash-legacy/kiosk_startup_ios.crash": .crash(.watchdog),
        "crash-legacy/one_messenger_sql_ios.crash": .crash(.system),
        "crash-legacy/mobile_sms_security_ios.crash": .crash(.system),
        "crash-legacy/icdab_planets.crash": .crash(.crash),
        "crash-legacy/icdab_wrap_ios_14_2.crash": .crash(.crash),
        "crash-legacy/adventure_crash_ios.crash": .crash(.crash),
        "crash-legacy/brain_cpu_ios.crash": .crash(.other),
        "crash-legacy/snapshot_many_wakes_ios.crash": .crash(.other),
        "crash-legacy/ips2crashlog_target.txt": .crash(.crash),
        "resource/apfs_defragd.cpu_resource-2020-10-19-234902.ips.synced": .recognized(.resourceReport),
        "resource/assetsd.diskwrites_resource-2020-10-18-025557.ips.synced": .recognized(.resourceReport),
        "resource/stackshot_ios.crash": .recognized(.stackshot),
        "metrickit/MXMetricPayload-xcode-simulated-iOS16.0.2.json": .metrics(peakBytes: 200_000_000),
        "metrickit/MXMetricPayload-real-zh_CN-iOS14.0.1-EXCERPT.txt": .failure(
            .metricPayload, containing: "is not valid JSON: unexpected '#'"),
        "metrickit/sentry-callstacktree-tree-real.json": .failure(
            .diagnosticPayload, containing: "a MetricKit call-stack tree"),
        "metrickit/sentry-callstacktree-per-thread.json": .failure(
            .diagnosticPayload, containing: "a MetricKit call-stack tree"),
        "metrickit/sentry-callstacktree-not-per-thread.json": .failure(
            .diagnosticPayload, containing: "a MetricKit call-stack tree"),
        // Namespace TCC: ended by the system for privacy, not an ordinary crash.
        "vmmap/icdab_camera_iOSonMac.crash": .crash(.system),
        "unified-log/unified-log-memorystatus-EXCERPT.txt": .kills(1),
    ]

    static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: try #require(Repo.realworld) + "/" + relative)))
    }

    /// Every file: the expected kind when the table names it; for the rest, only that `read` returns.
    @Test func everyFileReadsAsSOURCESDescribes() throws {
        let root = try #require(Repo.realworld)
        let files = try FileManager.default.subpathsOfDirectory(atPath: root).sorted()
            .filter { !$0.hasSuffix(".md") && !$0.hasPrefix(".") }
            .filter { path in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
                    && !isDirectory.boolValue
            }
        #expect(files.count >= Self.expectations.count)
        for (name, _) in Self.expectations { #expect(files.contains(name), "missing \(name)") }
        for file in files {
            let outcome = ArtifactReader.read(try Self.bytes(file))
            switch (Self.expectations[file], outcome.result) {
            case (nil, _), (.jetsam?, .success(.jetsamEvent)): break
            case (.kills(let count)?, .success(.killLog(let log))):
                #expect(log.kills.count == count, "\(file)")
            case (.unrecognized?, .failure(let error)):
                #expect(outcome.kind == nil, "\(file)")
                #expect(error.message.hasPrefix("unrecognized content ("), "\(file)")
                #expect(outcome.isUnrecognized, "\(file)")
            case (.jetsamFailure?, .failure(let error)):
                #expect(outcome.kind == .jetsamEvent)
                #expect(error.message.hasPrefix("JetsamEvent body is not valid JSON: "), "\(file)")
                #expect(error.line != nil, "\(file)")
            case (.jetsamElided(let count)?, .success(.jetsamEvent(let event))):
                #expect(event.recovery?.state == .elided, "\(file)")
                #expect(event.processes.count == count, "\(file)")
            case (.crash(let kind)?, .success(.crashReport(let report))):
                #expect(report.kind == kind, "\(file)")
            case (.recognized(let kind)?, .success(.recognized(let found))):
                #expect(found == kind, "\(file)")
            case (.metrics(let peak)?, .success(.metricPayload(let payload))):
                #expect(payload.peakMemoryBytes == peak, "\(file)")
            case (.failure(let kind, let text)?, .failure(let error)):
                #expect(outcome.kind == kind, "\(file)")
                #expect(error.message.contains(text), "\(file): \(error.message)")
            case (let expected?, let result):
                Issue.record("\(file): expected \(expected), got kind \(String(describing: outcome.kind)) \(result)")
            }
        }
    }

    /// Process count, page size and compressions agree with Foundation's reading of the body.
    @Test(arguments: [
        "jetsam/JetsamEvent-2020-10-15-172958.ips.synced", "jetsam/JetsamEvent-iOS18.5-22F76-EXCERPT.ips",
        "jetsam/jetsam_vm-pageshortage.crash", "jetsam/jetsam_vnode-limit.crash", "jetsam/jetsam_highwater.crash",
    ])
    func jetsamAgreesWithJSONSerialization(file: String) throws {
        let bytes = try Self.bytes(file)
        guard case .success(.jetsamEvent(let event)) = ArtifactReader.read(bytes).result else {
            throw Failure("\(file) is not a JetsamEvent")
        }
        let newline = try #require(bytes.firstIndex(of: UInt8(ascii: "\n")))
        let body = try #require(
            try JSONSerialization.jsonObject(with: Data(bytes[(newline + 1)...])) as? [String: Any])
        let memoryStatus = try #require(body["memoryStatus"] as? [String: Any])
        let processes = try #require(body["processes"] as? [[String: Any]])
        #expect(event.processes.count == processes.count)
        #expect(event.pageSize == (memoryStatus["pageSize"] as? NSNumber)?.uint64Value)
        #expect(event.compressions == (memoryStatus["compressions"] as? NSNumber)?.uint64Value)
        #expect(event.processes.map(\.name) == processes.map { $0["name"] as? String ?? "" })
        #expect(event.processes.map(\.rpages) == processes.map { ($0["rpages"] as? NSNumber)?.uint64Value ?? 0 })
    }

    @Test func iOS14JetsamEvent() throws {
        let bytes = try Self.bytes("jetsam/JetsamEvent-2020-10-15-172958.ips.synced")
        guard case .success(.jetsamEvent(let event)) = ArtifactReader.read(bytes).result else {
            throw Failure("not a JetsamEvent")
        }
        #expect(event.pageSize == 16384)
        #expect(event.processes.count == 442)
        #expect(event.product == "iPhone12,1")
        #expect(event.header?.osVersion == "iPhone OS 14.2 (18B5061e)")
        #expect(event.processes.filter { $0.reason == "highwater" }.count == 2)
    }

    @Test func modernJSONCrashFields() throws {
        guard
            case .success(.crashReport(let report)) = ArtifactReader.read(
                try Self.bytes("crash-ips/web4app.app.ips")
            ).result
        else { throw Failure("not a crash report") }
        #expect(report.appName == "ShareExtension")
        #expect(report.terminationCode == 0xDEAD_10CC)
        #expect(report.terminationNamespace == "RUNNINGBOARD")
        #expect(report.signal == "SIGKILL")
    }
}
