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
        for artifact in await collector.collect(parsed.values.positionals) {
            let described = await RecordFacts.describe(artifact)
            entries.append(
                Entry(
                    artifact: FindingsDocument.ArtifactRecord(artifact), facts: described.facts,
                    factCatalog: described.catalog))
        }
        if parsed.values.string(Options.format()) == "json" {
            console.stdout.write(JSONText.pretty(entries))
            return .success
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
            for diagnostic in artifact.diagnostics { out += "   error: \(TerminalText.escaped(diagnostic))\n" }
            for key in entry.facts.keys.sorted() {
                let unit = entry.factCatalog[key]?.unit ?? .number
                out += "   \(TerminalText.escaped(key)) = \(TerminalText.escaped(unit.format(entry.facts[key]!)))\n"
            }
        }
        console.stdout.write(out)
        return .success
    }
}
