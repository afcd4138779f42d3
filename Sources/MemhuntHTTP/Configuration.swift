import Foundation

/// How downloads are made; every field has a default suited to a terminal run.
public struct HTTPConfiguration: Sendable {
    /// Extra request headers (from repeated `--header 'Name: value'`); values never appear in any output.
    public var headers: [String: String] = [:]
    /// Sent as `Authorization: Bearer <token>` (the caller reads `MEMHUNT_HTTP_TOKEN`); never appears in any output.
    public var bearerToken: String?
    /// Largest body accepted, in bytes; a larger one is aborted as soon as that is known.
    public var maxBytes = 256 << 20
    /// Seconds allowed for connecting and receiving the response headers.
    public var connectTimeout: TimeInterval = 10
    /// Seconds allowed without receiving any data once the response has started.
    public var idleTimeout: TimeInterval = 30
    /// Seconds a request may take in all, retries and redirects included (a server sending a byte every 29 s
    /// would otherwise hold the run forever under the idle timeout).
    public var totalTimeout: TimeInterval = 300
    /// Retries after connection errors, timeouts, cut-short bodies, 408, 429 and 5xx (never other 4xx).
    public var maxRetries = 3
    /// First backoff delay in seconds; doubled per retry, each delay randomly shortened by up to half.
    public var baseDelay: TimeInterval = 0.5
    /// Cap, in seconds, on any single wait between attempts, including one asked for by `Retry-After`.
    public var maxDelay: TimeInterval = 30
    /// Redirects followed per attempt; one more fails with "too many redirects".
    public var maxRedirects = 5
    /// Downloads in flight at once.
    public var maxConcurrent = 4

    /// The defaults.
    public init() {}

    /// Splits a `Name: value` header argument; the error quotes nothing of it, as it may hold a secret.
    public static func header(_ argument: String) throws -> (name: String, value: String) {
        let parts = argument.split(separator: ":", maxSplits: 1)
        let name = parts.first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard parts.count == 2, !name.isEmpty, !name.contains(where: \.isWhitespace) else {
            throw HeaderError(description: "a header argument is not of the form 'Name: value'")
        }
        guard !argument.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
            throw HeaderError(description: "a header argument contains a line break")
        }
        return (name, parts[1].trimmingCharacters(in: .whitespaces))
    }
}

/// A `--header` argument that is not `Name: value`.
public struct HeaderError: Error, Equatable, CustomStringConvertible {
    /// The message.
    public let description: String
}

/// One URL to fetch.
public struct DownloadRequest: Sendable, Equatable {
    /// An http(s) URL.
    public var url: URL
    /// The lowercase hex SHA-256 the body must have, if known.
    public var expectedSHA256: String?
    /// The one origin the configured headers and bearer token may be sent to, through every redirect; nil
    /// sends none. For an operand it is its own origin; for the entries of a downloaded manifest it stays the
    /// operand's (not the host a redirect reached), so a manifest cannot collect the token elsewhere.
    public var credentialOrigin: HTTPOrigin?

    /// A request whose credentials belong to its own URL's origin.
    public init(url: URL, expectedSHA256: String? = nil) {
        self.init(url: url, expectedSHA256: expectedSHA256, credentialOrigin: HTTPOrigin(url))
    }

    /// A request whose credentials belong to `credentialOrigin`, or to nobody.
    public init(url: URL, expectedSHA256: String? = nil, credentialOrigin: HTTPOrigin?) {
        self.url = url
        self.expectedSHA256 = expectedSHA256
        self.credentialOrigin = credentialOrigin
    }
}

/// What became of one request; every URL in it is redacted (see `Redact.url`).
public struct DownloadResult: Sendable, Equatable {
    /// The URL asked for.
    public var requestedURL: String
    /// The URL of the last response or request, after redirects.
    public var finalURL: String
    /// The HTTP status of the last response, if one arrived.
    public var status: Int?
    /// Body size in bytes, when the download succeeded.
    public var size: Int?
    /// Lowercase hex SHA-256 of the body, when the download succeeded.
    public var sha256: String?
    /// The cached body, when the download succeeded.
    public var localPath: String?
    /// One line naming the URL, what failed and what was tried; `nil` on success.
    public var error: String?
    /// Requests made, retries included.
    public var attempts: Int

    public init(
        requestedURL: String, finalURL: String, status: Int? = nil, size: Int? = nil, sha256: String? = nil,
        localPath: String? = nil, error: String? = nil, attempts: Int
    ) {
        self.requestedURL = requestedURL
        self.finalURL = finalURL
        self.status = status
        self.size = size
        self.sha256 = sha256
        self.localPath = localPath
        self.error = error
        self.attempts = attempts
    }
}

/// Progress of the downloads, for the caller to draw; `index` is the position in the request list.
public enum DownloadEvent: Sendable, Equatable {
    /// An attempt began (attempt 1, then once per retry).
    case started(index: Int, url: String, attempt: Int)
    /// Body bytes received so far in this attempt, of `total` when the server said.
    case progress(index: Int, bytes: Int, total: Int?)
    /// The download succeeded.
    case finished(index: Int, result: DownloadResult)
    /// The download failed for good; `result.error` says why.
    case failed(index: Int, result: DownloadResult)
}
