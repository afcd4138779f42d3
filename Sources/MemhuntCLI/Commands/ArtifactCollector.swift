import Foundation
import MemhuntArtifacts
import MemhuntCore
import MemhuntHTTP

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
