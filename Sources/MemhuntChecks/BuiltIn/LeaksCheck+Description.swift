import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// What the check declares: its facts, its codes with their examples, and its description.
extension LeaksCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let count = FactDescription(
            "leaks.count", .count,
            "Leaked objects of the newest leaks report (its 'N leaks for M total leaked bytes').",
            measure: true, verifies: .leakCount)
        static let leakedMB = FactDescription(
            "leaks.leakedMB", .megabytes, "Total leaked bytes of the newest leaks report, in MB.", measure: true)
        static let leakedBytes = FactDescription(
            "leaks.leakedBytes", .bytes, "Total leaked bytes of the newest leaks report, exactly.",
            verifies: .leakedBytes)
        static let largestRoot = FactDescription(
            "leaks.largestRoot", .text, "The root class of the largest tree among the report's top-level entries.")
        static let footprintMB = FactDescription(
            "leaks.footprintMB", .megabytes, "The report header's physical footprint of the process, in MB.")
        static let cycles = FactDescription(
            "leaks.cycles", .list,
            "The newest report's cycles and lone leaked objects by group: {path, pattern, owner, instances, bytes}, "
                + "the app's first (at most 100).", verifies: .leakPatterns)
        static let cyclesComplete = FactDescription(
            "leaks.cyclesComplete", .flag,
            "Whether leaks.cycles holds every group of the newest report: false when its trees past the reader's "
                + "bounds (2,000 trees, 20,000 lines a tree, 100,000 in all) were not read, when shapes past the "
                + "first 1,000 distinct ones were counted but not named, or past 100 groups.",
            verifies: .leakPatternsComplete)
        static let appCycles = FactDescription(
            "leaks.appCycles", .count,
            "Cycles and lone leaked objects of the app (or of no known owner) in the newest report's trees read, "
                + "of the shapes named.",
            measure: true)
        static let frameworkCycles = FactDescription(
            "leaks.frameworkCycles", .count,
            "Cycles of the newest report's trees read, of the shapes named, wholly inside system frameworks.",
            better: .neutral)
        static let verdict = FactDescription(
            "leaks.verdict", .text,
            "Two reports of one process: PASS, PARTIAL, FAIL or REGRESSED, the worst over the app's patterns (the "
                + "leak counts when neither report has a cycle of the app).")
        static let bytesFreed = FactDescription(
            "leaks.bytesFreed", .bytes, "Two reports of one process: leaked bytes of the first less the newest's.",
            better: .higher)
        static let reports = FactDescription(
            "leaks.reports", .count, "Leaks reports of the subject among the artifacts.", better: .neutral)
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let found = FindingCode(
            "leaks.found", .warning, "The memgraph holds leaked objects: how many, how much, and the largest roots.",
            examples: [
                .raises(
                    "Fixtures/leaks/DemoApp-before.leaks.txt", facts: [Fact.count.key: 3120, Fact.leakedMB.key: 0.5],
                    title: "3,120 leaks for 0.5 MB; the largest tree's root is DetailViewModel"),
                .quiet("Fixtures/leaks/DemoApp-clean.leaks.txt", facts: [Fact.count.key: 0, Fact.leakedMB.key: 0]),
            ])
        static let cycle = FindingCode(
            "leaks.cycle", .warning,
            "A cycle (or an object leaked alone) of the app: the pattern its nodes and references show, and the fix.",
            examples: [
                .raises(
                    "Fixtures/leaks/Shop-cycles.leaks.txt", facts: [Fact.count.key: 9, Fact.appCycles.key: 4],
                    title:
                        "ProfileViewController → ProfileLoader → ProfileViewController: a delegate or data source held strongly (delegate.strong)"
                ),
                .quiet("Fixtures/leaks/DemoApp-clean.leaks.txt", facts: [Fact.count.key: 0, Fact.appCycles.key: nil]),
            ])
        static let frameworkCycle = FindingCode(
            "leaks.framework-cycle", .info,
            "A cycle wholly inside system frameworks: labelled, ranked below the app's, with why it was classed so.",
            examples: [
                .raises(
                    "Fixtures/leaks/Shop-cycles.leaks.txt", facts: [Fact.frameworkCycles.key: 1],
                    title:
                        "Swift._DictionaryStorage<…> → Swift._DictionaryStorage<…>: a framework's cycle (SwiftUI's internal dictionaries)"
                ),
                .quiet("Fixtures/leaks/DemoApp-clean.leaks.txt", facts: [Fact.count.key: 0]),
            ])
        static let verdict = FindingCode(
            "leaks.verify-fix", .warning,
            "Two reports of one process: the fix's verdict per pattern and overall (info for PASS, notice for "
                + "PARTIAL).",
            examples: [
                .raises(
                    "Fixtures/leaks/Shop-cycles.leaks.txt", "Fixtures/leaks/verify/Shop-after-pass.leaks.txt",
                    facts: [Fact.verdict.key: "PASS", Fact.count.key: 2],
                    title: "Fix verdict PASS: 9 → 2 leaks; 2 patterns gone"),
                .raises(
                    "Fixtures/leaks/Shop-cycles.leaks.txt", "Fixtures/leaks/verify/Shop-after-partial.leaks.txt",
                    facts: [Fact.verdict.key: "PARTIAL", Fact.count.key: 3],
                    title: "Fix verdict PARTIAL: 9 → 3 leaks; 1 pattern gone, 1 fewer"),
                .raises(
                    "Fixtures/leaks/Shop-cycles.leaks.txt", "Fixtures/leaks/verify/Shop-after-fail.leaks.txt",
                    facts: [Fact.verdict.key: "FAIL", Fact.count.key: 9],
                    title: "Fix verdict FAIL: 9 → 9 leaks; 2 patterns unchanged or more"),
                .raises(
                    "Fixtures/leaks/Shop-cycles.leaks.txt",
                    "Fixtures/leaks/verify/Shop-after-regressed.leaks.txt",
                    facts: [Fact.verdict.key: "REGRESSED", Fact.count.key: 5],
                    title: "Fix verdict REGRESSED: 9 → 5 leaks; 1 pattern gone, 1 fewer, 1 new"),
                .quiet("Fixtures/leaks/Shop-cycles.leaks.txt", facts: [Fact.verdict.key: nil]),
            ])
        static let fewer = FindingCode(
            "leaks.fewer", .info, "Two reports of one process: fewer leaks after than before.",
            examples: [
                .raises(
                    "Fixtures/leaks/DemoApp-before.leaks.txt", "Fixtures/leaks/DemoApp-after.leaks.txt",
                    facts: [Fact.count.key: 20, Fact.leakedMB.key: 0],
                    title:
                        "Fewer leaks after: DemoApp-before.leaks.txt → DemoApp-after.leaks.txt: 3,120 → 20 leaks, 0.5 MB → 0 MB"
                ),
                .quiet(
                    "Fixtures/leaks/DemoApp-before.leaks.txt", facts: [Fact.count.key: 3120, Fact.leakedMB.key: 0.5]),
            ])
        static let more = FindingCode(
            "leaks.more", .warning, "Two reports of one process: more leaked bytes after than before.",
            examples: [
                .raises(
                    "Fixtures/leaks/DemoApp-clean.leaks.txt", "Fixtures/leaks/DemoApp-later.leaks.txt",
                    facts: [Fact.count.key: 40, Fact.leakedMB.key: 0],
                    title:
                        "More leaked after: DemoApp-clean.leaks.txt → DemoApp-later.leaks.txt: 0 → 40 leaks, 0 → 16,384 bytes"
                ),
                .quiet(
                    "Fixtures/leaks/DemoApp-before.leaks.txt", "Fixtures/leaks/DemoApp-after.leaks.txt",
                    facts: [Fact.count.key: 20, Fact.leakedMB.key: 0]),
            ])
    }

    static let description = CheckDescription(
        id: "leaks",
        title: "Leaks in a memgraph",
        step: "simulator-repro",
        rationale: """
            A memgraph's leaks are memory nothing can free: a retain cycle left by a closure or a delegate \
            stays for the life of the process, and each visit of a screen can add one. The count and bytes \
            say how much; the root class of the largest trees says where to look; two reports of the same \
            gesture, before and after a change, say whether it holds.
            """,
        reads: [.leaks],
        facts: [
            Fact.count, Fact.leakedMB, Fact.leakedBytes, Fact.largestRoot, Fact.footprintMB, Fact.reports, Fact.cycles,
            Fact.cyclesComplete, Fact.appCycles,
            Fact.frameworkCycles, Fact.verdict, Fact.bytesFreed,
        ],
        codes: [Code.found, Code.cycle, Code.frameworkCycle, Code.verdict, Code.fewer, Code.more],
        parameters: [
            CheckParameter(
                "expected_alive", default: .array([]),
                "Classes expected to stay alive (singletons): a cycle of only these cannot flip a fix's verdict."),
            CheckParameter(
                "framework_cycles", default: .array([]),
                "Known framework cycles to add: {name, holder, target, field, seen_on}, names exact, prefix* or "
                    + "/regex/."),
        ]
    )
}
