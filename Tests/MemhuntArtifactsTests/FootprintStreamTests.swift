import Foundation
import MemhuntArtifacts
import MemhuntBasics
import MemhuntCore
import MemhuntFormats
import MemhuntTestSupport
import Testing

/// `footprint --sample … -j` JSON over the document limit is streamed, never refused: a long sampling session reads
/// whole, a sample at a time.
@Suite struct FootprintStreamTests {
    @Test func aSamplingSessionOverTheDocumentLimitIsRead() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var text = "{\n \"unit\": \"byte\",\n \"bytes per unit\": 1,\n \"page size\": 16384,\n \"samples\": [\n"
        for index in 0..<10_000 {
            text +=
                (index == 0 ? "" : ",\n")
                + #"{"start_time": {"wall_time_s": \#(1000 + index)}, "processes": [{"name": "AluminumWeight", "#
                + #""pid": 5120, "footprint": \#(86_409_216 + 16384 * index)}]}"#
        }
        let bytes = Array((text + "\n ]\n}\n").utf8)
        try folder.write("session.footprint.json", bytes)
        // About 1.2 MB against a 1 MB limit.
        #expect(bytes.count > 1 << 20)
        let artifact = LocalArtifacts.load(path: folder.path + "/session.footprint.json", documentLimit: 1 << 20)
        #expect(artifact.status == .ok && artifact.kind == .footprintJSON && artifact.size == bytes.count)
        #expect(artifact.sha256 == SHA256.hex(bytes))
        guard case .repro(.footprintJSON(let report))? = artifact.content else {
            Issue.record("not read: \(artifact.error ?? "")")
            return
        }
        #expect(report.isSampled && report.snapshots.count == 10_000 && report.unreadable.isEmpty)
        #expect(report.snapshots.last?.processes[0].bytes == 86_409_216 + 16384 * 9_999)
        guard case .repro(.footprintJSON(let whole)) = try ArtifactReader.read(bytes).result.get() else {
            Issue.record("not read whole")
            return
        }
        #expect(report == whole)
    }
}
