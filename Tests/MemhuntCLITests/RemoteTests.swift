import Foundation
import MemhuntArtifacts
import MemhuntCore
import MemhuntHTTP
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// Artifacts and playbooks over HTTP from a real server on 127.0.0.1 (Tests/Support/fault_server.py).
@Suite(.enabled(if: FaultServer.available, "needs python3")) struct RemoteTests {
    static let token = "s3cr3t-token-value-7f1c"

    init() { setenv("no_proxy", "127.0.0.1,localhost", 1) }

    func facts(_ json: String) throws -> [String: Any] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try #require(document["facts"] as? [String: Any])
    }

    /// A downloaded manifest with a malformed entry: the entry is named, the rest downloaded. Defect 9.
    @Test func aMalformedEntryOfADownloadedManifestIsNamedAndTheRestIsRead() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("a.ips", try Repo.bytes("justsend/JetsamEvent-2026-08-11-112056.ips"))
        try dir.write("m.json", #"{"artifacts": [null, {"url": "a.ips"}, {"url": "b.ips", "sha256": "zz"}]}"#)
        let server = try await FaultServer(root: dir.path)
        defer { server.stop() }
        let artifacts = await ArtifactStore(cacheDirectory: dir.path + "/cache").collect([
            server.url("m.json").absoluteString
        ])
        #expect(artifacts.map(\.status) == [.ok, .error, .ok, .error])
        #expect(artifacts.first?.kind == .manifest)
        #expect(artifacts[2].kind == .jetsamEvent)
        #expect(
            artifacts[1].error
                == "manifest entry 1 (index 0): null, not a path or URL string nor an object with a \"url\" string")
        #expect(artifacts[3].error == "manifest entry 3 (index 2, b.ips): sha256 is not 64 hex digits")
    }

    @Test func manifestOverHTTPGivesTheLocalFacts() async throws {
        let server = try await FaultServer(root: Repo.fixture(""))
        defer { server.stop() }
        let remote = await memhunt(
            "run", "--app", "JustSend", "--format", "json", server.url("justsend/manifest.json").absoluteString)
        let local = await memhunt("run", "--app", "JustSend", "--format", "json", "Fixtures/justsend")
        #expect(remote.status == 0)
        let remoteFacts = try facts(remote.stdout), localFacts = try facts(local.stdout)
        #expect(NSDictionary(dictionary: remoteFacts) == NSDictionary(dictionary: localFacts))
        #expect(remoteFacts["jetsam.app.peakMB"] as? Double == 725)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(remote.stdout.utf8)) as? [String: Any])
        let artifacts = try #require(document["artifacts"] as? [[String: Any]])
        #expect(artifacts.count == 8)
        #expect(artifacts.first?["kind"] as? String == "manifest")
        for artifact in artifacts {
            #expect(artifact["status"] as? String == "ok")
            #expect(artifact["httpStatus"] as? Int == 200)
            #expect((artifact["finalURL"] as? String)?.hasPrefix("http://127.0.0.1:\(server.port)/justsend/") == true)
        }
    }

    @Test func faultsBecomeArtifactErrorsAndNothingPartialStays() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let jetsam = try Repo.bytes("justsend/JetsamEvent-2026-08-11-112056.ips")
        try root.write("j.ips", jetsam)
        try root.write(
            "incident.yaml",
            """
            artifacts:
              - url: /status/404
              - url: /flaky/2/j.ips
              - url: /truncate/j.ips
              - url: j.ips
                sha256: \(String(repeating: "0", count: 64))
            """)
        let server = try await FaultServer(root: root.path)
        defer { server.stop() }
        let cache = try TemporaryDirectory()
        defer { cache.remove() }
        var http = HTTPConfiguration()
        http.baseDelay = 0.05
        let artifacts = await ArtifactStore(http: http, cacheDirectory: cache.path)
            .collect([server.url("incident.yaml").absoluteString])
        let base = "http://127.0.0.1:\(server.port)"
        #expect(
            artifacts.map(\.source)
                == ["incident.yaml", "status/404", "flaky/2/j.ips", "truncate/j.ips", "j.ips"].map { "\(base)/\($0)" })
        #expect(artifacts.map(\.status) == [.ok, .error, .ok, .error, .error])
        #expect(artifacts[0].kind == .manifest)
        #expect(artifacts[1].error == "\(base)/status/404: HTTP 404 Not Found")
        #expect(artifacts[2].kind == .jetsamEvent)
        #expect(artifacts[3].error?.hasPrefix("\(base)/truncate/j.ips: body cut short") == true)
        #expect(artifacts[4].error?.hasPrefix("\(base)/j.ips: sha256 mismatch: expected 0000") == true)
        let left = try FileManager.default.subpathsOfDirectory(atPath: cache.path)
        #expect(left.count == 2, "the manifest and the one whole download: \(left)")
        #expect(!left.contains { $0.hasSuffix(".part") })
    }

    @Test func serverStoppedEveryErrorNamesItsURL() async throws {
        let server = try await FaultServer(root: Repo.fixture(""))
        let port = server.port
        server.stop()
        let run = await memhunt(
            "run", "--app", "JustSend", "http://127.0.0.1:\(port)/justsend/manifest.json",
            "http://127.0.0.1:\(port)/justsend/JetsamEvent-2026-08-11-112056.ips")
        // Operands that cannot be fetched: the whole report, then exit 2 naming them.
        #expect(run.status == 2)
        #expect(
            run.stderr.contains("memhunt: exit 2: http://127.0.0.1:\(port)/justsend/manifest.json: connection refused"))
        #expect(
            run.stdout.contains("http://127.0.0.1:\(port)/justsend/manifest.json: connection refused after 4 attempts"))
        #expect(run.stdout.contains("JetsamEvent-2026-08-11-112056.ips: connection refused after 4 attempts"))
        #expect(run.stdout.contains("2 artifacts could not be read"))
        #expect(run.stdout.contains(" 8  Change logging"))
    }

    @Test func tokenAppearsNowhere() async throws {
        let server = try await FaultServer(root: Repo.fixture(""))
        defer { server.stop() }
        let out = try TemporaryDirectory()
        defer { out.remove() }
        let report = out.path + "/report.json"
        let urls = [
            server.url("justsend/manifest.json").absoluteString,
            server.url("status/404?token=\(Self.token)").absoluteString,
            server.url("echo-headers").absoluteString,
        ]
        let run = await memhunt(
            ["run", "--app", "JustSend", "--format", "json", "--output", report, "--header", "X-Team: \(Self.token)"]
                + urls,
            environment: ["MEMHUNT_HTTP_TOKEN": Self.token])
        // The 404 operand could not be read: exit 2, its URL on stderr without the query's value.
        #expect(run.status == 2)
        #expect(run.stderr.contains("/status/404?token=…: HTTP 404 Not Found"))
        let written = try String(contentsOfFile: report, encoding: .utf8)
        #expect(written.contains("\"jetsam.app.rank\": 7"))
        for text in [run.stdout, run.stderr, written] { #expect(!text.contains(Self.token)) }
        // The server did receive it: the echo is in the cache, not in any output.
        let log = try await server.log()
        #expect(log.contains { $0.path == "/echo-headers" && $0.status == 200 })

        // The store's cache: no file name carries the token or the URL's query.
        let cache = try TemporaryDirectory()
        defer { cache.remove() }
        var http = HTTPConfiguration()
        http.bearerToken = Self.token
        _ = await ArtifactStore(http: http, cacheDirectory: cache.path).collect(urls)
        let names = try FileManager.default.subpathsOfDirectory(atPath: cache.path)
        #expect(!names.isEmpty)
        #expect(!names.contains { $0.contains(Self.token) || $0.contains("token") })
    }

    /// A Sentry event URL behind its token is an artifact: graded against a local JetsamEvent, the token in no
    /// output. Without the token the API answers 401, and the run says so (exit 2).
    @Test func aSentryEventOverHTTPWithItsToken() async throws {
        let server = try await FaultServer(root: Repo.fixture(""))
        defer { server.stop() }
        let url = server.url("bearer/\(String(Self.token.reversed()))/sdk/confirmed/sentry-watchdog-event.json")
            .absoluteString
        let jetsam = "Fixtures/sdk/confirmed/JetsamEvent-2026-08-12-090211.ips"
        let run = await memhunt(
            "run", "--app", "JustSend", "--header", "Authorization: Bearer \(Self.token)", url, jetsam)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Sentry watchdog termination of JustSend: confirmed by the JetsamEvent"))
        #expect(run.stdout.contains("9 s after Sentry's time"))
        for text in [run.stdout, run.stderr] { #expect(!text.contains(Self.token)) }
        let refused = await memhunt("run", "--app", "JustSend", url, jetsam)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("HTTP 401"))
    }

    @Test func remotePlaybookMayNotRunExecutablesUnlessAllowed() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        try root.write(
            "remote.yaml",
            """
            id: remote-check
            title: A team's remote playbook
            summary: One external check.
            steps:
              - id: team-rule
                title: Team rule
                reads: [jetsam-event]
                checks:
                  - exec: [python3, -c, "import json, sys; json.load(sys.stdin); print(json.dumps({'fact': 'team.ran', 'value': True}))"]
                    timeout: 120
            """)
        let server = try await FaultServer(root: root.path)
        defer { server.stop() }
        let url = server.url("remote.yaml").absoluteString
        let refused = await memhunt("run", "--playbook", url, "--format", "json", "Fixtures/justsend")
        #expect(refused.status == 2, "a check that could not run means the hunt was not done as asked")
        #expect(refused.stderr.contains("memhunt: exit 2: 1 check could not run: 'exec:python3'"))
        let text = await memhunt("run", "--playbook", url, "Fixtures/justsend")
        #expect(text.stdout.contains("remote playbooks may not run executables"))
        #expect(
            text.stdout.contains(
                "next: Allow this playbook to run its programs, if you trust it. Pass --allow-exec to allow it."))
        #expect(refused.stdout.contains("\"status\": \"error\""))
        #expect(!refused.stdout.contains("team.ran"))
        let allowed = await memhunt("run", "--playbook", url, "--allow-exec", "--format", "json", "Fixtures/justsend")
        // What the check's run said, when it failed: a clean clone's suite with two fuzzers beside it once saw
        // "1 check could not run" here (20 s allowed then; alone it takes well under one).
        let said = allowed.stdout.split(separator: "\n").filter { $0.contains("\"message\"") }.joined(separator: "\n")
        #expect(allowed.status == 0, "\(allowed.stderr)\n\(said)")
        #expect(try facts(allowed.stdout)["team.ran"] as? Bool == true)
    }
}
