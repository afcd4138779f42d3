import Foundation
import MemhuntHTTP
import MemhuntTestSupport

/// A fault server over a root holding `x.ips` (5000 bytes), plus an empty cache directory.
final class Harness {
    static let body: [UInt8] = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }

    let root: TemporaryDirectory
    let cache: TemporaryDirectory
    let server: FaultServer
    let events = Recorder<DownloadEvent>()

    init(files: [String: [UInt8]] = [:]) async throws {
        root = try TemporaryDirectory()
        cache = try TemporaryDirectory()
        try root.write("x.ips", Self.body)
        for (name, bytes) in files { try root.write(name, bytes) }
        server = try await FaultServer(root: root.path)
    }

    /// Fast settings: 10 ms backoff, 1 s idle, 2 s connect.
    func download(
        _ requests: [DownloadRequest], configure: (inout HTTPConfiguration) -> Void = { _ in }
    ) async -> [DownloadResult] {
        var configuration = HTTPConfiguration()
        configuration.baseDelay = 0.01
        configuration.idleTimeout = 1
        configuration.connectTimeout = 2
        configure(&configuration)
        let downloader = Downloader(configuration: configuration, cacheDirectory: cache.path) { [events] in
            events.append($0)
        }
        return await downloader.download(requests)
    }

    func download(_ path: String, configure: (inout HTTPConfiguration) -> Void = { _ in }) async -> DownloadResult {
        await download([DownloadRequest(url: server.url(path))], configure: configure)[0]
    }

    /// Names of everything under the cache directory.
    func cached() -> [String] { (try? FileManager.default.subpathsOfDirectory(atPath: cache.path))?.sorted() ?? [] }

    func stop() {
        server.stop()
        root.remove()
        cache.remove()
    }
}

/// A thread-safe list of values reported from other threads.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        defer { lock.unlock() }
        storage.append(value)
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
