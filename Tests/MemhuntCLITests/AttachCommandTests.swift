import Foundation
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `memhunt attach` and `memhunt run --attach` through the command line, against loopback fakes.
@Suite(.enabled(if: FaultServer.available, "needs python3")) struct AttachCommandTests {
    static let token = "ghp_cli-never-shown-51c0"

    init() { setenv("no_proxy", "127.0.0.1,localhost", 1) }

    /// The JustSend findings, saved.
    func findings(_ directory: TemporaryDirectory) async throws -> String {
        let run = await justSendFindings.value
        #expect(run.status == 0)
        try directory.write("findings.json", run.stdout)
        return directory.path + "/findings.json"
    }

    @Test func dryRunPrintsEveryRequestWithTheTokenMaskedAndSendsNothing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try await findings(directory)
        let run = await memhunt(
            ["attach", path, "--to", "github:acme/app#12", "--dry-run"], environment: ["GITHUB_TOKEN": Self.token])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("GET https://api.github.com/repos/acme/app/issues/12/comments?per_page=…"))
        #expect(run.stdout.contains("POST https://api.github.com/repos/acme/app/issues/12/comments\n"))
        #expect(run.stdout.contains("Authorization: ***"))
        #expect(run.stdout.contains("User-Agent: memhunt"))
        #expect(run.stdout.contains("<!-- memhunt:hunt="))
        #expect(!run.stdout.contains(Self.token) && !run.stderr.contains(Self.token))
        #expect(run.stderr.contains("dry run, nothing sent"))
    }

    @Test func aTrackerThatAnswers422ExitsTwoWithItsMessage() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try await findings(directory)
        let fake = try await FaultServer(script: "tracker_fake.py", arguments: ["--token", Self.token])
        defer { fake.stop() }
        let run = await memhunt(
            ["attach", path, "--to", "github:acme/strict#1"],
            environment: ["GITHUB_TOKEN": Self.token, "MEMHUNT_GITHUB_API_URL": "http://127.0.0.1:\(fake.port)"])
        #expect(run.status == 2)
        #expect(
            run.stderr
                == "memhunt: exit 2: github github:acme/strict#1: commenting on #1: HTTP 422 Unprocessable Entity: "
                + "Validation Failed; body is too long (maximum is 200 characters)\n")
        #expect(!run.stderr.contains(Self.token))
    }

    @Test func anAttachmentOverTheLimitFailsBeforeAnythingIsSent() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = try await findings(directory)
        // Nothing listens on the target: a request would fail differently.
        let run = await memhunt(
            ["attach", path, "--to", "redmine:http://127.0.0.1:9#1"],
            environment: ["REDMINE_API_KEY": "k" + Self.token, "MEMHUNT_REDMINE_MAX_ATTACHMENT": "100"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("memhunt: exit 2: redmine redmine:http://127.0.0.1:9#1: memhunt-"))
        #expect(run.stderr.contains("over the tracker's attachment limit of 100 bytes; nothing was posted"))
    }

    @Test func runAttachesToAWebhookAfterWritingTheReport() async throws {
        let fake = try await FaultServer(script: "tracker_fake.py", arguments: ["--token", Self.token])
        defer { fake.stop() }
        let run = await memhunt(
            "run", "--app", "JustSend", "--format", "json", "Fixtures/justsend", "--attach",
            "webhook:" + fake.url("hook").absoluteString)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("\"schema\""))
        #expect(run.stderr.contains("memhunt: attach webhook:"))
        let data: Data = try await URLSession.shared.data(from: fake.url("__hooks")).0
        let hooks = try #require(JSONSerialization.jsonObject(with: data, options: []) as? [[String: Any]])
        #expect(hooks.count == 1)
    }

    /// Issue 29's acceptance: two `run --attach` of one hunt leave one comment, the second an edit that says
    /// what changed since the first run; `run --attach … --new` adds another.
    @Test func twoRunsWithAttachOfOneHuntLeaveOneComment() async throws {
        let fake = try await FaultServer(script: "tracker_fake.py", arguments: ["--token", Self.token])
        defer { fake.stop() }
        let environment = ["GITHUB_TOKEN": Self.token, "MEMHUNT_GITHUB_API_URL": "http://127.0.0.1:\(fake.port)"]
        func run(_ more: String...) async -> (status: Int32, stdout: String, stderr: String) {
            await memhunt(
                ["run", "--app", "JustSend", "--format", "json", "Fixtures/justsend", "--attach", "github:acme/app#30"]
                    + more, environment: environment)
        }
        func comments() async throws -> [String] {
            let data: Data = try await URLSession.shared.data(from: fake.url("__state")).0
            let state = try #require(JSONSerialization.jsonObject(with: data, options: []) as? [String: Any])
            return (state["comments"] as? [String: [String]])?["acme/app#30"] ?? []
        }
        let first = await run()
        #expect(first.stderr.contains("memhunt: attach github:acme/app#30: posted "), "\(first.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any]
        let id = try #require((object?["run"] as? [String: Any])?["id"] as? String)
        let second = await run()
        #expect(second.stderr.contains("memhunt: attach github:acme/app#30: updated "), "\(second.stderr)")
        let bodies = try await comments()
        #expect(bodies.count == 1)
        #expect(bodies.first?.contains("\n\nSince run \(id.prefix(8)): 0 findings resolved, 0 new.\n\n") == true)
        let third = await run("--new")
        #expect(third.stderr.contains("memhunt: attach github:acme/app#30: posted "), "\(third.stderr)")
        #expect(try await comments().count == 2)
    }

    @Test func theTargetIsRequired() async throws {
        let run = await memhunt("attach", "findings.json")
        #expect(run.status == 64)
        #expect(run.stderr.contains("--to"))
    }
}
