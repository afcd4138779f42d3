import Foundation
import MemhuntCore
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// `memhunt diff` of the JustSend hunt against the verifying run after the fix, and `run --baseline`.
@Suite(.serialized) struct DiffTests {
    /// The two saved runs in a temporary directory: `before.json` (Fixtures/justsend) and `after.json`
    /// (Fixtures/justsend-fixed).
    static func savedRuns() async throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        let (before, after) = await SavedRuns.shared.documents()
        try dir.write("before.json", before)
        try dir.write("after.json", after)
        return dir
    }

    /// The two hunts, run once per test process: the diff and postmortem tests only read them.
    actor SavedRuns {
        static let shared = SavedRuns()
        var cached: (String, String)?

        func documents() async -> (String, String) {
            if let cached { return cached }
            let before = await memhunt("run", "--app", "JustSend", "--format", "json", "Fixtures/justsend")
            let after = await memhunt("run", "--app", "JustSend", "--format", "json", "Fixtures/justsend-fixed")
            cached = (before.stdout, after.stdout)
            return (before.stdout, after.stdout)
        }
    }

    @Test func theFixHolds() async throws {
        let dir = try await Self.savedRuns()
        defer { dir.remove() }
        let run = await memhunt("diff", dir.path + "/before.json", dir.path + "/after.json", "--fail-on-regression")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains(
                "The fix holds: 623 → 103 MB (variation.maxMB); RootView +11 → +1 per gesture; 6 findings resolved."))
        #expect(run.stdout.contains("repro.peakMB              611 → 102 MB              -509 MB (×0.17)       better"))
        #expect(run.stdout.contains("RootView       +11 → +1"))
        // Not measured after the fix is not "removed": the 725 MB peak did not go away, it was not read again.
        let peakLine = run.stdout.split(separator: "\n").first { $0.contains("jetsam.app.peakMB") }
        #expect(peakLine?.contains("725 → —") == true && peakLine?.hasSuffix(" only in BEFORE") == true)
        #expect(!run.stdout.contains("removed\n"))
        #expect(
            run.stdout.contains("resolved       warning  after-detail: 45 → 611 MB (×13.6)  [repro-footprint.growth]"))
        // The JetsamEvent is not part of the verifying run: its findings are not called resolved.
        #expect(run.stdout.contains("not-remeasured warning  JustSend held 122 MB while suspended"))
        #expect(
            run.stdout.hasSuffix(
                "Findings: 6 resolved, 1 unchanged, 0 new, 5 not-remeasured, 2 no-longer-said · regressions: none "
                    + "(tolerance 5 %)\n"))
        // A positive finding (a fix that held, a comparison) is no problem resolved.
        #expect(
            run.stdout.contains(
                "no-longer-said info     The fix holds: one-block-after-fix 102 MB vs 2500-blocks 103 MB"))

        let markdown = await memhunt(
            "diff", dir.path + "/before.json", dir.path + "/after.json", "--format", "markdown")
        #expect(markdown.stdout.contains("> **Verdict:** The fix holds: 623 → 103 MB"))
        #expect(markdown.stdout.contains("| `repro.peakMB` | 611 MB | 102 MB | -509 MB (×0.17) | better |"))
        #expect(markdown.stdout.contains("| RootView | +11 | +1 |"))

        let json = await memhunt("diff", dir.path + "/before.json", dir.path + "/after.json", "--format", "json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["schema"] as? String == "memhunt.diff/1")
        #expect(object["regressed"] as? Bool == false)
        let facts = try #require(object["facts"] as? [[String: Any]])
        let peak = try #require(facts.first { $0["key"] as? String == "repro.peakMB" })
        #expect(peak["unit"] as? String == "MB")
        #expect(peak["delta"] as? Double == -509)
        #expect(peak["movement"] as? String == "better")
    }

    @Test func theReverseOrderIsARegression() async throws {
        let dir = try await Self.savedRuns()
        defer { dir.remove() }
        let plain = await memhunt("diff", dir.path + "/after.json", dir.path + "/before.json")
        #expect(plain.status == 0, "without --fail-on-regression the diff only reports")
        #expect(plain.stdout.contains("The fix does not hold: "))
        let gate = await memhunt("diff", dir.path + "/after.json", dir.path + "/before.json", "--fail-on-regression")
        #expect(gate.status == 1)
        #expect(gate.stdout.contains("repro.peakMB 102 → 611 MB (+509 MB (×5.99), past the 5 % tolerance)"))
        #expect(gate.stdout.contains("REGRESSION"))
        #expect(gate.stderr.contains("memhunt: exit 1: "))
        // A generous tolerance still catches new warnings.
        let tolerant = await memhunt(
            "diff", dir.path + "/after.json", dir.path + "/before.json", "--fail-on-regression", "--tolerance", "1000%")
        #expect(tolerant.status == 1)
        #expect(tolerant.stdout.contains("new warning: "))
        let bad = await memhunt("diff", dir.path + "/after.json", dir.path + "/before.json", "--tolerance", "five")
        #expect(bad.status == 64)
    }

    /// Which way is better is declared with each fact and carried in the document's fact catalog.
    @Test func directionsAreDeclaredWithTheFacts() async throws {
        let (before, _) = await SavedRuns.shared.documents()
        let document = try FindingsDocument.decode(Array(before.utf8))
        #expect(document.factCatalog["repro.peakMB"]?.better == .lower)
        #expect(document.factCatalog["changes.evaluations"]?.better == .lower)
        #expect(document.factCatalog["jetsam.app.rank"]?.better == .higher)
        #expect(document.factCatalog["jetsam.pageSize"]?.better == .neutral)
        #expect(document.factCatalog["jetsam.app.state"]?.better == .neutral)
        #expect(Better.implied(by: .text) == .neutral && Better.implied(by: .megabytes) == .lower)
        // Within the tolerance a worse value is not a regression; past it, it is.
        let within = RunDiff.change("repro.peakMB", unit: .megabytes, better: .lower, 100, 104, tolerance: 0.05)
        #expect(within.movement == .worse && !within.regression)
        let past = RunDiff.change("repro.peakMB", unit: .megabytes, better: .lower, 100, 106, tolerance: 0.05)
        #expect(past.regression)
        let rank = RunDiff.change("jetsam.app.rank", unit: .count, better: .higher, 7, 3, tolerance: 0.05)
        #expect(rank.movement == .worse && rank.regression)
    }

    @Test func baselineLeavesOutKnownFindings() async throws {
        let dir = try await Self.savedRuns()
        defer { dir.remove() }
        // Against its own saved run, nothing is new: the gate passes.
        let same = await memhunt(
            "run", "--app", "JustSend", "--fail-on", "warning", "--baseline", dir.path + "/before.json",
            "Fixtures/justsend")
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.hasSuffix("Summary: no findings\n"))
        #expect(same.stderr.contains("memhunt: 14 findings known from the baseline \(dir.path)/before.json left out"))
        // Against the fixed run, every finding is new: the fixed run says other things (its crash-report.none
        // names no jetsam record: another statement, another signature), and the gate fails.
        let json = await memhunt(
            "run", "--app", "JustSend", "--fail-on", "warning", "--format", "json", "--baseline",
            dir.path + "/after.json", "Fixtures/justsend")
        #expect(json.status == 1)
        let document = try FindingsDocument.decode(Array(json.stdout.utf8))
        #expect(document.baseline?.suppressed == 0)
        #expect(document.findings.count == 14)
        #expect(document.findings.contains { $0.code == "crash-report.none" })
        let markdown = MarkdownReporter.render(document, options: ReportOptions())
        #expect(markdown.contains("0 findings known from the baseline"))
    }

    /// A finding's signature is the same for the same folder copied to another path, and differs when what it
    /// is about differs.
    @Test func signaturesHoldAcrossPathsAndDifferByIdentity() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        for name in ["one", "two"] {
            let copy = Process()
            copy.executableURL = URL(fileURLWithPath: "/bin/cp")
            copy.arguments = ["-R", Repo.fixture("justsend"), dir.path + "/" + name]
            try copy.run()
            copy.waitUntilExit()
        }
        func signatures(_ folder: String, app: String) async throws -> [String: String] {
            let run = await memhunt("run", "--app", app, "--format", "json", folder)
            let document = try FindingsDocument.decode(Array(run.stdout.utf8))
            return Dictionary(document.findings.map { ($0.signature ?? "", $0.code) }) { first, _ in first }
        }
        let one = try await signatures(dir.path + "/one", app: "JustSend")
        let two = try await signatures(dir.path + "/two", app: "JustSend")
        #expect(one.count == 14 && one == two)
        // The same artifacts of another app: other findings, other signatures.
        let other = try await signatures(dir.path + "/one", app: "mediaserverd")
        #expect(Set(other.keys).isDisjoint(with: one.keys))
    }
}
