/// A mistake in argv, rendered like swift-argument-parser: `Error:`, optional `Help:`, `Usage:`, `See '…'`.
public struct UsageError: Error, Sendable, Equatable {
    /// What was wrong.
    public enum Reason: Sendable, Equatable {
        /// An option the command does not have, as typed, with the closest known name.
        case unknownOption(String, suggestion: String?)
        /// An option as typed (`--app` or `-o`) given without its value.
        case missingValue(option: String)
        /// A required argument without a value; `commandWasEmpty` when the command got no words at all.
        case missingArgument(String, commandWasEmpty: Bool)
        /// Positional values the command has no argument for.
        case unexpectedArguments([String])
        /// A value given to a flag, as in `--allow-exec=yes`.
        case unexpectedValue(String, option: String)
        /// A value the option (as typed) does not accept; `explanation` replaces the list of allowed values.
        case invalidValue(String, option: String, explanation: String? = nil)
        /// A word that names no subcommand, with the closest subcommand name.
        case unknownSubcommand(String, suggestion: String?)
    }

    /// The exit status of a usage error (`EX_USAGE`).
    public static let exitStatus: Int32 = 64

    /// The path of the command that rejected the arguments, e.g. `["memhunt", "run"]`.
    public var path: [String]
    /// What was wrong.
    public var reason: Reason

    /// Creates an error of the command at `path`.
    public init(path: [String], reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// The full stderr text, ending in a newline; `root` is the spec `path` starts from.
    public func render(root: CommandSpec, width: Int = 80) -> String {
        guard let command = root.command(at: path) else { preconditionFailure("no command at \(path)") }
        let renderer = HelpRenderer(width: width)
        let error = "Error: \(message(command))\n"
        if case .missingArgument(_, commandWasEmpty: true) = reason {
            return error + "\n" + renderer.help(for: path, in: root)
        }
        return error + (helpLine(command).map { "Help:  \($0)\n" } ?? "") + "Usage: "
            + renderer.usage(of: command, path: path)
            + "\n  See '\(path.joined(separator: " ")) --help' for more information.\n"
    }

    private func message(_ command: CommandSpec) -> String {
        switch reason {
        case .unknownOption(let name, let guess):
            "Unknown option '\(name)'" + (guess.map { ". Did you mean '\($0)'?" } ?? "")
        case .missingValue(let option):
            "Missing value for '\(label(option, command))'"
        case .missingArgument(let name, _):
            "Missing expected argument '<\(name)>"
                + (command.arguments.contains { $0.name == name && $0.isRepeating } ? " ...'" : "'")
        case .unexpectedArguments(let values) where values.count == 1:
            "Unexpected argument '\(values[0])'"
        case .unexpectedArguments(let values):
            "\(values.count) unexpected arguments: '\(values.joined(separator: "', '"))'"
        case .unexpectedValue(let value, let option):
            "The option '\(option)' does not take any value, but '\(value)' was specified."
        case .invalidValue(let value, let option, let explanation):
            "The value '\(value)' is invalid for '\(label(option, command))'"
                + (explanation.map { ": " + $0 } ?? allowedList(command.option(named: option)?.allowedValues ?? []))
        case .unknownSubcommand(let word, let guess):
            "Unknown subcommand '\(word)'" + (guess.map { ". Did you mean '\($0)'?" } ?? "")
        }
    }

    private func helpLine(_ command: CommandSpec) -> String? {
        switch reason {
        case .missingValue(let option), .invalidValue(_, let option, _):
            command.option(named: option).map { "\(label(option, command))  \($0.help)" }
        case .missingArgument(let name, _):
            command.arguments.first { $0.name == name }.map { "<\(name)>  \($0.help)" }
        default:
            nil
        }
    }

    /// `--app <name>`: the option as typed with its value placeholder.
    private func label(_ typed: String, _ command: CommandSpec) -> String {
        command.option(named: typed)?.valueName.map { "\(typed) <\($0)>" } ?? typed
    }

    private func allowedList(_ values: [String]) -> String {
        let quoted = values.map { "'\($0)'" }
        switch quoted.count {
        case 0: return ""
        case 1...2: return ". Please provide one of \(quoted.joined(separator: " and "))."
        case 3...5: return ". Please provide one of \(quoted.dropLast().joined(separator: ", ")) or \(quoted.last!)."
        default: return ". Please provide one of the following:\n" + values.map { "  - \($0)" }.joined(separator: "\n")
        }
    }
}
