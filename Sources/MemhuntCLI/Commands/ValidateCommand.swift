import Foundation
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
        /// The same problems as fields: where, at which level, what, and the key a message names (`'playbok'`).
        var problems: [Problem] = []

        struct Problem: Encodable {
            var file: String?
            var line: Int?
            var column: Int?
            var level: String
            var message: String
            var key: String?
        }

        init(playbook: String, id: String? = nil, steps: Int? = nil, diagnostics: [String]) {
            self.playbook = playbook
            self.id = id
            self.steps = steps
            self.diagnostics = diagnostics
        }

        init(playbook: String, problems: [Diagnostic]) {
            self.init(playbook: playbook, diagnostics: problems.map(\.description))
            self.problems = problems.map { diagnostic in
                // "unknown key 'playbok' in …", "unknown parameter 'limit_mbb' …": the first quoted name.
                let quoted = diagnostic.message.split(separator: "'", omittingEmptySubsequences: false)
                return Problem(
                    file: diagnostic.location?.file, line: diagnostic.location?.line,
                    column: diagnostic.location?.column, level: diagnostic.level.rawValue,
                    message: diagnostic.message, key: quoted.count >= 3 ? String(quoted[1]) : nil)
            }
        }
    }

    /// A project file's outcome: ok with no id and no steps, or its problems.
    static func project(_ path: String) -> Outcome {
        guard let data = FileManager.default.contents(atPath: path) else {
            return Outcome(playbook: path, diagnostics: ["\(path): cannot read the project file"])
        }
        let directory = (path as NSString).deletingLastPathComponent
        switch ProjectDefaults.loader.load(
            text: String(decoding: data, as: UTF8.self), path: path, directory: directory)
        {
        case .success: return Outcome(playbook: path, id: "project file", steps: 0, diagnostics: [])
        case .failure(let error): return Outcome(playbook: path, problems: error.diagnostics)
        }
    }

    func execute() -> Memhunt.ExitStatus {
        var outcomes: [Outcome] = []
        for reference in parsed.values.positionals {
            // A project file (`.memhunt.yml`) is validated as one.
            if (reference as NSString).lastPathComponent.hasSuffix(ProjectDefaults.fileName) {
                outcomes.append(Self.project(reference))
                continue
            }
            let loaded = playbookLoader.builtIn(reference) ?? playbookLoader.load(path: reference)
            switch loaded {
            case .success(let playbook):
                outcomes.append(
                    Outcome(playbook: reference, id: playbook.id, steps: playbook.steps.count, diagnostics: []))
            case .failure(let error):
                outcomes.append(Outcome(playbook: reference, problems: error.diagnostics))
            }
        }
        if parsed.values.string(Options.format()) == "json" {
            console.stdout.write(JSONText.pretty(outcomes))
        } else {
            for outcome in outcomes {
                if outcome.id == "project file", outcome.diagnostics.isEmpty {
                    console.stdout.write("\(TerminalText.escaped(outcome.playbook)): ok (a project file)\n")
                } else if let id = outcome.id, let steps = outcome.steps {
                    console.stdout.write(
                        "\(TerminalText.escaped(outcome.playbook)): ok (\(id), \(Plural.count(steps, "step")))\n")
                } else {
                    console.lines(outcome.diagnostics.map { TerminalText.escaped($0) }.joined(separator: "\n"))
                }
            }
        }
        let invalid = outcomes.count { !$0.diagnostics.isEmpty }
        if invalid > 0 {
            console.note("Error: \(invalid) of \(Plural.count(outcomes.count, "file")) invalid")
        }
        return invalid == 0 ? .success : .couldNotRun
    }
}
