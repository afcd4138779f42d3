import Foundation
import MemhuntArtifacts
import MemhuntBasics
import MemhuntCore
import MemhuntReports

/// `memhunt ledger init|show|judge|add`: the investigation ledger (docs/ledger.md), kept beside the hunt's
/// artifacts.
struct LedgerCommand: MemhuntCommand {
    static let file = ArgumentSpec("ledger", help: "The ledger file (memhunt.ledger/1).")
    static let app = OptionSpec(
        "app", valueName: "name", help: "The app whose artifacts decide (instead of the ledger's subject).")
    static let playbook = OptionSpec(
        "playbook", valueName: "id-or-path",
        help: "The playbook whose checks read each side (a built-in id or a file).", defaultValue: "memory-hunt")
    static let allowExec = OptionSpec("allow-exec", help: "Allow the playbook to run external programs.")
    static let judgeFormat = OptionSpec(
        "format", valueName: "format", help: "The output format.", allowedValues: ["json", "markdown", "text"],
        defaultValue: "text")
    static let subject = OptionSpec(
        "app", valueName: "name", help: "The app under investigation (the ledger's subject).")
    static let force = OptionSpec("force", help: "Replace an existing file.")

    static let tests = OptionSpec("tests", valueName: "hypothesis", help: "The hypothesis the experiment tests.")
    static let variable = OptionSpec("variable", valueName: "text", help: "The one variable the experiment changes.")
    static let baseline = OptionSpec(
        "baseline", valueName: "artifact", help: "An artifact of the baseline side (relative to the ledger).",
        isRepeatable: true)
    static let variant = OptionSpec(
        "variant", valueName: "artifact", help: "An artifact of the variant side (relative to the ledger).",
        isRepeatable: true)
    static let baselineLabel = OptionSpec(
        "baseline-label", valueName: "label", help: "The measurement rows of the baseline side, by label.")
    static let variantLabel = OptionSpec(
        "variant-label", valueName: "label", help: "The measurement rows of the variant side, by label.")
    static let equals = OptionSpec(
        "equals", valueName: "artifact",
        help: "A fix: an artifact of the good side it must equal (relative to the ledger).", isRepeatable: true)
    static let equalsLabel = OptionSpec(
        "equals-label", valueName: "label", help: "The measurement rows of the good side, by label.")
    static let fixes = OptionSpec("fixes", valueName: "hypothesis", help: "A fix: the hypothesis whose cause it fixes.")
    static let measure = OptionSpec(
        "measure", valueName: "fact", help: "The fact that decides (else the symptom's own measure).")
    static let statement = OptionSpec("statement", valueName: "text", help: "What the hypothesis says.")
    static let suspect = OptionSpec("suspect", valueName: "text", help: "What is suspected: a view, a type, a file.")

    static let spec = CommandSpec(
        "ledger",
        abstract: "Keep an investigation's hypotheses and experiments, and judge them over their artifacts.",
        subcommands: [
            CommandSpec(
                "add",
                abstract: "Append a hypothesis, an experiment or a fix to a ledger, checked before it is written.",
                usage: "memhunt ledger add <ledger> (hypothesis|experiment|fix) <id> [<options>]",
                arguments: [
                    file, ArgumentSpec("kind", help: "hypothesis, experiment or fix."),
                    ArgumentSpec("id", help: "The new entry's id (kebab-case, unique in the ledger)."),
                ],
                options: [
                    statement, suspect, tests, fixes, variable, baseline, variant, equals, baselineLabel,
                    variantLabel, equalsLabel, measure, Options.quiet,
                ]),
            CommandSpec(
                "init", abstract: "Write a new ledger to fill in (to stdout, or to a file that does not exist).",
                arguments: [ArgumentSpec("ledger", help: "The file to create.", isOptional: true)],
                options: [subject, force]),
            CommandSpec(
                "judge",
                abstract: "Judge every experiment, bisection and fix of a ledger over the artifacts each names.",
                arguments: [file], options: [app, playbook, judgeFormat, allowExec, Options.color]),
            CommandSpec(
                "show", abstract: "Check a ledger and list its entries (every problem as file:line:col).",
                arguments: [file], options: [Options.format(Options.listingFormats)]),
        ])

    var parsed: ParsedCommand
    var console: Console

    init(_ parsed: ParsedCommand, console: Console) throws {
        self.parsed = parsed
        self.console = console
    }

    func execute() async throws -> Memhunt.ExitStatus {
        let values = parsed.values
        switch parsed.path.last {
        case "init": return try initialize(values.positionals.first)
        case "show": return try show(try LedgerRun.load(values.positionals[0], console: console))
        case "judge": return try await judge(try LedgerRun.load(values.positionals[0], console: console))
        case "add": return try add()
        default: return .usage
        }
    }

    func initialize(_ path: String?) throws -> Memhunt.ExitStatus {
        let text = LedgerEditor.skeleton(subject: parsed.values.string(Self.subject))
        guard let path else {
            console.stdout.write(text)
            return .success
        }
        if FileManager.default.fileExists(atPath: path), !parsed.values.flag(Self.force) {
            throw CommandError("\(path) exists; memhunt never replaces a ledger unless told (--force)")
        }
        try write(text, to: path)
        console.note("memhunt: wrote \(path)")
        return .success
    }

    func show(_ ledger: Ledger) throws -> Memhunt.ExitStatus {
        if parsed.values.string(Options.format()) == "json" {
            struct Entry: Encodable {
                var kind: String
                var id: String
                var text: String
            }
            console.stdout.write(JSONText.pretty(Self.entries(ledger).map { Entry(kind: $0.0, id: $0.1, text: $0.2) }))
            return .success
        }
        var out =
            "\(ledger.origin): ok (" + Plural.count(ledger.hypotheses.count, "hypothesis", "hypotheses") + ", "
            + Plural.count(ledger.experiments.count, "experiment") + ", "
            + Plural.count(ledger.bisections.count, "bisection") + ", "
            + Plural.count(ledger.fixes.count, "fix", "fixes")
            + ")\n"
        for (kind, id, text) in Self.entries(ledger) { out += "   \(kind) \(id): \(text)\n" }
        console.stdout.write(TerminalText.escaped(out, keepingNewlines: true))
        return .success
    }

    /// Every entry as (kind, id, one line), in the ledger's order of kinds.
    static func entries(_ ledger: Ledger) -> [(String, String, String)] {
        func side(_ side: LedgerSide) -> String {
            side.artifacts.joined(separator: ", ") + (side.label.map { " [\($0)]" } ?? "")
        }
        var result: [(String, String, String)] = []
        for symptom in ledger.symptoms {
            result.append(("symptom", symptom.id, symptom.words ?? symptom.means.first ?? ""))
        }
        for hypothesis in ledger.hypotheses { result.append(("hypothesis", hypothesis.id, hypothesis.statement)) }
        for e in ledger.experiments {
            result.append(
                (
                    "experiment", e.id,
                    "tests \(e.tests): \(e.comparand.variable) (\(side(e.baseline)) → \(side(e.variant)))"
                ))
        }
        for b in ledger.bisections {
            result.append(
                ("bisection", b.id, "\(b.toggles.count) toggles, \(Plural.count(b.tries.count, "try", "tries"))"))
        }
        for c in ledger.counterEvidence { result.append(("counter-evidence", c.id, "against \(c.against): \(c.says)")) }
        for f in ledger.fixes { result.append(("fix", f.id, "\(f.comparand.variable) (\(side(f.variant)))")) }
        return result
    }

    func judge(_ ledger: Ledger) async throws -> Memhunt.ExitStatus {
        let collector = try ArtifactCollector(console: console, command: parsed)
        defer { collector.removeCache() }
        let playbook = try PlaybookReference.loadLocal(
            parsed.values.string(Self.playbook) ?? "memory-hunt", console: console)
        let judgement = await LedgerRun.judged(
            ledger, playbook: playbook, app: parsed.values.string(Self.app), collector: collector,
            allowExec: parsed.values.flag(Self.allowExec))
        switch parsed.values.string(Self.judgeFormat) ?? "text" {
        case "json": console.stdout.write(JSONText.pretty(judgement))
        case "markdown": console.stdout.write(LedgerSummary.markdown(judgement))
        default:
            let options = ReportOptions(
                colored: console.stdoutColored, decisions: [:], width: console.reportWidth, detail: console.detail)
            console.stdout.write(LedgerSummary.text(judgement, options: options))
        }
        return .success
    }

    /// Appends one entry, checks the whole ledger with it, and replaces the file only if no one else changed
    /// it since it was read (two triage sessions writing one ledger lose no entry: the second is told).
    func add() throws -> Memhunt.ExitStatus {
        let values = parsed.values
        let (path, kind, id) = (values.positionals[0], values.positionals[1], values.positionals[2])
        var entry: [(String, LedgerEditor.Value)] = [("id", .string(id))]
        func required(_ option: OptionSpec) throws -> String {
            guard let value = values.string(option), !value.isEmpty else {
                throw UsageError(path: parsed.path, reason: .missingValue(option: option.name))
            }
            return value
        }
        func side(_ artifacts: OptionSpec, _ label: OptionSpec) throws -> LedgerEditor.Value {
            let paths = values.strings(artifacts)
            guard !paths.isEmpty else {
                throw UsageError(path: parsed.path, reason: .missingValue(option: artifacts.name))
            }
            guard let label = values.string(label) else { return .strings(paths) }
            return .mapping([("artifacts", .strings(paths)), ("label", .string(label))])
        }
        let list: String
        switch kind {
        case "hypothesis":
            list = "hypotheses"
            entry.append(("statement", .string(try required(Self.statement))))
            if let suspect = values.string(Self.suspect) { entry.append(("suspect", .string(suspect))) }
        case "experiment":
            list = "experiments"
            entry.append(("tests", .string(try required(Self.tests))))
            entry.append(("variable", .string(try required(Self.variable))))
            if let measure = values.string(Self.measure) { entry.append(("measure", .string(measure))) }
            entry.append(("baseline", try side(Self.baseline, Self.baselineLabel)))
            entry.append(("variant", try side(Self.variant, Self.variantLabel)))
        case "fix":
            list = "fixes"
            if let fixed = values.string(Self.fixes) { entry.append(("fixes", .string(fixed))) }
            entry.append(("variable", .string(try required(Self.variable))))
            if let measure = values.string(Self.measure) { entry.append(("measure", .string(measure))) }
            entry.append(("variant", try side(Self.variant, Self.variantLabel)))
            let hasEquals = !values.strings(Self.equals).isEmpty
            let hasBaseline = !values.strings(Self.baseline).isEmpty
            guard hasEquals || hasBaseline else {
                throw UsageError(path: parsed.path, reason: .missingValue(option: Self.equals.name))
            }
            if hasEquals { entry.append(("equals", try side(Self.equals, Self.equalsLabel))) }
            if hasBaseline { entry.append(("baseline", try side(Self.baseline, Self.baselineLabel))) }
        default:
            throw UsageError(
                path: parsed.path,
                reason: .invalidValue(
                    kind, option: "<kind>",
                    explanation: "hypothesis, experiment or fix"
                        + Suggestion.hint(for: kind, among: ["hypothesis", "experiment", "fix"])))
        }
        try LedgerRun.append([(list, entry)], to: path, console: console)
        if console.detail != .quiet { console.note("memhunt: added \(kind) \(id) to \(path)") }
        return .success
    }

    func write(_ text: String, to path: String) throws {
        do {
            try AtomicFile.write(Array(text.utf8), to: path)
        } catch {
            throw CommandError("\(error)")
        }
    }
}
