import Foundation
import MemhuntCore
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// GitHub Actions annotations and the job summary.
@Suite(.serialized) struct GitHubReportTests {
    @Test func jobSummaryIsAppendedWhenGitHubNamesTheFile() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/summary.md"
        try dir.write("summary.md", "# Earlier step\n")
        let run = await memhunt(
            ["run", "--app", "JustSend", "--format", "github", "Fixtures/justsend"],
            environment: ["GITHUB_STEP_SUMMARY": path])
        #expect(run.status == 0)
        let summary = try String(contentsOfFile: path, encoding: .utf8)
        #expect(summary.hasPrefix("# Earlier step\n## The eight-step memory hunt: JustSend\n"))
        #expect(
            summary.contains("| 2 | jetsam record | Maximum use and system rank of a living app | 725 MB, rank 7 of 16")
        )
        // Other formats leave the summary alone.
        let text = await memhunt(
            ["run", "--app", "JustSend", "Fixtures/justsend"], environment: ["GITHUB_STEP_SUMMARY": path])
        #expect(text.status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == summary)
    }
}
