import Foundation
import MemhuntBasics
import MemhuntCore
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// `memhunt` in-process with captured streams, as a user runs it from the repository root
/// (`swift test` and `scripts/test` run there; the tests never change directory, as suites run in parallel).
func memhunt(_ arguments: String..., environment: [String: String] = [:]) async -> (
    status: Int32, stdout: String, stderr: String
) {
    await memhunt(arguments, environment: environment)
}

/// The same, with the arguments as an array.
func memhunt(_ arguments: [String], environment: [String: String] = [:]) async -> (
    status: Int32, stdout: String, stderr: String
) {
    let out = OutputWriter(), err = OutputWriter()
    let status = await Memhunt.main(arguments: arguments, environment: environment, stdout: out, stderr: err)
    return (status, out.captured, err.captured)
}

@Suite struct EndToEndTests {
    @Test func jsonDocumentCarriesTheSeedFacts() async throws {
        let run = await memhunt("run", "--app", "JustSend", "--format", "json", "Fixtures/justsend")
        #expect(run.status == 0)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(document["schema"] as? String == "memhunt.findings/3")
        #expect((document["subject"] as? [String: Any])?["app"] as? String == "JustSend")
        let facts = try #require(document["facts"] as? [String: Any])
        #expect(facts["jetsam.app.peakMB"] as? Double == 725)
        #expect(facts["jetsam.app.rank"] as? Int == 7)
        #expect(facts["jetsam.app.residentMB"] as? Double == 122)
        #expect(facts["jetsam.app.state"] as? String == "suspended")
        #expect(facts["jetsam.compressions"] as? Int == 15_734_833)
        #expect(facts["crash.reports"] as? Int == 0)
        #expect(facts["crash.kind"] as? String == "none")
        let steps = try #require(document["steps"] as? [[String: Any]])
        #expect(steps.map { $0["number"] as? Int } == Array(1...8))
        #expect(steps.map { $0["status"] as? String } == ["clear"] + Array(repeating: "finding", count: 7))
        #expect((facts["repro.ratio"] as? Double) == 13.6)
        #expect(facts["layers.count"] as? Int == 3573)
        #expect(facts["variation.maxMB"] as? Double == 623)
        #expect(facts["variation.minMB"] as? Double == 103)
        let artifacts = try #require(document["artifacts"] as? [[String: Any]])
        #expect(artifacts.count == 8)
        #expect(artifacts.allSatisfy { $0["status"] as? String == "ok" })
        #expect(artifacts.first?["kind"] as? String == "jetsam-event")
        #expect(
            artifacts.first?["sha256"] as? String
                == SHA256Hex.of(Repo.fixture("justsend/JetsamEvent-2026-08-11-112056.ips")))
        #expect(run.stderr == "")
    }

    /// A device's console with 140 KB of other subsystems' lines before SwiftUI's first change: the run reads it
    /// as the change log it is (it was "unrecognized content", and the change-logging step had no log).
    @Test func aLogWhoseFirstChangeLineIsLateIsTheRunsChangeLog() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let noise =
            "2026-08-12 14:03:05.045743+0900 Memo[48211:3456791] [Network] request 1973763 GET "
            + "https://api.example.com/v1/items?page=12 finished in 1042 ms\n"
        let changes = (0..<45).map {
            "2026-08-12 14:03:06.\(100 + $0)000+0900 Memo[48211:3456789] ThumbnailGrid: @self changed.\n"
        }
        try dir.write("console.log", String(repeating: noise, count: 1_000) + changes.joined())
        let run = await memhunt("run", "--app", "Memo", "--format", "json", dir.path + "/console.log")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stderr)")
        let artifacts = try #require(document["artifacts"] as? [[String: Any]])
        #expect(artifacts.first?["kind"] as? String == "change-log")
        #expect(artifacts.first?["status"] as? String == "ok")
        let facts = try #require(document["facts"] as? [String: Any])
        #expect(facts["changes.evaluations"] as? Int == 45)
        #expect(artifacts.count == 1)
    }

    @Test func textWalkShowsEveryStepAndTheNumbers() async {
        let run = await memhunt("run", "--app", "JustSend", "Fixtures/justsend")
        #expect(run.status == 0)
        for needle in ["725 MB", "rank", "ranked 7 of 16", "122 MB", "15,734,833", "JustSend 725 MB vs ChatGPT 362 MB"]
        {
            #expect(run.stdout.contains(needle), "\(needle)")
        }
        for number in 1...8 { #expect(run.stdout.contains("\n \(number)  "), "step \(number)") }
        #expect(!run.stdout.contains("\u{1B}["), "no color when not a terminal")
    }

    @Test func failOnWarningExitsOne() async {
        #expect(await memhunt("run", "--app", "JustSend", "--fail-on", "warning", "Fixtures/justsend").status == 1)
        #expect(await memhunt("run", "--app", "JustSend", "--fail-on", "critical", "Fixtures/justsend").status == 0)
        #expect(await memhunt("run", "--app", "JustSend", "--fail-on", "critical", "Fixtures/killed").status == 1)
    }

    @Test func mixedFolderKeepsTheGoodFactsAndNamesEachBadFile() async throws {
        let run = await memhunt("run", "--app", "JustSend", "--format", "json", "Fixtures/justsend", "Fixtures/bad")
        // The whole report is written, then exit 2: no file of the operand Fixtures/bad could be used.
        #expect(run.status == 2)
        #expect(
            run.stderr.contains(
                "memhunt: exit 2: Fixtures/bad: none of its 7 files could be used (5 could not be read)"))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect((document["facts"] as? [String: Any])?["jetsam.app.peakMB"] as? Double == 725)
        let artifacts = try #require(document["artifacts"] as? [[String: Any]])
        let bad = artifacts.filter { $0["status"] as? String != "ok" }
        #expect(artifacts.count == 15)
        #expect(bad.count == 7)
        for artifact in bad {
            #expect((artifact["source"] as? String)?.hasPrefix("Fixtures/bad/") == true)
            #expect((artifact["diagnostics"] as? [String])?.first?.isEmpty == false)
        }
    }

    @Test func outputIsWrittenAtomicallyAndUnwritableIsExitTwo() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/report.json"
        let run = await memhunt("run", "--app", "JustSend", "--format", "json", "-o", path, "Fixtures/justsend")
        #expect(run.status == 0)
        #expect(run.stdout == "")
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("\"jetsam.app.rank\": 7"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["report.json"])
        let bad = await memhunt("run", "--app", "JustSend", "-o", dir.path + "/missing/dir/r.txt", "Fixtures/justsend")
        #expect(bad.status == 2)
        #expect(bad.stderr.hasPrefix("Error: "))
        #expect(bad.stderr.contains("missing/dir/r.txt"))
    }

    @Test func validateReportsLocationAndSuggestion() async {
        let run = await memhunt("validate", "Fixtures/playbooks/invalid/misspelled-key.yaml")
        #expect(run.status == 2)
        #expect(run.stderr.contains("Fixtures/playbooks/invalid/misspelled-key.yaml:"))
        #expect(run.stderr.contains("(did you mean '"))
        #expect(run.stderr.range(of: #"\.yaml:\d+:\d+: error: "#, options: .regularExpression) != nil)
        let good = await memhunt("validate", "Playbooks/memory-hunt.yaml")
        #expect(good.status == 0)
        #expect(good.stdout == "Playbooks/memory-hunt.yaml: ok (memory-hunt, 8 steps)\n")
    }

    @Test func invalidPlaybookIsExitTwoAndUsageIsSixtyFour() async {
        let invalid = await memhunt(
            "run", "--playbook", "Fixtures/playbooks/invalid/unknown-check.yaml", "Fixtures/justsend")
        #expect(invalid.status == 2)
        #expect(invalid.stderr.contains("unknown-check.yaml:"))
        let unknown = await memhunt("run", "--formt", "json", "Fixtures/justsend")
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("Error: Unknown option '--formt'. Did you mean '--format'?"))
        let noPlaybook = await memhunt("run", "--playbook", "memory-hnut", "Fixtures/justsend")
        #expect(noPlaybook.status == 2)
        #expect(noPlaybook.stderr.contains("(did you mean 'memory-hunt'?)"))
    }

    @Test func helpAndVersion() async {
        let help = await memhunt("--help")
        #expect(help.status == 0)
        #expect(help.stdout.contains("EXIT STATUS:"))
        #expect(help.stdout.contains("64  usage error"))
        #expect(await memhunt("--version").stdout == "memhunt \(Memhunt.version)\n")
        #expect(await memhunt("run", "--help").stdout.contains("USAGE: memhunt run"))
    }

    @Test func checksAndPlaybooksListings() async throws {
        let checks = await memhunt("checks", "--format", "json")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(checks.stdout.utf8)) as? [[String: Any]])
        #expect(list.compactMap { $0["id"] as? String }.contains("jetsam-rank"))
        #expect(await memhunt("checks").stdout.contains("with max_rank (default 10)"))
        #expect(await memhunt("playbooks").stdout.contains("memory-hunt  The eight-step memory hunt  (8 steps)"))
    }

    /// Pasted records through the binary: found, read, and marked with what was skipped; an incomplete one
    /// gives the subject's own figures and no rank.
    @Test func pastedRecordsAreRecoveredAndMarked() async {
        let inspect = await memhunt(
            "inspect", "Fixtures/pasted/jetsam-fenced-crlf.md", "Fixtures/pasted/crash-legacy-quoted.txt")
        #expect(inspect.status == 0)
        #expect(
            inspect.stdout.contains(
                "   note: recovered: lines 1, 3, 74, 76 (text and Markdown fence around the record) skipped\n"))
        #expect(inspect.stdout.contains("jetsam.processes = 5\n"))
        #expect(inspect.stdout.contains("crash.kind = crash\n"))
        let run = await memhunt("run", "--app", "Courier", "--format", "json", "Fixtures/pasted/jetsam-elided.ips")
        #expect(run.stdout.contains("\"jetsam-rank.incomplete\""))
        #expect(!run.stdout.contains("\"jetsam.app.rank\""))
        #expect(!run.stdout.contains("\"jetsam.processes\""))
        #expect(
            run.stdout.contains(
                "elided: elided at line 51 (...): read up to it and the 2 whole process records after it (lines "
                    + "52–60, 61–69), lines 51, 70–71 not"))
    }

    @Test func inspectShowsKindAndFacts() async {
        let run = await memhunt(
            "inspect", "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", "Fixtures/bad/empty.ips")
        // An empty operand is nothing memhunt can read: exit 2, as in `run`, after the listing.
        #expect(run.status == 2)
        #expect(run.stdout.contains("kind: jetsam-event  status: ok"))
        #expect(run.stdout.contains("jetsam.compressions = 15,734,833"))
        #expect(run.stdout.contains("jetsam.processes = 16"))
        #expect(run.stdout.contains("Fixtures/bad/empty.ips\n   kind: -  status: error"))
    }
}

/// sha256 of a file, via the library's own hasher.
enum SHA256Hex {
    static func of(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { SHA256.hex([UInt8]($0)) }
    }
}

/// Each shipped playbook on its fixture gates CI where its seed says the budget is blown.
@Suite struct PlaybookGateTests {
    @Test(arguments: [
        ("memory-hunt", "Fixtures/justsend"), ("widget-budget", "Fixtures/widget"),
        ("layout-freeze", "Fixtures/layout-freeze"), ("navigation-growth", "Fixtures/navigation-growth"),
    ])
    func failOnWarningExitsOne(playbook: String, fixture: String) async {
        // The layout-freeze sample is of the app Chat: naming another app would match nothing (exit 2).
        let app = playbook == "layout-freeze" ? "Chat" : "JustSend"
        let run = await memhunt("run", "--playbook", playbook, "--app", app, "--fail-on", "warning", fixture)
        #expect(run.status == 1)
        #expect(run.stdout.contains("Summary: "))
        let lenient = await memhunt("run", "--playbook", playbook, "--app", app, "--fail-on", "critical", fixture)
        #expect(lenient.status == 0)
    }

    @Test func playbooksListsAllFour() async {
        let list = await memhunt("playbooks")
        for id in ["layout-freeze", "memory-hunt", "navigation-growth", "widget-budget"] {
            #expect(list.stdout.contains("\n" + id + "  ") || list.stdout.hasPrefix(id + "  "), "\(id)")
        }
    }
}

/// A local playbook's `exec:` check, resolved from the playbook's folder: Playbooks/checks/peak-budget.py.
@Suite struct ExampleExternalCheckTests {
    @Test func peakBudgetCheckRecordsFactsAndAFinding() async throws {
        let run = await memhunt(
            "run", "--playbook", "Fixtures/playbooks/valid/team-budget.yaml", "--app", "JustSend", "--format", "json",
            "Fixtures/justsend")
        #expect(run.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let facts = try #require(document["facts"] as? [String: Any])
        #expect(facts["team.peakBudgetMB"] as? Double == 600)
        #expect(facts["team.peakOverBudgetMB"] as? Double == 125)
        let findings = try #require(document["findings"] as? [[String: Any]])
        let team = try #require(findings.first { $0["check"] as? String == "exec:peak-budget.py" })
        #expect(team["title"] as? String == "JustSend peaked at 725 MB, over the team's 600 MB budget")
        #expect(team["severity"] as? String == "warning")
        #expect(team["step"] as? String == "jetsam-record")
        #expect(team["code"] as? String == "team-budget.over")
        #expect((team["next"] as? [String: Any])?["step"] as? String == "simulator-repro")
        let catalog = try #require(document["factCatalog"] as? [String: [String: Any]])
        #expect(catalog["team.peakOverBudgetMB"]?["unit"] as? String == "MB")
        let text = await memhunt(
            "run", "--playbook", "Fixtures/playbooks/valid/team-budget.yaml", "--app", "JustSend", "Fixtures/justsend")
        #expect(text.stdout.contains("team.peakOverBudgetMB = 125 MB"))
    }
}
