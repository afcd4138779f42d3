import Foundation
import MemhuntCore
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// `memhunt postmortem` over the JustSend hunt and the verifying run after the fix.
@Suite(.serialized) struct PostmortemTests {
    @Test func builtInTemplateFillsTimelineInvestigationAndVerification() async throws {
        let dir = try await DiffTests.savedRuns()
        defer { dir.remove() }
        let run = await memhunt("postmortem", dir.path + "/before.json", dir.path + "/after.json")
        #expect(run.status == 0, "\(run.stderr)")
        let text = run.stdout
        #expect(text.hasPrefix("# Postmortem: JustSend: The eight-step memory hunt\n"))
        #expect(text.contains("| Incident date | 2026-08-11 02:20:56 UTC |"))
        #expect(!text.contains("{{"), "every placeholder is filled")

        let timeline = try #require(section(text, "## Timeline"))
        #expect(
            timeline.contains(
                "| 2026-08-11 02:20:56 UTC | 2026-08-11 11:20:56 +09:00 | JetsamEvent recorded "
                    + "(`JetsamEvent-2026-08-11-112056.ips`) | incident |"))
        #expect(timeline.contains("| 2026-08-11 06:10:00 UTC | 2026-08-11 15:10:00 +09:00 | First measurement"))
        #expect(timeline.contains("14:01:58 (no offset written; +09:00 as the run's other artifacts)"))
        #expect(timeline.contains("| 2026-08-12 05:03:05 UTC | 2026-08-12 14:03:05 +09:00 | First body evaluation"))
        #expect(timeline.contains("| verifying |"))
        let times = timeline.split(separator: "\n").filter { $0.hasPrefix("| 2026-") }.map { $0.prefix(25) }
        #expect(times == times.sorted(), "in time order")

        // A counter since boot is said to be one, beside the record's moment; never "pressure on other apps".
        let impact = try #require(section(text, "## Impact"))
        #expect(
            impact.contains(
                "- The whole system: 15,734,833 compressions since boot (a counter: how much the device had "
                    + "compressed since it started, not when); at the record's moment 0.6 % of memory was free and 6 % "
                    + "available to jetsam (file-backed and free)."
            ))
        #expect(!text.contains("pressure on other apps"))
        // No crash report is information (step 1 says so), never something that went badly.
        #expect(section(text, "## What went badly")?.contains("No crash report") == false)
        #expect(
            section(text, "## What went well")?.contains(
                "The jetsam record listed the app alive, with its peak and rank, where there was no crash report.")
                == true)
        // What to look at next is investigation; only changes and decisions are action items.
        #expect(section(text, "## Action items")?.contains("Count, don't time") == false)

        let investigation = try #require(section(text, "## Investigation"))
        for number in [
            "725 MB, rank 7 of 16", "122 MB footprint (suspended)", "15,734,833 compressions", "45 → 611 MB (×13.6)",
            "346 MB, 3,573 layers", "one-block 623 MB vs 2500-blocks 103 MB", "one-block-after-fix 102 MB",
            "RootView +11 → +1",
        ] {
            #expect(investigation.contains(number), "\(number)")
        }
        #expect(
            section(text, "## Evidence")?.contains(
                "`Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips#/processes/4/lifetimeMax`") == true)
        // Listed once: the investigation keeps the steps and what to look at next.
        #expect(!investigation.contains("#/processes/4/lifetimeMax"))
        #expect(investigation.contains("To look at next, as the findings say:"))
        #expect(text.contains("| Field | Value |\n|---|---|\n| Status |"))
        let summary = try #require(section(text, "## Summary"))
        #expect(summary.contains("\n- JustSend ranked 7 of 16 processes by lifetime peak (725 MB).\n"))

        let verification = try #require(section(text, "## Verification"))
        #expect(verification.contains("**The fix holds: 623 → 103 MB (variation.maxMB); RootView +11 → +1 per gesture"))
        #expect(verification.contains("| `repro.peakMB` | 611 MB | 102 MB | -509 MB (×0.17) |"))
        #expect(verification.contains("| `variation.maxMB` | 623 MB | 103 MB |"))
        #expect(verification.contains("| RootView | +11 | +1 |"))
        #expect(verification.contains("Not measured again after the fix"))

        let keep = try #require(section(text, "## Measured values to keep beside the fix"))
        #expect(keep.contains("variation.maxMB         623 MB → 103 MB after the fix"))
        #expect(keep.contains("variation.minMB         103 MB → 102 MB after the fix"))

        let actions = try #require(section(text, "## Action items"))
        #expect(actions.contains("| Action | Owner | Due | Kind |"))
        #expect(
            actions.contains(
                "| Release caches, images and view trees on entering the background; measure again. | _to assign_ | _to set_ | mitigate |"
            ))
        #expect(actions.contains("(resolved in the verifying run) | _to assign_ | _to set_ | prevent |"))
        #expect(actions.contains("| detect |"))

        // Where the evidence is silent, the team is asked.
        for heading in ["## Where we got lucky", "## Impact", "## Resolution", "## Root cause and trigger"] {
            #expect(section(text, heading)?.contains("> **To fill in:**") == true, "\(heading)")
        }
        #expect(text.contains("| Authors | _to fill in: the authors (roles are enough)_ |"))
        #expect(section(text, "## Root cause and trigger")?.contains("_Draft from the strongest finding") == true)
    }

    @Test func oneRunLeavesVerificationAsAPrompt() async throws {
        let dir = try await DiffTests.savedRuns()
        defer { dir.remove() }
        let run = await memhunt("postmortem", dir.path + "/before.json", "-o", dir.path + "/postmortem.md")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("memhunt: wrote \(dir.path)/postmortem.md (postmortem of 1 run)"))
        let text = try String(contentsOfFile: dir.path + "/postmortem.md", encoding: .utf8)
        let verification = try #require(section(text, "## Verification"))
        #expect(verification.hasPrefix("> **To fill in:** how the fix was verified."))
    }

    @Test func teamTemplateWithFactsAndSections() async throws {
        let dir = try await DiffTests.savedRuns()
        defer { dir.remove() }
        try dir.write(
            "ours.md",
            "# {{app}} incident\n\nPeak {{fact jetsam.app.peakMB}}; detail screen {{fact repro.peakMB}} → "
                + "{{fact repro.peakMB after}}; {{fact metrickit.peakMB}}.\n\n{{section timeline}}\n")
        let run = await memhunt(
            "postmortem", "--template", dir.path + "/ours.md", dir.path + "/before.json", dir.path + "/after.json")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("# JustSend incident\n\nPeak 725 MB; detail screen 611 MB → 102 MB; "))
        #expect(run.stdout.contains("_(metrickit.peakMB: not measured)_"))
        #expect(run.stdout.contains("| Time (UTC) | Local time as recorded | Event | Run |"))
    }

    @Test func unknownPlaceholdersAreErrorsWithTheirLine() async throws {
        let dir = try await DiffTests.savedRuns()
        defer { dir.remove() }
        try dir.write(
            "bad.md",
            "# {{app}}\n\n{{section timelin}}\nPeak: {{fact jetsam.app.peak}} and {{nope}}\n{{fact a b}} {{app\n")
        let run = await memhunt("postmortem", "--template", dir.path + "/bad.md", dir.path + "/before.json")
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        let path = dir.path + "/bad.md"
        #expect(run.stderr.contains("\(path):3:1: error: unknown section 'timelin' (did you mean 'timeline'?)"))
        #expect(
            run.stderr.contains(
                "\(path):4:7: error: unknown fact 'jetsam.app.peak' (did you mean 'jetsam.app.peakMB'?)"))
        #expect(run.stderr.contains("\(path):4:36: error: unknown placeholder '{{nope}}'"))
        #expect(run.stderr.contains("\(path):5:1: error: '{{fact KEY b}}': only 'after' may follow the key"))
        #expect(run.stderr.contains("\(path):5:14: error: '{{' without '}}' on the same line"))
        #expect(run.stderr.contains("Error: the template has 5 problems"))
    }

    @Test func embeddedTemplateEqualsTheFileByteForByte() throws {
        let directory = Repo.root + "/Playbooks/templates"
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".md") }
            .sorted()
        let stale = "BuiltInTemplates.swift is out of date: run scripts/embed-playbooks"
        #expect(BuiltInTemplates.all.map(\.id) == files.map { String($0.dropLast(".md".count)) }, "\(stale)")
        for (file, embedded) in zip(files, BuiltInTemplates.all) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + file))
            #expect(Array(embedded.text.utf8) == Array(bytes), "Playbooks/templates/\(file): \(stale)")
        }
        // Every section of the postmortem has its placeholder in the built-in template.
        for name in Postmortem.sections {
            #expect(PostmortemTemplate.builtIn.text.contains("{{section \(name)}}"), "\(name)")
        }
    }

    /// A leak's postmortem: the patterns as root-cause candidates with their lines, each pattern's fix with its
    /// snippet, and the fix verdict of the run after it.
    @Test func leakPatternsAreCandidatesFixesAndTheVerdict() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        for (name, file) in [
            ("incident", "Fixtures/leaks/Shop-cycles.leaks.txt"),
            ("after", "Fixtures/leaks/verify/Shop-after-partial.leaks.txt"),
        ] {
            _ = await memhunt(
                "run", file, "--playbook", "navigation-growth", "--app", "Shop", "--format", "json", "-o",
                dir.path + "/\(name).json")
        }
        let run = await memhunt("postmortem", dir.path + "/incident.json", dir.path + "/after.json")
        #expect(run.status == 0, "\(run.stderr)")
        let cause = try #require(section(run.stdout, "## Root cause and trigger"))
        #expect(
            cause.contains(
                "- Candidate, a leak pattern: ProfileViewController → ProfileLoader → ProfileViewController: a delegate "
                    + "or data source held strongly (delegate.strong), at `Fixtures/leaks/Shop-cycles.leaks.txt:32`"))
        let resolution = try #require(section(run.stdout, "## Resolution"))
        #expect(resolution.contains("The fix of `delegate.strong`: Declare the delegate weak"))
        #expect(
            resolution.contains(
                "// before\nvar delegate: LoaderDelegate?\n// after\nweak var delegate: LoaderDelegate?"))
        let verification = try #require(section(run.stdout, "## Verification"))
        #expect(verification.contains("Fix verdict: **PARTIAL**"))
        #expect(verification.contains("| PARTIAL | closure.self-capture-stored | 3 → 1 |"))
        #expect(verification.contains("| `leaks.leakedBytes` | 1,184 bytes | 896 bytes |"))
    }

    /// The text from `heading` to the next heading of the same level.
    func section(_ markdown: String, _ heading: String) -> String? {
        guard let start = markdown.range(of: heading + "\n") else { return nil }
        let rest = markdown[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end]).trimmingCharacters(in: .newlines)
    }
}
