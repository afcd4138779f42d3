import Foundation
import MemhuntBasics

/// Fetches http(s) URLs into a cache directory, a few at a time, through one `HTTPClient`, with hash checks.
///
/// Bodies stream to `<cache>/<n>-<sha256 of the redacted URL, 16 hex>.part` (0600) and are renamed to the name
/// without `.part` only once complete and verified; a failed attempt deletes its `.part`. Nothing derived from
/// headers, tokens or query values reaches a file name, result or event.
public final class Downloader: Sendable {
    public let client: HTTPClient
    private let ownsClient: Bool
    private let cacheDirectory: String
    private let onEvent: @Sendable (DownloadEvent) -> Void
    private let counter = Locked(0)

    /// A downloader with a client of its own, closed after each `download` call.
    public convenience init(
        configuration: HTTPConfiguration = HTTPConfiguration(), cacheDirectory: String,
        onEvent: @escaping @Sendable (DownloadEvent) -> Void = { _ in }
    ) {
        self.init(
            client: HTTPClient(configuration: configuration), cacheDirectory: cacheDirectory, onEvent: onEvent,
            ownsClient: true)
    }

    /// A downloader over a shared client (the caller closes it).
    public init(
        client: HTTPClient, cacheDirectory: String, onEvent: @escaping @Sendable (DownloadEvent) -> Void = { _ in },
        ownsClient: Bool = false
    ) {
        self.client = client
        self.ownsClient = ownsClient
        self.cacheDirectory = cacheDirectory
        self.onEvent = onEvent
    }

    /// Downloads every request, at most `maxConcurrent` at once; results are in request order.
    ///
    /// `deadline` bounds them all (`--deadline`): when it passes, the downloads still running are cancelled
    /// and those not started are not, each an error "not fetched: deadline of N s passed" (`seconds` is N);
    /// what finished before is kept.
    public func download(_ requests: [DownloadRequest], deadline: Date? = nil, seconds: TimeInterval? = nil) async
        -> [DownloadResult]
    {
        defer { if ownsClient { client.close() } }
        let width = max(1, client.configuration.maxConcurrent)
        enum Event: Sendable {
            case fetched(Int, DownloadResult)
            case deadline
            case stopped
        }
        var results = [DownloadResult?](repeating: nil, count: requests.count)
        // Downloads that ended after the deadline passed without a file: cut by it.
        var cut = Set<Int>()
        var passed = deadline.map { $0 <= Date() } ?? false
        if !passed {
            await withTaskGroup(of: Event.self) { group in
                if let deadline {
                    group.addTask {
                        do {
                            try await Task.sleep(for: .seconds(max(0, deadline.timeIntervalSinceNow)))
                            return .deadline
                        } catch {
                            return .stopped
                        }
                    }
                }
                var running = 0
                func take(_ event: Event) {
                    switch event {
                    case .fetched(let index, let result):
                        results[index] = result
                        if passed && result.localPath == nil { cut.insert(index) }
                        running -= 1
                    case .deadline:
                        passed = true
                        group.cancelAll()
                    case .stopped: break
                    }
                }
                for (index, request) in requests.enumerated() {
                    while running >= width, !passed, let event = await group.next() { take(event) }
                    guard !passed else { break }
                    running += 1
                    group.addTask { .fetched(index, await self.fetch(request, index: index)) }
                }
                while running > 0, let event = await group.next() { take(event) }
                group.cancelAll()
            }
        }
        return requests.enumerated().map { index, request in
            if let result = results[index], !cut.contains(index) { return result }
            // Cancelled by the deadline, or never started.
            let shown = Redact.url(request.url)
            let limit = seconds.map { " of \(HTTPFailure.format($0))" } ?? ""
            return DownloadResult(
                requestedURL: shown, finalURL: shown, status: results[index]?.status,
                error: "\(shown): not fetched: deadline\(limit) passed", attempts: results[index]?.attempts ?? 0)
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
        let http = HTTPRequest(url: request.url, credentialOrigin: request.credentialOrigin)
        let attempts = Locked(0)
        do throws(HTTPError) {
            let done = try await client.download(http, to: path + ".part") { [onEvent] event in
                switch event {
                case .attempt(let attempt):
                    attempts.withLock { $0 = attempt }
                    onEvent(.started(index: index, url: requested, attempt: attempt))
                case .progress(let bytes, let total): onEvent(.progress(index: index, bytes: bytes, total: total))
                }
            }
            (result.status, result.finalURL, result.attempts) = (done.status, done.finalURL, done.attempts)
            let sha256 = Self.hash(path + ".part")
            var failure: HTTPFailure?
            if let expected = request.expectedSHA256?.lowercased(), expected != sha256 {
                failure = .mismatch(expected: expected, got: sha256 ?? "unreadable")
            } else if sha256 == nil || rename(path + ".part", path) != 0 {
                failure = .file("cannot read back or rename the .part file")
            }
            if let failure {
                unlink(path + ".part")
                result.error =
                    HTTPError(
                        url: requested, failure: failure, attempts: done.attempts, status: done.status,
                        finalURL: done.finalURL
                    ).description
                onEvent(.failed(index: index, result: result))
                return result
            }
            (result.size, result.sha256, result.localPath) = (done.size, sha256, path)
            onEvent(.finished(index: index, result: result))
        } catch {
            (result.status, result.finalURL, result.attempts) = (error.status, error.finalURL, error.attempts)
            result.error = error.description
            onEvent(.failed(index: index, result: result))
        }
        return result
    }

    /// The sha256 of a file, read back 1 MB at a time: hashing in the delegate was slower than loopback delivered, and
    /// let the chunks pile up in memory beyond the body's own size.
    static func hash(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: 1 << 20)
            } catch {
                return nil
            }
            // nil or empty: the end of the file.
            guard let chunk, !chunk.isEmpty else { break }
            hasher.update(chunk)
        }
        return hasher.finalizeHex()
    }
}
