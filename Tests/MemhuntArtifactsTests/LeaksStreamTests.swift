import Foundation
import MemhuntArtifacts
import MemhuntBasics
import MemhuntCore
import MemhuntFormats
import MemhuntTestSupport
import Testing

/// A `leaks` report is streamed (like an xctrace export): never refused at the document limit, its trees and
/// top-level entries kept within their bounds, its counts whole.
@Suite struct LeaksStreamTests {
    /// A report of `trees` cycles of two objects each, the last tree with a lone leak of 4 KB.
    static func report(trees: Int) -> [UInt8] {
        var text = """
            Process:         Shop [5151]
            Date/Time:       2026-11-02 09:30:00.000 +0100
            Physical footprint:         188.4M
            ----

            leaks Report Version: 4.0
            Process 5151: 402133 nodes malloced for 61440 KB
            Process 5151: \(trees * 2 + 1) leaks for \(trees * 96 + 4096) total leaked bytes.

                \(trees * 2 + 1) (\(trees * 96 + 4096) bytes) << TOTAL >>


            """
        for tree in 0..<trees {
            let (a, b) = (String(0x1_0000_0000 + tree * 64, radix: 16), String(0x2_0000_0000 + tree * 64, radix: 16))
            text += "      2 (96 bytes) ROOT CYCLE: <CartModel 0x\(a)> [64]\n"
            text += "         __strong onChange --> ROOT CYCLE: <Closure context 0x\(b)> [32]\n"
            text += "            __strong self --> CYCLE BACK TO <CartModel 0x\(a)> [64]\n"
        }
        text += "      1 (4.00K) ROOT LEAK: <ImageBuffer 0x3000> [4096]\n"
        return Array(text.utf8)
    }

    @Test func aReportOverTheDocumentLimitStreamsWithItsCountsWhole() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let bytes = Self.report(trees: 20_000)
        try folder.write("big.leaks.txt", bytes)
        // 5.4 MB against a 1 MB limit: read in windows, lines split between two.
        let artifact = LocalArtifacts.load(path: folder.path + "/big.leaks.txt", documentLimit: 1 << 20)
        #expect(artifact.status == .ok && artifact.kind == .leaks && artifact.size == bytes.count)
        #expect(artifact.sha256 == SHA256.hex(bytes))
        guard case .repro(.leaks(let report))? = artifact.content else {
            Issue.record("not read: \(artifact.error ?? "")")
            return
        }
        #expect(report.leaks == 40_001 && report.leakedBytes == 20_000 * 96 + 4096)
        #expect(report.processName == "Shop" && report.nodes == 402_133)
        // The entries kept are the largest: the 4 KB lone leak first among them, at its line.
        #expect(report.roots.count == LeaksScanner.maxRoots)
        #expect(report.roots.contains { $0.className == "ImageBuffer" && $0.bytes == 4096 && $0.kind == .leak })
        // Trees within the forest's bounds: 2,000 kept, the rest counted.
        #expect(report.forest.shapes.trees == LeakForest.maxTrees)
        #expect(report.forest.treesLeftOut == 20_001 - LeakForest.maxTrees)
    }
}
