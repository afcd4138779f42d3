import Foundation
import MemhuntCore
import MemhuntFormats
import MemhuntTestSupport
import Testing

@testable import MemhuntChecks

/// The fix's verdict over two `leaks` reports: per pattern of the app's cycles, the worst overall, framework
/// cycles listed and not judged, expected-alive classes unable to flip it.
@Suite struct LeaksVerifyFixTests {
    /// memorydetective's before/after pair holds SwiftUI's dictionary cycles only: the counts decide.
    @Test(.enabled(if: Repo.realworld != nil, "../shared/realworld is absent"))
    func memorydetectivesPairIsPartialByItsCounts() async throws {
        let root = try #require(Repo.realworld)
        let result = try await Hunt.run(
            [
                root + "/leaks/memorydetective-example-leaks.head.leaks.txt",
                root + "/leaks/memorydetective-example-fix.head.leaks.txt",
            ], app: nil, playbook: "navigation-growth")
        let finding = try #require(result.findings.first { $0.code == "leaks.verify-fix" })
        #expect(finding.title == "Fix verdict PARTIAL: 60,436 → 55,576 leaks, by the counts")
        #expect(finding.severity == .notice)
        #expect(finding.detail.contains("8,277,184 → 7,584,656: 692,528 freed, 7,584,656 still leaked"))
        let step = try #require(result.steps.first { $0.step.id == "leaks" })
        #expect(step.facts["leaks.verdict"] == "PARTIAL")
        #expect(step.facts["leaks.frameworkCycles"] == 2)
        #expect(!result.findings.contains { $0.code == "leaks.cycle" })
    }

    /// A cycle of classes declared expected alive does not flip the verdict.
    @Test func expectedAliveClassesDoNotFlipTheVerdict() throws {
        let text = { (timer: Bool) in
            """
            Process 1: \(timer ? 2 : 0) leaks for \(timer ? 112 : 0) total leaked bytes.
            """
                + (timer
                    ? """

                        2 (112 bytes) ROOT CYCLE: <Clock 0x1> [48]
                           1 (64 bytes) __strong timer --> ROOT CYCLE: <__NSCFTimer 0x2> [64]
                              __strong target --> CYCLE BACK TO <Clock 0x1> [48]
                    """ : "")
        }
        let before = try LeaksReportFixture.named(text(false)), after = try LeaksReportFixture.named(text(true))
        #expect(FixVerdict(before: before, after: after, expectedAlive: []).overall == .regressed)
        let declared = FixVerdict(before: before, after: after, expectedAlive: ["Clock", "__NSCFTimer"])
        #expect(declared.rows.map(\.expectedAlive) == [true])
        // Nothing judged is left: the new cycle of expected-alive classes does not make it REGRESSED.
        #expect(!declared.byCounts && declared.overall == .pass)
        #expect(FixVerdict(before: after, after: after, expectedAlive: []).overall == .fail)
        #expect(FixVerdict(before: after, after: after, expectedAlive: ["Clock", "__NSCFTimer"]).overall == .pass)
        #expect(FixVerdict(before: after, after: before, expectedAlive: []).overall == .pass)
    }
}

extension LeaksVerifyFixTests {
    /// Two cycles of the same shape in one tree are two instances, and the tree's bytes are counted once.
    @Test func twoCyclesOfOneTreeCountItsBytesOnce() throws {
        let (_, groups) = try LeaksReportFixture.named(
            """
            Process 1: 3 leaks for 96 total leaked bytes.

                  3 (96 bytes) ROOT CYCLE: <Album 0x1> [32]
                     1 (32 bytes) photo --> ROOT CYCLE: <Photo 0x2> [32]
                        album --> CYCLE BACK TO <Album 0x1> [32]
                     1 (32 bytes) photo --> ROOT CYCLE: <Photo 0x3> [32]
                        album --> CYCLE BACK TO <Album 0x1> [32]
            """)
        #expect(groups.count == 1)
        #expect(groups.first?.instances == 2)
        #expect(groups.first?.bytes == 96)
    }
}

enum LeaksReportFixture {
    /// The report of `text` with its cycles as the check names them.
    static func named(_ text: String) throws -> (report: LeaksReport, cycles: [LeaksCheck.CycleGroup]) {
        let report = try LeaksReport.parse(Array(text.utf8)).get()
        return (report, LeaksCheck.groups(report))
    }
}
