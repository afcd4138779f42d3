import Foundation
import MemhuntCore
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI
@testable import MemhuntReports

/// `--format sarif`: SARIF 2.1.0 that validates against the official schema for every fixture folder, with
/// fingerprints that two runs of one hunt share.
@Suite(.serialized) struct SARIFReportTests {
    static func sarif(_ entry: (folder: String, app: String?, playbook: String)) async throws -> [String: Any] {
        var arguments = ["run", "--playbook", entry.playbook, "--format", "sarif", "Fixtures/" + entry.folder]
        if let app = entry.app { arguments += ["--app", app] }
        let run = await memhunt(arguments)
        // 2: `Fixtures/bad` holds files that cannot be read, and the hunt says so.
        #expect([0, 1, 2].contains(run.status), "\(run.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        return try #require(object as? [String: Any], "not a JSON object: \(run.stdout.prefix(300))")
    }

    static func results(_ log: [String: Any]) -> [[String: Any]] {
        ((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
    }

    static var schema: String? { Repo.research.map { $0 + "/openapi/sarif-schema-2.1.0.json" } }

    @Test(
        .enabled(if: schema.map { FileManager.default.fileExists(atPath: $0) } ?? false, "needs ../shared/research"),
        arguments: FindingsModelTests.folders.map(\.folder))
    func everyFixtureFolderValidatesAgainstTheSARIFSchema(_ folder: String) async throws {
        let entry = try #require(FindingsModelTests.folders.first { $0.folder == folder })
        var arguments = ["run", "--playbook", entry.playbook, "--format", "sarif", "Fixtures/" + folder]
        if let app = entry.app { arguments += ["--app", app] }
        let run = await memhunt(arguments)
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("log.sarif", run.stdout)
        let python = try #require(Tool.which("python3"), "python3 is needed: run scripts/setup")
        let result = try await Tool.run(
            python, ["Tests/Support/validate_sarif.py", try #require(Self.schema), dir.path + "/log.sarif"])
        if result.status == 3 {
            // jsonschema missing: scripts/setup --tests installs it; say so rather than pass.
            Issue.record("jsonschema is not installed: run scripts/setup --tests")
            return
        }
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// Code scanning tracks a finding by its partial fingerprint: the same across two runs (new run ids, new
    /// times), different between findings.
    @Test(arguments: FindingsModelTests.folders.map(\.folder))
    func twoRunsOfOneHuntGiveTheSameFingerprints(_ folder: String) async throws {
        let entry = try #require(FindingsModelTests.folders.first { $0.folder == folder })
        func prints(_ log: [String: Any]) -> [String] {
            Self.results(log).compactMap { ($0["partialFingerprints"] as? [String: String])?["memhuntFinding/v2"] }
        }
        let first = prints(try await Self.sarif(entry))
        let second = prints(try await Self.sarif(entry))
        #expect(first == second)
        #expect(Set(first).count == first.count, "each finding its own fingerprint")
    }

    @Test func theJustSendHuntGivesRulesFromTheChecksAndResultsWithTheirEvidence() async throws {
        let log = try await Self.sarif(("justsend", "JustSend", "memory-hunt"))
        #expect(log["version"] as? String == "2.1.0")
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        let results = Self.results(log)
        // One rule per code the findings carry, each result pointing at its rule.
        let codes = results.compactMap { $0["ruleId"] as? String }
        var seen = Set<String>()
        #expect(rules.compactMap { $0["id"] as? String } == codes.filter { seen.insert($0).inserted })
        for result in results {
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
        }
        let rank = try #require(rules.first { $0["id"] as? String == "jetsam-rank.high-rank" })
        #expect((rank["defaultConfiguration"] as? [String: Any])?["level"] as? String == "warning")
        #expect(rank["name"] as? String == "JetsamRankHighRank")
        let meaning = try #require(FindingsDocument.knownCodes["jetsam-rank.high-rank"]?.meaning)
        #expect((rank["shortDescription"] as? [String: Any])?["text"] as? String == meaning)
        let ranked = try #require(results.first { $0["ruleId"] as? String == "jetsam-rank.high-rank" })
        #expect(ranked["level"] as? String == "warning")
        let message = try #require((ranked["message"] as? [String: Any])?["text"] as? String)
        #expect(message.hasPrefix("JustSend ranked 7 of 16 processes by lifetime peak (725 MB)"))
        let location = try #require((ranked["locations"] as? [[String: Any]])?.first)
        let physical = try #require(location["physicalLocation"] as? [String: Any])
        #expect(
            (physical["artifactLocation"] as? [String: Any])?["uri"] as? String
                == "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips")
        #expect(
            (location["logicalLocations"] as? [[String: Any]])?.first?["fullyQualifiedName"] as? String
                == "/processes/4/lifetimeMax")
        let facts = try #require((ranked["properties"] as? [String: Any])?["facts"] as? [String: Any])
        #expect(facts["jetsam.app.rank"] as? Int == 7)
        #expect(facts["jetsam.app.peakMB"] as? Int == 725)
        // The exit status of the hunt (0: no --fail-on); the execution itself succeeded.
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["exitCode"] as? Int == 0 && invocation["executionSuccessful"] as? Bool == true)
        #expect(invocation["startTimeUtc"] == nil, "a run's times would change its log from run to run")
    }

    /// A bidi override or a control character from a name stayed raw in a result's text, where a viewer shows
    /// the name reversed: escaped as on the terminal, the paragraphs' line feeds kept.
    @Test func resultTextShowsBidiOverridesEscaped() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let run = await memhunt("run", "--app", "JustSend", "--format", "json", "Fixtures/justsend")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        var findings = try #require(document["findings"] as? [[String: Any]])
        findings[0]["title"] = "Heavy\u{202E}gnp.exe\u{1B}[31m"
        document["findings"] = findings
        try dir.write("doc.json", String(decoding: try JSONSerialization.data(withJSONObject: document), as: UTF8.self))
        let report = await memhunt("report", "--format", "sarif", dir.path + "/doc.json")
        #expect(report.status == 0, "\(report.stderr)")
        #expect(!report.stdout.contains("\u{202E}") && !report.stdout.contains("\u{1B}"))
        let log = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let text = try #require((Self.results(log).first?["message"] as? [String: Any])?["text"] as? String)
        #expect(text.hasPrefix(#"Heavy\u{202E}gnp.exe\u{1B}[31m"#), "\(text)")
        #expect(text.contains("\n\n"))
    }

}
