import Foundation
import MemhuntCore

/// Runs `exec:` checks: an executable given as argv (never a shell string), fed one JSON request on
/// stdin, answering with JSON lines of facts and findings on stdout. Protocol in Playbooks/README.md.
public struct ProcessCheckRunner: ExternalCheckRunner {
    /// stdout beyond this is a flood: the check is stopped and reported.
    public var stdoutLimit: Int
    /// stderr kept for the finding.
    public var stderrLimit: Int

    public init(stdoutLimit: Int = 1 << 20, stderrLimit: Int = 16 << 10) {
        self.stdoutLimit = stdoutLimit
        self.stderrLimit = stderrLimit
    }

    public static let protocolVersion = "memhunt.check/1"

    public func run(argv: [String], timeout: Double, context: CheckContext) async -> CheckOutput {
        guard let program = argv.first else { return CheckOutput(failure: "exec has an empty argv") }
        let executable = Self.resolve(program, directory: context.playbookDirectory)
        let request = Self.request(context).rendered()
        let outcome = await Self.launch(
            executable: executable, arguments: Array(argv.dropFirst()), input: Array(request.utf8), timeout: timeout,
            stdoutLimit: stdoutLimit, stderrLimit: stderrLimit, directory: context.playbookDirectory)
        let name = argv.joined(separator: " ")
        let stderrNote = outcome.stderr.isEmpty ? "" : "; stderr: " + Self.excerpt(outcome.stderr)
        switch outcome.ending {
        case .launchFailed(let why):
            return CheckOutput(failure: "could not start '\(executable)': \(why)")
        case .timedOut:
            return CheckOutput(
                failure: "'\(name)' timed out after \(FactValue.oneDecimal(timeout)) s and was killed" + stderrNote)
        case .flooded:
            return CheckOutput(
                failure: "'\(name)' printed more than \(stdoutLimit >> 10) KB on stdout and was stopped" + stderrNote)
        case .exited(let status) where status != 0:
            return CheckOutput(failure: "'\(name)' exited with status \(status)" + stderrNote)
        case .signaled(let signal):
            return CheckOutput(failure: "'\(name)' was killed by signal \(signal)" + stderrNote)
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

    /// The JSON request written to the check's stdin.
    static func request(_ context: CheckContext) -> JSONNode {
        .object([
            ("protocol", .string(protocolVersion)),
            ("step", .string(context.stepID)),
            ("parameters", .object(context.parameters.keys.sorted().map { ($0, JSONNode(context.parameters[$0]!)) })),
            (
                "artifacts",
                .array(
                    context.artifacts.map { artifact in
                        .object([
                            ("path", .string(artifact.localPath)), ("source", .string(artifact.source)),
                            ("kind", .string(artifact.kind?.rawValue)), ("sha256", .string(artifact.sha256)),
                        ])
                    })
            ),
            ("facts", .object(context.facts.keys.sorted().map { ($0, JSONNode(context.facts[$0]!)) })),
            ("subject", .object([("app", .string(context.subject.app))])),
        ])
    }

    /// Reads the JSON lines: `{"fact": KEY, "value": V}` or `{"severity": …, "title": …, …}`.
    static func parse(_ stdout: [UInt8], check: String, stderrNote: String) -> CheckOutput {
        var output = CheckOutput()
        let decoder = JSONDecoder()
        for (index, line) in stdout.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated()
        {
            let trimmed = line.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
            if trimmed.isEmpty { continue }
            let number = index + 1
            guard let object = try? decoder.decode([String: FactValue].self, from: Data(trimmed)) else {
                return CheckOutput(
                    failure: "'\(check)' printed malformed JSON on stdout line \(number): "
                        + excerpt(Array(trimmed)) + stderrNote)
            }
            if let key = object["fact"]?.stringValue, let value = object["value"] {
                output.record(key, value)
            } else if let severityText = object["severity"]?.stringValue,
                let severity = Severity(rawValue: severityText),
                let title = object["title"]?.stringValue
            {
                let evidence = (object["evidence"]?.arrayValue ?? []).compactMap { item -> Evidence? in
                    guard let o = item.objectValue, let source = o["source"]?.stringValue else { return nil }
                    return Evidence(source: source, pointer: o["pointer"]?.stringValue, line: o["line"]?.intValue)
                }
                output.emit(
                    Finding(
                        severity: severity, title: title, detail: object["detail"]?.stringValue ?? "",
                        evidence: evidence, next: object["next"]?.stringValue))
            } else {
                return CheckOutput(
                    failure: "'\(check)' printed a line that is neither a fact nor a finding (line \(number)): "
                        + excerpt(Array(trimmed)) + stderrNote)
            }
        }
        return output
    }

    static func excerpt(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(2000), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return bytes.count > 2000 ? text + "…" : text
    }

    // MARK: - Process (spawning and waiting: ProcessRunner.swift)

    typealias Ending = ProcessRunner.Ending
    typealias Outcome = ProcessRunner.Outcome

    /// A check that exits without reading its request closes the pipe under our write; without this
    /// the write raises SIGPIPE and ends memhunt (exit 141, measured with a 200 KB request to /bin/true).
    private static let ignoreBrokenPipes: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// The environment of a check: memhunt's own, minus its secrets.
    static func checkEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> [String: String]
    {
        environment.filter { $0.key != "MEMHUNT_HTTP_TOKEN" }
    }

    static func launch(
        executable: String, arguments: [String], input: [UInt8], timeout: Double, stdoutLimit: Int, stderrLimit: Int,
        directory: String?
    ) async -> Outcome {
        // Dedicated threads, not GCD's pool: the work blocks on pipes and on the child, and with two
        // cores the pool starved (seven concurrent checks took 6 s each instead of milliseconds).
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    returning: launchBlocking(
                        executable: executable, arguments: arguments, input: input, timeout: timeout,
                        stdoutLimit: stdoutLimit, stderrLimit: stderrLimit, directory: directory))
            }
        }
    }

    private static func launchBlocking(
        executable: String, arguments: [String], input: [UInt8], timeout: Double, stdoutLimit: Int, stderrLimit: Int,
        directory: String?
    ) -> Outcome {
        _ = ignoreBrokenPipes
        return ProcessRunner.run(
            executable: executable, arguments: arguments, environment: checkEnvironment(), directory: directory,
            input: input, timeout: timeout, stdoutLimit: stdoutLimit, stderrLimit: stderrLimit)
    }
}
