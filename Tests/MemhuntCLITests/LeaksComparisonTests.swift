import Foundation
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// Two memgraphs' leaks of one gesture, before and after a fix: a comparison in every format.
@Suite struct LeaksComparisonTests {
    static let pair = ["Fixtures/leaks/DemoApp-before.leaks.txt", "Fixtures/leaks/DemoApp-after.leaks.txt"]

    @Test(arguments: ["text", "markdown", "html", "junit", "json"])
    func thePairIsCompared(format: String) async throws {
        let run = await memhunt(["run", "--playbook", "navigation-growth", "--format", format] + Self.pair)
        #expect(run.status == 0, "\(run.stderr)")
        let expected: [String: String] = [
            "text": "Leaked objects: 3,120 (DemoApp-before.leaks.txt) → 20 (DemoApp-after.leaks.txt) [fix]",
            "markdown": "| Leaked objects | fix | 3,120 (DemoApp-before.leaks.txt) | 20 (DemoApp-after.leaks.txt) |",
            "html": "<td>Leaked objects</td><td>fix</td>",
            "junit": "name=\"comparison: Leaked objects\" value=\"3,120 → 20 (fix)\"",
            "json": "\"label\": \"Leaked objects\"",
        ]
        #expect(run.stdout.contains(expected[format]!), "\(format)")
    }

    @Test func fewerLeaksAfterIsSaid() async throws {
        let run = await memhunt(["run", "--playbook", "navigation-growth", "--format", "json"] + Self.pair)
        let document = try FindingsDocument.decode(Array(run.stdout.utf8))
        let fewer = try #require(document.findings.first { $0.code == "leaks.fewer" })
        #expect(fewer.title.hasSuffix("3,120 → 20 leaks, 0.5 MB → 0 MB"))
        #expect(document.facts["leaks.count"] == 20)
    }
}
