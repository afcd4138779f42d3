import Foundation
import MemhuntCore
import MemhuntFormats

/// Runs `exec:` checks: an executable given as argv (never a shell string), fed one JSON request on
/// stdin, answering with JSON lines of facts and findings on stdout. Protocol in Playbooks/README.md.
public struct ProcessCheckRunner: ExternalCheckRunner {
    /// stdout beyond this is a flood: the check is stopped and reported.
    public var stdoutLimit: Int
    /// stderr kept for the finding.
    public var stderrLimit: Int

    /// The environment checks take their variables from (memhunt's own in a run).
    public var environment: [String: String]

    public init(
        stdoutLimit: Int = 1 << 20, stderrLimit: Int = 16 << 10,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.stdoutLimit = stdoutLimit
        self.stderrLimit = stderrLimit
        self.environment = environment
    }

    public static let protocolVersion = "memhunt.check/2"

    /// Runs with the minimal environment only.
    public func run(argv: [String], timeout: Double, context: CheckContext) async -> CheckOutput {
        await run(argv: argv, timeout: timeout, env: [], context: context)
    }

    public func run(argv: [String], timeout: Double, env: [String], context: CheckContext) async -> CheckOutput {
        guard let program = argv.first else { return CheckOutput(failure: "exec has an empty argv") }
        let executable = Self.resolve(program, directory: context.playbookDirectory)
        let request = Self.request(context)
        let outcome = await ProcessRunner.launch(
            executable: executable, arguments: Array(argv.dropFirst()),
            environment: Self.checkEnvironment(environment, named: env), directory: context.playbookDirectory,
            input: Array(request.utf8), timeout: timeout, stdoutLimit: stdoutLimit, stderrLimit: stderrLimit)
        let name = argv.joined(separator: " ")
        var stderrNote = outcome.stderr.isEmpty ? "" : "; stderr: " + Self.excerpt(outcome.stderr)
        let killed = Leftovers.describe(outcome.leftovers)
        if !outcome.leftovers.isEmpty {
            stderrNote = "; memhunt killed what it left running outside its process group: \(killed)" + stderrNote
        }
        switch outcome.ending {
        case .launchFailed(let why):
            return CheckOutput(failure: "could not start '\(executable)': \(why)")
        case .timedOut:
            return CheckOutput(
                failure: "'\(name)' timed out after \(FactValue.oneDecimal(timeout)) s and was killed" + stderrNote)
        case .flooded:
            return CheckOutput(
                failure: "'\(name)' printed more than \(stdoutLimit >> 10) KB on stdout and was stopped" + stderrNote)
        case .cancelled:
            return CheckOutput(failure: "'\(name)' was stopped: the run was cancelled" + stderrNote)
        case .exited(let status) where status != 0:
            return CheckOutput(failure: "'\(name)' exited with status \(status)" + stderrNote)
        case .signaled(let signal):
            return CheckOutput(failure: "'\(name)' was killed by signal \(signal)" + stderrNote)
        case .exited where !outcome.leftovers.isEmpty:
            return CheckOutput(
                failure: "'\(name)' left processes running outside its process group, which memhunt killed: "
                    + killed + (outcome.stderr.isEmpty ? "" : "; stderr: " + Self.excerpt(outcome.stderr)))
        case .exited:
            break
        }
        return Self.parse(outcome.stdout, check: name, stderrNote: stderrNote)
    }

    /// A relative program path resolves against the playbook's directory; a bare name is looked up in PATH.
    static func resolve(_ program: String, directory: String?) -> String {
        if program.hasPrefix("/") { return program }
        if program.contains("/") {
            return ((directory ?? FileManager.default.currentDirectoryPath) as NSString).appendingPathComponent(program)
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = String(dir) + "/" + program
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return program
    }

    /// The JSON request written to the check's stdin: the same types as the findings document.
    struct Request: Encodable {
        struct ArtifactEntry: Encodable {
            var path: String?
            var source: String
            var kind: ArtifactKind?
            var sha256: String?
        }
        var `protocol`: String
        var step: String
        var parameters: [String: FactValue]
        var artifacts: [ArtifactEntry]
        var facts: Facts
        var subject: Subject
    }

    static func request(_ context: CheckContext) -> String {
        let request = Request(
            protocol: protocolVersion, step: context.stepID, parameters: context.parameters,
            artifacts: context.artifacts.map {
                Request.ArtifactEntry(path: $0.localPath, source: $0.source, kind: $0.kind, sha256: $0.sha256)
            }, facts: context.facts, subject: context.subject)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return String(decoding: (try? encoder.encode(request)) ?? Data("{}".utf8), as: UTF8.self) + "\n"
    }

    /// A fact line: `{"fact": KEY, "value": V, "unit": "MB"}` (unit optional).
    struct FactLine: Decodable {
        var fact: String
        var value: FactValue
        var unit: FactUnit?
    }

    /// Reads the JSON lines: facts, and findings in the findings document's own shape (`Finding`).
    /// A finding line may leave out `code` (it becomes `<check>.finding`), `detail` and `evidence`,
    /// and may give `next` as a plain sentence (a change to make).
    static func parse(_ stdout: [UInt8], check: String, stderrNote: String) -> CheckOutput {
        var output = CheckOutput()
        let decoder = JSONDecoder()
        for (index, line) in stdout.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        {
            let trimmed = line.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            if trimmed.isEmpty { continue }
            let number = index + 1
            guard var object = try? decoder.decode([String: FactValue].self, from: Data(trimmed)) else {
                return CheckOutput(
                    failure: "'\(check)' printed malformed JSON on stdout line \(number): "
                        + excerpt(Array(trimmed)) + stderrNote)
            }
            if object["fact"] != nil {
                do {
                    let fact = try decoder.decode(FactLine.self, from: Data(trimmed))
                    output.record(fact.fact, fact.value)
                    if let unit = fact.unit { output.units[fact.fact] = unit }
                    continue
                } catch {
                    return CheckOutput(
                        failure: "'\(check)' printed a fact line memhunt cannot read (line \(number), "
                            + "\(reason(error))): " + excerpt(Array(trimmed)) + stderrNote)
                }
            }
            guard object["severity"] != nil else {
                return CheckOutput(
                    failure: "'\(check)' printed a line that is neither a fact nor a finding (line \(number)): "
                        + excerpt(Array(trimmed)) + stderrNote)
            }
            if object["code"] == nil { object["code"] = .string(check + ".finding") }
            if object["detail"] == nil { object["detail"] = "" }
            if object["evidence"] == nil { object["evidence"] = [] }
            if let sentence = object["next"]?.stringValue {
                object["next"] = ["action": "change", "text": .string(sentence)]
            }
            object["step"] = ""
            object["check"] = ""
            do {
                let normalized = try JSONEncoder().encode(object)
                output.emit(try decoder.decode(Finding.self, from: normalized))
            } catch {
                return CheckOutput(
                    failure: "'\(check)' printed a finding memhunt cannot read (line \(number), \(reason(error))): "
                        + excerpt(Array(trimmed)) + stderrNote)
            }
        }
        return output
    }

    /// The key and problem of a decoding error, in a few words.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            return (key.isEmpty ? "" : "\"\(key)\": ") + context.debugDescription
        @unknown default: return "\(error)"
        }
    }

    static func excerpt(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(2000), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return bytes.count > 2000 ? text + "…" : text
    }

    // MARK: - Process (spawning and waiting: ProcessRunner.swift)

    typealias Ending = ProcessRunner.Ending
    typealias Outcome = ProcessRunner.Outcome

    /// What every check is given of memhunt's environment.
    static let minimalEnvironment: Set<String> = ["PATH", "HOME", "LANG", "TMPDIR"]

    /// The environment of a check: PATH, HOME, LANG, TMPDIR and the variables its playbook entry names
    /// (`env:`), where memhunt's environment has them. Nothing else: memhunt's own environment holds the
    /// trackers' tokens (`GITHUB_TOKEN`, `REDMINE_API_KEY`, …) and `MEMHUNT_HTTP_TOKEN`, which reached every check
    /// before; a check is given one only when its playbook names it.
    static func checkEnvironment(_ environment: [String: String], named: [String]) -> [String: String] {
        environment.filter { minimalEnvironment.contains($0.key) || named.contains($0.key) }
    }

}
