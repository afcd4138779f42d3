import MemhuntCore
import MemhuntReports
import MemhuntTestSupport
import Testing

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
                "Memory was short when the record was taken: 1 % of memory was free (4,010 free and speculative of "
                    + "391,400 pages).",
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

    @Test func anAppTheArtifactsDoNotListLeavesTheStepUnansweredForIt() async throws {
        let result = try await Hunt.run(["justsend"], app: "Nope")
        #expect(result.steps.first { $0.step.id == "suspended-footprint" }?.status == .unanswered)
        let texts = Verdict(result).sentences.map(\.text)
        #expect(texts.contains("The artifacts given say nothing of Nope for step 3 (Resident size while suspended)."))
        let document = FindingsDocument(result, run: FindingsDocument.RunInfo(id: "test-run"))
        let text = TextReporter.render(document, options: ReportOptions())
        #expect(text.contains(" 3  Resident size while suspended  unanswered\n"))
        #expect(text.contains("   the artifacts of this step say nothing of Nope\n"))
        #expect(text.contains("1 step unanswered"))
        // Nothing to collect for it: its artifacts are here.
        let markdown = MarkdownReporter.render(document, options: ReportOptions())
        #expect(markdown.contains("| What it holds after leaving the screen | — | unanswered |"))
        #expect(
            Postmortem(runs: [document]).section("went-badly").contains(
                "Step 3 (Resident size while suspended) was unanswered: its artifacts say nothing of Nope."))
    }
}
