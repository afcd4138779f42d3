/// A positional argument of a command.
public struct ArgumentSpec: Sendable, Equatable {
    /// The name shown as `<name>` in usage and help.
    public var name: String
    /// One line of help.
    public var help: String
    /// Whether the argument takes every remaining positional value.
    public var isRepeating: Bool
    /// Whether the command runs without it.
    public var isOptional: Bool

    /// Creates a positional argument.
    public init(_ name: String, help: String, isRepeating: Bool = false, isOptional: Bool = false) {
        self.name = name
        self.help = help
        self.isRepeating = isRepeating
        self.isOptional = isOptional
    }
}

/// A named option or flag of a command; a flag is an option without a value name.
public struct OptionSpec: Sendable, Equatable {
    /// The long name without dashes: `format` for `--format`.
    public var long: String
    /// The short name: `o` for `-o`.
    public var short: Character?
    /// The value placeholder shown as `<valueName>`; `nil` for a flag.
    public var valueName: String?
    /// One line of help.
    public var help: String
    /// Whether giving it several times collects every value.
    public var isRepeatable: Bool
    /// The only values accepted; empty accepts any value.
    public var allowedValues: [String]
    /// The value used when the option is absent.
    public var defaultValue: String?

    /// Creates an option taking a value (`valueName` set) or a flag (`valueName` nil).
    public init(
        _ long: String, short: Character? = nil, valueName: String? = nil, help: String, isRepeatable: Bool = false,
        allowedValues: [String] = [], defaultValue: String? = nil
    ) {
        self.long = long
        self.short = short
        self.valueName = valueName
        self.help = help
        self.isRepeatable = isRepeatable
        self.allowedValues = allowedValues
        self.defaultValue = defaultValue
    }

    /// Whether the option takes no value.
    public var isFlag: Bool { valueName == nil }

    /// The long name with dashes: `--format`.
    public var name: String { "--" + long }
}

/// A free-form help section printed after the generated ones, such as `EXIT STATUS:`.
public struct HelpSection: Sendable, Equatable {
    /// The heading without the colon, in capitals.
    public var title: String
    /// The lines of the section, printed indented and unwrapped.
    public var lines: [String]

    /// Creates a section.
    public init(title: String, lines: [String]) {
        self.title = title
        self.lines = lines
    }
}

/// A command, its arguments, options and subcommands: the one source of both parsing and help.
///
/// A command with subcommands takes no options or arguments of its own.
public struct CommandSpec: Sendable, Equatable {
    /// The word that invokes the command.
    public var name: String
    /// One line shown in the parent's subcommand list and after `OVERVIEW:`.
    public var abstract: String
    /// Paragraphs shown after the abstract in the command's help.
    public var discussion: String
    /// A usage line replacing the generated one, command path included.
    public var usage: String?
    /// Positional arguments, in order.
    public var arguments: [ArgumentSpec]
    /// Options and flags, in help order; `-h, --help` is implied.
    public var options: [OptionSpec]
    /// Subcommands, in help order.
    public var subcommands: [CommandSpec]
    /// Whether `--version` is accepted and listed.
    public var hasVersionFlag: Bool
    /// Sections printed after `SUBCOMMANDS:`.
    public var sections: [HelpSection]

    /// Creates a command.
    public init(
        _ name: String, abstract: String, discussion: String = "", usage: String? = nil,
        arguments: [ArgumentSpec] = [], options: [OptionSpec] = [], subcommands: [CommandSpec] = [],
        hasVersionFlag: Bool = false, sections: [HelpSection] = []
    ) {
        precondition(
            subcommands.isEmpty || (arguments.isEmpty && options.isEmpty), "'\(name)' mixes subcommands and options")
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.usage = usage
        self.arguments = arguments
        self.options = options
        self.subcommands = subcommands
        self.hasVersionFlag = hasVersionFlag
        self.sections = sections
    }

    /// The command at `path`, whose first element is this command's name.
    public func command(at path: [String]) -> CommandSpec? {
        guard path.first == name else { return nil }
        var command = self
        for word in path.dropFirst() {
            guard let next = command.subcommands.first(where: { $0.name == word }) else { return nil }
            command = next
        }
        return command
    }

    /// The option named `--long` or `-s` as typed.
    func option(named typed: String) -> OptionSpec? {
        typed.hasPrefix("--")
            ? options.first { $0.name == typed } : options.first { $0.short.map { "-\($0)" } == typed }
    }
}
