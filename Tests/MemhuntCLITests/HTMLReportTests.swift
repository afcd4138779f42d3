import Foundation
import MemhuntCore
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// The HTML report: self-contained, with its charts, rendered by a real headless Chromium.
@Suite(.serialized) struct HTMLReportTests {
    /// Debian's `chromium` (installed by `scripts/setup --tests`), or another Chromium on PATH.
    static let browser = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"].lazy
        .compactMap(Tool.which).first

    @Test func pageIsSelfContainedWithTheChartsTheFactsSupport() async throws {
        let run = await memhunt("run", "--app", "JustSend", "--format", "html", "Fixtures/justsend")
        #expect(run.status == 0)
        let html = run.stdout
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        for forbidden in ["<script", "src=", "href=", "url(", "@import", "<link"] {
            #expect(!html.contains(forbidden), "\(forbidden)")
        }
        #expect(html.contains("@media (prefers-color-scheme: dark)"))
        #expect(html.contains("@media print"))
        for chart in [
            "chart-jetsam-top-processes", "chart-repro-footprint", "chart-structure-variants",
            "chart-change-log-drawer-before", "chart-change-log-thumbnail-fanout",
        ] {
            #expect(html.contains("<svg id=\"\(chart)\""), "\(chart)")
        }
        #expect(!html.contains("chart-navigation-growth"), "no growth facts in this run")
        // The variants are labelled with their own names, not "largest" and "smallest".
        #expect(html.contains(">one-block</text>") && html.contains(">2500-blocks</text>"))
        #expect(html.contains(">ChatGPT</text>"))
        #expect(html.contains("<rect class=\"subject\""))
        #expect(html.contains("725 MB, rank 7 of 16"))
        let growth = await memhunt(
            "run", "--playbook", "navigation-growth", "--format", "html", "Fixtures/navigation-growth")
        #expect(growth.stdout.contains("<svg id=\"chart-navigation-growth\""))
        #expect(growth.stdout.contains("4 visits, +13.8 MB per visit"))
        #expect(growth.stdout.contains("<line class=\"fit\""))
    }

    @Test(.enabled(if: browser != nil, "Chromium is not installed (scripts/setup --tests installs it on Debian)"))
    func headlessChromiumRendersTheChartsWithACleanConsole() async throws {
        let browser = try #require(Self.browser)
        let run = await memhunt("run", "--app", "JustSend", "--format", "html", "Fixtures/justsend")
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("report.html", run.stdout)
        let page = "file://" + dir.path + "/report.html"
        // At the lowest CPU priority and with as few helper processes as it allows: on two shared cores a
        // browser at full priority starves the timing-bound tests of other suites running in parallel.
        let nice = Tool.which("nice")
        let launcher = nice ?? browser
        let prefix = nice == nil ? [] : ["-n", "19", browser]
        let common =
            prefix + [
                "--headless", "--no-sandbox", "--no-zygote", "--disable-gpu", "--disable-extensions",
                "--disable-dev-shm-usage", "--renderer-process-limit=1", "--no-first-run", "--hide-scrollbars",
                "--user-data-dir=" + dir.path + "/profile", "--virtual-time-budget=3000", "--enable-logging=stderr",
                "--v=0",
            ]
        let dump = try await Tool.run(launcher, common + ["--dump-dom", page])
        #expect(dump.status == 0, "\(dump.stderr)")
        let svgs = dump.stdout.components(separatedBy: "<svg ").count - 1
        #expect(svgs == 5, "charts in the rendered DOM: \(svgs)")
        #expect(dump.stdout.contains("Lifetime peak: the largest processes of the jetsam record"))
        let console = dump.stderr.split(separator: "\n").filter { $0.contains("CONSOLE") }
        #expect(console.isEmpty, "console messages: \(console)")

        // A screenshot, kept under .build for a person to look at.
        let shots = Repo.root + "/.build/test-artifacts"
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)
        let png = shots + "/justsend-report.png"
        try? FileManager.default.removeItem(atPath: png)
        let shot = try await Tool.run(launcher, common + ["--window-size=1000,2400", "--screenshot=" + png, page])
        #expect(shot.status == 0, "\(shot.stderr)")
        let bytes = try #require(FileManager.default.contents(atPath: png))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        #expect(bytes.count > 20_000, "a page with charts, not a blank image")
    }
}
