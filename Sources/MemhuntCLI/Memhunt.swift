import Foundation
import MemhuntChecks
import MemhuntCore
import MemhuntReports

/// The command-line tool as a function: argv in, exit status out. Fully testable in-process.
public enum Memhunt {
    public static let version = "0.1.0"

    /// The exit statuses, decided here and nowhere else.
    public enum ExitStatus: Int32 {
        /// The run completed and no finding reached `--fail-on`.
        case success = 0
        /// A finding reached `--fail-on`.
        case findingsReachedThreshold = 1
        /// memhunt could not run: invalid playbook, unwritable output.
        case couldNotRun = 2
        /// Usage error (EX_USAGE).
        case usage = 64
    }

    /// Runs memhunt with `arguments` (argv without the program name).
    public static func main(
        arguments: [String], environment: [String: String],
        stdout: OutputWriter = .standardOutput, stderr: OutputWriter = .standardError
    ) async -> Int32 {
        let console = Console(stdout: stdout, stderr: stderr, environment: environment)
        let root = MemhuntCommands.root
        let outcome: ParseOutcome
        do {
            outcome = try root.parse(arguments)
        } catch {
            stderr.write(error.render(root: root, width: console.width))
            return ExitStatus.usage.rawValue
        }
        switch outcome {
        case .version:
            stdout.write("memhunt \(version)\n")
            return ExitStatus.success.rawValue
        case .help(let path):
            stdout.write(HelpRenderer(width: console.width).help(for: path, in: root))
            return ExitStatus.success.rawValue
        case .command(let command):
            do {
                return try await dispatch(command, console: console).rawValue
            } catch let error as UsageError {
                stderr.write(error.render(root: root, width: console.width))
                return ExitStatus.usage.rawValue
            } catch {
                console.error("\(error)")
                return ExitStatus.couldNotRun.rawValue
            }
        }
    }

    private static func dispatch(_ command: ParsedCommand, console: Console) async throws -> ExitStatus {
        switch command.path.dropFirst().first {
        case "run": try await RunCommand(command: command, console: console).execute()
        case "inspect": try await InspectCommand(command: command, console: console).execute()
        case "checks": try ChecksCommand(command: command, console: console).execute()
        case "playbooks": PlaybooksCommand(console: console).execute()
        case "validate": ValidateCommand(command: command, console: console).execute()
        default: .usage
        }
    }
}

/// The two streams, the environment and what follows from them (width, color).
struct Console: Sendable {
    var stdout: OutputWriter
    var stderr: OutputWriter
    var environment: [String: String]

    var width: Int { TerminalCapabilities.columns(environment: environment) }
    var stdoutColored: Bool { TerminalCapabilities.colorEnabled(isTTY: stdout.isTTY, environment: environment) }
    var stderrColored: Bool { TerminalCapabilities.colorEnabled(isTTY: stderr.isTTY, environment: environment) }

    /// `Error: …` on stderr, as swift-argument-parser prints it.
    func error(_ message: String) {
        stderr.write("Error".styled(.red, .bold, enabled: stderrColored) + ": " + message + "\n")
    }

    /// A progress or diagnostic line on stderr.
    func note(_ message: String) { stderr.write(message + "\n") }
}

/// An error that stops a command: printed as `Error: …`, exit 2.
struct CommandError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The playbook loader with the built-in checks.
let playbookLoader = PlaybookLoader(knownChecks: builtInChecks.map { $0.description })

extension ParsedCommand {
    /// The value of an option that must be one of `Enum`'s raw values (the spec already checked it).
    func value<E: RawRepresentable>(_ name: String, as: E.Type) -> E? where E.RawValue == String {
        values.string(name).flatMap(E.init(rawValue:))
    }
}
