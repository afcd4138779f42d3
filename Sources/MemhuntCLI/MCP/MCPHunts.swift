import Foundation
import MemhuntArtifacts
import MemhuntCore
import MemhuntReports

/// The step-at-a-time hunts of `memhunt mcp`: each is guided triage's walk (`TriageWalk`), answered through
/// `TriageWalk.respond` in triage's grammar, its state saved after every answer as triage saves it.
///
/// A step runs in this process, bounded by the call's timeout: a step still running then is left to end on its
/// own, the call answers with an error, and the session is over (its walk is not given back).
final class MCPHunts {
    let configuration: MCPServer.Configuration
    let environment: [String: String]
    /// Where the sessions' state files are kept; removed when the server ends.
    private var folder: String?
    private var walks: [String: TriageWalk] = [:]
    /// Sessions that ended, and why.
    private var ended: [String: String] = [:]
    private var started = 0

    init(configuration: MCPServer.Configuration, environment: [String: String]) {
        self.configuration = configuration
        self.environment = environment
    }

    func close() {
        if let folder { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// A console whose streams are memory: the walk's prompts are not the protocol's, and it reads no stdin.
    private var console: Console {
        Console(stdin: InputReader(bytes: []), stdout: OutputWriter(), stderr: OutputWriter(), environment: environment)
    }

    private func stateFile(_ id: String) throws -> String {
        if folder == nil {
            let template = NSTemporaryDirectory() + "/memhunt-mcp.XXXXXX"
            var bytes = Array(template.utf8CString)
            guard mkdtemp(&bytes) != nil else {
                throw CommandError("cannot make a folder for the hunt sessions: \(String(cString: strerror(errno)))")
            }
            folder = String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return folder! + "/\(id).json"
    }

    // MARK: - Tools

    func start(operands: [String], app: String?, playbook reference: String?) async -> MCPTools.Result {
        let console = console
        do {
            let collector = try ArtifactCollector(console: console)
            let playbook: Playbook
            do {
                playbook = try await PlaybookReference.load(
                    reference ?? "memory-hunt", collector: collector, console: console)
            } catch {
                let said = console.stderr.captured.trimmingCharacters(in: .whitespacesAndNewlines)
                return .failure("\(error)" + (said.isEmpty ? "" : "\n" + said))
            }
            var session = HuntSession(playbook: playbook, artifacts: [], app: app)
            session.allowExec = configuration.allowExec
            started += 1
            let id = "hunt-\(started)"
            let state = TriageState(
                reported: nil, playbook: reference ?? playbook.id, operands: operands, format: "json", output: nil,
                session: session.state)
            var walk = TriageWalk(
                console: console, collector: collector, state: state, session: session, pool: [],
                stateFile: try stateFile(id))
            // The candidates are the operands (triage adds the files of its folder; a server's folder is not the
            // hunt's), read within the call's timeout.
            let pool = await Self.bounded(configuration.timeout) { await collector.collect(operands) }
            guard let pool else {
                return .failure(
                    "the artifacts were not read within \(Int(configuration.timeout)) s (memhunt mcp --timeout)")
            }
            walk.pool = pool
            walk.named = Set(pool.map(\.source))
            try walk.save()
            walks[id] = walk
            var result = Self.describe(walk, id: id)
            let unread = walk.pool.filter { $0.isOperand && $0.status == .error && $0.size == nil }
            if !unread.isEmpty {
                result["unread"] = unread.map { $0.error ?? $0.source }
            }
            return MCPTools.Result(text: Self.text(result), structured: result)
        } catch {
            return .failure("\(error)")
        }
    }

    /// Answers the pending step of session `id` (`""`: the proposal).
    func answer(_ answer: String, session id: String) async -> MCPTools.Result {
        guard var walk = walks.removeValue(forKey: id) else { return .failure(missing(id)) }
        guard let index = walk.session.pendingIndex else {
            walks[id] = walk
            return .failure("session \(id) has run every step; call hunt_report")
        }
        let candidates = walk.candidates(for: index)
        let proposal = walk.proposal(for: index, candidates: candidates)
        let answered = await Self.bounded(configuration.timeout) { [walk] in
            var walk = walk
            let response = await walk.respond(answer, step: index, candidates: candidates, proposal: proposal)
            // A step cut off (its checks cancelled) is not kept: its session ends.
            if !Task.isCancelled { try? walk.save() }
            return Answered(walk: walk, response: response)
        }
        guard let answered else {
            ended[id] =
                Task.isCancelled
                ? "step \(index + 1) was cancelled while it ran"
                : "step \(index + 1) ran past the timeout of \(Int(configuration.timeout)) s (memhunt mcp --timeout)"
            return .failure("session \(id): \(ended[id]!); start another with hunt_start")
        }
        walk = answered.walk
        walks[id] = walk
        var result = Self.describe(walk, id: id)
        switch answered.response {
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
        case .quit:
            result["response"] = "quit"
            walks[id] = nil
            ended[id] = "it was stopped (q)"
        case .said(let lines):
            result["response"] = "said"
            result["said"] = lines.map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return MCPTools.Result(text: Self.text(result), structured: result)
    }

    /// The findings document of the steps run so far, with its gate decided as triage decides it at the end.
    func report(session id: String, format: String) -> (result: MCPTools.Result, findings: String?) {
        guard let walk = walks[id] else { return (.failure(missing(id)), nil) }
        var document = walk.document()
        document.gate = FindingsDocument.Gate.decide(document, failOn: nil, operands: walk.state.operands)
        let json = JSONText.pretty(document)
        guard let structured = MCPTools.object(json) else {
            return (.failure("the findings document could not be made"), nil)
        }
        return (
            MCPTools.Result(text: MCPTools.render(document, json: json, format: format), structured: structured), json
        )
    }

    private func missing(_ id: String) -> String {
        if let why = ended[id] { return "session \(id) is over: \(why)" }
        return "no hunt session '\(id)'"
            + (walks.isEmpty
                ? "; start one with hunt_start"
                : "; the sessions are "
                    + walks.keys.sorted().joined(separator: ", "))
    }

    struct Answered: Sendable {
        var walk: TriageWalk
        var response: TriageWalk.Response
    }

    /// `work`'s value, or nil when `seconds` pass first or the calling task is cancelled. The work's task is then
    /// cancelled too: its downloads and external checks stop (they honour cancellation), where before they ran on
    /// in the server after the call had answered.
    static func bounded<T: Sendable>(_ seconds: TimeInterval, _ work: @escaping @Sendable () async -> T) async -> T? {
        let race = Race<T>()
        let task = Task { race.finish(await work()) }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                race.wait(continuation)
                // The deadline on a Dispatch timer, not a task: a cooperative pool kept busy (by the work itself, or by
                // blocking code) must not delay it (in the parallel test suite, a task's sleep fired long after it was
                // due). Cancelling work that has ended does nothing.
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                    race.finish(nil)
                    task.cancel()
                }
            }
        } onCancel: {
            race.finish(nil)
            task.cancel()
        }
    }

    /// The first of the work, the deadline and a cancellation to finish resumes the continuation; one that
    /// finishes before the continuation waits (a cancellation at once) is kept for it.
    final class Race<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<T?, Never>?
        private var result: T??

        func wait(_ waiting: CheckedContinuation<T?, Never>) {
            let early: T?? = lock.withLock {
                if result == nil { continuation = waiting }
                return result
            }
            if let early { waiting.resume(returning: early) }
        }

        func finish(_ value: T?) {
            let waiting: CheckedContinuation<T?, Never>? = lock.withLock {
                guard result == nil else { return nil }
                result = .some(value)
                defer { continuation = nil }
                return continuation
            }
            waiting?.resume(returning: value)
        }
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
