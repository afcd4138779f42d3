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

    /// Two captures of the same moment (or of none) keep the order they were given in, not their names': a
    /// `before`/`after` pair of one time was compared after → before ("More leaked after").
    @Test func capturesOfOneTimeKeepTheOrderGiven() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        for (name, fixture) in [("before.txt", "DemoApp-before"), ("after.txt", "DemoApp-after")] {
            let text = String(decoding: try Repo.bytes("leaks/\(fixture).leaks.txt"), as: UTF8.self)
                .replacingOccurrences(of: "2026-08-20 11:30:00.000 +0900", with: "2026-08-20 10:00:00.000 +0900")
            try dir.write(name, text)
        }
        for dated in [true, false] {
            if !dated {
                for name in ["before.txt", "after.txt"] {
                    let text = try String(contentsOfFile: dir.path + "/" + name, encoding: .utf8)
                    try dir.write(
                        name,
                        text.split(separator: "\n", omittingEmptySubsequences: false)
                            .filter { !$0.hasPrefix("Date/Time:") }.joined(separator: "\n"))
                }
            }
            let run = await memhunt(
                [
                    "run", "--playbook", "navigation-growth", "--format", "json", dir.path + "/before.txt",
                    dir.path + "/after.txt",
                ])
            let document = try FindingsDocument.decode(Array(run.stdout.utf8))
            #expect(document.findings.contains { $0.code == "leaks.fewer" }, "dated: \(dated)")
            #expect(!document.findings.contains { $0.code == "leaks.more" }, "dated: \(dated)")
            #expect(document.facts["leaks.count"] == 20, "dated: \(dated)")
        }
    }

    @Test func fewerLeaksAfterIsSaid() async throws {
        let run = await memhunt(["run", "--playbook", "navigation-growth", "--format", "json"] + Self.pair)
        let document = try FindingsDocument.decode(Array(run.stdout.utf8))
        let fewer = try #require(document.findings.first { $0.code == "leaks.fewer" })
        #expect(fewer.title.hasSuffix("3,120 → 20 leaks, 0.5 MB → 0 MB"))
        #expect(document.facts["leaks.count"] == 20)
    }
}
