import Foundation
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// The findings documents the reporters' golden files are rendered from (`Tests/MemhuntReportsTests/Golden`)
/// are today's runs of the JustSend hunt, before and after the fix, with the times pinned and the run id
/// and playbook hash fixed. `MEMHUNT_UPDATE_GOLDEN=1 swift test --filter Golden` writes them again (run it twice: the reports'
/// golden files are rendered from these documents), then review `git diff`.
@Suite struct GoldenDocumentTests {
    static let folder = Repo.root + "/Tests/MemhuntReportsTests/Golden"

    @Test(arguments: [("justsend", "justsend.findings.json"), ("justsend-fixed", "justsend-fixed.findings.json")])
    func theGoldenDocumentIsTodaysRun(fixture: String, file: String) async throws {
        let run = await memhunt(
            ["run", "--app", "JustSend", "--format", "json", "Fixtures/" + fixture],
            environment: ["SOURCE_DATE_EPOCH": "1786414856"])
        #expect(run.status == 0, "\(run.stderr)")
        var document = try FindingsDocument.decode(Array(run.stdout.utf8))
        document.run.id = "golden-" + fixture
        // The playbook's hash is pinned too: an edit of a shipped playbook that changes no word of this run (a
        // comment, another step's check) would otherwise rewrite every report's golden file.
        document.playbook.sha256 = String(repeating: "0", count: 64)
        let text = document.encoded()
        let path = Self.folder + "/" + file
        if ProcessInfo.processInfo.environment["MEMHUNT_UPDATE_GOLDEN"] == "1" {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let golden = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        #expect(
            text == golden,
            "Tests/MemhuntReportsTests/Golden/\(file) is not today's run: MEMHUNT_UPDATE_GOLDEN=1 swift test --filter Golden (twice), then review git diff"
        )
    }
}
