/// The options, flags and positionals given to one command, read through typed getters.
public struct ParsedValues: Sendable, Equatable {
    /// Values given for each option, keyed by `--long`, in the order given.
    public internal(set) var options: [String: [String]] = [:]
    /// The flags given, as `--long`.
    public internal(set) var flags: Set<String> = []
    /// Positional values, in order.
    public internal(set) var positionals: [String] = []
    private let spec: [String: OptionSpec]

    init(command: CommandSpec) {
        spec = Dictionary(uniqueKeysWithValues: command.options.map { ($0.name, $0) })
    }

    /// The last value given for option `name` (`--long`), else its default.
    public func string(_ name: String) -> String? {
        options[name]?.last ?? known(name).defaultValue
    }

    /// Every value given for option `name` (`--long`), else its default if any.
    public func strings(_ name: String) -> [String] {
        options[name] ?? known(name).defaultValue.map { [$0] } ?? []
    }

    /// Whether flag `name` (`--long`) was given.
    public func flag(_ name: String) -> Bool {
        precondition(known(name).isFlag, "'\(name)' is not a flag")
        return flags.contains(name)
    }

    private func known(_ name: String) -> OptionSpec {
        guard let option = spec[name] else { preconditionFailure("'\(name)' is not an option of this command") }
        return option
    }
}

/// A resolved command and the values given to it.
public struct ParsedCommand: Sendable, Equatable {
    /// The command path from the root, e.g. `["memhunt", "run"]`.
    public var path: [String]
    /// What the command was given.
    public var values: ParsedValues
}

/// What argv asks for.
public enum ParseOutcome: Sendable, Equatable {
    /// Run this command.
    case command(ParsedCommand)
    /// Print the help of the command at this path to stdout and exit 0.
    case help(path: [String])
    /// Print the version to stdout and exit 0.
    case version
}

extension ParsedValues {
    /// The last value given for `option`, else its default.
    public func string(_ option: OptionSpec) -> String? { string(option.name) }

    /// Every value given for `option`, else its default if any.
    public func strings(_ option: OptionSpec) -> [String] { strings(option.name) }

    /// Whether the flag `option` was given.
    public func flag(_ option: OptionSpec) -> Bool { flag(option.name) }

    /// The value of `option` as one of `E`'s raw values (the spec's allowed values already checked it).
    public func value<E: RawRepresentable>(_ option: OptionSpec, as: E.Type) -> E? where E.RawValue == String {
        string(option).flatMap(E.init(rawValue:))
    }
}
