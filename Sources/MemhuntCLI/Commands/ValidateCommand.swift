import MemhuntCore

/// `memhunt validate`: every problem of every playbook, as `file:line:col: error: …`.
struct ValidateCommand: MemhuntCommand {
    static let spec = CommandSpec(
        "validate",
        abstract: "Check playbooks (files or built-in ids) and report every problem as file:line:col.",
        arguments: [ArgumentSpec("playbook", help: "A playbook file or a built-in playbook id.", isRepeating: true)],
        options: [Options.format(Options.listingFormats), Options.color]
    )

    var parsed: ParsedCommand
    var console: Console

    init(_ parsed: ParsedCommand, console: Console) throws {
        self.parsed = parsed
        self.console = console
    }

    struct Outcome: Encodable {
        var playbook: String
        var id: String?
        var steps: Int?
        var diagnostics: [String]
    }

    func execute() -> Memhunt.ExitStatus {
        var outcomes: [Outcome] = []
        for reference in parsed.values.positionals {
            let loaded = playbookLoader.builtIn(reference) ?? playbookLoader.load(path: reference)
            switch loaded {
            case .success(let playbook):
                outcomes.append(
                    Outcome(playbook: reference, id: playbook.id, steps: playbook.steps.count, diagnostics: []))
            case .failure(let error):
                outcomes.append(Outcome(playbook: reference, diagnostics: error.diagnostics.map(\.description)))
            }
        }
        if parsed.values.string(Options.format()) == "json" {
            console.stdout.write(JSONText.pretty(outcomes))
        } else {
            for outcome in outcomes {
                if let id = outcome.id, let steps = outcome.steps {
                    console.stdout.write(
                        "\(TerminalText.escaped(outcome.playbook)): ok (\(id), \(Plural.count(steps, "step")))\n")
                } else {
                    console.lines(outcome.diagnostics.map { TerminalText.escaped($0) }.joined(separator: "\n"))
                }
            }
        }
        let invalid = outcomes.count { !$0.diagnostics.isEmpty }
        if invalid > 0 {
            console.note(
                "memhunt: exit 2: \(invalid) of \(Plural.count(outcomes.count, "playbook")) invalid")
        }
        return invalid == 0 ? .success : .couldNotRun
    }
}
