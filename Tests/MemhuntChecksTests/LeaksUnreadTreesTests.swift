import Foundation
import MemhuntCore
import MemhuntFormats
import MemhuntTestSupport
import Testing

@testable import MemhuntChecks

/// A report whose trees run past the reader's bounds (2,000 trees) is read for cycles in its first trees only:
/// every sentence about its cycles says so, its cycles list says it is not the whole report's, and a fix is
/// judged by the leak counts, its patterns listed and not judged.
@Suite struct LeaksUnreadTreesTests {
    /// `trees` cycles of a cart model and its change handler, with the report's counts.
    static func report(trees: Int, date: String) -> String {
        var text = """
            Process:         Shop [5151]
            Date/Time:       \(date)
            ----

            leaks Report Version: 4.0
            Process 5151: \(trees * 2) leaks for \(trees * 96) total leaked bytes.


            """
        for tree in 0..<trees {
            let (a, b) = (String(0x1_0000_0000 + tree * 64, radix: 16), String(0x2_0000_0000 + tree * 64, radix: 16))
            text += "      2 (96 bytes) ROOT CYCLE: <CartModel 0x\(a)> [64]\n"
            text += "         __strong onChange --> ROOT CYCLE: <Closure context 0x\(b)> [32]\n"
            text += "            __strong self --> CYCLE BACK TO <CartModel 0x\(a)> [64]\n"
        }
        return text
    }

    @Test func cyclesOfAReportReadInPartSayItAndTheCountsJudgeTheFix() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("before.leaks.txt", Array(Self.report(trees: 2_150, date: "2026-11-02 09:30:00 +0100").utf8))
        try folder.write("after.leaks.txt", Array(Self.report(trees: 3, date: "2026-11-02 10:30:00 +0100").utf8))
        let result = try await Hunt.run(
            [folder.path + "/before.leaks.txt", folder.path + "/after.leaks.txt"], app: nil,
            playbook: "navigation-growth")
        let step = try #require(result.steps.first { $0.step.id == "leaks" })
        // The newest report was read whole: its 3 cycles, and its list is the whole report's.
        #expect(step.facts["leaks.appCycles"] == 3 && step.facts["leaks.cyclesComplete"] == true)
        let cycle = try #require(result.findings.first { $0.code == "leaks.cycle" })
        #expect(cycle.detail.hasPrefix("3 cycles in ") && !cycle.detail.contains("not read"))
        // The first was read in its first 2,000 trees: the counts decide, its patterns are listed, not judged.
        let verdict = try #require(result.findings.first { $0.code == "leaks.verify-fix" })
        #expect(verdict.title == "Fix verdict PARTIAL: 4,300 → 6 leaks, by the counts")
        #expect(
            verdict.detail.hasPrefix(
                "Per pattern of the app's cycles read and named: closure.self-capture-stored 2000 → 3: not judged; "
                    + "the first report's cycles were not all read and named (past memhunt's bounds), so a pattern's "
                    + "count there is not the report's: the leak counts decide: PARTIAL (fewer after, not none)."))
    }

    @Test func theNewestReportReadInPartSaysSoOfEachCycle() throws {
        let report = try LeaksReport.parse(Array(Self.report(trees: 2_150, date: "2026-11-02").utf8)).get()
        #expect(!report.treesReadWhole && report.forest.treesLeftOut == 150)
        #expect(
            LeaksCheck.Words.notRead(report)
                == " 150 trees of the report past memhunt's bounds (2,000 trees, 20,000 lines a tree, 100,000 in all) "
                + "were not read for cycles: the counts here are of the trees read, and the report may hold more.")
        let whole = try LeaksReport.parse(Array(Self.report(trees: 3, date: "2026-11-02").utf8)).get()
        #expect(whole.treesReadWhole && LeaksCheck.Words.notRead(whole).isEmpty)
        let groups = LeaksCheck.groups(report)
        #expect(groups.count == 1 && groups[0].instances == 2_000 && groups[0].bytes == 2_000 * 96)
        #expect(groups[0].leak.pattern?.id == "closure.self-capture-stored")
        let verdict = FixVerdict(before: (whole, LeaksCheck.groups(whole)), after: (report, groups), expectedAlive: [])
        #expect(verdict.byCounts && verdict.unread == (false, true) && verdict.overall == .fail)
        #expect(LeaksCheck.Words.verdict(verdict).contains("the newest report's cycles were not all read and named"))
    }

    /// 1,005 distinct cycles (a model class each): the first 1,000 named, the other 5 counted, and every sentence
    /// about them says so; the list is not the whole report's, and a fix over it is judged by the counts.
    @Test func shapesPastTheBoundAreCountedNotNamed() async throws {
        var text =
            "Process:         Shop [5151]\nDate/Time:       2026-11-02 09:30:00 +0100\n----\n\n"
            + "leaks Report Version: 4.0\nProcess 5151: 2010 leaks for 96480 total leaked bytes.\n\n\n"
        for tree in 0..<1_005 {
            let (a, b) = (String(0x1_0000_0000 + tree * 64, radix: 16), String(0x2_0000_0000 + tree * 64, radix: 16))
            text += "      2 (96 bytes) ROOT CYCLE: <Model\(tree) 0x\(a)> [64]\n"
            text += "         __strong onChange --> ROOT CYCLE: <Closure context 0x\(b)> [32]\n"
            text += "            __strong self --> CYCLE BACK TO <Model\(tree) 0x\(a)> [64]\n"
        }
        let report = try LeaksReport.parse(Array(text.utf8)).get()
        #expect(report.treesReadWhole && !report.shapesNamedWhole)
        #expect(report.forest.shapes.groups.count == 1_000 && report.forest.shapes.unnamed == 5)
        #expect(report.forest.shapes.treeBytes.count == 1_005)
        #expect(
            LeaksCheck.Words.notRead(report)
                == " 5 cycles and lone objects of shapes past the first 1,000 distinct ones were counted, not named: "
                + "the counts here are of the shapes named, and the report may hold more of this one.")
        let groups = LeaksCheck.groups(report)
        #expect(groups.count == 1_000 && groups.reduce(0) { $0 + $1.instances } == 1_000)
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("many.leaks.txt", Array(text.utf8))
        let result = try await Hunt.run([folder.path + "/many.leaks.txt"], app: nil, playbook: "navigation-growth")
        let step = try #require(result.steps.first { $0.step.id == "leaks" })
        #expect(step.facts["leaks.appCycles"] == 1_000 && step.facts["leaks.cyclesComplete"] == false)
        let cycle = try #require(result.findings.first { $0.code == "leaks.cycle" })
        #expect(cycle.detail.contains("5 cycles and lone objects of shapes past the first 1,000 distinct ones"))
    }
}
