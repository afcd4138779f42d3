import Foundation
import MemhuntCore

/// `memhunt init [FOLDER]`: a commented `.memhunt.yml` written from what the folder's artifacts say (the app
/// they name, its bundle id), which `memhunt run` in that folder then reads.
struct InitCommand: MemhuntCommand {
    static let force = OptionSpec("force", help: "Replace a .memhunt.yml that is already there.")

    static let spec = CommandSpec(
        "init",
        abstract: "Write a commented .memhunt.yml from what a folder of artifacts says.",
        arguments: [
            ArgumentSpec("folder", help: "The folder of artifacts (default: the working directory).", isOptional: true)
        ],
        options: [RunCommand.app, RunCommand.playbook, force, Options.quiet]
    )

    var parsed: ParsedCommand
    var console: Console

    init(_ parsed: ParsedCommand, console: Console) throws {
        self.parsed = parsed
        self.console = console
    }

    func execute() async throws -> Memhunt.ExitStatus {
        let folder = parsed.values.positionals.first ?? "."
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandError("\(folder): not a folder")
        }
        let path = (folder as NSString).appendingPathComponent(ProjectDefaults.fileName)
        if FileManager.default.fileExists(atPath: path), !parsed.values.flag(Self.force) {
            throw CommandError("\(path) is already there: memhunt init --force replaces it")
        }
        let collector = try ArtifactCollector(console: console, command: parsed)
        defer { collector.removeCache() }
        let artifacts = await collector.collect([folder])
        let subject = StepEngine.resolveSubject(
            app: parsed.values.options[RunCommand.app.name]?.last, artifacts: artifacts)
        let read = artifacts.filter { $0.status == .ok }.count
        let text = Self.text(
            subject: subject, playbook: parsed.values.string(RunCommand.playbook) ?? "memory-hunt",
            read: read, of: artifacts.count)
        // What is written is what `run` reads: checked before it replaces anything.
        if case .failure(let error) = ProjectDefaults.loader.load(text: text, path: path, directory: folder) {
            throw CommandError("the file memhunt init would write has problems: \(error)")
        }
        do {
            try AtomicFile.write(text, to: path)
        } catch {
            throw CommandError("\(error)")
        }
        if console.detail != .quiet {
            console.note(
                "memhunt: wrote \(path)" + (subject.app.map { " for \($0)" } ?? " (no app: name one in it)")
                    + "; memhunt run in \(folder) reads it")
        }
        return .success
    }

    /// The file: every key with what it does, the ones the artifacts answered set, the others commented out.
    static func text(subject: Subject, playbook: String, read: Int, of count: Int) -> String {
        var app = "# app: MyApp  # no artifact names one app"
        if let name = subject.app {
            app =
                subject.bundleID.map {
                    "app:\n  name: \(LedgerEditor.quoted(name))\n  bundle_ids: [\(LedgerEditor.quoted($0))]"
                } ?? "app: \(LedgerEditor.quoted(name))"
        } else if let candidates = subject.candidates, !candidates.isEmpty {
            app = "# app: one of " + candidates.prefix(8).joined(separator: ", ") + "  # the artifacts name several"
        }
        return """
            # memhunt project file, written by memhunt init from the \(count) files of this folder (\(read) read).
            # memhunt run here reads it; a flag given on the command line overrides what it says.

            # The app under investigation: a process name, with the bundle ids it also goes by.
            \(app)

            # The playbook: a built-in id (memhunt playbooks) or a playbook file, relative to this one.
            playbook: \(LedgerEditor.quoted(playbook))

            # Exit 1 when a finding reaches this severity: info, notice, warning or critical.
            # fail_on: warning

            # What memhunt run reads when given no operand, relative to this file.
            artifacts: ["."]

            # Check parameters over the playbook's, by check id (memhunt checks lists them).
            # checks:
            #   widget-budget: { limit_mb: 30 }

            # Report formats written to a folder as findings.<format>, besides the report on stdout.
            # reports: { formats: [json, sarif], folder: reports }

            # The tracker memhunt run --attach posts to (memhunt attach --help).
            # attach: redmine+https://tracker.example.com/issues/42

            # Accepted findings: by signature (reports print it), or by code and a text of the title, each with
            # a reason; an expired one is reported again. memhunt suppress SIGNATURE --reason … adds one.
            # suppress:
            #   - signature: 0123456789abcdef
            #     reason: Known, tracked in APP-123
            #     owner: "@team"
            #     expires: 2027-06-30

            """
    }
}
