import MemhuntArtifacts
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

    /// Whether an artifact is nothing memhunt can read: not read at all (no bytes), or read and of no kind with
    /// an error (empty, binary). Text of no known kind is `unrecognized`, not this.
    static func isUnusable(_ artifact: Artifact) -> Bool {
        artifact.status == .error && (artifact.size == nil || artifact.kind == nil)
    }

    func execute() async throws -> Memhunt.ExitStatus {
        let collector = try ArtifactCollector(console: console, command: parsed)
        defer { collector.removeCache() }
        var entries: [Entry] = []
        let artifacts = await collector.collect(parsed.values.positionals)
        // An operand that is nothing memhunt can read (missing, a device, refused, empty, binary) makes the
        // inspection one that could not be done as asked, as in `run` and `scan`; content of a known kind that is
        // broken is what inspect shows, exit 0.
        var unread = artifacts.filter { $0.isOperand && Self.isUnusable($0) }.map {
            let why = $0.error ?? "cannot be read"
            return why.hasPrefix($0.source) ? why : "\($0.source): \(why)"
        }
        // A folder of no file is named too (as `run` names it), not passed over in silence.
        for operand in parsed.values.positionals
        where !artifacts.contains(where: { $0.operand == ArtifactStore.shown(operand: operand) }) {
            unread.append("\(operand): no files to read")
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
            // The first diagnostic of an artifact not read is why; the others (and all of a read one) are notes.
            for (index, diagnostic) in artifact.diagnostics.enumerated() {
                let label = index == 0 && artifact.status != .ok ? "error" : "note"
                out += "   \(label): \(TerminalText.escaped(diagnostic))\n"
            }
            for key in entry.facts.keys.sorted() {
                let unit = entry.factCatalog[key]?.unit ?? .number
                out += "   \(TerminalText.escaped(key)) = \(TerminalText.escaped(unit.format(entry.facts[key]!)))\n"
            }
        }
        // Wrapped at the terminal's width, else COLUMNS; with neither, a file's lines stay whole (its diagnostics
        // name members and sizes that scripts and tests read as they are).
        console.stdout.write(console.reportWidth.map { TextReporter.wrapLines(out, width: $0) } ?? out)
        return status
    }

    /// Exit 2 when an operand could not be read, said on stderr in one line (as `run` says it); else 0.
    static func announce(_ unread: [String], console: Console) -> Memhunt.ExitStatus {
        guard !unread.isEmpty else { return .success }
        console.note("memhunt: exit 2: " + unread.joined(separator: "; "))
        return .couldNotRun
    }
}
