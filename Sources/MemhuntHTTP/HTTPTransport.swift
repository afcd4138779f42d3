import Foundation

/// The status line and headers of a response, as the transport received them.
public struct HTTPResponseHead: Sendable, Equatable {
    public var status: Int
    public var headers: HTTPHeaders
    /// The URL that answered.
    public var url: URL?

    public init(status: Int, headers: HTTPHeaders = [:], url: URL? = nil) {
        self.status = status
        self.headers = headers
        self.url = url
    }
}

/// Takes one response as it arrives, in order, one call at a time. A returned failure ends the exchange.
public protocol HTTPResponseReceiver: AnyObject, Sendable {
    func receive(head: HTTPResponseHead) -> HTTPFailure?
    func receive(body: Data) -> HTTPFailure?
}

/// Time limits of one exchange.
public struct HTTPExchangeLimits: Sendable {
    /// Seconds allowed for connecting and receiving the response head.
    public var connectTimeout: TimeInterval
    /// Seconds allowed without data once the response has started.
    public var idleTimeout: TimeInterval
    /// The exchange fails with `.deadline(totalTimeout)` if it is still running at `deadline`.
    public var deadline: Date
    public var totalTimeout: TimeInterval

    public init(connectTimeout: TimeInterval, idleTimeout: TimeInterval, deadline: Date, totalTimeout: TimeInterval) {
        self.connectTimeout = connectTimeout
        self.idleTimeout = idleTimeout
        self.deadline = deadline
        self.totalTimeout = totalTimeout
    }
}

/// The seam under `HTTPClient`: send one request exactly as given (headers final, redirects NOT followed)
/// and feed its response to `receiver`. Returns nil when the body ended normally, else why it did not.
/// Retries, redirects, credentials and limits are the client's, in one place; a test injects a transport.
public protocol HTTPTransport: Sendable {
    func exchange(_ request: HTTPRequest, limits: HTTPExchangeLimits, receiver: HTTPResponseReceiver) async
        -> HTTPFailure?
    /// Releases connections; exchanges after this fail.
    func close()
}

#if !os(Linux)
    /// HTTPS and proxied requests off Linux (`RoutingTransport`): ONE URLSession for the client's lifetime,
    /// created on first use, its connections reused across requests and closed by `close()`.
    ///
    /// Before, each download made its own session and never released it: 4,300 downloads held 4,307 open
    /// sockets, and under `ulimit -n 1024` a 500-entry manifest died (SIGILL, exit 132).
    public final class URLSessionTransport: NSObject, HTTPTransport, URLSessionDataDelegate, @unchecked Sendable {
        private final class Exchange: @unchecked Sendable {
            let receiver: HTTPResponseReceiver
            var continuation: CheckedContinuation<HTTPFailure?, Never>?
            var failure: HTTPFailure?
            var headReceived = false
            /// Between a redirect callback and the response that follows it, `task.cancel()` must not be called:
            /// swift-corelibs-foundation traps ("Received callback for HTTP redirection, but we're not waiting
            /// for it") when the redirect completion arrives after a cancel. The failure is then applied by
            /// cancelling the response instead.
            var redirecting = false
            var watchdogs: [DispatchWorkItem] = []

            init(receiver: HTTPResponseReceiver) { self.receiver = receiver }
        }

        private let lock = NSLock()
        private var session: URLSession?
        private var closed = false
        private var exchanges: [Int: Exchange] = [:]
        private let maxConnectionsPerHost: Int

        public init(maxConnectionsPerHost: Int = 4) {
            self.maxConnectionsPerHost = max(1, maxConnectionsPerHost)
        }

        private func currentSession() -> URLSession? {
            lock.lock()
            defer { lock.unlock() }
            if closed { return nil }
            if let session { return session }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.urlCache = nil
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            configuration.httpMaximumConnectionsPerHost = maxConnectionsPerHost
            // Delegate calls must arrive in order: body chunks are appended to a file as they come.
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let made = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
            session = made
            return made
        }

        public func close() {
            lock.lock()
            closed = true
            let session = self.session
            self.session = nil
            lock.unlock()
            session?.invalidateAndCancel()
        }

        public func exchange(_ request: HTTPRequest, limits: HTTPExchangeLimits, receiver: HTTPResponseReceiver) async
            -> HTTPFailure?
        {
            guard let session = currentSession() else { return .cancelled }
            var urlRequest = URLRequest(url: request.url)
            urlRequest.httpMethod = request.method
            // Both platforms restart this timer whenever data arrives, which makes it the idle timeout.
            urlRequest.timeoutInterval = limits.idleTimeout
            for (name, value) in request.headers { urlRequest.addValue(value, forHTTPHeaderField: name) }
            if case .bytes(let bytes, let type) = request.body {
                urlRequest.httpBody = Data(bytes)
                if urlRequest.value(forHTTPHeaderField: "Content-Type") == nil {
                    urlRequest.setValue(type, forHTTPHeaderField: "Content-Type")
                }
            }
            let task = session.dataTask(with: urlRequest)
            let exchange = Exchange(receiver: receiver)
            return await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    exchange.continuation = continuation
                    let connect = DispatchWorkItem { [self] in
                        if fail(task.taskIdentifier, .noResponse(limits.connectTimeout), onlyBeforeHead: true) {
                            task.cancel()
                        }
                    }
                    let deadline = DispatchWorkItem { [self] in
                        if fail(task.taskIdentifier, .deadline(limits.totalTimeout)) { task.cancel() }
                    }
                    exchange.watchdogs = [connect, deadline]
                    lock.withLock { exchanges[task.taskIdentifier] = exchange }
                    DispatchQueue.global().asyncAfter(deadline: .now() + limits.connectTimeout, execute: connect)
                    DispatchQueue.global().asyncAfter(
                        deadline: .now() + max(0, limits.deadline.timeIntervalSinceNow), execute: deadline)
                    task.resume()
                }
            } onCancel: {
                if fail(task.taskIdentifier, .cancelled) { task.cancel() }
            }
        }

        /// Records a failure for a running exchange; true if it was recorded (the caller then cancels the task).
        private func fail(_ id: Int, _ failure: HTTPFailure, onlyBeforeHead: Bool = false) -> Bool {
            lock.withLock {
                guard let exchange = exchanges[id], exchange.failure == nil else { return false }
                if onlyBeforeHead && exchange.headReceived { return false }
                exchange.failure = failure
                return !exchange.redirecting
            }
        }

        private func exchange(for task: URLSessionTask) -> Exchange? {
            lock.withLock { exchanges[task.taskIdentifier] }
        }

        public func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            guard let exchange = exchange(for: dataTask) else { return completionHandler(.cancel) }
            let http = response as? HTTPURLResponse
            var headers = HTTPHeaders()
            for (name, value) in http?.allHeaderFields ?? [:] {
                if let name = name as? String, let value = value as? String { headers.add(name, value) }
            }
            let head = HTTPResponseHead(status: http?.statusCode ?? 0, headers: headers, url: response.url)
            let proceed = lock.withLock { () -> Bool in
                exchange.headReceived = true
                exchange.redirecting = false
                return exchange.failure == nil
            }
            let failure = proceed ? exchange.receiver.receive(head: head) : nil
            if let failure { _ = fail(dataTask.taskIdentifier, failure) }
            completionHandler(proceed && failure == nil ? .allow : .cancel)
        }

        public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard let exchange = exchange(for: dataTask), lock.withLock({ exchange.failure == nil }) else { return }
            if let failure = exchange.receiver.receive(body: data), fail(dataTask.taskIdentifier, failure) {
                dataTask.cancel()
            }
        }

        /// Credentials are the client's to send (bound to their origin): a 401 challenge (`WWW-Authenticate`) is
        /// answered with none, so the 401 is the response. Without this, swift-corelibs-foundation held a POST answered
        /// 401 by Redmine until the total deadline.
        public func urlSession(
            _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            completionHandler(.rejectProtectionSpace, nil)
        }

        /// Redirects are the client's to follow (it decides where credentials go): the 3xx is the response.
        public func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            lock.withLock { exchanges[task.taskIdentifier]?.redirecting = true }
            completionHandler(nil)
        }

        public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            let ended = lock.withLock { () -> (Exchange, HTTPFailure?)? in
                guard let exchange = exchanges.removeValue(forKey: task.taskIdentifier) else { return nil }
                exchange.watchdogs.forEach { $0.cancel() }
                if exchange.failure == nil, let error {
                    exchange.failure =
                        (error as? URLError).map { Self.failure($0, idle: task.originalRequest?.timeoutInterval ?? 0) }
                        ?? .network("\(type(of: error))", retryable: true)
                }
                return (exchange, exchange.failure)
            }
            guard let (exchange, failure) = ended else { return }
            let continuation = lock.withLock { () -> CheckedContinuation<HTTPFailure?, Never>? in
                defer { exchange.continuation = nil }
                return exchange.continuation
            }
            continuation?.resume(returning: failure)
        }

        /// A `URLError` in words that never quote its URL.
        static func failure(_ error: URLError, idle: TimeInterval) -> HTTPFailure {
            switch error.code {
            case .timedOut: .idle(idle)
            case .cannotConnectToHost: .network("connection refused", retryable: true)
            case .cannotFindHost, .dnsLookupFailed: .network("cannot resolve host", retryable: true)
            case .networkConnectionLost: .network("connection lost", retryable: true)
            case .notConnectedToInternet: .network("not connected to the network", retryable: true)
            case .cancelled: .cancelled
            // The same request gets the same answer: an unparseable or oversized head, an unsupported URL.
            case .badServerResponse, .cannotParseResponse:
                .network("bad server response (URLError \(error.code.rawValue))", retryable: false)
            case .unsupportedURL, .badURL: .network("unsupported URL", retryable: false)
            // libcurl's errors that Foundation does not map (a 300 KB header line, for one) arrive as -1: nothing
            // says a second try would differ, and each retry cost a full exchange.
            case .unknown: .network("network error (URLError -1)", retryable: false)
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
                .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
                .network("TLS failure (URLError \(error.code.rawValue))", retryable: false)
            default: .network("network error (URLError \(error.code.rawValue))", retryable: true)
            }
        }
    }
#endif
