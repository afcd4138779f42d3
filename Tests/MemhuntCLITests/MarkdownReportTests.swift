import Foundation
import MemhuntCore
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// The Markdown report: the seed's numbers in the steps table, and the fit to a GitHub comment.
@Suite(.serialized) struct MarkdownReportTests {
    /// The steps table of the JustSend hunt, row by row.
    @Test func stepsTableCarriesTheSeedNumbers() async throws {
        let run = await memhunt("run", "--app", "JustSend", "--format", "markdown", "Fixtures/justsend")
        #expect(run.status == 0, "\(run.stderr)")
        let markdown = run.stdout
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
    @Test func sameFindingsSameWordingAsTheWalk() async throws {
        let json = await memhunt("run", "--app", "JustSend", "--format", "json", "Fixtures/justsend")
        let document = try FindingsDocument.decode(Array(json.stdout.utf8))
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
    @Test func oversizedDocumentFitsTheCommentLimit() async throws {
        let json = await memhunt("run", "--app", "JustSend", "--format", "json", "Fixtures/justsend")
        var document = try FindingsDocument.decode(Array(json.stdout.utf8))
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
}
