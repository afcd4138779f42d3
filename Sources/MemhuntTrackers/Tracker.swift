import Foundation
import MemhuntBasics
import MemhuntCore
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
    /// `alreadyPosted`: another attach posted at the same moment, and its post, which stayed, says what this
    /// one's said (another attach of the same run); this one's post was removed. When it says something else
    /// (another run's findings), this run's findings replace them there, and the outcome is `updated`.
    public enum Action: String, Sendable {
        case posted, updated, unchanged
        case alreadyPosted = "already posted"
        case wouldPost = "would post"
        /// `attach --show`: nothing sent; the hunt's posts were read.
        case shown
    }
    public var action: Action
    /// Where it is (redacted URL), when known.
    public var location: String
    /// With `shown`: the hunt's posts as the tracker holds them, the earliest (the one later runs edit) first.
    public var shown: [String] = []

    public init(_ action: Action, _ location: String, shown: [String] = []) {
        self.action = action
        self.location = location
        self.shown = shown
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
    /// The text report (no color), kept for callers that show the report as text.
    public var textReport: String
    public var attachments: [TrackerAttachment]
    /// Always post a new comment, even if one for this hunt exists.
    public var forceNew: Bool
    /// Post nothing: read the hunt's posts as the tracker holds them (`TrackerOutcome.shown`).
    public var showOnly = false
    /// This attach's own mark (16 hex digits, random), in the marker as `post=` (`new=` with `forceNew`): it
    /// tells this process's post from the same hunt's posts by other processes (see `Reconcile`).
    public var nonce: String
    /// What changed since the run whose post this one edits (`Since run 1a2b3c4d: 1 finding resolved
    /// (a.low), 1 new (c.mid).`), set by `compare(with:codes:)`; nil for a first post.
    public var changes: String?

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

    /// The hunt: 16 hex digits of the SHA-256 of the playbook's id and the subject (app and bundle id). Never
    /// the run: every run of the hunt edits one post. The target is not in it: the marker is only looked for
    /// on the target's issue, and the same issue reached through another URL is the same hunt.
    public var hunt: String {
        let subject = [document.playbook.id, document.subject.app ?? "", document.subject.bundleID ?? ""]
        return String(SHA256.hex(Array(subject.joined(separator: "\n").utf8)).prefix(16))
    }

    /// What every post of the hunt is recognized by: `memhunt:hunt=<hex>`.
    public var huntMarker: String { "memhunt:hunt=\(hunt)" }

    /// The run, as the marker and the change line name it: the first 8 characters of its id.
    public var run: String { Self.token(String(document.run.id.prefix(8))) }

    /// The findings' codes, sorted, a code found more than once with its count (`b.high*2`).
    public var codes: String { Self.counted(document.findings.map(\.code)) }

    /// The marker's text: the hunt, the run, the findings' codes and this attach's nonce.
    public var marker: String { "\(huntMarker) run=\(run) codes=\(codes) \(forceNew ? "new" : "post")=\(nonce)" }

    /// The marker without the codes, for a tracker where it shows (Jira): its findings table holds them.
    public var shortMarker: String { "\(huntMarker) run=\(run) \(forceNew ? "new" : "post")=\(nonce)" }

    /// The marker as an HTML comment (hidden by GitHub, GitLab and Redmine in Markdown and Textile).
    public var hiddenMarker: String { "<!-- \(marker) -->" }

    /// Sets `changes` from the post this one edits (its text, as the tracker lists it): against the run it
    /// names, the findings' codes compared with those of its marker (or `codes`, read by the tracker from the
    /// post's findings table, when its marker has none). A post of this same run keeps its change line; a post
    /// without a run in its marker has none to compare with.
    public mutating func compare(with existing: String, codes listed: [String]? = nil) {
        guard let previous = Self.field("run", in: existing) else {
            changes = nil
            return
        }
        if previous == run {
            changes = Self.changeLine(in: existing)
            return
        }
        let before =
            listed.map { Self.counts(Self.counted($0)) } ?? Self.counts(Self.field("codes", in: existing) ?? "")
        let now = Self.counts(codes)
        func gone(_ from: [String: Int], _ other: [String: Int]) -> [(code: String, count: Int)] {
            from.compactMap { code, n in n > (other[code] ?? 0) ? (code, n - (other[code] ?? 0)) : nil }
                .sorted { $0.code < $1.code }
        }
        // What this run no longer raises, by the one rule of `RunDiff`: resolved only where this run measured
        // the finding's step again and the finding was a problem; not re-measured where it had no artifact.
        var resolved: [(code: String, count: Int)] = []
        var unmeasured: [(code: String, count: Int)] = []
        for lost in gone(before, now) {
            switch RunDiff.state(ofGone: lost.code, step: nil, severity: nil, in: document) {
            case .resolved: resolved.append(lost)
            case .noLongerSaid: break
            default: unmeasured.append(lost)
            }
        }
        let added = gone(now, before)
        // The count in the sentence is the list's: a code raised twice is listed with its count.
        func total(_ list: [(code: String, count: Int)]) -> Int { list.reduce(0) { $0 + $1.count } }
        func named(_ list: [(code: String, count: Int)]) -> String {
            list.isEmpty
                ? ""
                : " (" + list.map { $0.count > 1 ? "\($0.code) ×\($0.count)" : $0.code }.joined(separator: ", ") + ")"
        }
        changes =
            "Since run \(previous): \(Plural.count(total(resolved), "finding")) resolved\(named(resolved)), "
            + (unmeasured.isEmpty ? "" : "\(total(unmeasured)) not re-measured\(named(unmeasured)), ")
            + "\(total(added)) new\(named(added))."
    }

    /// The value of ` key=` in a marker (`run`, `codes`).
    static func field(_ key: String, in text: String) -> String? {
        guard let marker = text.range(of: "memhunt:hunt="),
            let range = text[marker.upperBound...].range(of: " \(key)=")
        else { return nil }
        let value = text[range.upperBound...].prefix { !$0.isWhitespace && $0 != "{" }
        return String(value)
    }

    /// The line of `text` that says what changed, if it has one.
    static func changeLine(in text: String) -> String? {
        guard let start = text.range(of: "Since run ") else { return nil }
        return String(text[start.lowerBound...].prefix { !$0.isNewline })
    }

    /// `a.low,b.high*2` from codes.
    static func counted(_ codes: [String]) -> String {
        var counts: [String: Int] = [:]
        for code in codes { counts[code, default: 0] += 1 }
        let items: [String] = counts.keys.sorted().map { code in
            let n = counts[code] ?? 1
            return n == 1 ? code : code + "*" + String(n)
        }
        return items.joined(separator: ",")
    }

    /// The counts of `counted`'s form.
    static func counts(_ text: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "*")
            counts[String(parts[0]), default: 0] += parts.count > 1 ? Int(parts[1]) ?? 1 : 1
        }
        return counts
    }

    /// A run id as one marker word.
    static func token(_ text: String) -> String {
        String(text.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
    }

    /// The body within `limit` characters, ending with `markerLine`. In Markdown: the title, what changed and
    /// the report, folding the least severe details first (the full report first, then finding lines from
    /// the least severe; the full report stays attached). In Textile: `PostSummary`'s headings and tables.
    public func body(limit: Int, markerLine: String, attached: Bool, markup: TrackerMarkup = .markdown) -> String {
        if markup == .textile {
            return PostSummary(self, attached: attached).text(PostSummary.textile, limit: limit, marker: markerLine)
        }
        // Ids are kebab-case and the rest is memhunt's words: nothing in the line is Markdown.
        let ledger = document.ledger.map { LedgerSummary.oneLine($0) + "\n\n" } ?? ""
        let head = "**\(title)**\n\n" + (changes.map { $0 + "\n\n" } ?? "") + ledger
        let tail = "\n\n" + markerLine
        let shown = reportIsMarkdown ? report : "```\n" + report + "\n```"
        let full = head + shown + tail
        if full.count <= limit { return full }
        let note = attached ? "The full report is attached." : "The full report did not fit."
        var lines = document.findings.sorted { $0.severity > $1.severity }.map {
            "- **\($0.severity.rawValue)** `\($0.code)`: \($0.title)"
        }
        var folded = 0
        while true {
            let more = folded > 0 ? "\n- … \(folded) less severe finding(s) folded." : ""
            let text = head + lines.joined(separator: "\n") + more + "\n\n" + note + tail
            if text.count <= limit || lines.isEmpty {
                return text.count <= limit ? text : String(text.prefix(max(0, limit - tail.count))) + tail
            }
            lines.removeLast()
            folded += 1
        }
    }

    /// Whether a comment's text is a post of this hunt (line endings and ADF flattening aside).
    public func isOwn(_ text: String) -> Bool { text.contains(huntMarker + " ") || text.hasSuffix(huntMarker) }

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
