import Foundation
import MemhuntCore

/// A JSON value as `JSONSerialization` reads and writes it.
typealias JSONObject = [String: Any]

/// The Model Context Protocol server: one JSON-RPC 2.0 message per line.
///
/// Requests are handled as they come and answered as they finish: a ping or a list is answered while a tool call
/// runs. Tool calls and resource reads, which share the hunt sessions and the latest findings, run one at a
/// time in the order they came. `notifications/cancelled` stops its request and leaves it unanswered, as the
/// protocol asks: a tool call's memhunt is killed, a hunt step is cancelled (its downloads and external checks
/// stop, its session ends), a call still waiting for its turn does not run.
///
/// Both eras of the protocol: the `initialize` handshake (revisions 2024-11-05 to 2025-11-25) and the
/// per-request envelope of 2026-07-28 (`server/discover`; each request's `_meta` names the revision). A message
/// that is not valid JSON-RPC is answered with a JSON-RPC error, a tool that fails with an error result
/// (`isError`); nothing a client sends ends the server but the end of its input.
///
/// Unchecked: its one mutable part, `tools` (the sessions and the latest findings), is reached only through
/// `gate`, one request at a time.
final class MCPServer: @unchecked Sendable {
    struct Configuration: Sendable {
        var allowNetwork: Bool
        var allowExec: Bool
        var timeout: TimeInterval
        var memoryLimitMB: Int
        /// The memhunt that each tool call runs: this one (a test's server names the built one).
        var executable: String? = MCPTools.executable
    }

    /// The revisions of the `initialize` handshake, oldest first.
    static let handshakeVersions = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
    /// The revisions of the per-request envelope (`server/discover`).
    static let modernVersions = ["2026-07-28"]
    /// The `_meta` keys of the 2026-07-28 envelope.
    static let protocolVersionKey = "io.modelcontextprotocol/protocolVersion"
    static let serverInfoKey = "io.modelcontextprotocol/serverInfo"

    /// JSON-RPC error codes.
    enum Code: Int {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case internalError = -32603
        case resourceNotFound = -32002
        case unsupportedProtocolVersion = -32022
    }

    /// A request answered with a JSON-RPC error.
    /// `data` holds JSON values only (strings, arrays and objects of them).
    struct Failure: Error, @unchecked Sendable {
        var code: Code
        var message: String
        var data: Any?
    }

    /// The longest message read; a longer line is cut there and answered as a parse error.
    static let maxLineBytes = 16 << 20

    let configuration: Configuration
    let console: Console
    let tools: MCPTools

    init(configuration: Configuration, console: Console) {
        self.configuration = configuration
        self.console = console
        tools = MCPTools(configuration: configuration, console: console)
    }

    /// Tool calls and resource reads, one at a time.
    let gate = SerialGate()

    /// Reads messages until the end of stdin, answers each as it finishes, and returns once every request read
    /// is answered (or cancelled).
    func serve() async {
        let flight = InFlight()
        // The requests not known to be answered, kept to be waited for at the end; the answered ones are dropped
        // as more come, so a long session does not keep one per request.
        var tasks: [(entry: InFlight.Entry, task: Task<Void, Never>)] = []
        for await line in Self.lines(console.stdin) {
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            // Parsed once: the id is wanted here, the rest by `handle`.
            let message = Parsed(value: Self.parse(line))
            let (id, cancels) = Self.peek(message.value)
            if let cancels {
                flight.cancel(cancels)
                continue
            }
            let entry = flight.register(id)
            let task = Task {
                let answer = await self.handle(parsed: message.value)
                // A cancelled request is not answered.
                guard flight.finish(entry), let answer else { return }
                self.console.stdout.write(Self.encode(answer) + "\n")
            }
            flight.attach(task, to: entry)
            if tasks.count >= 64 { tasks.removeAll { flight.isDone($0.entry) } }
            tasks.append((entry, task))
        }
        for (_, task) in tasks { await task.value }
        tools.close()
    }

    /// The lines of `input`, read on a thread of their own: a read blocks, and the cooperative pool (two threads
    /// on two cores) must stay free for the requests being answered.
    static func lines(_ input: InputReader) -> AsyncStream<String> {
        AsyncStream { continuation in
            Thread.detachNewThread {
                while let line = input.readLine(maxLength: maxLineBytes) { continuation.yield(line) }
                continuation.finish()
            }
        }
    }

    /// A line as JSON, nil when it is none.
    static func parse(_ line: String) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
    }

    /// A parsed line, handed to the task that answers it. Unchecked: `JSONSerialization`'s values are read only.
    struct Parsed: @unchecked Sendable {
        let value: Any?
    }

    /// A message's id as JSON text (a request's), or the id a `notifications/cancelled` names.
    static func peek(_ parsed: Any?) -> (id: String?, cancels: String?) {
        guard let message = parsed as? JSONObject else { return (nil, nil) }
        let id = message["id"].flatMap(validID).flatMap(literal)
        if id == nil, message["method"] as? String == "notifications/cancelled" {
            let requestID = (message["params"] as? JSONObject)?["requestId"]
            return (nil, requestID.flatMap(validID).flatMap(literal))
        }
        return (id, nil)
    }

    /// The requests being answered, by id (as JSON text: `7` and `"7"` are two ids).
    final class InFlight: @unchecked Sendable {
        final class Entry: @unchecked Sendable {
            let id: String?
            var task: Task<Void, Never>?
            var cancelled = false
            var done = false
            init(id: String?) { self.id = id }
        }
        private let lock = NSLock()
        private var entries: [String: Entry] = [:]

        func register(_ id: String?) -> Entry {
            let entry = Entry(id: id)
            lock.withLock { if let id { entries[id] = entry } }
            return entry
        }

        func attach(_ task: Task<Void, Never>, to entry: Entry) {
            let cancel: Bool = lock.withLock {
                entry.task = task
                return entry.cancelled
            }
            if cancel { task.cancel() }
        }

        /// Whether the request is to be answered (not cancelled); it is no longer in flight.
        func finish(_ entry: Entry) -> Bool {
            lock.withLock {
                entry.done = true
                if let id = entry.id, entries[id] === entry { entries[id] = nil }
                return !entry.cancelled
            }
        }

        /// Whether the request has finished (answered or not).
        func isDone(_ entry: Entry) -> Bool { lock.withLock { entry.done } }

        /// Cancels the request with this id, when it is still in flight (an unknown or answered one is ignored).
        func cancel(_ id: String) {
            let task: Task<Void, Never>? = lock.withLock {
                guard let entry = entries[id], !entry.done else { return nil }
                entry.cancelled = true
                return entry.task
            }
            task?.cancel()
        }
    }

    /// A first-come, first-served lock for async code.
    final class SerialGate: @unchecked Sendable {
        private let lock = NSLock()
        private var busy = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func enter() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let enters: Bool = lock.withLock {
                    guard busy else {
                        busy = true
                        return true
                    }
                    waiting.append(continuation)
                    return false
                }
                if enters { continuation.resume() }
            }
        }

        func leave() {
            let next: CheckedContinuation<Void, Never>? = lock.withLock {
                guard !waiting.isEmpty else {
                    busy = false
                    return nil
                }
                return waiting.removeFirst()
            }
            next?.resume()
        }

        /// `work`, when its turn comes and its task is not cancelled by then.
        func run<T>(_ work: () async throws -> T) async throws -> T {
            await enter()
            defer { leave() }
            try Task.checkCancellation()
            return try await work()
        }
    }

    /// One line compact, no line break inside (JSONSerialization escapes those in strings).
    static func encode(_ object: JSONObject) -> String {
        guard JSONSerialization.isValidJSONObject(object),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        else {
            return #"{"error":{"code":-32603,"message":"the answer could not be encoded"},"id":null,"jsonrpc":"2.0"}"#
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The answer to one line, or nil for a notification (and a response, which this server never asks for).
    func handle(_ line: String) async -> JSONObject? { await handle(parsed: Self.parse(line)) }

    /// The answer to a line as `parse` read it (nil: not JSON).
    func handle(parsed: Any?) async -> JSONObject? {
        guard let parsed else {
            return Self.error(id: NSNull(), Failure(code: .parseError, message: "Parse error: not JSON"))
        }
        guard let message = parsed as? JSONObject else {
            let why = parsed is [Any] ? "batches are not supported" : "a request is a JSON object"
            return Self.error(id: NSNull(), Failure(code: .invalidRequest, message: "Invalid Request: \(why)"))
        }
        let id = message["id"]
        guard message["jsonrpc"] as? String == "2.0" else {
            return Self.error(
                id: Self.validID(id) ?? NSNull(),
                Failure(code: .invalidRequest, message: "Invalid Request: \"jsonrpc\" must be \"2.0\""))
        }
        guard let method = message["method"] as? String else {
            // A response to a request of ours (there are none) is ignored; anything else is not a message.
            if id != nil, message["result"] != nil || message["error"] != nil { return nil }
            return Self.error(
                id: Self.validID(id) ?? NSNull(),
                Failure(code: .invalidRequest, message: "Invalid Request: \"method\" must be a string"))
        }
        guard let id else { return nil }  // A notification (initialized, cancelled, …): never answered.
        guard let requestID = Self.validID(id) else {
            return Self.error(
                id: NSNull(),
                Failure(code: .invalidRequest, message: "Invalid Request: \"id\" must be a string or a number"))
        }
        do {
            let params: JSONObject
            switch message["params"] {
            case nil: params = [:]
            case let object as JSONObject: params = object
            default: throw Failure(code: .invalidParams, message: "Invalid params: \"params\" must be an object")
            }
            let modern = try Self.envelopeVersion(params, method: method)
            var result = try await answer(method, params: params, modern: modern)
            if modern != nil { result = Self.stamped(result, method: method) }
            return ["jsonrpc": "2.0", "id": requestID, "result": result]
        } catch let failure as Failure {
            return Self.error(id: requestID, failure)
        } catch {
            return Self.error(id: requestID, Failure(code: .internalError, message: "Internal error: \(error)"))
        }
    }

    /// A JSON-RPC id: a string or a number (not a boolean, null, array or object).
    static func validID(_ id: Any?) -> Any? {
        if let text = id as? String { return text }
        guard let id, let shown = literal(id), shown.first.map({ $0 == "-" || $0.isNumber }) == true else { return nil }
        return id
    }

    /// A JSON value as JSON text (`7`, `true`, `"x"`, `[1]`): how a client's value is quoted back to it. Reading
    /// the text tells a number from a boolean on every platform (Foundation's bridging does not).
    static func literal(_ value: Any) -> String? {
        guard JSONSerialization.isValidJSONObject([value]),
            let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys])
        else { return nil }
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }

    /// The revision a 2026-07-28 request names in its `_meta`, or nil for a request of the handshake era.
    static func envelopeVersion(_ params: JSONObject, method: String) throws -> String? {
        let meta = params["_meta"] as? JSONObject
        guard let version = meta?[protocolVersionKey] else {
            if method == "server/discover" {
                throw Failure(
                    code: .invalidParams,
                    message: "Invalid params: server/discover needs params._meta[\"\(protocolVersionKey)\"]")
            }
            return nil
        }
        guard let text = version as? String, modernVersions.contains(text) else {
            throw Failure(
                code: .unsupportedProtocolVersion, message: "Unsupported protocol version",
                data: ["supported": handshakeVersions + modernVersions, "requested": "\(version)"])
        }
        return text
    }

    /// A 2026-07-28 result: tagged complete, lists and reads with their caching directives (none), and the
    /// server named.
    static func stamped(_ result: JSONObject, method: String) -> JSONObject {
        var result = result
        result["resultType"] = "complete"
        if method.hasSuffix("/list") || method == "resources/read" || method == "server/discover" {
            result["ttlMs"] = 0
            result["cacheScope"] = "private"
        }
        var meta = result["_meta"] as? JSONObject ?? [:]
        meta[serverInfoKey] = serverInfo
        result["_meta"] = meta
        return result
    }

    static func error(id: Any, _ failure: Failure) -> JSONObject {
        var error: JSONObject = ["code": failure.code.rawValue, "message": failure.message]
        if let data = failure.data { error["data"] = data }
        return ["jsonrpc": "2.0", "id": id, "error": error]
    }

    static var serverInfo: JSONObject { ["name": "memhunt", "title": "memhunt", "version": Memhunt.version] }

    static let instructions =
        "memhunt runs memory investigations over iOS artifacts (JetsamEvent .ips, crash reports, MetricKit payloads, "
        + "sysdiagnose archives, vmmap/footprint/heap/leaks output, Instruments exports). Call run with the artifacts' "
        + "paths (and app, the process name or bundle id) for the whole hunt and its findings document; or hunt_start, "
        + "then hunt_step (or hunt_answer) per step, then hunt_report. inspect shows what one artifact says; scan folds "
        + "many records into per-app figures; diff compares two saved findings documents."

    static var capabilities: JSONObject {
        ["tools": ["listChanged": false], "resources": ["listChanged": false, "subscribe": false]]
    }

    /// The result of `method`, or a `Failure`.
    func answer(_ method: String, params: JSONObject, modern: String?) async throws -> JSONObject {
        switch method {
        case "initialize":
            guard let asked = params["protocolVersion"] as? String else {
                throw Failure(code: .invalidParams, message: "Invalid params: \"protocolVersion\" must be a string")
            }
            let version = Self.handshakeVersions.contains(asked) ? asked : Self.handshakeVersions.last!
            return [
                "protocolVersion": version, "capabilities": Self.capabilities, "serverInfo": Self.serverInfo,
                "instructions": Self.instructions,
            ]
        case "server/discover":
            return [
                "supportedVersions": Self.modernVersions, "capabilities": Self.capabilities,
                "instructions": Self.instructions,
            ]
        case "ping":
            return [:]
        case "tools/list":
            return ["tools": tools.catalog]
        case "tools/call":
            guard let name = params["name"] as? String else {
                throw Failure(code: .invalidParams, message: "Invalid params: \"name\" must be a string")
            }
            let arguments: JSONObject
            switch params["arguments"] {
            case nil, is NSNull: arguments = [:]
            case let object as JSONObject: arguments = object
            default: throw Failure(code: .invalidParams, message: "Invalid params: \"arguments\" must be an object")
            }
            guard tools.names.contains(name) else {
                throw Failure(
                    code: .invalidParams,
                    message: "Unknown tool: \(name)\(Suggestion.hint(for: name, among: tools.names))")
            }
            return try await gate.run { await tools.call(name, arguments: arguments).json }
        case "resources/list":
            return try await gate.run { ["resources": tools.resources] }
        case "resources/templates/list":
            return ["resourceTemplates": []]
        case "resources/read":
            guard let uri = params["uri"] as? String else {
                throw Failure(code: .invalidParams, message: "Invalid params: \"uri\" must be a string")
            }
            guard let contents = try await gate.run({ tools.read(uri) }) else {
                throw Failure(code: .resourceNotFound, message: "Resource not found", data: ["uri": uri])
            }
            return ["contents": [contents]]
        default:
            throw Failure(code: .methodNotFound, message: "Method not found", data: method)
        }
    }
}
