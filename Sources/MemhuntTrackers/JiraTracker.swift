import Foundation
import MemhuntHTTP

/// Jira: `jira:KEY-N` adds a comment to issue KEY-N, in Atlassian Document Format for REST API v3 (the
/// default) or wiki markup for v2 servers (`MEMHUNT_JIRA_API=2`), and attaches the reports. Server:
/// `MEMHUNT_JIRA_URL`; credentials: `JIRA_EMAIL` + `JIRA_API_TOKEN` (Basic), or `JIRA_BEARER_TOKEN`.
public struct JiraTracker: Tracker {
    public static let scheme = "jira"
    public static let usage = "jira:KEY-N (a comment on issue KEY-N; MEMHUNT_JIRA_URL names the server)"

    public let target: String
    let base: URL?
    let key: String
    let version: Int
    let authorization: String?
    /// Jira's comment limit (32,767 characters).
    public let maxBodyCharacters = 32_767
    /// Jira Cloud's default attachment limit; `MEMHUNT_JIRA_MAX_ATTACHMENT` (bytes) overrides.
    public let maxAttachmentBytes: Int?

    public init(target: String, environment: [String: String]) throws(TrackerError) {
        self.target = "jira:" + target
        let parts = target.split(separator: "-")
        guard parts.count == 2, let number = Int(parts[1]), number > 0, !parts[0].isEmpty,
            parts[0].allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" })
        else { throw TrackerError(tracker: "jira", target: "jira:" + target, message: "expected jira:KEY-N") }
        key = target
        var text = environment["MEMHUNT_JIRA_URL"] ?? ""
        while text.hasSuffix("/") { text.removeLast() }
        base = URL(string: text).flatMap { HTTPOrigin($0) == nil ? nil : $0 }
        version = environment["MEMHUNT_JIRA_API"] == "2" ? 2 : 3
        if let bearer = environment["JIRA_BEARER_TOKEN"], !bearer.isEmpty {
            authorization = "Bearer \(bearer)"
        } else if let email = environment["JIRA_EMAIL"], let token = environment["JIRA_API_TOKEN"], !token.isEmpty {
            authorization = "Basic " + Data("\(email):\(token)".utf8).base64EncodedString()
        } else {
            authorization = nil
        }
        maxAttachmentBytes = environment["MEMHUNT_JIRA_MAX_ATTACHMENT"].flatMap(Int.init) ?? 10 << 20
    }

    public var credentials: [String: String] { authorization.map { ["Authorization": $0] } ?? [:] }
    public var origin: HTTPOrigin? { base.flatMap(HTTPOrigin.init) }

    func url(_ path: String) -> URL { URL(string: base!.absoluteString + "/rest/api/\(version)" + path)! }

    /// The comment body: ADF (v3) or wiki markup (v2), written by `PostSummary`: headings, the findings in a
    /// table with their severities (status lozenges in ADF), the details in panels, and the short marker last
    /// in grey (Jira has no hidden text; the table holds the codes).
    func body(_ post: TrackerPost) -> Any {
        let summary = PostSummary(post, attached: true)
        if version == 2 { return summary.text(PostSummary.wiki, limit: maxBodyCharacters, marker: post.shortMarker) }
        return summary.adf(limit: maxBodyCharacters, marker: post.shortMarker)
    }

    /// The text of a comment body: a string (v2), or the text nodes of an ADF document (v3).
    static func flatten(_ body: Any?) -> String {
        switch body {
        case let text as String: return text.replacingOccurrences(of: "\r\n", with: "\n")
        case let node as [String: Any]:
            // A status lozenge's text is in its attributes.
            let text = node["type"] as? String == "status" ? (node["attrs"] as? [String: Any])?["text"] : node["text"]
            return ((text as? String).map { [$0] } ?? []).joined()
                + ((node["content"] as? [Any]) ?? []).map { flatten($0) }.joined(separator: "\n")
        default: return ""
        }
    }

    func json(_ object: Any, _ session: TrackerSession) throws(TrackerError) -> HTTPBody {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else {
            throw session.failure("cannot encode the comment")
        }
        return .bytes(Array(data), contentType: "application/json")
    }

    struct Comment {
        var id: String
        var text: String
        var created: Date?
        /// The codes in its findings table.
        var codes: [String]
    }

    func own(_ post: TrackerPost, _ session: TrackerSession) async throws(TrackerError) -> [Comment] {
        var comments: [Comment] = []
        var start = 0
        while start < 5000 {
            let response = try await session.read(
                HTTPRequest(
                    url: url("/issue/\(key)/comment?startAt=\(start)&maxResults=100&orderBy=created"),
                    headers: ["Accept": "application/json"]),
                dryRunResponse: HTTPResponse(status: 200, body: Array(#"{"comments":[],"total":0}"#.utf8)))
            guard response.status == 200 else { throw session.failure(response, "listing the comments of \(key)") }
            let object = TrackerSession.object(response) as? [String: Any] ?? [:]
            let page = object["comments"] as? [[String: Any]] ?? []
            for comment in page {
                let text = Self.flatten(comment["body"])
                guard let id = (comment["id"] as? String) ?? (comment["id"] as? Int).map(String.init), post.isOwn(text)
                else { continue }
                comments.append(
                    Comment(
                        id: id, text: text, created: Reconcile.date(comment["created"]),
                        codes: PostSummary.codes(in: comment["body"])))
            }
            start += page.count
            if page.isEmpty || start >= (object["total"] as? Int ?? 0) { break }
        }
        return comments
    }

    /// The issue's attachments.
    func attachments(_ session: TrackerSession) async throws(TrackerError) -> [Reconcile.File] {
        let response = try await session.read(
            HTTPRequest(url: url("/issue/\(key)?fields=attachment"), headers: ["Accept": "application/json"]),
            dryRunResponse: HTTPResponse(status: 200, body: Array("{}".utf8)))
        guard response.status == 200 else { throw session.failure(response, "reading \(key)") }
        let fields = (TrackerSession.object(response) as? [String: Any])?["fields"] as? [String: Any]
        return (fields?["attachment"] as? [[String: Any]] ?? []).compactMap { file in
            guard let name = file["filename"] as? String,
                let id = (file["id"] as? String).flatMap({ Int($0) }) ?? (file["id"] as? Int)
            else { return nil }
            return Reconcile.File(id: id, filename: name)
        }
    }

    /// Attaches `files` in one request. A copy that another attach added at the same time under the same name
    /// with a lower id stays; this attach's is removed.
    func attachFiles(_ files: [TrackerAttachment], _ session: TrackerSession) async throws(TrackerError) {
        let parts = files.map {
            MultipartPart(name: "file", filename: $0.filename, contentType: $0.contentType, data: $0.bytes)
        }
        let request = HTTPRequest(
            method: "POST", url: url("/issue/\(key)/attachments"),
            headers: ["X-Atlassian-Token": "no-check", "Accept": "application/json"], body: .multipart(parts))
        let response = try await session.write(request, dryRunResponse: HTTPResponse(status: 200)) {
            () async throws(TrackerError) in
            let now = try await attachments(session)
            return files.allSatisfy { file in now.contains { $0.filename == file.filename } }
        }
        guard let response, !session.dryRun else { return }
        if response.status != 200 { throw session.failure(response, "attaching the reports") }
        // After a lost answer the ids are not known: nothing is removed then.
        let added = (TrackerSession.object(response) as? [[String: Any]] ?? []).compactMap {
            ($0["id"] as? String).flatMap { Int($0) } ?? ($0["id"] as? Int)
        }
        for file in Reconcile.duplicates(mine: Set(added), in: try await attachments(session)) {
            let removal = HTTPRequest(method: "DELETE", url: url("/attachment/\(file.id)"))
            let removed = try await session.write(removal, dryRunResponse: HTTPResponse(status: 204)) {
                () async throws(TrackerError) in
                try await !attachments(session).contains { $0.id == file.id }
            }
            if let removed, removed.status != 204, removed.status != 404 {
                throw session.failure(removed, "removing \(file.filename), a second copy of a file already attached")
            }
        }
    }

    /// A comment once across processes (`Upsert`): the earliest comment of the hunt stays and is edited by a
    /// later run, a later one is removed by the attach that made it, and the attach whose comment stays attaches
    /// the reports. Comments are Atlassian documents: they are compared as their text.
    public func attach(_ post: TrackerPost, session: TrackerSession) async throws(TrackerError) -> TrackerOutcome {
        guard base != nil else { throw session.failure("MEMHUNT_JIRA_URL is not set to the server's http(s) URL") }
        if authorization == nil && !session.dryRun {
            throw session.failure("set JIRA_EMAIL and JIRA_API_TOKEN, or JIRA_BEARER_TOKEN")
        }
        let list = { () async throws(TrackerError) -> [Reconcile.Entry] in
            try await own(post, session).compactMap { comment in
                Int(comment.id).map {
                    Reconcile.Entry(id: $0, text: comment.text, created: comment.created, codes: comment.codes)
                }
            }
        }
        return try await Upsert(
            list: list, body: { post, _ in Self.flatten(body(post)) },
            create: { post, _ async throws(TrackerError) -> String? in
                let request = HTTPRequest(
                    method: "POST", url: url("/issue/\(key)/comment"), headers: ["Accept": "application/json"],
                    body: try json(["body": body(post)], session))
                let response = try await session.write(request, dryRunResponse: HTTPResponse(status: 201)) {
                    () async throws(TrackerError) in try await list().contains { post.isMine($0.text) }
                }
                if let response, response.status != 201 { throw session.failure(response, "commenting on \(key)") }
                return nil
            },
            edit: { post, earlier, _, _ async throws(TrackerError) in
                var kept = post
                kept.nonce = TrackerPost.nonce(in: earlier.text) ?? post.nonce
                let request = HTTPRequest(
                    method: "PUT", url: url("/issue/\(key)/comment/\(earlier.id)"),
                    body: try json(["body": body(kept)], session))
                let response = try await session.write(request, dryRunResponse: HTTPResponse(status: 200))
                if let response, response.status != 200 {
                    throw session.failure(response, "editing comment \(earlier.id)")
                }
            },
            remove: { id async throws(TrackerError) in
                let request = HTTPRequest(method: "DELETE", url: url("/issue/\(key)/comment/\(id)"))
                let response = try await session.write(request, dryRunResponse: HTTPResponse(status: 204)) {
                    () async throws(TrackerError) in try await !list().contains { $0.id == id }
                }
                if let response, response.status != 204, response.status != 404 {
                    throw session.failure(
                        response, "removing comment \(id), a duplicate of an earlier comment of this hunt")
                }
            },
            files: Upsert.Files(
                present: { () async throws(TrackerError) in (try await attachments(session), nil) },
                add: { files async throws(TrackerError) in try await attachFiles(files, session) }),
            location: Redact.url(URL(string: base!.absoluteString + "/browse/\(key)")!)
        ).run(post, session)
    }
}
