import Dispatch
import Foundation
import MemhuntArtifacts
import MemhuntCore
import MemhuntHTTP

/// Turns operands into artifacts through the artifact store (the CLI's only way to HTTP), with the run's
/// HTTP settings and a per-run download cache that is removed when the run ends.
struct ArtifactCollector {
    var store: ArtifactStore
    var console: Console

    init(_ command: ParsedCommand, console: Console) throws {
        var http = try Self.configuration(console.environment)
        for header in try command.values.strings("--header").flatMap({ try Self.headers($0, command) }) {
            do {
                let (name, value) = try HTTPConfiguration.header(header)
                http.headers[name] = value
            } catch {
                throw UsageError(
                    path: command.path, reason: .invalidValue("…", option: "--header", explanation: "\(error)"))
            }
        }
        http.maxBytes =
            try Self.positive(command, "--max-artifact-size", "a whole number of megabytes", max: 1 << 20)
            .map { $0 << 20 } ?? http.maxBytes
        http.totalTimeout =
            try Self.positive(command, "--download-timeout", "a whole number of seconds", max: 86_400)
            .map(TimeInterval.init) ?? http.totalTimeout
        let entries =
            try Self.positive(command, "--max-manifest-entries", "a whole number of entries", max: 1_000_000)
            ?? ArtifactStore.defaultMaxManifestEntries
        let progress = console.stderr.isTTY
        let stderr = console.stderr
        store = ArtifactStore(http: http, maxManifestEntries: entries) { event in
            guard progress else { return }
            switch event {
            case .started(_, let url, let attempt):
                stderr.write("↓ \(TerminalText.escaped(url))" + (attempt > 1 ? " (attempt \(attempt))" : "") + "\n")
            case .finished(_, let result):
                stderr.write(
                    "✓ \(TerminalText.escaped(result.requestedURL)) \(FactValue.grouped(result.size ?? 0)) bytes\n")
            case .failed(_, let result):
                stderr.write("✗ \(TerminalText.escaped(result.error ?? result.requestedURL))\n")
            case .progress:
                break
            }
        }
        store.onLocalRead = Self.localProgress(console)
        store.downloadDeadline = try Self.deadline(command)
        store.networkRefusal = Self.networkRefusal(console.environment)
        self.console = console
    }

    /// `MEMHUNT_NO_NETWORK=1` (set by `memhunt mcp` for its runs unless `--allow-network`): no downloads at all.
    static func networkRefusal(_ environment: [String: String]) -> String? {
        environment["MEMHUNT_NO_NETWORK"] == "1"
            ? "not fetched: network access is off (MEMHUNT_NO_NETWORK=1; memhunt mcp allows it with --allow-network)"
            : nil
    }

    /// `--deadline`, when the command has it: seconds for the whole download phase.
    static func deadline(_ command: ParsedCommand) throws -> TimeInterval? {
        guard command.values.options["--deadline"] != nil else { return nil }
        return try positive(command, "--deadline", "a whole number of seconds", max: 86_400).map(TimeInterval.init)
    }

    /// Files at least this large are announced while they are read (a 57 MB log takes seconds).
    static let announcedSize = 8 << 20

    /// On a terminal: "reading X (57.0 MB) …" before a large local file, with the share read so far as the
    /// reader is handed the file (`ReadProgress`: "… 43 %", at most twice a second, on the same line), and
    /// "read X in 2.1 s" in its place after; nothing with `-q`, which prints only the verdict and the summary.
    static func localProgress(_ console: Console) -> @Sendable (String, Int, Bool) -> Void {
        guard console.stderr.isTTY, console.detail != .quiet else { return { _, _, _ in } }
        let ticker = ReadTicker(console.stderr)
        return { path, bytes, done in
            guard bytes >= announcedSize else { return }
            if done {
                ticker.stop(path)
            } else {
                ticker.start(path, bytes: bytes)
            }
        }
    }

    /// For commands without HTTP options: defaults, and the token from the environment; `--deadline` when
    /// `command` has it.
    init(console: Console, command: ParsedCommand? = nil) throws {
        store = ArtifactStore(http: try Self.configuration(console.environment))
        store.onLocalRead = Self.localProgress(console)
        store.downloadDeadline = try command.flatMap(Self.deadline)
        store.networkRefusal = Self.networkRefusal(console.environment)
        self.console = console
    }

    /// A positive whole number option, at most `max` (larger values would overflow or never end).
    private static func positive(_ command: ParsedCommand, _ option: String, _ explanation: String, max: Int) throws
        -> Int?
    {
        guard let text = command.values.string(option) else { return nil }
        guard let value = Int(text), value > 0, value <= max else {
            throw UsageError(
                path: command.path,
                reason: .invalidValue(text, option: option, explanation: "\(explanation) from 1 to \(max)"))
        }
        return value
    }

    /// The headers one `--header` gives: itself, or with `@FILE` (as curl takes it) each non-blank line of the
    /// file, so that a secret need not stand on the command line, where every local user can read it
    /// (`/proc/PID/cmdline`, `ps`). The file's content is never quoted in an error.
    static func headers(_ given: String, _ command: ParsedCommand) throws -> [String] {
        guard given.hasPrefix("@") else { return [given] }
        let path = String(given.dropFirst())
        guard !path.isEmpty, let data = FileManager.default.contents(atPath: path), data.count <= 1 << 16 else {
            throw UsageError(
                path: command.path,
                reason: .invalidValue(
                    given, option: "--header",
                    explanation: "@FILE names a readable file of headers, one 'Name: value' a line, of at most 64 KB"))
        }
        return String(decoding: data, as: UTF8.self).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
            .filter { !$0.allSatisfy(\.isWhitespace) }
    }

    /// The defaults, with `MEMHUNT_HTTP_TOKEN` as the bearer token when set. A token with a line break
    /// would split the request (and was silently dropped): refused, without quoting it.
    static func configuration(_ environment: [String: String]) throws -> HTTPConfiguration {
        var http = HTTPConfiguration()
        if let token = environment["MEMHUNT_HTTP_TOKEN"], !token.isEmpty {
            guard !token.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                throw CommandError("MEMHUNT_HTTP_TOKEN contains a line break; it cannot be sent in a header")
            }
            http.bearerToken = token
        }
        return http
    }

    /// The artifacts of the operands, in order; `-` is standard input (read once, up to the document limit).
    func collect(_ operands: [String]) async -> [Artifact] {
        guard operands.contains("-") else { return await store.collect(operands) }
        var artifacts: [Artifact] = []
        var stdinRead = false
        for operand in operands {
            guard operand == "-" else {
                artifacts += await store.collect([operand])
                continue
            }
            guard !stdinRead else { continue }
            stdinRead = true
            artifacts.append(await readStandardInput())
        }
        return artifacts
    }

    /// Standard input as an artifact named `-`: copied into the run's cache, then read like a file. It is an
    /// operand: input that cannot be read whole, or that holds no artifact memhunt knows, is an error that
    /// names standard input (the hunt could not be done as asked).
    private func readStandardInput() async -> Artifact {
        let limit = 64 << 20
        func failed(_ why: String) -> Artifact {
            var artifact = Artifact(source: "-", status: .error, error: why)
            artifact.operand = "-"
            artifact.isOperand = true
            return artifact
        }
        if let problem = store.cache.create() { return failed("standard input could not be copied: \(problem)") }
        let path = store.cache.path + "/stdin"
        if case .failure(let why) = console.stdin.copy(to: path, limit: limit) { return failed(why.description) }
        guard var artifact = await store.collect([path]).first else { return failed("standard input is empty") }
        artifact.source = "-"
        artifact.operand = "-"
        artifact.isOperand = true
        switch artifact.status {
        case .ok: break
        case .unrecognized:
            artifact.status = .error
            artifact.error =
                "standard input holds no artifact memhunt knows: " + (artifact.error ?? "unrecognized content")
        case .error:
            artifact.error = "standard input: " + (artifact.error ?? "cannot be read")
        }
        return artifact
    }

    /// Downloads one text (a playbook) through the same store and settings.
    func fetchText(_ url: String) async throws -> (text: String, source: String) {
        do {
            return try await store.fetchText(url)
        } catch {
            throw CommandError(error.description)
        }
    }

    /// Ends the HTTP session and removes the cache.
    func removeCache() { store.close() }
}

/// A start time shared between the before and after calls of a progress callback.
/// The progress line of one large local file: started, updated from a timer, replaced when the read ends.
final class ReadTicker: @unchecked Sendable {
    private let lock = NSLock()
    private let stderr: OutputWriter
    private var started: Date?
    private var timer: DispatchSourceTimer?
    private var line = ""

    init(_ stderr: OutputWriter) { self.stderr = stderr }

    func start(_ path: String, bytes: Int) {
        ReadProgress.reset()
        let line =
            "reading \(TerminalText.escaped(path)) (\(FactUnit.megabytes.format(.megabytes(bytes: Double(bytes))))) …"
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
        timer.setEventHandler { [weak self] in self?.tick(size: bytes) }
        lock.withLock {
            self.started = Date()
            self.line = line
            self.timer = timer
            stderr.write(line)
        }
        timer.resume()
    }

    private func tick(size: Int) {
        let read = ReadProgress.current
        // A reader that maps the whole file is handed no window: no share to show then.
        guard read > 0, size > 0 else { return }
        let percent = min(99, read * 100 / size)
        lock.withLock {
            guard timer != nil else { return }
            stderr.write("\r\(line) \(percent) %\u{1B}[K")
        }
    }

    func stop(_ path: String) {
        lock.withLock {
            timer?.cancel()
            timer = nil
            let seconds = Date().timeIntervalSince(started ?? Date())
            started = nil
            stderr.write("\r\u{1B}[Kread \(TerminalText.escaped(path)) in \(FactValue.oneDecimal(seconds)) s\n")
        }
    }
}
