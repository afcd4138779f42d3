import MemhuntCore
import MemhuntTestSupport
import Testing

@testable import MemhuntReports

/// The verdict at the top: one sentence per step from its strongest finding, then what is missing.
@Suite struct VerdictTests {
    @Test func theSeedsVerdictTracesEachSentenceToItsStep() async throws {
        let result = try await Hunt.run(["justsend"], app: "JustSend")
        let verdict = Verdict(result)
        #expect(
            verdict.sentences.map(\.text) == [
                "No crash report of JustSend, and no sign that it ended: the jetsam record lists it alive.",
                "JustSend ranked 7 of 16 processes by lifetime peak (725 MB).",
                "JustSend held 122 MB while suspended.",
                "Memory was short when the record was taken: 6 % of memory was available to jetsam (23,430 pages: "
                    + "21,200 file-backed and 2,230 free, of 390,510 pages).",
                "Simulator reproduction: after-detail: 45 → 611 MB (×13.6).",
                "Rendering structure holds the memory: 3,573 layers for 2,500 lines: a layer for every line; "
                    + "CoreAnimation 346 MB is 57 % of the 611 MB footprint.",
                "Structure is the variable: one-block 623 MB vs 2500-blocks 103 MB.",
                "Fan-out: 4 views evaluated in one burst after one _thumbnailStore change.",
            ])
        #expect(verdict.sentences.map(\.step) == result.steps.map(\.step.id))
        for sentence in verdict.sentences {
            let step = try #require(result.steps.first { $0.step.id == sentence.step })
            let finding = try #require(step.findings.first { $0.code == sentence.codes.first })
            #expect(sentence.text.contains(finding.title), "never stronger than its finding")
        }
    }

    @Test func aKilledAppsVerdictSaysWhatIsMissingAndWhatDidNotApply() async throws {
        let result = try await Hunt.run(["killed"], app: "JustSend")
        let texts = Verdict(result).sentences.map(\.text)
        #expect(!texts.contains { $0.contains("did not die") })
        #expect(texts.contains("JustSend was killed: per-process-limit."))
        #expect(texts.contains("Not applicable to this run: step 3 (Resident size while suspended)."))
        #expect(
            texts.last
                == "No evidence, for lack of artifacts: step 5 (Simulator reproduction), step 6 (CoreAnimation memory "
                + "and layer count), step 7 (Structure-only variation), step 8 (Change logging).")
        #expect(result.steps[2].status == .notApplicable)
    }

    /// JetsamEvents without a named app: step 3 reads them, so it is not short of artifacts; it is
    /// unanswered until an app is named. Steps whose kinds were not given stay "for lack of artifacts".
    @Test func aStepWithItsArtifactsButNoAppIsUnansweredNotWithoutArtifacts() async throws {
        let result = try await Hunt.run(["pressure"], app: nil)
        #expect(result.subject.app == nil)
        let step3 = try #require(result.steps.first { $0.step.id == "suspended-footprint" })
        #expect(step3.status == .unanswered)
        #expect(result.steps.first { $0.step.id == "simulator-repro" }?.status == .noArtifact)
        let texts = Verdict(result).sentences.map(\.text)
        #expect(
            texts.contains(
                "Not answered until an app is named, though the artifacts are given: step 3 (Resident size while suspended)."
            ))
        #expect(!texts.contains { $0.hasPrefix("No evidence, for lack of artifacts:") && $0.contains("step 3") })
    }

    /// A long list or map is counted in the walk, in the singular for one ("1 entries" before).
    @Test func aLongFactIsCountedInTheWalk() async throws {
        let result = try await Hunt.run(["justsend"], app: "JustSend")
        let document = FindingsDocument(result, run: FindingsDocument.RunInfo(id: "count"))
        let long = FactValue.string(String(repeating: "x", count: 130))
        #expect(
            TextReporter.fact("k", .object(["only": long]), in: document) == "1 entry (all in the findings document)")
        #expect(
            TextReporter.fact("k", .array([long, long]), in: document) == "2 entries (all in the findings document)")
        #expect(TextReporter.fact("k", .int(725), in: document) == "725")
    }

    @Test func anAppTheArtifactsDoNotListLeavesTheStepUnansweredForIt() async throws {
        let result = try await Hunt.run(["justsend"], app: "Nope")
        #expect(result.steps.first { $0.step.id == "suspended-footprint" }?.status == .unanswered)
        let texts = Verdict(result).sentences.map(\.text)
        // Step 8's change logs are JustSend's: given, of another app, so unanswered too.
        #expect(
            texts.contains(
                "The artifacts given say nothing of Nope for step 3 (Resident size while suspended), step 8 (Change "
                    + "logging)."))
        let document = FindingsDocument(result, run: FindingsDocument.RunInfo(id: "test-run"))
        let text = TextReporter.render(document, options: ReportOptions())
        #expect(text.contains(" 3  Resident size while suspended  unanswered\n"))
        #expect(text.contains("   the artifacts of this step say nothing of Nope\n"))
        #expect(text.contains("2 steps unanswered"))
        // Nothing to collect for it: its artifacts are here.
        let markdown = MarkdownReporter.render(document, options: ReportOptions())
        #expect(markdown.contains("| What it holds after leaving the screen | — | unanswered |"))
        #expect(
            Postmortem(runs: [document]).section("went-badly").contains(
                "Step 3 (Resident size while suspended) was unanswered: its artifacts say nothing of Nope."))
    }

    /// A file given and not read is evidence of unknown content: never "no crash report among the artifacts",
    /// never "for lack of artifacts"; the unread files are counted and named.
    @Test func unreadFilesAreNeverAnAbsence() async throws {
        let result = try await Hunt.run(["bad"], app: "JustSend")
        let none = try #require(result.findings.first { $0.code == "crash-report.none" })
        #expect(
            none.title.hasPrefix(
                "No crash report of JustSend was read: 3 files that may be a crash report could not be read "
                    + "(notes.txt: unrecognized content (text of no known kind, 86 bytes); random.bin: ")
        )
        // A MetricKit call-stack tree is a piece of a diagnostic, not of a crash report: not counted here.
        #expect(!none.title.contains("metrickit-callstacktree.json"))
        #expect(none.severity == .notice)
        let texts = Verdict(result).sentences.map(\.text)
        #expect(texts.contains { $0.hasPrefix("6 files given could not be read, so what they hold is not known: ") })
        #expect(!texts.contains { $0.contains("for lack of artifacts") || $0.contains("among the artifacts") })
        #expect(texts.contains { $0.hasPrefix("Nothing was read for step 3 (Resident size while suspended)") })
        // The empty file holds nothing: it is not counted as unknown content, only named as empty.
        #expect(!texts.contains { $0.contains("could not be read") && $0.contains("empty.ips") })
        #expect(texts.contains("1 file given is empty, so it holds nothing to read: empty.ips."), "\(texts)")
    }

    /// `run --baseline`: the verdict is of what is reported, and cites no code the findings left out.
    @Test func theBaselineVerdictIsOfWhatIsReported() async throws {
        let result = try await Hunt.run(["justsend"], app: "JustSend")
        let document = FindingsDocument(result, run: FindingsDocument.RunInfo(id: "a"))
        let quiet = document.suppressing(document, source: "a.json")
        #expect(quiet.findings.isEmpty)
        #expect(
            quiet.verdict?.sentences.map(\.text) == [
                "Nothing new since the baseline: 14 findings the baseline already has are left out."
            ])
        let codes = Set(quiet.findings.map(\.code))
        #expect(quiet.verdict?.sentences.allSatisfy { $0.codes.allSatisfy(codes.contains) } == true)
    }
}
