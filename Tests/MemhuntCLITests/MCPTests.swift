import Foundation
import MemhuntCore
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// `memhunt mcp` end to end through the official MCP Python SDK (`Tests/Support/mcp_client.py`): both protocol
/// eras, the tools and their schemas, the JustSend hunt, a hunt step by step, resources, malformed requests.
@Suite struct MCPClientTests {
    static let sdk = Tool.pythonHas("mcp")

    @Test(
        .enabled(if: sdk, "needs the mcp Python SDK from PyPI (scripts/setup --tests installs it)"),
        .enabled(if: BinaryTests.binary != nil, "needs the built memhunt executable"))
    func theOfficialSDKClientRunsTheJustSendHuntAndAStepByStepHunt() async throws {
        let python = try #require(Tool.which("python3"))
        let binary = try #require(BinaryTests.binary)
        let run = try await Tool.run(python, ["Tests/Support/mcp_client.py", binary])
        #expect(run.status == 0, "\(run.stderr.suffix(3000))")
        #expect(run.stdout.contains("ok: jetsam.app.peakMB is 725"))
        #expect(run.stdout.contains("ok: negotiated 2026-07-28"))
        #expect(run.stdout.contains("ok: initialize negotiates 2025-11-25"))
        #expect(run.stdout.contains("ok: and the server still answers a ping"))
    }
}

/// `memhunt mcp` with a tool call running (`Tests/Support/mcp_cancel.py`, raw JSON-RPC lines): a ping is
/// answered meanwhile, `notifications/cancelled` kills the call's external check within seconds and leaves the
/// call unanswered, the next call runs; a cancelled hunt step (`hunt_answer`) stops its check the same way.
/// Before, requests were answered one at a time and a cancellation was ignored: the ping waited for the run, and
/// the run's `sleep 60` ran on (a hunt step's, until this test).
@Suite struct MCPCancellationTests {
    @Test(.enabled(if: BinaryTests.binary != nil, "needs the built memhunt executable"))
    func aCancelledCallStopsAndAPingIsAnsweredWhileACallRuns() async throws {
        let python = try #require(Tool.which("python3"))
        let binary = try #require(BinaryTests.binary)
        let run = try await Tool.run(python, ["Tests/Support/mcp_cancel.py", binary])
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr.suffix(3000))")
        #expect(run.stdout.contains("ok: a ping is answered while the run runs"))
        #expect(run.stdout.contains("ok: the cancelled run's external check is gone"))
        #expect(run.stdout.contains("ok: the cancelled run is never answered"))
        #expect(run.stdout.contains("ok: the cancelled hunt step's external check is gone"))
        #expect(run.stdout.contains("ok: the cancelled hunt step is never answered"))
        #expect(run.stdout.contains("ok: a hunt step whose process dies answers with an error"))
        #expect(run.stdout.contains("ok: the server outlives the hunt step's process"))
        #expect(run.stdout.contains("ok: another hunt starts after it"))
    }
}

/// The server's JSON-RPC handling in this process: what each request is answered with.
@Suite struct MCPServerTests {
    static func server(allowNetwork: Bool = false, allowExec: Bool = false, timeout: TimeInterval = 60) -> MCPServer {
        MCPServer(
            configuration: MCPServer.Configuration(
                allowNetwork: allowNetwork, allowExec: allowExec, timeout: timeout, memoryLimitMB: 4096,
                executable: BinaryTests.binary),
            console: Console(
                stdin: InputReader(bytes: []), stdout: OutputWriter(), stderr: OutputWriter(), environment: [:]))
    }

    static func answer(_ line: String, _ server: MCPServer = server()) async throws -> [String: Any] {
        let answer = try #require(await server.handle(line))
        // What goes on the wire: one line of JSON.
        let wire = MCPServer.encode(answer)
        #expect(!wire.contains("\n"))
        return try #require(try JSONSerialization.jsonObject(with: Data(wire.utf8)) as? [String: Any])
    }

    static func code(_ answer: [String: Any]) -> Int? { (answer["error"] as? [String: Any])?["code"] as? Int }

    static func call(_ tool: String, _ arguments: String, _ server: MCPServer = server()) async throws -> (
        isError: Bool, text: String
    ) {
        let answer = try await answer(
            #"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"\#(tool)","arguments":\#(arguments)}}"#,
            server)
        let result = try #require(answer["result"] as? [String: Any])
        let text = ((result["content"] as? [[String: Any]])?.first?["text"] as? String) ?? ""
        return (result["isError"] as? Bool == true, text)
    }

    @Test func malformedMessagesAreJSONRPCErrors() async throws {
        let parse = try await Self.answer("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\"")
        #expect(Self.code(parse) == -32700)
        #expect(parse["id"] is NSNull)
        #expect(Self.code(try await Self.answer(#"{"jsonrpc":"2.0","id":2,"method":"nope"}"#)) == -32601)
        #expect(
            Self.code(try await Self.answer(#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":7}"#)) == -32602)
        #expect(
            Self.code(try await Self.answer(#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"zz"}}"#))
                == -32602)
        #expect(Self.code(try await Self.answer(#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#)) == -32600)
        #expect(Self.code(try await Self.answer(#"[{"jsonrpc":"2.0","id":5,"method":"ping"}]"#)) == -32600)
        #expect(Self.code(try await Self.answer(#"{"id":6,"method":"ping"}"#)) == -32600)
        // Notifications and responses are never answered.
        #expect(await Self.server().handle(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#) == nil)
        #expect(await Self.server().handle(#"{"jsonrpc":"2.0","id":1,"result":{}}"#) == nil)
    }

    @Test func initializeAnswersTheAskedRevisionOrTheLatest() async throws {
        func version(_ asked: String) async throws -> String? {
            let answer = try await Self.answer(
                #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"\#(asked)","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#
            )
            return (answer["result"] as? [String: Any])?["protocolVersion"] as? String
        }
        #expect(try await version("2025-03-26") == "2025-03-26")
        #expect(try await version("2024-11-05") == "2024-11-05")
        #expect(try await version("2099-01-01") == "2025-11-25")
    }

    @Test func theModernEnvelopeIsAnsweredInItsShape() async throws {
        let meta = #""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}"#
        let discover = try await Self.answer(
            #"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{\#(meta)}}"#)
        let result = try #require(discover["result"] as? [String: Any])
        #expect(result["supportedVersions"] as? [String] == ["2026-07-28"])
        #expect(result["resultType"] as? String == "complete")
        #expect(result["ttlMs"] as? Int == 0)
        #expect(result["cacheScope"] as? String == "private")
        let other = try await Self.answer(
            #"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2030-01-01"}}}"#
        )
        #expect(Self.code(other) == -32022)
        let data = try #require((other["error"] as? [String: Any])?["data"] as? [String: Any])
        #expect(data["requested"] as? String == "2030-01-01")
        #expect((data["supported"] as? [String])?.last == "2026-07-28")
    }

    @Test func everyToolHasItsSchemas() async throws {
        let answer = try await Self.answer(#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)
        let tools = try #require((answer["result"] as? [String: Any])?["tools"] as? [[String: Any]])
        #expect(
            tools.compactMap { $0["name"] as? String } == [
                "run", "inspect", "scan", "diff", "checks", "playbooks", "validate", "hunt_start", "hunt_step",
                "hunt_answer", "hunt_report", "ledger_add", "ledger_judge", "classify_leaks", "verify_fix",
            ])
        for tool in tools {
            #expect((tool["inputSchema"] as? [String: Any])?["type"] as? String == "object", "\(tool["name"]!)")
            #expect((tool["outputSchema"] as? [String: Any])?["type"] as? String == "object", "\(tool["name"]!)")
        }
        let diff = try #require(tools.first { $0["name"] as? String == "diff" }?["inputSchema"] as? [String: Any])
        #expect(diff["required"] as? [String] == ["before", "after"])
    }

    @Test func aWronglyTypedArgumentIsAnErrorResultThatNamesIt() async throws {
        let app = try await Self.call("run", #"{"artifacts":["Fixtures/justsend"],"app":7}"#)
        #expect(app.isError)
        #expect(app.text == "argument 'app' must be a string; got 7")
        let artifacts = try await Self.call("inspect", #"{"artifacts":["a", 3]}"#)
        #expect(artifacts.text == "argument 'artifacts' must be an array of strings; got 3")
        let unknown = try await Self.call("checks", #"{"verbose":true}"#)
        #expect(unknown.text == "unknown argument 'verbose'; this tool takes none")
        let missing = try await Self.call("run", #"{}"#)
        #expect(missing.text == "argument 'artifacts' is missing")
        let stdin = try await Self.call("run", #"{"artifacts":["-"]}"#)
        #expect(stdin.text == "argument 'artifacts': '-' (standard input) carries the protocol here; name a file")
    }

    @Test func urlsAndExecChecksNeedTheirFlags() async throws {
        let url = try await Self.call("run", #"{"artifacts":["https://example.com/a.ips?token=s3cret"]}"#)
        #expect(url.isError)
        #expect(
            url.text
                == "argument 'artifacts': https://example.com/a.ips?token=… is a URL; memhunt mcp reads local paths only "
                + "unless it was started with --allow-network")
        let exec = try await Self.call("hunt_start", #"{"playbook":"Fixtures/playbooks/valid/example.yaml"}"#)
        #expect(exec.isError)
        #expect(exec.text.hasPrefix("playbook Fixtures/playbooks/valid/example.yaml: step '"))
        #expect(
            exec.text.hasSuffix(
                "runs an external program (exec:); memhunt mcp runs them only when started with --allow-exec"))
    }

    /// What crashed the server (and every session in it) is answered: a hunt over a tar whose declared size is near
    /// `Int.max` starts, a range answer of 9.2 × 10^18 candidates is refused at once, and the server answers the
    /// next call.
    @Test func whatCrashedTheServerIsAnsweredAndTheServerGoesOn() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var header = [UInt8](repeating: 0, count: 512)
        for (i, b) in Array("s/logs/huge.log".utf8).enumerated() { header[i] = b }
        for (i, b) in Array("0000644\u{0}".utf8).enumerated() { header[100 + i] = b }
        header[124] = 0x80
        header[128] = 0x7F
        for i in 129..<136 { header[i] = 0xFF }
        header[156] = UInt8(ascii: "0")
        for (i, b) in Array("ustar\u{0}00".utf8).enumerated() { header[257 + i] = b }
        for i in 148..<156 { header[i] = 0x20 }
        let sum = header.reduce(0) { $0 + Int($1) }
        for (i, b) in Array(String(format: "%06o\u{0} ", sum).utf8).enumerated() { header[148 + i] = b }
        try dir.write("huge.tar", header + [UInt8](repeating: 0, count: 1024))
        try dir.write("JetsamEvent.ips", try Repo.bytes("justsend/JetsamEvent-2026-08-11-112056.ips"))
        // The in-process server reads the folder on the test's cooperative pool, which the in-process suites
        // beside it (ConsistencyTests' walks) keep busy: the bound here is not what the test is about.
        let server = Self.server(timeout: 600)
        let clock = ContinuousClock.now
        let started = try await Self.call("hunt_start", #"{"artifacts":["\#(dir.path)"],"app":"JustSend"}"#, server)
        #expect(!started.isError, "\(started.text) after \(ContinuousClock.now - clock)")
        let session = try #require(
            started.text.firstMatch(of: /"session" : "([^"]+)"/).map { String($0.1) }, "\(started.text)")
        let range = try await Self.call(
            "hunt_answer", #"{"session":"\#(session)","answer":"1-9223372036854775807"}"#, server)
        #expect(range.text.contains("There is no candidate 9223372036854775807: pick 1–"), "\(range.text)")
        let list = try await Self.answer(#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#, server)
        #expect(list["result"] != nil)
    }

    @Test func resourcesAreThePlaybooks() async throws {
        let server = Self.server()
        let list = try await Self.answer(#"{"jsonrpc":"2.0","id":1,"method":"resources/list"}"#, server)
        let uris = ((list["result"] as? [String: Any])?["resources"] as? [[String: Any]])?.compactMap {
            $0["uri"] as? String
        }
        #expect(uris == BuiltInPlaybooks.all.map { "memhunt://playbooks/\($0.id)" })
        let read = try await Self.answer(
            #"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"memhunt://playbooks/memory-hunt"}}"#,
            server)
        let contents = try #require((read["result"] as? [String: Any])?["contents"] as? [[String: Any]])
        #expect(contents.first?["text"] as? String == BuiltInPlaybooks.all.first { $0.id == "memory-hunt" }?.text)
        let none = try await Self.answer(
            #"{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"memhunt://findings/latest"}}"#, server)
        #expect(Self.code(none) == -32002)
    }

    /// The switch `memhunt mcp` sets for its runs without --allow-network: no request at all.
    @Test func noNetworkRefusesEveryDownload() async throws {
        let run = await memhunt(
            ["inspect", "--format", "json", "http://127.0.0.1:9/JetsamEvent.ips"],
            environment: ["MEMHUNT_NO_NETWORK": "1"])
        #expect(run.status == 2)
        #expect(
            run.stderr
                == "memhunt: exit 2: http://127.0.0.1:9/JetsamEvent.ips: not fetched: network access is off "
                + "(MEMHUNT_NO_NETWORK=1; memhunt mcp allows it with --allow-network)\n")
    }
}
