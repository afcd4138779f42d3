/// One memhunt command: its spec (parsing and help), and its execution, in one type.
///
/// Adding a command is one file with a type conforming to this protocol and one line in `commandList`.
protocol MemhuntCommand {
    /// What the command accepts and what its help says.
    static var spec: CommandSpec { get }
    /// Reads the parsed values; throws `UsageError` for values the spec could not check.
    init(_ parsed: ParsedCommand, console: Console) throws
    /// Does the work and says how it ended. The caller turns the status into the process's exit.
    func execute() async throws -> Memhunt.ExitStatus
}

/// A command that reads its parsed values when it runs and writes one report where `-o` says: its init is
/// the memberwise one of `parsed`, `console` and `output`.
protocol ReportingCommand: MemhuntCommand {
    init(parsed: ParsedCommand, console: Console, output: ReportDestination)
}

extension ReportingCommand {
    init(_ parsed: ParsedCommand, console: Console) throws {
        try self.init(parsed: parsed, console: console, output: ReportDestination(parsed))
    }
}

/// Every command, in help order (the walk first, then the rest sorted). A test guards the order. A constant
/// list of types (metatypes of a protocol that is not `Sendable` are not `Sendable` to the compiler).
nonisolated(unsafe) let commandList: [any MemhuntCommand.Type] = [
    RunCommand.self,
    AttachCommand.self,
    ChecksCommand.self,
    CompletionsCommand.self,
    DiffCommand.self,
    InitCommand.self,
    InspectCommand.self,
    LedgerCommand.self,
    MCPCommand.self,
    PlaybooksCommand.self,
    PostmortemCommand.self,
    ReportCommand.self,
    ScanCommand.self,
    SuppressCommand.self,
    TriageCommand.self,
    ValidateCommand.self,
]
