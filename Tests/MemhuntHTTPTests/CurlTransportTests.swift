import Foundation
import MemhuntTestSupport
import Testing

@testable import MemhuntHTTP

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// HTTPS and proxied HTTP, the requests `RoutingTransport` gives to libcurl (Linux) or URLSession, against
/// the real loopback fault server: over TLS with a test CA it made, and as the proxy itself.
@Suite(.enabled(if: FaultServer.available, "needs python3")) struct CurlTransportTests {
    /// A fault server over HTTPS with its own CA, the files of `Harness`, and a client that trusts the CA
    /// (or not).
    final class TLSHarness {
        let root: TemporaryDirectory
        let tls: TemporaryDirectory
        let server: FaultServer

        init(names: String = "IP:127.0.0.1,DNS:localhost") async throws {
            root = try TemporaryDirectory()
            tls = try TemporaryDirectory()
            try root.write("x.ips", Harness.body)
            server = try await FaultServer(root: root.path, tls: tls.path, names: names)
        }

        var ca: String { tls.path + "/ca.pem" }

        func client(trusting: Bool = true, idle: TimeInterval = 5, retries: Int = 3) -> HTTPClient {
            var configuration = HTTPConfiguration()
            configuration.maxRetries = retries
            configuration.baseDelay = 0.01
            configuration.idleTimeout = idle
            configuration.connectTimeout = 5
            // An empty SSL_CERT_FILE is ignored: libcurl's own bundle, which does not hold the test CA.
            let environment = ["SSL_CERT_FILE": trusting ? ca : ""]
            return HTTPClient(configuration: configuration, transport: RoutingTransport(environment: environment))
        }

        func stop() {
            server.stop()
            root.remove()
            tls.remove()
        }
    }

    @Test func httpsGetPostAndAnErrorStatusThroughATrustedCA() async throws {
        let h = try await TLSHarness()
        defer { h.stop() }
        let client = h.client()
        defer { client.close() }
        let response = try await client.send(HTTPRequest(url: h.server.url("x.ips")))
        #expect(response.status == 200)
        #expect(response.body == Harness.body)
        #expect(response.headers["Content-Length"] == "5000")
        // A second request reuses the handle and its connection.
        #expect(try await client.send(HTTPRequest(url: h.server.url("x.ips"))).body == Harness.body)

        let upload = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let echoed = try await client.send(
            HTTPRequest(
                method: "POST", url: h.server.url("post-echo"), body: .bytes(upload, contentType: "application/x-test"))
        )
        #expect(echoed.body == upload)
        #expect(echoed.headers["Content-Type"] == "application/x-test")
        #expect(echoed.headers["X-Received-Length"] == "300000")

        // `send` hands an error status to its caller (trackers read their error bodies).
        let missing = try await client.send(HTTPRequest(url: h.server.url("missing.ips")))
        #expect(missing.status == 404)
        #expect(missing.body == Array("not found\n".utf8))
    }

    @Test func anUntrustedCertificateIsRefusedWithoutRetrying() async throws {
        let h = try await TLSHarness()
        defer { h.stop() }
        let client = h.client(trusting: false)
        defer { client.close() }
        let error = try await Self.failure(of: HTTPRequest(url: h.server.url("x.ips")), client)
        #expect(error.attempts == 1)
        #expect(
            error.failure.message
                == "TLS failure (CURLcode 60: the server's certificate is not trusted or not for this host)")
    }

    @Test func aCertificateForAnotherHostIsRefused() async throws {
        let h = try await TLSHarness(names: "DNS:artifacts.other.test")
        defer { h.stop() }
        let client = h.client()
        defer { client.close() }
        let error = try await Self.failure(of: HTTPRequest(url: h.server.url("x.ips")), client)
        #expect(error.attempts == 1)
        #expect(error.failure.message.hasPrefix("TLS failure (CURLcode 60"))
    }

    @Test func aStalledHTTPSBodyTimesOut() async throws {
        let h = try await TLSHarness()
        defer { h.stop() }
        let client = h.client(idle: 1, retries: 0)
        defer { client.close() }
        let started = Date()
        let error = try await Self.failure(of: HTTPRequest(url: h.server.url("stall/x.ips")), client)
        // libcurl's progress callback runs about once a second: the limit acts within that (the bound is
        // loose for a loaded 2-core machine, as in DownloaderTests).
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(error.failure.message == "timed out after 1 s without data")
        #expect(error.status == 200)
    }

    @Test func httpThroughAProxyGoesToTheProxyWithTheAbsoluteURL() async throws {
        let h = try await Harness()
        defer { h.stop() }
        let url = URL(string: "http://artifacts.memhunt.invalid/x.ips")!
        let environment = ["http_proxy": "http://127.0.0.1:\(h.server.port)", "no_proxy": "localhost"]
        #expect(RoutingTransport.proxy(for: url, environment: environment) == "http://127.0.0.1:\(h.server.port)")
        let client = HTTPClient(transport: RoutingTransport(environment: environment))
        defer { client.close() }
        let response = try await client.send(HTTPRequest(url: url))
        #expect(response.status == 200)
        #expect(response.body == Harness.body)
        #expect(try await h.server.targets() == ["http://artifacts.memhunt.invalid/x.ips"])
    }

    /// HTTPS through a proxy: libcurl tunnels with CONNECT, and the certificate is still the server's,
    /// checked against the given CA (the proxy sees only the tunnel's address).
    @Test func httpsThroughAProxyTunnelsWithConnect() async throws {
        let h = try await TLSHarness()
        defer { h.stop() }
        let proxy = try await FaultServer(script: "connect_proxy.py", arguments: [])
        defer { proxy.stop() }
        var configuration = HTTPConfiguration()
        configuration.baseDelay = 0.01
        let environment = ["SSL_CERT_FILE": h.ca, "https_proxy": "http://127.0.0.1:\(proxy.port)"]
        #expect(RoutingTransport.proxy(for: h.server.url("x.ips"), environment: environment) != nil)
        let client = HTTPClient(configuration: configuration, transport: RoutingTransport(environment: environment))
        defer { client.close() }
        let response = try await client.send(HTTPRequest(url: h.server.url("x.ips")))
        #expect(response.status == 200)
        #expect(response.body == Harness.body)
        let (log, _) = try await URLSession.shared.data(from: proxy.url("__log"))
        #expect(String(decoding: log, as: UTF8.self) == "[\"127.0.0.1:\(h.server.port)\"]")
    }

    @Test func aProxyThatRefusesIsAConnectionFailureNamingNoURL() async throws {
        var configuration = HTTPConfiguration()
        configuration.baseDelay = 0.01
        configuration.maxRetries = 1
        let client = HTTPClient(
            configuration: configuration,
            transport: RoutingTransport(environment: ["http_proxy": "http://user:pw@127.0.0.1:9"]))
        defer { client.close() }
        let error = try await Self.failure(
            of: HTTPRequest(url: URL(string: "http://artifacts.memhunt.invalid/x.ips")!), client)
        #expect(error.failure.message == "connection refused")
        #expect(error.attempts == 2)
        #expect(!error.description.contains("pw"))
    }

    struct UnexpectedSuccess: Error {}

    /// The error of a request that must fail; a response is an issue recorded and ends the test.
    static func failure(of request: HTTPRequest, _ client: HTTPClient) async throws -> HTTPError {
        do {
            _ = try await client.send(request)
        } catch {
            return error
        }
        Issue.record("\(request.url) must fail")
        throw UnexpectedSuccess()
    }
}
