import Foundation

/// Header fields in order, matched without regard to case; values never appear in any output.
public struct HTTPHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence {
    public private(set) var fields: [(name: String, value: String)] = []

    public init(_ fields: [(String, String)] = []) { for (name, value) in fields { add(name, value) } }
    public init(dictionaryLiteral elements: (String, String)...) { self.init(elements) }

    /// The first value of `name`.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
        set {
            fields.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            if let newValue { fields.append((name, newValue)) }
        }
    }

    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    public static func == (a: Self, b: Self) -> Bool {
        a.fields.map { "\($0.name.lowercased()):\($0.value)" } == b.fields.map { "\($0.name.lowercased()):\($0.value)" }
    }
}

/// Scheme, host and port: the unit that credentials are bound to.
public struct HTTPOrigin: Sendable, Hashable, CustomStringConvertible {
    public var scheme: String
    public var host: String
    public var port: Int

    /// The origin of an http(s) URL with a host; nil for anything else.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    public var description: String { "\(scheme)://\(host):\(port)" }
}

/// What a request carries.
public enum HTTPBody: Sendable, Equatable {
    case empty
    /// Bytes with their media type (`application/octet-stream` for an upload of a file's bytes).
    case bytes([UInt8], contentType: String)

    /// A JSON body from an `Encodable` value.
    public static func json<Value: Encodable>(_ value: Value) throws -> HTTPBody {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return .bytes(Array(try encoder.encode(value)), contentType: "application/json")
    }

    /// An octet-stream upload.
    public static func octetStream(_ bytes: [UInt8]) -> HTTPBody {
        .bytes(bytes, contentType: "application/octet-stream")
    }

    /// A `multipart/form-data` body (RFC 7578) with a random boundary.
    public static func multipart(_ parts: [MultipartPart], boundary: String = "memhunt-" + UUID().uuidString)
        -> HTTPBody
    {
        var out: [UInt8] = []
        func line(_ text: String) { out += Array((text + "\r\n").utf8) }
        for part in parts {
            line("--\(boundary)")
            var disposition = "Content-Disposition: form-data; name=\"\(MultipartPart.quoted(part.name))\""
            if let filename = part.filename { disposition += "; filename=\"\(MultipartPart.quoted(filename))\"" }
            line(disposition)
            if let type = part.contentType { line("Content-Type: \(type)") }
            line("")
            out += part.data
            line("")
        }
        line("--\(boundary)--")
        return .bytes(out, contentType: "multipart/form-data; boundary=\(boundary)")
    }

    var bytes: [UInt8]? {
        if case .bytes(let bytes, _) = self { return bytes }
        return nil
    }
}

/// One part of a `multipart/form-data` body.
public struct MultipartPart: Sendable, Equatable {
    public var name: String
    public var filename: String?
    public var contentType: String?
    public var data: [UInt8]

    public init(name: String, filename: String? = nil, contentType: String? = nil, data: [UInt8]) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.data = data
    }

    /// Quotes and line breaks cannot end the quoted string or the header line.
    static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}

/// A request. Credentials from the client's configuration are added only while the URL (after any redirect)
/// is on `credentialOrigin`; `headers` given here that carry credentials (`Authorization`, `Cookie`) are
/// dropped likewise.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: HTTPHeaders
    public var body: HTTPBody
    /// The one origin the credentials may go to, for this request and its redirects; nil sends none.
    public var credentialOrigin: HTTPOrigin?

    /// A request whose credentials belong to its own URL's origin.
    public init(method: String = "GET", url: URL, headers: HTTPHeaders = [:], body: HTTPBody = .empty) {
        self.init(method: method, url: url, headers: headers, body: body, credentialOrigin: HTTPOrigin(url))
    }

    /// A request whose credentials belong to `credentialOrigin` (e.g. the origin the user named, for a URL a
    /// downloaded manifest lists), or to nobody.
    public init(
        method: String = "GET", url: URL, headers: HTTPHeaders = [:], body: HTTPBody = .empty,
        credentialOrigin: HTTPOrigin?
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.credentialOrigin = credentialOrigin
    }
}

/// A response with its whole body (for `send`; `download` streams the body to a file instead).
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The URL that answered, after redirects.
    public var url: URL?

    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = [], url: URL? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }
}

/// A request that failed for good. `description` names the redacted URL, what failed and what was tried;
/// nothing in it comes from a header value, a token or a query value.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    public var url: String
    public var failure: HTTPFailure
    /// Requests made, retries included.
    public var attempts: Int
    /// The status of the last response, if one arrived.
    public var status: Int?
    /// The redacted URL of the last response or request.
    public var finalURL: String
    /// The wait the server asked for (`Retry-After`, in seconds) when it was longer than the client waits, so
    /// no attempt followed: an attempt before then would only have been refused again.
    public var retryAfter: TimeInterval?
    /// The longest wait the client makes between attempts, said beside `retryAfter`.
    public var maxDelay: TimeInterval?

    public init(
        url: String, failure: HTTPFailure, attempts: Int, status: Int? = nil, finalURL: String? = nil,
        retryAfter: TimeInterval? = nil, maxDelay: TimeInterval? = nil
    ) {
        self.url = url
        self.failure = failure
        self.attempts = attempts
        self.status = status
        self.finalURL = finalURL ?? url
        self.retryAfter = retryAfter
        self.maxDelay = maxDelay
    }

    public var description: String {
        let retries = attempts - 1
        let tried = retries > 0 ? " after \(attempts) attempts (\(retries) \(retries == 1 ? "retry" : "retries"))" : ""
        var waited = ""
        if let retryAfter, let maxDelay {
            waited =
                "; the server asked for a wait of \(Int(retryAfter.rounded(.up))) s (Retry-After), longer than the "
                + "\(Int(maxDelay)) s memhunt waits, so it did not try again"
        }
        return "\(url): \(failure.message)\(tried)\(waited)"
    }
}

/// Why one attempt failed; `retryable` is the one retry policy.
public enum HTTPFailure: Error, Sendable, Equatable {
    case http(Int)
    case network(String, retryable: Bool)
    /// No response head within the connect timeout (which bounds connecting and the wait for the head);
    /// `connected` says which of the two it was, when the transport knows (nil: it does not).
    case noResponse(TimeInterval, connected: Bool? = nil)
    case idle(TimeInterval)
    case deadline(TimeInterval)
    case cutShort(received: Int, expected: Int)
    case tooLarge(Int)
    case tooManyRedirects(Int)
    case badRedirect(String)
    case encoding(String)
    case mismatch(expected: String, got: String)
    case file(String)
    case invalidRequest(String)
    case cancelled

    /// Connection errors, timeouts, cut-short bodies, 408, 429 and 5xx; never other 4xx, never a limit.
    public var retryable: Bool {
        switch self {
        case .http(let status): status == 408 || status == 429 || (500...599).contains(status)
        case .network(_, let retryable): retryable
        case .noResponse, .idle, .cutShort: true
        case .deadline, .tooLarge, .tooManyRedirects, .badRedirect, .encoding, .mismatch, .file, .invalidRequest,
            .cancelled:
            false
        }
    }

    public var message: String {
        switch self {
        case .http(let status):
            "HTTP \(status) \(HTTPStatus.reason(status))"
        case .network(let what, _): what
        case .noResponse(let seconds, let connected):
            switch connected {
            case false?: "could not connect within \(Self.format(seconds)) (connect timeout)"
            case true?:
                "connected, but no response within \(Self.format(seconds))"
                    + " (the limit on connecting and waiting for the response head)"
            case nil:
                "no response within \(Self.format(seconds)) (the limit on connecting and waiting for the response head)"
            }
        case .idle(let seconds): "timed out after \(Self.format(seconds)) without data"
        case .deadline(let seconds): "not complete within \(Self.format(seconds)) (total time limit)"
        case .cutShort(let received, let expected): "body cut short: \(received) of \(expected) bytes"
        case .tooLarge(let limit):
            limit % (1 << 20) == 0 ? "larger than the \(limit >> 20) MB limit" : "larger than the \(limit) byte limit"
        case .tooManyRedirects(let limit): "too many redirects (\(limit))"
        case .badRedirect(let why): "redirect refused: \(why)"
        case .encoding(let coding):
            "refused a body with Content-Encoding '\(coding)' (memhunt asks for identity)"
        case .mismatch(let expected, let got): "sha256 mismatch: expected \(expected), got \(got)"
        case .file(let what): "cannot write the cache file: \(what)"
        case .invalidRequest(let what): what
        case .cancelled: "cancelled"
        }
    }

    static func format(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() && seconds < 1e15 ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

/// A value guarded by a lock (`Mutex` needs macOS 15; the package supports macOS 13).
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// The reason phrases of RFC 9110 (and 429), in title case as memhunt prints them; the class for the rest.
public enum HTTPStatus {
    public static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 203: "Non-Authoritative Information"
        case 204: "No Content"
        case 205: "Reset Content"
        case 206: "Partial Content"
        case 300: "Multiple Choices"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 402: "Payment Required"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 407: "Proxy Authentication Required"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 421: "Misdirected Request"
        case 422: "Unprocessable Entity"
        case 426: "Upgrade Required"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        case 100..<200: "Informational"
        case 200..<300: "Success"
        case 300..<400: "Redirection"
        case 400..<500: "Client Error"
        case 500..<600: "Server Error"
        default: "Unknown Status"
        }
    }
}
