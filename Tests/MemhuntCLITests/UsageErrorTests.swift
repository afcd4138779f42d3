import MemhuntCLI
import Testing

let runUsage = """
    memhunt run [<options>] [<artifact> ...]
    """

struct UsageErrorTests {
    static let cases: [(arguments: [String], stderr: String)] = [
        (
            ["run", "--formt", "json", "a.ips"],
            """
            Error: Unknown option '--formt'. Did you mean '--format'?
            Usage: \(runUsage)
              See 'memhunt run --help' for more information.

            """
        ),
        (
            ["run", "--noisy", "a.ips"],
            """
            Error: Unknown option '--noisy'
            Usage: \(runUsage)
              See 'memhunt run --help' for more information.

            """
        ),
        (
            ["run", "-x", "a.ips"],
            """
            Error: Unknown option '-x'
            Usage: \(runUsage)
              See 'memhunt run --help' for more information.

            """
        ),
        (
            ["--formt"],
            """
            Error: Unknown option '--formt'
            Usage: memhunt <subcommand>
              See 'memhunt --help' for more information.

            """
        ),
        (
            ["run", "a.ips", "--app"],
            """
            Error: Missing value for '--app <name>'
            Help:  --app <name>  The app under investigation: a process name or a bundle id.
            Usage: \(runUsage)
              See 'memhunt run --help' for more information.

            """
        ),
        (
            ["run", "-o", "--", "a.ips"],
            """
            Error: Missing value for '-o <file>'
            Help:  -o <file>  Write the report to this file (atomically; '-' is stdout) instead of stdout.
            Usage: \(runUsage)
              See 'memhunt run --help' for more information.

            """
        ),
        (
            ["validate"],
            """
            Error: Missing expected argument '<playbook> ...'

            OVERVIEW: Check playbooks (files or built-in ids) and report every problem as
            file:line:col.

            USAGE: memhunt validate [--format <format>] [--color <when>] <playbook> ...

            ARGUMENTS:
              <playbook>              A playbook file or a built-in playbook id.

            OPTIONS:
              --format <format>       The output format. (values: json, text; default: text)
              --color <when>          Color the output: auto (a terminal without NO_COLOR),
                                      always or never. (values: auto, always, never;
                                      default: auto)
              -h, --help              Show help information.


            """
        ),
        (
            ["checks", "extra"],
            """
            Error: Unexpected argument 'extra'
            Usage: memhunt checks [--format <format>] [--color <when>]
              See 'memhunt checks --help' for more information.

            """
        ),
        (
            ["completions", "bash", "zsh"],
            """
            Error: Unexpected argument 'zsh'
            Usage: memhunt completions <shell>
              See 'memhunt completions --help' for more information.

            """
        ),
        (
            ["run", "--allow-exec=yes", "a.ips"],
            """
            Error: The option '--allow-exec' does not take any value, but 'yes' was specified.
            Usage: \(runUsage)
              See 'memhunt run --help' for more information.

            """
        ),
        (
            ["checks", "--format", "xml"],
            """
            Error: The value 'xml' is invalid for '--format <format>'. Please provide one of 'json' and 'text'.
            Help:  --format <format>  The output format.
            Usage: memhunt checks [--format <format>] [--color <when>]
              See 'memhunt checks --help' for more information.

            """
        ),
        (
            ["run", "--fail-on=error", "a.ips"],
            """
            Error: The value 'error' is invalid for '--fail-on <severity>'. Please provide one of 'info', 'notice', \
            'warning' or 'critical'.
            Help:  --fail-on <severity>  Exit 1 when a finding reaches this severity.
            Usage: \(runUsage)
              See 'memhunt run --help' for more information.

            """
        ),
        (
            ["rnu", "a.ips"],
            """
            Error: Unknown subcommand 'rnu'. Did you mean 'run'?
            Usage: memhunt <subcommand>
              See 'memhunt --help' for more information.

            """
        ),
        (
            ["help", "chekcs"],
            """
            Error: Unknown subcommand 'chekcs'. Did you mean 'checks'?
            Usage: memhunt <subcommand>
              See 'memhunt --help' for more information.

            """
        ),
        (
            ["a.ips"],
            """
            Error: Unknown subcommand 'a.ips'
            Usage: memhunt <subcommand>
              See 'memhunt --help' for more information.

            """
        ),
    ]

    @Test(arguments: cases)
    func rendersLikeArgumentParser(arguments: [String], stderr: String) {
        #expect(throws: UsageError.self) { try MemhuntCommands.root.parse(arguments) }
        do {
            _ = try MemhuntCommands.root.parse(arguments)
        } catch {
            #expect(error.render(root: MemhuntCommands.root) == stderr)
        }
    }

    @Test func reasons() async throws {
        // The operands of run are optional to the parser (a ledger names its own); the command asks for them.
        let bare = try await BinaryTests.execute(["run"])
        #expect(bare.status == 64)
        #expect(bare.stderr.hasPrefix("Error: Missing expected argument '<artifact> ...'\n\nOVERVIEW: Walk a playbook"))
        let options = try await BinaryTests.execute(["run", "--app", "Memo"])
        #expect(options.status == 64)
        #expect(options.stderr.hasPrefix("Error: Missing expected argument '<artifact> ...'\nHelp:  <artifact>"))
        #expect(throws: UsageError(path: ["memhunt", "run"], reason: .invalidValue("xml", option: "--format"))) {
            try MemhuntCommands.root.parse(["run", "--format=xml", "a"])
        }
        #expect(throws: UsageError(path: ["memhunt", "run"], reason: .missingValue(option: "--app"))) {
            try MemhuntCommands.root.parse(["run", "--app", "--allow-exec", "a"])
        }
        #expect(throws: UsageError(path: ["memhunt", "run"], reason: .unknownOption("--version", suggestion: nil))) {
            try MemhuntCommands.root.parse(["run", "--version", "a"])
        }
    }

    @Test func explanationReplacesTheAllowedValues() {
        let error = UsageError(
            path: ["memhunt", "run"],
            reason: .invalidValue("ten", option: "--max-artifact-size", explanation: "expected a whole number"))
        #expect(
            error.render(root: MemhuntCommands.root) == """
                Error: The value 'ten' is invalid for '--max-artifact-size <MB>': expected a whole number
                Help:  --max-artifact-size <MB>  Refuse downloads larger than this many megabytes.
                Usage: \(runUsage)
                  See 'memhunt run --help' for more information.

                """)
    }

    @Test func manyAllowedValuesAreListed() {
        let spec = CommandSpec(
            "tool", abstract: "",
            options: [
                OptionSpec(
                    "level", valueName: "level", help: "How loud.", allowedValues: ["1", "2", "3", "4", "5", "6"])
            ])
        #expect(throws: UsageError.self) { try spec.parse(["--level", "7"]) }
        do {
            _ = try spec.parse(["--level", "7"])
        } catch {
            #expect(
                error.render(root: spec) == """
                    Error: The value '7' is invalid for '--level <level>'. Please provide one of the following:
                      - 1
                      - 2
                      - 3
                      - 4
                      - 5
                      - 6
                    Help:  --level <level>  How loud.
                    Usage: tool [--level <level>]
                      See 'tool --help' for more information.

                    """)
        }
        #expect(UsageError.exitStatus == 64)
    }
}
