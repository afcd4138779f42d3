#if os(Linux)
    import CCurl
    import Foundation

    /// HTTPS, and `http://` through a proxy, on Linux: libcurl's easy interface, loaded with `dlopen` by the
    /// first exchange that needs it (`CCurl`).
    ///
    /// Before, these went through swift-corelibs-foundation's URLSession, and linking FoundationNetworking loaded
    /// libcurl and its 29 libraries at every start, whether or not a run touched the network: a sizeable share of a
    /// short run such as one on one JetsamEvent. The same libcurl now loads only when asked for, and the binary no
    /// longer links FoundationNetworking.
    ///
    /// One thread per exchange runs `curl_easy_perform`, which calls back with each header line and each body
    /// chunk (at most 64 KiB); the callbacks hand them to the receiver before libcurl reads on, so the
    /// kernel's socket buffer is the only queue, as in `SocketTransport`. Nothing is decoded (no
    /// `CURLOPT_ACCEPT_ENCODING`), redirects are not followed, credentials are the client's. Certificates are
    /// verified by libcurl's defaults (peer and host name), against `SSL_CERT_FILE`/`SSL_CERT_DIR` when they
    /// are set, else libcurl's own bundle. The proxy is read from `http_proxy`, `https_proxy`, `all_proxy`
    /// and `no_proxy` as curl reads them (`RoutingTransport.proxy(for:environment:)`). The limits are
    /// checked from libcurl's progress callback, which runs at least once a second: a timeout or a
    /// cancellation acts within about a second.
    ///
    /// Handles (with the connections libcurl keeps in them) are reused, at most `maxIdle` kept.
    public final class CurlTransport: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var idle: [UnsafeMutableRawPointer] = []
        private var closed = false
        private let maxIdle: Int
        private let caFile: String?
        private let caDirectory: String?
        private let environment: [String: String]

        public init(maxIdle: Int = 4, environment: [String: String] = ProcessInfo.processInfo.environment) {
            self.maxIdle = max(1, maxIdle)
            caFile = environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
            caDirectory = environment["SSL_CERT_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            self.environment = environment
        }

        public func close() {
            let handles = lock.withLock { () -> [UnsafeMutableRawPointer] in
                closed = true
                defer { idle = [] }
                return idle
            }
            guard !handles.isEmpty else { return }
            // Closing a TLS connection writes to it: on a thread that cannot receive SIGPIPE. The handles are
            // no longer reachable from anywhere else.
            let owned = Owned(handles)
            Thread.detachNewThread {
                mh_block_sigpipe()
                owned.value.forEach(mh_curl_easy_cleanup)
            }
        }

        public func exchange(_ request: HTTPRequest, limits: HTTPExchangeLimits, receiver: HTTPResponseReceiver)
            async -> HTTPFailure?
        {
            if let error = mh_curl_load() { return .network(String(cString: error), retryable: false) }
            let cancelled = Locked(false)
            let exchange = CurlExchange(
                receiver: receiver, clock: Clock(limits, cancelled: cancelled), url: request.url)
            return await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    // A thread of its own: curl_easy_perform blocks, never on the cooperative pool.
                    Thread.detachNewThread {
                        mh_block_sigpipe()
                        continuation.resume(returning: self.run(request, exchange, limits: limits))
                    }
                }
            } onCancel: {
                cancelled.withLock { $0 = true }
            }
        }

        private func run(_ request: HTTPRequest, _ exchange: CurlExchange, limits: HTTPExchangeLimits)
            -> HTTPFailure?
        {
            guard let handle = lock.withLock({ closed ? nil : idle.popLast() }) ?? mh_curl_easy_init() else {
                return lock.withLock { closed } ? .cancelled : .network("libcurl could not start", retryable: false)
            }
            mh_curl_easy_reset(handle)
            let failure = perform(request, exchange, handle: handle, limits: limits)
            // Only a handle whose exchange succeeded is kept: after a failure its state is not worth trusting.
            let kept = lock.withLock { () -> Bool in
                guard failure == nil, !closed, idle.count < maxIdle else { return false }
                idle.append(handle)
                return true
            }
            if !kept { mh_curl_easy_cleanup(handle) }
            return failure
        }

        private func perform(
            _ request: HTTPRequest, _ exchange: CurlExchange, handle: UnsafeMutableRawPointer,
            limits: HTTPExchangeLimits
        ) -> HTTPFailure? {
            var headers: UnsafeMutableRawPointer?
            defer { if let headers { mh_curl_slist_free_all(headers) } }
            // Header lines go out as given; `HTTPClient.invalid` has refused names and values that could split them.
            var lines = request.headers.map { "\($0.name): \($0.value)" }
            var bytes: [UInt8]?
            if case .bytes(let body, let type) = request.body {
                bytes = body
                if !request.headers.contains("Content-Type") { lines.append("Content-Type: \(type)") }
            } else if !request.headers.contains("Content-Type") {
                lines.append("Content-Type:")  // not libcurl's form type on a bodiless POST
            }
            // No `Expect: 100-continue` wait before a body.
            lines.append("Expect:")
            for line in lines {
                guard let list = mh_curl_slist_append(headers, line) else {
                    return .network("out of memory", retryable: false)
                }
                headers = list
            }

            let context = Unmanaged.passUnretained(exchange).toOpaque()
            // The first option libcurl refused, with its CURLcode.
            var refused: (option: Int32, code: Int32)?
            func set(_ option: Int32, _ code: Int32) {
                if code != 0 && refused == nil { refused = (option, code) }
            }
            set(Option.url, mh_curl_setopt_pointer(handle, Option.url, request.url.absoluteString))
            set(Option.httpHeader, mh_curl_setopt_pointer(handle, Option.httpHeader, headers))
            // Only HTTP and HTTPS, whatever the URL says (`CURLOPT_PROTOCOLS_STR`, or the bitmask before 7.85).
            if mh_curl_setopt_pointer(handle, Option.protocolsString, "http,https") != 0 {
                set(Option.protocols, mh_curl_setopt_long(handle, Option.protocols, 1 | 2))
            }
            set(Option.noSignal, mh_curl_setopt_long(handle, Option.noSignal, 1))
            set(Option.followLocation, mh_curl_setopt_long(handle, Option.followLocation, 0))
            set(Option.suppressConnectHeaders, mh_curl_setopt_long(handle, Option.suppressConnectHeaders, 1))
            // Best effort: libcurl 7.88 refused it (CURLcode 43) on a handle reset after a failed resolve, and
            // its 16 KiB default serves too.
            _ = mh_curl_setopt_long(handle, Option.bufferSize, 64 << 10)
            set(
                Option.connectTimeoutMS,
                mh_curl_setopt_long(handle, Option.connectTimeoutMS, Self.milliseconds(limits.connectTimeout)))
            set(
                Option.timeoutMS,
                mh_curl_setopt_long(
                    handle, Option.timeoutMS, Self.milliseconds(limits.deadline.timeIntervalSinceNow)))
            // The proxy is chosen here, from `environment`, as `RoutingTransport` chose this transport: "" for
            // either option keeps libcurl from reading the process's variables on its own (it read `no_proxy`
            // even with a proxy set, and skipped the proxy the environment given here names).
            set(
                Option.proxy,
                mh_curl_setopt_pointer(
                    handle, Option.proxy, RoutingTransport.proxy(for: request.url, environment: environment) ?? ""))
            set(Option.noProxy, mh_curl_setopt_pointer(handle, Option.noProxy, ""))
            if let caFile { set(Option.caInfo, mh_curl_setopt_pointer(handle, Option.caInfo, caFile)) }
            if let caDirectory { set(Option.caPath, mh_curl_setopt_pointer(handle, Option.caPath, caDirectory)) }
            set(Option.headerFunction, mh_curl_setopt_data_fn(handle, Option.headerFunction, curlHeader))
            set(Option.headerData, mh_curl_setopt_pointer(handle, Option.headerData, context))
            set(Option.writeFunction, mh_curl_setopt_data_fn(handle, Option.writeFunction, curlWrite))
            set(Option.writeData, mh_curl_setopt_pointer(handle, Option.writeData, context))
            set(Option.xferInfoFunction, mh_curl_setopt_xfer_fn(handle, Option.xferInfoFunction, curlProgress))
            set(Option.xferInfoData, mh_curl_setopt_pointer(handle, Option.xferInfoData, context))
            set(Option.noProgress, mh_curl_setopt_long(handle, Option.noProgress, 0))
            switch request.method {
            case "GET" where bytes == nil: set(Option.httpGet, mh_curl_setopt_long(handle, Option.httpGet, 1))
            case "HEAD": set(Option.noBody, mh_curl_setopt_long(handle, Option.noBody, 1))
            case "POST": set(Option.post, mh_curl_setopt_long(handle, Option.post, 1))
            default: set(Option.customRequest, mh_curl_setopt_pointer(handle, Option.customRequest, request.method))
            }
            if request.method == "POST" || bytes != nil {
                let body = bytes ?? []
                set(
                    Option.postFieldSizeLarge,
                    mh_curl_setopt_offset(handle, Option.postFieldSizeLarge, Int64(body.count)))
                // Copied by libcurl: the bytes need not outlive this call.
                set(
                    Option.copyPostFields,
                    body.withUnsafeBytes { mh_curl_setopt_pointer(handle, Option.copyPostFields, $0.baseAddress) })
            }
            if let refused {
                return .network(
                    "libcurl refused option \(refused.option) (CURLcode \(refused.code))", retryable: false)
            }
            let result = mh_curl_perform(handle)
            return exchange.failure ?? (result == 0 ? nil : Self.failure(result, exchange, limits: limits))
        }

        static func milliseconds(_ seconds: TimeInterval) -> Int {
            seconds <= 0.001 ? 1 : seconds >= 1e9 ? Int(Int32.max) : Int(seconds * 1000)
        }

        /// A CURLcode in words that never quote the URL (libcurl's own messages name hosts and ports).
        static func failure(_ code: Int32, _ exchange: CurlExchange, limits: HTTPExchangeLimits) -> HTTPFailure {
            switch code {
            case 28:
                exchange.clock.expired()
                    ?? (exchange.delivered ? .deadline(limits.totalTimeout) : .noResponse(limits.connectTimeout))
            case 42, 23: .cancelled
            case 6: .network("cannot resolve host", retryable: true)
            case 5: .network("cannot resolve proxy", retryable: true)
            case 7: .network("connection refused", retryable: true)
            case 97: .network("proxy failure", retryable: true)
            case 18, 52, 55, 56: .network("connection lost", retryable: true)
            case 1, 3: .network("unsupported URL", retryable: false)
            case 35, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91, 98:
                .network("TLS failure (CURLcode \(code): \(tlsReason(code)))", retryable: false)
            case 8, 16, 61, 92, 100: .network("bad server response (CURLcode \(code))", retryable: false)
            default: .network("network error (CURLcode \(code))", retryable: true)
            }
        }

        static func tlsReason(_ code: Int32) -> String {
            switch code {
            case 60: "the server's certificate is not trusted or not for this host"
            case 35: "the TLS handshake failed"
            case 77: "the CA certificates could not be read"
            case 58: "the client certificate could not be used"
            default: "see libcurl's error codes"
            }
        }

        /// libcurl's option numbers (curl/curl.h: type base + number), stable across its versions.
        enum Option {
            static let writeData: Int32 = 10_001
            static let url: Int32 = 10_002
            static let proxy: Int32 = 10_004
            static let writeFunction: Int32 = 20_011
            static let httpHeader: Int32 = 10_023
            static let headerData: Int32 = 10_029
            static let customRequest: Int32 = 10_036
            static let noProgress: Int32 = 43
            static let noBody: Int32 = 44
            static let post: Int32 = 47
            static let followLocation: Int32 = 52
            static let xferInfoData: Int32 = 10_057
            static let caInfo: Int32 = 10_065
            static let headerFunction: Int32 = 20_079
            static let httpGet: Int32 = 80
            static let caPath: Int32 = 10_097
            static let bufferSize: Int32 = 98
            static let noSignal: Int32 = 99
            static let postFieldSizeLarge: Int32 = 30_120
            static let timeoutMS: Int32 = 155
            static let connectTimeoutMS: Int32 = 156
            static let copyPostFields: Int32 = 10_165
            static let noProxy: Int32 = 10_177
            static let protocols: Int32 = 181
            static let xferInfoFunction: Int32 = 20_219
            static let suppressConnectHeaders: Int32 = 265
            static let protocolsString: Int32 = 10_318
        }
    }

    /// A value handed to one other thread that alone uses it from then on.
    private struct Owned<Value>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    /// One exchange, reached from libcurl's callbacks through their context pointer: made on the caller's
    /// thread, then used only on the exchange's own (the clock's cancellation flag is locked).
    final class CurlExchange: @unchecked Sendable {
        let receiver: HTTPResponseReceiver
        let clock: Clock
        let url: URL
        private var status = 0
        private var headers = HTTPHeaders()
        private var headBytes = 0
        private var uploaded: Int64 = 0
        /// The head went to the receiver; later header lines are trailers.
        private(set) var delivered = false
        /// Why the exchange was ended from a callback (the receiver's failure, a limit).
        var failure: HTTPFailure?

        init(receiver: HTTPResponseReceiver, clock: Clock, url: URL) {
            self.receiver = receiver
            self.clock = clock
            self.url = url
        }

        /// One header line with its CRLF; false ends the exchange.
        func header(_ bytes: UnsafeRawBufferPointer) -> Bool {
            clock.progressed()
            if delivered { return true }
            headBytes += bytes.count
            guard headBytes <= SocketTransport.maxHeadBytes else {
                failure = SocketTransport.headTooLarge
                return false
            }
            // Bytes, not Characters: "\r\n" is one Character, which neither "\r" nor "\n" equals.
            var end = bytes.count
            while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
            let line = Substring(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
            if line.hasPrefix("HTTP/") {
                // A status line starts a head: after a 1xx, the head that follows is the response's.
                status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                headers = HTTPHeaders()
                return true
            }
            if line.isEmpty {
                if (100..<200).contains(status) { return true }
                delivered = true
                clock.headReceived = true
                failure = receiver.receive(head: HTTPResponseHead(status: status, headers: headers, url: url))
                return failure == nil
            }
            if let colon = line.firstIndex(of: ":") {
                headers.add(
                    line[..<colon].trimmingCharacters(in: .whitespaces),
                    line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            return true
        }

        func body(_ bytes: UnsafeRawBufferPointer) -> Bool {
            clock.progressed()
            failure = receiver.receive(body: Data(bytes))
            return failure == nil
        }

        /// Called by libcurl at least once a second: false (a limit reached) ends the exchange.
        func progress(uploaded now: Int64) -> Bool {
            if now > uploaded {
                uploaded = now
                clock.progressed()
            }
            if let expired = clock.expired() {
                failure = expired
                return false
            }
            return true
        }
    }

    private func exchange(_ context: UnsafeMutableRawPointer?) -> CurlExchange {
        Unmanaged<CurlExchange>.fromOpaque(context!).takeUnretainedValue()
    }

    private let curlHeader: mh_curl_data_fn = { data, size, count, context in
        let length = size * count
        return exchange(context).header(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
    }

    private let curlWrite: mh_curl_data_fn = { data, size, count, context in
        let length = size * count
        return exchange(context).body(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
    }

    private let curlProgress: mh_curl_xfer_fn = { context, _, _, _, uploaded in
        exchange(context).progress(uploaded: uploaded) ? 0 : 1
    }
#endif
