import Foundation
import MemhuntCore
import MemhuntFormats

/// The findings document, `memhunt.findings/3`: one run's result as a type, encoded and decoded by the
/// same code. Every output (the text walk, JSON, and the reports, postmortems and tracker bodies built
/// on it) is a function of this document alone, so a saved document re-renders exactly as the live run.
///
/// Adding keys is compatible; renaming or removing one bumps the schema.
public struct FindingsDocument: Sendable, Hashable, Codable {
    /// The schema this code writes and reads.
    public static let currentSchema = "memhunt.findings/3"

    public var schema: String
    /// The answer at the top: sentences from the steps' strongest findings (see `Verdict`). Absent only in
    /// documents written before it existed.
    public var verdict: Verdict?
    public var tool: Tool
    public var run: RunInfo
    public var playbook: PlaybookInfo
    public var subject: Subject
    public var steps: [StepRecord]
    /// Every fact of every step, for consumers (`jq '.facts[KEY]'`).
    public var facts: Facts
    /// Unit, meaning and check of every fact in `facts`.
    public var factCatalog: [String: FactInfo]
    /// Every finding, in step order.
    public var findings: [Finding]
    /// What each code in `findings` means, with its default severity and check, from the checks'
    /// descriptions (absent in documents written before it existed; an external check's codes are not in it).
    public var codeCatalog: [String: CodeInfo]?
    public var artifacts: [ArtifactRecord]
    public var summary: Summary
    public var gate: Gate
    /// `run --baseline`: the saved run whose findings were left out, and how many; absent otherwise.
    public var baseline: BaselineInfo?
    /// The project file's suppressions: the findings they accepted, with the reasons, and those expired; absent
    /// when none applied.
    public var suppression: SuppressionInfo?
    /// `run --ledger`: the investigation's hypotheses, experiments and fix, judged over their artifacts;
    /// absent otherwise.
    public var ledger: LedgerJudgement?

    /// A finding code as its check declares it.
    public struct CodeInfo: Sendable, Hashable, Codable {
        /// The check that declares it.
        public var check: String
        /// The severity it is emitted with unless the evidence says otherwise.
        public var severity: Severity
        /// What it means, in one line.
        public var meaning: String
        /// Why the check exists (its rationale): the help a reader of the code gets.
        public var help: String?

        public init(check: String, severity: Severity, meaning: String, help: String? = nil) {
            self.check = check
            self.severity = severity
            self.meaning = meaning
            self.help = help
        }
    }

    /// The tool that wrote the document.
    public struct Tool: Sendable, Hashable, Codable {
        public var name: String
        public var version: String
    }

    /// The run: an id, and when it started and ended (ISO 8601, UTC).
    public struct RunInfo: Sendable, Hashable, Codable {
        public var id: String
        public var startedAt: String?
        public var finishedAt: String?

        public init(id: String, startedAt: String? = nil, finishedAt: String? = nil) {
            self.id = id
            self.startedAt = startedAt
            self.finishedAt = finishedAt
        }
    }

    /// The playbook walked.
    public struct PlaybookInfo: Sendable, Hashable, Codable {
        public var id: String
        public var title: String
        public var summary: String
        /// A path, a URL (credentials removed) or `built-in:<id>`.
        public var origin: String
        /// Hex sha256 of the playbook's text.
        public var sha256: String?
    }

    /// What to collect for a step and what an empty result means.
    public struct Guidance: Sendable, Hashable, Codable {
        public var collect: String?
        public var empty: String?
    }

    /// One step: the playbook's words for it and what the run found.
    public struct StepRecord: Sendable, Hashable, Codable {
        public var number: Int
        public var id: String
        public var title: String
        /// "What I inspect".
        public var inspects: String
        /// "What it tells me".
        public var tells: String
        /// The kinds the step reads.
        public var reads: [ArtifactKind]
        /// The checks the playbook names for the step.
        public var checks: [String]
        /// The checks that ran.
        public var checksRun: [String]
        public var status: StepStatus
        public var guidance: Guidance?
        public var facts: Facts
        public var findings: [Finding]
        /// Checks that could not run.
        public var failures: [CheckFailure]
        /// What the checks said a reader of the step should see: headline, comparisons, series, events, impact.
        public var presentation: Presentation

        /// A step with nothing to read and nothing to run: guidance for the person only.
        public var isGuidanceOnly: Bool { reads.isEmpty && checks.isEmpty }
    }

    /// One artifact and what memhunt made of it.
    public struct ArtifactRecord: Sendable, Hashable, Codable {
        /// A path or a URL, with any credentials removed.
        public var source: String
        public var kind: ArtifactKind?
        public var sha256: String?
        public var size: Int?
        public var status: ArtifactStatus
        /// Why it is unrecognized or unreadable.
        public var diagnostics: [String]
        /// When the incident it records happened, as the artifact writes it (for measurements the first
        /// reading's time, for change logs the first evaluation's).
        public var incidentTime: String?
        /// For downloads: the URL after redirects, and the HTTP status.
        public var finalURL: String?
        public var httpStatus: Int?
        /// The operand it was collected from (a path or URL as given).
        public var operand: String?
        /// True when it is the operand itself (not found in a walked directory or listed by a manifest).
        public var isOperand: Bool?
        /// The app the artifact names (a crash report's app, a MetricKit bundle id, a vmmap's process).
        public var app: String?
        /// The source of an earlier artifact with the same bytes: this one was counted once, as that one.
        public var duplicateOf: String?
        /// Whether it is of the subject: false when it names another app (its numbers are not the subject's),
        /// true when it names the subject (a JetsamEvent: lists it), absent when it names none.
        public var ofSubject: Bool?
    }

    /// Counts, for a glance and for dashboards.
    public struct Summary: Sendable, Hashable, Codable {
        /// Findings per severity (every severity present, zero included).
        public var findings: [String: Int]
        /// Steps per status (every status present, zero included).
        public var steps: [String: Int]
        /// Artifacts per status (every status present, zero included).
        public var artifacts: [String: Int]
        /// Checks that could not run.
        public var failedChecks: Int
    }

    /// The exit status the run ended with, and why.
    public struct Gate: Sendable, Hashable, Codable {
        /// `--fail-on`, when given.
        public var failOn: Severity?
        public var exitStatus: Int
        /// Why the status is not 0.
        public var reason: String?

        public init(failOn: Severity? = nil, exitStatus: Int = 0, reason: String? = nil) {
            self.failOn = failOn
            self.exitStatus = exitStatus
            self.reason = reason
        }
    }
}

extension FindingsDocument {
    /// The document of a run. `codes`: what the front end knows of finding codes (the checks' descriptions);
    /// the document keeps those of its findings.
    public init(_ result: RunResult, run: RunInfo, gate: Gate = Gate(), codes: [String: CodeInfo] = [:]) {
        schema = Self.currentSchema
        tool = Tool(name: "memhunt", version: result.toolVersion)
        self.run = run
        playbook = PlaybookInfo(
            id: result.playbook.id, title: result.playbook.title, summary: result.playbook.summary,
            origin: result.playbook.origin, sha256: result.playbook.sha256)
        subject = result.subject
        let (playbookID, app) = (result.playbook.id, result.subject.app)
        // Signed in the run's order of findings, the same in the steps and in the flat list.
        var seen: [String: Int] = [:]
        var signatures: [Finding: String] = [:]
        for finding in result.findings where signatures[finding] == nil {
            let base = FindingSignature.of(finding, playbook: playbookID, app: app)
            seen[base, default: 0] += 1
            signatures[finding] = FindingSignature.of(
                finding, playbook: playbookID, app: app, occurrence: seen[base]!)
        }
        func signed(_ findings: [Finding]) -> [Finding] {
            findings.map { finding in
                var signedFinding = finding
                signedFinding.signature =
                    signatures[finding] ?? FindingSignature.of(finding, playbook: playbookID, app: app)
                return signedFinding
            }
        }
        steps = result.steps.map { step in
            let guidance =
                step.step.collect == nil && step.step.empty == nil
                ? nil : Guidance(collect: step.step.collect, empty: step.step.empty)
            return StepRecord(
                number: step.number, id: step.step.id, title: step.step.title, inspects: step.step.inspects,
                tells: step.step.tells, reads: step.step.reads, checks: step.step.checks.map(\.id),
                checksRun: step.checksRun, status: step.status, guidance: guidance, facts: step.facts,
                findings: signed(step.findings), failures: step.failures, presentation: step.presentation)
        }
        facts = result.facts
        factCatalog = result.factCatalog
        findings = signed(result.findings)
        let emitted = Set(findings.map(\.code))
        codeCatalog = codes.filter { emitted.contains($0.key) }
        artifacts = result.artifacts.map { artifact in
            var record = ArtifactRecord(artifact)
            record.ofSubject = ArtifactOwner.belongs(artifact, to: result.subject)
            return record
        }
        summary = Summary(steps: steps, artifacts: artifacts)
        self.gate = gate
        verdict = Verdict(steps: steps, artifacts: artifacts, subject: subject)
    }

    /// The step with this id, if the document has it.
    public func step(id: String) -> StepRecord? { steps.first { $0.id == id } }

    /// The first step that reads `kind`.
    public func step(reading kind: ArtifactKind) -> StepRecord? { steps.first { $0.reads.contains(kind) } }

    /// A fact's value as every renderer prints it: with the unit of the catalog.
    public func formatted(_ key: String, _ value: FactValue) -> String {
        (factCatalog[key]?.unit ?? .number).format(value)
    }

    /// Every check that could not run, in step order.
    public var failures: [CheckFailure] { steps.flatMap(\.failures) }
}

extension FindingsDocument.ArtifactRecord {
    /// Given and not read, and not empty: evidence of unknown content (`Artifact.holdsUnknownContent`).
    public var holdsUnknownContent: Bool { Artifact.holdsUnknownContent(status: status, size: size) }

    public init(_ artifact: Artifact) {
        source = artifact.source
        kind = artifact.kind
        sha256 = artifact.sha256
        size = artifact.size
        status = artifact.status
        diagnostics = (artifact.error.map { [$0] } ?? []) + artifact.notes
        duplicateOf = artifact.duplicateOf
        if let first = artifact.duplicateOf, let record = artifact.duplicateRecord {
            diagnostics.append("the same record as \(first) (\(record)), in other bytes: counted once, as that one")
        } else if let first = artifact.duplicateOf {
            diagnostics.append("the same bytes as \(first) (sha256): counted once, as that one")
        }
        finalURL = artifact.finalURL
        httpStatus = artifact.httpStatus
        operand = artifact.operand
        isOperand = artifact.operand == nil ? nil : artifact.isOperand
        app = ArtifactOwner.name(of: artifact)
        ofSubject = nil
        incidentTime = artifact.incidentTime
    }
}

extension FindingsDocument.Summary {
    init(steps: [FindingsDocument.StepRecord], artifacts: [FindingsDocument.ArtifactRecord]) {
        let all = steps.flatMap(\.findings)
        findings = Dictionary(
            uniqueKeysWithValues: Severity.allCases.map { s in (s.rawValue, all.count { $0.severity == s }) })
        self.steps = Dictionary(
            uniqueKeysWithValues: StepStatus.allCases.map { s in (s.rawValue, steps.count { $0.status == s }) })
        self.artifacts = Dictionary(
            uniqueKeysWithValues: [ArtifactStatus.ok, .unrecognized, .error].map { s in
                (s.rawValue, artifacts.count { $0.status == s })
            })
        failedChecks = steps.reduce(0) { $0 + $1.failures.count }
    }
}

/// Reading and writing the document as JSON.
extension FindingsDocument {
    /// Why a document could not be read.
    public struct DecodingFailure: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The document as pretty-printed JSON with sorted keys (stable across runs and platforms).
    public func encoded() -> String { JSONText.pretty(self) }

    /// Reads a document written by `encoded()`. An older schema is refused with the reason: `/1` has no finding
    /// codes, step texts or fact units to re-render from.
    public static func decode(_ bytes: [UInt8]) throws(DecodingFailure) -> FindingsDocument {
        struct Probe: Decodable { var schema: String? }
        let data = Data(bytes)
        let probe: Probe
        do {
            probe = try JSONDecoder().decode(Probe.self, from: data)
        } catch {
            throw DecodingFailure(description: "not a findings document: the input is not a JSON object")
        }
        switch probe.schema {
        case currentSchema?: break
        case "memhunt.findings/1"?:
            throw DecodingFailure(
                description: "memhunt.findings/1 cannot be re-rendered: it has no finding codes, step texts or "
                    + "fact units; run the hunt again with this memhunt to write \(currentSchema)")
        case "memhunt.findings/2"?:
            throw DecodingFailure(
                description: "memhunt.findings/2 cannot be re-rendered: its steps carry no presentation (headline, "
                    + "comparisons, series, events), which every report is now drawn from; run the hunt again with "
                    + "this memhunt to write \(currentSchema)")
        case let other?:
            throw DecodingFailure(description: "unknown schema '\(other)' (this memhunt reads \(currentSchema))")
        case nil: throw DecodingFailure(description: "not a findings document: no \"schema\" key")
        }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        do {
            return try decoder.decode(FindingsDocument.self, from: data)
        } catch let error as DecodingError {
            throw DecodingFailure(description: "invalid findings document: " + Self.describe(error))
        } catch {
            throw DecodingFailure(description: "invalid findings document: \(error)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)' at \(path(context.codingPath))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(context.debugDescription) at \(path(context.codingPath))"
        @unknown default: return "\(error)"
        }
    }
}
