import Foundation
import MemhuntFormats
import Testing

@testable import MemhuntSnapshots

/// What a scan keeps of OS records for the SDK claims: the apps' processes of each JetsamEvent, in the order read,
/// at most `recordLimit` of them, those past it counted; the records made of them are those `OSRecord.records`
/// makes of the event.
@Suite struct ScanSDKClaimsTests {
    static func event(_ apps: Int, offset: Int) -> JetsamEvent {
        var processes = (0..<apps).map {
            JetsamProcess(index: $0, name: "App\(offset + $0)", pid: offset + $0, rpages: 640, states: ["suspended"])
        }
        processes.append(JetsamProcess(index: apps, name: "cloudd", pid: 1, rpages: 64, states: ["daemon"]))
        processes.append(JetsamProcess(index: apps + 1, name: "com.apple.WebKit.WebContent", rpages: 64))
        var event = JetsamEvent(
            date: "2026-08-11 11:20:56.00 +0900", product: "iPhone18,1", build: "iPhone OS 26.0 (23A341)",
            pageSize: 16384, processes: processes)
        event.processes[0].reason = "per-process-limit"
        return event
    }

    @Test func theAppsOfEachEventAreKeptInOrderUpToTheLimit() {
        var claims = ScanSDKClaims()
        claims.add(.jetsamEvent(Self.event(3, offset: 0)), file: "a.ips")
        // Not the daemon (its state says it is one) nor the WebKit service: the three apps.
        let expected = OSRecord.records(of: Self.event(3, offset: 0), file: "a.ips") { $0.hasPrefix("App") }
        #expect(claims.records == expected)
        #expect(claims.records.map(\.process) == ["App0", "App1", "App2"])
        #expect(claims.records.first?.outcome == .memoryKill(reason: "per-process-limit"))
        #expect(claims.records.first?.residentBytes == 10_485_760)
        #expect(claims.records.first?.osBuild == "23A341")

        var big = ScanSDKClaims()
        big.add(.jetsamEvent(Self.event(120_000, offset: 0)), file: "b.ips")
        var other = ScanSDKClaims()
        other.add(.jetsamEvent(Self.event(100_000, offset: 200_000)), file: "c.ips")
        big.merge(other)
        #expect(big.records.count == ScanSDKClaims.recordLimit)
        #expect(big.recordsNotKept == 20_000)
        #expect(big.records[120_000].process == "App200000" && big.records.last?.process == "App279999")
    }

    /// A scan's workers share the limit as they read: together they never hold more than it, and merging keeps
    /// every record each kept.
    @Test func workersSharingARoomKeepAtMostTheLimitTogether() {
        final class Room: @unchecked Sendable {
            let lock = NSLock()
            var left = ScanSDKClaims.recordLimit
            func take(_ wanted: Int) -> Int {
                lock.withLock {
                    let granted = min(wanted, left)
                    left -= granted
                    return granted
                }
            }
        }
        let room = Room()
        var (one, two, total) = (ScanSDKClaims(), ScanSDKClaims(), ScanSDKClaims())
        one.room = room.take
        two.room = room.take
        total.room = room.take
        one.add(.jetsamEvent(Self.event(150_000, offset: 0)), file: "a.ips")
        two.add(.jetsamEvent(Self.event(150_000, offset: 150_000)), file: "b.ips")
        #expect(one.records.count == 150_000 && two.records.count == 50_000)
        #expect(two.recordsNotKept == 100_000 && room.left == 0)
        total.merge(one)
        total.merge(two)
        #expect(total.records.count == ScanSDKClaims.recordLimit && total.recordsNotKept == 100_000)
        #expect(total.records.last?.process == "App199999")
    }
}
