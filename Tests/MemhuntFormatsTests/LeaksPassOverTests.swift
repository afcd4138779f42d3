import Foundation
import MemhuntTestSupport
import Testing

@testable import MemhuntFormats

/// An ASCII line is read from its bytes (`LeakLineBytes`) and, past the forest's bounds, a line the bytes show
/// changes nothing is passed over (`LeakForest.Builder.passOver`): the read is the same as one that reads every
/// line as a string.
@Suite struct LeaksPassOverTests {
    /// A report whose trees hold every kind of line the builder must still see: deeper lines with counts, a
    /// `STACK OF` title, a string preview holding `<< TOTAL >>`, a non-ASCII class, an untyped block, a stack
    /// frame, a blank line with only spaces, and a tree that starts at another indent.
    static func report(trees: Int) -> [UInt8] {
        var text = """
            Process:         Shop [5151]
            ----

            leaks Report Version: 4.0
            Process 5151: 402133 nodes malloced for 61440 KB
            Process 5151: \(trees * 4) leaks for \(trees * 400) total leaked bytes.

                \(trees * 4) (\(trees * 400) bytes) << TOTAL >>


            """
        for tree in 0..<trees {
            let address = String(0x1_0000_0000 + tree * 64, radix: 16)
            text += "      4 (400 bytes) ROOT CYCLE: <CartModel 0x\(address)> [64]\n"
            text += "         3 (336 bytes) __strong onChange --> ROOT CYCLE: <Closure context 0x2\(address)> [32]\n"
            text += "            __strong self --> CYCLE BACK TO <CartModel 0x\(address)> [64]\n"
            switch tree % 6 {
            case 0: text += "            1 (48 bytes) name --> <CFString 0x3\(address)> [48]  \"<< TOTAL >>\"\n"
            case 1: text += "            1 (48 bytes) cache --> <Café.Model 0x3\(address)> [48]\n"
            case 2: text += "STACK OF 1 INSTANCE OF 'ROOT CYCLE: <CartModel>':\n5   libdyld.dylib  0x1 start + 4\n"
            case 3: text += "      \n            1 (48 bytes) <Tail 0x3\(address)> [48]\n"
            case 4: text += "    2 (96 bytes) ROOT LEAK: <Outdented 0x4\(address)> [96]\n"
            default: text += "            1 (48 bytes) --> 0x5\(address) [48]\n"
            }
        }
        return Array(text.utf8)
    }

    static func read(_ bytes: [UInt8], bounds: LeakForest.Bounds, fast: Bool) -> Result<LeaksReport, FormatError> {
        var scanner = LeaksScanner(bounds: bounds, fast: fast)
        bytes.withUnsafeBytes { scanner.feed($0) }
        return scanner.finish()
    }

    @Test func eachTreeLineReadsFromItsBytesAsFromItsString() throws {
        let lines =
            Self.report(trees: 6).split(separator: UInt8(ascii: "\n"))
            + Array(try Repo.bytes("leaks/DemoApp-before.leaks.txt")).split(separator: UInt8(ascii: "\n"))
        var trees = 0
        for line in lines {
            line.withUnsafeBufferPointer { buffer in
                let string = String(decoding: buffer, as: UTF8.self)
                guard LeakLineBytes.isASCII(buffer) else { return }
                let read = LeakTreeLine.parse(ascii: LeakLineBytes(bytes: buffer), line: 7)
                #expect(read == LeakTreeLine.parse(Substring(string), line: 7), "\(string)")
                trees += read == nil ? 0 : 1
            }
        }
        #expect(trees >= 30)
    }

    @Test(arguments: [
        LeakForest.Bounds(trees: 3, lines: 4, total: 10), LeakForest.Bounds(trees: 50, lines: 2, total: 1_000),
        LeakForest.Bounds(),
    ])
    func passingOverLeavesTheReadAsItIs(bounds: LeakForest.Bounds) throws {
        let bytes = Self.report(trees: 3_000)
        let passed = try Self.read(bytes, bounds: bounds, fast: true).get()
        let parsed = try Self.read(bytes, bounds: bounds, fast: false).get()
        #expect(passed == parsed)
        #expect(passed.leaks == 12_000 && passed.roots.count == LeaksScanner.maxRoots)
        #expect(passed.forest.shapes.trees == min(bounds.trees, passed.forest.shapes.trees))
        #expect(passed.forest.treesLeftOut > 0)
        // Every six cycles make six trees: the line after a blank one starts a tree of its own, and an outdented
        // ROOT LEAK takes in the cycles below it (deeper than it) until the preview holding `<< TOTAL >>` ends it.
        // The first cycle is a tree before any outdented one: 3,001.
        #expect(passed.forest.shapes.trees + passed.forest.treesLeftOut == 3_001)
    }
}
