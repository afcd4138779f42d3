import Foundation
import MemhuntTestSupport
import Testing

/// The ways memhunt ships: the Homebrew formula's test block, the release script's tarballs, and the GitHub
/// workflow and action linted (schemas, shellcheck of their scripts, their expressions' references).
@Suite struct ShippingTests {
    /// Runs `command` with `arguments` in `directory`.
    static func run(_ command: String, _ arguments: [String], in directory: String = Repo.root) throws -> (
        status: Int32, output: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test(.enabled(if: BinaryTests.binary != nil && Tool.which("ruby") != nil))
    func theFormulasTestBlockRunsMemhuntVersion() throws {
        let ruby = try #require(Tool.which("ruby")), binary = try #require(BinaryTests.binary)
        let formula = try String(contentsOfFile: Repo.root + "/Formula/memhunt.rb", encoding: .utf8)
        #expect(formula.contains("shell_output(\"#{bin}/memhunt --version\")"))
        let result = try Self.run(ruby, ["Tests/Support/brew_formula.rb", "Formula/memhunt.rb", binary])
        #expect(result.status == 0, "\(result.output)")
        #expect(
            result.output.contains("install: swift build --disable-sandbox --configuration release --product memhunt"))
        #expect(result.output.contains("test block passed with version 0.2.0"), "\(result.output)")
    }

    /// The release script, on a copy of what it reads in a repository of its own: the binary's tarball and
    /// the source tarball check with `sha256sum -c`, and the formula gets the source tarball's url and sum.
    @Test(.enabled(if: BinaryTests.binary != nil && Tool.which("sha256sum") != nil && Tool.which("ruby") != nil))
    func theReleaseScriptWritesTarballsTheirSumsAndTheFormula() throws {
        let binary = try #require(BinaryTests.binary), git = try #require(Tool.which("git"))
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let files = FileManager.default
        for path in ["scripts/release", "Formula/memhunt.rb", "Sources/MemhuntCLI/Memhunt.swift", "README.md"] {
            try files.createDirectory(
                atPath: dir.path + "/" + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true
            )
            try files.copyItem(atPath: Repo.root + "/" + path, toPath: dir.path + "/" + path)
        }
        for arguments in [
            ["init", "-q"], ["add", "."],
            ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "release test"],
        ] {
            #expect(try Self.run(git, arguments, in: dir.path).status == 0)
        }
        let release = try Self.run(
            "/bin/bash",
            [
                "scripts/release", "--binary", binary, "--out", "dist", "--url-base", "https://example.test/memhunt",
                "--formula",
            ],
            in: dir.path)
        #expect(release.status == 0, "\(release.output)")
        let check = try Self.run(
            "/bin/sh", ["-c", "sha256sum -c memhunt-0.2.0.tar.gz.sha256 memhunt-0.2.0-*.tar.gz.sha256"],
            in: dir.path + "/dist")
        #expect(check.status == 0 && check.output.components(separatedBy: ": OK").count == 3, "\(check.output)")
        let listing = try Self.run("/bin/sh", ["-c", "tar -tzf memhunt-0.2.0-*.tar.gz"], in: dir.path + "/dist")
        #expect(
            listing.output.contains("/bin/memhunt\n") && listing.output.contains("/bash-completion/completions/memhunt")
        )
        let sum = try String(contentsOfFile: dir.path + "/dist/memhunt-0.2.0.tar.gz.sha256", encoding: .utf8)
            .prefix(64)
        let formula = try String(contentsOfFile: dir.path + "/Formula/memhunt.rb", encoding: .utf8)
        #expect(formula.contains("  url \"https://example.test/memhunt/archive/refs/tags/v0.2.0.tar.gz\"\n"))
        #expect(formula.contains("  sha256 \"\(sum)\"\n"))
        let ruby = try #require(Tool.which("ruby"))
        #expect(
            try Self.run(
                ruby, [Repo.root + "/Tests/Support/brew_formula.rb", "Formula/memhunt.rb", binary], in: dir.path
            ).status == 0)
    }

    /// The workflow and the action pass the lint CI runs; a typo in an input's name and an unquoted variable
    /// in a script are caught.
    @Test(.enabled(if: Tool.which("check-jsonschema") != nil && Tool.which("shellcheck") != nil))
    func theWorkflowsAndTheActionPassTheLintThatCatchesTheirMistakes() throws {
        let lint = try Self.run("/bin/bash", ["scripts/lint-actions"])
        #expect(lint.status == 0, "\(lint.output)")
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let files = FileManager.default
        try files.createDirectory(atPath: dir.path + "/scripts", withIntermediateDirectories: true)
        try files.createDirectory(atPath: dir.path + "/.github/workflows", withIntermediateDirectories: true)
        for path in ["scripts/lint-actions", "scripts/lint-actions.py", ".github/workflows/ci.yml"] {
            try files.copyItem(atPath: Repo.root + "/" + path, toPath: dir.path + "/" + path)
        }
        let action = try String(contentsOfFile: Repo.root + "/action.yml", encoding: .utf8)
        let broken = action.replacingOccurrences(of: "inputs.summary ==", with: "inputs.sumary ==")
            .replacingOccurrences(of: "--format markdown \"$FINDINGS\"", with: "--format markdown $FINDINGS")
        #expect(broken != action)
        try dir.write("action.yml", broken)
        let caught = try Self.run("/bin/bash", ["scripts/lint-actions"], in: dir.path)
        #expect(caught.status == 1)
        #expect(
            caught.output.contains(
                "inputs.sumary is not declared (known: args, summary, upload-sarif, working-directory)"))
        #expect(
            caught.output.contains("run script: note: Double quote to prevent globbing and word splitting. [SC2086]"))
    }
}
