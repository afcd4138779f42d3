import Foundation
import MemhuntBasics

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why an attempt failed.
enum Failure: Sendable, Equatable {
    case http(Int)
    case network(String, retryable: Bool)
    case noResponse(TimeInterval)
    case idle(TimeInterval)
    case cutShort(received: Int, expected: Int)
    case tooLarge(Int)
    case tooManyRedirects(Int)
    case mismatch(expected: String, got: String)
    case file(String)
    case cancelled

    var retryable: Bool {
        switch self {
        case .http(let status): status == 408 || status == 429 || status >= 500
        case .network(_, let retryable): retryable
        case .noResponse, .idle, .cutShort: true
        case .tooLarge, .tooManyRedirects, .mismatch, .file, .cancelled: false
        }
    }

    var message: String {
        switch self {
        case .http(let status):
            "HTTP \(status) \(HTTPURLResponse.localizedString(forStatusCode: status).capitalized)"
        case .network(let what, _): what
        case .noResponse(let seconds): "no response within \(Self.format(seconds)) (connect timeout)"
        case .idle(let seconds): "timed out after \(Self.format(seconds)) without data"
        case .cutShort(let received, let expected): "body cut short: \(received) of \(expected) bytes"
        case .tooLarge(let limit):
            limit % (1 << 20) == 0 ? "larger than the \(limit >> 20) MB limit" : "larger than the \(limit) byte limit"
        case .tooManyRedirects(let limit): "too many redirects (\(limit))"
        case .mismatch(let expected, let got): "sha256 mismatch: expected \(expected), got \(got)"
        case .file(let what): "cannot write the cache file: \(what)"
        case .cancelled: "cancelled"
        }
    }

    /// A `URLError` in words that never quote its URL.
    init(_ error: URLError, idleTimeout: TimeInterval) {
        switch error.code {
        case .timedOut: self = .idle(idleTimeout)
        case .cannotConnectToHost: self = .network("connection refused", retryable: true)
        case .cannotFindHost, .dnsLookupFailed: self = .network("cannot resolve host", retryable: true)
        case .networkConnectionLost: self = .network("connection lost", retryable: true)
        case .notConnectedToInternet: self = .network("not connected to the network", retryable: true)
        case .badServerResponse: self = .network("bad server response", retryable: true)
        case .cancelled: self = .cancelled
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            self = .network("TLS failure (URLError \(error.code.rawValue))", retryable: false)
        default: self = .network("network error (URLError \(error.code.rawValue))", retryable: true)
        }
    }

    private static func format(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

/// What one HTTP exchange produced; on success the body is in the `.part` file.
struct Outcome: Sendable {
    var status: Int?
    var finalURL: URL?
    var size = 0
    var sha256 = ""
    var retryAfter: TimeInterval?
    var failure: Failure?
}

/// A value guarded by a lock (`Mutex` needs macOS 15; the package supports macOS 13).
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// One attempt: a data task on its own session whose delegate appends the body to `partPath` while a hashing
/// queue follows the file on disk, reading back at most 1 MB at a time from the page cache.
///
/// `URLSession.bytes(for:)` does not exist in swift-corelibs-foundation (Swift 6.3.1), hence the delegate. Its
/// `didReceive data` calls are queued without backpressure, so whatever the delegate cannot keep up with piles up
/// in memory. Fetching a 200 MB body from 127.0.0.1 (release build, /usr/bin/time -v), peak RSS was 230 MB with
/// `SHA256.update` inside the delegate (the hasher does ~40 MB/s, loopback far more) and 43-59 MB with this
/// follower (34 MB at rest), in 5.5 s.
final class Transfer: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var continuation: CheckedContinuation<Outcome, Never>?
        var outcome = Outcome()
        var file: FileHandle?
        var hashing = false
        var hashed = 0
        var expected: Int?
        var redirects = 0
        var reported = 0
        var watchdog: DispatchWorkItem?
    }

    /// Bytes between two progress events.
    private static let progressStep = 256 << 10

    private let configuration: HTTPConfiguration
    private let partPath: String
    private let onProgress: @Sendable (Int, Int?) -> Void
    private let state = Locked(State())
    /// Touched only on `hashQueue` once the body starts: the reader following `partPath` and its digest so far.
    private let follower = Locked((reader: FileHandle?.none, hasher: SHA256()))
    private let hashQueue = DispatchQueue(label: "memhunt.http.hash")

    init(configuration: HTTPConfiguration, partPath: String, onProgress: @escaping @Sendable (Int, Int?) -> Void) {
        self.configuration = configuration
        self.partPath = partPath
        self.onProgress = onProgress
    }

    /// Performs the exchange; the `.part` file exists afterwards only if it was created, success or not.
    func run(_ request: URLRequest) async -> Outcome {
        let session = URLSession(
            configuration: Self.sessionConfiguration(configuration), delegate: self,
            delegateQueue: Self.serialQueue())
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let watchdog = DispatchWorkItem { [self] in
                    if state.withLock({ $0.outcome.status == nil }) {
                        fail(.noResponse(configuration.connectTimeout))
                        task.cancel()
                    }
                }
                state.withLock {
                    $0.continuation = continuation
                    $0.watchdog = watchdog
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + configuration.connectTimeout, execute: watchdog)
                task.resume()
            }
        } onCancel: {
            fail(.cancelled)
            task.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let expected = response.expectedContentLength >= 0 ? Int(response.expectedContentLength) : nil
        let allowed = state.withLock { state -> Bool in
            state.outcome.status = http?.statusCode
            state.outcome.finalURL = response.url
            state.expected = expected
            guard state.outcome.failure == nil else { return false }
            if let status = http?.statusCode, !(200..<300).contains(status) {
                state.outcome.failure = .http(status)
                state.outcome.retryAfter = http?.value(forHTTPHeaderField: "Retry-After").flatMap(Self.retryAfter)
            } else if let expected, expected > configuration.maxBytes {
                state.outcome.failure = .tooLarge(configuration.maxBytes)
            } else if FileManager.default.createFile(atPath: partPath, contents: nil),
                let file = FileHandle(forWritingAtPath: partPath), let reader = FileHandle(forReadingAtPath: partPath)
            {
                state.file = file
                follower.withLock { $0.reader = reader }
                return true
            } else {
                state.outcome.failure = .file("cannot create \((partPath as NSString).lastPathComponent)")
            }
            return false
        }
        if allowed { onProgress(0, expected) }
        completionHandler(allowed ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        var (cancel, hash) = (false, false)
        let progress = state.withLock { state -> (Int, Int?)? in
            guard state.outcome.failure == nil, let file = state.file else { return nil }
            guard state.outcome.size + data.count <= configuration.maxBytes else {
                state.outcome.failure = .tooLarge(configuration.maxBytes)
                cancel = true
                return nil
            }
            do {
                try file.write(contentsOf: data)
            } catch {
                state.outcome.failure = .file("\(error)")
                cancel = true
                return nil
            }
            state.outcome.size += data.count
            (hash, state.hashing) = (!state.hashing, true)
            guard state.outcome.size - state.reported >= Self.progressStep || state.outcome.size == state.expected
            else { return nil }
            state.reported = state.outcome.size
            return (state.outcome.size, state.expected)
        }
        if cancel { dataTask.cancel() }
        if hash { hashQueue.async { self.catchUp() } }
        if let (bytes, total) = progress { onProgress(bytes, total) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let follow = state.withLock { state -> Bool in
            state.redirects += 1
            state.outcome.finalURL = request.url
            guard state.redirects > configuration.maxRedirects else { return true }
            if state.outcome.failure == nil { state.outcome.failure = .tooManyRedirects(configuration.maxRedirects) }
            return false
        }
        guard follow else { return completionHandler(nil) }
        var request = request
        // Credentials stay with the origin they were given for: the token and every configured header.
        if let from = task.originalRequest?.url, let to = request.url, !DownloadRequest.sameOrigin(from, to) {
            request.setValue(nil, forHTTPHeaderField: "Authorization")
            for name in configuration.headers.keys { request.setValue(nil, forHTTPHeaderField: name) }
        }
        completionHandler(request)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        state.withLock { state in
            state.watchdog?.cancel()
            try? state.file?.close()
            if state.outcome.failure == nil {
                if let error = error as? URLError, error.code == .timedOut {
                    state.outcome.failure = .idle(configuration.idleTimeout)
                } else if let expected = state.expected, state.outcome.size < expected {
                    state.outcome.failure = .cutShort(received: state.outcome.size, expected: expected)
                } else if let error = error as? URLError {
                    state.outcome.failure = Failure(error, idleTimeout: configuration.idleTimeout)
                } else if let error {
                    state.outcome.failure = .network("\(type(of: error))", retryable: true)
                }
            }
        }
        // Queued after every catch-up the body's chunks asked for.
        hashQueue.async { [self] in
            if state.withLock({ $0.outcome.failure == nil }) { catchUp() }
            let sha256 = follower.withLock { follower in
                try? follower.reader?.close()
                return follower.hasher.finalizeHex()
            }
            let finished = state.withLock { state -> (CheckedContinuation<Outcome, Never>, Outcome)? in
                if state.outcome.failure == nil {
                    if state.hashed == state.outcome.size {
                        state.outcome.sha256 = sha256
                    } else {
                        state.outcome.failure = .file("cannot read back the .part file")
                    }
                }
                defer { state.continuation = nil }
                return state.continuation.map { ($0, state.outcome) }
            }
            if let (continuation, outcome) = finished { continuation.resume(returning: outcome) }
        }
    }

    /// Hashes what has been written and not yet hashed, re-reading it from disk 1 MB at a time; on `hashQueue`.
    private func catchUp() {
        while let (hashed, written) = state.withLock({ state -> (Int, Int)? in
            state.hashing = state.outcome.size > state.hashed
            return state.hashing ? (state.hashed, state.outcome.size) : nil
        }) {
            let count = follower.withLock { follower in
                guard let chunk = try? follower.reader?.read(upToCount: min(1 << 20, written - hashed)) else {
                    return 0
                }
                follower.hasher.update(chunk)
                return chunk.count
            }
            // A short read leaves `hashed` behind `size`, which fails the attempt when it completes.
            guard count > 0 else { return }
            state.withLock { $0.hashed += count }
        }
    }

    /// Records `failure` unless an earlier one explains the outcome.
    private func fail(_ failure: Failure) {
        state.withLock { state in
            if state.outcome.failure == nil { state.outcome.failure = failure }
        }
    }

    /// `Retry-After` as seconds from now: delta-seconds or an HTTP-date.
    static func retryAfter(_ value: String) -> TimeInterval? {
        if let seconds = TimeInterval(value.trimmingCharacters(in: .whitespaces)) { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value).map { max(0, $0.timeIntervalSinceNow) }
    }

    private static func sessionConfiguration(_ configuration: HTTPConfiguration) -> URLSessionConfiguration {
        let session = URLSessionConfiguration.ephemeral
        // Both platforms restart this timer whenever data arrives, which makes it the idle timeout.
        session.timeoutIntervalForRequest = configuration.idleTimeout
        session.requestCachePolicy = .reloadIgnoringLocalCacheData
        session.urlCache = nil
        session.httpCookieStorage = nil
        session.httpShouldSetCookies = false
        return session
    }

    /// Delegate calls must arrive in order: body chunks are appended to the file as they come.
    private static func serialQueue() -> OperationQueue {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }
}
