import Foundation
import MemhuntTestSupport
import Testing

/// The real binary in a real 80-column terminal with bash: `Tests/Support/terminal_tmux.py` types completions
/// and runs the JustSend hunt; this test asserts what the screens showed.
@Suite struct TerminalTmuxTests {
    @Test(.enabled(if: TriageTerminalTests.tmux != nil && BinaryTests.binary != nil, "tmux or the binary is missing"))
    func eightyColumnsCompletionsAndProgress() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let binary = try #require(BinaryTests.binary)
        // On a thread of its own (`Tool.run`): a minute of waiting on the cooperative pool's two threads stalled
        // the timing-bound tests of other suites.
        let (status, output, _) = try await Tool.run(
            "/usr/bin/env", ["python3", Repo.root + "/Tests/Support/terminal_tmux.py", binary, Repo.root, dir.path])
        #expect(status == 0, "\(output)")
        var screens: [String: String] = [:]
        for part in output.components(separatedBy: "=== ").dropFirst() {
            let name = String(part.prefix { $0 != "\n" })
            screens[name] = String(part.dropFirst(name.count + 1))
        }
        // A subcommand completes to itself, not to the folder of that name beside it.
        let subcommand = try #require(screens["completion-subcommand"])
        #expect(subcommand.contains("memhunt checks "), "\(subcommand)")
        #expect(!subcommand.contains("checks/"), "\(subcommand)")
        let formats = try #require(screens["completion-format"])
        for format in ["github", "html", "json", "junit", "markdown", "sarif", "text"] {
            #expect(formats.contains(format), "\(format) in \(formats)")
        }
        let app = try #require(screens["completion-app"])
        #expect(!app.contains("checks/") && !app.contains("memhunt.bash"), "no file names for --app: \(app)")

        // The report wraps to the terminal's 80 columns: no line the terminal had to wrap.
        let report = try #require(screens["report"])
        #expect(report.contains("JustSend ranked 7 of 16 processes by lifetime peak (725 MB)"))
        #expect(report.contains("EXIT=0"))
        let wide = report.split(separator: "\n").filter { $0.count > 80 && !$0.hasPrefix("READY$") }
        #expect(wide.isEmpty, "lines wider than 80 columns: \(wide)")

        // Progress updated one line in place and left nothing behind.
        let progress = try #require(screens["progress"])
        #expect(progress.contains("EXIT=0"))
        let left = progress.split(separator: "\n").filter { !$0.hasPrefix("READY$") && !$0.hasPrefix("EXIT=") }
        #expect(left.allSatisfy { $0.allSatisfy(\.isWhitespace) }, "left on the screen: \(left)")
        // Piped to head, the report still fits the terminal it is read on.
        let piped = try #require(screens["piped"])
        #expect(piped.contains("JustSend ranked 7 of 16 processes"))
        let pipedWide = piped.split(separator: "\n").filter { $0.count > 80 && !$0.hasPrefix("READY$") }
        #expect(pipedWide.isEmpty, "piped lines wider than 80 columns: \(pipedWide)")
        // A 300 MB log: the share read so far, updated on one line, then replaced by how long the read took.
        let raw = try #require(screens["big-read-raw"])
        let shares = raw.components(separatedBy: "(300 MB) … ").dropFirst().compactMap {
            Int($0.prefix { $0.isNumber })
        }
        #expect(shares.count >= 2 && shares == shares.sorted() && shares.allSatisfy { $0 < 100 }, "\(shares)")
        let bigRead = try #require(screens["big-read"])
        #expect(bigRead.contains("EXIT=0") && bigRead.contains("/big.log in ") && !bigRead.contains(" %"), "\(bigRead)")
        // With -q, the verdict and the summary only: no progress line stays.
        let quiet = try #require(screens["big-quiet"])
        let shown = quiet.split(separator: "\n").filter { !$0.hasPrefix("READY$") && !$0.hasPrefix("EXIT=") }
        #expect(shown.first == "The eight-step memory hunt  (playbook memory-hunt)", "\(quiet)")
        #expect(shown.last?.hasPrefix("Summary: ") == true, "\(quiet)")
        #expect(shown.contains("Verdict") && !quiet.contains("reading ") && !quiet.contains("big.log in "), "\(quiet)")
        #expect(shown.allSatisfy { $0.count <= 80 }, "\(shown)")
        // Triage's prompts, guidance and interruption at 80 columns: cut between words only, no line the
        // terminal had to wrap but the typed answer's.
        let triage = try #require(screens["triage"])
        let typed = "The screen transition stops but scrolling still works"
        let triageLines = triage.split(separator: "\n").filter { !$0.hasPrefix("READY$") && !$0.contains(typed) }
        // The resume command stays whole on a line of its own, to copy, however long its path.
        let wideTriage = triageLines.filter { $0.count > 80 && !$0.hasPrefix("  memhunt triage --resume ") }
        #expect(wideTriage.isEmpty, "\(wideTriage)")
        let flowing = triageLines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        for sentence in [
            "It lists every process alive at that moment, not only the dead.",
            "Without a JetsamEvent there is no system-wide rank; MetricKit's peakMemoryUsage is a second source for "
                + "the peak.",
            "Enter = skip (no candidate) · numbers (1 3, 1-3, a; -2 drops 2) · path or URL · s skip · ? guidance",
            "Interrupted at step 2 (Jetsam record). The session is saved; resume it with:",
        ] {
            #expect(flowing.contains(sentence), "\(sentence) in \(flowing)")
        }
        #expect(triageLines.contains { $0.hasPrefix("  memhunt triage --resume ") && $0.hasSuffix("/session.json") })
        let written = try String(contentsOfFile: dir.path + "/report.txt", encoding: .utf8)
        #expect(written.contains("Structure is the variable: one-block 623 MB vs 2500-blocks 103 MB."))
    }
}
