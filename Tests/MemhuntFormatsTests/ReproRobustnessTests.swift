import Foundation
import MemhuntFormats
import MemhuntTestSupport
import Testing

@Suite struct ReproRobustnessTests {
    @Test(arguments: ReproFixture.kinds.map(\.0))
    func detectsItsKind(name: String) throws {
        let expected = ReproFixture.kinds.first { $0.0 == name }!.1
        #expect(ReproReader.detect(try ReproFixture.bytes(name)) == expected)
    }

    /// Truncation at every offset never crashes (for the 540 KB pviews dump: every offset of the first
    /// KiB and 64 evenly spaced cuts, which keeps the debug run short).
    @Test(arguments: ReproFixture.kinds.map(\.0))
    func survivesTruncation(name: String) throws {
        let bytes = try ReproFixture.bytes(name)
        let cuts =
            bytes.count <= 8192
            ? Array(0...bytes.count) : Array(0...1024) + stride(from: 1024, to: bytes.count, by: bytes.count / 64)
        for cut in cuts { _ = ReproReader.read(Array(bytes[..<cut])) }
    }

    /// 200 copies with 1 to 8 random bytes replaced (SplitMix64, fixed seed) parse or fail without crashing.
    @Test(arguments: ReproFixture.kinds.map(\.0))
    func survivesByteFlips(name: String) throws {
        let bytes = try ReproFixture.bytes(name)
        var random = SplitMix64(seed: 0x5EED_0000 &+ UInt64(name.utf8.count))
        for _ in 0..<(bytes.count > 100_000 ? 20 : 200) {
            var copy = bytes
            for _ in 0...(random.next() % 8) {
                copy[Int(random.next() % UInt64(copy.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            _ = ReproReader.read(copy)
        }
    }

    @Test func hostileInputs() {
        let inputs: [[UInt8]] = [
            [], [0xFF, 0xD8], [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x02], Array("\u{0}ftypheic".utf8),
            [0, 0, 0, 1] + Array("ftypheic".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
            [0, 0, 0, 24] + Array("ftypmif1".utf8) + [UInt8](repeating: 0, count: 8)
                + [0, 0, 0, 20] + Array("ispe".utf8) + [0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
            Array(String(repeating: "[", count: 10_000).utf8),
            Array(("{\"memhunt\":\"measurements/1\",\"measurements\":" + String(repeating: "[", count: 10_000)).utf8),
            Array("label,footprint_mb\na,1e400\nb,99999999999999999999999\n".utf8),
            Array("A: , , changed.\n: unchanged.\n<>: @self changed.\n changed.\nX:  changed.\n".utf8),
            Array("Physical footprint:  9999999999999999999999G\nAnalysis Tool: vmmap\n".utf8),
            Array("<UIWindow: 0x\n<UIWindow: 0x1; layer = <\n".utf8),
        ]
        for input in inputs { _ = ReproReader.read(input) }
    }
}

@Suite struct ReproOverflowTests {
    @Test func absurdSampleCountsSaturateInsteadOfTrapping() throws {
        let text = """
            Analysis of sampling Memo (pid 1) every 1 millisecond
            Call graph:
                9223372036854775807 Thread_1   DispatchQueue_1: com.apple.main-thread  (serial)
                + 9223372036854775807 Foo.body.getter  (in Memo) + 1  [0x1]
                + 9223372036854775807 Bar.body.getter  (in Memo) + 1  [0x2]
            """
        let result = try #require(ReproReader.read(Array(text.utf8)))
        guard case .success(.sample(let report)) = result else {
            Issue.record("not a sample: \(result)")
            return
        }
        #expect(report.bodySamples == Int.max)
    }
}

@Suite struct ChangeLogBoundsTests {
    @Test func longNamesAreCutSoTheTablesStayBounded() throws {
        let long = String(repeating: "V", count: 1000)
        var scanner = ChangeLogScanner()
        scanner.feed(Array("\(long): _x changed.\n\(long): _x changed.\n".utf8)[...])
        let summary = scanner.finish()
        let name = try #require(summary.views.keys.first)
        #expect(name.count == 257, "256 characters and an ellipsis")
        #expect(name.hasSuffix("…"))
        #expect(summary.views[name] == 2)
    }
}
