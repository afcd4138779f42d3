import MemhuntCore
import MemhuntSnapshots

/// SARIF 2.1.0, what GitHub code scanning and Azure DevOps ingest: one run per hunt, a rule per finding
/// code the document's findings carry (from the document's code catalog: the checks' own meaning, default
/// severity and rationale), a result per finding with its evidence as locations, and partial fingerprints
/// that stay the same across runs of one hunt, so code scanning tracks a finding, not a run.
///
/// Levels: critical → `error`, warning → `warning`, notice and info → `note`. A location has a line region
/// only where the evidence names a line; a JSON pointer is given as the location's logical location
/// (`kind: element`); evidence with neither is the whole file. Each result's `properties` hold memhunt's
/// own severity, step and check, and the facts its check recorded in that step. The run's id and times are
/// left out: two runs of one hunt give the same log.
public enum SARIFReporter: Reporter {
    public static let identifier = "sarif"
    public static let summary = "SARIF 2.1.0 for GitHub code scanning and other static-analysis viewers."

    /// The OASIS schema of SARIF 2.1.0 (errata 01).
    public static let schemaURI =
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    public static func render(_ document: FindingsDocument, options: ReportOptions) -> String {
        JSONText.pretty(log(document))
    }

    // MARK: - The log

    static func log(_ document: FindingsDocument) -> Log {
        let codes = orderedCodes(document)
        let ruleIndex = Dictionary(uniqueKeysWithValues: codes.enumerated().map { ($1, $0) })
        let rules = codes.map { code in rule(code, document: document) }
        var artifactIndex: [String: Int] = [:]
        var artifacts: [ArtifactEntry] = []
        for record in document.artifacts where artifactIndex[record.source] == nil {
            artifactIndex[record.source] = artifacts.count
            artifacts.append(
                ArtifactEntry(
                    location: ArtifactLocation(uri: uri(record.source), index: nil),
                    length: record.size, hashes: record.sha256.map { ["sha-256": $0] }))
        }
        var results = document.findings.map { finding in
            result(finding, document: document, ruleIndex: ruleIndex[ruleID(finding)], artifactIndex: artifactIndex)
        }
        // A suppressed finding is a result with its suppression (SARIF's own: accepted, with the reason).
        for entry in document.suppression?.suppressed ?? [] {
            var suppressed = result(
                entry.finding, document: document, ruleIndex: ruleIndex[ruleID(entry.finding)],
                artifactIndex: artifactIndex)
            suppressed.suppressions = [
                SuppressionEntry(
                    kind: "external", status: "accepted",
                    justification: entry.suppression.reason + (entry.suppression.owner.map { " (\($0))" } ?? ""))
            ]
            results.append(suppressed)
        }
        let subject = document.subject.app ?? "any app"
        let run = Run(
            tool: Tool(
                driver: Driver(
                    name: "memhunt", version: document.tool.version, rules: rules)),
            automationDetails: AutomationDetails(id: "memhunt/\(document.playbook.id)/\(subject)/"),
            invocations: [
                Invocation(
                    executionSuccessful: document.gate.exitStatus == 0 || document.gate.exitStatus == 1,
                    exitCode: document.gate.exitStatus)
            ],
            artifacts: artifacts, results: results,
            properties: RunProperties(
                playbook: document.playbook.id, app: document.subject.app,
                verdict: document.verdict?.sentences.map(\.text) ?? []))
        return Log(schema: schemaURI, version: "2.1.0", runs: [run])
    }

    /// The rule ids of the findings in first-appearance order.
    static func orderedCodes(_ document: FindingsDocument) -> [String] {
        var seen = Set<String>()
        let suppressed = document.suppression?.suppressed.map(\.finding) ?? []
        return (document.findings + suppressed).map(ruleID).filter { seen.insert($0).inserted }
    }

    /// A finding's rule: its code, or for a finding that names a catalogued pattern the code and the pattern
    /// (`leaks.cycle/delegate.strong`: SARIF's hierarchical rule id), so each pattern has its own help.
    static func ruleID(_ finding: Finding) -> String {
        finding.pattern.map { finding.code + "/" + $0 } ?? finding.code
    }

    static func rule(_ id: String, document: FindingsDocument) -> Rule {
        let parts = id.split(separator: "/", maxSplits: 1).map(String.init)
        let all = document.findings + (document.suppression?.suppressed.map(\.finding) ?? [])
        let general = rule(parts[0], document: document, finding: all.first { ruleID($0) == id })
        guard parts.count == 2, let pattern = CycleCatalog.patterns.first(where: { $0.id == parts[1] }) else {
            return general
        }
        var rule = general
        rule.id = id
        rule.name = ruleName(parts[0]) + ruleName(pattern.id)
        rule.shortDescription = Message(text: pattern.title)
        let help =
            "Fix: \(pattern.fix) Before: `\(pattern.before)`; after: `\(pattern.after)`. SwiftLint: \(pattern.swiftLint)."
        rule.fullDescription = Message(text: pattern.title + ". " + help)
        rule.help = Message(text: help)
        rule.properties.tags.append(pattern.id)
        return rule
    }

    static func rule(_ code: String, document: FindingsDocument, finding: Finding?) -> Rule {
        let info = document.codeCatalog?[code]
        // A code no description declares (an external check's) is described by its first finding's title.
        let meaning = info?.meaning ?? finding?.title ?? code
        let severity = info?.severity ?? finding?.severity ?? .notice
        let check = info?.check ?? finding?.check ?? ""
        var full = meaning
        if let help = info?.help, !help.isEmpty { full += " " + help }
        return Rule(
            id: code, name: ruleName(code), shortDescription: Message(text: meaning),
            fullDescription: Message(text: full),
            defaultConfiguration: Configuration(level: level(severity)),
            help: Message(text: info?.help ?? meaning),
            properties: RuleProperties(check: check, severity: severity.rawValue, tags: ["memory", check]))
    }

    static func result(
        _ finding: Finding, document: FindingsDocument, ruleIndex: Int?, artifactIndex: [String: Int]
    ) -> ResultEntry {
        var text = finding.title
        if !finding.detail.isEmpty { text += "\n\n" + finding.detail }
        if let next = finding.next {
            text += "\n\nNext: " + document.phrase(next, from: finding.step, options: .init())
        }
        // Names from outside (an app, a file) may carry bidi overrides or controls: shown escaped, as on the
        // terminal, so a viewer never shows them reversed. The paragraphs' line feeds stay.
        text = TerminalText.escaped(text, keepingNewlines: true)
        let locations = finding.evidence.map { evidence in
            Location(
                physicalLocation: PhysicalLocation(
                    artifactLocation: ArtifactLocation(
                        uri: uri(evidence.source), index: artifactIndex[evidence.source]),
                    region: evidence.line.map { Region(startLine: max(1, $0)) }),
                logicalLocations: evidence.pointer.map { [LogicalLocation(fullyQualifiedName: $0, kind: "element")] })
        }
        let step = document.step(id: finding.step)
        var facts = Facts()
        for (key, value) in step?.facts ?? [:] where document.factCatalog[key]?.check == finding.check {
            facts[key] = value
        }
        return ResultEntry(
            ruleId: ruleID(finding), ruleIndex: ruleIndex, level: level(finding.severity), message: Message(text: text),
            locations: locations, partialFingerprints: ["memhuntFinding/v2": fingerprint(finding, document)],
            properties: ResultProperties(
                severity: finding.severity.rawValue, step: finding.step, check: finding.check, facts: facts))
    }

    /// SARIF's four levels for memhunt's severities.
    static func level(_ severity: Severity) -> String {
        switch severity {
        case .critical: "error"
        case .warning: "warning"
        case .notice, .info: "note"
        }
    }

    /// `jetsam-rank.dominant` → `JetsamRankDominant` (a rule's `name` is Pascal case by convention).
    static func ruleName(_ code: String) -> String {
        code.split(whereSeparator: { $0 == "-" || $0 == "." }).map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined()
    }

    /// What identifies a finding across runs and machines: its signature (`FindingSignature`: the playbook,
    /// step, code, app, pattern and title without its numbers; never the run's id, time or a path).
    static func fingerprint(_ finding: Finding, _ document: FindingsDocument) -> String {
        finding.signature ?? FindingSignature.of(finding, playbook: document.playbook.id, app: document.subject.app)
    }

    /// A source as a URI reference: an http(s) URL with its scheme kept and every other byte outside the URI
    /// characters percent-encoded; a path percent-encoded with its colons too, so no path (`javascript:alert(1)`,
    /// `data:…`) can read as a scheme. A relative path stays relative, to the checkout, as code scanning resolves
    /// it; an absolute one becomes `file://`.
    static func uri(_ source: String) -> String {
        let lowered = source.lowercased()
        for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
            return scheme + encoded(source.utf8.dropFirst(scheme.utf8.count), keeping: urlBytes)
        }
        return (source.hasPrefix("/") ? "file://" : "") + encoded(source.utf8[...], keeping: pathBytes)
    }

    /// The bytes a path keeps as they are: RFC 3986's unreserved characters, `/` and the sub-delimiters.
    private static let pathBytes = Set(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/!$&'()*+,;=@".utf8)
    /// A URL's after its scheme: those, and its `:`, `?`, `#`, `[`, `]` and `%` (already encoded).
    private static let urlBytes = pathBytes.union(":?#[]%".utf8)

    private static func encoded(_ bytes: Substring.UTF8View, keeping: Set<UInt8>) -> String {
        var out = ""
        for byte in bytes {
            if keeping.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }

    // MARK: - SARIF's objects (the subset memhunt writes)

    struct Log: Encodable {
        var schema: String
        var version: String
        var runs: [Run]
        enum CodingKeys: String, CodingKey {
            case schema = "$schema"
            case version, runs
        }
    }

    struct Run: Encodable {
        var tool: Tool
        var automationDetails: AutomationDetails
        var invocations: [Invocation]
        var artifacts: [ArtifactEntry]
        var results: [ResultEntry]
        var properties: RunProperties
    }

    struct Tool: Encodable { var driver: Driver }

    struct Driver: Encodable {
        var name: String
        var version: String
        var rules: [Rule]
    }

    struct AutomationDetails: Encodable { var id: String }

    struct Invocation: Encodable {
        var executionSuccessful: Bool
        var exitCode: Int
    }

    struct Rule: Encodable {
        var id: String
        var name: String
        var shortDescription: Message
        var fullDescription: Message
        var defaultConfiguration: Configuration
        var help: Message
        var properties: RuleProperties
    }

    struct RuleProperties: Encodable {
        var check: String
        var severity: String
        var tags: [String]
    }

    struct Configuration: Encodable { var level: String }

    struct Message: Encodable { var text: String }

    struct ArtifactEntry: Encodable {
        var location: ArtifactLocation
        var length: Int?
        var hashes: [String: String]?
    }

    struct ArtifactLocation: Encodable {
        var uri: String
        var index: Int?
    }

    struct ResultEntry: Encodable {
        var ruleId: String
        var ruleIndex: Int?
        var level: String
        var message: Message
        var locations: [Location]
        var partialFingerprints: [String: String]
        var properties: ResultProperties
        var suppressions: [SuppressionEntry]? = nil
    }

    struct SuppressionEntry: Encodable {
        var kind: String
        var status: String
        var justification: String
    }

    struct Location: Encodable {
        var physicalLocation: PhysicalLocation
        var logicalLocations: [LogicalLocation]?
    }

    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region?
    }

    struct Region: Encodable { var startLine: Int }

    struct LogicalLocation: Encodable {
        var fullyQualifiedName: String
        var kind: String
    }

    struct ResultProperties: Encodable {
        var severity: String
        var step: String
        var check: String
        var facts: Facts
    }

    struct RunProperties: Encodable {
        var playbook: String
        var app: String?
        var verdict: [String]
    }
}
