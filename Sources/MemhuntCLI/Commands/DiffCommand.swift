import Foundation
import MemhuntCore
import MemhuntReports
import MemhuntSnapshots

/// `memhunt diff BEFORE AFTER`: two saved runs compared; with `--fail-on-regression`, the CI gate a
/// team keeps after a fix.
struct DiffCommand: MemhuntCommand {
    static let failOnRegression = OptionSpec(
        "fail-on-regression",
        help: "Exit 1 when a fact moved the wrong way past the tolerance or a new finding is at warning or above.")
    static let tolerance = OptionSpec(
        "tolerance", valueName: "percent", help: "How far a fact may move the wrong way before it is a regression.",
        defaultValue: "5")

    static let spec = CommandSpec(
        "diff",
        abstract: "Compare two saved runs (facts, findings, a fix verdict), or two captures per class.",
        arguments: [
            ArgumentSpec(
                "before",
                help: "The findings document of the earlier run (memhunt run --format json), or a heap report, leaks "
                    + "report or Allocations export to compare per class."),
            ArgumentSpec(
                "after", help: "The findings document of the later run (or - for stdin), or a capture of the same kind."
            ),
        ],
        options: [Options.format(RunDiff.formats), Options.output, failOnRegression, tolerance]
    )

    var parsed: ParsedCommand
    var console: Console
    var output: ReportDestination
    var tolerance: Double

    init(_ parsed: ParsedCommand, console: Console) throws {
        self.parsed = parsed
        self.console = console
        output = try ReportDestination(parsed)
        let given = parsed.values.string(Self.tolerance) ?? "5"
        let number = given.hasSuffix("%") ? String(given.dropLast()).trimmingCharacters(in: .whitespaces) : given
        guard let percent = Double(number), percent.isFinite, percent >= 0 else {
            throw UsageError(
                path: parsed.path,
                reason: .invalidValue(given, option: "--tolerance", explanation: "a percentage such as 5 or 2.5"))
        }
        tolerance = percent / 100
    }

    func execute() async throws -> Memhunt.ExitStatus {
        let operands = parsed.values.positionals
        let before: FindingsDocument
        do {
            before = try FindingsInput.read(operands[0], console: console)
        } catch let error as CommandError where operands[0] != "-" && !FindingsInput.looksLikeJSON(operands[0]) {
            // Not a findings document: two captures of one kind compare per class.
            return try await captures(operands, documentError: error)
        }
        let after = try FindingsInput.read(operands[1], console: console)
        let diff = RunDiff(before: before, after: after, tolerance: tolerance)
        try output.write(
            text: diff.rendered(parsed.values.string(Options.format(RunDiff.formats)) ?? "text"),
            summary: diff.summaryLine, console: console)
        guard parsed.values.flag(Self.failOnRegression), diff.regressed else { return .success }
        let count = diff.regressedFacts.count + diff.newSevereFindings.count
        // Stdout failed: `Memhunt.main` makes this exit 2 and says so.
        if console.stdout.failure == nil {
            console.note("memhunt: exit 1: \(Plural.count(count, "regression")) (--fail-on-regression)")
        }
        return .findingsReachedThreshold
    }

    /// Two `heap` reports, two `leaks` reports or two Allocations exports compared per class.
    func captures(_ operands: [String], documentError: CommandError) async throws -> Memhunt.ExitStatus {
        let first = try await CaptureDiffRun.read(operands[0], console: console, command: parsed)
        guard case .success(let before) = first else {
            if case .failure(let error) = first { throw error }
            throw documentError
        }
        guard case .success(let after) = try await CaptureDiffRun.read(operands[1], console: console, command: parsed)
        else {
            throw CommandError("\(operands[1]): not a \(before.kind.rawValue) capture to compare with \(before.name)")
        }
        guard after.kind == before.kind else {
            throw CommandError(
                "\(before.name) is a \(before.kind.rawValue) capture and \(after.name) a \(after.kind.rawValue) one: "
                    + "two of one kind compare")
        }
        let diff = CaptureDiff(
            kind: before.kind, before: before.classes, after: after.classes, caveats: before.caveats + after.caveats)
        let format = parsed.values.string(Options.format(RunDiff.formats)) ?? "text"
        try output.write(
            text: diff.rendered(format, before: operands[0], after: operands[1]),
            summary: "\(Plural.count(diff.rows.count, "class", "classes")) changed", console: console)
        return .success
    }
}

extension ReportDestination {
    /// Writes a rendered text (a diff, a postmortem) to stdout or the file; a file gets a note on stderr.
    func write(text: String, summary: String, console: Console) throws {
        guard let path else { return console.stdout.write(text) }
        do {
            try AtomicFile.write(text, to: path)
        } catch {
            throw CommandError("\(error)")
        }
        console.note("memhunt: wrote \(path) (\(summary))")
    }
}
