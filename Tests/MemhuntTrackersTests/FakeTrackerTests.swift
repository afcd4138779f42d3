import Foundation
import MemhuntBasics
import MemhuntHTTP
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntTrackers

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// GitHub and a webhook against `Tests/Support/tracker_fake.py` on 127.0.0.1.
@Suite(.enabled(if: FaultServer.available, "needs python3"), .serialized) struct FakeTrackerTests {
    static let token = "ghp_never-shown-7f3a"

    init() { setenv("no_proxy", "127.0.0.1,localhost", 1) }

    func fake() async throws -> FaultServer {
        try await FaultServer(script: "tracker_fake.py", arguments: ["--token", Self.token])
    }

    func environment(_ server: FaultServer, token: String = token) -> [String: String] {
        ["GITHUB_TOKEN": token, "MEMHUNT_GITHUB_API_URL": "http://127.0.0.1:\(server.port)"]
    }

    func fast() -> HTTPConfiguration {
        var configuration = HTTPConfiguration()
        configuration.baseDelay = 0.01
        configuration.connectTimeout = 5
        configuration.idleTimeout = 5
        return configuration
    }

    func attach(
        _ target: String, _ server: FaultServer, document: FindingsDocument = sampleDocument(),
        options: AttachOptions = AttachOptions(), token: String = token
    ) async throws(TrackerError) -> TrackerOutcome {
        try await Attacher.attach(
            document, to: target, environment: environment(server, token: token), options: options,
            configuration: fast())
    }

    func state(_ server: FaultServer) async throws -> [String: Any] {
        let (data, _) = try await URLSession.shared.data(from: server.url("__state"))
        return try #require(JSONSerialization.jsonObject(with: data, options: []) as? [String: Any])
    }

    func comments(_ server: FaultServer, _ key: String) async throws -> [String] {
        (try await state(server)["comments"] as? [String: [String]])?[key] ?? []
    }

    func failure(_ body: () async throws(TrackerError) -> TrackerOutcome) async -> TrackerError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test func aCommentIsPostedOnceThenEditedThenAddedWithNew() async throws {
        let server = try await fake()
        defer { server.stop() }
        // Three earlier comments by others: the list is read across pages (2 per page).
        for n in 1...3 {
            _ = try await attach("github:acme/app#12", server, document: sampleDocument(app: "Other\(n)"))
        }
        let first = try await attach("github:acme/app#12", server)
        #expect(first.action == .posted)
        #expect(first.location.contains("/acme/app/issues/12#issuecomment-"))
        #expect(try await attach("github:acme/app#12", server).action == .unchanged)
        let edited = try await attach("github:acme/app#12", server, document: sampleDocument(title: "The hunt, again"))
        #expect(edited.action == .updated)
        var bodies = try await comments(server, "acme/app#12")
        #expect(bodies.count == 4)
        #expect(bodies.filter { $0.contains(sampleHunt) }.count == 1)
        _ = try await attach("github:acme/app#12", server, options: AttachOptions(forceNew: true))
        bodies = try await comments(server, "acme/app#12")
        #expect(bodies.filter { $0.contains(sampleHunt) }.count == 2)
    }

    /// GitHub's API, straight (not through memhunt).
    func github(_ server: FaultServer, _ method: String, _ path: String) async throws -> Any? {
        var request = URLRequest(url: server.url(path))
        request.httpMethod = method
        request.setValue("Bearer \(Self.token)", forHTTPHeaderField: "Authorization")
        request.setValue("test", forHTTPHeaderField: "User-Agent")
        let (data, _) = try await URLSession.shared.data(for: request)
        return try? JSONSerialization.jsonObject(with: data, options: [])
    }

    /// Two runs of one hunt leave one comment, the second run's edit saying what changed; a third attach of
    /// that run leaves it; `--new` adds another; a comment a person deleted is posted again.
    @Test func twoRunsOfOneHuntLeaveOneCommentThatSaysWhatChanged() async throws {
        let server = try await fake()
        defer { server.stop() }
        _ = try await attach("github:acme/app#20", server, document: sampleDocument(app: "Other"))
        #expect(try await attach("github:acme/app#20", server).action == .posted)
        #expect(try await attach("github:acme/app#20", server, document: nextRun()).action == .updated)
        #expect(try await attach("github:acme/app#20", server, document: nextRun()).action == .unchanged)
        var bodies = try await comments(server, "acme/app#20")
        let mine = bodies.filter { $0.contains(sampleHunt) }
        #expect(bodies.count == 2 && mine.count == 1)
        #expect(
            mine.first?.hasPrefix(
                "**memhunt: The hunt in JustSend: 2 findings (run 1b2c3d4e)**\n\n\(nextRunChanges)\n\n") == true)
        #expect(mine.first?.contains(" run=1b2c3d4e codes=b.high,c.mid post=") == true)
        let requests = try #require(try await state(server)["requests"] as? [String])
        #expect(requests.filter { $0 == "POST /repos/acme/app/issues/20/comments" }.count == 2)
        #expect(requests.filter { $0.hasPrefix("PATCH /repos/acme/app/issues/comments/") }.count == 1)

        // A person deletes the hunt's comment: the next run posts a new one, with nothing to compare with.
        let listed = try #require(
            try await github(server, "GET", "repos/acme/app/issues/20/comments?per_page=100") as? [[String: Any]])
        let id = try #require(listed.first { ($0["body"] as? String)?.contains(sampleHunt) == true }?["id"] as? Int)
        _ = try await github(server, "DELETE", "repos/acme/app/issues/comments/\(id)")
        #expect(try await comments(server, "acme/app#20").count == 1)
        #expect(try await attach("github:acme/app#20", server, document: nextRun()).action == .posted)
        bodies = try await comments(server, "acme/app#20").filter { $0.contains(sampleHunt) }
        #expect(bodies.count == 1 && bodies.first?.contains("Since run") == false)

        #expect(
            try await attach("github:acme/app#20", server, document: nextRun(), options: AttachOptions(forceNew: true))
                .action == .posted)
        bodies = try await comments(server, "acme/app#20")
        #expect(bodies.filter { $0.contains(sampleHunt) }.count == 2)
    }

    /// Ten attaches of one run at the same moment, each listing before any posts (the fake's "race" repository
    /// lists a comment only a second after it was made, as a lagging list does): one comment stays, the earliest;
    /// each of the others removed its own once it showed.
    @Test func tenAttachesAtOnceLeaveOneComment() async throws {
        let server = try await fake()
        defer { server.stop() }
        let actions = try await concurrently(10, environment(server)) { "github:acme/race#7" }
        #expect(actions.filter { $0 == .posted }.count == 1)
        #expect(actions.filter { $0 == .alreadyPosted || $0 == .unchanged }.count == 9)
        let bodies = try await comments(server, "acme/race#7")
        #expect(bodies.count == 1)
        #expect(bodies.first?.contains(sampleHunt) == true)
        let requests = try #require(try await state(server)["requests"] as? [String])
        // Each attach that posted a later comment removed it.
        let removed = actions.filter { $0 == .alreadyPosted }.count
        #expect(requests.filter { $0 == "POST /repos/acme/race/issues/7/comments" }.count == 1 + removed)
        #expect(requests.filter { $0.hasPrefix("DELETE /repos/acme/race/issues/comments/") }.count == removed)
        #expect(try await attach("github:acme/race#7", server).action == .unchanged)
    }

    /// Two different runs of one hunt attached at the same moment (the "race" repository: neither sees the other's
    /// comment before posting): one comment stays, and the attach whose comment was removed puts its own
    /// findings into it, as a run after it would, and says `updated`. It said `already posted`, and its run's
    /// findings were nowhere.
    @Test func twoRunsAtOnceLeaveOneCommentWithBothRunsAccountedFor() async throws {
        let server = try await fake()
        defer { server.stop() }
        let environment = environment(server)
        let configuration = fast()
        async let first = Attacher.attach(
            sampleDocument(), to: "github:acme/race#8", environment: environment, options: AttachOptions(),
            configuration: configuration)
        async let second = Attacher.attach(
            nextRun(), to: "github:acme/race#8", environment: environment, options: AttachOptions(),
            configuration: configuration)
        let (a, b) = try await (first, second)
        #expect(Set([a.action, b.action]) == [.posted, .updated], "\(a.action), \(b.action)")
        let bodies = try await comments(server, "acme/race#8")
        #expect(bodies.count == 1)
        // The comment holds the findings of the run that updated it, and what changed since the other.
        let (run, changes) =
            a.action == .updated
            ? ("0a1b2c3d", "Since run 1b2c3d4e: 1 finding resolved (c.mid), 1 new (a.low).")
            : ("1b2c3d4e", nextRunChanges)
        #expect(bodies.first?.contains(" run=\(run) ") == true, "\(bodies)")
        #expect(bodies.first?.contains("\n\(changes)\n") == true, "\(bodies)")
        let requests = try #require(try await state(server)["requests"] as? [String])
        #expect(requests.filter { $0 == "POST /repos/acme/race/issues/8/comments" }.count == 2)
        #expect(requests.filter { $0.hasPrefix("DELETE /repos/acme/race/issues/comments/") }.count == 1)
        #expect(requests.filter { $0.hasPrefix("PATCH /repos/acme/race/issues/comments/") }.count == 1)
    }

    /// The same, where the token may comment but not edit: the attach whose comment was removed fails, and says
    /// that its comment was removed as another's duplicate and what then failed; the other run's comment stays.
    @Test func twoRunsAtOnceWhereEditsAreRefusedSayWhatHappened() async throws {
        let server = try await fake()
        defer { server.stop() }
        let environment = environment(server)
        let configuration = fast()
        func attach(_ document: FindingsDocument) async -> Result<TrackerOutcome, TrackerError> {
            do {
                return .success(
                    try await Attacher.attach(
                        document, to: "github:acme/racelocked#9", environment: environment, options: AttachOptions(),
                        configuration: configuration))
            } catch {
                return .failure(error)
            }
        }
        async let first = attach(sampleDocument())
        async let second = attach(nextRun())
        let results = await [first, second]
        let posted = results.compactMap { try? $0.get() }
        let failed = results.compactMap { result -> TrackerError? in
            if case .failure(let error) = result { return error }
            return nil
        }
        #expect(posted.map(\.action) == [.posted], "\(results)")
        let error = try #require(failed.first)
        #expect(
            error.message.hasPrefix(
                "another attach of this hunt posted at the same moment, and its post stayed (http://127.0.0.1:"),
            "\(error.message)")
        #expect(
            error.message.hasSuffix(
                "this one's was removed, and then reading or editing the one that stayed failed: editing comment "
                    + "1001: HTTP 403 Forbidden: Resource not accessible by integration"),
            "\(error.message)")
        #expect(try await comments(server, "acme/racelocked#9").count == 1)
    }

    @Test func aLostAnswerIsCheckedNotPostedTwice() async throws {
        let server = try await fake()
        defer { server.stop() }
        let outcome = try await attach("github:acme/lost#3", server)
        #expect(outcome.action == .posted)
        #expect(try await comments(server, "acme/lost#3").count == 1)
        let requests = try #require(try await state(server)["requests"] as? [String])
        #expect(requests.filter { $0 == "POST /repos/acme/lost/issues/3/comments" }.count == 1)
    }

    @Test func rateLimitsAreWaitedOnWhenTheyAskAndReportedWhenTheyCannot() async throws {
        let server = try await fake()
        defer { server.stop() }
        #expect(try await attach("github:acme/limited#1", server).action == .posted)
        #expect(try await comments(server, "acme/limited#1").count == 1)
        #expect(try await attach("github:acme/secondary#1", server).action == .posted)
        #expect(try await comments(server, "acme/secondary#1").count == 1)
        let primary = try #require(
            await failure { () async throws(TrackerError) in try await attach("github:acme/primary#1", server) })
        #expect(primary.description.hasPrefix("github github:acme/primary#1: commenting on #1: HTTP 403"))
        #expect(primary.description.contains("API rate limit exceeded"))
    }

    @Test func refusalsNameTheTrackerTheTargetAndItsMessage() async throws {
        let server = try await fake()
        defer { server.stop() }
        let unauthorized = try #require(
            await failure { () async throws(TrackerError) in
                try await attach("github:acme/app#1", server, token: "wrong-token-123")
            })
        #expect(unauthorized.description.contains("HTTP 401") && unauthorized.description.contains("Bad credentials"))
        #expect(!unauthorized.description.contains("wrong-token-123"))
        let missing = try #require(
            await failure { () async throws(TrackerError) in try await attach("github:acme/missing#1", server) })
        #expect(missing.description.contains("HTTP 404") && missing.description.contains("Not Found"))
        let big = try #require(
            await failure { () async throws(TrackerError) in try await attach("github:acme/big#1", server) })
        #expect(big.description.contains("HTTP 413"))
        // A tracker whose limit is lower than memhunt knows: GitHub's own 422 message comes through.
        let strict = try #require(
            await failure { () async throws(TrackerError) in try await attach("github:acme/strict#1", server) })
        #expect(strict.description.contains("HTTP 422"))
        #expect(strict.description.contains("Validation Failed; body is too long (maximum is 200 characters)"))
        for error in [unauthorized, missing, big, strict] { #expect(!error.description.contains(Self.token)) }
    }

    @Test func aNewIssueIsLabelledAndFoundAgain() async throws {
        let server = try await fake()
        defer { server.stop() }
        #expect(try await attach("github:acme/app", server).action == .posted)
        #expect(
            try await attach("github:acme/app", server, document: sampleDocument(title: "The hunt, again")).action
                == .updated)
        let issues = try #require((try await state(server)["issues"] as? [String: [[String: Any]]])?["acme/app"])
        #expect(issues.count == 1)
        #expect(issues[0]["labels"] as? [String] == ["memhunt"])
        #expect(
            (issues[0]["title"] as? String)?.hasPrefix("memhunt: The hunt in JustSend: 2 findings (run 0a1b2c3d)")
                == true)
    }

    @Test func aWebhookGetsTheRedactedDocumentSigned() async throws {
        let server = try await fake()
        defer { server.stop() }
        let document = sampleDocument(detail: "by dave@corp.example")
        let outcome = try await Attacher.attach(
            document, to: "webhook:" + server.url("hook").absoluteString,
            environment: ["MEMHUNT_WEBHOOK_SECRET": "s3cret"], options: AttachOptions(), configuration: fast())
        #expect(outcome.action == .posted)
        let (data, _) = try await URLSession.shared.data(from: server.url("__hooks"))
        let hooks = try #require(JSONSerialization.jsonObject(with: data, options: []) as? [[String: Any]])
        #expect(hooks.count == 1)
        let headers = try #require(hooks[0]["headers"] as? [String: String])
        let body = try #require(hooks[0]["body"] as? String)
        #expect(!body.contains("dave@corp.example") && body.contains("<email-1>"))
        let signature = headers.first { $0.key.lowercased() == "x-memhunt-signature-256" }?.value
        #expect(signature == "sha256=" + HMACSHA256.hex(key: Array("s3cret".utf8), message: Array(body.utf8)))
        #expect(headers.first { $0.key.lowercased() == "webhook-id" }?.value.hasPrefix("memhunt-0a1b2c3d-run-") == true)
        #expect(try FindingsDocument.decode(Array(body.utf8)).run.id == "0a1b2c3d-run")
    }
}

/// GitLab against `Tests/Support/tracker_fake.py`.
@Suite(.enabled(if: FaultServer.available, "needs python3")) struct GitLabFakeTests {
    static let token = "glpat-never-shown-2b9e"

    init() { setenv("no_proxy", "127.0.0.1,localhost", 1) }

    func attach(
        _ target: String, _ server: FaultServer, document: FindingsDocument = sampleDocument(),
        options: AttachOptions = AttachOptions()
    ) async throws(TrackerError) -> TrackerOutcome {
        var configuration = HTTPConfiguration()
        configuration.baseDelay = 0.01
        return try await Attacher.attach(
            document, to: target,
            environment: ["GITLAB_TOKEN": Self.token, "MEMHUNT_GITLAB_URL": "http://127.0.0.1:\(server.port)"],
            options: options, configuration: configuration)
    }

    func state(_ server: FaultServer) async throws -> [String: Any] {
        let data: Data = try await URLSession.shared.data(from: server.url("__state")).0
        return try #require(JSONSerialization.jsonObject(with: data, options: []) as? [String: Any])
    }

    /// Ten attaches at the same moment (the "race" project's list lags a second): one note stays. The
    /// removed notes' uploads stay in the project, linked from nothing.
    @Test func tenAttachesAtOnceLeaveOneNote() async throws {
        let server = try await FaultServer(script: "tracker_fake.py", arguments: ["--token", Self.token])
        defer { server.stop() }
        let environment = ["GITLAB_TOKEN": Self.token, "MEMHUNT_GITLAB_URL": "http://127.0.0.1:\(server.port)"]
        let actions = try await concurrently(10, environment) { "gitlab:group/race#2" }
        #expect(actions.filter { $0 == .posted }.count == 1)
        // An attach that started late finds the note; the others posted and removed theirs.
        let removed = actions.filter { $0 == .alreadyPosted }.count
        #expect(removed + actions.filter { $0 == .unchanged }.count == 9)
        let state = try await state(server)
        let notes = try #require((state["notes"] as? [String: [String]])?["group/race#2"])
        #expect(notes.count == 1)
        #expect(notes.first?.contains("**Attachments:** [memhunt-0a1b2c3d.md](/uploads/") == true)
        #expect((state["uploads"] as? [String])?.count == 2 * (1 + removed))
        #expect(try await attach("gitlab:group/race#2", server).action == .unchanged)
    }

    @Test func aNoteLinksItsUploadsAndARerunEditsIt() async throws {
        let server = try await FaultServer(script: "tracker_fake.py", arguments: ["--token", Self.token])
        defer { server.stop() }
        for n in 1...3 {
            _ = try await attach("gitlab:group/app#4", server, document: sampleDocument(app: "Other\(n)"))
        }
        #expect(try await attach("gitlab:group/app#4", server).action == .posted)
        #expect(try await attach("gitlab:group/app#4", server).action == .unchanged)
        #expect(
            try await attach("gitlab:group/app#4", server, document: sampleDocument(title: "Again")).action == .updated)
        let state = try await state(server)
        let notes = try #require((state["notes"] as? [String: [String]])?["group/app#4"])
        let mine = notes.filter { $0.contains(sampleHunt) }
        #expect(notes.count == 4 && mine.count == 1)
        #expect(mine[0].contains("**Attachments:** [memhunt-0a1b2c3d.md](/uploads/"))
        #expect(mine[0].contains("[memhunt-0a1b2c3d.html](/uploads/"))
        // Four posts of 2 files each; the re-runs uploaded nothing.
        #expect((state["uploads"] as? [String])?.count == 8)
    }

    /// Two runs of one hunt leave one note, the second run's edit saying what changed and linking its own
    /// files, the only ones it uploaded; `--new` adds a note with its own uploads.
    @Test func twoRunsOfOneHuntLeaveOneNoteAndUploadOnlyTheNewFiles() async throws {
        let server = try await FaultServer(script: "tracker_fake.py", arguments: ["--token", Self.token])
        defer { server.stop() }
        #expect(try await attach("gitlab:group/app#6", server).action == .posted)
        #expect((try await state(server)["uploads"] as? [String])?.count == 2)
        #expect(try await attach("gitlab:group/app#6", server, document: nextRun()).action == .updated)
        #expect(try await attach("gitlab:group/app#6", server, document: nextRun()).action == .unchanged)
        let state = try await state(server)
        #expect(
            (state["uploads"] as? [String]) == [
                "memhunt-0a1b2c3d.md", "memhunt-0a1b2c3d.html", "memhunt-1b2c3d4e.md", "memhunt-1b2c3d4e.html",
            ])
        let notes = try #require((state["notes"] as? [String: [String]])?["group/app#6"])
        #expect(notes.count == 1)
        let note = try #require(notes.first)
        #expect(note.hasPrefix("**memhunt: The hunt in JustSend: 2 findings (run 1b2c3d4e)**\n\n\(nextRunChanges)\n\n"))
        #expect(note.contains("**Attachments:** [memhunt-1b2c3d4e.md](/uploads/"))
        #expect(note.contains("[memhunt-1b2c3d4e.html](/uploads/") && !note.contains("memhunt-0a1b2c3d.md"))
        #expect(
            try await attach("gitlab:group/app#6", server, document: nextRun(), options: AttachOptions(forceNew: true))
                .action == .posted)
        let after = try await self.state(server)
        #expect((after["notes"] as? [String: [String]])?["group/app#6"]?.count == 2)
        #expect((after["uploads"] as? [String])?.count == 6)
    }

    @Test func lostAnswersRateLimitsAndRefusals() async throws {
        let server = try await FaultServer(script: "tracker_fake.py", arguments: ["--token", Self.token])
        defer { server.stop() }
        #expect(try await attach("gitlab:group/lost#1", server).action == .posted)
        #expect(try await attach("gitlab:group/limited#1", server).action == .posted)
        let notes = try #require(try await state(server)["notes"] as? [String: [String]])
        #expect(notes["group/lost#1"]?.count == 1)
        #expect(notes["group/limited#1"]?.count == 1)
        do {
            _ = try await attach("gitlab:group/missing#1", server)
            Issue.record("expected a failure")
        } catch {
            #expect(
                error.description
                    == "gitlab gitlab:group/missing#1: listing the notes of #1: HTTP 404 Not Found: 404 Project Not Found"
            )
        }
        do {
            _ = try await attach("gitlab:group/big#1", server)
            Issue.record("expected a failure")
        } catch {
            #expect(error.description.contains("uploading memhunt-0a1b2c3d.md: HTTP 413"))
            #expect(!error.description.contains(Self.token))
        }
        // A wait longer than memhunt's cap (30 s) is not made: the write is not sent again, and the error
        // says how long GitLab asked to wait.
        let started = Date()
        do {
            _ = try await attach("gitlab:group/throttled#1", server)
            Issue.record("expected a failure")
        } catch {
            #expect(error.description.contains("uploading memhunt-0a1b2c3d.md: HTTP 429 Too Many Requests"), "\(error)")
            #expect(
                error.description.hasSuffix(
                    "(the tracker asked for a wait of 3600 s, longer than the 30 s memhunt waits)"), "\(error)")
        }
        // Three retries 30 s apart would take 90 s; bound well below that, well above a starved test pool's delays.
        #expect(Date().timeIntervalSince(started) < 60)
    }
}

/// Jira (v3 ADF and v2 wiki markup) against `Tests/Support/tracker_fake.py`.
@Suite(.enabled(if: FaultServer.available, "needs python3")) struct JiraFakeTests {
    static let token = "jira-never-shown-8d1f"

    init() { setenv("no_proxy", "127.0.0.1,localhost", 1) }

    func attach(
        _ target: String, _ server: FaultServer, version: String = "3",
        document: FindingsDocument = sampleDocument(), options: AttachOptions = AttachOptions()
    ) async throws(TrackerError) -> TrackerOutcome {
        var configuration = HTTPConfiguration()
        configuration.baseDelay = 0.01
        return try await Attacher.attach(
            document, to: target,
            environment: [
                "JIRA_EMAIL": "dev@example.com", "JIRA_API_TOKEN": Self.token, "MEMHUNT_JIRA_API": version,
                "MEMHUNT_JIRA_URL": "http://127.0.0.1:\(server.port)",
            ], options: options, configuration: configuration)
    }

    func issue(_ server: FaultServer, _ key: String) async throws -> [String: Any] {
        let data: Data = try await URLSession.shared.data(from: server.url("__state")).0
        let state = try #require(JSONSerialization.jsonObject(with: data, options: []) as? [String: Any])
        return try #require((state["jira"] as? [String: Any])?[key] as? [String: Any])
    }

    @Test func aCommentInEitherFormatWithTheReportsAttachedOnce() async throws {
        let server = try await FaultServer(script: "tracker_fake.py", arguments: ["--token", Self.token])
        defer { server.stop() }
        for version in ["3", "2"] {
            let key = "MEM-\(version)"
            for n in 1...3 {
                _ = try await attach("jira:\(key)", server, version: version, document: sampleDocument(app: "O\(n)"))
            }
            #expect(try await attach("jira:\(key)", server, version: version).action == .posted)
            #expect(try await attach("jira:\(key)", server, version: version).action == .unchanged)
            #expect(
                try await attach("jira:\(key)", server, version: version, document: sampleDocument(title: "Again"))
                    .action == .updated)
            let state = try await issue(server, key)
            let comments = try #require(state["comments"] as? [[String: Any]])
            #expect(comments.count == 4)
            let mine = comments.filter { JiraTracker.flatten($0["body"]).contains(sampleHunt) }
            #expect(mine.count == 1)
            if version == "3" {
                #expect((mine.first?["body"] as? [String: Any])?["type"] as? String == "doc")
            } else {
                #expect((mine.first?["body"] as? String)?.hasPrefix("h2. memhunt: Again in JustSend") == true)
            }
            let attachments = try #require(state["attachments"] as? [String])
            #expect(
                attachments.filter { $0.hasPrefix("memhunt-0a1b2c3d.") }.sorted() == [
                    "memhunt-0a1b2c3d.html", "memhunt-0a1b2c3d.md",
                ])
        }
    }

    /// Two runs of one hunt, in either format, leave one comment, the second run's edit saying what changed;
    /// the second run attached only its own files; `--new` adds another comment. The v3 body is ADF that
    /// `Tests/Support/validate_adf.py` accepts (the Jira OpenAPI subset types a comment's body only as ADF, by
    /// name: the validator checks the public ADF specification's structure); the v2 body is wiki markup.
    @Test func twoRunsOfOneHuntLeaveOneCommentThatSaysWhatChanged() async throws {
        let server = try await FaultServer(script: "tracker_fake.py", arguments: ["--token", Self.token])
        defer { server.stop() }
        for version in ["3", "2"] {
            let key = "HUNT-\(version)"
            #expect(try await attach("jira:\(key)", server, version: version).action == .posted)
            #expect(try await attach("jira:\(key)", server, version: version, document: nextRun()).action == .updated)
            #expect(
                try await attach("jira:\(key)", server, version: version, document: nextRun()).action == .unchanged)
            var state = try await issue(server, key)
            let comments = try #require(state["comments"] as? [[String: Any]])
            #expect(comments.count == 1)
            let body = comments.first?["body"]
            let text = JiraTracker.flatten(body)
            #expect(text.contains("\n\(nextRunChanges)\n"))
            #expect(PostSummary.codes(in: body) == ["b.high", "c.mid"])
            let marker = try #require(text.split(separator: "\n").last.map(String.init))
            let hunt = try Attacher.post(sampleDocument(), options: AttachOptions()).hunt
            #expect(
                marker.hasPrefix(
                    version == "3"
                        ? "memhunt:hunt=\(hunt) run=1b2c3d4e post="
                        : "{color:#97a0af}memhunt:hunt=\(hunt) run=1b2c3d4e post="))
            #expect(!text.contains("codes="))
            #expect(
                (state["attachments"] as? [String]) == [
                    "memhunt-0a1b2c3d.md", "memhunt-0a1b2c3d.html", "memhunt-1b2c3d4e.md", "memhunt-1b2c3d4e.html",
                ])
            if version == "3" {
                let data = try JSONSerialization.data(withJSONObject: try #require(body), options: [.sortedKeys])
                let directory = try TemporaryDirectory()
                defer { directory.remove() }
                try directory.write("body.json", Array(data))
                let python = try #require(Tool.which("python3"), "python3 is needed: run scripts/setup")
                let checked = try await Tool.run(
                    python, ["Tests/Support/validate_adf.py", directory.path + "/body.json"])
                #expect(checked.status == 0 && checked.stdout == "ok\n", "\(checked.stdout)")
                let json = String(decoding: data, as: UTF8.self)
                #expect(json.contains(#"{"attrs":{"color":"red","text":"CRITICAL"},"type":"status"}"#))
                #expect(json.contains(#"{"attrs":{"color":"yellow","text":"WARNING"},"type":"status"}"#))
                #expect(json.contains(#""attrs":{"panelType":"error"}"#))
                #expect(
                    json.contains(
                        #"{"attrs":{"level":2},"content":[{"text":"memhunt: The hunt in JustSend: 2 findings (run 1b2c3d4e)","type":"text"}],"type":"heading"}"#
                    ))
            } else {
                let wiki = try #require(body as? String)
                #expect(
                    wiki.hasPrefix(
                        """
                        h2. memhunt: The hunt in JustSend: 2 findings (run 1b2c3d4e)

                        \(nextRunChanges)

                        ||Severity||Code||Finding||Signature||
                        |{color:#de350b}*critical*{color}|{{b.high}}|High one|{{8ba6448ba014c362}}|
                        |{color:#ff991f}*warning*{color}|{{c.mid}}|Middle one|{{bb5fe7f0388dba5a}}|

                        {panel:title=b.high: High one|borderColor=#de350b}
                        detail
                        {panel}
                        """))
                #expect(wiki.contains("The full report is attached: [^memhunt-1b2c3d4e.md], [^memhunt-1b2c3d4e.html]."))
            }
            #expect(
                try await attach(
                    "jira:\(key)", server, version: version, document: nextRun(), options: AttachOptions(forceNew: true)
                )
                .action == .posted)
            state = try await issue(server, key)
            #expect((state["comments"] as? [[String: Any]])?.count == 2)
        }
    }

    /// Ten attaches at the same moment (RACE-* keys list a comment a second late): one comment stays, and the
    /// reports are attached once. The attach whose comment stayed adds them; another attach that found them still
    /// missing once the comment had settled (a loaded machine) adds them instead and says it updated the post.
    @Test func tenAttachesAtOnceLeaveOneCommentAndOneSetOfFiles() async throws {
        let server = try await FaultServer(script: "tracker_fake.py", arguments: ["--token", Self.token])
        defer { server.stop() }
        let environment = [
            "JIRA_EMAIL": "dev@example.com", "JIRA_API_TOKEN": Self.token,
            "MEMHUNT_JIRA_URL": "http://127.0.0.1:\(server.port)",
        ]
        let actions = try await concurrently(10, environment) { "jira:RACE-1" }
        #expect(actions.filter { $0 == .posted }.count == 1)
        #expect(
            actions.filter { $0 == .alreadyPosted || $0 == .unchanged || $0 == .updated }.count == 9, "\(actions)")
        let state = try await issue(server, "RACE-1")
        #expect((state["comments"] as? [[String: Any]])?.count == 1)
        #expect(
            (state["attachments"] as? [String])?.sorted() == ["memhunt-0a1b2c3d.html", "memhunt-0a1b2c3d.md"])
        #expect(try await attach("jira:RACE-1", server).action == .unchanged)
    }

    @Test func refusalsCarryJirasErrorMessages() async throws {
        let server = try await FaultServer(script: "tracker_fake.py", arguments: ["--token", Self.token])
        defer { server.stop() }
        #expect(try await attach("jira:LIM-1", server).action == .posted)
        do {
            _ = try await attach("jira:NOPE-1", server)
            Issue.record("expected a failure")
        } catch {
            #expect(
                error.description
                    == "jira jira:NOPE-1: listing the comments of NOPE-1: HTTP 404 Not Found: "
                    + "Issue does not exist or you do not have permission to see it.")
        }
        do {
            _ = try await attach("jira:BIG-1", server)
            Issue.record("expected a failure")
        } catch {
            #expect(error.description.contains("attaching the reports: HTTP 413"))
            #expect(error.description.contains("The attachment is too large."))
            #expect(!error.description.contains(Self.token))
        }
    }
}

/// The sample hunt's marker, as every post of it carries it.
let sampleHunt = "memhunt:hunt=" + (try! Attacher.post(sampleDocument(), options: AttachOptions())).hunt + " "

/// `count` attaches to `target()` at the same moment, each with its own session (as separate processes have),
/// taking `documents` in turn (the sample document by default); their outcomes.
func concurrently(
    _ count: Int, _ environment: [String: String], documents: [FindingsDocument] = [sampleDocument()],
    _ target: @escaping @Sendable () -> String
) async throws -> [TrackerOutcome.Action] {
    var configuration = HTTPConfiguration()
    configuration.baseDelay = 0.01
    let fast = configuration
    return try await withThrowingTaskGroup(of: TrackerOutcome.Action.self) { group in
        for index in 0..<count {
            let document = documents[index % documents.count]
            group.addTask {
                try await Attacher.attach(
                    document, to: target(), environment: environment, options: AttachOptions(),
                    configuration: fast
                ).action
            }
        }
        var actions: [TrackerOutcome.Action] = []
        for try await action in group { actions.append(action) }
        return actions
    }
}

/// Ten attaches of two runs of one hunt (five of each) at the same moment, 20 trials on each fake's racing issues (their
/// lists lag a second): one post stays, and every attach ends without an error. An attach that found the hunt's
/// post edited the latest it listed, which could be a duplicate its maker was removing: "editing comment N:
/// HTTP 404" in 2 of 10 trials, and on Redmine a second note. The three fakes run side by side (a server each):
/// serialized, the 60 trials took seven minutes of a loaded CI run.
@Suite(.enabled(if: FaultServer.available, "needs python3")) struct TwoRunsRaceTests {
    static let token = "race-two-runs-5d1e"

    init() { setenv("no_proxy", "127.0.0.1,localhost", 1) }

    /// A fake tracker's scheme, its environment, a racing issue's target, and the posts that issue holds.
    struct Fake: Sendable, CustomStringConvertible {
        var scheme: String
        var description: String { scheme }

        func environment(_ port: Int) -> [String: String] {
            let url = "http://127.0.0.1:\(port)"
            switch scheme {
            case "github": return ["GITHUB_TOKEN": TwoRunsRaceTests.token, "MEMHUNT_GITHUB_API_URL": url]
            case "gitlab": return ["GITLAB_TOKEN": TwoRunsRaceTests.token, "MEMHUNT_GITLAB_URL": url]
            default:
                return [
                    "JIRA_EMAIL": "dev@example.com", "JIRA_API_TOKEN": TwoRunsRaceTests.token, "MEMHUNT_JIRA_URL": url,
                ]
            }
        }

        func target(_ trial: Int) -> String {
            switch scheme {
            case "github": "github:acme/race#\(100 + trial)"
            case "gitlab": "gitlab:group/race#\(100 + trial)"
            default: "jira:RACE-\(100 + trial)"
            }
        }

        func posts(_ state: [String: Any], _ trial: Int) -> Int {
            switch scheme {
            case "github": (state["comments"] as? [String: [String]])?["acme/race#\(100 + trial)"]?.count ?? 0
            case "gitlab": (state["notes"] as? [String: [String]])?["group/race#\(100 + trial)"]?.count ?? 0
            default:
                (((state["jira"] as? [String: Any])?["RACE-\(100 + trial)"] as? [String: Any])?["comments"]
                    as? [Any])?.count ?? 0
            }
        }
    }

    @Test(arguments: [Fake(scheme: "github"), Fake(scheme: "gitlab"), Fake(scheme: "jira")])
    func tenAttachesOfTwoRunsLeaveOnePost(_ fake: Fake) async throws {
        let server = try await FaultServer(script: "tracker_fake.py", arguments: ["--token", Self.token])
        defer { server.stop() }
        for trial in 0..<20 {
            let target = fake.target(trial)
            let actions = try await concurrently(
                10, fake.environment(server.port), documents: [sampleDocument(), nextRun()]
            ) { target }
            #expect(actions.filter { $0 == .posted }.count == 1, "trial \(trial): \(actions)")
            let (data, _) = try await URLSession.shared.data(from: server.url("__state"))
            let state = try #require(JSONSerialization.jsonObject(with: data, options: []) as? [String: Any])
            #expect(fake.posts(state, trial) == 1, "trial \(trial): \(actions)")
        }
    }
}
