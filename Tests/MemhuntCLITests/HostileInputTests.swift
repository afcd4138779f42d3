import Foundation
import MemhuntCore
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// Hostile input from outside (issue 26): app and file names carrying raw HTML, terminal escapes, formula
/// cells and forged lines reach no report, terminal or spreadsheet as code.
@Suite struct HostileInputTests {
    static let html = "<img src=x onerror=alert(1)>"
    static let retitle = "\u{1B}]0;PWNED\u{07}"

    /// A folder with the JustSend JetsamEvent whose app is named `app`, saved as `file`.
    static func folder(app: String, file: String = "JetsamEvent.ips") throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        let text = try String(
            contentsOfFile: Repo.fixture("justsend/JetsamEvent-2026-08-11-112056.ips"), encoding: .utf8)
        let quoted = String(decoding: try JSONEncoder().encode(app), as: UTF8.self)
        try dir.write(file, text.replacingOccurrences(of: #""JustSend""#, with: quoted))
        return dir
    }

    /// The findings document of a run over `dir` with `--app app`.
    static func document(_ dir: TemporaryDirectory, app: String) async throws -> FindingsDocument {
        let run = await memhunt("run", "--app", app, "--format", "json", dir.path)
        return try FindingsDocument.decode(Array(run.stdout.utf8))
    }

    // MARK: - Postmortem (defect 7)

    @Test func thePostmortemEscapesAnAppNameAndFileNamesOfRawHTML() async throws {
        let dir = try Self.folder(app: Self.html, file: "<script>alert(2)<|script>.ips")
        defer { dir.remove() }
        var document = try await Self.document(dir, app: Self.html)
        document.run.id = "<b>run</b>`|x"
        document.playbook.title = "<i>hunt</i>"
        document.playbook.id = "id`<u>"
        guard case .success(let text) = PostmortemTemplate.builtIn.render(Postmortem(runs: [document]), knownFacts: [])
        else {
            Issue.record("the built-in template did not render")
            return
        }
        // Outside a code span (where Markdown shows HTML as text), no tag survives.
        let prose = Self.outsideCodeSpans(text)
        for raw in ["<img", "<script", "<b>", "<i>", "<u>"] {
            #expect(!prose.contains(raw), "raw \(raw) in the postmortem")
        }
        #expect(text.contains("run `&lt;b&gt;run&lt;/b&gt;'\\|x`") || text.contains("run `<b>run</b>'\\|x`"))
        #expect(text.hasPrefix("# Postmortem: &lt;img src=x onerror=alert(1)&gt;: &lt;i&gt;hunt&lt;/i&gt;\n"))
        #expect(text.contains("- App: &lt;img src=x onerror=alert(1)&gt;"))
        // Every table row keeps its cells: no unescaped pipe from a name splits one.
        #expect(!text.contains("<|script"))
    }

    /// The text without its inline code spans (between backticks on one line).
    static func outsideCodeSpans(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 0 }
                .map(\.element).joined()
        }.joined(separator: "\n")
    }

    // MARK: - Scan CSV (defect 7)

    @Test func scanCSVOfAHostileAppNameKeepsOneRowPerApp() async throws {
        let dir = try Self.folder(app: "=cmd|' /C calc'!A0\r")
        defer { dir.remove() }
        let run = await memhunt("scan", "--format", "csv", dir.path)
        #expect(run.status == 0)
        #expect(run.stdout.contains(#"'=cmd|' /C calc'!A0\u{0D},"#))
        #expect(!run.stdout.split(separator: "\n").contains { $0.hasPrefix("=") })
    }

    // MARK: - JUnit and GitHub stay escaped (defect 7)

    @Test func junitAndGitHubAnnotationsStayEscapedWithAHostileAppName() async throws {
        let app = "x\n::error::forged\u{1B}[31m" + Self.html + "]]>"
        let dir = try Self.folder(app: app)
        defer { dir.remove() }
        let document = try await Self.document(dir, app: app)
        let github = GitHubReporter.render(document, options: ReportOptions())
        #expect(!github.split(separator: "\n").contains { $0.hasPrefix("::error::forged") })
        #expect(!github.contains("\u{1B}"))
        let junit = JUnitReporter.render(document, options: ReportOptions())
        #expect(!junit.contains("\u{1B}"))
        #expect(!junit.contains("<img"))
    }
}

// MARK: - Terminal escapes (defect 6)

extension HostileInputTests {
    @Test func theTextReportShowsControlCharactersOfNamesEscaped() async throws {
        let dir = try Self.folder(app: Self.retitle, file: "x\nSummary: no findings.ips")
        defer { dir.remove() }
        let run = await memhunt("run", "--app", Self.retitle, dir.path)
        #expect(!run.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(run.stdout.contains(#"Subject: \u{1B}]0;PWNED\u{07}"#))
        #expect(run.stdout.contains(#"x\u{0A}Summary: no findings.ips"#))
        #expect(!run.stdout.split(separator: "\n").contains("Summary: no findings.ips"))
        // What is not a control character stays as it is.
        let japanese = try Self.folder(app: "ジャストセンド🚀")
        defer { japanese.remove() }
        let kept = await memhunt("run", "--app", "ジャストセンド🚀", japanese.path)
        #expect(kept.stdout.contains("Subject: ジャストセンド🚀\n"))
    }

    @Test func errorsAndNotesOnStderrShowControlCharactersEscaped() async throws {
        let missing = await memhunt("run", "/nonexistent/" + Self.retitle + "\nError: forged")
        #expect(missing.status == 2)
        #expect(!missing.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(missing.stderr.contains(#"/nonexistent/\u{1B}]0;PWNED\u{07}\u{0A}Error: forged"#))
        #expect(!missing.stderr.split(separator: "\n").contains { $0.hasPrefix("Error: forged") })
        let inspect = await memhunt("inspect", "/nonexistent/" + Self.retitle)
        #expect(!inspect.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }
}

// MARK: - Outputs never replace inputs (defect 5)

extension HostileInputTests {
    /// A copy of the JustSend folder's files to write over.
    static func justsend() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        for name in ["JetsamEvent-2026-08-11-112056.ips", "drawer-after.log"] {
            try dir.write(name, try Repo.bytes("justsend/" + name))
        }
        return dir
    }

    static func unchanged(_ path: String, _ original: [UInt8]) -> Bool {
        FileManager.default.contents(atPath: path).map(Array.init) == original
    }

    @Test func runRefusesAnOutputThatIsAnInput() async throws {
        let dir = try Self.justsend()
        defer { dir.remove() }
        let log = dir.path + "/drawer-after.log"
        let original = try Repo.bytes("justsend/drawer-after.log")
        for arguments in [
            ["run", "-o", log, log], ["run", "--output", log, dir.path], ["run", "-o", log, "--", log],
        ] {
            let run = await memhunt(arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.contains("is an input of this run"), "\(run.stderr)")
            #expect(Self.unchanged(log, original))
        }
        // Through a symbolic link to the input, and through another path to it.
        symlink(log, dir.path + "/link.log")
        let linked = await memhunt(
            "run", "-o", dir.path + "/../" + (dir.path as NSString).lastPathComponent + "/drawer-after.log",
            dir.path + "/link.log")
        #expect(linked.status == 64)
        #expect(Self.unchanged(log, original))
        // A baseline or a playbook is an input too.
        let json = dir.path + "/saved.json"
        _ = await memhunt("run", "--format", "json", "-o", json, log)
        let saved = try #require(FileManager.default.contents(atPath: json))
        let baseline = await memhunt("run", "--baseline", json, "-o", json, log)
        #expect(baseline.status == 64)
        #expect(FileManager.default.contents(atPath: json) == saved)
    }

    @Test func reportAndPostmortemRefuseToReplaceTheirInput() async throws {
        let dir = try Self.justsend()
        defer { dir.remove() }
        let json = dir.path + "/x.json"
        _ = await memhunt("run", "--format", "json", "-o", json, dir.path + "/drawer-after.log")
        let saved = try #require(FileManager.default.contents(atPath: json))
        for arguments in [
            ["report", json, "-o", json], ["postmortem", json, "-o", json], ["postmortem", json, "--output", json],
            ["postmortem", "--template", json, json, "-o", json],
        ] {
            let run = await memhunt(arguments)
            #expect(run.status == 64, "\(arguments)")
            #expect(run.stderr.contains("is an input of this run"), "\(run.stderr)")
            #expect(FileManager.default.contents(atPath: json) == saved)
        }
        try dir.write("template.md", "# {{app}}\n")
        let template = await memhunt(
            "postmortem", "--template", dir.path + "/template.md", json, "-o", dir.path + "/template.md")
        #expect(template.status == 64)
        #expect(FileManager.default.contents(atPath: dir.path + "/template.md") == Data("# {{app}}\n".utf8))
        // Another file is written as before.
        let fine = await memhunt("report", json, "-o", dir.path + "/y.txt")
        #expect(fine.status == 0)
    }
}

extension HostileInputTests {
    /// `-o` naming the file standard input was redirected from replaced it, exit 0 (`memhunt run - -o x.log <
    /// x.log`): fd 0 is an input like a named operand.
    @Test func anOutputThatIsStandardInputIsRefused() async throws {
        let dir = try Self.justsend()
        defer { dir.remove() }
        let log = dir.path + "/drawer-after.log"
        let original = try Repo.bytes("justsend/drawer-after.log")
        let json = dir.path + "/g.json"
        _ = await memhunt("run", "--format", "json", "-o", json, log)
        let saved = try #require(FileManager.default.contents(atPath: json))
        for (arguments, input) in [
            (["run", "-", "-o", log], log), (["report", "-", "--format", "html", "-o", json], json),
            (["postmortem", "--output", json, "-"], json),
        ] {
            let run = try await BinaryTests.execute(arguments, stdin: input)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("it is an input of this run (standard input)"), "\(run.stderr)")
        }
        #expect(Self.unchanged(log, original))
        #expect(FileManager.default.contents(atPath: json) == saved)
        // Standard input from another file: the output is written.
        let fine = try await BinaryTests.execute(["report", "-", "-o", dir.path + "/r.txt"], stdin: json)
        #expect(fine.status == 0, "\(fine.stderr)")
    }

    /// The same record in other bytes counted twice: a CRLF copy, the UTF-16 copy, a fenced paste, the JSON
    /// re-serialised. Records are keyed by what identifies them (a crash's incident, a JetsamEvent's device and
    /// date), as identical bytes already are; a fragment gives way to the whole record.
    @Test func theSameRecordInOtherBytesCountsOnce() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let jetsam = try Repo.bytes("justsend/JetsamEvent-2026-08-11-112056.ips")
        let text = String(decoding: jetsam, as: UTF8.self)
        try dir.write("a-original.ips", jetsam)
        try dir.write("b-crlf.ips", text.replacingOccurrences(of: "\n", with: "\r\n"))
        try dir.write("c-utf16.ips", [0xFF, 0xFE] + [UInt8](text.data(using: .utf16LittleEndian)!))
        try dir.write("d-pasted.md", "Here is the record:\n\n```\n" + text + "\n```\n")
        let crash = try Repo.bytes("watchdog/JustSend-2026-08-13-224107.ips")
        let crashText = String(decoding: crash, as: UTF8.self)
        try dir.write("e-crash.ips", crash)
        try dir.write("f-crash-crlf.ips", crashText.replacingOccurrences(of: "\n", with: "\r\n"))
        let run = await memhunt("run", "--app", "JustSend", "--format", "json", dir.path)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let artifacts = try #require(document["artifacts"] as? [[String: Any]])
        let duplicates = artifacts.filter { $0["duplicateOf"] != nil }.compactMap { $0["source"] as? String }
        #expect(
            duplicates.map { ($0 as NSString).lastPathComponent } == [
                "b-crlf.ips", "c-utf16.ips", "d-pasted.md", "f-crash-crlf.ips",
            ], "\(artifacts.map { ($0["source"] ?? "", $0["status"] ?? "") })")
        let facts = try #require(document["facts"] as? [String: Any])
        #expect(facts["jetsam.app.peakMB"] as? Double == 725)
        #expect(facts["crash.reports"] as? Int == 1, "\(facts["crash.reports"] ?? "none")")
        let crlf = try #require(artifacts.first { ($0["source"] as? String)?.hasSuffix("b-crlf.ips") == true })
        let words = (crlf["diagnostics"] as? [String] ?? []).joined()
        #expect(words.contains("the same record as \(dir.path)/a-original.ips (JetsamEvent of device "), "\(words)")
    }

    /// `GITHUB_STEP_SUMMARY` was appended to whatever it named: an input, or a link to one.
    @Test func theJobSummaryIsNeverAnInput() async throws {
        let dir = try Self.justsend()
        defer { dir.remove() }
        let log = dir.path + "/drawer-after.log"
        let original = try Repo.bytes("justsend/drawer-after.log")
        symlink(log, dir.path + "/summary.md")
        for summary in [log, dir.path + "/summary.md"] {
            let run = await memhunt(
                ["run", "--format", "github", log], environment: ["GITHUB_STEP_SUMMARY": summary])
            #expect(run.status == 2, "\(run.stderr)")
            #expect(
                run.stderr.contains(
                    "GITHUB_STEP_SUMMARY names \(summary), an input of this run (\(log)), which memhunt never writes to"
                ),
                "\(run.stderr)")
            #expect(Self.unchanged(log, original))
        }
    }

    @Test func triagesPostmortemPromptRefusesAnArtifactAndAsksAgain() async throws {
        let dir = try Self.justsend()
        defer { dir.remove() }
        let jetsam = dir.path + "/JetsamEvent-2026-08-11-112056.ips"
        let original = try Repo.bytes("justsend/JetsamEvent-2026-08-11-112056.ips")
        var answers = TriageTests.answers
        answers[4] = jetsam
        answers += [jetsam, dir.path + "/../" + (dir.path as NSString).lastPathComponent + "/session.json"]
        answers += [dir.path + "/postmortem.md", ""]
        let run = await TriageTests.triage(["--session", dir.path + "/session.json"], answers: answers)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("\(jetsam) is an input of this hunt (\(jetsam)), which memhunt never replaces"))
        #expect(run.stderr.contains("session.json is an input of this hunt"))
        #expect(run.stderr.contains("Wrote the postmortem draft to \(dir.path)/postmortem.md."))
        #expect(Self.unchanged(jetsam, original))
    }
}

// MARK: - Session files from outside (defect 4)

extension HostileInputTests {
    /// `session` with `field` (a dotted path) set to `value`.
    static func tamper(_ session: String, _ field: String, _ value: Any) throws {
        var root = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: session))) as? [String: Any])
        let keys = field.split(separator: ".").map(String.init)
        if keys.count == 2 {
            var inner = try #require(root[keys[0]] as? [String: Any])
            inner[keys[1]] = value
            root[keys[0]] = inner
        } else {
            root[field] = value
        }
        try JSONSerialization.data(withJSONObject: root).write(to: URL(fileURLWithPath: session))
    }

    @Test func aResumedSessionWritesOnlyInItsFolderAndOnlyWhatItWrote() async throws {
        let dir = try Self.justsend()
        let victim = try TemporaryDirectory()
        defer {
            dir.remove()
            victim.remove()
        }
        try victim.write("victim.txt", "keep")
        try dir.write("here.txt", "keep")
        symlink(victim.path + "/victim.txt", dir.path + "/link.txt")
        let session = dir.path + "/session.json"
        let first = await TriageTests.triage(
            ["--session", session, "-o", dir.path + "/report.txt"], answers: Array(TriageTests.answers[..<4]))
        #expect(first.status == 2, "input ended before the end")
        let saved = try #require(FileManager.default.contents(atPath: session))
        let recorded = try #require(try JSONSerialization.jsonObject(with: saved) as? [String: Any])
        #expect(recorded["output"] as? String == "report.txt", "recorded relative to the session's folder")
        #expect(recorded["schema"] as? String == "memhunt.triage/2")
        let cases: [(String, Any, String)] = [
            (
                "output", victim.path + "/victim.txt",
                "field 'output' of the triage session '\(victim.path)/victim.txt' is absolute"
            ),
            (
                "output", "../" + (victim.path as NSString).lastPathComponent + "/victim.txt",
                "leaves the session's folder"
            ),
            ("output", "link.txt", "resolves outside the session's folder"),
            ("output", "here.txt", "is a file this session did not write"),
            ("output", "session.json", "is an input of the session"),
            ("format", "evil", "field 'format' of the triage session is 'evil', not one of"),
            ("schema", "memhunt.triage/9", "field 'schema' of the triage session is 'memhunt.triage/9'"),
            ("operands", ["x\u{1B}]0;PWNED\u{07}"], "field 'operands[0]'"),
            ("session.cursor", "x", "field 'session.cursor': expected"),
            ("session.cursor", 99, "field 'session.cursor' of the triage session is 99"),
        ]
        for (field, value, expected) in cases {
            try saved.write(to: URL(fileURLWithPath: session))
            try Self.tamper(session, field, value)
            let resumed = await TriageTests.triage(["--resume", session], answers: Array(TriageTests.answers[4...]))
            #expect(resumed.status == 2, "\(field) = \(value)")
            #expect(resumed.stderr.contains(expected), "\(field) = \(value): \(resumed.stderr.suffix(400))")
            #expect(!resumed.stderr.unicodeScalars.contains { $0.value == 0x1B })
            #expect(try String(contentsOfFile: victim.path + "/victim.txt", encoding: .utf8) == "keep")
            #expect(try String(contentsOfFile: dir.path + "/here.txt", encoding: .utf8) == "keep")
        }
        // The session as saved resumes and writes its report beside itself; resumed again, it replaces it.
        try saved.write(to: URL(fileURLWithPath: session))
        let resumed = await TriageTests.triage(["--resume", session], answers: Array(TriageTests.answers[4...]))
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir.path + "/report.txt"))
        let again = await TriageTests.triage(["--resume", session], answers: [])
        #expect(again.status == 0, "\(again.stderr)")
    }
}

// MARK: - Found by the hostile suite (HostileSuiteTests)

extension HostileInputTests {
    /// `run --app` looked for the app's name in the files it could not read, and opened a FIFO among them: the run
    /// waited for a writer for ever.
    @Test func runWithAnAppOverAFolderWithAFIFOEnds() async throws {
        let dir = try Self.justsend()
        defer { dir.remove() }
        #expect(mkfifo(dir.path + "/fifo.ips", 0o600) == 0)
        // An app the complete JetsamEvent leaves out is an answer: the walk ends, the FIFO never opened…
        let nobody = await memhunt("run", "--app", "Nobody", "--format", "json", dir.path)
        #expect(nobody.status == 0, "\(nobody.stderr)")
        #expect(nobody.stdout.contains("\"jetsam-rank.not-listed\""))
        // …and one that the record names walks every step, the FIFO reported as what it is.
        let run = await memhunt("run", "--app", "JustSend", "--format", "json", dir.path)
        let document = try FindingsDocument.decode(Array(run.stdout.utf8))
        let fifo = try #require(document.artifacts.first { $0.source == dir.path + "/fifo.ips" })
        #expect(fifo.diagnostics == ["not a regular file"])
    }

    /// An empty folder given to `inspect` or `scan` was passed over in silence, exit 0.
    @Test func inspectAndScanNameAnEmptyFolder() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path + "/empty", withIntermediateDirectories: false)
        for command in ["inspect", "scan"] {
            let run = await memhunt(command, dir.path + "/empty")
            #expect(run.status == 2, "\(command)")
            #expect(run.stderr == "memhunt: exit 2: \(dir.path)/empty: no files to read\n", "\(command): \(run.stderr)")
        }
    }

    /// The text report's comparison lines showed a measurement's label raw: an ESC in it reached the terminal.
    @Test func theTextReportEscapesComparisonLabels() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write(
            "m.csv",
            "label,footprint_mb,time\n\"a\u{1B}]0;PWNED\u{07}\",5,2026-01-01 00:00:00\nb,600,2026-01-01 00:01:00\n")
        let run = await memhunt("run", dir.path + "/m.csv")
        #expect(run.stdout.contains(#"a\u{1B}]0;PWNED\u{07}"#), "\(run.stdout)")
        #expect(!run.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    /// A FIFO or a device given as the playbook was "permission denied".
    @Test func aPlaybookThatIsNoRegularFileSaysSo() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(mkfifo(dir.path + "/p.yaml", 0o600) == 0)
        for path in [dir.path + "/p.yaml", "/dev/zero"] {
            let run = await memhunt("validate", path)
            #expect(run.status == 2)
            #expect((run.stdout + run.stderr).contains("cannot read playbook '\(path)': not a regular file"))
        }
    }
}
