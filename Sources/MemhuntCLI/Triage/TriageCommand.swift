import Foundation
import MemhuntChecks
import MemhuntCore
import MemhuntFormats
import MemhuntReports

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `memhunt triage`: walk a person through the hunt one step at a time, from their own words.
struct TriageCommand: MemhuntCommand {
    static let playbook = OptionSpec(
        "playbook", valueName: "id-or-path-or-url",
        help: "A built-in playbook id, a playbook file or an http(s) URL (default: proposed from the report).")
    static let session = OptionSpec(
        "session", valueName: "file",
        help: "Save the session here after every answer (default: memhunt-triage.json beside the report).")
    static let resume = OptionSpec(
        "resume", valueName: "file", help: "Continue a saved session at its first unfinished step.")

    static let spec = CommandSpec(
        "triage",
        abstract: "Walk through the hunt one step at a time, from what the user reported.",
        discussion:
            "Prompts go to stderr and answers are read line by line from stdin, so a file of answers can be piped "
            + "in. At each step: Enter accepts the proposal (every candidate the step reads), numbers pick "
            + "candidates (1 3, 1-3, a for all, -2 for all but 2), a path or URL adds one, s skips, ? shows the step's guidance, b goes back, q stops at any prompt (the session is saved after every answer).",
        arguments: [
            ArgumentSpec(
                "artifact", help: "Files, folders or URLs to offer as candidates.", isRepeating: true,
                isOptional: true)
        ],
        options: [
            playbook, RunCommand.app, Options.format(), Options.output, session, resume, RunCommand.allowExec,
            Options.color,
        ]
    )

    /// The report formats a session may record.
    static let formats = reporters.identifiers

    var parsed: ParsedCommand
    var console: Console
    var output: ReportDestination

    init(_ parsed: ParsedCommand, console: Console) throws {
        self.parsed = parsed
        self.console = console
        output = try ReportDestination(parsed)
        if parsed.values.string(Self.resume) != nil && !parsed.values.positionals.isEmpty {
            throw UsageError(
                path: parsed.path,
                reason: .invalidValue(
                    parsed.values.positionals[0], option: "<artifact>",
                    explanation: "--resume continues with the artifacts of the saved session"))
        }
    }

    func execute() async throws -> Memhunt.ExitStatus {
        let collector = try ArtifactCollector(console: console)
        defer { collector.removeCache() }
        var walk: TriageWalk
        if let file = parsed.values.string(Self.resume) {
            walk = try await TriageWalk.resuming(file, console: console, collector: collector, parsed: parsed)
        } else {
            guard let started = try await TriageWalk.starting(console: console, collector: collector, parsed: parsed)
            else { return .success }
            walk = started
        }
        let interruption = walk.installInterruptHandler()
        defer { interruption?.cancel() }
        // A resumed walk writes where the saved one was asked to, unless told otherwise now: in the session's
        // folder only, never over an input or a file it did not write.
        var destination = output
        if let file = parsed.values.string(Self.resume) {
            if parsed.values.string(Options.output) != nil {
                walk.state.output = output.path
            } else if let saved = walk.state.output, saved != "-" {
                let inputs =
                    (walk.session.artifacts + walk.pool).compactMap(\.localPath) + walk.state.operands + [file]
                do {
                    let path = try SessionPaths(sessionFile: file).output(
                        saved, report: walk.state.report, inputs: inputs, file: file)
                    destination.path = path
                    walk.state.output = path
                } catch {
                    throw CommandError("\(error); give -o FILE to write the report elsewhere")
                }
            }
        }
        return try await walk.run(output: destination)
    }
}
