import Foundation
import MemhuntBasics

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches http(s) URLs into a cache directory, a few at a time, with timeouts, retries and hash checks.
///
/// Bodies stream to `<cache>/<n>-<sha256 of the redacted URL, 16 hex>.part` and are renamed to the name without
/// `.part` only once complete and verified; a failed attempt deletes its `.part`. Nothing derived from headers,
/// tokens or query values reaches a file name, result or event.
public final class Downloader: Sendable {
    private let configuration: HTTPConfiguration
    private let cacheDirectory: String
    private let onEvent: @Sendable (DownloadEvent) -> Void
    private let counter = Locked(0)

    /// A downloader writing into `cacheDirectory` (created if missing) and reporting to `onEvent` from any thread.
    public init(
        configuration: HTTPConfiguration = HTTPConfiguration(), cacheDirectory: String,
        onEvent: @escaping @Sendable (DownloadEvent) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.cacheDirectory = cacheDirectory
        self.onEvent = onEvent
    }

    /// Downloads every request, at most `maxConcurrent` at once; results are in request order.
    public func download(_ requests: [DownloadRequest]) async -> [DownloadResult] {
        try? FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
        return await withTaskGroup(of: (Int, DownloadResult).self) { group in
            var results = [DownloadResult?](repeating: nil, count: requests.count)
            for (index, request) in requests.enumerated() {
                if index >= max(1, configuration.maxConcurrent), let (done, result) = await group.next() {
                    results[done] = result
                }
                group.addTask { (index, await self.fetch(request, index: index)) }
            }
            for await (done, result) in group { results[done] = result }
            return results.map { $0! }
        }
    }

    private func fetch(_ request: DownloadRequest, index: Int) async -> DownloadResult {
        let requested = Redact.url(request.url)
        let number = counter.withLock {
            $0 += 1
            return $0
        }
        let path = "\(cacheDirectory)/\(number)-\(SHA256.hex(Array(requested.utf8)).prefix(16))"
        var result = DownloadResult(requestedURL: requested, finalURL: requested, attempts: 0)
        let scheme = request.url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else {
            result.error = "\(requested): not an http(s) URL"
            onEvent(.failed(index: index, result: result))
            return result
        }
        while true {
            result.attempts += 1
            onEvent(.started(index: index, url: requested, attempt: result.attempts))
            let transfer = Transfer(configuration: configuration, partPath: path + ".part") { [onEvent] in
                onEvent(.progress(index: index, bytes: $0, total: $1))
            }
            var outcome = await transfer.run(urlRequest(request))
            if outcome.failure == nil, let expected = request.expectedSHA256?.lowercased(), expected != outcome.sha256 {
                outcome.failure = .mismatch(expected: expected, got: outcome.sha256)
            }
            result.status = outcome.status
            result.finalURL = outcome.finalURL.map(Redact.url) ?? requested
            if outcome.failure == nil { outcome.failure = commit(path) }
            guard let failure = outcome.failure else {
                (result.size, result.sha256, result.localPath) = (outcome.size, outcome.sha256, path)
                onEvent(.finished(index: index, result: result))
                return result
            }
            try? FileManager.default.removeItem(atPath: path + ".part")
            if failure.retryable, result.attempts <= configuration.maxRetries, !Task.isCancelled {
                try? await Task.sleep(for: .seconds(delay(after: result.attempts, retryAfter: outcome.retryAfter)))
                continue
            }
            let retries = result.attempts - 1
            let tried =
                retries > 0
                ? " after \(result.attempts) attempts (\(retries) \(retries == 1 ? "retry" : "retries"))" : ""
            result.error = "\(requested): \(failure.message)\(tried)"
            onEvent(.failed(index: index, result: result))
            return result
        }
    }

    /// Renames `<path>.part` to `path`.
    private func commit(_ path: String) -> Failure? {
        try? FileManager.default.removeItem(atPath: path)
        do {
            try FileManager.default.moveItem(atPath: path + ".part", toPath: path)
            return nil
        } catch {
            return .file("cannot rename the .part file")
        }
    }

    /// Seconds before attempt `attempt + 1`: `Retry-After` if given, else exponential backoff with jitter; capped.
    private func delay(after attempt: Int, retryAfter: TimeInterval?) -> TimeInterval {
        let backoff = configuration.baseDelay * pow(2, Double(attempt - 1))
        return min(configuration.maxDelay, retryAfter ?? backoff * Double.random(in: 0.5...1))
    }

    private func urlRequest(_ download: DownloadRequest) -> URLRequest {
        var request = URLRequest(url: download.url)
        guard download.sendsCredentials else { return request }
        for (name, value) in configuration.headers { request.setValue(value, forHTTPHeaderField: name) }
        if let token = configuration.bearerToken {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        return request
    }
}
