import Foundation
import MemhuntArtifacts
import MemhuntCore
import MemhuntReports

/// The step-at-a-time hunts of `memhunt mcp`: each is guided triage's walk (`TriageWalk`), answered through
/// `TriageWalk.respond` in triage's grammar, its state saved after every answer as triage saves it.
///
/// Every call that reads artifacts or runs checks (`hunt_start`, `hunt_step`, `hunt_answer`, `hunt_report`)
/// runs in a child memhunt (`Worker`): it restores the walk from the session's state file, does the call's work,
/// saves the state and prints the call's result. A crash, the memory limit or the call's timeout ends that
/// child (its process group is killed) and the call answers with an error; the server and its other sessions
/// go on. The server keeps only each session's state file.
final class MCPHunts {
    let configuration: MCPServer.Configuration
    let environment: [String: String]
    /// Where the sessions' state files are kept; removed when the server ends.
    private var folder: String?
    /// Each session's state file.
    private var sessions: [String: String] = [:]
    /// Sessions that ended, and why.
    private var ended: [String: String] = [:]
    private var started = 0

    /// The environment variable that makes `memhunt mcp` a hunt worker: the path of its request.
    static let requestVariable = "MEMHUNT_MCP_HUNT_REQUEST"

    init(configuration: MCPServer.Configuration, environment: [String: String]) {
        self.configuration = configuration
        self.environment = environment
    }

    func close() {
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }

    private func file(_ name: String) throws -> String {
        if folder == nil {
            guard let made = MCPTools.temporaryFolder("memhunt-mcp") else {
                throw CommandError("cannot make a folder for the hunt sessions: \(String(cString: strerror(errno)))")
            }
            folder = made
        }
        return folder! + "/" + name
    }

    // MARK: - Tools

    func start(operands: [String], app: String?, playbook reference: String?) async -> MCPTools.Result {
        started += 1
        let id = "hunt-\(started)"
        do {
            var request: JSONObject = [
                "op": "start", "session": id, "state": try file("\(id).json"), "operands": operands,
            ]
            if let app { request["app"] = app }
            if let reference { request["playbook"] = reference }
            let (result, _) = try await work(request, tool: "hunt_start")
            if !result.isError { sessions[id] = request["state"] as? String }
            return result
        } catch {
            return .failure("\(error)")
        }
    }

    /// Answers the pending step of session `id` (`""`: the proposal).
    func answer(_ answer: String, session id: String) async -> MCPTools.Result {
        guard let state = sessions[id] else { return .failure(missing(id)) }
        do {
            return try await work(
                ["op": "answer", "session": id, "state": state, "answer": answer], tool: "hunt_answer"
            )
            .result
        } catch let error as Ended {
            sessions[id] = nil
            ended[id] = error.why
            return .failure("session \(id): \(error.why); start another with hunt_start")
        } catch {
            return .failure("\(error)")
        }
    }

    /// The findings document of the steps run so far, with its gate decided as triage decides it at the end.
    func report(session id: String, format: String) async -> (result: MCPTools.Result, findings: String?) {
        guard let state = sessions[id] else { return (.failure(missing(id)), nil) }
        do {
            return try await work(
                ["op": "report", "session": id, "state": state, "format": format], tool: "hunt_report")
        } catch {
            return (.failure("session \(id): \(error)"), nil)
        }
    }

    private func missing(_ id: String) -> String {
        if let why = ended[id] { return "session \(id) is over: \(why)" }
        return "no hunt session '\(id)'"
            + (sessions.isEmpty
                ? "; start one with hunt_start"
                : "; the sessions are "
                    + sessions.keys.sorted().joined(separator: ", "))
    }

    /// A child that did not answer: the session it was working on is over.
    struct Ended: Error, CustomStringConvertible {
        var why: String
        var description: String { why }
    }

    /// `request` done by a child memhunt: its result, and the findings JSON of a report.
    private func work(_ request: JSONObject, tool: String) async throws -> (result: MCPTools.Result, findings: String?)
    {
        let path = try file("request-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let data = try JSONSerialization.data(withJSONObject: request, options: [.sortedKeys])
        try AtomicFile.write(String(decoding: data, as: UTF8.self), to: path)
        var environment = environment
        environment[Self.requestVariable] = path
        let child = await MCPTools.spawn(["mcp"], environment: environment, configuration: configuration)
        guard child.status == 0, let text = child.stdout,
            let answer = (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [])) as? JSONObject
        else {
            let step = (request["op"] as? String) == "answer" ? "the step" : "the call"
            if child.timedOut {
                throw Ended(
                    why: "\(step) ran past the timeout of \(Int(configuration.timeout)) s (memhunt mcp --timeout)")
            }
            if child.cancelled { throw Ended(why: "\(step) was cancelled while it ran") }
            if let problem = child.problem { throw Ended(why: "\(step) stopped: memhunt \(tool) \(problem)") }
            throw Ended(why: "\(step) failed: " + child.failure(tool: tool))
        }
        let result = MCPTools.Result(
            text: answer["text"] as? String ?? "", structured: answer["structured"] as? JSONObject,
            isError: answer["isError"] as? Bool ?? false)
        return (result, answer["findings"] as? String)
    }

    // MARK: - The worker: one call, in a child memhunt

    /// What `memhunt mcp` does when `requestVariable` names a request: the call's work, its answer on stdout as
    /// JSON (`text`, `structured`, `isError`, `findings`).
    static func work(requestFile: String, console: Console, allowExec: Bool) async -> JSONObject {
        guard let data = FileManager.default.contents(atPath: requestFile),
            let request = (try? JSONSerialization.jsonObject(with: data, options: [])) as? JSONObject,
            let op = request["op"] as? String, let id = request["session"] as? String,
            let state = request["state"] as? String
        else { return answer(.failure("the hunt request \(requestFile) could not be read")) }
        // A console whose streams are memory: the walk's prompts are not the protocol's, and it reads no stdin.
        let quiet = Console(
            stdin: InputReader(bytes: []), stdout: OutputWriter(), stderr: OutputWriter(),
            environment: console.environment)
        do {
            let collector = try ArtifactCollector(console: quiet)
            switch op {
            case "start":
                return answer(
                    await start(
                        id: id, state: state, operands: request["operands"] as? [String] ?? [],
                        app: request["app"] as? String, playbook: request["playbook"] as? String, console: quiet,
                        collector: collector, allowExec: allowExec))
            case "answer":
                var walk = try await restored(state, console: quiet, collector: collector, allowExec: allowExec)
                return answer(await respond(request["answer"] as? String ?? "", walk: &walk, id: id))
            default:
                let walk = try await restored(state, console: quiet, collector: collector, allowExec: allowExec)
                let (result, findings) = report(walk, format: request["format"] as? String ?? "json")
                var object = answer(result)
                if let findings { object["findings"] = findings }
                return object
            }
        } catch {
            return answer(.failure("\(error)"))
        }
    }

    private static func answer(_ result: MCPTools.Result) -> JSONObject {
        var object: JSONObject = ["text": result.text, "isError": result.isError]
        if let structured = result.structured { object["structured"] = structured }
        return object
    }

    /// A session's walk from its state file; its candidates are the session's operands (triage adds the files
    /// of its folder; a server's folder is not the hunt's).
    private static func restored(_ file: String, console: Console, collector: ArtifactCollector, allowExec: Bool)
        async throws -> TriageWalk
    {
        var walk = try await TriageWalk.restored(file, console: console, collector: collector, allowExec: allowExec)
        walk.pool = await collector.collect(walk.state.operands)
        walk.named = Set(walk.pool.map(\.source))
        return walk
    }

    private static func start(
        id: String, state file: String, operands: [String], app: String?, playbook reference: String?,
        console: Console, collector: ArtifactCollector, allowExec: Bool
    ) async -> MCPTools.Result {
        do {
            let playbook: Playbook
            do {
                playbook = try await PlaybookReference.load(
                    reference ?? "memory-hunt", collector: collector, console: console)
            } catch {
                let said = console.stderr.captured.trimmingCharacters(in: .whitespacesAndNewlines)
                return .failure("\(error)" + (said.isEmpty ? "" : "\n" + said))
            }
            var session = HuntSession(playbook: playbook, artifacts: [], app: app)
            session.allowExec = allowExec
            let state = TriageState(
                reported: nil, playbook: reference ?? playbook.id, operands: operands, format: "json", output: nil,
                session: session.state)
            var walk = TriageWalk(
                console: console, collector: collector, state: state, session: session, pool: [], stateFile: file)
            walk.pool = await collector.collect(operands)
            walk.named = Set(walk.pool.map(\.source))
            try walk.save()
            var result = describe(walk, id: id)
            let unread = walk.pool.filter { $0.isOperand && $0.status == .error && $0.size == nil }
            if !unread.isEmpty {
                result["unread"] = unread.map { $0.error ?? $0.source }
            }
            return MCPTools.Result(text: text(result), structured: result)
        } catch {
            return .failure("\(error)")
        }
    }

    private static func respond(_ answer: String, walk: inout TriageWalk, id: String) async -> MCPTools.Result {
        guard let index = walk.session.pendingIndex else {
            return .failure("session \(id) has run every step; call hunt_report")
        }
        let candidates = walk.candidates(for: index)
        let proposal = walk.proposal(for: index, candidates: candidates)
        let response = await walk.respond(answer, step: index, candidates: candidates, proposal: proposal)
        do { try walk.save() } catch { return .failure("\(error)") }
        var result = describe(walk, id: id)
        switch response {
        case .ran:
            result["response"] = "ran"
            let document = walk.document()
            if let record = document.steps.first(where: { $0.number == index + 1 }),
                let json = MCPTools.object(JSONText.pretty(record))
            {
                result["result"] = json
                let text = TextReporter.step(
                    record, in: document, options: ReportOptions(colored: false, decisions: MCPTools.decisions))
                return MCPTools.Result(text: text + "\n" + Self.text(result), structured: result)
            }
        case .skipped: result["response"] = "skipped"
        case .back: result["response"] = "back"
        case .quit: result["response"] = "quit"
        case .said(let lines):
            result["response"] = "said"
            result["said"] = lines.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return MCPTools.Result(text: text(result), structured: result)
    }

    private static func report(_ walk: TriageWalk, format: String) -> (result: MCPTools.Result, findings: String?) {
        var document = walk.document()
        document.gate = FindingsDocument.Gate.decide(
            document, failOn: walk.session.playbook.failOn, failOrigin: walk.session.playbook.gateOrigin,
            operands: walk.state.operands)
        let json = JSONText.pretty(document)
        guard let structured = MCPTools.object(json) else {
            return (.failure("the findings document could not be made"), nil)
        }
        return (
            MCPTools.Result(text: MCPTools.render(document, json: json, format: format), structured: structured), json
        )
    }

    // MARK: - What a step looks like to an agent

    /// The session and its pending step: what it inspects and tells, its candidates and what the proposal is.
    static func describe(_ walk: TriageWalk, id: String) -> JSONObject {
        let session = walk.session
        var result: JSONObject = [
            "session": id, "playbook": ["id": session.playbook.id, "title": session.playbook.title],
            "finished": session.isFinished, "steps": session.playbook.steps.count,
        ]
        guard let index = session.pendingIndex else { return result }
        let step = session.playbook.steps[index]
        let candidates = walk.candidates(for: index)
        var pending: JSONObject = [
            "number": index + 1, "id": step.id, "title": step.title, "reads": step.reads.map(\.rawValue),
            "proposal": walk.proposal(for: index, candidates: candidates),
            "candidates": candidates.enumerated().map { offset, candidate -> JSONObject in
                var entry: JSONObject = [
                    "number": offset + 1, "source": candidate.source, "status": candidate.status.rawValue,
                ]
                if let kind = candidate.kind { entry["kind"] = kind.rawValue }
                if let time = TriageWalk.time(candidate) { entry["time"] = time }
                return entry
            },
            "given": session.candidates(forStep: index).map(\.source),
        ]
        if !step.inspects.isEmpty { pending["inspects"] = step.inspects }
        if !step.tells.isEmpty { pending["tells"] = step.tells }
        if let collect = step.collect { pending["collect"] = collect }
        if let empty = step.empty { pending["empty"] = empty }
        result["pending"] = pending
        return result
    }

    /// The output schema of hunt_start, hunt_step and hunt_answer.
    static var stepSchema: JSONObject {
        [
            "type": "object", "required": ["session", "playbook", "finished", "steps"],
            "properties": [
                "session": ["type": "string"], "finished": ["type": "boolean"], "steps": ["type": "integer"],
                "playbook": ["type": "object"], "pending": ["type": "object"],
                "response": ["type": "string", "enum": ["ran", "skipped", "back", "quit", "said"]],
                "result": ["type": "object"], "said": ["type": "array", "items": ["type": "string"]],
                "unread": ["type": "array", "items": ["type": "string"]],
            ],
        ]
    }

    static func text(_ object: JSONObject) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        else { return "" }
        return String(decoding: data, as: UTF8.self)
    }
}
