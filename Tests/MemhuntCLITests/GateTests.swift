import Foundation
import MemhuntTestSupport
import Testing

/// Exit 2 whenever the hunt could not be done as asked; the reason on stderr.
@Suite struct GateTests {
    /// A path that does not exist stops the run before the walk with one `Error:` line, as an unknown `--app`
    /// does (it printed eight steps of guidance first).
    @Test func aMissingOperandStopsBeforeTheWalk() async throws {
        for format in ["text", "json"] {
            let run = await memhunt("run", "--fail-on", "warning", "--format", format, "/nonexistent")
            #expect(run.status == 2)
            #expect(run.stderr == "Error: /nonexistent: no such file or directory\n", "\(run.stderr)")
            #expect(run.stdout == "")
        }
        let device = await memhunt("run", "Fixtures/justsend", "/dev/null")
        #expect(device.status == 2)
        #expect(device.stderr == "Error: /dev/null: not a regular file\n", "\(device.stderr)")
    }

    /// An operand that can be opened but not read as anything (empty, binary) is exit 2 after the report, and
    /// the verdict names it.
    @Test func anEmptyOperandIsExitTwoAfterTheReport() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("empty.ips", "")
        let run = await memhunt("run", "--format", "json", dir.path + "/empty.ips")
        #expect(run.status == 2)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let gate = try #require(document["gate"] as? [String: Any])
        #expect(gate["reason"] as? String == "\(dir.path)/empty.ips: empty file")
        let artifact = try #require((document["artifacts"] as? [[String: Any]])?.first)
        #expect(artifact["isOperand"] as? Bool == true)
        let verdict = try #require(document["verdict"] as? [String: Any])
        let sentences = (verdict["sentences"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        #expect(sentences.contains("1 file given is empty, so it holds nothing to read: empty.ips."), "\(sentences)")
    }

    @Test func anAppThatMatchesNothingIsExitTwoWithASuggestion() async {
        let run = await memhunt("run", "--app", "JustSnd", "Fixtures/justsend")
        #expect(run.status == 2)
        #expect(
            run.stderr.contains(
                "Error: --app JustSnd matches nothing in any artifact (did you mean 'JustSend' (in "
                    + "JetsamEvent-2026-08-11-112056.ips)?); the artifacts name "
                    + "JustSend, ChatGPT, Spotify, MobileMail, JustSendWidget, … (in JetsamEvent-2026-08-11-112056.ips)"
            ),
            "\(run.stderr)")
        // An extension the artifacts do not name: its app's family, each with the file that carries it.
        let family = await memhunt("run", "--app", "JustSendShare", "Fixtures/justsend")
        #expect(family.status == 2)
        #expect(
            family.stderr.contains(
                "(did you mean 'JustSend' or 'JustSendWidget' (in JetsamEvent-2026-08-11-112056.ips)?)"),
            "\(family.stderr)")
        // Each name with a file that carries it.
        let apps = await memhunt("run", "--app", "JustSnd", "Fixtures/several-apps")
        #expect(
            apps.stderr.contains(
                "the artifacts name JustSend (in JustSend-2026-08-16-231200.crash), Locker (in "
                    + "Locker-2026-08-15-071500.ips), Transit (in Transit-2026-08-14-101502.ips)"), "\(apps.stderr)")
        // Before the walk: one line on stderr, no report.
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stdout == "")
        let anyCase = await memhunt("run", "--app", "justsend", "Fixtures/justsend")
        #expect(anyCase.status == 0)
        #expect(anyCase.stdout.contains("jetsam.app.peakMB = 725 MB"))
        // Named as the artifacts spell it, not as typed.
        #expect(anyCase.stdout.contains("Subject: JustSend\n"))
        #expect(anyCase.stdout.contains("JustSend ranked 7 of 16 processes by lifetime peak (725 MB)"))
        #expect(!anyCase.stdout.contains("justsend ranked"))
    }

    @Test func unrecognizedFilesOfAWalkedDirectoryStayInformational() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("notes.txt", "The user said transitions stopped.\n")
        try dir.write("JetsamEvent.ips", try Repo.bytes("justsend/JetsamEvent-2026-08-11-112056.ips"))
        let run = await memhunt("run", "--app", "JustSend", dir.path)
        #expect(run.status == 0)
        #expect(run.stdout.contains("1 artifact not understood"))
    }

    @Test func crashReportsOfSeveralAppsAreEachTheirOwn() async {
        let run = await memhunt("run", "Fixtures/several-apps")
        #expect(run.status == 0)
        #expect(run.stdout.contains("Crash reports of 3 apps: JustSend 1, Locker 1, Transit 1"))
        #expect(!run.stdout.contains("3 crash reports of"))
        #expect(run.stdout.contains("Subject: not chosen: the artifacts name JustSend, Locker, Transit"))
    }
}

/// A playbook declares its gate (`fail_on:`): widget-budget fails a log over its ceiling without flags, as seed
/// 002 asks ("a pull request that blows the budget fails CI like any other broken test"); the flag decides last.
@Suite struct PlaybookDeclaredGateTests {
    @Test func widgetBudgetFailsOverTheCeilingWithoutFlags() async {
        let over = await memhunt(
            "run", "--playbook", "widget-budget", "--app", "JustSendWidgetTests",
            "Fixtures/xctest/xcodebuild-widget-ceiling.log")
        #expect(over.status == 1, "\(over.stderr)")
        #expect(
            over.stderr.contains("at warning or above (the playbook widget-budget's fail_on: warning)"),
            "\(over.stderr)")
        let under = await memhunt(
            "run", "--playbook", "widget-budget", "--app", "JustSendWidgetTests",
            "Fixtures/xctest/xcodebuild-widget-under.log")
        #expect(under.status == 0, "\(under.stderr)")
        // The flag decides last: critical lets a warning through.
        let flag = await memhunt(
            "run", "--playbook", "widget-budget", "--fail-on", "critical", "--app", "JustSendWidgetTests",
            "Fixtures/xctest/xcodebuild-widget-ceiling.log")
        #expect(flag.status == 0, "\(flag.stderr)")
    }

    @Test func aGateOfNoSeverityIsAPlaybookErrorWithTheClosest() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write(
            "gate.yaml",
            "id: gate\ntitle: Gate\nsummary: A gate.\nfail_on: warnig\nsteps:\n  - id: one\n    title: One\n")
        let run = await memhunt("validate", dir.path + "/gate.yaml")
        #expect(run.status != 0)
        #expect(
            (run.stdout + run.stderr).contains(
                "gate.yaml:4:10: error: 'fail_on' must be one of info, notice, warning, critical; got 'warnig' (did you mean 'warning'?)"
            ),
            "\(run.stdout)\(run.stderr)")
        // As fields in JSON: the place, the level and the key it rejects.
        let json = await memhunt("validate", "--format", "json", dir.path + "/gate.yaml")
        let outcomes = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let problem = try #require((outcomes.first?["problems"] as? [[String: Any]])?.first)
        #expect(problem["line"] as? Int == 4 && problem["column"] as? Int == 10)
        #expect(problem["key"] as? String == "fail_on" && problem["level"] as? String == "error")
    }
}

/// One style for a stopping error: its last line is `Error: …`, whatever the command.
@Suite struct ErrorStyleTests {
    @Test func scanAndValidateStopWithAnErrorLine() async {
        let scan = await memhunt("scan", "--app", "Nope", "Fixtures/justsend")
        #expect(scan.status == 2)
        #expect(scan.stderr.hasPrefix("Error: no record names the app 'Nope'; the records name "), "\(scan.stderr)")
        let validate = await memhunt("validate", "nope-id")
        #expect(validate.status == 2)
        #expect(validate.stderr.hasSuffix("Error: 1 of 1 file invalid\n"), "\(validate.stderr)")
    }
}
