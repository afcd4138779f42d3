import MemhuntCLI
import Testing

struct CommandParserTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var path: [String]
        var options: [String: [String]] = [:]
        var flags: Set<String> = []
        var positionals: [String] = []
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let commands: [Case] = [
        Case(arguments: ["run", "a.ips"], path: ["memhunt", "run"], positionals: ["a.ips"]),
        Case(
            arguments: ["run", "--format", "json", "--app=Notes", "a.ips", "b/"], path: ["memhunt", "run"],
            options: ["--format": ["json"], "--app": ["Notes"]], positionals: ["a.ips", "b/"]),
        Case(
            arguments: ["run", "a.ips", "-o", "r.json", "--allow-exec", "b.ips"], path: ["memhunt", "run"],
            options: ["--output": ["r.json"]], flags: ["--allow-exec"], positionals: ["a.ips", "b.ips"]),
        Case(
            arguments: ["run", "--header", "A: 1", "--header=B: 2", "x"], path: ["memhunt", "run"],
            options: ["--header": ["A: 1", "B: 2"]], positionals: ["x"]),
        Case(
            arguments: ["run", "--app", "-", "--", "--format", "-h"], path: ["memhunt", "run"],
            options: ["--app": ["-"]], positionals: ["--format", "-h"]),
        Case(
            arguments: ["inspect", "https://example.com/a.ips"], path: ["memhunt", "inspect"],
            positionals: ["https://example.com/a.ips"]),
        Case(arguments: ["checks", "--format", "json"], path: ["memhunt", "checks"], options: ["--format": ["json"]]),
        Case(arguments: ["playbooks"], path: ["memhunt", "playbooks"]),
        Case(
            arguments: ["validate", "a.yaml", "b.yaml"], path: ["memhunt", "validate"],
            positionals: ["a.yaml", "b.yaml"]),
    ]

    @Test(arguments: commands)
    func resolves(_ expected: Case) throws {
        let outcome = try MemhuntCommands.root.parse(expected.arguments)
        guard case .command(let command) = outcome else {
            Issue.record("expected a command, got \(outcome)")
            return
        }
        #expect(command.path == expected.path)
        #expect(command.values.options == expected.options)
        #expect(command.values.flags == expected.flags)
        #expect(command.values.positionals == expected.positionals)
    }

    static let requests: [(arguments: [String], outcome: ParseOutcome)] = [
        ([], .help(path: ["memhunt"])),
        (["-h"], .help(path: ["memhunt"])),
        (["--help"], .help(path: ["memhunt"])),
        (["help"], .help(path: ["memhunt"])),
        (["help", "run"], .help(path: ["memhunt", "run"])),
        (["-h", "run"], .help(path: ["memhunt"])),
        (["run", "-h"], .help(path: ["memhunt", "run"])),
        (["run", "a.ips", "--help"], .help(path: ["memhunt", "run"])),
        (["run", "--formt", "--help"], .help(path: ["memhunt", "run"])),
        (["run", "--app", "-h"], .help(path: ["memhunt", "run"])),
        (["checks", "-h"], .help(path: ["memhunt", "checks"])),
        (["--version"], .version),
        (["--version", "run"], .version),
    ]

    @Test(arguments: requests)
    func recognizesRequests(arguments: [String], outcome: ParseOutcome) throws {
        #expect(try MemhuntCommands.root.parse(arguments) == outcome)
    }

    @Test func helpAfterTerminatorIsPositional() throws {
        let outcome = try MemhuntCommands.root.parse(["inspect", "--", "-h"])
        guard case .command(let command) = outcome else {
            Issue.record("expected a command, got \(outcome)")
            return
        }
        #expect(command.values.positionals == ["-h"])
    }

    @Test func gettersApplyDefaultsAndKeepTheLastValue() throws {
        let outcome = try MemhuntCommands.root.parse(["run", "--app", "A", "--app", "B", "--allow-exec", "x"])
        guard case .command(let command) = outcome else {
            Issue.record("expected a command, got \(outcome)")
            return
        }
        let values = command.values
        #expect(values.string("--app") == "B")
        #expect(values.string("--format") == "text")
        #expect(values.string("--output") == nil)
        #expect(values.strings("--header") == [])
        #expect(values.strings("--format") == ["text"])
        #expect(values.flag("--allow-exec"))
    }

    @Test func bundledShortFlags() throws {
        let spec = CommandSpec(
            "tool", abstract: "", arguments: [ArgumentSpec("input", help: "", isOptional: true)],
            options: [
                OptionSpec("quiet", short: "q", help: ""), OptionSpec("verbose", short: "v", help: ""),
                OptionSpec("output", short: "o", valueName: "file", help: ""),
            ])
        let outcome = try spec.parse(["-qvo", "out", "in"])
        guard case .command(let command) = outcome else {
            Issue.record("expected a command, got \(outcome)")
            return
        }
        #expect(command.path == ["tool"])
        #expect(command.values.flags == ["--quiet", "--verbose"])
        #expect(command.values.options == ["--output": ["out"]])
        #expect(command.values.positionals == ["in"])
    }
}
