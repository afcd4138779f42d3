import Foundation
import MemhuntChecks
import MemhuntCore
import MemhuntFormats
import MemhuntReports

/// `memhunt checks`: every built-in check from its description: codes, facts with units, parameters.
struct ChecksCommand: MemhuntCommand {
    static let spec = CommandSpec(
        "checks", abstract: "List the built-in checks: their finding codes, facts with units, and parameters.",
        options: [Options.format(Options.listingFormats), Options.color])

    var parsed: ParsedCommand
    var console: Console

    init(_ parsed: ParsedCommand, console: Console) throws {
        self.parsed = parsed
        self.console = console
    }

    /// One check as `memhunt checks --format json` lists it.
    struct Listing: Encodable {
        struct Parameter: Encodable {
            var name: String
            var `default`: FactValue
            var help: String
        }
        struct Fact: Encodable {
            var key: String
            var unit: FactUnit
            var meaning: String
            /// Which way is better (`diff`).
            var better: Better
            /// Whether it is a number to keep beside a fix.
            var measure: Bool
            /// Whether it is a check's setting, not something an artifact says.
            var setting: Bool
        }
        var id: String
        var title: String
        var step: String
        var rationale: String
        var reads: [ArtifactKind]
        var codes: [FindingCode]
        var facts: [Fact]
        var parameters: [Parameter]

        init(_ d: CheckDescription) {
            id = d.id
            title = d.title
            step = d.step
            rationale = d.rationale
            reads = d.reads
            codes = d.codes
            facts = d.facts.map {
                Fact(
                    key: $0.key, unit: $0.unit, meaning: $0.meaning, better: $0.better, measure: $0.measure,
                    setting: $0.setting)
            }
            parameters = d.parameters.map { Parameter(name: $0.name, default: $0.defaultValue, help: $0.help) }
        }
    }

    func execute() throws -> Memhunt.ExitStatus {
        // The engine's own findings about artifacts are listed beside the checks, under the id they carry.
        let descriptions = builtInChecks.map { $0.description } + [EngineFindings.description]
        if parsed.values.string(Options.format()) == "json" {
            console.stdout.write(JSONText.pretty(descriptions.map(Listing.init)))
            return .success
        }
        var out = ""
        for d in descriptions {
            out += d.id.styled(.bold, enabled: console.stdoutColored) + "  " + d.title + "\n"
            out += "   " + d.rationale + "\n"
            out += "   reads: " + d.reads.map(\.rawValue).joined(separator: ", ") + "\n"
            for fact in d.facts { out += "   fact \(fact.key) (\(fact.unit.rawValue)): \(fact.meaning)\n" }
            for code in d.codes { out += "   code \(code.code) (\(code.severity.rawValue)): \(code.meaning)\n" }
            for p in d.parameters { out += "   with \(p.name) (default \(p.defaultValue)): \(p.help)\n" }
            out += "\n"
        }
        // Wrapped as run's text report is: at the terminal's width, else COLUMNS, else 100.
        console.stdout.write(TextReporter.wrapLines(out, width: console.reportWidth ?? 100))
        return .success
    }
}
