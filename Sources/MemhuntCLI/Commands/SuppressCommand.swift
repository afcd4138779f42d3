import Foundation
import MemhuntCore

/// `memhunt suppress SIGNATURE --reason …`: one accepted finding added to the project file's `suppress:` list,
/// the rest of the file as it was written.
struct SuppressCommand: MemhuntCommand {
    static let reason = OptionSpec("reason", valueName: "text", help: "Why the finding is accepted (required).")
    static let owner = OptionSpec("owner", valueName: "name", help: "Who owns the decision.")
    static let expires = OptionSpec(
        "expires", valueName: "YYYY-MM-DD", help: "From this day on the finding is reported again.")

    static let spec = CommandSpec(
        "suppress",
        abstract: "Accept a finding by its signature, with a reason, in the project file.",
        arguments: [ArgumentSpec("signature", help: "The finding's signature, as reports print it (16 hex digits).")],
        options: [reason, owner, expires, ProjectDefaults.config, Options.quiet]
    )

    var parsed: ParsedCommand
    var console: Console

    init(_ parsed: ParsedCommand, console: Console) throws {
        self.parsed = parsed
        self.console = console
    }

    func execute() async throws -> Memhunt.ExitStatus {
        let values = parsed.values
        let signature = values.positionals[0].lowercased()
        guard let reason = values.string(Self.reason), !reason.isEmpty else {
            throw UsageError(
                path: parsed.path,
                reason: .invalidValue(
                    values.string(Self.reason) ?? "", option: "--reason",
                    explanation: "a suppression needs its reason: --reason 'Known, tracked in APP-123'"))
        }
        let path =
            values.string(ProjectDefaults.config) ?? ProjectDefaults.find(
                from: FileManager.default.currentDirectoryPath)
            ?? ProjectDefaults.fileName
        let text = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        var entry: [(String, LedgerEditor.Value)] = [("signature", .string(signature)), ("reason", .string(reason))]
        if let owner = values.string(Self.owner) { entry.append(("owner", .string(owner))) }
        if let expires = values.string(Self.expires) { entry.append(("expires", .string(expires))) }
        let edited: String
        switch LedgerEditor.appending(entry, to: "suppress", in: text) {
        case .success(let text): edited = text
        case .failure(let error): throw CommandError("\(path): \(error)")
        }
        let directory = (path as NSString).deletingLastPathComponent
        if case .failure(let error) = ProjectDefaults.loader.load(text: edited, path: path, directory: directory) {
            console.lines(error.description)
            throw CommandError("\(path): the suppression was not added (the file would have the problems above)")
        }
        do {
            try AtomicFile.write(edited, to: path)
        } catch {
            throw CommandError("\(error)")
        }
        if console.detail != .quiet { console.note("memhunt: \(path): \(signature) suppressed: \(reason)") }
        return .success
    }
}
