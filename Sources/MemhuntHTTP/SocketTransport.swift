import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// HTTP/1.1 over plain TCP, for `http://` URLs reached without a proxy: the transport of the loopback and
/// intranet paths, with backpressure.
///
/// Why not URLSession here: swift-corelibs-foundation's URLSession (libcurl) reads the socket as fast as it can and
/// queues the chunks for the delegate, so a change log served over loopback peaked well above the same file read from
/// disk (issue 8), and its first use alone raises the peak even for a tiny download. Here one thread per exchange reads
/// at most 64 KiB, hands it to the receiver (which writes it to the cache file) and only then reads again: the kernel's
/// socket buffer is the only queue, and nothing is decoded (a compressed body is refused at the head, before any of it
/// is read).
///
/// Connections of GET and HEAD requests are kept (at most `maxIdlePerOrigin` idle per origin) and reused;
/// one the server closed while idle is detected before use, and a request that meets such a close before any
/// byte of its response is sent once more on a new connection. POST, PUT, PATCH and DELETE always get a new
/// connection and are never re-sent here: whether they are is the client's retry policy, in one place.
public final class SocketTransport: HTTPTransport, @unchecked Sendable {
    /// Bytes read at a time: the most one exchange holds beyond the receiver's own buffers.
    static let readSize = 64 << 10
    /// Largest response head (status line and headers) accepted; libcurl's is 100 KB, Apache's 8 KB a line.
    static let maxHeadBytes = 64 << 10
    /// A response whose head passes `maxHeadBytes`, on either transport.
    static let headTooLarge = HTTPFailure.network(
        "bad server response (headers larger than \(maxHeadBytes >> 10) KB)", retryable: false)

    private let lock = NSLock()
    private var idle: [String: [Connection]] = [:]
    private var closed = false
    private let maxIdlePerOrigin: Int

    public init(maxIdlePerOrigin: Int = 4) {
        self.maxIdlePerOrigin = max(1, maxIdlePerOrigin)
    }

    public func close() {
        let connections = lock.withLock { () -> [Connection] in
            closed = true
            defer { idle = [:] }
            return idle.values.flatMap { $0 }
        }
        connections.forEach { $0.close() }
    }

    public func exchange(_ request: HTTPRequest, limits: HTTPExchangeLimits, receiver: HTTPResponseReceiver) async
        -> HTTPFailure?
    {
        let cancelled = Locked(false)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A thread of its own: the exchange blocks in poll(2), never on the cooperative pool.
                Thread.detachNewThread {
                    continuation.resume(
                        returning: self.run(request, clock: Clock(limits, cancelled: cancelled), receiver: receiver))
                }
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
        }
    }

    // MARK: - One exchange

    private func run(_ request: HTTPRequest, clock: Clock, receiver: HTTPResponseReceiver) -> HTTPFailure? {
        guard lock.withLock({ !closed }) else { return .cancelled }
        guard let target = Target(request.url) else { return .network("unsupported URL", retryable: false) }
        let keepable = request.method == "GET" || request.method == "HEAD"
        var mayReuse = keepable
        clock.connected = false
        while true {
            let pooled = mayReuse ? takeIdle(target.key) : nil
            let connection: Connection
            if let pooled {
                connection = pooled
            } else {
                switch Connection.open(target, clock: clock) {
                case .success(let opened): connection = opened
                case .failure(let failure): return failure
                }
            }
            clock.connected = true
            let outcome = connection.exchange(request, target: target, clock: clock, receiver: receiver)
            switch outcome {
            case .stale where pooled != nil:
                // The server closed the idle connection as the request went out: once more, on a new one.
                connection.close()
                mayReuse = false
            case .stale:
                connection.close()
                return .network("connection lost", retryable: true)
            case .done(let failure, let reusable):
                if reusable && keepable { putIdle(connection, key: target.key) } else { connection.close() }
                return failure
            }
        }
    }

    private func takeIdle(_ key: String) -> Connection? {
        while let connection = lock.withLock({ idle[key]?.popLast() }) {
            if connection.isAlive() { return connection }
            connection.close()
        }
        return nil
    }

    private func putIdle(_ connection: Connection, key: String) {
        let kept = lock.withLock { () -> Bool in
            guard !closed, idle[key, default: []].count < maxIdlePerOrigin else { return false }
            idle[key, default: []].append(connection)
            return true
        }
        if !kept { connection.close() }
    }
}

// MARK: - Where to connect

/// The host, port and request target of an `http://` URL.
struct Target {
    var host: String
    var port: Int
    /// `Host:` header value.
    var authority: String
    /// Path and query, as sent on the request line.
    var path: String
    /// `Authorization: Basic …` from user info in the URL, as libcurl sends it.
    var basic: String?
    var key: String { "\(host):\(port)" }

    init?(_ url: URL) {
        guard url.scheme?.lowercased() == "http", var host = url.host, !host.isEmpty,
            let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = url.port ?? 80
        guard (1...65535).contains(port) else { return nil }
        self.host = host
        self.port = port
        let bracketed = host.contains(":") ? "[\(host)]" : host
        authority = port == 80 ? bracketed : "\(bracketed):\(port)"
        let encodedPath = components.percentEncodedPath
        path = (encodedPath.isEmpty ? "/" : encodedPath) + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        // A request target holds no space or line break (URL parsing refuses them; this is the guard).
        guard !path.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { return nil }
        if let user = components.user {
            basic = Data("\(user):\(components.password ?? "")".utf8).base64EncodedString()
        }
    }
}

// MARK: - Time limits

/// The exchange's limits on the monotonic clock, and its cancellation.
final class Clock: @unchecked Sendable {
    private let connectBy: UInt64
    private let deadline: UInt64
    private let idleNanoseconds: UInt64
    private let limits: HTTPExchangeLimits
    private let cancelled: Locked<Bool>
    private var lastData: UInt64
    /// Set once a response head has arrived: the connect limit no longer applies.
    var headReceived = false
    /// Whether the connection is made, for a transport that knows (nil: libcurl's does not say): after it, the
    /// connect limit bounds the wait for the response head, and its failure says so.
    var connected: Bool?

    init(_ limits: HTTPExchangeLimits, cancelled: Locked<Bool>) {
        let now = Self.now()
        self.limits = limits
        self.cancelled = cancelled
        connectBy = now &+ Self.nanoseconds(limits.connectTimeout)
        deadline = now &+ Self.nanoseconds(limits.deadline.timeIntervalSinceNow)
        idleNanoseconds = Self.nanoseconds(limits.idleTimeout)
        lastData = now
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        seconds <= 0 ? 0 : seconds >= 1e9 ? UInt64(1e18) : UInt64(seconds * 1e9)
    }

    /// Bytes moved: the idle timer restarts.
    func progressed() { lastData = Self.now() }

    /// The limit reached by now, if any (cancellation first).
    func expired(at now: UInt64 = Clock.now()) -> HTTPFailure? {
        if cancelled.withLock({ $0 }) { return .cancelled }
        if now >= deadline { return .deadline(limits.totalTimeout) }
        if !headReceived && now >= connectBy { return .noResponse(limits.connectTimeout, connected: connected) }
        if now >= lastData &+ idleNanoseconds { return .idle(limits.idleTimeout) }
        return nil
    }

    /// Waits until `fd` is ready for `events` or a limit is reached (then says which).
    func wait(_ fd: Int32, _ events: Int16) -> HTTPFailure? {
        while true {
            let now = Self.now()
            if let failure = expired(at: now) { return failure }
            let idleBy = lastData &+ idleNanoseconds
            let next = min(deadline, idleBy, headReceived ? UInt64.max : connectBy)
            // At most 100 ms at a time, so that a cancellation is seen promptly.
            let milliseconds = Int32(min(100, (next - now) / 1_000_000 + 1))
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready > 0 { return nil }
            if ready < 0 && errno != EINTR { return .network("poll failed (errno \(errno))", retryable: true) }
        }
    }
}

// MARK: - A connection

final class Connection {
    /// How one exchange on a connection ended.
    enum Outcome {
        /// The connection was closed before any byte of the response (a kept connection the server dropped).
        case stale
        case done(HTTPFailure?, reusable: Bool)
    }

    private var fd: Int32
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: SocketTransport.readSize, alignment: 16)
    /// Unread bytes are `buffer[low..<high]`.
    private var low = 0
    private var high = 0

    private init(fd: Int32) { self.fd = fd }

    deinit {
        close()
        buffer.deallocate()
    }

    func close() {
        if fd >= 0 { _ = SocketTransport.closeDescriptor(fd) }
        fd = -1
    }

    /// An idle connection is usable when nothing is waiting to be read (no close, no stray bytes).
    func isAlive() -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return fd >= 0 && poll(&descriptor, 1, 0) == 0
    }

    static func open(_ target: Target, clock: Clock) -> Result<Connection, HTTPFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SocketTransport.streamType
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(target.host, String(target.port), &hints, &list) == 0, let first = list else {
            return .failure(.network("cannot resolve host", retryable: true))
        }
        defer { freeaddrinfo(first) }
        var lastError = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry?.pointee {
            entry = address.ai_next
            let fd = socket(address.ai_family, SocketTransport.streamType | SocketTransport.closeOnExec, 0)
            guard fd >= 0 else {
                lastError = errno
                continue
            }
            SocketTransport.configure(fd)
            if connect(fd, address.ai_addr, address.ai_addrlen) == 0 { return .success(Connection(fd: fd)) }
            guard errno == EINPROGRESS else {
                lastError = errno
                _ = SocketTransport.closeDescriptor(fd)
                continue
            }
            if let failure = clock.wait(fd, Int16(POLLOUT)) {
                _ = SocketTransport.closeDescriptor(fd)
                return .failure(failure)
            }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            if error == 0 { return .success(Connection(fd: fd)) }
            lastError = error
            _ = SocketTransport.closeDescriptor(fd)
        }
        return .failure(SocketTransport.failure(errno: lastError))
    }

    /// Sends `request` and feeds the response to `receiver`.
    func exchange(_ request: HTTPRequest, target: Target, clock: Clock, receiver: HTTPResponseReceiver) -> Outcome {
        if let failure = send(Self.head(of: request, target: target) + (request.body.bytes ?? []), clock: clock) {
            if case .network = failure { return .stale }
            return .done(failure, reusable: false)
        }
        // The response head; 1xx interim responses (100 Continue) are skipped.
        var head: ParsedHead
        var received = false
        repeat {
            switch readHead(clock: clock, anyReceived: &received) {
            case .failure(.network("connection closed", _)) where !received: return .stale
            case .failure(let failure): return .done(failure, reusable: false)
            case .success(let parsed): head = parsed
            }
        } while (100..<200).contains(head.status) && head.status != 101
        clock.headReceived = true
        guard head.status != 101 else {
            return .done(
                .network("bad server response (an unrequested protocol switch)", retryable: false), reusable: false)
        }
        let framing: Framing
        switch Framing.of(head, method: request.method) {
        case .success(let found): framing = found
        case .failure(let failure): return .done(failure, reusable: false)
        }
        if let failure = receiver.receive(head: head.response(url: request.url)) {
            // Not drained: a redirect's or refused body is never read, the connection goes.
            return .done(failure, reusable: framing.isEmpty && head.keepAlive && low == high)
        }
        let failure = readBody(framing, clock: clock, receiver: receiver)
        return .done(failure, reusable: failure == nil && framing.keepsConnection && head.keepAlive && low == high)
    }

    static func head(of request: HTTPRequest, target: Target) -> [UInt8] {
        var text = "\(request.method) \(target.path) HTTP/1.1\r\nHost: \(target.authority)\r\n"
        var headers = request.headers
        for name in ["Host", "Content-Length", "Transfer-Encoding", "Connection"] { headers[name] = nil }
        if !headers.contains("Accept") { headers["Accept"] = "*/*" }
        if !headers.contains("User-Agent") { headers["User-Agent"] = "memhunt" }
        if let basic = target.basic, !headers.contains("Authorization") { headers["Authorization"] = "Basic \(basic)" }
        if case .bytes(_, let type) = request.body, !headers.contains("Content-Type") {
            headers["Content-Type"] = type
        }
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let body = request.body.bytes {
            text += "Content-Length: \(body.count)\r\n"
        } else if ["POST", "PUT", "PATCH"].contains(request.method) {
            text += "Content-Length: 0\r\n"
        }
        return Array((text + "\r\n").utf8)
    }

    private func send(_ bytes: [UInt8], clock: Clock) -> HTTPFailure? {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                Self.sendBytes(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if sent > 0 {
                offset += sent
                clock.progressed()
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                if let failure = clock.wait(fd, Int16(POLLOUT)) { return failure }
            } else {
                return SocketTransport.failure(errno: sent < 0 ? errno : ECONNRESET)
            }
        }
        return nil
    }

    /// send(2) that never raises SIGPIPE (a closed peer is an error to report, not a signal).
    private static func sendBytes(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
            Darwin.send(fd, pointer, count, 0)
        #elseif canImport(Glibc)
            Glibc.send(fd, pointer, count, Int32(MSG_NOSIGNAL))
        #else
            Musl.send(fd, pointer, count, Int32(MSG_NOSIGNAL))
        #endif
    }

    /// Reads more bytes into the buffer; false at end of stream. Compacts first when the buffer is full.
    private func fill(clock: Clock) -> Result<Bool, HTTPFailure> {
        if low == high {
            low = 0
            high = 0
        } else if high == buffer.count {
            guard low > 0 else { return .success(true) }
            buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + low, byteCount: high - low)
            high -= low
            low = 0
        }
        while true {
            let count = read(fd, buffer.baseAddress! + high, buffer.count - high)
            if count > 0 {
                high += count
                clock.progressed()
                return .success(true)
            }
            if count == 0 { return .success(false) }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                return .failure(SocketTransport.failure(errno: errno))
            }
            if let failure = clock.wait(fd, Int16(POLLIN)) { return .failure(failure) }
        }
    }

    private func readHead(clock: Clock, anyReceived: inout Bool) -> Result<ParsedHead, HTTPFailure> {
        // Bytes after `low` already searched; relative, as `fill` may move the unread bytes to the front.
        var searched = 0
        while true {
            // The blank line that ends the head: CRLF CRLF (a bare LF LF is accepted too, as browsers do).
            var index = low + max(0, searched - 3)
            while index < high {
                if buffer[index] == 0x0A {
                    let next = index + 1 < high ? buffer[index + 1] : 0
                    let after = index + 2 < high ? buffer[index + 2] : 0
                    if next == 0x0A || (next == 0x0D && after == 0x0A) {
                        let end = next == 0x0A ? index + 2 : index + 3
                        let bytes = UnsafeRawBufferPointer(rebasing: buffer[low..<end])
                        low = end
                        return ParsedHead.parse(bytes).map(Result.success)
                            ?? .failure(
                                .network("bad server response (an unreadable status line or header)", retryable: false))
                    }
                }
                index += 1
            }
            searched = high - low
            if high - low >= SocketTransport.maxHeadBytes { return .failure(SocketTransport.headTooLarge) }
            switch fill(clock: clock) {
            case .failure(let failure): return .failure(failure)
            case .success(false):
                return .failure(
                    .network(anyReceived || low < high ? "connection lost" : "connection closed", retryable: true))
            case .success(true): anyReceived = true
            }
        }
    }

    /// Hands up to `limit` buffered (or newly read) bytes to the receiver; nil at end of stream.
    private func deliver(upTo limit: Int, clock: Clock, receiver: HTTPResponseReceiver) -> Result<Int?, HTTPFailure> {
        if low == high {
            switch fill(clock: clock) {
            case .failure(let failure): return .failure(failure)
            case .success(false): return .success(nil)
            case .success(true): break
            }
        }
        let count = min(limit, high - low)
        let chunk = Data(UnsafeRawBufferPointer(rebasing: buffer[low..<low + count]))
        low += count
        if let failure = receiver.receive(body: chunk) { return .failure(failure) }
        return .success(count)
    }

    private func readBody(_ framing: Framing, clock: Clock, receiver: HTTPResponseReceiver) -> HTTPFailure? {
        switch framing {
        case .length(var remaining):
            while remaining > 0 {
                switch deliver(upTo: remaining, clock: clock, receiver: receiver) {
                case .failure(let failure): return failure
                case .success(nil): return .network("connection lost", retryable: true)
                case .success(let count?): remaining -= count
                }
            }
            return nil
        case .untilClose:
            while true {
                switch deliver(upTo: .max, clock: clock, receiver: receiver) {
                case .failure(let failure): return failure
                case .success(nil): return nil
                case .success: continue
                }
            }
        case .chunked:
            while true {
                let size: Int
                switch readLine(clock: clock) {
                case .failure(let failure): return failure
                case .success(let line):
                    let digits = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != 0x20 && $0 != 0x09 }
                    // Hex digits only: Int(_:radix:) would also take "-1" or "+1".
                    guard !digits.isEmpty, digits.count <= 15,
                        digits.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }),
                        let parsed = Int(String(decoding: digits, as: UTF8.self), radix: 16)
                    else {
                        return .network("bad server response (a chunk size that is not a number)", retryable: false)
                    }
                    size = parsed
                }
                if size == 0 {
                    // Trailer fields, up to the blank line.
                    while true {
                        switch readLine(clock: clock) {
                        case .failure(let failure): return failure
                        case .success(let line) where line.isEmpty: return nil
                        case .success: continue
                        }
                    }
                }
                var remaining = size
                while remaining > 0 {
                    switch deliver(upTo: remaining, clock: clock, receiver: receiver) {
                    case .failure(let failure): return failure
                    case .success(nil): return .network("connection lost", retryable: true)
                    case .success(let count?): remaining -= count
                    }
                }
                switch readLine(clock: clock) {
                case .failure(let failure): return failure
                case .success(let line) where line.isEmpty: continue
                case .success: return .network("bad server response (a chunk longer than its size)", retryable: false)
                }
            }
        }
    }

    /// One line without its CRLF (or LF), at most 4 KB.
    private func readLine(clock: Clock) -> Result<[UInt8], HTTPFailure> {
        while true {
            if let newline = (low..<high).first(where: { buffer[$0] == 0x0A }) {
                var end = newline
                if end > low && buffer[end - 1] == 0x0D { end -= 1 }
                let line = Array(buffer[low..<end])
                low = newline + 1
                return .success(line)
            }
            if high - low > 4096 {
                return .failure(.network("bad server response (a chunk line longer than 4 KB)", retryable: false))
            }
            switch fill(clock: clock) {
            case .failure(let failure): return .failure(failure)
            case .success(false): return .failure(.network("connection lost", retryable: true))
            case .success(true): continue
            }
        }
    }
}

// MARK: - The response head

struct ParsedHead {
    var version: String
    var status: Int
    var headers: HTTPHeaders

    /// Whether the server lets the connection be used again.
    var keepAlive: Bool {
        let tokens = (headers["Connection"] ?? "").lowercased().split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if tokens.contains("close") { return false }
        return version == "HTTP/1.1" || tokens.contains("keep-alive")
    }

    func response(url: URL) -> HTTPResponseHead {
        var headers = headers
        // A chunked body's length is its chunks': a Content-Length beside it is ignored (RFC 9112, 6.3).
        if headers.contains("Transfer-Encoding") { headers["Content-Length"] = nil }
        return HTTPResponseHead(status: status, headers: headers, url: url)
    }

    static func parse(_ bytes: UnsafeRawBufferPointer) -> ParsedHead? {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line[...], as: UTF8.self)
        }
        while lines.last == "" { lines.removeLast() }
        guard let statusLine = lines.first else { return nil }
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]),
            (100...999).contains(status)
        else { return nil }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon]
            guard !name.isEmpty, !name.contains(where: { $0 == " " || $0 == "\t" }) else { return nil }
            headers.add(String(name), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return ParsedHead(version: String(parts[0]), status: status, headers: headers)
    }
}

/// How a response body ends (RFC 9112, 6.3).
enum Framing {
    case length(Int)
    case chunked
    case untilClose

    var isEmpty: Bool {
        if case .length(0) = self { return true }
        return false
    }

    var keepsConnection: Bool {
        if case .untilClose = self { return false }
        return true
    }

    static func of(_ head: ParsedHead, method: String) -> Result<Framing, HTTPFailure> {
        if method == "HEAD" || head.status == 204 || head.status == 304 { return .success(.length(0)) }
        if let coding = head.headers["Transfer-Encoding"] {
            let codings = coding.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard codings == ["chunked"] else {
                // Nothing is decoded here (see the type's comment): a compressed transfer coding is refused.
                return .failure(.network("refused a body with Transfer-Encoding '\(coding)'", retryable: false))
            }
            return .success(.chunked)
        }
        // Every Content-Length line, each a list: values that differ make the message invalid (RFC 9112, 6.3),
        // where the first line used to be taken and the rest of the body read as the next response.
        let fields = head.headers.filter { $0.name.caseInsensitiveCompare("Content-Length") == .orderedSame }
        if !fields.isEmpty {
            var values: [String] = []
            for field in fields {
                for value in field.value.split(separator: ",", omittingEmptySubsequences: false) {
                    let value = value.trimmingCharacters(in: .whitespaces)
                    if !values.contains(value) { values.append(value) }
                }
            }
            guard let only = values.first, !only.isEmpty, only.count <= 18,
                only.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let length = Int(only)
            else { return .failure(.network("bad server response (an unreadable Content-Length)", retryable: false)) }
            guard values.count == 1 else {
                let shown = values.prefix(3).map { String($0.prefix(20)) }
                let listed =
                    shown.count == 2
                    ? "\(shown[0]) and \(shown[1])" : shown.joined(separator: ", ") + (values.count > 3 ? ", …" : "")
                return .failure(
                    .network("bad server response (conflicting Content-Length values: \(listed))", retryable: false))
            }
            return .success(.length(length))
        }
        return .success(.untilClose)
    }
}

// MARK: - Platform details

extension SocketTransport {
    #if canImport(Darwin)
        static let streamType = SOCK_STREAM
        static let closeOnExec: Int32 = 0
    #else
        static let streamType = Int32(SOCK_STREAM.rawValue)
        static let closeOnExec = Int32(SOCK_CLOEXEC.rawValue)
    #endif

    /// Non-blocking, close-on-exec, no SIGPIPE, no Nagle delay.
    static func configure(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var on: Int32 = 1
        #if canImport(Darwin)
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    static func closeDescriptor(_ fd: Int32) -> Int32 {
        #if canImport(Darwin)
            Darwin.close(fd)
        #elseif canImport(Glibc)
            Glibc.close(fd)
        #else
            Musl.close(fd)
        #endif
    }

    /// A socket error in words, as the URLSession transport words them.
    static func failure(errno code: Int32) -> HTTPFailure {
        switch code {
        case ECONNREFUSED: .network("connection refused", retryable: true)
        case ECONNRESET, EPIPE, ENOTCONN, ECONNABORTED: .network("connection lost", retryable: true)
        case ETIMEDOUT: .network("connection timed out", retryable: true)
        case EHOSTUNREACH, ENETUNREACH, ENETDOWN: .network("host unreachable", retryable: true)
        case EMFILE, ENFILE: .network("cannot open a socket: too many open files", retryable: true)
        default: .network("network error (errno \(code))", retryable: true)
        }
    }
}

// MARK: - Choosing the transport

/// The transport of the real runs: `SocketTransport` for `http://` URLs that no proxy setting covers,
/// `CurlTransport` (Linux) or `URLSessionTransport` for the rest (TLS, proxies), started on first use, so that
/// a run that never fetches `https://` never loads libcurl.
public final class RoutingTransport: HTTPTransport, @unchecked Sendable {
    private let plain: SocketTransport
    /// HTTPS and proxied requests: libcurl, loaded by the first exchange that needs it, on Linux;
    /// URLSession, created by the first exchange that needs it, elsewhere.
    #if os(Linux)
        private let session: CurlTransport
    #else
        private let session: URLSessionTransport
    #endif
    private let environment: [String: String]

    public init(maxConnectionsPerHost: Int = 4, environment: [String: String] = ProcessInfo.processInfo.environment) {
        plain = SocketTransport(maxIdlePerOrigin: maxConnectionsPerHost)
        #if os(Linux)
            session = CurlTransport(maxIdle: maxConnectionsPerHost, environment: environment)
        #else
            session = URLSessionTransport(maxConnectionsPerHost: maxConnectionsPerHost)
        #endif
        self.environment = environment
    }

    public func exchange(_ request: HTTPRequest, limits: HTTPExchangeLimits, receiver: HTTPResponseReceiver) async
        -> HTTPFailure?
    {
        if request.url.scheme?.lowercased() == "http", Self.proxy(for: request.url, environment: environment) == nil {
            return await plain.exchange(request, limits: limits, receiver: receiver)
        }
        return await session.exchange(request, limits: limits, receiver: receiver)
    }

    public func close() {
        plain.close()
        session.close()
    }

    /// The proxy a request to `url` goes through, read from `environment` as curl reads it: `http_proxy`
    /// (lowercase only, against httpoxy) for `http://`, `https_proxy` or `HTTPS_PROXY` for `https://`, then
    /// `all_proxy` or `ALL_PROXY`; none when `no_proxy`/`NO_PROXY` names the host (or a domain of it, or `*`).
    static func proxy(for url: URL, environment: [String: String]) -> String? {
        let names =
            switch url.scheme?.lowercased() {
            case "http": ["http_proxy"]
            case "https": ["https_proxy", "HTTPS_PROXY"]
            default: [String]()
            }
        let proxy = (names + ["all_proxy", "ALL_PROXY"]).compactMap { environment[$0] }.first { !$0.isEmpty }
        guard let proxy, var host = url.host?.lowercased() else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let exceptions = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").lowercased()
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        for exception in exceptions {
            if exception == "*" { return nil }
            var name = exception.hasPrefix(".") ? String(exception.dropFirst()) : exception
            if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
            if host == name || host.hasSuffix("." + name) { return nil }
        }
        return proxy
    }
}
