import Foundation
import MemhuntTestSupport
import Testing

@testable import MemhuntHTTP

/// The plain-socket HTTP/1.1 transport against the real loopback fault server: framing, connection reuse,
/// uploads, and which URLs it takes.
@Suite(.enabled(if: FaultServer.available, "needs python3")) struct SocketTransportTests {
    static func connections(_ server: FaultServer) async throws -> Int {
        let data = try Data(contentsOf: server.url("__connections"))
        return try #require(Int(String(decoding: data, as: UTF8.self)))
    }

    @Test func aChunkedBodyArrivesWholeThroughExtensionsAndTrailers() async throws {
        let h = try await Harness()
        defer { h.stop() }
        let result = await h.download("chunked/x.ips")
        #expect(result.error == nil)
        #expect(result.size == 5000)
        let local = try #require(result.localPath)
        #expect(try Data(contentsOf: URL(fileURLWithPath: local)) == Data(Harness.body))
    }

    @Test func aChunkedBodyWithoutItsLastChunkIsAnError() async throws {
        let h = try await Harness()
        defer { h.stop() }
        let result = await h.download("chunked-short/x.ips") { $0.maxRetries = 1 }
        #expect(result.error == "\(h.server.url("chunked-short/x.ips")): connection lost after 2 attempts (1 retry)")
        #expect(h.cached() == [])
    }

    @Test func aChunkSizeThatIsNotHexIsRefusedUnretried() async throws {
        let h = try await Harness()
        defer { h.stop() }
        let result = await h.download("chunked-negative")
        #expect(
            result.error
                == "\(h.server.url("chunked-negative")): bad server response (a chunk size that is not a number)")
        #expect(result.attempts == 1)
    }

    @Test func connectionsAreKeptAndReused() async throws {
        let h = try await Harness()
        defer { h.stop() }
        let before = try await Self.connections(h.server)
        let requests = (0..<40).map { DownloadRequest(url: h.server.url("x.ips?n=\($0)")) }
        let results = await h.download(requests) { $0.maxConcurrent = 2 }
        #expect(results.allSatisfy { $0.error == nil && $0.size == 5000 })
        // Two at a time over kept connections: two connections (plus the one asking), not forty.
        let made = try await Self.connections(h.server) - before - 1
        #expect((1...2).contains(made), "\(made) connections for 40 downloads")
    }

    @Test func aConnectionTheServerClosedIsNotReused() async throws {
        let h = try await Harness()
        defer { h.stop() }
        let requests = (0..<5).map { DownloadRequest(url: h.server.url("quiet-close/x.ips?n=\($0)")) }
        let results = await h.download(requests) { $0.maxConcurrent = 1 }
        #expect(results.map(\.error) == Array(repeating: nil, count: 5))
        #expect(results.map(\.attempts) == Array(repeating: 1, count: 5))
    }

    @Test func aPostCarriesItsBodyLengthAndType() async throws {
        let h = try await Harness()
        defer { h.stop() }
        let client = HTTPClient()
        defer { client.close() }
        let body = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let response = try await client.send(
            HTTPRequest(method: "POST", url: h.server.url("post-echo"), body: .octetStream(body)))
        #expect(response.status == 200)
        #expect(response.body == body)
        #expect(response.headers["X-Received-Length"] == "300000")
        #expect(response.headers["Content-Type"] == "application/octet-stream")
    }

    @Test func aRefusedConnectionIsWordedAsBefore() async throws {
        // A port nobody listens on: bound, then closed.
        let server = try await FaultServer(root: "/")
        let url = server.url("x.ips")
        server.stop()
        try await Task.sleep(for: .milliseconds(200))
        let client = HTTPClient(
            configuration: {
                var c = HTTPConfiguration(); c.maxRetries = 0; return c
            }())
        defer { client.close() }
        do {
            _ = try await client.send(HTTPRequest(url: url))
            Issue.record("expected a refusal")
        } catch {
            #expect(error.description == "\(url): connection refused")
        }
    }

    @Test func theRequestTargetAndHostAreWrittenAsOnTheWire() throws {
        let v6 = try #require(Target(URL(string: "http://[::1]:8080")!))
        #expect(v6.host == "::1")
        #expect(v6.authority == "[::1]:8080")
        #expect(v6.path == "/")
        let plain = try #require(Target(URL(string: "http://u:p%40ss@example.org/a%20b/c?x=1&y=%2F#frag")!))
        #expect(plain.authority == "example.org")
        #expect(plain.path == "/a%20b/c?x=1&y=%2F")
        // Percent-decoded, as libcurl sends it.
        #expect(plain.basic == Data("u:p@ss".utf8).base64EncodedString())
        #expect(Target(URL(string: "https://example.org/")!) == nil)
        let head = String(
            decoding: Connection.head(
                of: HTTPRequest(method: "PUT", url: URL(string: "http://example.org:81/x")!, headers: ["Host": "evil"]),
                target: try #require(Target(URL(string: "http://example.org:81/x")!))), as: UTF8.self)
        #expect(
            head == "PUT /x HTTP/1.1\r\nHost: example.org:81\r\nAccept: */*\r\nUser-Agent: memhunt\r\n"
                + "Content-Length: 0\r\n\r\n")
    }

    /// Issue 26, defect 12: two Content-Length lines that disagree were accepted, the first one used (RFC 9112,
    /// 6.3: such a message is invalid, and a client must not trust where its body ends).
    @Test func conflictingContentLengthsAreRefused() throws {
        func framing(_ lines: String) throws -> Result<Framing, HTTPFailure> {
            let bytes = Array(("HTTP/1.1 200 OK\r\n" + lines + "\r\n").utf8)
            let head = try #require(bytes.withUnsafeBytes { ParsedHead.parse($0) })
            return Framing.of(head, method: "GET")
        }
        for lines in ["Content-Length: 5\r\nContent-Length: 7\r\n", "Content-Length: 5, 7\r\n"] {
            guard case .failure(let failure) = try framing(lines) else {
                Issue.record("accepted \(lines)")
                continue
            }
            #expect(failure.message == "bad server response (conflicting Content-Length values: 5 and 7)")
            #expect(!failure.retryable)
        }
        // The same length repeated is that length.
        guard case .success(.length(5)) = try framing("Content-Length: 5\r\ncontent-length: 5, 5\r\n") else {
            Issue.record("refused a repeated Content-Length")
            return
        }
    }

    @Test func onlyHTTPWithoutAProxyTakesTheSocketPath() {
        let url = URL(string: "http://artifacts.corp.example/x.ips")!
        func proxy(_ environment: [String: String], _ url: URL = url) -> String? {
            RoutingTransport.proxy(for: url, environment: environment)
        }
        #expect(proxy([:]) == nil)
        #expect(proxy(["http_proxy": "http://proxy:3128"]) == "http://proxy:3128")
        #expect(proxy(["ALL_PROXY": "socks5://proxy"]) == "socks5://proxy")
        // curl ignores HTTP_PROXY in capitals (httpoxy); so does this.
        #expect(proxy(["HTTP_PROXY": "http://proxy:3128"]) == nil)
        // https_proxy is for https only, in either case.
        #expect(proxy(["https_proxy": "http://s:1"]) == nil)
        let secure = URL(string: "https://artifacts.corp.example/x.ips")!
        #expect(proxy(["HTTPS_PROXY": "http://s:1"], secure) == "http://s:1")
        #expect(proxy(["http_proxy": "http://p"], secure) == nil)
        for exception in ["*", "corp.example", ".corp.example", "artifacts.corp.example", "x, corp.example"] {
            #expect(proxy(["http_proxy": "http://p", "no_proxy": exception]) == nil, "\(exception)")
            #expect(proxy(["https_proxy": "http://p", "no_proxy": exception], secure) == nil, "\(exception)")
        }
        #expect(proxy(["http_proxy": "http://p", "NO_PROXY": "example.com"]) == "http://p")
        #expect(
            proxy(["http_proxy": "http://p", "no_proxy": "127.0.0.1"], URL(string: "http://127.0.0.1:9/x")!) == nil)
    }

    /// Until the connection is made the limit is a connect timeout; after it, a wait for the response head.
    @Test func theClockTellsConnectingFromWaitingForTheHead() {
        let limits = HTTPExchangeLimits(connectTimeout: 0, idleTimeout: 60, deadline: .distantFuture, totalTimeout: 600)
        let clock = Clock(limits, cancelled: Locked(false))
        #expect(
            clock.expired()?.message
                == "no response within 0 s (the limit on connecting and waiting for the response head)")
        clock.connected = false
        #expect(clock.expired()?.message == "could not connect within 0 s (connect timeout)")
        clock.connected = true
        #expect(
            clock.expired()?.message
                == "connected, but no response within 0 s (the limit on connecting and waiting for the response head)")
        clock.headReceived = true
        #expect(clock.expired() == nil)
    }
}
