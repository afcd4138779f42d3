import Foundation
import MemhuntCore
import MemhuntReports

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
        abstract: "Compare two saved runs: facts with deltas, findings resolved, new and unchanged, a verdict.",
        arguments: [
            ArgumentSpec("before", help: "The findings document of the earlier run (memhunt run --format json)."),
            ArgumentSpec("after", help: "The findings document of the later run, or - for stdin."),
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
        let before = try FindingsInput.read(operands[0], console: console)
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
