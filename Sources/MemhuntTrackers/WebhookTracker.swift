import Foundation
import MemhuntBasics
import MemhuntHTTP

/// A generic webhook: `webhook:URL` receives the (redacted) findings document as JSON in one POST. With
/// `MEMHUNT_WEBHOOK_SECRET` set, `X-Memhunt-Signature-256: sha256=<hex HMAC-SHA256 of the body>` signs it.
/// `Webhook-Id` and `Idempotency-Key` are the same on every retry of one delivery, for the receiver to
/// drop duplicates (a webhook cannot be asked what it already has).
public struct WebhookTracker: Tracker {
    public static let scheme = "webhook"
    public static let usage = "webhook:URL (a POST of the findings document as JSON)"

    public let target: String
    let url: URL
    let secret: String?
    public let maxBodyCharacters = Int.max
    public let maxAttachmentBytes: Int? = nil

    public init(target: String, environment: [String: String]) throws(TrackerError) {
        self.target = "webhook:" + Redact.invalidURL(target)
        guard let url = URL(string: target), HTTPOrigin(url) != nil else {
            throw TrackerError(tracker: "webhook", target: self.target, message: "not an http(s) URL")
        }
        self.url = url
        secret = environment["MEMHUNT_WEBHOOK_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public var credentials: [String: String] { [:] }
    public var origin: HTTPOrigin? { HTTPOrigin(url) }

    /// The signature header's value for `body`.
    public static func signature(secret: String, body: [UInt8]) -> String {
        "sha256=" + HMACSHA256.hex(key: Array(secret.utf8), message: body)
    }

    public func attach(_ post: TrackerPost, session: TrackerSession) async throws(TrackerError) -> TrackerOutcome {
        if post.showOnly { throw session.failure("a webhook keeps nothing memhunt can read back") }
        let body = Array(post.document.encoded().utf8)
        let id = "memhunt-\(post.document.run.id)-\(SHA256.hex(body).prefix(16))"
        var headers: HTTPHeaders = [
            "Webhook-Id": id, "Idempotency-Key": id,
            "Webhook-Timestamp": String(Int(Date().timeIntervalSince1970)),
        ]
        if let secret { headers["X-Memhunt-Signature-256"] = Self.signature(secret: secret, body: body) }
        let request = HTTPRequest(
            method: "POST", url: url, headers: headers, body: .bytes(body, contentType: "application/json"))
        let response = try await session.write(request, dryRunResponse: HTTPResponse(status: 204))
        let location = Redact.url(url)
        guard let response else { return TrackerOutcome(.posted, location) }
        guard (200..<300).contains(response.status) else { throw session.failure(response, "delivering") }
        return TrackerOutcome(session.dryRun ? .wouldPost : .posted, location)
    }
}
