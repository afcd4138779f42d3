import Foundation
import MemhuntHTTP

/// The HTTP side of one attach: the client's one policy for reads, writes that are never repeated blindly
/// (after a lost answer the tracker looks for its marker first), `--dry-run`, and secrets kept out of
/// every line it prints or throws.
public final class TrackerSession: Sendable {
    /// Reads retry on the client's policy (connection errors, 408, 429, 5xx with `Retry-After`).
    let reader: HTTPClient
    /// Writes go once per call; `write` decides about another attempt.
    let writer: HTTPClient
    public let dryRun: Bool
    let tracker: String
    let target: String
    let secrets: [String]
    let credentialNames: [String]
    let print: @Sendable (String) -> Void
    let maxAttempts: Int
    let maxDelay: TimeInterval

    /// The largest answer memhunt reads from a tracker.
    public static let maxAnswerBytes = 32 << 20

    /// A session for `tracker`; `print` receives the `--dry-run` listing.
    public init(
        tracker: any Tracker, configuration: HTTPConfiguration = HTTPConfiguration(), dryRun: Bool,
        transport: HTTPTransport? = nil, print: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        var configuration = configuration
        configuration.headers = tracker.credentials
        // A tracker answers with a page of comments, an issue or an upload's token: a few MB at most. Its answer
        // is held whole, so it is bounded far below the downloads' limit.
        configuration.maxBytes = min(configuration.maxBytes, Self.maxAnswerBytes)
        reader = HTTPClient(configuration: configuration, transport: transport)
        var once = configuration
        once.maxRetries = 0
        writer = HTTPClient(configuration: once, transport: transport)
        self.dryRun = dryRun
        self.tracker = type(of: tracker).scheme
        self.target = tracker.target
        secrets = tracker.credentials.values.filter { $0.count >= 4 }
        credentialNames = Array(tracker.credentials.keys)
        self.print = print
        maxAttempts = configuration.maxRetries + 1
        maxDelay = configuration.maxDelay
    }

    public func close() {
        reader.close()
        writer.close()
    }

    /// A failure of this tracker and target, with every secret masked.
    public func failure(_ message: String) -> TrackerError {
        TrackerError(tracker: tracker, target: mask(target), message: mask(message))
    }

    /// The tracker's answer as an error: the status and the tracker's own message from the body.
    public func failure(_ response: HTTPResponse, _ what: String) -> TrackerError {
        let reason = HTTPStatus.reason(response.status)
        let said = Self.message(in: response.body)
        var waited = ""
        if HTTPFailure.http(response.status).retryable,
            let after = response.headers["Retry-After"].flatMap({ HTTPClient.retryAfter($0) }), after > maxDelay
        {
            waited =
                " (the tracker asked for a wait of \(Int(after.rounded(.up))) s, longer than the \(Int(maxDelay)) s "
                + "memhunt waits)"
        }
        return failure("\(what): HTTP \(response.status) \(reason)" + (said.isEmpty ? "" : ": \(said)") + waited)
    }

    /// The message trackers put in their error bodies: GitHub's `message` and `errors[].message`, Redmine's
    /// `errors`, Jira's `errorMessages` and `errors`, GitLab's `message` (string or object).
    static func message(in body: [UInt8]) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) else {
            let text = String(decoding: body.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return text.hasPrefix("<") ? "" : text.replacingOccurrences(of: "\n", with: " ")
        }
        func flatten(_ value: Any?) -> [String] {
            switch value {
            case let text as String: return text.isEmpty ? [] : [text]
            case let list as [Any]: return list.flatMap { flatten($0) }
            case let map as [String: Any]:
                if let message = map["message"] { return flatten(message) }
                return map.keys.sorted().flatMap { key in flatten(map[key]).map { "\(key): \($0)" } }
            default: return []
            }
        }
        guard let map = object as? [String: Any] else { return flatten(object).joined(separator: "; ") }
        var parts = flatten(map["message"]) + flatten(map["errorMessages"]) + flatten(map["error_description"])
        parts += flatten(map["errors"])
        if parts.isEmpty { parts = flatten(map["error"]) }
        return parts.joined(separator: "; ")
    }

    func mask(_ text: String) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "***") }
    }

    /// A read (GET): retried on the client's policy. In a dry run it is listed and `dryRunResponse` stands in.
    public func read(_ request: HTTPRequest, dryRunResponse: HTTPResponse) async throws(TrackerError) -> HTTPResponse {
        if dryRun {
            show(request)
            return dryRunResponse
        }
        do {
            return try await reader.send(request)
        } catch {
            throw failure("\(request.method) \(error)")
        }
    }

    /// A write that must happen once. After a lost answer (no response, cut short, reset) or a 5xx, `posted`
    /// looks for the post (the marker) and a found one ends it; 408, 429 and `Retry-After` are waited on as the
    /// client's policy does; other 4xx are returned at once for the tracker to report.
    public func write(
        _ request: HTTPRequest, dryRunResponse: HTTPResponse,
        posted: () async throws(TrackerError) -> Bool = { false }
    ) async throws(TrackerError) -> HTTPResponse? {
        if dryRun {
            show(request)
            return dryRunResponse
        }
        var attempt = 0
        while true {
            attempt += 1
            var delay = min(maxDelay, 0.5 * pow(2, Double(attempt - 1)))
            let result: Result<HTTPResponse, HTTPError>
            do {
                result = .success(try await writer.send(request))
            } catch {
                result = .failure(error)
            }
            switch result {
            case .success(let response):
                let status = response.status
                guard HTTPFailure.http(status).retryable else { return response }
                if let after = response.headers["Retry-After"].flatMap({ HTTPClient.retryAfter($0) }) {
                    // Asked to wait longer than the cap: an earlier attempt would be refused again.
                    if after > maxDelay { return response }
                    delay = after
                }
                if attempt >= maxAttempts { return response }
                if status >= 500, try await arrived(request, "HTTP \(status) \(HTTPStatus.reason(status))", posted) {
                    return nil
                }
            case .failure(let error):
                if case .invalidRequest = error.failure { throw failure("\(request.method) \(error)") }
                // The request may have arrived: look before sending it again.
                if try await arrived(request, "\(error)", posted) { return nil }
                if attempt >= maxAttempts { throw failure("\(request.method) \(error)") }
            }
            try? await Task.sleep(for: .seconds(delay))
        }
    }

    /// Whether a write whose answer was lost or a 5xx arrived after all. A look that fails says both what
    /// happened to the write and why the look failed: the write may have arrived, so it is not sent again.
    private func arrived(
        _ request: HTTPRequest, _ what: String, _ posted: () async throws(TrackerError) -> Bool
    ) async throws(TrackerError) -> Bool {
        do {
            return try await posted()
        } catch {
            throw failure(
                "\(request.method) \(what); whether it arrived could not be checked (\(error.message)), so it was "
                    + "not sent again")
        }
    }

    /// The `--dry-run` listing of one request: method, redacted URL, headers (credentials masked), body.
    func show(_ request: HTTPRequest) {
        var lines = ["\(request.method) \(Redact.url(request.url))"]
        let names = Set(request.headers.map { $0.name.lowercased() })
        for (name, value) in request.headers { lines.append("\(name): \(mask(value))") }
        for name in credentialNames.sorted() where !names.contains(name.lowercased()) {
            lines.append("\(name): ***")
        }
        switch request.body {
        case .empty: break
        case .bytes(let bytes, let contentType):
            lines.append("Content-Type: \(contentType)")
            lines.append("")
            if contentType.hasPrefix("application/json") {
                lines.append(mask(String(decoding: bytes, as: UTF8.self)))
            } else {
                lines.append("(\(bytes.count) bytes of \(contentType))")
            }
        }
        print(lines.joined(separator: "\n") + "\n\n")
    }
}

extension TrackerSession {
    /// A JSON body, or a failure naming the tracker.
    public func json<Value: Encodable>(_ value: Value) throws(TrackerError) -> HTTPBody {
        do {
            return try HTTPBody.json(value)
        } catch {
            throw failure("cannot encode the request: \(error)")
        }
    }

    /// The JSON of a response body.
    public static func object(_ response: HTTPResponse) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(response.body), options: [.fragmentsAllowed])
    }
}
