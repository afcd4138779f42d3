import Foundation
import MemhuntCore
import MemhuntTestSupport
import Testing

@testable import MemhuntReports

/// The reporters on the saved JustSend document (`Golden/justsend.findings.json`, today's run as
/// `GoldenDocumentTests` holds it): the seed's numbers in each report, escaping, folding to a comment's limit.
/// The commands that write these reports are tested in `MemhuntCLITests`.
@Suite struct ReporterTests {
    static func justsend() throws -> FindingsDocument { try GoldenReportTests.document("justsend") }

    /// The steps table of the JustSend hunt, row by row.
    @Test func stepsTableCarriesTheSeedNumbers() throws {
        let markdown = MarkdownReporter.render(try Self.justsend(), options: ReportOptions())
        #expect(markdown.hasPrefix("## The eight-step memory hunt: JustSend\n\n> **Verdict**\n>\n> - "))
        let table = try #require(section(markdown, "### Steps"))
        func row(_ number: Int) -> String {
            table.split(separator: "\n").first { $0.hasPrefix("| \(number) |") }.map(String.init) ?? ""
        }
        #expect(row(1).contains("| clear |"))
        #expect(row(2).contains("725 MB, rank 7 of 16"))
        #expect(row(3).contains("122 MB footprint (suspended): 18.9 MB in memory, 102.5 MB compressed"))
        #expect(row(4).contains("15,734,833 compressions"))
        #expect(row(5).contains("45 → 611 MB (×13.6)"))
        #expect(row(6).contains("346 MB, 3,573 layers"))
        #expect(row(7).contains("one-block 623 MB vs 2500-blocks 103 MB (×6)"))
        // The facts a check does not put in its headline are not in the row, raw or otherwise.
        for number in 1...8 { #expect(!row(number).contains("jetsam.") && !row(number).contains("crash.ended")) }
        #expect(row(7).contains("one-block-after-fix 102 MB"))
        #expect(row(8).contains("RootView +11 → +1"))
        #expect(row(2).contains("| **warning** |"))
        #expect(table.contains("| # | What I inspect | What it tells me | Result | Status |"))

        // A growth is laid out as a growth, a variation as one, a fix as a fix: each side under its own name.
        let comparisons = try #require(section(markdown, "### Comparisons"))
        #expect(comparisons.contains("| growth | 45 MB (baseline) | 611 MB (after-detail) | ×13.6 |"))
        #expect(comparisons.contains("| variation | 623 MB (one-block) | 103 MB (2500-blocks) | ×6 |"))
        #expect(comparisons.contains("| RootView | fix | +11 (drawer-before) | +1 (drawer-after) | +11 → +1 |"))
        #expect(comparisons.contains("| **JustSend** | 725 MB |"))

        let findings = try #require(section(markdown, "### Findings"))
        let warning = try #require(findings.range(of: "#### Warning (7)"))
        let notice = try #require(findings.range(of: "#### Notice (4)"))
        #expect(warning.lowerBound < notice.lowerBound)
        #expect(findings.contains("<details><summary>Info (3)</summary>"))
        #expect(
            findings.contains(
                "evidence: `Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips#/processes/4/lifetimeMax`"))
        #expect(markdown.contains("<details><summary>Artifacts (8)</summary>"))
        #expect(!markdown.contains("Folded to fit"))
    }

    /// Every finding title appears, in document order within each severity, as the text walk words it.
    @Test func sameFindingsSameWordingAsTheWalk() throws {
        let document = try Self.justsend()
        let markdown = MarkdownReporter.render(document, options: ReportOptions())
        let text = TextReporter.render(document, options: ReportOptions())
        for severity in Severity.allCases {
            var cursor = markdown.range(of: "### Findings")!.upperBound
            for finding in document.findings where finding.severity == severity {
                #expect(text.contains(finding.title))
                let escaped = finding.title.replacingOccurrences(of: "_", with: "\\_")
                let found = try #require(markdown.range(of: "- **" + escaped + "**", range: cursor..<markdown.endIndex))
                cursor = found.upperBound
            }
        }
    }

    /// A document far over GitHub's limit folds the least severe details first and says so.
    @Test func oversizedDocumentFitsTheCommentLimit() throws {
        var document = try Self.justsend()
        let filler = String(repeating: "A long detail that explains at length. ", count: 20)
        for i in 0..<400 {
            let severity: Severity = i < 5 ? .critical : (i % 3 == 0 ? .info : .notice)
            let finding = Finding(
                code: "generated.finding", step: "change-logging", check: "change-log", severity: severity,
                title: "Generated finding \(i)", detail: filler,
                evidence: [Evidence(source: "Fixtures/justsend/drawer-before.log", line: i + 1)])
            document.findings.append(finding)
            document.steps[7].findings.append(finding)
        }
        let full = MarkdownReporter.render(document, options: ReportOptions(), limit: .max)
        #expect(full.utf16.count > MarkdownReporter.commentLimit)
        let folded = MarkdownReporter.render(document, options: ReportOptions())
        #expect(folded.utf16.count <= MarkdownReporter.commentLimit)
        #expect(folded.contains("Folded to fit GitHub's 65,536-character comment limit"))
        #expect(folded.contains("details of info, notice findings (titles kept)"))
        // The critical findings keep their details; every title is still there.
        #expect(folded.contains("- **Generated finding 0** `generated.finding` · step 8\n\n  A long detail"))
        #expect(folded.contains("- **Generated finding 399**"))
        #expect(folded.contains("| 5 | "))
        // A smaller limit folds further, and never exceeds it.
        let tight = MarkdownReporter.render(document, options: ReportOptions(), limit: 8_000)
        #expect(tight.utf16.count <= 8_000)
        #expect(tight.contains("findings (counted)"))
    }

    /// The text from `heading` to the next heading of the same level.
    func section(_ markdown: String, _ heading: String) -> String? {
        guard let start = markdown.range(of: heading + "\n") else { return nil }
        let rest = markdown[start.upperBound...]
        let end = rest.range(of: "\n### ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    @Test func findingsBecomeAnnotationsWithTheirArtifact() throws {
        let lines = GitHubReporter.render(try Self.justsend(), options: ReportOptions()).split(separator: "\n").map(
            String.init)
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

    @Test func pathsBecomeURIReferences() {
        #expect(SARIFReporter.uri("Fixtures/a b/x#1.ips") == "Fixtures/a%20b/x%231.ips")
        #expect(SARIFReporter.uri("/tmp/é.log") == "file:///tmp/%C3%A9.log")
        #expect(SARIFReporter.uri("https://example.com/a.ips?x=1") == "https://example.com/a.ips?x=1")
        #expect(SARIFReporter.ruleName("artifacts.other-app") == "ArtifactsOtherApp")
        // No path reads as a scheme: its colons are encoded (a file named `javascript:alert(1)` was that URI).
        #expect(SARIFReporter.uri("javascript:alert(1)") == "javascript%3Aalert(1)")
        #expect(SARIFReporter.uri("data:text/html,<b>") == "data%3Atext/html,%3Cb%3E")
        #expect(SARIFReporter.uri("JavaScript:x") == "JavaScript%3Ax")
        // A URL keeps its scheme; what is no URI character is encoded.
        #expect(SARIFReporter.uri("HTTPS://example.com/a b\"<.ips") == "https://example.com/a%20b%22%3C.ips")
    }

    @Test func hostileTextStaysWellFormed() async throws {
        var document = try Self.justsend()
        let finding = Finding(
            code: "x.y", step: "jetsam-record", check: "jetsam-rank", severity: .critical,
            title: "quote \" amp & lt < gt > nul \u{0} bell \u{7} ]]> 'apos'\r\nnext",
            detail: "<![CDATA[ x ]]> \u{1B}[31m")
        document.steps[1].findings.append(finding)
        document.findings.append(finding)
        try await validate(JUnitReporter.render(document, options: ReportOptions()))
    }

    @Test func checkThatCouldNotRunIsAnError() async throws {
        var document = try Self.justsend()
        document.steps[4].failures.append(
            CheckFailure(check: "peak-budget", message: "exited with status 3", next: .decide(.allowExec, "Allow it.")))
        let xml = JUnitReporter.render(document, options: ReportOptions())
        try await validate(xml)
        #expect(
            xml.contains(
                #"<testcase name="simulator-repro/peak-budget" classname="memhunt.memory-hunt.simulator-repro">"#))
        #expect(
            xml.contains(
                #"<error type="check-failure" message="Check 'peak-budget' could not run">exited with status 3"#))
        #expect(xml.contains(#"failures="7" errors="1">"#))
    }

    /// The annotations as GitHub reads them: each finding's title in `title=`, its detail the message's first
    /// line, both unescaped back to the document's words.
    @Test func annotationsUnescapeToTheFindings() throws {
        let document = try Self.justsend()
        let rendered = GitHubReporter.render(document, options: ReportOptions())
        let commands = rendered.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(commands.count == document.findings.count)
        func unescape(_ text: Substring) -> String {
            text.replacingOccurrences(of: "%0A", with: "\n").replacingOccurrences(of: "%0D", with: "\r")
                .replacingOccurrences(of: "%3A", with: ":").replacingOccurrences(of: "%2C", with: ",")
                .replacingOccurrences(of: "%25", with: "%")
        }
        for (command, finding) in zip(commands, document.findings) {
            let head = command.dropFirst(2).prefix { $0 != ":" }
            let rest = command.dropFirst(2 + head.count + 2)
            let properties = head.split(separator: " ", maxSplits: 1).last?.split(separator: ",") ?? []
            let title = properties.first { $0.hasPrefix("title=") }.map { unescape($0.dropFirst(6)) }
            let expected = (finding.severity == .info ? "info: " : "") + finding.title
            #expect(title == expected)
            #expect(unescape(rest).split(separator: "\n").first.map(String.init) == finding.detail)
        }
        let rank = try #require(document.findings.first { $0.code == "jetsam-rank.high-rank" })
        #expect(rank.title == "JustSend ranked 7 of 16 processes by lifetime peak (725 MB)")
    }

    /// Runs Tests/Support/validate_junit.py (xmllint with the schema, unique names, counts).
    func validate(_ xml: String) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("report.xml", xml)
        let python = try #require(Tool.which("python3"), "python3 is needed: run scripts/setup")
        let result = try await Tool.run(
            python, [Repo.root + "/Tests/Support/validate_junit.py", dir.path + "/report.xml"])
        #expect(result.status == 0, "\(result.stderr)\n\(xml.prefix(3000))")
    }
}

/// Lines wrapped between words at a width, for what a terminal would cut mid-word (triage's prompts).
@Suite struct WrapLinesTests {
    @Test func longLinesBreakBetweenWordsKeepingTheirIndent() {
        let line = "Stopped at step 3. Resume with: memhunt triage --resume /tmp/sessions/justsend-session.json"
        let wrapped = TextReporter.wrapLines(line + "\n   " + line, width: 40)
        let lines = wrapped.split(separator: "\n").map(String.init)
        #expect(lines.allSatisfy { $0.count <= 40 }, "\(lines)")
        #expect(
            Array(lines.prefix(3)) == [
                "Stopped at step 3. Resume with: memhunt", "triage --resume", "/tmp/sessions/justsend-session.json",
            ])
        #expect(lines.contains { $0.hasPrefix("   ") && $0.contains("Resume with:") })
        #expect(
            wrapped.replacingOccurrences(of: "\n", with: " ").split(separator: " ")
                == (line + " " + line).split(separator: " "))
        #expect(TextReporter.wrapLines("short", width: 40) == "short")
    }
}
