import Foundation
import MemhuntChecks
import MemhuntCore
import MemhuntHTTP
import MemhuntReports

/// `memhunt run`: walk a playbook over artifacts and report.
struct RunCommand {
    enum Format: String { case text, json }

    var command: ParsedCommand
    var console: Console

    func execute() async throws -> Memhunt.ExitStatus {
        let values = command.values
        let collector = try ArtifactCollector(command, console: console)
        defer { collector.removeCache() }
        let playbook = try await loadPlaybook(values.string("--playbook") ?? "memory-hunt", collector: collector)
        let artifacts = await collector.collect(values.positionals)
        let engine = StepEngine(checks: builtInChecks, external: ProcessCheckRunner(), toolVersion: Memhunt.version)
        let progress = console.stderr.isTTY
        let stderr = console.stderr
        let result = await engine.run(
            playbook: playbook, artifacts: artifacts, app: values.string("--app"),
            allowExec: values.flag("--allow-exec")
        ) { event in
            guard progress, case .stepFinished(let step) = event else { return }
            stderr.write("[\(step.number)/\(playbook.steps.count)] \(step.step.id): \(step.status.rawValue)\n")
        }
        let format = command.value("--format", as: Format.self) ?? .text
        let output = values.string("--output")
        let report: String
        switch format {
        case .json: report = FindingsDocument.render(result)
        case .text: report = TextReport.render(result, colored: output == nil && console.stdoutColored)
        }
        if let output {
            do {
                try AtomicFile.write(report, to: output)
            } catch {
                throw CommandError("\(error)")
            }
            console.note("memhunt: wrote \(output) (\(TextReport.summary(result)))")
        } else {
            console.stdout.write(report)
        }
        guard let failOn = command.value("--fail-on", as: Severity.self) else { return .success }
        return (result.highestSeverity.map { $0 >= failOn } ?? false) ? .findingsReachedThreshold : .success
    }

    /// A built-in id, a local path or an http(s) URL (a remote playbook may not run executables
    /// unless `--allow-exec` is given).
    private func loadPlaybook(_ reference: String, collector: ArtifactCollector) async throws -> Playbook {
        if ArtifactStore.isURL(reference) {
            let (text, source) = try await collector.fetchText(reference)
            return try check(playbookLoader.load(text: text, origin: source, directory: nil, isRemote: true))
        }
        if let builtIn = playbookLoader.builtIn(reference) { return try check(builtIn) }
        guard FileManager.default.fileExists(atPath: reference) else {
            let ids = BuiltInPlaybooks.all.map(\.id)
            throw CommandError(
                "No playbook '\(reference)': not a built-in id (\(ids.joined(separator: ", ")))"
                    + " and no such file\(Suggestion.hint(for: reference, among: ids))")
        }
        return try check(playbookLoader.load(path: reference))
    }

    private func check(_ result: Result<Playbook, PlaybookLoadError>) throws -> Playbook {
        switch result {
        case .success(let playbook): return playbook
        case .failure(let error):
            console.stderr.write(error.description + "\n")
            throw CommandError("the playbook is invalid (\(error.diagnostics.count) problem(s))")
        }
    }
}

/// Turns operands into artifacts through the artifact store, with the run's HTTP settings and a
/// per-run download cache that is removed when the run ends.
struct ArtifactCollector {
    var store: ArtifactStore
    var console: Console

    init(_ command: ParsedCommand, console: Console) throws {
        var http = Self.configuration(console.environment)
        for header in command.values.strings("--header") {
            do {
                let (name, value) = try HTTPConfiguration.header(header)
                http.headers[name] = value
            } catch {
                throw UsageError(
                    path: command.path, reason: .invalidValue("…", option: "--header", explanation: "\(error)"))
            }
        }
        if let limit = command.values.string("--max-artifact-size") {
            guard let megabytes = Int(limit), megabytes > 0 else {
                throw UsageError(
                    path: command.path,
                    reason: .invalidValue(
                        limit, option: "--max-artifact-size", explanation: "a whole number of megabytes"))
            }
            http.maxBytes = megabytes << 20
        }
        let cache = NSTemporaryDirectory() + "memhunt-run-" + UUID().uuidString
        let progress = console.stderr.isTTY
        let stderr = console.stderr
        store = ArtifactStore(http: http, cacheDirectory: cache) { event in
            guard progress else { return }
            switch event {
            case .started(_, let url, let attempt):
                stderr.write("↓ \(url)" + (attempt > 1 ? " (attempt \(attempt))" : "") + "\n")
            case .finished(_, let result):
                stderr.write("✓ \(result.requestedURL) \(FactValue.grouped(result.size ?? 0)) bytes\n")
            case .failed(_, let result):
                stderr.write("✗ \(result.error ?? result.requestedURL)\n")
            case .progress:
                break
            }
        }
        self.console = console
    }

    /// For commands without HTTP options: defaults, and the token from the environment.
    init(console: Console) {
        store = ArtifactStore(
            http: Self.configuration(console.environment),
            cacheDirectory: NSTemporaryDirectory() + "memhunt-run-" + UUID().uuidString)
        self.console = console
    }

    /// The defaults, with `MEMHUNT_HTTP_TOKEN` as the bearer token when set.
    static func configuration(_ environment: [String: String]) -> HTTPConfiguration {
        var http = HTTPConfiguration()
        if let token = environment["MEMHUNT_HTTP_TOKEN"], !token.isEmpty { http.bearerToken = token }
        return http
    }

    func collect(_ operands: [String]) async -> [Artifact] { await store.collect(operands) }

    /// Downloads one text (a playbook) through the same store and settings.
    func fetchText(_ url: String) async throws -> (text: String, source: String) {
        guard let parsed = URL(string: url), parsed.host != nil else {
            throw CommandError("not a valid URL: \(Redact.invalidURL(url))")
        }
        let result = await Downloader(configuration: store.http, cacheDirectory: store.cacheDirectory)
            .download([DownloadRequest(url: parsed)])[0]
        guard result.error == nil, let path = result.localPath, let data = FileManager.default.contents(atPath: path)
        else { throw CommandError("could not fetch the playbook: \(result.error ?? result.requestedURL)") }
        return (String(decoding: data, as: UTF8.self), result.requestedURL)
    }

    func removeCache() { try? FileManager.default.removeItem(atPath: store.cacheDirectory) }
}
