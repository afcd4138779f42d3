import Foundation
import MemhuntFormats
import MemhuntSnapshots
import Testing

/// A record's numbers, computed once: seed 000's JetsamEvent (JustSend 725 MB lifetime peak, rank 7 of 16,
/// a 122 MB footprint while suspended: 18.9 MB in memory, 102.5 MB compressed).
@Suite struct JetsamSnapshotTests {
    static func record() throws -> JetsamSnapshot {
        let path =
            #filePath.components(separatedBy: "/Tests/")[0] + "/Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips"
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        guard case .success(.jetsamEvent(let event)) = ArtifactReader.read(bytes).result else {
            throw FormatError("not a JetsamEvent")
        }
        return JetsamSnapshot(event)
    }

    @Test func seedZeroPeakRankAndFootprint() throws {
        let snapshot = try Self.record()
        #expect(snapshot.processes.count == 16)
        let app = try #require(snapshot.processes.first { $0.name == "JustSend" })
        #expect(app.rank == 7)
        #expect((snapshot.bytes(pages: app.peakPages) / 1_048_576).rounded() == 725)
        #expect((snapshot.bytes(pages: app.residentPages) / 1_048_576).rounded() == 122)
        #expect(app.states.first == "suspended")
    }
}
