import MemhuntCore
import MemhuntFormats
import Testing

/// The engine with fake checks: statuses, facts flowing forward, failures that do not stop the walk.
@Suite struct StepEngineTests {
    struct Counts: Check {
        static let description = CheckDescription(
            id: "counts", title: "Counts", step: "one",
            rationale: "Counts the artifacts it reads, for the engine tests.",
            reads: [.jetsamEvent], facts: [FactDescription("count", .count, "Artifacts read.")],
            codes: [FindingCode("counts.records", .notice, "More than one record.")],
            parameters: [CheckParameter("scale", default: 1, "Multiplier.")])
        func run(_ context: CheckContext) async throws -> CheckOutput {
            let n = context.artifacts(of: .jetsamEvent).count * context.int("scale")
            return CheckOutput(
                facts: ["count": .int(n)],
                findings: n > 1
                    ? [Finding(code: "counts.records", severity: .notice, title: "\(n) records", detail: "")] : [])
        }
    }

    struct ReadsEarlierFacts: Check {
        static let description = CheckDescription(
            id: "doubles", title: "Doubles", step: "two", rationale: "Reads a fact of an earlier step, for the tests.",
            reads: [], facts: [FactDescription("double", .count, "Twice the count.")], codes: [],
            runsWithoutArtifacts: true)
        func run(_ context: CheckContext) async throws -> CheckOutput {
            CheckOutput(facts: ["double": .int((context.facts["count"]?.intValue ?? -1) * 2)])
        }
    }

    struct Throws: Check {
        struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }
        static let description = CheckDescription(
            id: "throws", title: "Throws", step: "three", rationale: "Always throws, to prove the walk goes on.",
            reads: [], facts: [], codes: [], runsWithoutArtifacts: true)
        func run(_ context: CheckContext) async throws -> CheckOutput { throw Boom() }
    }

    let engine = StepEngine(checks: [Counts.self, ReadsEarlierFacts.self, Throws.self], toolVersion: "test")

    func playbook(_ steps: [Step]) -> Playbook {
        Playbook(id: "p", title: "P", summary: "", steps: steps, origin: "test")
    }

    func jetsam(_ source: String, status: ArtifactStatus = .ok) -> Artifact {
        Artifact(source: source, kind: .jetsamEvent, status: status)
    }

    @Test func walksEveryStepInOrderAndPassesFactsForward() async {
        let result = await engine.run(
            playbook: playbook([
                Step(
                    id: "one", title: "One", reads: [.jetsamEvent],
                    checks: [.init(kind: .builtIn("counts"), parameters: ["scale": 3])]),
                Step(id: "two", title: "Two", checks: [.init(kind: .builtIn("doubles"))]),
                Step(
                    id: "three", title: "Three",
                    checks: [.init(kind: .builtIn("throws")), .init(kind: .builtIn("nope"))]),
                Step(id: "four", title: "Four", reads: [.changeLog], checks: [.init(kind: .builtIn("counts"))]),
            ]),
            artifacts: [jetsam("a"), jetsam("b"), jetsam("broken", status: .error)], app: nil)
        #expect(result.steps.map(\.status) == [.finding, .clear, .error, .noArtifact])
        #expect(result.facts == ["count": 6, "double": 12])
        #expect(result.steps[0].findings.map(\.title) == ["6 records", "broken could not be read as jetsam-event"])
        #expect(result.steps[0].findings.last?.check == "artifacts")
        #expect(result.steps[3].findings.isEmpty, "a broken artifact is reported once, in the first step reading it")
        #expect(result.steps[0].findings.first?.step == "one")
        #expect(result.steps[0].findings.first?.check == "counts")
        #expect(result.steps[2].failures.map(\.message) == ["check failed: boom", "unknown check 'nope'"])
        #expect(result.steps[2].failures.map(\.check) == ["throws", "nope"])
        #expect(result.steps[2].findings.isEmpty, "a check that could not run is a failure, never a finding")
        #expect(result.highestSeverity == .notice)
    }

    @Test func defaultsFillParametersTheStepDoesNotGive() async {
        let result = await engine.run(
            playbook: playbook([
                Step(id: "one", title: "One", reads: [.jetsamEvent], checks: [.init(kind: .builtIn("counts"))])
            ]),
            artifacts: [jetsam("a")], app: nil)
        #expect(result.facts["count"] == 1)
        #expect(result.steps[0].status == .clear)
    }

    @Test func remotePlaybookExecIsRefusedUnlessAllowed() async {
        var remote = playbook([Step(id: "x", title: "X", checks: [.init(kind: .exec(argv: ["./check"], timeout: 1))])])
        remote.isRemote = true
        let refused = await engine.run(playbook: remote, artifacts: [], app: nil)
        #expect(refused.steps[0].status == .error)
        #expect(refused.failures.first?.message.hasSuffix("remote playbooks may not run executables") == true)
        #expect(
            refused.failures.first?.next
                == .decide(.allowExec, "Allow this playbook to run its programs, if you trust it."))
        let allowed = await engine.run(playbook: remote, artifacts: [], app: nil, allowExec: true)
        #expect(allowed.failures.first?.message == "external checks are not available")
    }

    @Test func subjectComesFromTheOptionOrFromAgreeingCrashReports() {
        let report = { (name: String) in
            Artifact(
                source: name, kind: .crashReport, status: .ok,
                content: .crashReport(CrashReport(format: .ipsJSON, appName: name, kind: .watchdog)))
        }
        #expect(
            StepEngine.resolveSubject(app: "X", artifacts: [report("A")])
                == {
                    // A crash report lists one app: that it is another's answers nothing (no JetsamEvent).
                    var subject = Subject(app: "X", origin: .given, candidates: ["A"], matched: false)
                    subject.absenceAnswered = false
                    return subject
                }())
        #expect(
            StepEngine.resolveSubject(app: "a", artifacts: [report("A")])
                == Subject(app: "A", origin: .given, matched: true), "case-insensitive, spelled as the report does")
        #expect(
            StepEngine.resolveSubject(app: "a", artifacts: [report("A"), report("a")]).app == "a",
            "spelled as given when an artifact spells it so")
        #expect(
            StepEngine.resolveSubject(app: "b", artifacts: [report("A"), report("B"), report("B")]).app == "B")
        #expect(StepEngine.resolveSubject(app: "X", artifacts: []) == Subject(app: "X", origin: .given))
        #expect(StepEngine.resolveSubject(app: nil, artifacts: [report("A"), report("A")]).app == "A")
        #expect(
            StepEngine.resolveSubject(app: nil, artifacts: [report("A"), report("B")])
                == Subject(app: nil, origin: .none, candidates: ["A", "B"]))
    }

    /// The matching rules, on both of `Subject.same`'s paths: ASCII compared in place, the rest lowercased.
    @Test func subjectMatchesNamesBundleIDsAndKernelCuts() {
        let subject = Subject(app: "JustSend", origin: .given)
        #expect(subject.matches("justsend") && subject.matches("JUSTSEND"))
        #expect(subject.matches("com.example.JustSend"))
        #expect(!subject.matches("JustSendWidget") && !subject.matches("JustSen") && !subject.matches("JustSend2"))
        #expect(!subject.matches("") && !subject.matches(nil))
        let long = Subject(app: "com.example.AVeryLongExtensionNameOfMoreThan32", origin: .given)
        #expect(long.matches("AVeryLongExtensionNameOfMoreThan"), "cut at 32 bytes")
        #expect(!long.matches("AVeryLongExtensionNameOfMoreTha"), "31 bytes is not a cut")
        #expect(
            Subject(app: "AVeryLongExtensionNameOfMoreThan", origin: .given).matches(
                "averylongextensionnameofmorethan32"))
        let accented = Subject(app: "Éclair", origin: .given)
        #expect(accented.matches("éCLAIR") && accented.matches("com.example.ÉCLAIR") && !accented.matches("Eclair"))
        #expect(Subject(app: "[Z]", origin: .given).matches("[z]") && !Subject(app: "@", origin: .given).matches("`"))
    }

    /// A process named `a.out` is a name, not a bundle id: never cut to `out`, and `out` is not it.
    @Test func aProcessNamedAOutKeepsItsName() {
        let log = Artifact(
            source: "console.log", kind: .changeLog, status: .ok,
            content: .repro(.changeLog(ChangeLogSummary(evaluations: 3, processes: ["a.out": 3]))))
        #expect(StepEngine.resolveSubject(app: nil, artifacts: [log]).app == "a.out")
        #expect(Subject(app: "a.out", origin: .given).matches("a.out"))
        #expect(!Subject(app: "a.out", origin: .given).matches("out"))
        #expect(!Subject(app: "out", origin: .given).matches("a.out"))
        #expect(Subject.shortName("a.out") == "a.out")
        #expect(Subject.shortName("com.example.JustSend") == "JustSend")
        #expect(Subject(app: "JustSend", origin: .given).matches("com.example.JustSend"))
        #expect(Subject(app: "Telegram", origin: .given).matches("org.Telegram"))
        #expect(!Subject(app: "js", origin: .given).matches("node.js"))
    }
}
