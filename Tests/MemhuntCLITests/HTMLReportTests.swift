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
        for forbidden in ["<script", "src=", "url(", "@import", "<link"] {
            #expect(!html.contains(forbidden), "\(forbidden)")
        }
        // Links stay in the page: each to an element of it.
        for link in html.components(separatedBy: "href=\"").dropFirst() {
            let target = String(link.prefix { $0 != "\"" })
            #expect(target.hasPrefix("#") && html.contains("id=\"\(target.dropFirst())\""), "\(target)")
        }
        // The counts by severity at the top, before the verdict; a contents list with a link to each step.
        let counts =
            "<p class=\"counts\"><span class=\"sev sev-warning\">7 warnings</span> "
            + "<span class=\"sev sev-notice\">4 notices</span> <span class=\"sev sev-info\">3 info</span></p>"
        let countsAt = try #require(html.range(of: counts))
        let verdictAt = try #require(html.range(of: "<strong>Verdict</strong>"))
        #expect(countsAt.lowerBound < verdictAt.lowerBound)
        for number in 1...8 {
            #expect(html.contains("<li><a href=\"#step-\(number)\">"), "contents: step \(number)")
            #expect(html.contains("<tr id=\"step-\(number)\">"), "anchor: step \(number)")
        }
        #expect(
            html.contains(
                "<li><a href=\"#step-2\">Jetsam record</a> <span class=\"sev sev-warning\">warning</span></li>"))
        // Within a step the most severe finding comes first, whatever order the checks emitted them in.
        let findings = try #require(html.range(of: "<section id=\"findings\">"))
        func position(_ text: String) throws -> String.Index {
            try #require(html.range(of: text, range: findings.upperBound..<html.endIndex)).lowerBound
        }
        #expect(
            try position("The fix holds: one-block-after-fix 102 MB")
                > position("Structure is the variable: one-block 623 MB"))
        #expect(
            try position("JustSend ranked 7 of 16 processes by lifetime peak (725 MB)")
                < position("JustSend 725 MB vs ChatGPT 362 MB"))
        #expect(try position("Fan-out: 4 views") < position("Unequal inputs: StreamScreen re-evaluated 11 times"))
        let fanOut = try position("Fan-out: 4 views"),
            fix = try position("drawer-before → drawer-after: RootView +11 → +1")
        #expect(fanOut < fix)
        // No raw fact key: the facts are said in words.
        let json = await memhunt("run", "--app", "JustSend", "--format", "json", "Fixtures/justsend")
        let document = try FindingsDocument.decode(Array(json.stdout.utf8))
        let keys = document.steps.flatMap(\.facts.keys)
        #expect(keys.count > 20)
        for key in keys { #expect(!html.contains(key), "fact key \(key) in the page") }
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
        let (dump, png) = try await Self.render(run.stdout, browser: browser, screenshot: "justsend-report.png")
        #expect(dump.status == 0, "\(dump.stderr)")
        let svgs = dump.stdout.components(separatedBy: "<svg ").count - 1
        #expect(svgs == 5, "charts in the rendered DOM: \(svgs)")
        #expect(dump.stdout.contains("Lifetime peak: the largest processes of the jetsam record"))
        let console = dump.stderr.split(separator: "\n").filter { $0.contains("CONSOLE") }
        #expect(console.isEmpty, "console messages: \(console)")
        let bytes = try #require(FileManager.default.contents(atPath: png))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        #expect(bytes.count > 20_000, "a page with charts, not a blank image")
    }

    /// Where the screenshots are kept for a person (and CI's artifacts) to look at.
    static let screenshots = Repo.root + "/.build/test-artifacts"

    /// `html` as headless Chromium renders it: the DOM it built (with the browser's stderr), and a screenshot
    /// kept as `screenshots/name`.
    static func render(_ html: String, browser: String, screenshot name: String) async throws -> (
        dump: (status: Int32, stdout: String, stderr: String), png: String
    ) {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("report.html", html)
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
        try FileManager.default.createDirectory(atPath: screenshots, withIntermediateDirectories: true)
        let png = screenshots + "/" + name
        try? FileManager.default.removeItem(atPath: png)
        let shot = try await Tool.run(launcher, common + ["--window-size=1000,2400", "--screenshot=" + png, page])
        #expect(shot.status == 0, "\(shot.stderr)")
        let bytes = FileManager.default.contents(atPath: png) ?? Data()
        #expect(bytes.count > 20_000, "\(name): a page, not a blank image")
        return (dump, png)
    }
}
