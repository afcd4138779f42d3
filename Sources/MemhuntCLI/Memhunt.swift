import Foundation
import MemhuntChecks
import MemhuntCore
import MemhuntReports

/// The command-line tool as a function: argv in, exit status out. Fully testable in-process.
public enum Memhunt {
    public static let version = "0.2.0"

    /// The exit statuses, decided here and nowhere else.
    public enum ExitStatus: Int32 {
        /// The run completed and no finding reached `--fail-on`.
        case success = 0
        /// A finding reached `--fail-on`.
        case findingsReachedThreshold = 1
        /// The hunt could not be done as asked: a check failed, an invalid playbook, unwritable output.
        case couldNotRun = 2
        /// Usage error (EX_USAGE).
        case usage = 64
    }

    /// Runs memhunt with `arguments` (argv without the program name).
    ///
    /// What was written to stdout is part of the result: a write that failed (a full disk, a closed pipe) makes
    /// a run that would have ended 0 or 1 exit 2, and stderr says why, once.
    public static func main(
        arguments: [String], environment: [String: String], stdin: InputReader = .standardInput,
        stdout: OutputWriter = .standardOutput, stderr: OutputWriter = .standardError
    ) async -> Int32 {
        let status = await run(
            arguments: arguments, environment: environment, stdin: stdin, stdout: stdout, stderr: stderr)
        guard let failure = stdout.failure else { return status }
        stderr.write("memhunt: exit 2: could not write to standard output: \(failure) (the output is incomplete)\n")
        return status == ExitStatus.usage.rawValue ? status : ExitStatus.couldNotRun.rawValue
    }

    private static func run(
        arguments: [String], environment: [String: String], stdin: InputReader, stdout: OutputWriter,
        stderr: OutputWriter
    ) async -> Int32 {
        var console = Console(stdin: stdin, stdout: stdout, stderr: stderr, environment: environment)
        let root = MemhuntCommands.root
        let outcome: ParseOutcome
        do {
            outcome = try root.parse(arguments)
        } catch {
            stderr.write(TerminalText.escaped(error.render(root: root, width: console.width), keepingNewlines: true))
            return ExitStatus.usage.rawValue
        }
        switch outcome {
        case .version:
            stdout.write("memhunt \(version)\n")
            return ExitStatus.success.rawValue
        case .help(let path):
            stdout.write(HelpRenderer(width: console.width).help(for: path, in: root))
            return ExitStatus.success.rawValue
        case .command(let parsed):
            if let choice = parsed.optionalValue(Options.color, as: ColorChoice.self) { console.color = choice }
            console.detail = parsed.detail
            guard let type = commandList.first(where: { $0.spec.name == parsed.path.dropFirst().first }) else {
                return ExitStatus.usage.rawValue
            }
            do {
                let command = try type.init(parsed, console: console)
                return try await command.execute().rawValue
            } catch let error as UsageError {
                stderr.write(
                    TerminalText.escaped(error.render(root: root, width: console.width), keepingNewlines: true))
                return ExitStatus.usage.rawValue
            } catch {
                console.error("\(error)")
                return ExitStatus.couldNotRun.rawValue
            }
        }
    }
}

/// The streams, the environment and what follows from them (width, color).
struct Console: Sendable {
    var stdin: InputReader
    var stdout: OutputWriter
    var stderr: OutputWriter
    var environment: [String: String]
    /// `--color`.
    var color: ColorChoice = .auto
    /// `--quiet`, `-v` or neither.
    var detail: ReportOptions.Detail = .normal

    init(stdin: InputReader = .standardInput, stdout: OutputWriter, stderr: OutputWriter, environment: [String: String])
    {
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self.environment = environment
    }

    /// The width of help and usage errors: the terminal's, then `COLUMNS`, else 80.
    var width: Int {
        TerminalCapabilities.columns(terminal: stdout.terminalColumns, environment: environment, fallback: 80)
    }
    /// The width every line of a text report on stdout fits in: the terminal's, then `COLUMNS`, then the
    /// terminal stderr is on (stdout piped to `less` or `head` is still read on that terminal); nil when none
    /// is known (paragraphs then wrap at 100 columns).
    var reportWidth: Int? {
        stdout.terminalColumns ?? environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
            ?? stderr.terminalColumns
    }
    var stdoutColored: Bool { colored(isTTY: stdout.isTTY) }
    var stderrColored: Bool { colored(isTTY: stderr.isTTY) }

    private func colored(isTTY: Bool) -> Bool {
        switch color {
        case .always: true
        case .never: false
        case .auto: TerminalCapabilities.colorEnabled(isTTY: isTTY, environment: environment)
        }
    }

    /// `Error: …` on stderr, as swift-argument-parser prints it: one line, its control characters (a newline
    /// too) shown escaped (`TerminalText`), since the message quotes names and content from outside.
    func error(_ message: String) {
        stderr.write("Error".styled(.red, .bold, enabled: stderrColored) + ": " + TerminalText.escaped(message) + "\n")
    }

    /// A progress or diagnostic line on stderr, escaped as `error` is.
    func note(_ message: String) { stderr.write(TerminalText.escaped(message) + "\n") }

    /// Lines memhunt composed (a playbook's diagnostics, a template's problems) whose outside parts may hold
    /// control characters: escaped, line ends kept.
    func lines(_ text: String) { stderr.write(TerminalText.escaped(text, keepingNewlines: true) + "\n") }
}

/// An error that stops a command: printed as `Error: …`, exit 2.
struct CommandError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The playbook loader with the built-in checks.
let playbookLoader = PlaybookLoader(knownChecks: builtInChecks.map { $0.description })

/// How the command line makes the decisions a finding may ask for.
let commandLineDecisions: [Decision: String] = [
    .chooseApp: "Run again with --app NAME.",
    .allowExec: "Pass --allow-exec to allow it.",
]

extension ParsedCommand {
    /// `-q` (which wins over `-v`), `-v` or neither, on the commands that have them.
    var detail: ReportOptions.Detail {
        guard let options = MemhuntCommands.root.command(at: path)?.options else { return .normal }
        if options.contains(Options.quiet) && values.flag(Options.quiet) { return .quiet }
        if options.contains(Options.verbose) && values.flag(Options.verbose) { return .verbose }
        return .normal
    }

    /// The value of an option the command may not have (`--color` on commands without it: nil).
    func optionalValue<E: RawRepresentable>(_ option: OptionSpec, as: E.Type) -> E? where E.RawValue == String {
        guard MemhuntCommands.root.command(at: path)?.options.contains(option) == true else { return nil }
        return values.value(option, as: E.self)
    }
}
