import Testing

@testable import MemhuntCore

/// The verify-fix verdict over two runs' facts: per pattern, growing class, growth per visit and test.
@Suite struct VerifyFixTests {
    /// The facts of each role, named as the checks declare them.
    static let keys: [FixEvidence: String] = [
        .leakPatterns: "leaks.cycles", .leakCount: "leaks.count", .leakedBytes: "leaks.leakedBytes",
        .classGrowth: "heap.diff", .captures: "heap.heaps", .growthShape: "growth.shape",
        .growthPerRepetition: "growth.slopeMB", .testPeaks: "xctest.perTest", .testCeiling: "xctest.ceilingMB",
        .leakPatternsComplete: "leaks.cyclesComplete",
    ]

    static func cycles(_ entries: [(String, String, Int)]) -> Facts {
        [
            "leaks.cycles": .array(
                entries.map { pattern, owner, count in
                    [
                        "pattern": .string(pattern), "owner": .string(owner), "instances": .int(count),
                        "path": "A → B → A",
                    ]
                })
        ]
    }

    @Test func eachPatternIsGradedAndTheWorstDecides() {
        let before = Self.cycles([("delegate.strong", "app", 3), ("timer.target", "app", 2), ("x", "framework", 4)])
        let after = Self.cycles([("delegate.strong", "app", 1), ("kvo.token", "app", 1), ("x", "framework", 9)])
        let fix = VerifyFix(keys: Self.keys, before: before, after: after)
        #expect(fix.rows.map(\.key) == ["delegate.strong", "kvo.token", "timer.target"])
        #expect(fix.rows.map(\.grade) == [.partial, .regressed, .pass])
        #expect(fix.overall == .regressed)
        #expect(fix.rows[0].text == "3 → 1")
    }

    /// A run whose cycles list is not its whole report's (trees not read, or past the list's 100 groups) grades no
    /// pattern: one missing from it may be in what was not read. The leak counts decide then; a run saved before
    /// the flag existed is taken as it was.
    @Test func aListThatIsNotTheWholeReportsGradesNoPattern() {
        var before = Self.cycles([("delegate.strong", "app", 30)])
        var after = Self.cycles([("timer.target", "app", 2)])
        before["leaks.count"] = 600
        after["leaks.count"] = 20
        #expect(VerifyFix(keys: Self.keys, before: before, after: after).overall == .regressed)
        after["leaks.cyclesComplete"] = false
        let cut = VerifyFix(keys: Self.keys, before: before, after: after)
        #expect(cut.rows.isEmpty && cut.overall == .partial)
        after["leaks.cyclesComplete"] = true
        before["leaks.cyclesComplete"] = false
        #expect(VerifyFix(keys: Self.keys, before: before, after: after).rows.isEmpty)
        before["leaks.cyclesComplete"] = true
        #expect(VerifyFix(keys: Self.keys, before: before, after: after).rows.map(\.grade) == [.pass, .regressed])
    }

    @Test func growingClassesArePerHeapAndExpectedAliveCannotFlipIt() {
        func heaps(_ count: Int, _ rows: [(String, Int)]) -> Facts {
            [
                "heap.heaps": .int(count),
                "heap.diff": .array(rows.map { ["class": .string($0.0), "deltaCount": .int($0.1)] }),
            ]
        }
        // 900 over 3 intervals is 300 per heap; after, 4 heaps and 90 (under the 100 that counts): gone.
        let before = heaps(4, [("FAQ (Swift, AluminumWeight)", 900), ("non-object", 5000), ("Tiny", 40)])
        let after = heaps(4, [("FAQ (Swift, AluminumWeight)", 90), ("Registry (Swift, App)", 300)])
        var fix = VerifyFix(keys: Self.keys, before: before, after: after)
        #expect(fix.rows.map(\.key) == ["FAQ (Swift, AluminumWeight)", "Registry (Swift, App)"])
        #expect(fix.rows[0].before == 300 && fix.rows[0].grade == .pass)
        #expect(fix.rows[0].text == "+300 per heap → +0")
        #expect(fix.overall == .regressed)
        fix = VerifyFix(keys: Self.keys, before: before, after: after, expectedAlive: ["Registry"])
        #expect(fix.rows[1].expectedAlive)
        #expect(fix.overall == .pass)
    }

    @Test func growthPerVisitAndTestsOverTheCeiling() {
        let stair: Facts = ["growth.shape": "linear", "growth.slopeMB": 13.8]
        let plateau: Facts = ["growth.shape": "flat", "growth.slopeMB": 0.2]
        #expect(VerifyFix(keys: Self.keys, before: stair, after: plateau).overall == .pass)
        #expect(
            VerifyFix(keys: Self.keys, before: stair, after: ["growth.shape": "linear", "growth.slopeMB": 5]).overall
                == .partial)
        #expect(VerifyFix(keys: Self.keys, before: plateau, after: stair).overall == .regressed)
        #expect(VerifyFix(keys: Self.keys, before: plateau, after: plateau).overall == nil)

        func tests(_ mb: Double) -> Facts {
            ["xctest.ceilingMB": 24, "xctest.perTest": .array([["test": "testLarge", "peakMB": .double(mb)]])]
        }
        let over = VerifyFix(keys: Self.keys, before: tests(31.5), after: tests(26.4))
        #expect(over.overall == .partial)
        #expect(over.rows.first?.text == "7.5 MB over the 24 MB ceiling → 2.4 MB over the 24 MB ceiling")
        #expect(VerifyFix(keys: Self.keys, before: tests(31.5), after: tests(14.3)).overall == .pass)
        #expect(VerifyFix(keys: Self.keys, before: tests(14.3), after: tests(14.0)).overall == nil)
    }

    @Test func withNothingToJudgeTheLeakCountsDecideOrNothingDoes() {
        #expect(VerifyFix(keys: Self.keys, before: ["leaks.count": 9], after: ["leaks.count": 0]).overall == .pass)
        #expect(VerifyFix(keys: Self.keys, before: ["leaks.count": 9], after: ["leaks.count": 9]).overall == .fail)
        #expect(VerifyFix(keys: Self.keys, before: [:], after: [:]).overall == nil)
        // One side without a leaks report says nothing of patterns.
        #expect(
            VerifyFix(keys: Self.keys, before: Self.cycles([("delegate.strong", "app", 3)]), after: [:]).rows.isEmpty)
    }
}

extension VerifyFix {
    /// The tests' order of arguments: the roles' keys first.
    init(keys: [FixEvidence: String], before: Facts, after: Facts, expectedAlive: Set<String> = []) {
        self.init(before: before, after: after, keys: keys, expectedAlive: expectedAlive)
    }
}
