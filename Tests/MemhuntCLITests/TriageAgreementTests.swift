import Foundation
import MemhuntCore
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// Triage gives at least the answer `run` gives: accepting every proposal (Enter at every prompt) finds what
/// `run` finds over the same folder, and the proposal, the picks and the words behave as the prompts say.
@Suite struct TriageAgreementTests {
    /// A finding as the two are compared: its code, severity and step.
    struct Key: Hashable, CustomStringConvertible {
        var code: String
        var severity: String
        var step: String
        var description: String { "\(step) \(severity) \(code)" }
    }

    static func keys(_ document: FindingsDocument) -> Set<Key> {
        Set(document.findings.map { Key(code: $0.code, severity: $0.severity.rawValue, step: $0.step) })
    }

    /// Every fixture folder of `FindingsModelTests`, with its app and playbook. The playbook and app are given
    /// on triage's command line as on run's; where the folder has no app, triage asks for one and Enter lets the
    /// artifacts decide, as run does. Every step's prompt then gets Enter, and the postmortem and attach offers
    /// at the end too: those two prompts are triage's own and add no finding.
    @Test(arguments: FindingsModelTests.folders.map(\.folder))
    func acceptingEveryProposalFindsWhatRunFinds(_ folder: String) async throws {
        let entry = try #require(FindingsModelTests.folders.first { $0.folder == folder })
        var arguments = ["--playbook", entry.playbook, "--format", "json", "Fixtures/" + folder]
        if let app = entry.app { arguments += ["--app", app] }
        let run = await memhunt(["run"] + arguments)
        let ran = try FindingsDocument.decode(Array(run.stdout.utf8))
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let steps = try #require(try playbookLoader.builtIn(entry.playbook)?.get()).steps.count
        let answers = ["the app is slow"] + (entry.app == nil ? [""] : []) + Array(repeating: "", count: steps + 2)
        let walk = await TriageTests.triage(["--session", dir.path + "/s.json"] + arguments, answers: answers)
        #expect(walk.status == run.status, "\(walk.stderr)")
        let walked = try FindingsDocument.decode(Array(walk.stdout.utf8))
        #expect(walked.steps.count == steps)
        let (r, t) = (Self.keys(ran), Self.keys(walked))
        #expect(t == r, "run only: \(r.subtracting(t).sorted { "\($0)" < "\($1)" }); triage only: \(t.subtracting(r))")
        // By design, Enter at a step with no candidate skips it (the prompt says "skip (no candidate)"), where run
        // records "no artifact"; every other status is run's.
        let statuses = walked.steps.map { $0.status == .skipped ? StepStatus.noArtifact : $0.status }
        #expect(statuses == ran.steps.map(\.status), "step statuses of \(folder)")
    }

    /// The JustSend walk of issue 29: step 7 proposes both variant files, step 8 both logs.
    @Test func theProposalIsEveryCandidateRunWouldRead() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let walk = await TriageTests.triage(
            ["--session", dir.path + "/s.json", "--app", "JustSend", "Fixtures/justsend"],
            answers: ["the app is slow", ""] + Array(repeating: "", count: 10))
        #expect(walk.status == 0, "\(walk.stderr)")
        #expect(walk.stderr.contains("Enter = use all, 1-2 (measurements-detail.csv, measurements-variation.json)"))
        #expect(
            walk.stderr.contains(
                "Enter = run with what was given (measurements-detail.csv, measurements-variation.json)"))
        #expect(
            walk.stderr.contains(
                "Enter = use all, 1-3 (drawer-after.log, drawer-before.log, thumbnail-fanout.log)"))
        #expect(walk.stderr.contains("Enter = use 1 (JetsamEvent-2026-08-11-112056.ips)"), "step 1 weighs the record")
        #expect(walk.stderr.contains("Summary: 7 warnings"), "\(walk.stderr)")
    }

    @Test func numbersPickSeveralCandidatesOrDropOne() throws {
        func pick(_ answer: String, _ count: Int = 4) -> [Int]? {
            guard case .success(let numbers)? = TriageWalk.selection(answer, count: count) else { return nil }
            return numbers
        }
        #expect(pick("3") == [3])
        #expect(pick("1 3") == [1, 3])
        #expect(pick("1,3") == [1, 3])
        #expect(pick("1-3") == [1, 2, 3])
        #expect(pick("a") == [1, 2, 3, 4])
        #expect(pick("all") == [1, 2, 3, 4])
        #expect(pick("-2") == [1, 3, 4])
        #expect(pick("-2 -4") == [1, 3])
        #expect(pick("1-3 -2") == [1, 3])
        #expect(pick("3 1 3") == [3, 1])
        // Not a selection: a path, handled as one.
        #expect(TriageWalk.selection("Fixtures/justsend/drawer-after.log", count: 4) == nil)
        #expect(TriageWalk.selection("2026-08-11.log", count: 4) == nil)
        #expect(
            TriageWalk.selection("9", count: 4)
                == .failure(TriageWalk.SelectionError("There is no candidate 9: pick 1–4, or give a path.")))
        #expect(
            TriageWalk.selection("3-1", count: 4)
                == .failure(TriageWalk.SelectionError("3-1 is not a range: write the lower number first.")))
        #expect(
            TriageWalk.selection("-1", count: 1)
                == .failure(TriageWalk.SelectionError("That drops every candidate: pick 1–1, or give a path.")))
    }

    /// A range past the candidates is refused from its bounds, before it is spelled out (it was an array of
    /// 9.2 × 10^18 numbers: a crash; `1-300000000` took 19 s and 4.7 GB).
    @Test func aRangeBeyondTheCandidatesIsRefusedAtOnce() {
        #expect(
            TriageWalk.selection("1-9223372036854775807", count: 4)
                == .failure(
                    TriageWalk.SelectionError("There is no candidate 9223372036854775807: pick 1–4, or give a path.")))
        #expect(
            TriageWalk.selection("1-300000000", count: 4)
                == .failure(TriageWalk.SelectionError("There is no candidate 300000000: pick 1–4, or give a path.")))
        #expect(
            TriageWalk.selection("0-2", count: 4)
                == .failure(TriageWalk.SelectionError("There is no candidate 0: pick 1–4, or give a path.")))
        #expect(
            TriageWalk.selection("2-3", count: 0)
                == .failure(TriageWalk.SelectionError("There is no candidate 2: no candidate to pick: give a path.")))
        // Past Int: not a number memhunt reads, so not a selection (a path, say).
        #expect(TriageWalk.selection("1-99999999999999999999", count: 4) == nil)
    }

    /// `q` stops at the report, playbook and app prompts, before any step: nothing to resume, exit 0.
    @Test(arguments: [["q"], ["the app is slow", "q"], ["the app is slow", "", "q"]])
    func qQuitsAtEveryPromptBeforeTheSteps(_ answers: [String]) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let walk = await TriageTests.triage(["--session", dir.path + "/s.json"], answers: answers)
        #expect(walk.status == 0, "\(walk.stderr)")
        #expect(walk.stderr.contains("Stopped before the first step; there is nothing to resume."))
        #expect(!walk.stderr.contains("Step 1/"))
        #expect(walk.stdout.isEmpty)
    }

    /// The phrasings people use (the seeds' and common variants) and the symptom each maps to.
    @Test func thePhrasingsMapToTheirSymptoms() throws {
        let builtIns = try BuiltInPlaybooks.all.map { try playbookLoader.builtIn($0.id)!.get() }
        let app = "The app is alive and its main thread is not fully blocked"
        let system = "Memory the app holds in the background makes the system compress"
        let ended = "The app ended"
        let table: [(String, String, String?)] = [
            ("The whole phone gets slow and other apps reload", "memory-hunt", system),
            ("the whole phone is slow", "memory-hunt", system),
            ("the whole system is slow", "memory-hunt", system),
            ("gestures lagged and the system became slow too", "memory-hunt", system),
            ("other apps reload when I switch back", "memory-hunt", system),
            ("other apps restart", "memory-hunt", system),
            ("other apps close while ours is open", "memory-hunt", system),
            ("my phone is slow", "memory-hunt", system),
            ("the app gets slow", "memory-hunt", app),
            ("The app is slow", "memory-hunt", app),
            ("the app slows down after a while", "memory-hunt", app),
            ("The screen transition stops but scrolling still works", "memory-hunt", app),
            ("the app is slow to open the detail screen", "memory-hunt", app),
            ("the app crashes", "memory-hunt", ended),
            ("the app crashed twice", "memory-hunt", ended),
            ("the widget went blank", "widget-budget", nil),
            ("The widget is empty", "widget-budget", nil),
            ("it freezes, then a network timeout", "layout-freeze", "a network timeout that follows is a consequence"),
            ("the app hangs", "layout-freeze", nil),
            ("memory grows each time I open the screen", "navigation-growth", nil),
            ("memory keeps growing", "navigation-growth", nil),
        ]
        for (words, playbook, means) in table {
            let match = SymptomMatcher.matches(words, in: builtIns).first
            #expect(match?.playbook.id == playbook, "\(words)")
            if let means {
                #expect(match?.symptom.means.contains(means) == true, "\(words): \(match?.symptom.means ?? "none")")
            }
        }
        #expect(SymptomMatcher.matches("it rained on Tuesday", in: builtIns).isEmpty)
    }
}
