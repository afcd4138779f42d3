import Foundation
import MemhuntBasics
import MemhuntCore
import MemhuntFormats
import MemhuntTestSupport
import Testing

/// Stand-ins for built-in checks, so these tests do not depend on the real registry.
let fakeChecks = [
    CheckDescription(
        id: "crash-report", title: "Crash report", step: "crash-report", rationale: "", reads: [.crashReport],
        facts: [], codes: []),
    CheckDescription(
        id: "jetsam-rank", title: "Jetsam rank", step: "jetsam-record", rationale: "", reads: [.jetsamEvent],
        facts: [], codes: [],
        parameters: [
            CheckParameter("max_rank", default: 10, "Largest rank reported."),
            CheckParameter("min_mb", default: 50.0, "Smallest footprint considered."),
            CheckParameter("include_system", default: false, "Whether system daemons count."),
            CheckParameter("process", default: "", "Process name; empty means the subject."),
        ]),
]

@Suite struct PlaybookLoaderTests {
    let loader = PlaybookLoader(knownChecks: fakeChecks)

    @Test func validPlaybookLoadsIntoExactValues() throws {
        let text = """
            id: memory-hunt
            title: The memory hunt
            summary: >-
              Two steps,
              folded.
            steps:
              - id: jetsam-record
                title: Jetsam record
                inspects: JetsamEvent
                tells: Who was largest
                reads: [jetsam-event, crash-report]
                checks:
                  - id: jetsam-rank
                    with: { max_rank: 5, min_mb: 12, include_system: true, process: "10" }
                  - id: crash-report
                  - exec: [python3, checks/example.py, --flag]
                    timeout: 2.5
                    with: { anything: 1, nested: { list: [a, "1", 2.5, false] } }
                guidance:
                  collect: The .ips file.
                  empty: Nothing was killed.
              - id: notes
                title: Notes
                checks:
                  - exec: [./check]
            """
        let playbook = try loader.load(text: text, origin: "p.yaml", directory: "/tmp", isRemote: true).get()
        func at(_ line: Int, _ column: Int) -> MemhuntCore.SourceLocation {
            MemhuntCore.SourceLocation(file: "p.yaml", line: line, column: column)
        }
        let expected = Playbook(
            id: "memory-hunt", title: "The memory hunt", summary: "Two steps, folded.",
            steps: [
                Step(
                    id: "jetsam-record", title: "Jetsam record", inspects: "JetsamEvent", tells: "Who was largest",
                    reads: [.jetsamEvent, .crashReport],
                    checks: [
                        CheckInvocation(
                            kind: .builtIn("jetsam-rank"),
                            parameters: ["max_rank": 5, "min_mb": 12.0, "include_system": true, "process": "10"],
                            location: at(13, 9)),
                        CheckInvocation(kind: .builtIn("crash-report"), location: at(15, 9)),
                        CheckInvocation(
                            kind: .exec(argv: ["python3", "checks/example.py", "--flag"], timeout: 2.5),
                            parameters: ["anything": 1, "nested": .object(["list": .array(["a", "1", 2.5, false])])],
                            location: at(16, 9)),
                    ],
                    collect: "The .ips file.", empty: "Nothing was killed.", location: at(7, 5)),
                Step(
                    id: "notes", title: "Notes",
                    checks: [CheckInvocation(kind: .exec(argv: ["./check"], timeout: 30), location: at(25, 9))],
                    location: at(22, 5)),
            ],
            origin: "p.yaml", directory: "/tmp", isRemote: true,
            sha256: SHA256.hex(Array(text.utf8)))
        #expect(playbook == expected)
    }

    static let invalidCases = [
        "bad-env", "bad-kind", "duplicate-step-id", "empty-steps", "exec-string", "missing-title", "misspelled-key",
        "syntax-error", "unknown-check", "wrong-types", "wrong-with-type",
    ]

    @Test(arguments: invalidCases)
    func invalidPlaybookReportsEveryProblem(_ name: String) throws {
        let relative = "Fixtures/playbooks/invalid/\(name).yaml"
        let text = try String(contentsOfFile: Repo.root + "/" + relative, encoding: .utf8)
        let expected = try String(
            contentsOfFile: Repo.fixture("playbooks/invalid/\(name).diagnostics.txt"), encoding: .utf8
        ).split(separator: "\n").map(String.init)
        let result = loader.load(text: text, origin: relative, directory: nil, isRemote: false)
        guard case .failure(let error) = result else {
            Issue.record("\(relative) loaded without diagnostics")
            return
        }
        #expect(error.diagnostics.map(\.description) == expected)
        #expect(error.description == expected.joined(separator: "\n"))
    }

    @Test func everyInvalidFixtureIsTested() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Repo.fixture("playbooks/invalid"))
        let yaml = files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
        #expect(yaml == Self.invalidCases)
        #expect(files.filter { $0.hasSuffix(".diagnostics.txt") }.count == yaml.count)
    }

    /// Issue 26, defect 2: an `exec` check names the variables it is given beyond PATH, HOME, LANG and TMPDIR.
    @Test func execChecksNameTheEnvironmentTheyAreGiven() throws {
        let text = """
            id: p
            title: P
            summary: S
            steps:
              - id: s
                title: S
                checks:
                  - exec: [./check]
                    env: [TEAM_DB, _X1]
            """
        let playbook = try loader.load(text: text, origin: "p.yaml", directory: nil, isRemote: false).get()
        #expect(playbook.steps[0].checks[0].kind == .exec(argv: ["./check"], timeout: 30, env: ["TEAM_DB", "_X1"]))
    }

    @Test func emptyTextReportsTheMissingKeys() throws {
        guard case .failure(let error) = loader.load(text: "", origin: "e.yaml", directory: nil, isRemote: false) else {
            Issue.record("expected diagnostics")
            return
        }
        #expect(
            error.description == """
                e.yaml:1:1: error: missing required key 'id' in playbook
                e.yaml:1:1: error: missing required key 'title' in playbook
                e.yaml:1:1: error: missing required key 'summary' in playbook
                e.yaml:1:1: error: missing required key 'steps' in playbook
                """)
    }
}

@Suite struct SuggestionTests {
    /// An app's family: an app and its extensions, two extensions of one app, a bundle id and its extension's;
    /// never the apps of one organisation, nor names that share one word.
    @Test func theFamilyOfAnAppSharesMoreThanAWord() {
        let names = ["JustSend", "JustSendWidget", "JustEat", "Spotify", "com.example.JustSend", "com.example.Lumen"]
        #expect(Suggestion.family(of: "JustSendShare", among: names) == ["JustSend", "JustSendWidget"])
        #expect(Suggestion.family(of: "JustSnd", among: names).isEmpty)
        #expect(Suggestion.family(of: "JustSendWidget", among: names) == ["JustSend"])
        #expect(
            Suggestion.family(of: "com.example.JustSend.Share", among: names + ["com.example.JustSend.Widget"])
                == ["com.example.JustSend", "com.example.JustSend.Widget"])
        #expect(Suggestion.family(of: "com.example.Notes", among: names).isEmpty)
        // A daemon's name that runs on from the app's is no word of its own: a close spelling, not a family.
        #expect(Suggestion.family(of: "Spotifyd", among: names).isEmpty)
        #expect(Suggestion.suggestions(for: "Spotifyd", among: names) == ["Spotify"])
        #expect(Suggestion.suggestions(for: "JustSnd", among: names) == ["JustSend"])
        #expect(Suggestion.suggestions(for: "JustSendShare", among: names) == ["JustSend", "JustSendWidget"])
    }

    @Test func closeNamesAreSuggested() {
        #expect(Suggestion.closest(to: "stpes", among: ["id", "title", "summary", "steps"]) == "steps")
        #expect(Suggestion.closest(to: "jetsam-rnak", among: ["crash-report", "jetsam-rank"]) == "jetsam-rank")
        #expect(Suggestion.closest(to: "jetsam", among: ["crash-report", "jetsam-rank"]) == "jetsam-rank")
        #expect(Suggestion.closest(to: "guidanceText", among: ["guidance"]) == "guidance")
    }

    @Test func distantNamesAreNot() {
        #expect(Suggestion.closest(to: "heap-growth", among: ["crash-report", "jetsam-rank"]) == nil)
        #expect(Suggestion.closest(to: "ab", among: ["id"]) == nil)
        #expect(Suggestion.hint(for: "zzz", among: ["id"]) == "")
    }

    /// Names of any length: one that starts with another is suggested at the distance of the rest, and
    /// a long name two edits from a candidate is found; a third edit is too many.
    @Test func longNamesAreComparedByPrefixOrBand() {
        let long = String(repeating: "x", count: 20_000)
        #expect(Suggestion.closest(to: "guidance" + long, among: ["guidance", "gui"]) == "guidance")
        #expect(Suggestion.closest(to: long + "ab", among: ["ab", long + "ba"]) == long + "ba")
        #expect(Suggestion.closest(to: long + "abc", among: ["y" + long + "cba"]) == nil)
        #expect(Suggestion.closest(to: long, among: ["y" + String(long.dropFirst()) + "y"]) != nil)
    }

    /// The band gives the full table's distance whenever that is within the limit, and nil otherwise:
    /// held against a plain Levenshtein table on every pair of short strings over a small alphabet.
    @Test func theBandAgreesWithTheFullTable() {
        func full(_ a: [Character], _ b: [Character]) -> Int {
            var previous = Array(0...b.count)
            for (i, x) in a.enumerated() {
                var current = [i + 1]
                for (j, y) in b.enumerated() {
                    current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
                }
                previous = current
            }
            return previous[b.count]
        }
        var words: [[Character]] = [[]]
        for length in 1...4 {
            for index in 0..<(1 << (2 * length)) where index % 3 == 0 || length < 3 {
                words.append((0..<length).map { Array("abcd")[(index >> (2 * $0)) & 3] })
            }
        }
        var compared = 0
        var mismatches: [String] = []
        for a in words {
            for b in words {
                let distance = full(a, b)
                for limit in 0...3 {
                    let banded = Suggestion.editDistance(a, b, atMost: limit)
                    if banded != (distance <= limit ? distance : nil) {
                        mismatches.append("\(String(a))/\(String(b)) at most \(limit): \(String(describing: banded))")
                    }
                    compared += 1
                }
            }
        }
        #expect(compared == 66_564)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }
}
