import Foundation
import MemhuntCore
import MemhuntHTTP
import MemhuntReports
import MemhuntTrackers

/// `memhunt attach`: post a saved findings document to a bug tracker, once.
struct AttachCommand: MemhuntCommand {
    static let to = OptionSpec(
        "to", valueName: "target",
        help: "Where: " + trackers.map { $0.usage }.joined(separator: "; ") + ".")
    static let dryRun = OptionSpec("dry-run", help: "Print each request (credentials masked) and send nothing.")
    static let noRedact = OptionSpec(
        "no-redact", help: "Send device and user identifiers as they are (by default they become placeholders).")
    static let new = OptionSpec(
        "new",
        help: "Post a new comment even if this hunt (playbook and app) has one; by default a later run edits it.")

    static let show = OptionSpec(
        "show",
        help: "Post nothing: print what this hunt (playbook and app) has posted there, as the tracker holds it.")

    static let spec = CommandSpec(
        "attach",
        abstract: "Attach a saved findings document (memhunt run --format json) to a bug tracker, once.",
        arguments: [ArgumentSpec("findings", help: "A findings document (memhunt.findings/3), or - for stdin.")],
        options: [to, dryRun, noRedact, new, show]
    )

    var parsed: ParsedCommand
    var console: Console
    var target: String

    init(_ parsed: ParsedCommand, console: Console) throws {
        self.parsed = parsed
        self.console = console
        target = try Self.target(parsed, option: Self.to)
    }

    /// The target of `option`, which is required.
    static func target(_ parsed: ParsedCommand, option: OptionSpec) throws -> String {
        guard let target = parsed.values.string(option), !target.isEmpty else {
            throw UsageError(path: parsed.path, reason: .missingValue(option: option.name))
        }
        return target
    }

    func execute() async throws -> Memhunt.ExitStatus {
        let document = try FindingsInput.read(parsed.values.positionals[0], console: console)
        let options = AttachOptions(
            dryRun: parsed.values.flag(Self.dryRun), redact: !parsed.values.flag(Self.noRedact),
            forceNew: parsed.values.flag(Self.new), show: parsed.values.flag(Self.show))
        return await Self.attach(document, to: target, options: options, console: console)
    }

    /// Attaches and says how it went: one line on stdout, or `memhunt: exit 2: …` on stderr.
    static func attach(
        _ document: FindingsDocument, to target: String, options: AttachOptions, console: Console
    ) async -> Memhunt.ExitStatus {
        let stdout = console.stdout
        do {
            let outcome = try await Attacher.attach(
                document, to: target, environment: console.environment, options: options, print: stdout.write)
            // A listing that could not be written is no dry run: `Memhunt.main` says why, once, and exits 2.
            if options.dryRun && stdout.failure != nil { return .couldNotRun }
            if options.show {
                // Each post whole, as the tracker holds it (the hidden marker included), the earliest first.
                for (index, text) in outcome.shown.enumerated() {
                    stdout.write((index > 0 ? "\n" : "") + text + (text.hasSuffix("\n") ? "" : "\n"))
                }
                let what =
                    outcome.shown.isEmpty
                    ? "this hunt has posted nothing there"
                    : "\(Plural.count(outcome.shown.count, "post")) of this hunt, the earliest at \(outcome.location)"
                console.note("memhunt: attach \(target): \(what)")
                return stdout.failure == nil ? .success : .couldNotRun
            }
            let verb = options.dryRun ? "dry run, nothing sent" : outcome.action.rawValue
            console.note("memhunt: attach \(target): \(verb) \(outcome.location)")
            return .success
        } catch {
            console.note("memhunt: exit 2: \(error.description.replacingOccurrences(of: "\n", with: " "))")
            return .couldNotRun
        }
    }
}
