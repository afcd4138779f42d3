import Foundation
import MemhuntCore
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Guided triage driven by scripted answers: the transcript, the session file after each answer,
/// and resuming after an interruption at every step.
@Suite struct TriageTests {
    /// The JustSend hunt answered as a person would: the report in their words, accept the proposed
    /// playbook, name the app, then one artifact per step that needs one.
    static let answers = [
        "The screen transition stops but scrolling still works",
        "",
        "JustSend",
        "",
        "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips",
        "",
        "",
        "Fixtures/justsend/measurements-detail.csv",
        "",
        "Fixtures/justsend/measurements-variation.json",
        "Fixtures/justsend/drawer-before.log",
    ]

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func triage(_ arguments: [String], answers: [String]) async -> Outcome {
        let input = answers.map { $0 + "\n" }.joined()
        let out = OutputWriter(), err = OutputWriter()
        let status = await Memhunt.main(
            arguments: ["triage"] + arguments, environment: [:], stdin: InputReader(bytes: Array(input.utf8)),
            stdout: out, stderr: err)
        return Outcome(status: status, stdout: out.captured, stderr: err.captured)
    }

    @Test func walkThroughJustSendMatchesTheGoldenTranscript() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let session = dir.path + "/session.json"
        let run = await Self.triage(["--session", session], answers: Self.answers)
        #expect(run.status == 0, "\(run.stderr)")
        for number in [
            "725 MB", "jetsam.app.rank = 7", "122 MB", "15,734,833", "45 → 611 MB", "3,573 layers", "623 MB",
        ] {
            #expect(run.stderr.contains(number), "the walk shows \(number)")
            #expect(run.stdout.contains(number), "the report shows \(number)")
        }
        let transcript = run.stderr.replacingOccurrences(of: session, with: "SESSION")
        let golden = Repo.root + "/Tests/MemhuntCLITests/Golden/triage-justsend.txt"
        if ProcessInfo.processInfo.environment["MEMHUNT_UPDATE_GOLDEN"] == "1" {
            try transcript.write(toFile: golden, atomically: true, encoding: .utf8)
        }
        #expect(transcript == (try String(contentsOfFile: golden, encoding: .utf8)))
        let saved = try JSONDecoder().decode(TriageState.self, from: Data(contentsOf: URL(fileURLWithPath: session)))
        #expect(saved.finished)
        #expect(saved.playbook == "memory-hunt")
        #expect(saved.reported == Self.answers[0])
        let kept = saved.session.steps.filter { $0 != nil }.count
        #expect(kept == 8)
    }

    @Test func theWordsProposeThePlaybookThatFits() async throws {
        let cases = [
            ("the widget went blank", "widget-budget"),
            ("it freezes, then a network timeout", "layout-freeze"),
            ("memory grows each time I open the screen", "navigation-growth"),
            ("the whole phone gets slow", "memory-hunt"),
            ("Transitions stop but scrolling works", "memory-hunt"),
        ]
        let builtIns = try BuiltInPlaybooks.all.map { try playbookLoader.builtIn($0.id)!.get() }
        for (words, expected) in cases {
            #expect(SymptomMatcher.matches(words, in: builtIns).first?.playbook.id == expected, "\(words)")
        }
        let freeze = try #require(SymptomMatcher.matches("it freezes, then a network timeout", in: builtIns).first)
        #expect(freeze.symptom.means.contains("a network timeout that follows is a consequence"))
        // A crash SDK's dashboard: the hunt asks for the SDK's export and the JetsamEvent of that time.
        let dashboard = try #require(
            SymptomMatcher.matches("the Sentry dashboard shows an out of memory crash", in: builtIns).first)
        #expect(dashboard.playbook.id == "memory-hunt")
        #expect(dashboard.symptom.steps == ["crash-report", "jetsam-record"])
        #expect(dashboard.symptom.means.contains("No SDK sees the kill"))
        #expect(dashboard.symptom.means.contains("Export the event and the JetsamEvent of that time"))
        let guidance = try #require(dashboard.playbook.steps.first { $0.id == "crash-report" }?.collect)
        #expect(guidance.contains("export that event too"))
    }

    /// The session file after every answer holds every earlier answer; an interruption at any step
    /// resumes there and ends with the same report as the uninterrupted walk.
    @Test func interruptedAtEveryStepResumesToTheSameReport() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let whole = await Self.triage(["--session", dir.path + "/whole.json"], answers: Self.answers)
        // Answers 0–2 precede the steps; answers 3… are one per step.
        for stop in 3..<Self.answers.count {
            let file = dir.path + "/s\(stop).json"
            let first = await Self.triage(["--session", file], answers: Array(Self.answers[..<stop]))
            #expect(first.status == 2, "input ended before the end: exit 2")
            #expect(first.stderr.contains("Resume with: memhunt triage --resume \(file)"))
            let saved = try JSONDecoder().decode(TriageState.self, from: Data(contentsOf: URL(fileURLWithPath: file)))
            #expect(saved.session.cursor == stop - 3, "after answer \(stop) the walk is at step \(stop - 2)")
            let kept = saved.session.steps.filter { $0 != nil }.count
            #expect(kept == stop - 3)
            let rest = await Self.triage(["--resume", file], answers: Array(Self.answers[stop...]))
            #expect(rest.status == 0, "\(rest.stderr)")
            #expect(rest.stderr.contains("Resuming memory-hunt at step \(stop - 2)"))
            #expect(rest.stdout == whole.stdout, "resumed at step \(stop - 2)")
        }
    }

    @Test func theEndOffersThePostmortemDraft() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let draft = dir.path + "/postmortem.md"
        let run = await Self.triage(
            ["--session", dir.path + "/s.json", "-o", dir.path + "/report.txt"], answers: Self.answers + [draft])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("Wrote the postmortem draft to \(draft)."))
        let text = try String(contentsOfFile: draft, encoding: .utf8)
        #expect(text.hasPrefix("# Postmortem: JustSend"))
        #expect(text.contains("725 MB"))
        #expect(text.contains("> **To fill in:**"))
    }

    /// The end of the walk attaches to a tracker with the attach command's code; a bad target asks again.
    @Test func theEndOffersToAttachToATracker() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let server = try await FaultServer(script: "tracker_fake.py", arguments: ["--token", "unused-token"])
        defer { server.stop() }
        let hook = "webhook:" + server.url("hook").absoluteString
        let run = await Self.triage(
            ["--session", dir.path + "/s.json", "-o", dir.path + "/report.txt"],
            answers: Self.answers + ["", "nowhere:at-all", hook])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("Try again, or Enter to skip."))
        #expect(run.stderr.contains("  Attached: posted"))
        let (data, _) = try await URLSession.shared.data(from: server.url("__hooks"))
        let hooks = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(hooks.count == 1)
        #expect((hooks[0]["body"] as? String)?.contains("jetsam.app.peakMB") == true)
    }

    @Test func invalidAnswersReAskWithTheReason() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var answers = Array(Self.answers[..<4])
        answers += ["Fixtures/no-such-file.ips", "Fixtures/justsend/drawer-before.log", "9", "?", "b", "q"]
        let run = await Self.triage(["--session", dir.path + "/s.json"], answers: answers)
        #expect(run.status == 0)
        #expect(run.stderr.contains("Fixtures/no-such-file.ips: no such file"))
        #expect(run.stderr.contains("Fixtures/justsend/drawer-before.log is change-log; this step reads jetsam-event"))
        #expect(run.stderr.contains("There is no candidate 9"))
        #expect(run.stderr.contains("Collect: The JetsamEvent-*.ips file"))
        #expect(run.stderr.contains("Stopped at step 1."))
    }
}

/// A session file's paths: recorded relative to its folder and resolved back, whatever the spelling of that folder.
@Suite struct SessionPathsTests {
    /// `/tmp//x` (as `NSTemporaryDirectory() + "/…"` spells it): `URL.standardized` kept the empty part, and
    /// `..` after it took away one folder too few, so the artifacts were looked for under `/tmp/work/…`.
    @Test func aDoubleSlashInTheSessionsFolderIsOneSlash() {
        #expect(SessionPaths.absolute("/tmp//w/../../work/a.ips", in: "/") == "/work/a.ips")
        #expect(SessionPaths.absolute("b/./c/../d", in: "/x//y/") == "/x/y/b/d")
        #expect(SessionPaths.absolute("..", in: "/") == "/")
        let paths = SessionPaths(sessionFile: "/tmp//memhunt-session/s.json")
        #expect(paths.folder == "/tmp/memhunt-session")
        #expect(
            SessionPaths.absolute(paths.resolved(paths.recorded("/work/main/Fixtures/a.ips")), in: paths.here)
                == "/work/main/Fixtures/a.ips")
    }
}
