import Foundation
import MemhuntFormats
import MemhuntTestSupport
import Testing

/// `leaks` text: the header, the summary and the top-level roots of the trees.
@Suite struct LeaksReportTests {
    static func report(_ bytes: [UInt8]) throws -> LeaksReport {
        let outcome = ArtifactReader.read(bytes)
        #expect(outcome.kind == .leaks)
        guard case .repro(.leaks(let report)) = try outcome.result.get() else { throw Failure("not a leaks report") }
        return report
    }

    @Test func theHeaderTheSummaryAndTheRoots() throws {
        let report = try Self.report(try Repo.bytes("leaks/DemoApp-before.leaks.txt"))
        #expect(report.processName == "DemoApp" && report.pid == 4242)
        #expect(report.date == "2026-08-20 10:00:00.000 +0900")
        #expect(report.footprintBytes == 432_013_312 && report.footprintPeakBytes == 477_626_368)
        #expect(report.nodes == 812_000 && report.mallocedBytes == 134_217_728)
        #expect(report.leaks == 3120 && report.leakedBytes == 524_288)
        #expect(report.roots.map(\.className) == ["DetailViewModel", "Closure context", "NSMutableArray"])
        #expect(report.roots.map(\.kind) == [.cycle, .cycle, .leak])
        #expect(report.roots.map(\.count) == [2400, 700, 20])
        #expect(report.roots.map(\.bytes) == [393_216, 122_880, 8192])
        #expect(report.roots.first?.line == 25)
    }

    /// A tree cut mid-line is named; the summary still reads.
    @Test func aTreeCutMidLineIsNamed() throws {
        var text = String(decoding: try Repo.bytes("leaks/DemoApp-before.leaks.txt"), as: UTF8.self)
        text += "      17 (2.5"
        let report = try Self.report(Array(text.utf8))
        #expect(report.leaks == 3120)
        #expect(report.unreadable == ["line 31: '17 (2.5' is no leak entry"])
        let headless = Array("leaks Report Version: 4.0\nProcess 1: 3 nodes malloced for 1 KB\n".utf8)
        #expect(ArtifactReader.read(headless).kind == .leaks)
        #expect(throws: FormatError.self) { try ArtifactReader.read(headless).result.get() }
    }

    @Test(.enabled(if: Repo.realworld != nil, "shared/realworld is not beside the checkout"))
    func theRealBeforeAndAfterPairRead() throws {
        let base = try #require(Repo.realworld) + "/leaks/"
        let before = try Self.report(
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: base + "memorydetective-example-leaks.head.leaks.txt"))))
        #expect(before.leaks == 60436 && before.leakedBytes == 8_277_184 && before.nodes == 3_070_004)
        #expect(before.processName == "DemoApp" && before.pid == 12345)
        #expect(before.footprintBytes == Int((960.1 * 1_048_576).rounded()))
        #expect(before.roots.first?.kind == .cycle && before.roots.first?.count == 543)
        let after = try Self.report(
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: base + "memorydetective-example-fix.head.leaks.txt"))))
        #expect(after.leaks == 55576 && after.leakedBytes == 7_584_656)
        #expect(after.footprintPeakBytes == Int((985.0 * 1_048_576).rounded()))
    }
}

/// A tree pasted alone (an issue's excerpt, no header and no summary) is a leaks report of no known count.
@Suite struct PastedLeakTreeTests {
    @Test func aTreePastedAloneIsReadWithoutACount() throws {
        let text = """
            Here is what leaks printed for the settings screen:

                  2 (64 bytes) ROOT CYCLE: <SettingsViewController 0x600001c6a760> [32]
                     1 (32 bytes) __strong store --> ROOT CYCLE: <SettingsStore 0x600001c6a800> [32]
                        __strong delegate --> CYCLE BACK TO <SettingsViewController 0x600001c6a760> [32]
            """
        #expect(ReproReader.detect(Array(text.utf8)) == .leaks)
        let report = try LeaksReport.parse(Array(text.utf8)).get()
        #expect(!report.summaryKnown)
        #expect(report.forest.shapes.trees == 1 && report.forest.shapes.treeBytes == [64])
        // Its one cycle, folded as the tree closed: the two nodes and the reference back, at their lines.
        let cycle = try #require(report.forest.shapes.groups.first)
        #expect(report.forest.shapes.groups.count == 1 && cycle.instances == 1 && cycle.trees == [0])
        #expect(cycle.shape.lines == [3, 4, 5] && cycle.shape.backField == "delegate")
        #expect(cycle.shape.path == "SettingsViewController → SettingsStore → SettingsViewController")
        #expect(report.forest.shapes.classes["SettingsStore"] == .init(count: 1, bytes: 32))
    }

    /// Prose that names a ROOT CYCLE without a tree line is no leaks report.
    @Test func proseAboutACycleIsNot() {
        let text = "The ROOT CYCLE: we saw it yesterday.\nCYCLE BACK TO where we started.\n"
        #expect(ReproReader.detect(Array(text.utf8)) != .leaks)
        #expect((try? LeaksReport.parse(Array(text.utf8)).get()) == nil)
    }
}
