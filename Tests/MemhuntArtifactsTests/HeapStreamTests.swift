import Foundation
import MemhuntArtifacts
import MemhuntBasics
import MemhuntCore
import MemhuntFormats
import MemhuntTestSupport
import Testing

/// A `heap` report is streamed (like a `leaks` report): `-addresses all` makes one of hundreds of megabytes, which
/// is never refused at the document limit and reads as its table.
@Suite struct HeapStreamTests {
    @Test func aReportOverTheDocumentLimitStreamsAsItsTable() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let table = try Repo.bytes("heap/faq-visit-4.heap.txt")
        var listing = "\nActive blocks in all zones that match pattern '.*':\n"
        for index in 0..<100_000 {
            listing += "0x\(String(0x6000_03a0_4000 + index * 48, radix: 16)): non-object (48 bytes)\n"
        }
        let bytes = table + Array(listing.utf8)
        try folder.write("big.heap.txt", bytes)
        // About 4 MB against a 1 MB limit: read in windows, lines split between two.
        let artifact = LocalArtifacts.load(path: folder.path + "/big.heap.txt", documentLimit: 1 << 20)
        #expect(artifact.status == .ok && artifact.kind == .heap && artifact.size == bytes.count)
        #expect(artifact.sha256 == SHA256.hex(bytes))
        guard case .repro(.heap(let report))? = artifact.content else {
            Issue.record("not read: \(artifact.error ?? "")")
            return
        }
        #expect(report == (try HeapReport.parse(table).get()))
        #expect(report.processName == "AluminumWeight" && report.nodes == 101_163 && report.tableWhole)
        #expect(report.classes.first { $0.className == "FAQ" }?.count == 1200)
    }
}
