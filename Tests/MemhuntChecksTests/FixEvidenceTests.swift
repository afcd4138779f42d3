import MemhuntCore
import Testing

@testable import MemhuntChecks

/// Each role a fix is verified by is declared by exactly one fact of the built-in checks (`verifies:`), so the
/// judge (`VerifyFix`) reads it by role and names no check's keys.
@Suite struct FixEvidenceTests {
    @Test func eachRoleIsDeclaredByOneFact() {
        var declared: [FixEvidence: [String]] = [:]
        for check in builtInChecks {
            for fact in check.description.facts {
                if let role = fact.verifies { declared[role, default: []].append(fact.key) }
            }
        }
        for role in FixEvidence.allCases {
            #expect(declared[role]?.count == 1, "\(role.rawValue): \(declared[role] ?? [])")
        }
        // The keys the core's tests use for the roles are the declared ones.
        #expect(
            declared.mapValues { $0.first ?? "" } == [
                .leakPatterns: "leaks.cycles", .leakCount: "leaks.count", .leakedBytes: "leaks.leakedBytes",
                .classGrowth: "heap.diff", .captures: "heap.heaps", .growthShape: "growth.shape",
                .growthPerRepetition: "growth.slopeMB", .testPeaks: "xctest.perTest", .testCeiling: "xctest.ceilingMB",
                .leakPatternsComplete: "leaks.cyclesComplete",
            ])
    }
}
