import Foundation
import MemhuntHTTP
import MemhuntTestSupport
import Testing

/// A transport that answers from a script and records what it was asked: the policy without a network.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    enum Step {
        case response(Int, HTTPHeaders, [UInt8])
        case failure(HTTPFailure)
    }

    private let script: Locked<[Step]>
    let sent = Locked<[HTTPRequest]>([])

    init(_ steps: [Step]) { script = Locked(steps) }

    func exchange(_ request: HTTPRequest, limits: HTTPExchangeLimits, receiver: HTTPResponseReceiver) async
        -> HTTPFailure?
    {
        sent.withLock { $0.append(request) }
        let step = script.withLock {
            $0.isEmpty ? .failure(.network("script ended", retryable: false)) : $0.removeFirst()
        }
        switch step {
        case .failure(let failure): return failure
        case .response(let status, let headers, let body):
            var headers = headers
            if headers["Content-Length"] == nil { headers["Content-Length"] = "\(body.count)" }
            if let failure = receiver.receive(
                head: HTTPResponseHead(status: status, headers: headers, url: request.url))
            {
                return failure
            }
            return body.isEmpty ? nil : receiver.receive(body: Data(body))
        }
    }

    func close() {}
}

@Suite struct HTTPClientTests {
    static let token = "tok-5d1e-never-shown"

    func client(_ steps: [ScriptedTransport.Step], configure: (inout HTTPConfiguration) -> Void = { _ in }) -> (
        HTTPClient, ScriptedTransport
    ) {
        var configuration = HTTPConfiguration()
        configuration.baseDelay = 0.001
        configure(&configuration)
        let transport = ScriptedTransport(steps)
        return (HTTPClient(configuration: configuration, transport: transport), transport)
    }

    let url = URL(string: "https://api.example/v1/issues")!

    @Test func retriesConnectionErrors408429And5xxThenAnswers() async throws {
        let (client, transport) = client([
            .failure(.network("connection refused", retryable: true)), .response(408, [:], []),
            .response(429, ["Retry-After": "0"], []), .response(503, [:], []), .response(200, [:], Array("ok".utf8)),
        ]) { $0.maxRetries = 4 }
        let response = try await client.send(HTTPRequest(url: url))
        #expect(response.status == 200)
        #expect(response.body == Array("ok".utf8))
        #expect(transport.sent.withLock { $0.count } == 5)
    }

    @Test(arguments: [400, 401, 403, 404, 410, 422]) func neverRetriesOther4xx(status: Int) async throws {
        let (client, transport) = client([.response(status, [:], Array("{}".utf8)), .response(200, [:], [])])
        let response = try await client.send(HTTPRequest(url: url))
        #expect(response.status == status)
        #expect(response.body == Array("{}".utf8))
        #expect(transport.sent.withLock { $0.count } == 1)
    }

    @Test func retryAfterInSecondsAndAsAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_445_412_478)  // Wed, 21 Oct 2015 07:27:58 GMT
        #expect(HTTPClient.retryAfter("7", now: now) == 7)
        #expect(HTTPClient.retryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now: now) == 2)
        #expect(HTTPClient.retryAfter("Wed, 21 Oct 2015 07:27:00 GMT", now: now) == 0)
        #expect(HTTPClient.retryAfter("soon", now: now) == nil)
    }

    @Test func credentialsStayWithTheirOriginThroughRedirects() async throws {
        let (client, transport) = client([
            .response(302, ["Location": "/v1/moved"], []),
            .response(307, ["Location": "https://evil.example/collect"], []),
            .response(200, [:], []),
        ]) {
            $0.bearerToken = Self.token
            $0.headers = ["X-Team": "team-secret"]
        }
        _ = try await client.send(
            HTTPRequest(url: url, headers: ["Cookie": "c=1", "Authorization": "Basic x"]))
        let sent = transport.sent.withLock { $0 }
        #expect(
            sent.map(\.url.absoluteString) == [
                url.absoluteString, "https://api.example/v1/moved", "https://evil.example/collect",
            ])
        #expect(sent[0].headers["Authorization"] == "Bearer \(Self.token)")
        #expect(sent[1].headers["X-Team"] == "team-secret")
        #expect(sent[2].headers["Authorization"] == nil)
        #expect(sent[2].headers["X-Team"] == nil)
        #expect(sent[2].headers["Cookie"] == nil)
        #expect(sent.allSatisfy { $0.headers["Accept-Encoding"] == "identity" })
    }

    @Test func aRequestForAnotherOriginGetsNoCredentials() async throws {
        let (client, transport) = client([.response(200, [:], [])]) { $0.bearerToken = Self.token }
        let operand = try #require(HTTPOrigin(URL(string: "http://127.0.0.1:8000/m.json")!))
        _ = try await client.send(
            HTTPRequest(url: URL(string: "http://localhost:8000/a.ips")!, credentialOrigin: operand))
        #expect(transport.sent.withLock { $0[0].headers["Authorization"] } == nil)
    }

    @Test func aRedirectToFTPIsRefusedAndNotRetried() async throws {
        let (client, transport) = client([.response(302, ["Location": "ftp://files.example/x"], [])])
        let error = await #expect(throws: HTTPError.self) { try await client.send(HTTPRequest(url: url)) }
        #expect(error?.description == "https://api.example/v1/issues: redirect refused: to a ftp URL, not http(s)")
        #expect(transport.sent.withLock { $0.count } == 1)
    }

    @Test func aLineBreakInTheTokenIsRefusedUnsent() async throws {
        let (client, transport) = client([.response(200, [:], [])]) { $0.bearerToken = "abc\r\nX-Evil: 1" }
        let error = await #expect(throws: HTTPError.self) { try await client.send(HTTPRequest(url: url)) }
        #expect(error?.failure == .invalidRequest("a header or the token contains a line break"))
        #expect(error.map { !$0.description.contains("abc") } == true)
        #expect(transport.sent.withLock { $0.count } == 0)
    }

    @Test func jsonAndMultipartBodiesAndSeeOther() async throws {
        let (client, transport) = client([
            .response(201, [:], []), .response(303, ["Location": "/v1/uploads/1"], []), .response(200, [:], []),
        ])
        _ = try await client.send(HTTPRequest(method: "POST", url: url, body: try .json(["title": "leak"])))
        let upload = HTTPBody.multipart(
            [MultipartPart(name: "file", filename: "a\".ips", contentType: "application/octet-stream", data: [1, 2])],
            boundary: "B")
        _ = try await client.send(HTTPRequest(method: "POST", url: url, body: upload))
        let sent = transport.sent.withLock { $0 }
        #expect(sent[0].body == .bytes(Array(#"{"title":"leak"}"#.utf8), contentType: "application/json"))
        let expected =
            "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a%22.ips\"\r\n"
            + "Content-Type: application/octet-stream\r\n\r\n\u{1}\u{2}\r\n--B--\r\n"
        #expect(sent[1].body == .bytes(Array(expected.utf8), contentType: "multipart/form-data; boundary=B"))
        #expect(sent[2].method == "GET")
        #expect(sent[2].body == .empty)
    }

    @Test func errorsNeverQuoteUserInfoOrQueryValues() async throws {
        let (client, _) = client([.response(500, [:], [])]) { $0.maxRetries = 0 }
        let secretURL = URL(string: "https://me:pw-9q@api.example/x?key=\(Self.token)")!
        let response = try await client.send(HTTPRequest(url: secretURL))
        #expect(response.status == 500)
        let (failing, _) = self.client([.failure(.network("connection refused", retryable: true))]) {
            $0.maxRetries = 0
        }
        let error = await #expect(throws: HTTPError.self) { try await failing.send(HTTPRequest(url: secretURL)) }
        #expect(error?.description == "https://api.example/x?key=…: connection refused")
    }

    @Test func retriesStopAtTheTotalDeadline() async throws {
        let (client, transport) = client(Array(repeating: .response(503, [:], []), count: 10)) {
            $0.maxRetries = 9
            $0.baseDelay = 0.4
            $0.totalTimeout = 1
        }
        let response = try await client.send(HTTPRequest(url: url))
        #expect(response.status == 503)
        // Waits of at least 0.2, 0.4 and 0.8 s: a fourth attempt would start past the 1 s deadline, so at most
        // three are made however slow the machine (without the deadline: all ten).
        #expect((1...3).contains(transport.sent.withLock { $0.count }))
    }
}

/// The client against the loopback fault server.
@Suite(.enabled(if: FaultServer.available, "needs python3")) struct HTTPClientServerTests {
    @Test func asksForIdentityAndRefusesACompressedBodyAtTheHead() async throws {
        let h = try await Harness()
        defer { h.stop() }
        let echo = await h.download("echo-headers")
        let headers = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: echo.localPath!)))
        #expect((headers as? [String: String])?["Accept-Encoding"] == "identity")
        // Before: decoded bytes were counted against the compressed Content-Length ("body cut short").
        let result = await h.download("gzip/x.ips")
        #expect(
            result.error
                == "\(h.server.url("gzip/x.ips")): refused a body with Content-Encoding 'gzip' (memhunt asks for identity)"
        )
        #expect(result.attempts == 1)
        #expect(h.cached() == [echo.localPath!.split(separator: "/").last.map(String.init)!])
    }

    @Test func aTrickleIsCutAtTheTotalDeadline() async throws {
        let h = try await Harness()
        defer { h.stop() }
        let start = Date()
        let result = await h.download("trickle/1000") {
            $0.totalTimeout = 1.5
            $0.idleTimeout = 2
        }
        // The trickle lasts 300 s and never idles 2 s; only the total deadline ends it early (the bound is
        // loose: with four test suites on two cores, timers ran 10 s late).
        #expect(Date().timeIntervalSince(start) < 60)
        #expect(result.error == "\(h.server.url("trickle/1000")): not complete within 1.5 s (total time limit)")
        #expect(h.cached() == [])
    }

    @Test(arguments: ["redirect-ftp", "big-header"]) func pointlessRetriesAreNotMade(path: String) async throws {
        let h = try await Harness()
        defer { h.stop() }
        let result = await h.download(path)
        #expect(result.error != nil)
        #expect(result.attempts == 1, "\(result.error ?? "")")
        #expect(try await h.server.log().count == 1)
    }
}
