import Foundation
import MemhuntCore
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// GitHub Actions annotations and the job summary.
@Suite(.serialized) struct GitHubReportTests {
    @Test func findingsBecomeAnnotationsWithTheirArtifact() async throws {
        let run = await memhunt("run", "--app", "JustSend", "--format", "github", "Fixtures/justsend")
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count { $0.hasPrefix("::warning ") } == 7)
        #expect(lines.count { $0.hasPrefix("::notice ") } == 7)
        let rank = try #require(lines.first { $0.contains("jetsam-rank.high-rank") })
        #expect(
            rank.hasPrefix(
                "::warning file=Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips,"
                    + "title=JustSend ranked 7 of 16 processes by lifetime peak (725 MB)::JustSend used a lifetime"))
        #expect(
            rank.contains("%0Aevidence: Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips#/processes/4/lifetimeMax"))
        let fanOut = try #require(lines.first { $0.contains("change-log.fan-out") })
        #expect(
            fanOut.hasPrefix("::warning file=Fixtures/justsend/thumbnail-fanout.log,line=2,title=Fan-out%3A 4 views"))
        #expect(lines.last == "Summary: 7 warnings, 4 notices, 3 info")
        // Every line is a workflow command or the summary: no raw line break leaks out of a message.
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("::") })
    }

    @Test func escapingFollowsGitHubsRules() {
        #expect(GitHubReporter.escapeData("100% done\r\nnext: a, b") == "100%25 done%0D%0Anext: a, b")
        #expect(GitHubReporter.escapeProperty("a:b,c%\n") == "a%3Ab%2Cc%25%0A")
        #expect(
            GitHubReporter.command("error", properties: [("title", "x: y")], message: "m\nn")
                == "::error title=x%3A y::m%0An\n")
    }

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
