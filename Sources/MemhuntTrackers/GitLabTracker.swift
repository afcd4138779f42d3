import Foundation
import MemhuntHTTP

/// GitLab: `gitlab:PROJECT#N` adds a note to issue N (the project's IID) of PROJECT (`group/project` or a
/// numeric id). The reports are uploaded to the project and linked from the note (an upload belongs to an
/// issue only once a body links it). Token: `GITLAB_TOKEN` (`PRIVATE-TOKEN`); server: `MEMHUNT_GITLAB_URL`
/// (default `https://gitlab.com`).
public struct GitLabTracker: Tracker {
    public static let scheme = "gitlab"
    public static let usage = "gitlab:GROUP/PROJECT#N (a note on issue N)"

    public let target: String
    let api: URL
    let project: String
    let issue: Int
    let token: String?
    /// GitLab's note limit.
    public let maxBodyCharacters = 1_000_000
    /// GitLab's default maximum attachment size (an instance setting).
    public let maxAttachmentBytes: Int? = 100 << 20

    /// Where the links to the uploaded reports begin in a note.
    static let attachmentsHeading = "\n\n**Attachments:** "

    public init(target: String, environment: [String: String]) throws(TrackerError) {
        self.target = "gitlab:" + target
        guard let hash = target.lastIndex(of: "#"), let number = Int(target[target.index(after: hash)...]), number > 0,
            !target[..<hash].isEmpty, !target[..<hash].hasPrefix("/"), !target[..<hash].hasSuffix("/")
        else {
            throw TrackerError(tracker: "gitlab", target: "gitlab:" + target, message: "expected gitlab:PROJECT#N")
        }
        project = String(target[..<hash])
        issue = number
        var base = environment["MEMHUNT_GITLAB_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? "https://gitlab.com"
        while base.hasSuffix("/") { base.removeLast() }
        guard let api = URL(string: base + "/api/v4"), HTTPOrigin(api) != nil else {
            throw TrackerError(
                tracker: "gitlab", target: "gitlab:" + target,
                message: "MEMHUNT_GITLAB_URL is not an http(s) URL: \(Redact.invalidURL(base))")
        }
        self.api = api
        token = environment["GITLAB_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }

    public var credentials: [String: String] { token.map { ["PRIVATE-TOKEN": $0] } ?? [:] }
    public var origin: HTTPOrigin? { HTTPOrigin(api) }

    /// `/projects/<url-encoded path>`.
    var projectPath: String {
        "/projects/"
            + (project.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._")))
                ?? project)
    }

    func url(_ path: String) -> URL { URL(string: api.absoluteString + path)! }

    struct Note {
        var id: Int
        var body: String
    }

    /// This hunt's notes on the issue (system notes aside), in creation order, across every page.
    func own(_ post: TrackerPost, _ session: TrackerSession) async throws(TrackerError) -> [Note] {
        var notes: [Note] = []
        var page = 1
        while page <= 50 {
            let request = HTTPRequest(
                url: url(
                    "\(projectPath)/issues/\(issue)/notes?sort=asc&order_by=created_at&per_page=100&page=\(page)"))
            let response = try await session.read(
                request, dryRunResponse: HTTPResponse(status: 200, body: Array("[]".utf8)))
            guard response.status == 200 else { throw session.failure(response, "listing the notes of #\(issue)") }
            for note in TrackerSession.object(response) as? [[String: Any]] ?? [] {
                guard note["system"] as? Bool != true, let id = note["id"] as? Int,
                    let body = (note["body"] as? String)?.replacingOccurrences(of: "\r\n", with: "\n"),
                    post.isOwn(body)
                else { continue }
                notes.append(Note(id: id, body: body))
            }
            guard let next = response.headers["X-Next-Page"].flatMap({ Int($0) }), next > page else { break }
            page = next
        }
        return notes
    }

    /// The hunt's note on the issue (`Upsert`: the earliest is edited; a duplicate is removed). The files are
    /// uploads linked from the note's text: an earlier note's links to files of the same names are kept, and
    /// those files are not uploaded again. The uploads of a removed note stay in the project, linked from
    /// nothing (GitLab's API of this version cannot delete an upload).
    public func attach(_ post: TrackerPost, session: TrackerSession) async throws(TrackerError) -> TrackerOutcome {
        if token == nil && !session.dryRun { throw session.failure("GITLAB_TOKEN is not set") }
        let list = { () async throws(TrackerError) -> [Reconcile.Entry] in
            try await own(post, session).map { Reconcile.Entry(id: $0.id, text: $0.body) }
        }
        return try await Upsert(
            list: list,
            body: { post, earlier async throws(TrackerError) -> String in
                let linked =
                    earlier.flatMap { note in
                        note.text.range(of: Self.attachmentsHeading).map { note.text[$0.upperBound...] }
                    }.map { $0.components(separatedBy: " · ") } ?? []
                func link(_ file: TrackerAttachment) -> String? { linked.first { $0.hasPrefix("[\(file.filename)](") } }
                var uploaded = try await upload(post.attachments.filter { link($0) == nil }, session).makeIterator()
                let links = post.attachments.compactMap { link($0) ?? uploaded.next() }
                let shown = links.isEmpty ? nil : links.joined(separator: " · ")
                let room = maxBodyCharacters - (shown.map { Self.attachmentsHeading.count + $0.count } ?? 0)
                var body = post.body(limit: room, markerLine: post.hiddenMarker, attached: shown != nil)
                if let shown { body += Self.attachmentsHeading + shown }
                return body
            },
            create: { post, body async throws(TrackerError) -> String? in
                let request = HTTPRequest(
                    method: "POST", url: url("\(projectPath)/issues/\(issue)/notes"),
                    body: try session.json(["body": body]))
                let response = try await session.write(request, dryRunResponse: HTTPResponse(status: 201)) {
                    () async throws(TrackerError) in try await list().contains { post.isMine($0.text) }
                }
                if let response, response.status != 201 {
                    throw session.failure(response, "adding a note to #\(issue)")
                }
                return nil
            },
            edit: { _, earlier, body, _ async throws(TrackerError) in
                let request = HTTPRequest(
                    method: "PUT", url: url("\(projectPath)/issues/\(issue)/notes/\(earlier.id)"),
                    body: try session.json(["body": body]))
                let response = try await session.write(request, dryRunResponse: HTTPResponse(status: 200))
                if let response, response.status != 200 {
                    throw session.failure(response, "editing note \(earlier.id)")
                }
            },
            remove: { id async throws(TrackerError) in
                let removed = try await session.write(
                    HTTPRequest(method: "DELETE", url: url("\(projectPath)/issues/\(issue)/notes/\(id)")),
                    dryRunResponse: HTTPResponse(status: 204)
                ) { () async throws(TrackerError) in try await !list().contains { $0.id == id } }
                if let removed, removed.status != 204, removed.status != 404 {
                    throw session.failure(removed, "removing note \(id), a duplicate of an earlier note of this hunt")
                }
            },
            location: Redact.url(url("\(projectPath)/issues/\(issue)"))
        ).run(post, session)
    }

    /// Uploads each file to the project; returns GitLab's Markdown link of each.
    func upload(_ files: [TrackerAttachment], _ session: TrackerSession) async throws(TrackerError) -> [String] {
        var links: [String] = []
        for file in files {
            let body = HTTPBody.multipart([
                MultipartPart(name: "file", filename: file.filename, contentType: file.contentType, data: file.bytes)
            ])
            let response = try await session.write(
                HTTPRequest(method: "POST", url: url("\(projectPath)/uploads"), body: body),
                dryRunResponse: HTTPResponse(
                    status: 201, body: Array(#"{"markdown":"[\#(file.filename)](/uploads/DRY-RUN)"}"#.utf8)))
            guard let response, response.status == 201,
                let markdown = (TrackerSession.object(response) as? [String: Any])?["markdown"] as? String
            else {
                if let response, response.status != 201 {
                    throw session.failure(response, "uploading \(file.filename)")
                }
                throw session.failure("uploading \(file.filename): the answer had no Markdown link")
            }
            links.append(markdown)
        }
        return links
    }
}
