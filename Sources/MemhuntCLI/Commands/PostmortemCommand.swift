import Foundation
import MemhuntChecks
import MemhuntCore
import MemhuntReports

/// `memhunt postmortem FINDINGS.json…`: a Markdown postmortem drafted from saved runs (the incident's
/// run first, the verifying run after the fix last), through the built-in template or a team's own.
struct PostmortemCommand: ReportingCommand {
    static let template = OptionSpec(
        "template", valueName: "file",
        help: "A Markdown template with {{section NAME}}, {{fact KEY}}, {{app}}, {{date}} placeholders.")

    static let spec = CommandSpec(
        "postmortem",
        abstract: "Draft a Markdown postmortem from saved runs: the incident's first, the verifying run last.",
        arguments: [
            ArgumentSpec(
                "findings", help: "Findings documents (memhunt run --format json), oldest first; - for stdin.",
                isRepeating: true)
        ],
        options: [template, Options.output]
    )

    var parsed: ParsedCommand
    var console: Console
    var output: ReportDestination

    func execute() async throws -> Memhunt.ExitStatus {
        let runs = try parsed.values.positionals.map { try FindingsInput.read($0, console: console) }
        let template: PostmortemTemplate
        if let path = parsed.values.string(Self.template) {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandError("\(path): cannot read the template (no such file or not readable)")
            }
            template = PostmortemTemplate(text: String(decoding: data, as: UTF8.self), origin: path)
        } else {
            template = .builtIn
        }
        let known = Set(builtInChecks.flatMap { $0.description.facts.map(\.key) })
        switch template.render(Postmortem(runs: runs), knownFacts: known) {
        case .success(let text):
            try output.write(
                text: text, summary: "postmortem of " + Plural.count(runs.count, "run"), console: console)
            return .success
        case .failure(let failure):
            let problems = failure.all
            for problem in problems { console.lines(problem.description) }
            throw CommandError("the template has " + Plural.count(problems.count, "problem"))
        }
    }
}
