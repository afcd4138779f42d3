import Foundation
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// What the text report says with `-q` and `-v`, at the width `COLUMNS` gives, and what the completion scripts
/// offer for each option and argument.
// Serialized: its in-process hunts, run side by side, held both threads of the cooperative pool for seconds.
@Suite(.serialized) struct TerminalOutputTests {
    @Test func quietPrintsTheVerdictAndTheSummaryOnly() async {
        let quiet = await memhunt("run", "--app", "JustSend", "-q", "Fixtures/justsend")
        #expect(quiet.status == 0)
        #expect(quiet.stderr == "")
        #expect(
            quiet.stdout.hasPrefix("The eight-step memory hunt  (playbook memory-hunt)\nSubject: JustSend\n\nVerdict\n")
        )
        #expect(quiet.stdout.contains("   JustSend ranked 7 of 16 processes by lifetime peak (725 MB). (step 2)\n"))
        #expect(quiet.stdout.contains("   JustSend held 122 MB while suspended. (step 3)\n"))
        #expect(quiet.stdout.hasSuffix(")\n\nSummary: 7 warnings, 4 notices, 3 info\n"))
        #expect(!quiet.stdout.contains("jetsam.app.peakMB") && !quiet.stdout.contains("Artifacts (8)"))
        #expect(quiet.stdout.split(separator: "\n").count == 15)
        // The gate line stays.
        let gated = await memhunt("run", "--app", "JustSend", "--quiet", "--fail-on", "warning", "Fixtures/justsend")
        #expect(gated.status == 1)
        #expect(gated.stderr == "memhunt: exit 1: 7 findings at warning or above (--fail-on warning)\n")
        #expect(gated.stdout == quiet.stdout)
        // A file written quietly: no note.
        let dir = try? TemporaryDirectory()
        defer { dir?.remove() }
        let written = await memhunt(
            "run", "--app", "JustSend", "-q", "-o", (dir?.path ?? "") + "/r.txt", "Fixtures/justsend")
        #expect(written.status == 0 && written.stderr == "" && written.stdout == "")
    }

    @Test func verboseSpellsOutWhatTheDefaultCounts() async {
        let normal = await memhunt("run", "--app", "JustSend", "Fixtures/justsend")
        #expect(normal.stdout.contains("   jetsam.topProcesses = 10 entries (all in the findings document)\n"))
        let verbose = await memhunt("run", "--app", "JustSend", "-v", "Fixtures/justsend")
        #expect(verbose.status == 0)
        #expect(!verbose.stdout.contains("entries (all in the findings document)"))
        let top = verbose.stdout.split(separator: "\n").first { $0.hasPrefix("   jetsam.topProcesses = ") } ?? ""
        #expect(top.contains("JustSend") && top.contains("725") && top.contains("ChatGPT"))
        // Each step's line on stderr as it ends, kept.
        let lines = verbose.stderr.split(separator: "\n")
        #expect(lines.count == 8, "\(verbose.stderr)")
        #expect(lines.first == "[1/8] crash-report: clear")
        #expect(lines.contains("[2/8] jetsam-record: finding"))
        #expect(verbose.stdout.count > normal.stdout.count)
    }

    /// `COLUMNS` (no terminal in-process) sets the width: no line wider, and the words all there.
    @Test func linesFitColumns() async {
        let plain = await memhunt("run", "--app", "JustSend", "Fixtures/justsend")
        func words(_ text: String) -> Int { text.split(whereSeparator: \.isWhitespace).count }
        for columns in [60, 80, 120] {
            let run = await memhunt(
                ["run", "--app", "JustSend", "Fixtures/justsend"], environment: ["COLUMNS": String(columns)])
            #expect(run.status == 0)
            let wide = run.stdout.split(separator: "\n").filter { $0.count > columns }
            #expect(wide.isEmpty, "\(columns): \(wide)")
            #expect(words(run.stdout) >= words(plain.stdout))
            #expect(run.stdout.contains("Summary: 7 warnings, 4 notices, 3 info"))
        }
    }

    @Test func completionsOfferEachValueWhereItBelongs() {
        let root = MemhuntCommands.root
        func option(_ command: String, _ name: String) -> OptionSpec? {
            root.command(at: ["memhunt", command])?.options.first { $0.long == name }
        }
        #expect(
            option("run", "format").map(ShellCompletions.values)
                == .words(["github", "html", "json", "junit", "markdown", "sarif", "text"]))
        #expect(
            option("run", "fail-on").map(ShellCompletions.values) == .words(["info", "notice", "warning", "critical"]))
        #expect(option("run", "app").map(ShellCompletions.values) == ShellCompletions.Values.none)
        #expect(option("run", "header").map(ShellCompletions.values) == ShellCompletions.Values.none)
        #expect(option("run", "deadline").map(ShellCompletions.values) == ShellCompletions.Values.none)
        #expect(option("run", "output").map(ShellCompletions.values) == .files)
        #expect(option("run", "baseline").map(ShellCompletions.values) == .files)
        guard case .wordsAndFiles(let ids)? = option("run", "playbook").map(ShellCompletions.values) else {
            Issue.record("--playbook completes to ids and files")
            return
        }
        #expect(ids.contains("memory-hunt") && ids.contains("navigation-growth"))
        #expect(
            option("attach", "to").map(ShellCompletions.values)
                == .prefixes(["github:", "gitlab:", "jira:", "redmine:", "webhook:"]))
        let shell = root.command(at: ["memhunt", "completions"])?.arguments.first
        #expect(shell.map(ShellCompletions.values) == .words(["bash", "fish", "zsh"]))

        let bash = ShellCompletions.bash(root)
        #expect(bash.contains("complete -F _memhunt memhunt\n"))
        #expect(!bash.contains("-o filenames -F"), "file names only where a file is asked for")
        #expect(bash.contains("                --app) return;;\n"))
        #expect(
            bash.contains(
                "                --format) _memhunt_words \"github html json junit markdown sarif text\"; return;;\n"))
        #expect(bash.contains("                --fail-on) _memhunt_words \"info notice warning critical\"; return;;\n"))
        #expect(bash.contains("                0) _memhunt_words \"bash fish zsh\"; return;;\n"))
        let zsh = ShellCompletions.zsh(root)
        #expect(zsh.contains("'--app[The app under investigation - a process name or a bundle id.]:name: '"))
        #expect(zsh.contains("':shell:(bash fish zsh)'"))
        let fish = ShellCompletions.fish(root)
        #expect(fish.contains("-l app -x -d"))
        #expect(fish.contains("-l format -x -a 'github html json junit markdown sarif text'"))
        #expect(fish.contains("-n '__fish_seen_subcommand_from completions' -a 'bash fish zsh'\n"))
    }

    /// fish's own completion engine (`complete -C`) over the generated script, in a folder holding `checks/`.
    @Test(.enabled(if: Tool.which("fish") != nil, "fish is not installed"))
    func fishCompletesAsThePersonExpects() async throws {
        let fish = try #require(Tool.which("fish"))
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.path + "/checks", withIntermediateDirectories: false)
        try dir.write("memhunt.fish", ShellCompletions.fish(MemhuntCommands.root))
        func complete(_ line: String) async throws -> [String] {
            let run = try await Tool.run(
                fish, ["-c", "cd '\(dir.path)'; source memhunt.fish; complete -C '\(line)'"])
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        }
        #expect(try await complete("memhunt chec") == ["checks"])
        #expect(
            try await complete("memhunt run --format ") == [
                "github", "html", "json", "junit", "markdown", "sarif", "text",
            ])
        #expect(try await complete("memhunt run --app ") == [])
        #expect(try await complete("memhunt completions ") == ["bash", "fish", "zsh"])
        #expect(try await complete("memhunt run --fail-on ") == ["critical", "info", "notice", "warning"])
        let playbooks = try await complete("memhunt run --playbook ")
        #expect(playbooks.contains("memory-hunt") && playbooks.contains("checks/"))
    }
}
