import Foundation
import MemhuntHTTP

/// GitHub Issues: `github:OWNER/REPO#N` comments on issue N; `github:OWNER/REPO` opens an issue labelled
/// `memhunt`. GitHub's REST API takes no attachments, so the body carries the report (folded to 65,536
/// characters). Token: `GITHUB_TOKEN`; API: `MEMHUNT_GITHUB_API_URL` (GitHub Enterprise: `https://HOST/api/v3`).
public struct GitHubTracker: Tracker {
    public static let scheme = "github"
    public static let usage = "github:OWNER/REPO#N (a comment on issue N) or github:OWNER/REPO (a new issue)"

    public let target: String
    let api: URL
    let repository: String
    let issue: Int?
    let token: String?
    public let maxBodyCharacters = 65_536
    public let maxAttachmentBytes: Int? = nil

    public init(target: String, environment: [String: String]) throws(TrackerError) {
        self.target = "github:" + target
        var text = Substring(target)
        if let hash = text.lastIndex(of: "#") {
            guard let number = Int(text[text.index(after: hash)...]), number > 0 else {
                throw TrackerError(
                    tracker: "github", target: self.target, message: "the issue after '#' is not a number")
            }
            issue = number
            text = text[..<hash]
        } else {
            issue = nil
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_."))
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy(allowed.contains) })
        else {
            throw TrackerError(tracker: "github", target: self.target, message: "expected github:OWNER/REPO[#N]")
        }
        repository = String(text)
        var base = environment["MEMHUNT_GITHUB_API_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? "https://api.github.com"
        while base.hasSuffix("/") { base.removeLast() }
        guard let api = URL(string: base), HTTPOrigin(api) != nil else {
            throw TrackerError(
                tracker: "github", target: self.target,
                message: "MEMHUNT_GITHUB_API_URL is not an http(s) URL: \(Redact.invalidURL(base))")
        }
        self.api = api
        token = environment["GITHUB_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public var credentials: [String: String] { token.map { ["Authorization": "Bearer \($0)"] } ?? [:] }
    public var origin: HTTPOrigin? { HTTPOrigin(api) }

    func request(_ method: String, _ path: String, _ body: HTTPBody = .empty) -> HTTPRequest {
        request(method, URL(string: api.absoluteString + path)!, body)
    }

    func request(_ method: String, _ url: URL, _ body: HTTPBody = .empty) -> HTTPRequest {
        HTTPRequest(
            method: method, url: url,
            headers: [
                "Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28",
                "User-Agent": "memhunt",
            ], body: body)
    }

    /// A write, waited on and sent again when GitHub answers a secondary rate limit with 403 and
    /// `retry-after` (the client's policy retries 429 but never a 403); a primary limit (403 with
    /// `x-ratelimit-remaining: 0` and a reset far off) is reported with GitHub's message.
    func write(
        _ request: HTTPRequest, _ session: TrackerSession, dryRun: HTTPResponse,
        posted: () async throws(TrackerError) -> Bool = { false }
    ) async throws(TrackerError) -> HTTPResponse? {
        var waits = 0
        while true {
            let response = try await session.write(request, dryRunResponse: dryRun, posted: posted)
            guard let response, response.status == 403, waits < 2,
                let after = response.headers["retry-after"].flatMap({ HTTPClient.retryAfter($0) }), after <= 60
            else { return response }
            waits += 1
            if try await posted() { return nil }
            try? await Task.sleep(for: .seconds(after))
        }
    }

    public func attach(_ post: TrackerPost, session: TrackerSession) async throws(TrackerError) -> TrackerOutcome {
        if token == nil && !session.dryRun { throw session.failure("GITHUB_TOKEN is not set") }
        if let issue { return try await comment(issue, post, session) }
        return try await open(post, session)
    }

    func body(_ post: TrackerPost) -> String {
        post.body(limit: maxBodyCharacters, markerLine: post.hiddenMarker, attached: false)
    }

    struct Item {
        var id: Int
        var body: String
        var url: String
    }

    /// Every item of a paginated list (following `Link: rel="next"`, at most 30 pages).
    func list(_ first: URL, _ what: String, _ session: TrackerSession) async throws(TrackerError) -> [[String: Any]] {
        var items: [[String: Any]] = []
        var next: URL? = first
        var pages = 0
        while let url = next, pages < 30 {
            pages += 1
            let response = try await session.read(
                request("GET", url), dryRunResponse: HTTPResponse(status: 200, body: Array("[]".utf8)))
            guard response.status == 200 else { throw session.failure(response, what) }
            items += TrackerSession.object(response) as? [[String: Any]] ?? []
            next = response.headers["Link"].flatMap(Self.nextLink)
        }
        return items
    }

    /// The `rel="next"` URL of a `Link` header.
    static func nextLink(_ header: String) -> URL? {
        for part in header.split(separator: ",") where part.contains("rel=\"next\"") {
            guard let open = part.firstIndex(of: "<"), let close = part.firstIndex(of: ">"), open < close else {
                continue
            }
            return URL(string: String(part[part.index(after: open)..<close]))
        }
        return nil
    }

    func own(_ items: [[String: Any]], _ post: TrackerPost) -> [Item] {
        items.compactMap { item in
            guard let id = item["id"] as? Int, let body = item["body"] as? String,
                post.isOwn(body.replacingOccurrences(of: "\r\n", with: "\n"))
            else { return nil }
            return Item(
                id: id, body: body.replacingOccurrences(of: "\r\n", with: "\n"),
                url: item["html_url"] as? String ?? "")
        }
    }

    /// The hunt's comment on issue `issue` (`Upsert`: the earliest is edited; a duplicate is removed).
    func comment(_ issue: Int, _ post: TrackerPost, _ session: TrackerSession)
        async throws(TrackerError) -> TrackerOutcome
    {
        let listURL = URL(string: api.absoluteString + "/repos/\(repository)/issues/\(issue)/comments?per_page=100")!
        let list = { () async throws(TrackerError) -> [Reconcile.Entry] in
            own(try await self.list(listURL, "listing the comments of #\(issue)", session), post).map {
                Reconcile.Entry(id: $0.id, text: $0.body, url: $0.url)
            }
        }
        return try await Upsert(
            list: list, body: { post, _ in body(post) },
            create: { post, body async throws(TrackerError) -> String? in
                let response = try await write(
                    request("POST", "/repos/\(repository)/issues/\(issue)/comments", try session.json(["body": body])),
                    session, dryRun: HTTPResponse(status: 201)
                ) { () async throws(TrackerError) in try await list().contains { post.isMine($0.text) } }
                if let response, response.status != 201 {
                    throw session.failure(response, "commenting on #\(issue)")
                }
                return nil
            },
            edit: { _, earlier, body, _ async throws(TrackerError) in
                let response = try await write(
                    request(
                        "PATCH", "/repos/\(repository)/issues/comments/\(earlier.id)", try session.json(["body": body])),
                    session, dryRun: HTTPResponse(status: 200))
                if let response, response.status != 200 {
                    throw session.failure(response, "editing comment \(earlier.id)")
                }
            },
            remove: { id async throws(TrackerError) in
                let removed = try await write(
                    request("DELETE", "/repos/\(repository)/issues/comments/\(id)"), session,
                    dryRun: HTTPResponse(status: 204)
                ) { () async throws(TrackerError) in try await !list().contains { $0.id == id } }
                if let removed, removed.status != 204, removed.status != 404 {
                    throw session.failure(
                        removed, "removing comment \(id), a duplicate of an earlier comment of this hunt")
                }
            },
            location: "\(repository)#\(issue)"
        ).run(post, session)
    }

    /// The hunt's issue, found by its marker among the issues labelled `memhunt` (`Upsert`: the earliest is
    /// edited, body and title; GitHub's API removes no issue, so none is reconciled).
    func open(_ post: TrackerPost, _ session: TrackerSession) async throws(TrackerError) -> TrackerOutcome {
        let listURL = URL(
            string: api.absoluteString + "/repos/\(repository)/issues?labels=memhunt&state=all&per_page=100")!
        let what = "looking for this hunt's issue"
        let list = { () async throws(TrackerError) -> [Reconcile.Entry] in
            own(try await self.list(listURL, what, session).filter { $0["pull_request"] == nil }, post).compactMap {
                guard Int($0.url.split(separator: "/").last ?? "") != nil else { return nil }
                return Reconcile.Entry(id: $0.id, text: $0.body, url: $0.url)
            }
        }
        struct NewIssue: Encodable {
            var title: String
            var body: String
            var labels: [String]
        }
        return try await Upsert(
            list: list, body: { post, _ in body(post) },
            create: { post, body async throws(TrackerError) -> String? in
                let response = try await write(
                    request(
                        "POST", "/repos/\(repository)/issues",
                        try session.json(NewIssue(title: post.title, body: body, labels: ["memhunt"]))),
                    session, dryRun: HTTPResponse(status: 201)
                ) { () async throws(TrackerError) in try await list().contains { post.isMine($0.text) } }
                guard let response else { return nil }
                guard response.status == 201 else { throw session.failure(response, "opening an issue") }
                return (TrackerSession.object(response) as? [String: Any])?["html_url"] as? String
            },
            edit: { post, earlier, body, _ async throws(TrackerError) in
                let number = Int(earlier.url?.split(separator: "/").last ?? "") ?? 0
                let response = try await write(
                    request(
                        "PATCH", "/repos/\(repository)/issues/\(number)",
                        try session.json(["body": body, "title": post.title])),
                    session, dryRun: HTTPResponse(status: 200))
                if let response, response.status != 200 { throw session.failure(response, "editing issue #\(number)") }
            },
            location: repository
        ).run(post, session)
    }
}
