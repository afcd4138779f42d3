import Foundation
import MemhuntHTTP
import MemhuntReports
import MemhuntTestSupport
import MemhuntTrackers
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request to a fake, as a client that is not memhunt sends it: its status and JSON body.
func exchange(
    _ server: FaultServer, _ method: String, _ path: String, body: Data?, headers: [String: String]
) async throws -> (status: Int, json: Any?) {
    var request = URLRequest(url: server.url(path))
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    return (status, data.isEmpty ? nil : try? JSONSerialization.jsonObject(with: data))
}

/// Jira's requests held to Atlassian's OpenAPI description of the v3 API (`Tests/Support/openapi`), through
/// `tracker_fake.py --jira-openapi`: every request memhunt makes is checked by openapi-core, and so is every
/// answer of the fake (status, body, Jira's error shape).
@Suite(
    .enabled(if: FaultServer.available, "needs python3"),
    .enabled(if: Tool.pythonHas("openapi_core"), "needs openapi-core from PyPI (scripts/setup --tests installs it)"))
struct JiraContractTests {
    static let token = "jira-contract-5c2e"
    static let description = Repo.root + "/Tests/Support/openapi/jira-cloud-v3-subset.json"

    func fake() async throws -> FaultServer {
        try await FaultServer(
            script: "tracker_fake.py", arguments: ["--token", Self.token, "--jira-openapi", Self.description])
    }

    func attach(_ target: String, _ server: FaultServer, document: FindingsDocument = sampleDocument())
        async throws(TrackerError) -> TrackerOutcome
    {
        var configuration = HTTPConfiguration()
        configuration.baseDelay = 0.01
        return try await Attacher.attach(
            document, to: target,
            environment: [
                "JIRA_EMAIL": "dev@example.com", "JIRA_API_TOKEN": Self.token, "MEMHUNT_JIRA_API": "3",
                "MEMHUNT_JIRA_URL": "http://127.0.0.1:\(server.port)",
            ], options: AttachOptions(), configuration: configuration)
    }

    func contract(_ server: FaultServer) async throws -> (checked: [String], unchecked: [String], violations: [String])
    {
        let data: Data = try await URLSession.shared.data(from: server.url("__state")).0
        let state = try #require(JSONSerialization.jsonObject(with: data, options: []) as? [String: Any])
        let contract = try #require(state["contract"] as? [String: [String]])
        return (contract["checked"] ?? [], contract["unchecked"] ?? [], contract["violations"] ?? [])
    }

    /// Comment add, list and update, attachment upload and lookup, a re-run, a rate limit, a missing issue and a
    /// refused upload: not one request or answer the description refuses.
    @Test func everyRequestAndAnswerMeetsTheDescription() async throws {
        let server = try await fake()
        defer { server.stop() }
        #expect(try await attach("jira:MEM-1", server).action == .posted)
        #expect(try await attach("jira:MEM-1", server).action == .unchanged)
        #expect(try await attach("jira:MEM-1", server, document: sampleDocument(title: "Again")).action == .updated)
        #expect(try await attach("jira:LIM-1", server).action == .posted)
        await #expect(throws: TrackerError.self) { _ = try await attach("jira:NOPE-1", server) }
        await #expect(throws: TrackerError.self) { _ = try await attach("jira:BIG-1", server) }
        let contract = try await contract(server)
        #expect(contract.violations == [])
        #expect(Set(contract.checked) == ["addAttachment", "addComment", "getComments", "getIssue", "updateComment"])
        #expect(contract.unchecked == [])
    }

    /// The same validator refuses a body the description refuses: a comment whose `properties` is not an array,
    /// one that writes the read-only `id`, a visibility of an unknown type, an upload without the XSRF header or
    /// with its part misnamed. Each is answered 400 in Jira's shape, and listed.
    @Test func aBodyTheDescriptionRefusesIsRefused() async throws {
        let server = try await fake()
        defer { server.stop() }
        let auth = "Basic " + Data("dev@example.com:\(Self.token)".utf8).base64EncodedString()
        let json = ["Authorization": auth, "Content-Type": "application/json"]
        let adf = #"{"type":"doc","version":1,"content":[{"type":"paragraph","content":[{"type":"text","text":"x"}]}]}"#
        let good = try await exchange(
            server, "POST", "rest/api/3/issue/MEM-9/comment", body: Data(#"{"body":\#(adf)}"#.utf8), headers: json)
        #expect(good.status == 201)
        let wrong = [
            #"{"body":\#(adf),"properties":"x"}"#: "properties: 'x' is not of type 'array'",
            #"{"body":\#(adf),"id":"5"}"#: "id: Tried to write read-only property with 5",
            #"{"body":\#(adf),"visibility":{"type":"team","value":"x"}}"#:
                "visibility/type: 'team' is not one of ['group', 'role']",
        ]
        for (body, problem) in wrong {
            let refused = try await exchange(
                server, "POST", "rest/api/3/issue/MEM-9/comment", body: Data(body.utf8), headers: json)
            #expect(refused.status == 400, "\(body)")
            let messages = ((refused.json as? [String: Any])?["errorMessages"] as? [String]) ?? []
            #expect(messages.count == 1 && messages[0].hasSuffix(problem), "\(messages)")
        }
        let part = "--b\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a.md\"\r\n\r\nx\r\n--b--\r\n"
        let upload = try await exchange(
            server, "POST", "rest/api/3/issue/MEM-9/attachments", body: Data(part.utf8),
            headers: ["Authorization": auth, "Content-Type": "multipart/form-data; boundary=b"])
        #expect(upload.status == 400)
        #expect(
            (upload.json as? [String: Any])?["errorMessages"] as? [String] == [
                "addAttachment: the description requires the header X-Atlassian-Token: no-check",
                "addAttachment: every part must be named file (got ['files'])",
            ])
        let contract = try await contract(server)
        // Three comments, and the upload's two problems.
        #expect(contract.violations.count == 5)
        #expect(contract.violations.allSatisfy { $0.hasPrefix("request POST /rest/api/3/issue/MEM-9/") })
    }
}

/// GitHub's and GitLab's fakes refuse what the real APIs refuse, with their documented bodies
/// (`../shared/research/trackers.md`), and memhunt's trackers report those refusals in the tracker's words.
@Suite(.enabled(if: FaultServer.available, "needs python3"), .serialized) struct FakeRefusalTests {
    static let token = "refusals-7d41"

    @Test func gitHubRefusesMalformedBodiesAndMissingIssues() async throws {
        let server = try await FaultServer(script: "tracker_fake.py", arguments: ["--token", Self.token])
        defer { server.stop() }
        let headers = [
            "Authorization": "Bearer \(Self.token)", "User-Agent": "test", "Content-Type": "application/json",
        ]
        func post(_ path: String, _ body: String) async throws -> (Int, [String: Any]) {
            let (status, json) = try await exchange(server, "POST", path, body: Data(body.utf8), headers: headers)
            return (status, json as? [String: Any] ?? [:])
        }
        let notJSON = try await post("repos/o/r/issues/1/comments", "{body")
        #expect(notJSON.0 == 400 && notJSON.1["message"] as? String == "Problems parsing JSON")
        let array = try await post("repos/o/r/issues/1/comments", "[]")
        #expect(array.0 == 400 && array.1["message"] as? String == "Body should be a JSON object")
        let noBody = try await post("repos/o/r/issues/1/comments", "{}")
        #expect(noBody.0 == 422 && noBody.1["message"] as? String == "Validation Failed")
        #expect(
            (noBody.1["errors"] as? [[String: String]])?.first == [
                "resource": "IssueComment", "code": "missing_field", "field": "body",
            ])
        let noTitle = try await post("repos/o/r/issues", #"{"body":"x"}"#)
        #expect(noTitle.0 == 422 && (noTitle.1["errors"] as? [[String: String]])?.first?["field"] == "title")
        let missing = try await post("repos/o/r/issues/404/comments", #"{"body":"x"}"#)
        #expect(missing.0 == 404 && missing.1["message"] as? String == "Not Found")
        var configuration = HTTPConfiguration()
        configuration.baseDelay = 0.01
        do {
            _ = try await Attacher.attach(
                sampleDocument(), to: "github:o/r#404",
                environment: ["GITHUB_TOKEN": Self.token, "MEMHUNT_GITHUB_API_URL": "http://127.0.0.1:\(server.port)"],
                options: AttachOptions(), configuration: configuration)
            Issue.record("expected a failure")
        } catch {
            #expect(error.description.contains("HTTP 404 Not Found: Not Found"), "\(error.description)")
            #expect(!error.description.contains(Self.token))
        }
    }

    @Test func gitLabRefusesTooLongNotesAndMissingIssues() async throws {
        let server = try await FaultServer(script: "tracker_fake.py", arguments: ["--token", Self.token])
        defer { server.stop() }
        let headers = ["PRIVATE-TOKEN": Self.token, "Content-Type": "application/json"]
        let long = String(repeating: "x", count: 1_000_001)
        let tooLong = try await exchange(
            server, "POST", "api/v4/projects/g%2Fp/issues/1/notes", body: Data(#"{"body":"\#(long)"}"#.utf8),
            headers: headers)
        #expect(tooLong.status == 400)
        #expect(
            ((tooLong.json as? [String: Any])?["message"] as? [String: [String]])?["note"] == [
                "is too long (maximum is 1000000 characters)"
            ])
        let notJSON = try await exchange(
            server, "POST", "api/v4/projects/g%2Fp/issues/1/notes", body: Data("{".utf8), headers: headers)
        #expect(notJSON.status == 400)
        let missing = try await exchange(
            server, "GET", "api/v4/projects/g%2Fp/issues/404/notes", body: nil, headers: headers)
        #expect(missing.status == 404)
        #expect((missing.json as? [String: Any])?["message"] as? String == "404 Issue Not Found")
    }
}
