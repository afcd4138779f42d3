import Foundation
import MemhuntCore
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// The Markdown report and the GitHub job summary as GitHub renders them: CommonMark with the GFM
/// extensions, by `cmark-gfm` (GitHub's own renderer; `scripts/setup --tests` installs it), then looked at in
/// headless Chromium. The annotations as GitHub reads them: workflow commands, unescaped.
@Suite(.serialized) struct GFMRenderingTests {
    static let cmark = Tool.which("cmark-gfm")

    /// `markdown` rendered as GitHub does: tables, autolinks, strikethrough, the tag filter; raw HTML such as
    /// `<details>` kept.
    static func render(_ markdown: String) async throws -> String {
        let cmark = try #require(Self.cmark)
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("report.md", markdown)
        let run = try await Tool.run(
            cmark,
            [
                "--unsafe", "-e", "table", "-e", "autolink", "-e", "strikethrough", "-e", "tagfilter",
                dir.path + "/report.md",
            ])
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout
    }

    @Test(.enabled(if: cmark != nil, "cmark-gfm is not installed (scripts/setup --tests installs it on Debian)"))
    func jobSummaryRendersAsGitHubShowsIt() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/summary.md"
        let run = await memhunt(
            ["run", "--app", "JustSend", "--format", "github", "Fixtures/justsend"],
            environment: ["GITHUB_STEP_SUMMARY": path])
        #expect(run.status == 0, "\(run.stderr)")
        let html = try await Self.render(try String(contentsOfFile: path, encoding: .utf8))

        #expect(
            html.hasPrefix(
                "<h2>The eight-step memory hunt: JustSend</h2>\n<blockquote>\n<p><strong>Verdict</strong></p>"))
        // Every table is a table: no pipe row is left as text.
        #expect(!html.contains("|---") && !html.contains("| # |"), "a table GitHub would show as text")
        // Steps, every fact, the comparisons (2), the charted values (5), the artifacts.
        #expect(html.components(separatedBy: "<table>").count - 1 == 10)
        #expect(html.contains("<th>What I inspect</th>\n<th>What it tells me</th>\n<th>Result</th>"))
        #expect(html.contains("<td>725 MB, rank 7 of 16, suspended"))
        #expect(html.contains("<td>45 → 611 MB (×13.6)"))
        #expect(
            html.contains(
                "<td>growth</td>\n<td align=\"right\">45 MB (baseline)</td>\n<td align=\"right\">611 MB (after-detail)</td>"
            ))
        #expect(
            html.contains(
                "<td>variation</td>\n<td align=\"right\">623 MB (one-block)</td>\n<td align=\"right\">103 MB (2500-blocks)</td>"
            ))
        #expect(
            html.contains(
                "<td>RootView</td>\n<td>fix</td>\n<td align=\"right\">+11 (drawer-before)</td>\n<td align=\"right\">+1 (drawer-after)</td>"
            ))
        #expect(html.contains("3,573 layers"))
        #expect(html.contains("122 MB"))

        // A finding's title and its detail are separate paragraphs, its evidence a list of its own.
        #expect(
            html.contains(
                "<li>\n<p><strong>JustSend ranked 7 of 16 processes by lifetime peak (725 MB)</strong> "
                    + "<code>jetsam-rank.high-rank</code> · step 2</p>\n<p>JustSend used a lifetime maximum of 725 MB"))
        #expect(
            html.contains(
                "<p><strong>Structure is the variable: one-block 623 MB vs 2500-blocks 103 MB</strong> "
                    + "<code>structure-variation.structure</code> · step 7</p>\n<p>Same input (285 KB)"))
        #expect(
            html.contains(
                "<ul>\n<li>evidence: <code>Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips#/processes/4/lifetimeMax</code></li>"
            ))
        #expect(html.contains("<h4>Warning (7)</h4>") && html.contains("<h4>Notice (4)</h4>"))
        #expect(html.contains("<details><summary>Info (3)</summary>"))
        // No Markdown left unrendered.
        #expect(!html.contains("**"), "bold GitHub would show as asterisks")

        guard let browser = HTMLReportTests.browser else { return }
        let page =
            "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>job summary</title>"
            + "<style>body{font:14px sans-serif;max-width:980px;margin:16px auto}table{border-collapse:collapse}"
            + "td,th{border:1px solid #d1d9e0;padding:4px 8px}</style></head><body>" + html + "</body></html>"
        let (dump, _) = try await HTMLReportTests.render(page, browser: browser, screenshot: "justsend-job-summary.png")
        #expect(dump.status == 0)
        #expect(dump.stdout.contains("<td>725 MB, rank 7 of 16"))
    }

}
