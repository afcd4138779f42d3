import MemhuntArtifacts
import MemhuntChecks
import MemhuntCore
import MemhuntReports

/// `memhunt checks`: every built-in check from its description.
struct ChecksCommand {
    var command: ParsedCommand
    var console: Console

    func execute() throws -> Memhunt.ExitStatus {
        let descriptions = builtInChecks.map { $0.description }
        if command.values.string("--format") == "json" {
            console.stdout.write(JSONNode.array(descriptions.map(Self.node)).rendered())
            return .success
        }
        var out = ""
        for d in descriptions {
            out += d.id.styled(.bold, enabled: console.stdoutColored) + "  " + d.title + "  (step \(d.step))\n"
            out += "   " + d.rationale + "\n"
            out += "   reads: " + d.reads.map(\.rawValue).joined(separator: ", ") + "\n"
            out += "   facts: " + d.facts.joined(separator: ", ") + "\n"
            for p in d.parameters { out += "   with \(p.name) (default \(p.defaultValue)): \(p.help)\n" }
            out += "\n"
        }
        console.stdout.write(out)
        return .success
    }

    static func node(_ d: CheckDescription) -> JSONNode {
        .object([
            ("id", .string(d.id)), ("title", .string(d.title)), ("step", .string(d.step)),
            ("rationale", .string(d.rationale)), ("reads", .array(d.reads.map { .string($0.rawValue) })),
            ("facts", .array(d.facts.map { .string($0) })),
            (
                "parameters",
                .array(
                    d.parameters.map {
                        .object([
                            ("name", .string($0.name)), ("default", JSONNode($0.defaultValue)),
                            ("help", .string($0.help)),
                        ])
                    })
            ),
        ])
    }
}

/// `memhunt playbooks`: the built-in playbooks.
struct PlaybooksCommand {
    var console: Console

    func execute() -> Memhunt.ExitStatus {
        var out = ""
        for id in BuiltInPlaybooks.all.map(\.id) {
            guard case .success(let p)? = playbookLoader.builtIn(id) else { continue }
            out += id.styled(.bold, enabled: console.stdoutColored) + "  " + p.title + "  (\(p.steps.count) steps)\n"
            out += "   " + p.summary + "\n"
        }
        console.stdout.write(out)
        return .success
    }
}

/// `memhunt validate`: every problem of every playbook, as `file:line:col: error: …`.
struct ValidateCommand {
    var command: ParsedCommand
    var console: Console

    func execute() -> Memhunt.ExitStatus {
        var invalid = 0
        for path in command.values.positionals {
            switch playbookLoader.load(path: path) {
            case .success(let playbook):
                console.stdout.write("\(path): ok (\(playbook.id), \(playbook.steps.count) steps)\n")
            case .failure(let error):
                invalid += 1
                console.stderr.write(error.description + "\n")
            }
        }
        return invalid == 0 ? .success : .couldNotRun
    }
}
