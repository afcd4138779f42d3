import Foundation
import MemhuntChecks
import MemhuntCore
import MemhuntFormats
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// The findings document as the one model: every output is a function of it, and it reads back.
@Suite struct FindingsModelTests {
    /// Every fixture folder a hunt reads, with the app it is about.
    static let folders: [(folder: String, app: String?, playbook: String)] = [
        ("justsend", "JustSend", "memory-hunt"),
        ("justsend-fixed", "JustSend", "memory-hunt"),
        ("killed", "JustSend", "memory-hunt"),
        ("old-device", nil, "memory-hunt"),
        ("watchdog", nil, "memory-hunt"),
        ("metrickit", nil, "memory-hunt"),
        ("formats", nil, "memory-hunt"),
        ("bad", nil, "memory-hunt"),
        ("widget", "JustSendWidget", "widget-budget"),
        ("layout-freeze", nil, "layout-freeze"),
        ("navigation-growth", nil, "navigation-growth"),
    ]

    @Test(arguments: folders.map(\.folder))
    func savedDocumentRerendersEveryFormatExactlyAsTheLiveRun(_ folder: String) async throws {
        let entry = try #require(Self.folders.first { $0.folder == folder })
        var arguments = ["run", "--playbook", entry.playbook, "Fixtures/" + folder]
        if let app = entry.app { arguments += ["--app", app] }
        let live = await memhunt(arguments + ["--format", "json"])
        let document = try FindingsDocument.decode(Array(live.stdout.utf8))
        #expect(document.schema == "memhunt.findings/3")
        #expect(!document.steps.isEmpty)
        for reporter in reporters {
            let rendered = await memhunt(arguments + ["--format", reporter.identifier])
            let saved = try TemporaryDirectory()
            defer { saved.remove() }
            try saved.write("findings.json", live.stdout)
            let again = await memhunt("report", saved.path + "/findings.json", "--format", reporter.identifier)
            #expect(again.status == 0, "\(again.stderr)")
            if reporter.identifier == "json" {
                // The run id and times differ between two runs; the saved document re-renders byte for byte.
                #expect(again.stdout == live.stdout, "json of \(folder)")
            } else {
                #expect(again.stdout == rendered.stdout, "\(reporter.identifier) of \(folder)")
            }
        }
    }

    @Test func pipedDocumentPrintsExactlyTheWalk() async throws {
        let json = await memhunt("run", "--format", "json", "Fixtures/justsend")
        let out = OutputWriter(), err = OutputWriter()
        let status = await Memhunt.main(
            arguments: ["report", "-", "--format", "text"], environment: [:],
            stdin: InputReader(bytes: Array(json.stdout.utf8)), stdout: out, stderr: err)
        #expect(status == 0)
        let walk = await memhunt("run", "Fixtures/justsend")
        #expect(out.captured == walk.stdout)
        #expect(out.captured.contains("jetsam.compressions = 15,734,833"))
    }

    @Test func documentHoldsTheRunAsTypes() async throws {
        let run = await memhunt(
            ["run", "--app", "JustSend", "--format", "json", "--fail-on", "warning", "Fixtures/justsend"],
            environment: ["SOURCE_DATE_EPOCH": "1786414856"])
        #expect(run.status == 1)
        let document = try FindingsDocument.decode(Array(run.stdout.utf8))
        #expect(document.tool.name == "memhunt")
        #expect(document.playbook.id == "memory-hunt")
        #expect(document.playbook.origin == "built-in:memory-hunt")
        #expect(document.playbook.sha256?.count == 64)
        #expect(document.subject == Subject(app: "JustSend", origin: .given, matched: true))
        #expect(document.run.startedAt == "2026-08-11T02:20:56Z", "the JetsamEvent's moment, 11:20:56 +0900")
        #expect(document.steps.map(\.number) == Array(1...8))
        #expect(document.steps[0].tells.hasPrefix("How the app ended"))
        #expect(document.facts["jetsam.app.peakMB"] == 725)
        #expect(document.factCatalog["jetsam.app.peakMB"]?.unit == .megabytes)
        #expect(document.factCatalog["jetsam.app.peakMB"]?.check == "jetsam-rank")
        #expect(document.factCatalog["jetsam.compressions"]?.unit == .count)
        let jetsam = try #require(document.artifacts.first { $0.kind == .jetsamEvent })
        #expect(jetsam.incidentTime == "2026-08-11 11:20:56.00 +0900")
        #expect(document.gate.failOn == .warning)
        #expect(document.gate.exitStatus == 1)
        #expect(document.summary.findings["warning"] == document.findings.count { $0.severity == .warning })
        #expect(document.findings.first { $0.code == "jetsam-rank.high-rank" }?.step == "jetsam-record")
        #expect(run.stderr.contains("memhunt: exit 1: "))
        #expect(run.stderr.contains(" findings at warning or above (--fail-on warning)"))
    }

    @Test func firstSchemaIsRefusedWithTheReason() {
        #expect(throws: FindingsDocument.DecodingFailure.self) {
            try FindingsDocument.decode(Array(#"{"schema": "memhunt.findings/1"}"#.utf8))
        }
        do {
            _ = try FindingsDocument.decode(Array(#"{"schema": "memhunt.findings/1"}"#.utf8))
        } catch {
            #expect(error.description.contains("no finding codes"))
        }
    }

    @Test func secondSchemaIsRefusedWithTheReason() {
        do {
            _ = try FindingsDocument.decode(Array(#"{"schema": "memhunt.findings/2"}"#.utf8))
            Issue.record("memhunt.findings/2 was read")
        } catch {
            #expect(error.description.contains("carry no presentation"))
            #expect(error.description.contains("memhunt.findings/3"))
        }
    }

    @Test func reportOfABrokenDocumentSaysWhatIsWrong() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("half.json", #"{"schema": "memhunt.findings/3", "tool": {"name": "memhunt"}}"#)
        let run = await memhunt("report", dir.path + "/half.json")
        #expect(run.status == 2)
        #expect(run.stderr.contains("invalid findings document: missing key"))
    }

    /// Every finding of every fixture through every shipped playbook carries a code its check declared;
    /// every fact is declared with its unit; no text names a step number or a command-line flag.
    @Test func codesAndFactsAreDeclaredAndTextsArePlaybookNeutral() async throws {
        let declared = Dictionary(uniqueKeysWithValues: builtInChecks.map { ($0.description.id, $0.description) })
        var seen = Set<String>()
        for entry in Self.folders {
            for playbook in BuiltInPlaybooks.all.map(\.id) {
                for app in [entry.app, nil] {
                    let result = try await Hunt.run([entry.folder], app: app, playbook: playbook)
                    for finding in result.findings {
                        seen.insert(finding.code)
                        let hasNumber = finding.code.contains { $0.isNumber }
                        #expect(!hasNumber, "\(finding.code) carries a number")
                        if finding.check == "artifacts" {
                            // The engine's own two: an unreadable artifact, and artifacts of other apps.
                            #expect(EngineFindings.all.map(\.code).contains(finding.code))
                            continue
                        }
                        let codes = declared[finding.check]?.codes.map(\.code) ?? []
                        #expect(codes.contains(finding.code), "\(finding.check) emitted undeclared \(finding.code)")
                        for text in [finding.title, finding.detail, finding.next?.text ?? ""] {
                            #expect(text.range(of: #"[Ss]tep \d"#, options: .regularExpression) == nil, "\(text)")
                            #expect(!text.contains("--app") && !text.contains("--allow-exec"), "\(text)")
                        }
                    }
                    for step in result.steps {
                        for key in step.facts.keys {
                            let check = step.factInfo[key]?.check ?? ""
                            #expect(
                                declared[check]?.facts.contains { $0.key == key } == true,
                                "\(check) recorded undeclared \(key)")
                        }
                    }
                }
            }
        }
        #expect(seen.count >= 15, "the fixtures exercise most codes: \(seen.sorted())")
    }

    @Test func descriptionsDeclareUniqueCodesOfTheirOwnCheck() {
        var all = Set<String>()
        for check in builtInChecks {
            let d = check.description
            #expect(!d.codes.isEmpty, "\(d.id) declares no codes")
            #expect(!d.facts.isEmpty, "\(d.id) declares no facts")
            for code in d.codes {
                #expect(code.code.hasPrefix(d.id + "."), "\(code.code) is not under \(d.id)")
                #expect(all.insert(code.code).inserted, "\(code.code) declared twice")
                #expect(!code.meaning.isEmpty)
            }
            for fact in d.facts { #expect(!fact.meaning.isEmpty, "\(fact.key) has no meaning") }
        }
    }

    @Test func checksListsEveryCodeAndFactWithItsUnit() async throws {
        let run = await memhunt("checks", "--format", "json")
        #expect(run.status == 0)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        // Every check, and the engine's own findings about artifacts under `artifacts`.
        #expect(list.count == builtInChecks.count + 1)
        #expect(list.last?["id"] as? String == "artifacts")
        let jetsam = try #require(list.first { $0["id"] as? String == "jetsam-rank" })
        let facts = try #require(jetsam["facts"] as? [[String: Any]])
        #expect(facts.first { $0["key"] as? String == "jetsam.app.peakMB" }?["unit"] as? String == "MB")
        #expect(facts.first { $0["key"] as? String == "jetsam.app.rank" }?["unit"] as? String == "count")
        let codes = try #require(jetsam["codes"] as? [[String: Any]])
        #expect(
            codes.contains { $0["code"] as? String == "jetsam-rank.dominant" && $0["severity"] as? String == "notice" })
        let all = list.flatMap { ($0["codes"] as? [[String: Any]]) ?? [] }
        #expect(all.count == builtInChecks.reduce(0) { $0 + $1.description.codes.count } + EngineFindings.all.count)
        // Every code lists its examples, and every file they name is in the repository.
        for code in all {
            let examples = (code["examples"] as? [[String: Any]]) ?? []
            #expect(examples.contains { $0["raises"] as? Bool == true }, "\(code["code"] ?? "")")
            #expect(examples.contains { $0["raises"] as? Bool == false }, "\(code["code"] ?? "")")
            for path in examples.flatMap({ ($0["paths"] as? [String]) ?? [] }) {
                #expect(FileManager.default.fileExists(atPath: Repo.root + "/" + path), "\(path)")
            }
        }
        #expect(facts.first { $0["key"] as? String == "jetsam.app.rank" }?["better"] as? String == "higher")
    }

    @Test func inspectOfALoneJetsamEventHasNoCrashFacts() async throws {
        let run = await memhunt("inspect", "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips")
        #expect(run.status == 0)
        #expect(!run.stdout.contains("crash."))
        #expect(run.stdout.contains("jetsam.compressions = 15,734,833"))
        #expect(run.stdout.contains("jetsam.pageSize = 16,384 bytes"))
        let json = await memhunt("inspect", "--format", "json", "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let facts = try #require(entries.first?["facts"] as? [String: Any])
        #expect(facts.keys.allSatisfy { $0.hasPrefix("jetsam.") })
    }

    @Test func dashIsStdinForArtifactsAndStdoutForOutput() async throws {
        let bytes = try Array(
            Data(contentsOf: URL(fileURLWithPath: Repo.fixture("justsend/JetsamEvent-2026-08-11-112056.ips"))))
        let out = OutputWriter(), err = OutputWriter()
        let status = await Memhunt.main(
            arguments: ["inspect", "-"], environment: [:], stdin: InputReader(bytes: bytes), stdout: out, stderr: err)
        #expect(status == 0)
        #expect(out.captured.hasPrefix("-\n   kind: jetsam-event  status: ok"))
        #expect(out.captured.contains("jetsam.processes = 16"))
        let run = await memhunt("run", "--app", "JustSend", "-o", "-", "Fixtures/justsend")
        #expect(run.status == 0)
        #expect(run.stdout.contains("jetsam.app.peakMB = 725 MB"))
        #expect(run.stderr.isEmpty)
        let empty = await memhunt("run", "--output", "", "Fixtures/justsend")
        #expect(empty.status == 64)
    }

    @Test func registriesAreSortedAndDriveTheFormatOption() async {
        #expect(reporters.identifiers == reporters.identifiers.sorted())
        #expect(Set(reporters.identifiers).count == reporters.count)
        #expect(commandList.first?.spec.name == "run")
        let rest = commandList.dropFirst().map { $0.spec.name }
        #expect(rest == rest.sorted())
        #expect(MemhuntCommands.root.subcommands.map(\.name) == commandList.map { $0.spec.name })
        let run = MemhuntCommands.root.command(at: ["memhunt", "run"])!
        #expect(run.options.first { $0.long == "format" }?.allowedValues == reporters.identifiers)
        // A format a command does not support is a usage error, never silently text.
        let unsupported = await memhunt("checks", "--format", "junit")
        #expect(unsupported.status == 64)
    }

    @Test func playbooksShowPrintsTheYAMLAndValidateTakesBuiltInIds() async throws {
        let show = await memhunt("playbooks", "show", "widget-budget")
        #expect(show.status == 0)
        #expect(show.stdout == BuiltInPlaybooks.all.first { $0.id == "widget-budget" }!.text)
        let list = await memhunt("playbooks", "--format", "json")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        #expect(parsed.map { $0["id"] as? String } == BuiltInPlaybooks.all.map(\.id))
        let validate = await memhunt("validate", "memory-hunt", "layout-freeze")
        #expect(validate.status == 0)
        #expect(
            validate.stdout == "memory-hunt: ok (memory-hunt, 8 steps)\nlayout-freeze: ok (layout-freeze, 4 steps)\n")
        let wrong = await memhunt("playbooks", "show", "memory-hunts")
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("memory-hunt"))
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionsNameEveryCommandAndFormat(_ shell: String) async {
        let run = await memhunt("completions", shell)
        #expect(run.status == 0)
        for command in commandList.map({ $0.spec.name }) { #expect(run.stdout.contains(command), "\(command)") }
        #expect(run.stdout.contains("json text"))
        #expect(run.stdout.contains("info notice warning critical"))
    }

    @Test func colorFollowsTheOption() async {
        let always = await memhunt("run", "--color", "always", "Fixtures/justsend")
        #expect(always.stdout.contains("\u{1B}["))
        let never = await memhunt("run", "--color", "never", "Fixtures/justsend")
        #expect(!never.stdout.contains("\u{1B}["))
    }
}

/// The run's timestamps are written by hand (`gmtime_r`): held to what `ISO8601DateFormatter` writes.
@Suite struct TimestampTests {
    @Test(arguments: [0, 1_786_414_856, 1_786_414_856.999, 951_782_400, -1, 253_402_300_799, 1e9 + 0.5])
    func timestampsAreWhatISO8601DateFormatterWrites(_ seconds: Double) {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        let date = Date(timeIntervalSince1970: seconds)
        #expect(Timestamps.iso8601(date, [:]) == formatter.string(from: date))
    }

    @Test func sourceDateEpochPinsTheTime() {
        #expect(Timestamps.iso8601(Date(), ["SOURCE_DATE_EPOCH": "1786414856"]) == "2026-08-11T02:20:56Z")
    }
}
