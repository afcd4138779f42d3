import Foundation
import MemhuntArtifacts
import MemhuntCore
import MemhuntHTTP
import MemhuntTestSupport
import Testing

@testable import MemhuntChecks

/// Secrets stay with the origin they were given for, and out of checks and messages.
@Suite(.enabled(if: FaultServer.available, "needs python3")) struct SecretsTests {
    static let token = "tok-9c2e-never-shown"

    init() { setenv("no_proxy", "127.0.0.1,localhost", 1) }

    /// The request headers another server received, from the body it echoed into the cache.
    func echoed(_ artifact: Artifact) throws -> [String: String] {
        let path = try #require(artifact.localPath)
        let data = try #require(FileManager.default.contents(atPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
    }

    @Test func manifestCannotSendTheTokenToAnotherOrigin() async throws {
        let other = try await FaultServer(root: Repo.fixture(""))
        defer { other.stop() }
        let root = try TemporaryDirectory()
        defer { root.remove() }
        try root.write("m.json", #"["echo-headers", "\#(other.url("echo-headers").absoluteString)"]"#)
        let server = try await FaultServer(root: root.path)
        defer { server.stop() }
        let cache = try TemporaryDirectory()
        defer { cache.remove() }
        var http = HTTPConfiguration()
        http.bearerToken = Self.token
        http.headers = ["X-Team": Self.token]
        let artifacts = await ArtifactStore(http: http, cacheDirectory: cache.path)
            .collect([server.url("m.json").absoluteString])
        #expect(artifacts.count == 3)
        let same = try echoed(artifacts[1]), foreign = try echoed(artifacts[2])
        #expect(same["Authorization"] == "Bearer \(Self.token)")
        #expect(same["X-Team"] == Self.token)
        #expect(foreign["Authorization"] == nil)
        #expect(foreign["X-Team"] == nil)
    }

    @Test func configuredHeadersAreDroppedOnACrossOriginRedirect() async throws {
        let server = try await FaultServer(root: Repo.fixture(""))
        defer { server.stop() }
        let cache = try TemporaryDirectory()
        defer { cache.remove() }
        var http = HTTPConfiguration()
        http.headers = ["X-Api-Key": Self.token]
        let artifacts = await ArtifactStore(http: http, cacheDirectory: cache.path)
            .collect([server.url("redirect-host/echo-headers").absoluteString])
        #expect(artifacts.first?.finalURL == "http://localhost:\(server.port)/echo-headers")
        #expect(try echoed(artifacts[0])["X-Api-Key"] == nil)
    }

    @Test func invalidURLOperandsAreNotEchoed() async throws {
        let cache = try TemporaryDirectory()
        defer { cache.remove() }
        let artifacts = await ArtifactStore(cacheDirectory: cache.path)
            .collect(["https://user:\(Self.token)@ho st/x?token=\(Self.token)"])
        #expect(artifacts.map(\.source) == ["https://…@ho st/x"])
        #expect(artifacts.first?.error == "https://…@ho st/x: not a valid URL")
    }
}

@Suite struct CheckProcessTests {
    @Test func checksDoNotInheritTheToken() {
        let environment = ProcessCheckRunner.checkEnvironment(
            [
                "MEMHUNT_HTTP_TOKEN": "t", "PATH": "/usr/bin", "HOME": "/h", "GITHUB_TOKEN": "g", "TEAM": "x",
            ], named: ["TEAM"])
        #expect(environment == ["PATH": "/usr/bin", "HOME": "/h", "TEAM": "x"])
    }

    /// Issue 26, defect 2, through `memhunt run`: the run's environment, not the check's, holds the tokens.
    @Test func aRunsChecksSeeNoTrackerToken() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let playbook = dir.path + "/env.yaml"
        try """
        id: env
        title: Env
        summary: What a check is given.
        steps:
          - id: s
            title: S
            checks:
              - exec: [\(Repo.fixture("checks"))/prints-env.sh]
                env: [TEAM_DB]
        """.write(toFile: playbook, atomically: true, encoding: .utf8)
        let run = await memhunt(
            ["run", "--playbook", playbook, "--format", "json", "Fixtures/justsend"],
            environment: [
                "PATH": "/usr/bin:/bin", "GITHUB_TOKEN": "ghp_secret", "REDMINE_API_KEY": "rk", "TEAM_DB": "db",
            ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("TEAM_DB"))
        #expect(!run.stdout.contains("GITHUB_TOKEN") && !run.stdout.contains("REDMINE_API_KEY"))
    }

    /// Run as an ordinary user, an `exec:` check read memhunt's tokens from `/proc/$PPID/environ`, and a
    /// `--header` value from `/proc/$PPID/cmdline`. memhunt is non-dumpable before its first check starts (its
    /// `/proc` files are then root's), and `--header @FILE` keeps the value off the command line.
    @Test(
        .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root"))
    func aCheckRunAsTheSameUserFindsNoTokenOfMemhunts() async throws {
        let binary = try #require(BinaryTests.binary)
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        chmod(dir.path, 0o755)
        try dir.write(
            "peek.sh",
            """
            #!/bin/sh
            # What a check can read of its parent's: its environment and its command line.
            cat >/dev/null
            seen=$( { tr '\\0' '\\n' < /proc/$PPID/environ; tr '\\0' '\\n' < /proc/$PPID/cmdline; } 2>/dev/null \\
                | grep -c 'tok-' )
            printf '{"fact": "check.seen", "value": %s}\\n' "$seen"
            """)
        chmod(dir.path + "/peek.sh", 0o755)
        try dir.write(
            "peek.yaml",
            """
            id: peek
            title: Peek
            summary: What a check can read of memhunt's.
            steps:
              - id: s
                title: S
                checks:
                  - exec: [\(dir.path)/peek.sh]
            """)
        try dir.write("headers", "X-Team: tok-header-3301\n")
        chmod(dir.path + "/headers", 0o644)
        let run = try await Tool.run(
            "/usr/bin/setpriv",
            [
                "--reuid=65534", "--regid=65534", "--clear-groups", binary, "run", "--playbook",
                dir.path + "/peek.yaml", "--format", "json", "--header", "@" + dir.path + "/headers",
                "Fixtures/justsend",
            ],
            environment: [
                "REDMINE_API_KEY": "tok-redmine-1", "GITHUB_TOKEN": "tok-github-2", "MEMHUNT_HTTP_TOKEN": "tok-http-3",
                "HOME": dir.path,
            ])
        #expect(run.status == 0, "\(run.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let facts = try #require(document["facts"] as? [String: Any])
        #expect(facts["check.seen"] as? Int == 0, "\(facts)")
    }

    @Test func aCheckThatNeverReadsItsRequestDoesNotKillMemhunt() async {
        // 200 KB of parameters fill the pipe; /bin/true exits without reading. Without SIGPIPE ignored,
        // the write raises SIGPIPE and this test process dies (exit 141).
        let context = CheckContext(
            stepID: "s", parameters: ["pad": .string(String(repeating: "x", count: 200_000))], artifacts: [],
            subject: Subject(app: nil, origin: .none), facts: [:])
        let output = await ProcessCheckRunner().run(argv: ["/bin/true"], timeout: 10, context: context)
        #expect(output.failure == nil)
        #expect(output.facts.isEmpty)
    }
}

/// Credentials belong to the origin the user named, for the whole run (issue 8, defect 2).
@Suite(.enabled(if: FaultServer.available, "needs python3")) struct CredentialOriginTests {
    static let token = "tok-41aa-bound-to-origin"

    func echoed(_ artifact: Artifact) throws -> [String: String] {
        let path = try #require(artifact.localPath, "\(artifact.error ?? "")")
        let data = try #require(FileManager.default.contents(atPath: path))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
    }

    @Test func aManifestFoundAfterACrossOriginRedirectDoesNotGetTheToken() async throws {
        let other = try await FaultServer(root: Repo.fixture(""))
        defer { other.stop() }
        let root = try TemporaryDirectory()
        defer { root.remove() }
        try root.write("m.json", #"["echo-headers", "\#(other.url("echo-headers").absoluteString)"]"#)
        let server = try await FaultServer(root: root.path)
        defer { server.stop() }
        let cache = try TemporaryDirectory()
        defer { cache.remove() }
        var http = HTTPConfiguration()
        http.bearerToken = Self.token
        http.headers = ["X-Team": Self.token]
        let store = ArtifactStore(http: http, cacheDirectory: cache.path)
        defer { store.client.close() }
        // 127.0.0.1:<port> redirects to localhost:<port>: another origin, where the manifest is found.
        let artifacts = await store.collect([server.url("redirect-host/m.json").absoluteString])
        #expect(artifacts.count == 3)
        #expect(artifacts[0].kind == .manifest)
        #expect(artifacts[1].finalURL == "http://localhost:\(server.port)/echo-headers")
        for artifact in artifacts.dropFirst() {
            let headers = try echoed(artifact)
            #expect(headers["Authorization"] == nil, "\(artifact.source)")
            #expect(headers["X-Team"] == nil, "\(artifact.source)")
        }
    }

    @Test func httpEntriesOfALocalManifestGetNoToken() async throws {
        let server = try await FaultServer(root: Repo.fixture(""))
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("m.json", #"["\#(server.url("echo-headers").absoluteString)"]"#)
        let cache = try TemporaryDirectory()
        defer { cache.remove() }
        var http = HTTPConfiguration()
        http.bearerToken = Self.token
        let store = ArtifactStore(http: http, cacheDirectory: cache.path)
        defer { store.client.close() }
        let artifacts = await store.collect([folder.path + "/m.json", server.url("echo-headers").absoluteString])
        #expect(artifacts.count == 3)
        #expect(try echoed(artifacts[1])["Authorization"] == nil)
        // The same URL named on the command line is the user's: it gets the token.
        #expect(try echoed(artifacts[2])["Authorization"] == "Bearer \(Self.token)")
    }

    /// `--header @FILE` reads one header a line; a file that cannot be read is a usage error that quotes none of it.
    @Test func headersFromAFileAreReadAndAMissingFileIsNamed() async throws {
        let missing = await memhunt(["run", "--header", "@/nonexistent/headers", "Fixtures/justsend"])
        #expect(missing.status == 64, "\(missing.stderr)")
        #expect(missing.stderr.contains("@FILE names a readable file of headers"), "\(missing.stderr)")
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("h", "X-Team: \(Self.token)\r\n\nbroken header line\n")
        let broken = await memhunt(["run", "--header", "@" + dir.path + "/h", "Fixtures/justsend"])
        #expect(broken.status == 64, "\(broken.stderr)")
        #expect(!(broken.stdout + broken.stderr).contains(Self.token))
        try dir.write("h", "X-Team: \(Self.token)\r\n\n")
        let fine = await memhunt(["run", "--header", "@" + dir.path + "/h", "Fixtures/justsend"])
        #expect(fine.status == 0, "\(fine.stderr)")
        #expect(!(fine.stdout + fine.stderr).contains(Self.token))
    }

    @Test func aTokenWithALineBreakIsAClearErrorNotADroppedHeader() async throws {
        let run = await memhunt(
            ["run", "Fixtures/justsend"], environment: ["MEMHUNT_HTTP_TOKEN": "abc-7731\r\nX-Injected: 1"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("MEMHUNT_HTTP_TOKEN contains a line break"))
        #expect(!(run.stdout + run.stderr).contains("abc-7731"))
    }
}
