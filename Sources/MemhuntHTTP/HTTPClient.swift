import Foundation

/// Progress of one `download`, for the caller to draw.
public enum HTTPTransferEvent: Sendable, Equatable {
    /// An attempt began (1, then once per retry).
    case attempt(Int)
    /// Body bytes received so far in this attempt, of `total` when the server said.
    case progress(bytes: Int, total: Int?)
}

/// What a successful `download` wrote.
public struct HTTPDownload: Sendable, Equatable {
    public var status: Int
    public var size: Int
    /// The redacted URL that answered, after redirects.
    public var finalURL: String
    public var attempts: Int
}

/// Any request, one policy: timeouts (connect, idle, total), retries with exponential backoff and jitter on
/// connection errors, timeouts, cut-short bodies, 408, 429 and 5xx (never other 4xx), `Retry-After` in
/// seconds or as an HTTP-date, at most `maxRedirects` redirects to http(s) only, credentials sent only to
/// the request's `credentialOrigin`, bodies capped at `maxBytes`, and errors that never quote a secret.
public final class HTTPClient: Sendable {
    public let configuration: HTTPConfiguration
    private let transport: HTTPTransport

    /// A client over `transport`, by default a `RoutingTransport` (plain sockets for `http://`, libcurl or
    /// URLSession for the rest) for the client's lifetime (`close()` it).
    public init(configuration: HTTPConfiguration = HTTPConfiguration(), transport: HTTPTransport? = nil) {
        self.configuration = configuration
        self.transport = transport ?? RoutingTransport(maxConnectionsPerHost: configuration.maxConcurrent)
    }

    /// Closes the connections; requests after this fail as cancelled.
    public func close() { transport.close() }

    /// Sends a request and returns the final response whatever its status (after retrying 408, 429 and 5xx),
    /// with its whole body, up to `maxBytes`.
    public func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let buffer = Locked<[UInt8]>([])
        let limit = configuration.maxBytes
        let (head, _) = try await perform(request, acceptsErrorStatus: true) { _ in
            buffer.withLock { $0 = [] }
            return { chunk in
                buffer.withLock { body in
                    // The array grows by doubling, never past the body limit: before, a hostile chunked body took more
                    // than twice the limit in memory before the cut (the doubled array and the copy into it).
                    let needed = body.count + chunk.count
                    if needed > body.capacity {
                        body.reserveCapacity(min(max(body.capacity * 2, needed), max(limit, needed)))
                    }
                    body.append(contentsOf: chunk)
                }
                return nil
            }
        }
        return HTTPResponse(status: head.status, headers: head.headers, body: buffer.withLock { $0 }, url: head.url)
    }

    /// Streams a 2xx body to `path` (created or truncated per attempt, removed on failure); any other final
    /// status is an error.
    public func download(
        _ request: HTTPRequest, to path: String, onEvent: @escaping @Sendable (HTTPTransferEvent) -> Void = { _ in }
    ) async throws(HTTPError) -> HTTPDownload {
        let file = Locked<FileHandle?>(nil)
        defer { file.withLock { try? $0?.close() } }
        do {
            let (head, attempts) = try await perform(request, acceptsErrorStatus: false, onEvent: onEvent) { head in
                file.withLock { handle in
                    try? handle?.close()
                    handle = nil
                    // 0600: a cached body is as private as the request that fetched it.
                    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
                    if descriptor >= 0 { handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true) }
                }
                guard file.withLock({ $0 != nil }) else { return nil }
                return { chunk in
                    file.withLock { handle -> HTTPFailure? in
                        do {
                            try handle?.write(contentsOf: chunk)
                            return nil
                        } catch {
                            return .file("write failed")
                        }
                    }
                }
            }
            file.withLock {
                try? $0?.close()
                $0 = nil
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            return HTTPDownload(
                status: head.status, size: size, finalURL: head.url.map(Redact.url) ?? Redact.url(request.url),
                attempts: attempts)
        } catch {
            file.withLock {
                try? $0?.close()
                $0 = nil
            }
            unlink(path)
            throw error
        }
    }

    /// A body sink for one attempt, made once its head is accepted; nil means the sink could not be opened.
    typealias SinkFactory = @Sendable (HTTPResponseHead) -> (@Sendable (Data) -> HTTPFailure?)?

    /// The attempt loop and the redirect loop; returns the final head and the attempts made.
    private func perform(
        _ original: HTTPRequest, acceptsErrorStatus: Bool,
        onEvent: @escaping @Sendable (HTTPTransferEvent) -> Void = { _ in }, sink: @escaping SinkFactory
    ) async throws(HTTPError) -> (HTTPResponseHead, Int) {
        let shown = Redact.url(original.url)
        let start = Date()
        let deadline = start.addingTimeInterval(configuration.totalTimeout)
        var attempts = 0
        func error(_ failure: HTTPFailure, status: Int?, url: URL?) -> HTTPError {
            HTTPError(
                url: shown, failure: failure, attempts: attempts, status: status,
                finalURL: url.map(Redact.url) ?? shown)
        }
        if let problem = Self.invalid(original, configuration) {
            attempts = 1
            throw error(.invalidRequest(problem), status: nil, url: nil)
        }
        while true {
            attempts += 1
            onEvent(.attempt(attempts))
            var request = original
            var redirects = 0
            var outcome: (head: HTTPResponseHead?, failure: HTTPFailure?, retryAfter: TimeInterval?)
            hops: while true {
                let receiver = AttemptReceiver(
                    maxBytes: configuration.maxBytes, acceptsErrorStatus: acceptsErrorStatus, sink: sink,
                    onProgress: { onEvent(.progress(bytes: $0, total: $1)) })
                let limits = HTTPExchangeLimits(
                    connectTimeout: configuration.connectTimeout, idleTimeout: configuration.idleTimeout,
                    deadline: deadline, totalTimeout: configuration.totalTimeout)
                let failure = await transport.exchange(prepared(request), limits: limits, receiver: receiver)
                let state = receiver.state.withLock { $0 }
                if let head = state.head, let location = state.redirect {
                    redirects += 1
                    guard redirects <= configuration.maxRedirects else {
                        outcome = (head, .tooManyRedirects(configuration.maxRedirects), nil)
                        break hops
                    }
                    guard let next = URL(string: location, relativeTo: request.url)?.absoluteURL,
                        let scheme = next.scheme?.lowercased()
                    else {
                        outcome = (head, .badRedirect("the Location is not a URL"), nil)
                        break hops
                    }
                    guard scheme == "http" || scheme == "https", next.host != nil else {
                        outcome = (head, .badRedirect("to a \(scheme) URL, not http(s)"), nil)
                        break hops
                    }
                    // 303, and 301/302 after a POST, change to GET without a body, as browsers do.
                    if head.status == 303 || ((head.status == 301 || head.status == 302) && request.method == "POST") {
                        request.method = request.method == "HEAD" ? "HEAD" : "GET"
                        request.body = .empty
                    }
                    request.url = next
                    continue
                }
                var final = state.failure ?? failure
                if case .network? = final, let expected = state.expected, state.received < expected {
                    final = .cutShort(received: state.received, expected: expected)
                } else if final == nil, let expected = state.expected, state.received < expected,
                    request.method != "HEAD"
                {
                    final = .cutShort(received: state.received, expected: expected)
                }
                outcome = (state.head, final, state.retryAfter)
                break hops
            }
            // A transport that ends without a failure has delivered a head; if one ever did not, that is a
            // failure to report, not a crash.
            guard
                let failure = outcome.failure ?? (outcome.head == nil ? .network("no response", retryable: true) : nil)
            else { return (outcome.head!, attempts) }
            let delay = min(
                configuration.maxDelay,
                outcome.retryAfter ?? configuration.baseDelay * pow(2, Double(attempts - 1)) * .random(in: 0.5...1))
            // A server that asks for a longer wait than the cap would refuse an earlier attempt again (Roundup's
            // rate limit answered 429 with `Retry-After: 3600`): say so at once instead of retrying early.
            let tooLong = outcome.retryAfter.map { $0 > configuration.maxDelay } ?? false
            let retry =
                failure.retryable && !tooLong && attempts <= configuration.maxRetries && !Task.isCancelled
                && Date().addingTimeInterval(delay) < deadline
            if !retry, acceptsErrorStatus, case .http = failure, let head = outcome.head {
                return (head, attempts)
            }
            guard retry else {
                var failed = error(failure, status: outcome.head?.status, url: outcome.head?.url)
                if tooLong, failure.retryable {
                    failed.retryAfter = outcome.retryAfter
                    failed.maxDelay = configuration.maxDelay
                }
                throw failed
            }
            try? await Task.sleep(for: .seconds(delay))
        }
    }

    /// The request as sent: `Accept-Encoding: identity`, and the credentials only on their origin.
    ///
    /// Identity, not gzip/br/zstd: URLSession (libcurl on Linux) decodes a compressed body before the delegate sees it
    /// and queues the decoded chunks without backpressure, so a small gzip bomb took memory far beyond the size limit
    /// before that limit could act, and a small honest gzip body failed as "cut short" (decoded bytes counted against
    /// the compressed Content-Length). Artifacts are small and mostly fetched in CI, so compression buys little; a
    /// server that compresses anyway is refused at the head, before any body.
    private func prepared(_ request: HTTPRequest) -> HTTPRequest {
        var request = request
        request.headers["Accept-Encoding"] = "identity"
        let onOrigin = request.credentialOrigin != nil && HTTPOrigin(request.url) == request.credentialOrigin
        if onOrigin {
            for (name, value) in configuration.headers { request.headers[name] = value }
            if let token = configuration.bearerToken { request.headers["Authorization"] = "Bearer \(token)" }
        } else {
            for name in ["Authorization", "Proxy-Authorization", "Cookie"] + configuration.headers.keys {
                request.headers[name] = nil
            }
        }
        return request
    }

    /// A request that must not be sent: not http(s), or a header that could split the request.
    static func invalid(_ request: HTTPRequest, _ configuration: HTTPConfiguration) -> String? {
        guard HTTPOrigin(request.url) != nil else { return "not an http(s) URL" }
        let values = request.headers.map(\.value) + configuration.headers.values + [configuration.bearerToken ?? ""]
        let names = request.headers.map(\.name) + configuration.headers.keys
        if values.contains(where: { $0.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) })
            || names.contains(where: {
                $0.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x3A || $0 <= 0x20 })
            })
        {
            return "a header or the token contains a line break"
        }
        return nil
    }

    /// `Retry-After` as seconds from now: delta-seconds or an HTTP-date.
    public static func retryAfter(_ value: String, now: Date = Date()) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = TimeInterval(trimmed), seconds.isFinite { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: trimmed).map { max(0, $0.timeIntervalSince(now)) }
    }
}

/// One exchange's view of its response: the head, the decision about the body, and the byte count.
final class AttemptReceiver: HTTPResponseReceiver, @unchecked Sendable {
    struct State {
        var head: HTTPResponseHead?
        var redirect: String?
        var failure: HTTPFailure?
        var retryAfter: TimeInterval?
        var expected: Int?
        var received = 0
        var reported = 0
    }

    /// Bytes between two progress events.
    static let progressStep = 256 << 10

    let state = Locked(State())
    private let maxBytes: Int
    private let acceptsErrorStatus: Bool
    private let makeSink: HTTPClient.SinkFactory
    private let onProgress: @Sendable (Int, Int?) -> Void
    private var sink: (@Sendable (Data) -> HTTPFailure?)?

    init(
        maxBytes: Int, acceptsErrorStatus: Bool, sink: @escaping HTTPClient.SinkFactory,
        onProgress: @escaping @Sendable (Int, Int?) -> Void
    ) {
        self.maxBytes = maxBytes
        self.acceptsErrorStatus = acceptsErrorStatus
        self.makeSink = sink
        self.onProgress = onProgress
    }

    func receive(head: HTTPResponseHead) -> HTTPFailure? {
        let status = head.status
        let failure = state.withLock { state -> HTTPFailure? in
            state.head = head
            if [301, 302, 303, 307, 308].contains(status), let location = head.headers["Location"] {
                state.redirect = location
                return .cancelled
            }
            if !(200..<300).contains(status) {
                state.retryAfter = head.headers["Retry-After"].flatMap { HTTPClient.retryAfter($0) }
                state.failure = .http(status)
                if !acceptsErrorStatus || HTTPFailure.http(status).retryable { return state.failure }
            }
            if let coding = head.headers["Content-Encoding"]?.trimmingCharacters(in: .whitespaces).lowercased(),
                !coding.isEmpty, coding != "identity"
            {
                state.failure = .encoding(coding)
                return state.failure
            }
            state.expected = head.headers["Content-Length"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            if let expected = state.expected, expected > maxBytes {
                state.failure = .tooLarge(maxBytes)
                return state.failure
            }
            return nil
        }
        if let failure { return failure }
        guard let sink = makeSink(head) else {
            state.withLock { $0.failure = .file("cannot create the cache file") }
            return .file("cannot create the cache file")
        }
        self.sink = sink
        onProgress(0, state.withLock { $0.expected })
        return nil
    }

    func receive(body: Data) -> HTTPFailure? {
        // Counted as delivered (identity encoding: the bytes on the wire), capped before they are written.
        var overflow = false
        let report = state.withLock { state -> (Int, Int?)? in
            guard state.received + body.count <= maxBytes else {
                state.failure = .tooLarge(maxBytes)
                overflow = true
                return nil
            }
            state.received += body.count
            guard state.received - state.reported >= Self.progressStep || state.received == state.expected else {
                return nil
            }
            state.reported = state.received
            return (state.received, state.expected)
        }
        if overflow { return .tooLarge(maxBytes) }
        if let failure = sink?(body) {
            state.withLock { $0.failure = failure }
            return failure
        }
        if let (bytes, total) = report { onProgress(bytes, total) }
        return nil
    }
}
