import Foundation
import MemhuntHTTP

/// Redmine: `redmine:URL#N` adds a note to issue N; `redmine:URL/PROJECT` opens an issue in PROJECT. The
/// reports go as attachments through `/uploads.json`. Key: `REDMINE_API_KEY` (`X-Redmine-API-Key`).
///
/// The body is written in the server's text formatting, which its API does not tell:
/// `MEMHUNT_REDMINE_TEXT_FORMATTING` is `textile` (the default, Redmine's own default before 6.0 and on
/// every installation that kept it) or `common_mark`/`markdown`.
public struct RedmineTracker: Tracker {
    public static let scheme = "redmine"
    public static let usage = "redmine:URL#N (a note on issue N) or redmine:URL/PROJECT (a new issue)"

    public let target: String
    let base: URL
    let issue: Int?
    let project: String?
    let key: String?
    /// Journal notes are a TEXT column: 65,535 bytes on MySQL; characters are kept well under it.
    public let maxBodyCharacters = 60_000
    /// Redmine's default `attachment_max_size` (5120 KB); `MEMHUNT_REDMINE_MAX_ATTACHMENT` (bytes) overrides.
    public let maxAttachmentBytes: Int?
    /// The server's text formatting (`MEMHUNT_REDMINE_TEXT_FORMATTING`).
    let markup: TrackerMarkup

    public init(target: String, environment: [String: String]) throws(TrackerError) {
        let shown = "redmine:" + target
        self.target = shown
        func bad(_ why: String) -> TrackerError { TrackerError(tracker: "redmine", target: shown, message: why) }
        var text = target
        if let hash = text.lastIndex(of: "#") {
            guard let number = Int(text[text.index(after: hash)...]), number > 0 else {
                throw bad("the issue after '#' is not a number")
            }
            issue = number
            project = nil
            text = String(text[..<hash])
        } else {
            issue = nil
            while text.hasSuffix("/") { text.removeLast() }
            guard let slash = text.lastIndex(of: "/"), !text[text.index(after: slash)...].isEmpty,
                text[..<slash].hasSuffix("/") == false, text[..<slash].contains("://")
            else { throw bad("expected redmine:URL#ISSUE or redmine:URL/PROJECT") }
            project = String(text[text.index(after: slash)...])
            text = String(text[..<slash])
        }
        while text.hasSuffix("/") { text.removeLast() }
        guard let url = URL(string: text), HTTPOrigin(url) != nil else {
            throw bad("not an http(s) URL: \(Redact.invalidURL(text))")
        }
        base = url
        key = environment["REDMINE_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        maxAttachmentBytes = environment["MEMHUNT_REDMINE_MAX_ATTACHMENT"].flatMap(Int.init) ?? 5120 * 1024
        switch environment["MEMHUNT_REDMINE_TEXT_FORMATTING"]?.lowercased() ?? "" {
        case "", "textile": markup = .textile
        case "common_mark", "commonmark", "markdown": markup = .markdown
        case let other:
            throw bad("MEMHUNT_REDMINE_TEXT_FORMATTING is '\(other)': expected textile, common_mark or markdown")
        }
    }

    public var credentials: [String: String] { key.map { ["X-Redmine-API-Key": $0] } ?? [:] }
    public var origin: HTTPOrigin? { HTTPOrigin(base) }

    func url(_ path: String) -> URL { URL(string: base.absoluteString + path)! }

    public func attach(_ post: TrackerPost, session: TrackerSession) async throws(TrackerError) -> TrackerOutcome {
        if key == nil && !session.dryRun { throw session.failure("REDMINE_API_KEY is not set") }
        if let issue { return try await note(issue, post, session) }
        return try await open(project ?? "", post, session)
    }

    /// The body in the server's markup. The marker stays an HTML comment in Textile too: Redmine leaves it out
    /// of the page (checked on 5.0).
    func body(_ post: TrackerPost) -> String {
        post.body(limit: maxBodyCharacters, markerLine: post.hiddenMarker, attached: true, markup: markup)
    }

    /// A note on an existing issue, once across processes (`Upsert`): the note goes alone (a journal without
    /// details is one that blanking its notes deletes), the earliest note of the hunt stays and a later one is
    /// removed by the attach that made it; the attach whose note stays adds the files. A later run of the hunt
    /// edits the hunt's earliest note (saying what changed) and attaches only what is missing.
    func note(_ issue: Int, _ post: TrackerPost, _ session: TrackerSession)
        async throws(TrackerError) -> TrackerOutcome
    {
        let list = { () async throws(TrackerError) -> [Reconcile.Entry] in
            try await state(issue, post, session).own.map {
                Reconcile.Entry(id: $0.id, text: $0.notes, created: $0.created)
            }
        }
        return try await Upsert(
            list: list, body: { post, _ in normalized(body(post)) },
            create: { post, body async throws(TrackerError) -> String? in
                try await put(issue, ["notes": .text(body)], session) { () async throws(TrackerError) in
                    try await list().contains { post.isMine($0.text) }
                }
                return nil
            },
            edit: { _, earlier, body, _ async throws(TrackerError) in
                let request = HTTPRequest(
                    method: "PUT", url: url("/journals/\(earlier.id).json"),
                    body: try session.json(["journal": ["notes": body]]))
                let response = try await session.write(request, dryRunResponse: HTTPResponse(status: 204))
                if let response, !(200..<300).contains(response.status) {
                    throw session.failure(response, "editing note \(earlier.id)")
                }
            },
            remove: { journal async throws(TrackerError) in
                try await remove(journal, issue, post, session)
            },
            files: Upsert.Files(
                present: { () async throws(TrackerError) in
                    let now = try await state(issue, post, session)
                    return (now.files, now.date)
                },
                add: { files async throws(TrackerError) in try await attachFiles(files, issue, post, session) }),
            location: Redact.url(url("/issues/\(issue)"))
        ).run(post, session)
    }

    /// Removes this attach's note: blanking the notes of a journal without details deletes it (Redmine 5.0;
    /// the permission is "Edit own notes").
    func remove(_ journal: Int, _ issue: Int, _ post: TrackerPost, _ session: TrackerSession)
        async throws(TrackerError)
    {
        let request = HTTPRequest(
            method: "PUT", url: url("/journals/\(journal).json"), body: try session.json(["journal": ["notes": ""]]))
        let response = try await session.write(request, dryRunResponse: HTTPResponse(status: 204)) {
            () async throws(TrackerError) in
            try await !state(issue, post, session).own.contains { $0.id == journal }
        }
        if let response, !(200..<300).contains(response.status) {
            throw session.failure(response, "removing note \(journal), a duplicate of an earlier note of this hunt")
        }
    }

    /// Uploads `files` and adds them to the issue in one update. A copy that another attach added at the same
    /// time under the same name with a lower id stays; this attach's is removed.
    func attachFiles(_ files: [TrackerAttachment], _ issue: Int, _ post: TrackerPost, _ session: TrackerSession)
        async throws(TrackerError)
    {
        let uploads = try await upload(files, session)
        let ids = Set(uploads.compactMap { Int($0["token"]?.split(separator: ".").first ?? "") })
        try await put(issue, ["uploads": .uploads(uploads)], session) { () async throws(TrackerError) in
            let now = try await state(issue, post, session).files
            return ids.allSatisfy { id in now.contains { $0.id == id } }
        }
        guard !session.dryRun else { return }
        for file in Reconcile.duplicates(mine: ids, in: try await state(issue, post, session).files) {
            let request = HTTPRequest(method: "DELETE", url: url("/attachments/\(file.id).json"))
            let response = try await session.write(request, dryRunResponse: HTTPResponse(status: 204)) {
                () async throws(TrackerError) in
                try await !state(issue, post, session).files.contains { $0.id == file.id }
            }
            if let response, !(200..<300).contains(response.status), response.status != 404 {
                throw session.failure(response, "removing \(file.filename), a second copy of a file already attached")
            }
        }
    }

    /// A new issue in `project` with the files; a later run of the hunt finds its issue by the marker (`Upsert`:
    /// the earliest) and updates the description (saying what changed) and the subject, adding the files it
    /// lacks in the same update. Issues are not removed, so none is reconciled.
    func open(_ project: String, _ post: TrackerPost, _ session: TrackerSession)
        async throws(TrackerError) -> TrackerOutcome
    {
        var known: Set<Int> = []
        let list = { () async throws(TrackerError) -> [Reconcile.Entry] in
            let found = try await find(project, post, session)
            known = Set(found.map(\.id))
            return found.map {
                Reconcile.Entry(id: $0.id, text: $0.description, url: Redact.url(url("/issues/\($0.id)")))
            }
        }
        return try await Upsert(
            list: list, body: { post, _ in normalized(body(post)) },
            create: { post, body async throws(TrackerError) -> String? in
                let uploads = try await upload(post.attachments, session)
                var issue: [String: Field] = [
                    "project_id": .text(project), "subject": .text(String(post.title.prefix(255))),
                    "description": .text(body),
                ]
                if !uploads.isEmpty { issue["uploads"] = .uploads(uploads) }
                let request = HTTPRequest(
                    method: "POST", url: url("/issues.json"), body: try session.json(["issue": issue]))
                let response = try await session.write(
                    request, dryRunResponse: HTTPResponse(status: 201, body: Array(#"{"issue":{"id":0}}"#.utf8))
                ) { () async throws(TrackerError) in
                    !Set(try await find(project, post, session).map(\.id)).subtracting(known).isEmpty
                }
                guard let response else {
                    let id = try await find(project, post, session).first?.id ?? 0
                    return Redact.url(url("/issues/\(id)"))
                }
                guard response.status == 201 else {
                    throw session.failure(response, "creating an issue in '\(project)'")
                }
                let object = TrackerSession.object(response) as? [String: Any]
                return Redact.url(url("/issues/\((object?["issue"] as? [String: Any])?["id"] as? Int ?? 0)"))
            },
            edit: { post, earlier, body, files async throws(TrackerError) in
                let uploads = try await upload(files, session)
                var fields: [String: Field] = [
                    "description": .text(body), "subject": .text(String(post.title.prefix(255))),
                ]
                if !uploads.isEmpty { fields["uploads"] = .uploads(uploads) }
                try await put(earlier.id, fields, session) { () async throws(TrackerError) in false }
            },
            files: Upsert.Files(
                present: { () async throws(TrackerError) in
                    guard let id = known.min() else { return ([], nil) }
                    return (try await state(id, post, session).files, nil)
                },
                add: { _ in }, withThePost: true),
            location: Redact.url(url("/issues"))
        ).run(post, session)
    }

    /// The issues of `project` whose description carries this hunt's marker, newest first (Redmine's filter
    /// looks for the hunt's hex digits: a `:` or `=` would not match).
    func find(_ project: String, _ post: TrackerPost, _ session: TrackerSession) async throws(TrackerError) -> [(
        id: Int, description: String
    )] {
        var components = URLComponents(url: url("/issues.json"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "project_id", value: project), URLQueryItem(name: "status_id", value: "*"),
            URLQueryItem(name: "description", value: "~" + post.hunt),
            URLQueryItem(name: "sort", value: "id:desc"), URLQueryItem(name: "limit", value: "100"),
        ]
        let response = try await session.read(
            HTTPRequest(url: components.url!),
            dryRunResponse: HTTPResponse(status: 200, body: Array(#"{"issues":[]}"#.utf8)))
        guard response.status == 200 else { throw session.failure(response, "looking for this hunt's issue") }
        let issues = (TrackerSession.object(response) as? [String: Any])?["issues"] as? [[String: Any]] ?? []
        return issues.compactMap { issue in
            let description = normalized(issue["description"] as? String ?? "")
            guard let id = issue["id"] as? Int, post.isOwn(description) else { return nil }
            return (id, description)
        }
    }

    struct Journal {
        var id: Int
        var notes: String
        var created: Date?
    }

    /// An issue as `state` reads it.
    struct State {
        /// The notes of this hunt, in id order.
        var own: [Journal]
        var files: [Reconcile.File]
        /// The server's clock (its `Date` header), when it sends one.
        var date: Date?
    }

    /// The issue's notes of this hunt, and its attachments.
    func state(_ issue: Int, _ post: TrackerPost, _ session: TrackerSession) async throws(TrackerError) -> State {
        let response = try await session.read(
            HTTPRequest(url: url("/issues/\(issue).json?include=journals,attachments")),
            dryRunResponse: HTTPResponse(status: 200, body: Array(#"{"issue":{}}"#.utf8)))
        guard response.status == 200 else { throw session.failure(response, "reading issue #\(issue)") }
        let object = (TrackerSession.object(response) as? [String: Any])?["issue"] as? [String: Any] ?? [:]
        let journals = object["journals"] as? [[String: Any]] ?? []
        let own = journals.compactMap { journal -> Journal? in
            guard let id = journal["id"] as? Int, let notes = journal["notes"] as? String,
                post.isOwn(normalized(notes))
            else { return nil }
            return Journal(id: id, notes: normalized(notes), created: Reconcile.date(journal["created_on"]))
        }
        // The journal that added each file: its details name the attachment's id.
        var added: [Int: Int] = [:]
        for journal in journals {
            guard let id = journal["id"] as? Int else { continue }
            for detail in journal["details"] as? [[String: Any]] ?? []
            where detail["property"] as? String == "attachment" && detail["new_value"] is String {
                if let file = (detail["name"] as? String).flatMap(Int.init) { added[file] = min(added[file] ?? id, id) }
            }
        }
        let files = (object["attachments"] as? [[String: Any]] ?? []).compactMap { file -> Reconcile.File? in
            guard let id = file["id"] as? Int, let name = file["filename"] as? String else { return nil }
            return Reconcile.File(id: id, filename: name, added: added[id])
        }
        return State(
            own: own.sorted { $0.id < $1.id }, files: files, date: Reconcile.serverDate(response.headers))
    }

    enum Field: Encodable {
        case text(String)
        case uploads([[String: String]])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .uploads(let uploads): try container.encode(uploads)
            }
        }
    }

    /// `PUT /issues/N.json`; a lost answer is checked with `posted` before it is sent again.
    func put(
        _ issue: Int, _ fields: [String: Field], _ session: TrackerSession,
        posted: () async throws(TrackerError) -> Bool
    ) async throws(TrackerError) {
        let request = HTTPRequest(
            method: "PUT", url: url("/issues/\(issue).json"), body: try session.json(["issue": fields]))
        let response = try await session.write(request, dryRunResponse: HTTPResponse(status: 204), posted: posted)
        if let response, !(200..<300).contains(response.status) {
            throw session.failure(response, "updating issue #\(issue)")
        }
    }

    /// Uploads each file; returns the `uploads` entries. A lost answer only leaves an unused upload behind.
    func upload(_ files: [TrackerAttachment], _ session: TrackerSession) async throws(TrackerError) -> [[String:
        String]]
    {
        var uploads: [[String: String]] = []
        for file in files {
            var components = URLComponents(url: url("/uploads.json"), resolvingAgainstBaseURL: false)!
            components.queryItems = [URLQueryItem(name: "filename", value: file.filename)]
            let request = HTTPRequest(method: "POST", url: components.url!, body: .octetStream(file.bytes))
            let response = try await session.write(
                request,
                dryRunResponse: HTTPResponse(status: 201, body: Array(#"{"upload":{"token":"DRY-RUN"}}"#.utf8)))
            guard let response, response.status == 201,
                let token = ((TrackerSession.object(response) as? [String: Any])?["upload"] as? [String: Any])?["token"]
                    as? String, !token.isEmpty
            else {
                if let response, response.status != 201 {
                    throw session.failure(response, "uploading \(file.filename)")
                }
                throw session.failure("uploading \(file.filename): the answer had no upload token")
            }
            uploads.append([
                "token": token, "filename": file.filename, "content_type": file.contentType,
                "description": "memhunt findings",
            ])
        }
        return uploads
    }

    func normalized(_ text: String) -> String { text.replacingOccurrences(of: "\r\n", with: "\n") }
}
