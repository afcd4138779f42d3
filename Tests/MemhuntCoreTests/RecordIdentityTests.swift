import MemhuntFormats
import Testing

@testable import MemhuntCore

/// A JetsamEvent's record identity hashes each process's name and figures as one text; fed byte by byte, the key is
/// the one the text gives (scans of other runs and pasted copies are matched by it).
@Suite struct RecordIdentityTests {
    @Test func theKeyHashesEachProcessAsItsText() throws {
        let processes = [
            JetsamProcess(index: 0, name: "JustSend", pid: 4211, rpages: 7808, lifetimeMax: 46400),
            JetsamProcess(index: 1, name: "kernel_task", pid: 0, rpages: 0),
            JetsamProcess(index: 2, name: "Ünïcødé app", rpages: UInt64.max, reason: "per-process-limit"),
            JetsamProcess(index: 3, name: "", pid: -7, rpages: 10, lifetimeMax: 1_000_000_000_000_000_000),
        ]
        let event = JetsamEvent(date: "2026-08-11 11:20:56.00 +0900", pageSize: 16384, processes: processes)
        var withKey = event
        withKey.deviceKey = "d3e6"
        let artifact = Artifact(source: "a.ips", status: .ok, content: .jetsamEvent(withKey))
        let identity = try #require(artifact.recordIdentity)
        var hasher = 0xcbf2_9ce4_8422_2325 as UInt64
        for process in processes {
            let numbers =
                "#\(process.pid ?? -1),\(process.rpages),\(process.lifetimeMax ?? 0),\(process.reason ?? "");"
            for byte in process.name.utf8 + Array(numbers.utf8) {
                hasher = (hasher ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        #expect(identity.description == "JetsamEvent of device d3e6 at 2026-08-11 11:20:56.00 +0900")
        #expect(identity.key == identity.description + "|4|\(hasher)")
    }
}
