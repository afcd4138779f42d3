import Foundation
import MemhuntTestSupport
import Testing

/// `.memhunt.yml`: found from the working directory, applied under the flags, validated with places; its
/// suppressions listed with their reasons and out of the gate. Run with the built binary in a folder of its own
/// (the in-process runs share the tests' working directory).
@Suite(.serialized) struct ProjectFileTests {
    /// `memhunt ARGS` run in `directory`.
    static func run(in directory: String, _ arguments: String) async throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let binary = try #require(BinaryTests.binary)
        return try await Tool.run("/bin/sh", ["-c", "cd '\(directory)' && '\(binary)' \(arguments)"])
    }

    static func folder(_ project: String, copying fixtures: [String]) throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path + "/artifacts", withIntermediateDirectories: true)
        for fixture in fixtures {
            let name = (fixture as NSString).lastPathComponent
            try FileManager.default.copyItem(atPath: Repo.fixture(fixture), toPath: dir.path + "/artifacts/" + name)
        }
        try dir.write(".memhunt.yml", project)
        return dir
    }

    @Test(.enabled(if: BinaryTests.binary != nil, "needs the built memhunt executable"))
    func aRunWithNoFlagsUsesTheFilesAppPlaybookGateAndFormats() async throws {
        let dir = try Self.folder(
            """
            # A team's settings.
            app: Transit
            playbook: memory-hunt
            fail_on: notice
            artifacts: [artifacts]
            reports: { formats: [json, sarif], folder: out }
            """, copying: ["several-apps"])
        defer { dir.remove() }
        let run = try await Self.run(in: dir.path + "/artifacts", "run")
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("memhunt: project file \(dir.path)/.memhunt.yml"), "\(run.stderr)")
        #expect(run.stderr.contains("at notice or above (\(dir.path)/.memhunt.yml's fail_on: notice)"))
        #expect(run.stdout.contains("Subject: Transit"))
        let json = try #require(FileManager.default.contents(atPath: dir.path + "/out/findings.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect((document["subject"] as? [String: Any])?["app"] as? String == "Transit")
        #expect(FileManager.default.fileExists(atPath: dir.path + "/out/findings.sarif"))
        // A flag decides last.
        let flagged = try await Self.run(in: dir.path, "run --fail-on critical --app Locker")
        #expect(flagged.status == 0, "\(flagged.stderr)")
        #expect(flagged.stdout.contains("Subject: Locker"))
    }

    @Test(.enabled(if: BinaryTests.binary != nil, "needs the built memhunt executable"))
    func aSuppressionIsListedWithItsReasonAndDoesNotGateUntilItExpires() async throws {
        let project = """
            app: JustSendWidgetTests
            playbook: widget-budget
            artifacts: [artifacts]
            suppress:
              - code: xctest-memory.over-ceiling
                reason: Budget raised to 32 MB in ticket WID-12
                owner: "@widgets"
                expires: DATE
            """
        let dir = try Self.folder(
            project.replacingOccurrences(of: "DATE", with: "2099-01-01"),
            copying: ["xctest/xcodebuild-widget-ceiling.log"])
        defer { dir.remove() }
        let accepted = try await Self.run(in: dir.path, "run")
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout.contains("Suppressions (1)"))
        #expect(
            accepted.stdout.contains(
                "[xctest-memory.over-ceiling]: Budget raised to 32 MB in ticket WID-12 (@widgets), until 2099-01-01"))
        #expect(accepted.stdout.contains("Summary: 2 info · 1 suppressed"))
        let sarif = try await Self.run(in: dir.path, "run --format sarif")
        #expect(sarif.stdout.contains("\"justification\": \"Budget raised to 32 MB in ticket WID-12 (@widgets)\""))
        let json = try await Self.run(in: dir.path, "run --format json")
        #expect(json.stdout.contains("\"reason\": \"Budget raised to 32 MB in ticket WID-12\""))
        try dir.write(".memhunt.yml", project.replacingOccurrences(of: "DATE", with: "2020-01-01"))
        let expired = try await Self.run(in: dir.path, "run")
        #expect(expired.status == 1, "\(expired.stderr)")
        #expect(expired.stdout.contains("ended 2020-01-01: what it named is reported again"))
        #expect(expired.stdout.contains("1 suppression expired"))
    }

    @Test(.enabled(if: BinaryTests.binary != nil, "needs the built memhunt executable"))
    func aProjectFileWithProblemsNamesEachAtItsPlace() async throws {
        let dir = try Self.folder(
            "app: X\nplaybok: widget-budget\nchecks:\n  xctest-memory: { limit_mbb: 30 }\nsuppress:\n  - code: x\n",
            copying: [])
        defer { dir.remove() }
        let run = try await Self.run(in: dir.path, "run")
        #expect(run.status == 2)
        #expect(
            run.stderr.contains(
                ".memhunt.yml:2:1: error: unknown key 'playbok' in the project file (did you mean 'playbook'?)"))
        #expect(
            run.stderr.contains(
                ".memhunt.yml:4:20: error: unknown parameter 'limit_mbb' for check 'xctest-memory' (did you mean 'limit_mb'?)"
            ))
        #expect(run.stderr.contains(".memhunt.yml:6:5: error: missing required key 'reason' in a suppression"))
        #expect(
            run.stderr.hasSuffix("Error: \(dir.path)/.memhunt.yml: the project file has 3 problems\n"), "\(run.stderr)")
        let validate = try await Self.run(in: dir.path, "validate .memhunt.yml")
        #expect(validate.status == 2)
        // --no-config reads none.
        let none = try await Self.run(in: dir.path, "run --no-config artifacts")
        #expect(!none.stderr.contains("project file"))
    }
}

/// `memhunt init` writes the file a run then reads; `memhunt suppress` adds an accepted finding to it.
@Suite(.serialized) struct ProjectInitTests {
    @Test(.enabled(if: BinaryTests.binary != nil, "needs the built memhunt executable"))
    func initOnJustSendReproducesTheExamplesRun() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.copyItem(atPath: Repo.fixture("justsend"), toPath: dir.path + "/justsend")
        let folder = dir.path + "/justsend"
        let written = try await ProjectFileTests.run(in: dir.path, "init justsend")
        #expect(written.status == 0, "\(written.stderr)")
        let text = try String(contentsOfFile: folder + "/.memhunt.yml", encoding: .utf8)
        #expect(text.contains("\napp: \"JustSend\"\n") && text.contains("\nplaybook: \"memory-hunt\"\n"))
        let validate = try await ProjectFileTests.run(in: dir.path, "validate justsend/.memhunt.yml")
        #expect(validate.status == 0 && validate.stdout.contains("ok (a project file)"), "\(validate.stdout)")
        // The example's run (`scripts/example`: run --app JustSend Fixtures/justsend) and a bare run there agree.
        let bare = try await ProjectFileTests.run(in: folder, "run --format json")
        let example = await memhunt("run", "--app", "JustSend", "--format", "json", "Fixtures/justsend")
        func summary(_ json: String) throws -> (signatures: [String], facts: NSDictionary) {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let findings = object["findings"] as? [[String: Any]] ?? []
            return (
                findings.compactMap { $0["signature"] as? String }.sorted(), object["facts"] as? NSDictionary ?? [:]
            )
        }
        let (ours, theirs) = (try summary(bare.stdout), try summary(example.stdout))
        #expect(ours.signatures.count == 14 && ours.signatures == theirs.signatures)
        #expect(ours.facts == theirs.facts)
        // Not over a file that is there.
        let again = try await ProjectFileTests.run(in: dir.path, "init justsend")
        #expect(again.status == 2 && again.stderr.contains("is already there: memhunt init --force replaces it"))
    }

    @Test(.enabled(if: BinaryTests.binary != nil, "needs the built memhunt executable"))
    func suppressAddsAnEntryAndKeepsTheRest() async throws {
        let dir = try ProjectFileTests.folder(
            "# Our settings.\napp: JustSendWidgetTests  # the extension's tests\nplaybook: widget-budget\nartifacts: [artifacts]\n",
            copying: ["xctest/xcodebuild-widget-ceiling.log"])
        defer { dir.remove() }
        let before = try await ProjectFileTests.run(in: dir.path, "run --format json")
        #expect(before.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(before.stdout.utf8)) as? [String: Any])
        let finding = try #require(
            (object["findings"] as? [[String: Any]])?.first { $0["code"] as? String == "xctest-memory.over-ceiling" })
        let signature = try #require(finding["signature"] as? String)
        let noReason = try await ProjectFileTests.run(in: dir.path, "suppress \(signature)")
        #expect(noReason.status == 64)
        let added = try await ProjectFileTests.run(
            in: dir.path, "suppress \(signature) --reason 'Raised to 32 MB, WID-12' --expires 2099-01-01")
        #expect(added.status == 0, "\(added.stderr)")
        let text = try String(contentsOfFile: dir.path + "/.memhunt.yml", encoding: .utf8)
        #expect(text.hasPrefix("# Our settings.\napp: JustSendWidgetTests  # the extension's tests\n"))
        #expect(
            text.contains(
                "suppress:\n  - {signature: \"\(signature)\", reason: \"Raised to 32 MB, WID-12\", expires: \"2099-01-01\"}"
            ))
        let after = try await ProjectFileTests.run(in: dir.path, "run")
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout.contains(": Raised to 32 MB, WID-12, until 2099-01-01"))
        let bad = try await ProjectFileTests.run(in: dir.path, "suppress 12345 --reason x")
        #expect(bad.status == 2 && bad.stderr.contains("'signature' is 16 hex digits"), "\(bad.stderr)")
    }
}
