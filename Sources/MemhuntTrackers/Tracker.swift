import Foundation
import MemhuntHTTP
import MemhuntReports

/// One bug tracker memhunt can attach findings to, over the HTTP client.
///
/// Adding a tracker is one file with a type conforming to this protocol and one line in `trackers`.
public protocol Tracker: Sendable {
    /// The target's prefix: `redmine` in `redmine:URL#N`.
    static var scheme: String { get }
    /// The target forms, for help texts and the README.
    static var usage: String { get }
    /// Reads the target after the prefix, and the base URL and credentials from the environment.
    init(target: String, environment: [String: String]) throws(TrackerError)
    /// The whole target, as the user wrote it (for messages).
    var target: String { get }
    /// Headers carrying the credentials; the session binds them to `origin` and masks them in every output.
    var credentials: [String: String] { get }
    /// The origin the credentials belong to.
    var origin: HTTPOrigin? { get }
    /// The longest body the tracker takes, in characters.
    var maxBodyCharacters: Int { get }
    /// The largest attachment the tracker takes, in bytes; nil when it takes no attachments.
    var maxAttachmentBytes: Int? { get }
    /// Posts (or updates) the findings once: looks for the marker before posting and after a lost answer, and
    /// reconciles with attaches of the same run at the same moment (`Reconcile`).
    func attach(_ post: TrackerPost, session: TrackerSession) async throws(TrackerError) -> TrackerOutcome
}

/// Every tracker, sorted by scheme. A test guards the order.
public let trackers: [any Tracker.Type] = [
    GitHubTracker.self,
    GitLabTracker.self,
    JiraTracker.self,
    RedmineTracker.self,
    WebhookTracker.self,
]

/// Makes the tracker a target names (`github:acme/app#12`).
public func tracker(for target: String, environment: [String: String]) throws(TrackerError) -> any Tracker {
    guard let colon = target.firstIndex(of: ":"),
        let type = trackers.first(where: { $0.scheme == target[..<colon] })
    else {
        let schemes = trackers.map { "\($0.scheme):" }.joined(separator: ", ")
        throw TrackerError(
            tracker: "attach", target: target, message: "not a tracker target (one of \(schemes))")
    }
    return try type.init(target: String(target[target.index(after: colon)...]), environment: environment)
}

/// What became of an attach.
public struct TrackerOutcome: Sendable, Equatable {
    /// `alreadyPosted`: another attach of the run posted at the same moment; this one's post was removed.
    public enum Action: String, Sendable {
        case posted, updated, unchanged
        case alreadyPosted = "already posted"
        case wouldPost = "would post"
    }
    public var action: Action
    /// Where it is (redacted URL), when known.
    public var location: String

    public init(_ action: Action, _ location: String) {
        self.action = action
        self.location = location
    }
}

/// A failure, naming the tracker, the target, and what the tracker answered.
public struct TrackerError: Error, Sendable, Equatable, CustomStringConvertible {
    public var tracker: String
    public var target: String
    public var message: String

    public init(tracker: String, target: String, message: String) {
        self.tracker = tracker
        self.target = target
        self.message = message
    }

    public var description: String { target.isEmpty ? "\(tracker): \(message)" : "\(tracker) \(target): \(message)" }
}

/// A file that goes with the post.
public struct TrackerAttachment: Sendable, Equatable {
    public var filename: String
    public var contentType: String
    public var bytes: [UInt8]

    public init(filename: String, contentType: String, bytes: [UInt8]) {
        self.filename = filename
        self.contentType = contentType
        self.bytes = bytes
    }
}

/// The markup a tracker renders a post's body in.
public enum TrackerMarkup: String, Sendable, CaseIterable {
    case markdown
    case textile
}

/// What is posted: the (redacted) document, its reports and the marker that makes posting idempotent.
public struct TrackerPost: Sendable {
    public var document: FindingsDocument
    /// One line: `memhunt: <playbook title> — N findings (run <id8>)`.
    public var title: String
    /// The full Markdown (or text) report.
    public var report: String
    /// Whether `report` is Markdown (else it is shown as preformatted text).
    public var reportIsMarkdown: Bool
    /// The text report (no color), for trackers whose markup is not Markdown (Redmine with Textile).
    public var textReport: String
    public var attachments: [TrackerAttachment]
    /// Always post a new comment, even if one for this run exists.
    public var forceNew: Bool
    /// This attach's own mark (16 hex digits, random), in the marker as `post=` (`new=` with `forceNew`): it
    /// tells this process's post from the same run's posts by other processes (see `Reconcile`).
    public var nonce: String

    public init(
        document: FindingsDocument, title: String, report: String, reportIsMarkdown: Bool, textReport: String? = nil,
        attachments: [TrackerAttachment], forceNew: Bool = false
    ) {
        self.document = document
        self.title = title
        self.report = report
        self.reportIsMarkdown = reportIsMarkdown
        self.textReport = textReport ?? report
        self.attachments = attachments
        self.forceNew = forceNew
        let random = String(UInt64.random(in: .min ... .max), radix: 16)
        nonce = String(repeating: "0", count: 16 - random.count) + random
    }

    /// What every post is recognized by: `memhunt:run=<id>`.
    public var runMarker: String { "memhunt:run=\(document.run.id)" }

    /// The marker's text: the run, the findings' codes and this attach's nonce.
    public var marker: String {
        let codes = Array(Set(document.findings.map(\.code))).sorted().joined(separator: ",")
        return "\(runMarker) codes=\(codes) \(forceNew ? "new" : "post")=\(nonce)"
    }

    /// The marker as an HTML comment (hidden by GitHub, GitLab and Redmine's Markdown).
    public var hiddenMarker: String { "<!-- \(marker) -->" }

    /// The body within `limit` characters, ending with `markerLine`. Folds the least severe details first:
    /// the full report, then finding lines from the least severe; the full report stays attached.
    ///
    /// In Textile (Redmine's default markup before 6.0) the title is bold and the text report is
    /// preformatted: Redmine escapes what a `<pre>` block holds, so it is shown as written; Markdown's
    /// headings, tables and escapes would show as lists, `---` cells and backslashes.
    public func body(limit: Int, markerLine: String, attached: Bool, markup: TrackerMarkup = .markdown) -> String {
        let textile = markup == .textile
        let head = textile ? "*\(title)*\n\n" : "**\(title)**\n\n"
        let tail = "\n\n" + markerLine
        let shown =
            textile
            ? "<pre>\n" + Self.preformatted(textReport) + "\n</pre>"
            : reportIsMarkdown ? report : "```\n" + report + "\n```"
        let full = head + shown + tail
        if full.count <= limit { return full }
        let note = attached ? "The full report is attached." : "The full report did not fit."
        var lines = document.findings.sorted { $0.severity > $1.severity }.map {
            textile
                ? "* *\($0.severity.rawValue)* @\($0.code)@: \($0.title)"
                : "- **\($0.severity.rawValue)** `\($0.code)`: \($0.title)"
        }
        var folded = 0
        while true {
            let more = folded > 0 ? "\n\(textile ? "*" : "-") … \(folded) less severe finding(s) folded." : ""
            let text = head + lines.joined(separator: "\n") + more + "\n\n" + note + tail
            if text.count <= limit || lines.isEmpty {
                return text.count <= limit ? text : String(text.prefix(max(0, limit - tail.count))) + tail
            }
            lines.removeLast()
            folded += 1
        }
    }

    /// Text for a Textile `<pre>` block: a `</pre>` inside it would end the block early.
    static func preformatted(_ text: String) -> String {
        text.replacingOccurrences(of: "</pre", with: "< /pre", options: .caseInsensitive)
    }

    /// Whether a comment's text is this run's post (line endings and ADF flattening aside).
    public func isOwn(_ text: String) -> Bool { text.contains(runMarker + " ") || text.hasSuffix(runMarker) }

    /// Whether a comment's text is the one this attach posted (its nonce).
    public func isMine(_ text: String) -> Bool {
        text.contains(" post=\(nonce)") || text.contains(" new=\(nonce)")
    }

    /// Whether two bodies say the same, whichever attach posted them (nonces aside).
    public func sameText(_ one: String, _ other: String) -> Bool {
        Self.withoutNonce(one) == Self.withoutNonce(other)
    }

    /// The nonce in a post's text (after ` post=` or ` new=`), if it has one.
    public static func nonce(in text: String) -> String? {
        for key in [" post=", " new="] {
            var rest = Substring(text)
            while let range = rest.range(of: key) {
                let digits = rest[range.upperBound...].prefix { $0.isHexDigit }
                if digits.count == 16 { return String(digits) }
                rest = rest[range.upperBound...]
            }
        }
        return nil
    }

    /// `body` with the nonce of `existing` instead of this attach's: an edit keeps the post's mark, which the
    /// attach that made it may still be looking for.
    public func keepingMark(of existing: String, in body: String) -> String {
        guard let kept = Self.nonce(in: existing) else { return body }
        return body.replacingOccurrences(of: "=\(nonce)", with: "=\(kept)")
    }

    /// The text without its ` post=<hex>` / ` new=<hex>` nonces.
    static func withoutNonce(_ text: String) -> String {
        var out = ""
        var rest = Substring(text)
        while let space = rest.firstIndex(of: " ") {
            out += rest[..<space]
            let after = rest[rest.index(after: space)...]
            let key = after.hasPrefix("post=") ? 5 : after.hasPrefix("new=") ? 4 : 0
            let digits = after.dropFirst(key).prefix { $0.isHexDigit }
            if key > 0 && digits.count == 16 {
                rest = after.dropFirst(key + 16)
            } else {
                out += " "
                rest = after
            }
        }
        return out + rest
    }
}
