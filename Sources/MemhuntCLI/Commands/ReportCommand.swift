import Foundation
import MemhuntReports

/// `memhunt report`: re-render a saved findings document, without the artifacts.
struct ReportCommand: ReportingCommand {
    static let spec = CommandSpec(
        "report",
        abstract: "Render a saved findings document (memhunt run --format json) in any format.",
        arguments: [ArgumentSpec("findings", help: "A findings document (memhunt.findings/3), or - for stdin.")],
        options: [Options.format(), Options.output, Options.color, Options.quiet, Options.verbose]
    )

    var parsed: ParsedCommand
    var console: Console
    var output: ReportDestination

    func execute() async throws -> Memhunt.ExitStatus {
        let document = try FindingsInput.read(parsed.values.positionals[0], console: console)
        try output.write(document, format: parsed.values.string(Options.format()) ?? "text", console: console)
        return .success
    }
}

/// Reads a findings document from a file or `-` (stdin).
enum FindingsInput {
    /// Documents larger than this are refused rather than read whole.
    static let limit = 256 << 20

    /// Whether the file's first non-blank byte opens a JSON object: a findings document (or a broken one).
    static func looksLikeJSON(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        return head.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) } == UInt8(ascii: "{")
    }

    static func read(_ operand: String, console: Console) throws -> FindingsDocument {
        let bytes: [UInt8]
        if operand == "-" {
            guard let input = console.stdin.readAll(limit: limit) else {
                throw CommandError("standard input: a findings document over \(limit >> 20) MB")
            }
            bytes = input
        } else {
            guard let data = FileManager.default.contents(atPath: operand) else {
                throw CommandError("\(operand): cannot read the findings document (no such file or not readable)")
            }
            bytes = Array(data)
        }
        do {
            return try FindingsDocument.decode(bytes)
        } catch {
            throw CommandError("\(operand == "-" ? "standard input" : operand): \(error)")
        }
    }
}
