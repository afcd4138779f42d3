import MemhuntChecks
import MemhuntCore
import MemhuntReports

/// `memhunt inspect`: the kind and facts of single artifacts, each described by its own record.
struct InspectCommand: MemhuntCommand {
    static let spec = CommandSpec(
        "inspect",
        abstract: "Show the kind and facts of single artifacts.",
        arguments: [
            ArgumentSpec(
                "artifact", help: "A file, a directory, an http(s) URL of an artifact, or - for stdin.",
                isRepeating: true)
        ],
        options: [Options.format(Options.listingFormats), RunCommand.deadline, Options.color]
    )

    var parsed: ParsedCommand
    var console: Console

    init(_ parsed: ParsedCommand, console: Console) throws {
        self.parsed = parsed
        self.console = console
    }

    /// One artifact as `inspect --format json` lists it.
    struct Entry: Encodable {
        var artifact: FindingsDocument.ArtifactRecord
        var facts: Facts
        var factCatalog: [String: FactInfo]
    }

    func execute() async throws -> Memhunt.ExitStatus {
        let collector = try ArtifactCollector(console: console, command: parsed)
        defer { collector.removeCache() }
        var entries: [Entry] = []
        let artifacts = await collector.collect(parsed.values.positionals)
        // What could not be read at all (no bytes: missing, a device, refused) makes the inspection one that could
        // not be done as asked; content that is broken is what inspect shows, exit 0.
        let unread = artifacts.filter { $0.isOperand && $0.status == .error && $0.size == nil }.map {
            let why = $0.error ?? "cannot be read"
            return why.hasPrefix($0.source) ? why : "\($0.source): \(why)"
        }
        let status = Self.announce(unread, console: console)
        for artifact in artifacts {
            let described = await RecordFacts.describe(artifact)
            entries.append(
                Entry(
                    artifact: FindingsDocument.ArtifactRecord(artifact), facts: described.facts,
                    factCatalog: described.catalog))
        }
        if parsed.values.string(Options.format()) == "json" {
            console.stdout.write(JSONText.pretty(entries))
            return status
        }
        var out = ""
        for entry in entries {
            let artifact = entry.artifact
            out += TerminalText.escaped(artifact.source) + "\n"
            out += "   kind: \(artifact.kind?.rawValue ?? "-")  status: \(artifact.status.rawValue)"
            if let size = artifact.size { out += "  size: \(FactValue.grouped(size)) bytes" }
            out += "\n"
            if let sha = artifact.sha256 { out += "   sha256: \(TerminalText.escaped(sha))\n" }
            if let time = artifact.incidentTime { out += "   time: \(TerminalText.escaped(time))\n" }
            // A read artifact's diagnostics are notes on it (recovered from a paste, a key given twice), no error.
            let label = artifact.status == .ok ? "note" : "error"
            for diagnostic in artifact.diagnostics { out += "   \(label): \(TerminalText.escaped(diagnostic))\n" }
            for key in entry.facts.keys.sorted() {
                let unit = entry.factCatalog[key]?.unit ?? .number
                out += "   \(TerminalText.escaped(key)) = \(TerminalText.escaped(unit.format(entry.facts[key]!)))\n"
            }
        }
        console.stdout.write(out)
        return status
    }

    /// Exit 2 when an operand could not be read, said on stderr in one line (as `run` says it); else 0.
    static func announce(_ unread: [String], console: Console) -> Memhunt.ExitStatus {
        guard !unread.isEmpty else { return .success }
        console.note("memhunt: exit 2: " + unread.joined(separator: "; "))
        return .couldNotRun
    }
}
