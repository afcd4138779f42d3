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
        let environment = ProcessCheckRunner.checkEnvironment([
            "MEMHUNT_HTTP_TOKEN": "t", "PATH": "/usr/bin", "HOME": "/h",
        ])
        #expect(environment == ["PATH": "/usr/bin", "HOME": "/h"])
    }

    @Test func aCheckThatNeverReadsItsRequestDoesNotKillMemhunt() async {
        // 200 KB of parameters fill the pipe; /bin/true exits without reading. Without SIGPIPE ignored,
        // the write raises SIGPIPE and this test process dies (exit 141).
        let context = CheckContext(
            stepID: "s", parameters: ["pad": .string(String(repeating: "x", count: 200_000))], artifacts: [],
            subject: Subject(app: nil, origin: "none"), facts: [:])
        let output = await ProcessCheckRunner().run(argv: ["/bin/true"], timeout: 10, context: context)
        #expect(output.failure == nil)
        #expect(output.facts.isEmpty)
    }
}
