import Foundation
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// `memhunt diff` as the judge of a fix (two saved runs) and as a per-class diff of two captures.
@Suite struct VerifyFixDiffTests {
    /// The Shop leaks report against one of its after-fix reports, as two saved runs: the diff's JSON.
    static func verdict(_ after: String) async throws -> [String: Any] {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        for (name, file) in [("before", "Fixtures/leaks/Shop-cycles.leaks.txt"), ("after", after)] {
            let run = await memhunt(
                "run", file, "--playbook", "navigation-growth", "--app", "Shop", "--format", "json", "-o",
                dir.path + "/\(name).json")
            #expect(run.status == 1 || run.status == 0, "\(run.stderr)")
        }
        let diff = await memhunt("diff", dir.path + "/before.json", dir.path + "/after.json", "--format", "json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
        return try #require(object["fix"] as? [String: Any])
    }

    static func rows(_ fix: [String: Any]) -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: ((fix["rows"] as? [[String: Any]]) ?? []).map {
                ($0["key"] as? String ?? "?", ($0["grade"] as? String ?? "?") + " " + ($0["text"] as? String ?? ""))
            })
    }

    @Test func eachAfterReportGetsItsVerdictPerPattern() async throws {
        let pass = try await Self.verdict("Fixtures/leaks/verify/Shop-after-pass.leaks.txt")
        #expect(pass["verdict"] as? String == "PASS")
        #expect(Self.rows(pass)["delegate.strong"] == "PASS 1 → 0")
        let partial = try await Self.verdict("Fixtures/leaks/verify/Shop-after-partial.leaks.txt")
        #expect(partial["verdict"] as? String == "PARTIAL")
        #expect(Self.rows(partial)["closure.self-capture-stored"] == "PARTIAL 3 → 1")
        #expect(partial["leakedBytesBefore"] as? Int == 1184)
        #expect(partial["leakedBytesAfter"] as? Int == 896)
        let fail = try await Self.verdict("Fixtures/leaks/verify/Shop-after-fail.leaks.txt")
        #expect(fail["verdict"] as? String == "FAIL")
        let regressed = try await Self.verdict("Fixtures/leaks/verify/Shop-after-regressed.leaks.txt")
        #expect(regressed["verdict"] as? String == "REGRESSED")
        // A framework's cycle is never a row: the app cannot fix it.
        for fix in [pass, partial, fail, regressed] {
            #expect(!Self.rows(fix).keys.contains { $0.contains("_DictionaryStorage") })
        }
    }

    @Test func twoHeapsComparePerClassLargestChangeOfBytesFirst() async throws {
        let run = await memhunt("diff", "Fixtures/heap/faq-visit-1.heap.txt", "Fixtures/heap/faq-visit-4.heap.txt")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let faq = try #require(lines.first { $0.hasPrefix("FAQ (Swift, AluminumWeight)") })
        #expect(faq.hasSuffix("300       1,200        +900     +72,000"))
        #expect(lines.firstIndex { $0.hasPrefix("non-object") }! < lines.firstIndex(of: faq)!)
        #expect(
            run.stdout.contains(
                "3 classes changed, 8 unchanged; of those changed: 74,027 → 76,730 instances, +489,696 bytes."))
    }

    @Test func twoLeaksReportsCompareTheirLeakedObjectsPerClass() async throws {
        let run = await memhunt(
            "diff", "Fixtures/leaks/Shop-cycles.leaks.txt", "Fixtures/leaks/verify/Shop-after-partial.leaks.txt",
            "--format", "json")
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["schema"] as? String == "memhunt.capture-diff/1")
        #expect(object["counts"] as? String == "leaked objects")
        let rows = try #require(object["rows"] as? [[String: Any]])
        let viewModel = try #require(rows.first { $0["class"] as? String == "CheckoutViewModel" })
        #expect(viewModel["before"] as? Int == 2 && viewModel["after"] as? Int == 1)
        #expect(viewModel["deltaBytes"] as? Int == -48)
    }

    @Test func categoriesListedOnOneSideAreNotZero() async throws {
        let run = await memhunt(
            "diff", "Fixtures/xctrace/allocations-statistics.xml", "Fixtures/xctrace/allocations-statistics-later.xml")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Malloc 48 Bytes                          100           —           —           —"))
        #expect(run.stdout.contains("5 listed on one side only (—: not compared)"))
        #expect(
            run.stdout.contains("(summary rows, All …, aside): 80 → 200 persistent allocations, +31,457,280 bytes."))
    }

    @Test func capturesOfTwoKindsOrNoneAreRefusedWithWhy() async throws {
        let mixed = await memhunt("diff", "Fixtures/heap/faq-visit-1.heap.txt", "Fixtures/leaks/Shop-cycles.leaks.txt")
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("faq-visit-1.heap.txt is a heap capture and Shop-cycles.leaks.txt a leaks one"))
        let prose = await memhunt("diff", "Fixtures/heap/README.md", "Fixtures/heap/faq-visit-1.heap.txt")
        #expect(prose.status == 2)
        #expect(
            prose.stderr.contains("neither a findings document nor a heap report, leaks report or Allocations export"))
        #expect(prose.stdout.isEmpty)
    }

    @Test func sarifHasARulePerLeakPatternWithItsFix() async throws {
        let run = await memhunt(
            "run", "Fixtures/leaks/Shop-cycles.leaks.txt", "--playbook", "navigation-growth", "--app", "Shop",
            "--format", "sarif")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let sarif = try #require((log["runs"] as? [[String: Any]])?.first)
        let rules = try #require(
            ((sarif["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        let ids = rules.compactMap { $0["id"] as? String }
        #expect(ids.contains("leaks.cycle/closure.self-capture-stored"))
        #expect(ids.contains("leaks.cycle/delegate.strong"))
        let delegate = try #require(rules.first { $0["id"] as? String == "leaks.cycle/delegate.strong" })
        let help = try #require((delegate["help"] as? [String: Any])?["text"] as? String)
        #expect(help.hasPrefix("Fix: Declare the delegate weak"))
        #expect(help.hasSuffix("SwiftLint: weak_delegate."))
        let results = try #require(sarif["results"] as? [[String: Any]])
        for result in results {
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(ids[index] == result["ruleId"] as? String)
        }
    }
}
