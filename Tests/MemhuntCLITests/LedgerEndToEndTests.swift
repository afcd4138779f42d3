import Foundation
import MemhuntCore
import MemhuntReports
import MemhuntTestSupport
import Testing

/// The investigation ledger through the built binary: both seeds' ledgers judged over their artifacts, the
/// postmortem written from them, and the ledger's bad inputs (a missing file, another app's artifact, two
/// variables changed) named without losing the rest.
@Suite struct LedgerEndToEndTests {
    static func run(_ ledger: String, _ extra: [String] = []) async throws -> FindingsDocument {
        let run = try await BinaryTests.execute(["run", "--ledger", ledger, "--format", "json"] + extra)
        #expect(run.status == 0, "\(run.stderr)")
        return try FindingsDocument.decode(Array(run.stdout.utf8))
    }

    static func verdicts(_ judgement: LedgerJudgement) -> [String: LedgerVerdict] {
        Dictionary(judgement.comparisons.map { ($0.id, $0.verdict) }, uniquingKeysWith: { a, _ in a })
    }

    @Test func seed000IsJudgedWithTheSeedsNumbers() async throws {
        let document = try await Self.run("Fixtures/ledgers/seed000/ledger.yaml")
        let ledger = try #require(document.ledger)
        #expect(
            Self.verdicts(ledger)
                == [
                    "renderer-per-block": .worse, "block-structure": .cause, "drawer-progress": .cause,
                    "lazy-sentence-stack": .fixHolds,
                ])
        let sentences = ledger.comparisons.map(\.sentence).joined(separator: "\n")
        #expect(sentences.contains("repro.peakMB 623 MB → 948 MB"), "\(sentences)")
        #expect(sentences.contains("repro.peakMB 623 MB → 103 MB"))
        #expect(sentences.contains("102 MB against 103 MB on the good side"))
        #expect(sentences.contains("changes.views[RootView] 11 → 1"))
        let renderer = try #require(ledger.experiments.first { $0.id == "renderer-per-block" })
        #expect(
            renderer.also
                == [
                    AlsoReading(fact: "layers.coreAnimationMB", baseline: "346 MB", variant: "423 MB"),
                    AlsoReading(fact: "layers.count", baseline: "3,573", variant: "5,074"),
                ])
        #expect(ledger.hypotheses.map(\.status) == [.worse, .cause, .cause])
        // The hunt's own run walks the ledger's artifacts: every row at once, so step 6 reads the largest count.
        #expect(document.facts["layers.count"] == 5074)
    }

    @Test func seed003IsJudgedFalseLeadsFirst() async throws {
        let document = try await Self.run("Fixtures/ledgers/seed003/ledger.yaml")
        let ledger = try #require(document.ledger)
        #expect(
            Self.verdicts(ledger)
                == [
                    "text-for-textview": .ruledOut, "textkit1": .ruledOut, "render-cache": .amplifier,
                    "transcript-parts-1": .cause, "transcript-parts-2": .cause, "vstack-transcript": .fixHolds,
                ])
        let fix = try #require(ledger.fixes.first)
        #expect(fix.sentence.contains("sample.layoutPercent 100 % → 0 %"), "\(fix.sentence)")
        let bisection = try #require(ledger.bisections.first)
        #expect(bisection.found == ["auto-scroll", "lazy-stack"])
        #expect(bisection.next == nil)
        #expect(ledger.counterEvidence.map(\.status) == [.noted])
        #expect(
            ledger.hypotheses.map(\.status) == [.setAside, .ruledOut, .ruledOut, .amplifier, .cause])
    }

    @Test func thePostmortemTellsTheInvestigationInTheSeedsOrder() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        for seed in ["seed000", "seed003"] {
            let json = folder.path + "/\(seed).json"
            let run = try await BinaryTests.execute([
                "run", "--ledger", "Fixtures/ledgers/\(seed)/ledger.yaml", "--format", "json", "-o", json,
            ])
            #expect(run.status == 0, "\(run.stderr)")
            let postmortem = try await BinaryTests.execute(["postmortem", json])
            #expect(postmortem.status == 0, "\(postmortem.stderr)")
            let text = postmortem.stdout
            let section = try #require(text.range(of: "## Hypotheses tested")).upperBound
            let body = String(text[section...])
            func at(_ needle: String) -> String.Index? { body.range(of: needle)?.lowerBound }
            if seed == "seed000" {
                let worse = try #require(at("### What made it worse"))
                let row = try #require(
                    at("| variant | `measurements.json` (label `renderer-per-block`) | 948 MB | 423 MB | 5,074 |"))
                let cause = try #require(at("### The cause"))
                let proof = try #require(at("| fixed | `measurements.json` (label `one-block-after-fix`) | 102 MB |"))
                #expect(worse < row && row < cause && cause < proof)
                #expect(body.contains("| good side | `measurements.json` (label `2500-blocks`) | 103 MB |"))
                #expect(text.contains("> The app gets slow, and then the whole phone is slow."))
            } else {
                let ruledOut = try #require(at("### What we ruled out"))
                let first = try #require(at("SwiftUI Text instead of UITextView"))
                let second = try #require(at("TextKit 1 forced"))
                let amplifier = try #require(at("### Amplifiers, not the cause"))
                let cause = try #require(at("### The cause"))
                let proof = try #require(at("### The fix and its proof"))
                #expect(ruledOut < first && first < second && second < amplifier && amplifier < cause && cause < proof)
                #expect(body.contains("| broken | `baseline-sample.txt` | 100 % |"))
                #expect(body.contains("| fixed | `fixed-sample.txt` | 0 % |"))
            }
        }
    }

    /// A copy of seed 000's ledger folder to break.
    static func copySeed000() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        for name in ["ledger.yaml", "measurements.json", "drawer-before.log", "drawer-after.log"] {
            try folder.write(name, try Repo.bytes("ledgers/seed000/" + name))
        }
        return folder
    }

    @Test func aMissingOrForeignArtifactMakesOnlyItsExperimentInconclusive() async throws {
        let folder = try Self.copySeed000()
        defer { folder.remove() }
        try FileManager.default.removeItem(atPath: folder.path + "/drawer-after.log")
        var document = try await Self.run(folder.path + "/ledger.yaml")
        var ledger = try #require(document.ledger)
        var drawer = try #require(ledger.experiments.first { $0.id == "drawer-progress" })
        #expect(drawer.verdict == .inconclusive)
        #expect(drawer.reasons.contains { $0.hasPrefix("variant: drawer-after.log: ") }, "\(drawer.reasons)")
        #expect(Self.verdicts(ledger)["block-structure"] == .cause)
        // Another app's change log in its place: listed as such, never the subject's evidence.
        let other = try String(contentsOfFile: Repo.fixture("ledgers/seed000/drawer-after.log"), encoding: .utf8)
            .replacingOccurrences(of: "JustSend[", with: "Memo[")
        try folder.write("drawer-after.log", other)
        document = try await Self.run(folder.path + "/ledger.yaml")
        ledger = try #require(document.ledger)
        drawer = try #require(ledger.experiments.first { $0.id == "drawer-progress" })
        #expect(drawer.verdict == .inconclusive)
        #expect(drawer.reasons.contains { $0.contains("not of JustSend") }, "\(drawer.reasons)")
        #expect(ledger.hypotheses.first { $0.id == "drawer-scope" }?.status == .open)
    }

    @Test func twoVariablesChangedAtOnceAreFlaggedByWhatDiffers() async throws {
        let folder = try Self.copySeed000()
        defer { folder.remove() }
        let measurements = try String(contentsOfFile: folder.path + "/measurements.json", encoding: .utf8)
        let halved = measurements.replacingOccurrences(
            of: #""footprint_mb": 103, "input_bytes": 291840"#, with: #""footprint_mb": 103, "input_bytes": 145920"#)
        #expect(halved != measurements)
        try folder.write("measurements.json", halved)
        let ledger = try #require(try await Self.run(folder.path + "/ledger.yaml").ledger)
        let structure = try #require(ledger.experiments.first { $0.id == "block-structure" })
        #expect(structure.verdict == .inconclusive)
        #expect(
            structure.reasons == [
                "the baseline and the variant differ in input size too (291,840 bytes vs 145,920 bytes)"
            ])
        #expect(Self.verdicts(ledger)["renderer-per-block"] == .worse)
    }

    @Test func anInvalidLedgerIsEveryProblemAtItsPlace() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write(
            "ledger.yaml",
            "ledger: memhunt.ledger/1\nhypotheses:\n  - id: a\n    statment: x\nexperiments:\n  - id: e\n    tests: b\n"
                + "    variable: v\n    measure: repro.peak\n    baseline: [x]\n    variant: [y]\n")
        let run = try await BinaryTests.execute(["run", "--ledger", folder.path + "/ledger.yaml"])
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(
            run.stderr.contains(
                "ledger.yaml:4:5: error: unknown key 'statment' in hypothesis (did you mean 'statement'?)"),
            "\(run.stderr)")
        #expect(run.stderr.contains("ledger.yaml:7:12: error: unknown hypothesis 'b'"))
        #expect(
            run.stderr.contains("ledger.yaml:9:14: error: unknown fact 'repro.peak' (did you mean 'repro.peakMB'?)"))
        #expect(run.stderr.contains("the ledger is invalid (3 problems)"))
    }

    @Test func addAppendsOnlyAValidEntryAndLosesNothing() async throws {
        let folder = try Self.copySeed000()
        defer { folder.remove() }
        let path = folder.path + "/ledger.yaml"
        let before = try String(contentsOfFile: path, encoding: .utf8)
        let bad = try await BinaryTests.execute([
            "ledger", "add", path, "experiment", "block-structure", "--tests", "one-block-structur", "--variable", "v",
            "--baseline", "measurements.json", "--variant", "measurements.json",
        ])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("duplicate id 'block-structure'"), "\(bad.stderr)")
        #expect(bad.stderr.contains("did you mean 'one-block-structure'?"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
        let good = try await BinaryTests.execute([
            "ledger", "add", path, "experiment", "half-input", "--tests", "one-block-structure", "--variable",
            "half the memo", "--measure", "repro.peakMB", "--baseline", "measurements.json", "--baseline-label",
            "one-block", "--variant", "measurements.json", "--variant-label", "2500-blocks",
        ])
        #expect(good.status == 0, "\(good.stderr)")
        let after = try String(contentsOfFile: path, encoding: .utf8)
        #expect(after.hasPrefix(before.components(separatedBy: "\nfixes:")[0]))
        #expect(after.contains("# Seed 000 as a ledger"))
        let fix = try await BinaryTests.execute([
            "ledger", "add", path, "fix", "half-input-fix", "--fixes", "one-block-structure", "--variable",
            "LazyVStack again", "--measure", "repro.peakMB", "--variant", "measurements.json", "--variant-label",
            "one-block-after-fix", "--equals", "measurements.json", "--equals-label", "2500-blocks",
        ])
        #expect(fix.status == 0, "\(fix.stderr)")
        let noSide = try await BinaryTests.execute([
            "ledger", "add", path, "fix", "no-side", "--variable", "v", "--variant", "measurements.json",
        ])
        #expect(noSide.status == 64, "a fix needs --equals or --baseline: \(noSide.stderr)")
        let judged = try await BinaryTests.execute(["ledger", "judge", path, "--format", "json"])
        #expect(judged.status == 0, "\(judged.stderr)")
        let judgement = try JSONDecoder().decode(LedgerJudgement.self, from: Data(judged.stdout.utf8))
        #expect(judgement.experiments.map(\.id).last == "half-input")
        #expect(judgement.experiments.last?.verdict == .cause)
        #expect(judgement.fixes.map(\.id) == ["lazy-sentence-stack", "half-input-fix"])
        #expect(judgement.fixes.last?.verdict == .fixHolds)
    }

    @Test func initWritesALedgerThatShowsAndNeverReplacesOne() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = folder.path + "/ledger.yaml"
        let made = try await BinaryTests.execute(["ledger", "init", path, "--app", "Chat"])
        #expect(made.status == 0, "\(made.stderr)")
        let again = try await BinaryTests.execute(["ledger", "init", path])
        #expect(again.status == 2)
        #expect(again.stderr.contains("exists"))
        let shown = try await BinaryTests.execute(["ledger", "show", path])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("ok (0 hypotheses, 0 experiments, 0 bisections, 0 fixes)"), "\(shown.stdout)")
    }

    @Test func theTextAndHTMLReportsCarryTheHypotheses() async throws {
        let text = try await BinaryTests.execute(["run", "--ledger", "Fixtures/ledgers/seed003/ledger.yaml"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Hypotheses  (ledger Fixtures/ledgers/seed003/ledger.yaml)"))
        #expect(text.stdout.contains("amplifier render-cache"))
        let html = try await BinaryTests.execute([
            "run", "--ledger", "Fixtures/ledgers/seed003/ledger.yaml", "--format", "html",
        ])
        #expect(html.stdout.contains("<section id=\"hypotheses\">"))
        #expect(html.stdout.contains("<td>fix-holds</td><td><code>vstack-transcript</code></td>"))
        let markdown = try await BinaryTests.execute([
            "run", "--ledger", "Fixtures/ledgers/seed000/ledger.yaml", "--format", "markdown",
        ])
        #expect(markdown.stdout.contains("### Hypotheses"))
        #expect(markdown.stdout.contains("**worse** `renderer-per-block`"))
    }

    /// Over every fixture folder: a side with an artifact that could not be read, or of another app, never
    /// rules a hypothesis out, names a cause or proves a fix; the reasons name both files.
    @Test func overEveryFixtureFolderWhatWasNotReadDecidesNothing() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("broken.ips", #"{"bug_type":"298","timestamp":"2026-08-11 11:20:56.00 +0900""#)
        let other = try String(contentsOfFile: Repo.fixture("ledgers/seed000/drawer-after.log"), encoding: .utf8)
            .replacingOccurrences(of: "JustSend[", with: "Memo[")
        try folder.write("memo-drawer.log", other)
        let folders = ConsistencyTests.fixtureFolders
        var yaml = "ledger: memhunt.ledger/1\nsubject: JustSend\nsymptoms:\n  - id: s\n"
        yaml += "    shows: {fact: repro.peakMB, above: 0}\nhypotheses:\n  - {id: h, statement: s}\nexperiments:\n"
        for (index, path) in folders.enumerated() {
            yaml +=
                "  - {id: e\(index), tests: h, variable: v, baseline: [\(LedgerEditor.quoted(path))], "
                + "variant: [\(LedgerEditor.quoted(path)), broken.ips, memo-drawer.log]}\n"
        }
        yaml += "fixes:\n"
        for (index, path) in folders.enumerated() {
            yaml +=
                "  - {id: f\(index), variable: v, equals: [\(LedgerEditor.quoted(path))], "
                + "variant: [\(LedgerEditor.quoted(path)), broken.ips, memo-drawer.log]}\n"
        }
        try folder.write("ledger.yaml", yaml)
        let run = try await BinaryTests.execute(["ledger", "judge", folder.path + "/ledger.yaml", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let judgement = try JSONDecoder().decode(LedgerJudgement.self, from: Data(run.stdout.utf8))
        #expect(judgement.comparisons.count == 2 * folders.count)
        #expect(folders.count >= 20)
        for comparison in judgement.comparisons {
            #expect(comparison.verdict == .inconclusive, "\(comparison.id): \(comparison.sentence)")
            #expect(
                comparison.reasons.contains {
                    $0.hasPrefix("variant: broken.ips: ") || $0.hasPrefix("fixed variant: broken.ips: ")
                }, "\(comparison.reasons)")
            #expect(
                comparison.reasons.contains { $0.contains("memo-drawer.log: an artifact of Memo, not of JustSend") })
        }
        #expect(judgement.hypotheses.map(\.status) == [.open])
    }

    /// Rows of one label are the same moment measured again: their spread is the noise margin, and the
    /// sentence says so (the median decides).
    @Test func repeatedRowsOfOneLabelSetTheMargin() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write(
            "runs.csv",
            "label,footprint_mb,input_bytes\none-block,610,291840\none-block,623,291840\none-block,650,291840\n"
                + "renderer,655,291840\nrenderer,660,291840\nrenderer,661,291840\n")
        try folder.write(
            "ledger.yaml",
            """
            ledger: memhunt.ledger/1
            symptoms:
              - {id: s, shows: {fact: repro.peakMB, above: 300}}
            hypotheses:
              - {id: h, statement: the renderer}
            experiments:
              - id: renderer
                tests: h
                variable: one renderer per block
                baseline: {artifacts: [runs.csv], label: one-block}
                variant: {artifacts: [runs.csv], label: renderer}
            """)
        let run = try await BinaryTests.execute(["ledger", "judge", folder.path + "/ledger.yaml", "--format", "json"])
        #expect(run.status == 0, "\(run.stderr)")
        let judgement = try JSONDecoder().decode(LedgerJudgement.self, from: Data(run.stdout.utf8))
        let renderer = try #require(judgement.experiments.first)
        #expect(renderer.verdict == .ruledOut, "\(renderer.sentence)")
        #expect(renderer.margin?.source == .repeated)
        #expect(
            renderer.sentence.contains(
                "repro.peakMB 623 MB (median of 610 MB–650 MB over 3 runs) → 660 MB (median of 655 MB–661 MB over 3 runs), "
                    + "margin 40 MB (the widest spread of 6 repeated runs)"), "\(renderer.sentence)")
    }

    /// A tracker note of a run with a ledger carries the ledger's one line at its head, in every markup (and
    /// the Markdown report's Hypotheses section below it).
    @Test func aTrackerNoteCarriesTheLedgersSummary() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let json = folder.path + "/run.json"
        let run = try await BinaryTests.execute([
            "run", "--ledger", "Fixtures/ledgers/seed000/ledger.yaml", "--format", "json", "-o", json,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let github = try await BinaryTests.execute(["attach", "--dry-run", "--to", "github:o/r#1", json])
        #expect(github.status == 0, "\(github.stderr)")
        let all = github.stdout + github.stderr
        #expect(all.contains("Ledger: 1 made it worse, 2 cause; the fix holds (lazy-sentence-stack)."), "\(all)")
        #expect(all.contains("### Hypotheses"))
        let redmine = try await BinaryTests.execute([
            "attach", "--dry-run", "--to", "redmine:http://127.0.0.1:9/#1", json,
        ])
        #expect((redmine.stdout + redmine.stderr).contains("Ledger: 1 made it worse, 2 cause; the fix holds"))
    }

    /// `memhunt diff` of two runs with ledgers: what moved in the investigation, entry by entry.
    @Test func diffComparesTwoLedgersEntryByEntry() async throws {
        let folder = try Self.copySeed000()
        defer { folder.remove() }
        try FileManager.default.removeItem(atPath: folder.path + "/drawer-after.log")
        let before = folder.path + "/before.json"
        let after = folder.path + "/after.json"
        let first = try await BinaryTests.execute([
            "run", "--ledger", folder.path + "/ledger.yaml", "--format", "json", "-o", before,
        ])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try await BinaryTests.execute([
            "run", "--ledger", "Fixtures/ledgers/seed000/ledger.yaml", "--format", "json", "-o", after,
        ])
        #expect(second.status == 0, "\(second.stderr)")
        let text = try await BinaryTests.execute(["diff", before, after])
        #expect(text.stdout.contains("Ledger\n"), "\(text.stdout)")
        #expect(
            text.stdout.range(
                of: #"experiment drawer-progress\s+inconclusive → cause\s+changed"#, options: .regularExpression)
                != nil, "\(text.stdout)")
        #expect(
            text.stdout.range(of: #"hypothesis drawer-scope\s+open → cause\s+changed"#, options: .regularExpression)
                != nil)
        #expect(
            text.stdout.range(of: #"experiment block-structure\s+cause → cause\s+same"#, options: .regularExpression)
                != nil)
        let json = try await BinaryTests.execute(["diff", "--format", "json", before, after])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let entries = try #require(object["ledger"] as? [[String: Any]])
        let drawer = try #require(entries.first { $0["id"] as? String == "drawer-progress" })
        #expect(drawer["before"] as? String == "inconclusive")
        #expect(drawer["after"] as? String == "cause")
        #expect(drawer["state"] as? String == "changed")
        let markdown = try await BinaryTests.execute(["diff", "--format", "markdown", before, after])
        #expect(markdown.stdout.contains("| experiment `drawer-progress` | inconclusive | cause | changed |"))
    }

    /// Eight writers add to one ledger at once (two triage sessions, an agent): every entry lands, and the
    /// ledger stays valid.
    @Test func writersAtOnceLoseNoEntry() async throws {
        let folder = try Self.copySeed000()
        defer { folder.remove() }
        let path = folder.path + "/ledger.yaml"
        let results = try await withThrowingTaskGroup(of: (Int32, String).self) { group in
            for n in 1...8 {
                group.addTask {
                    let run = try await BinaryTests.execute([
                        "ledger", "add", path, "hypothesis", "suspect-\(n)", "--statement", "suspect number \(n)",
                    ])
                    return (run.status, run.stderr)
                }
            }
            var all: [(Int32, String)] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.allSatisfy { $0.0 == 0 }, "\(results)")
        let shown = try await BinaryTests.execute(["ledger", "show", "--format", "json", path])
        #expect(shown.status == 0, "\(shown.stderr)")
        for n in 1...8 { #expect(shown.stdout.contains("\"suspect-\(n)\""), "suspect-\(n)") }
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("# Seed 000 as a ledger"))
    }

    /// Guided triage with answers piped in: a hypothesis at step 8 (`h …`, the cause: 623 → 103 MB), then its
    /// fix (`f …`, holding at 102 MB against 103 MB), both in the session's ledger and in the report.
    @Test func triageRecordsAHypothesisAndItsFix() async throws {
        let folder = try Self.copySeed000()
        defer { folder.remove() }
        let m = folder.path + "/measurements.json"
        let answers =
            [
                // The report, the playbook, steps 1–7; then at step 8:
                "The app gets slow", "", "", "", "", "", "", "", "",
                "h the memo as one block materializes every line", "", "repro.peakMB above 300",
                "split into 2,500 blocks", "\(m) [one-block]", "\(m) [2500-blocks]", "",
                "f the sentence stack is a LazyVStack", "\(m) [one-block-after-fix]", "\(m) [2500-blocks]",
                "repro.peakMB", "memo-one-block-materializes", "", "", "",
            ].joined(separator: "\n") + "\n"
        try folder.write("answers.txt", answers)
        let run = try await BinaryTests.execute(
            [
                "triage", "--app", "JustSend", "--session", folder.path + "/session.json", "-o",
                folder.path + "/report.txt", folder.path,
            ], stdin: folder.path + "/answers.txt")
        #expect(run.status == 0, "\(run.stderr.suffix(3000))")
        #expect(run.stderr.contains("cause: split into 2,500 blocks removes the symptom: repro.peakMB 623 MB → 103 MB"))
        #expect(
            run.stderr.contains(
                "fix-holds: the sentence stack is a LazyVStack: the fix holds, repro.peakMB 102 MB against 103 MB on "
                    + "the good side"), "\(run.stderr.suffix(3000))")
        let ledger = try String(contentsOfFile: folder.path + "/memhunt-ledger.yaml", encoding: .utf8)
        #expect(ledger.contains(#"{id: "sentence-stack-lazyvstack", fixes: "memo-one-block-materializes""#))
        let report = try String(contentsOfFile: folder.path + "/report.txt", encoding: .utf8)
        #expect(report.contains("fix-holds sentence-stack-lazyvstack"))
    }
}
