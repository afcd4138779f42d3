import MemhuntCore

/// `memhunt playbooks [show ID]`: the built-in playbooks, or one's YAML to copy and tune.
struct PlaybooksCommand: MemhuntCommand {
    static let spec = CommandSpec(
        "playbooks",
        abstract: "List the built-in playbooks, or print one's YAML (playbooks show ID) to copy and tune.",
        usage: "memhunt playbooks [--format <format>] [show <id>]",
        arguments: [
            ArgumentSpec("action", help: "show: print a built-in playbook's YAML.", isOptional: true),
            ArgumentSpec("id", help: "The playbook to show.", isOptional: true),
        ],
        options: [Options.format(Options.listingFormats), Options.color]
    )

    var parsed: ParsedCommand
    var console: Console

    init(_ parsed: ParsedCommand, console: Console) throws {
        self.parsed = parsed
        self.console = console
        let positionals = parsed.values.positionals
        let ids = BuiltInPlaybooks.all.map(\.id)
        switch positionals.count {
        case 0: break
        case 2 where positionals[0] == "show":
            guard ids.contains(positionals[1]) else {
                throw UsageError(
                    path: parsed.path,
                    reason: .invalidValue(
                        positionals[1], option: "<id>",
                        explanation: "one of " + ids.joined(separator: ", ")
                            + Suggestion.hint(for: positionals[1], among: ids)))
            }
        default:
            throw UsageError(
                path: parsed.path,
                reason: .invalidValue(
                    positionals.joined(separator: " "), option: "<action>", explanation: "'show <id>'"))
        }
    }

    struct Listing: Encodable {
        var id: String
        var title: String
        var summary: String
        var steps: [String]
    }

    func execute() -> Memhunt.ExitStatus {
        let positionals = parsed.values.positionals
        if positionals.count == 2, let builtIn = BuiltInPlaybooks.all.first(where: { $0.id == positionals[1] }) {
            console.stdout.write(builtIn.text.hasSuffix("\n") ? builtIn.text : builtIn.text + "\n")
            return .success
        }
        let playbooks = BuiltInPlaybooks.all.compactMap { entry -> Playbook? in
            guard case .success(let p)? = playbookLoader.builtIn(entry.id) else { return nil }
            return p
        }
        if parsed.values.string(Options.format()) == "json" {
            console.stdout.write(
                JSONText.pretty(
                    playbooks.map {
                        Listing(id: $0.id, title: $0.title, summary: $0.summary, steps: $0.steps.map(\.id))
                    }))
            return .success
        }
        var out = ""
        for p in playbooks {
            out +=
                p.id.styled(.bold, enabled: console.stdoutColored) + "  " + p.title + "  ("
                + Plural.count(p.steps.count, "step") + ")\n"
            out += "   " + p.summary + "\n"
        }
        console.stdout.write(out)
        return .success
    }
}
