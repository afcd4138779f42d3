import Foundation
import MemhuntArtifacts
import MemhuntChecks
import MemhuntCore
import MemhuntReports

/// The tools and resources of `memhunt mcp`.
///
/// `run`, `inspect`, `scan`, `diff`, `checks`, `playbooks` and `validate` run memhunt's own command in a child
/// memhunt (the same executable, `--format json`): the command's code path, bounded by the call's timeout (the
/// child's process group is killed) and the memory limit (inherited), and a crash there is an error result, not
/// the server's end. The hunt session (`hunt_*`) is guided triage's walk, each call of it in a child memhunt too
/// (`MCPHunts`).
final class MCPTools {
    let configuration: MCPServer.Configuration
    let console: Console
    let hunts: MCPHunts
    /// The JSON text of the latest findings document a tool made (`run`, `hunt_report`): the
    /// `memhunt://findings/latest` resource.
    var latestFindings: String?

    init(configuration: MCPServer.Configuration, console: Console) {
        self.configuration = configuration
        self.console = console
        hunts = MCPHunts(
            configuration: configuration, environment: Self.environment(console.environment, configuration))
    }

    func close() { hunts.close() }

    /// What a tool call answers: text for a reader, the structured result (the JSON the command prints) for a
    /// program, and whether the tool failed.
    struct Result {
        var text: String
        var structured: JSONObject?
        var isError = false

        static func failure(_ text: String) -> Result { Result(text: text, structured: nil, isError: true) }

        var json: JSONObject {
            var result: JSONObject = ["content": [["type": "text", "text": text]], "isError": isError]
            if let structured { result["structuredContent"] = structured }
            return result
        }
    }

    /// A bad argument: the call answers with an error result that names it.
    struct ArgumentError: Error {
        var message: String
    }

    /// The environment of a child memhunt: this one's, with downloads refused unless `--allow-network`.
    static func environment(_ environment: [String: String], _ configuration: MCPServer.Configuration) -> [String:
        String]
    {
        var environment = environment
        if !configuration.allowNetwork { environment["MEMHUNT_NO_NETWORK"] = "1" }
        return environment
    }

    /// How a finding's decisions are phrased for an agent.
    static let decisions: [Decision: String] = [
        .chooseApp: "Call the tool again with the app argument set.",
        .allowExec: "Start memhunt mcp with --allow-exec to allow it.",
    ]

    // MARK: - The catalog

    var names: [String] { catalog.compactMap { $0["name"] as? String } }

    /// `tools/list`: each tool with its input schema and, where it gives structured content, its output schema.
    var catalog: [JSONObject] {
        let artifacts = Self.paths(
            "Artifact files or folders (walked), manifests" + (configuration.allowNetwork ? ", or http(s) URLs." : "."))
        let app: JSONObject = [
            "type": "string", "description": "The app under investigation: a process name or bundle id.",
        ]
        let playbook: JSONObject = [
            "type": "string", "description": "A built-in playbook id (default memory-hunt) or a playbook file.",
        ]
        let format: JSONObject = [
            "type": "string", "enum": reporters.identifiers,
            "description":
                "The format of the text content (default text); the structured content is always the JSON document.",
        ]
        let session: JSONObject = ["type": "string", "description": "The id hunt_start answered."]
        return [
            Self.tool(
                "run", "Run a hunt",
                "Walk a playbook over artifacts: every step's facts and findings, the verdict and what to do next, as the "
                    + "findings document (memhunt.findings/3).",
                input: [
                    "artifacts": artifacts, "app": app, "playbook": playbook,
                    "baseline": Self.path(
                        "A saved findings document (run's structured content): report only the findings it does not have."
                    ),
                    "format": format,
                ],
                required: ["artifacts"], output: Self.findingsSchema),
            Self.tool(
                "inspect", "Inspect artifacts", "The kind, status and facts of each artifact, each read on its own.",
                input: ["artifacts": artifacts], required: ["artifacts"],
                output: Self.wrapper("artifacts", "One entry per artifact: artifact, facts, factCatalog.")),
            Self.tool(
                "scan", "Scan a fleet of records",
                "Fold many JetsamEvents, crash reports and MetricKit payloads into per-app figures.",
                input: ["artifacts": artifacts, "app": app], required: ["artifacts"],
                output: ["type": "object", "required": ["schema"]]),
            Self.tool(
                "diff", "Compare two runs",
                "Two saved findings documents compared (facts with deltas, findings resolved, new and unchanged, the fix "
                    + "verdict), or two heap reports, leaks reports or Allocations exports compared per class.",
                input: [
                    "before": Self.path("The findings document of the earlier run, or a capture."),
                    "after": Self.path("The findings document of the later run, or a capture of the same kind."),
                ],
                required: ["before", "after"], output: ["type": "object", "required": ["schema"]]),
            Self.tool(
                "checks", "List the checks", "Every built-in check: what it reads, its facts and finding codes.",
                input: [:], required: [], output: Self.wrapper("checks", "The built-in checks.")),
            Self.tool(
                "playbooks", "List the playbooks",
                "The built-in playbooks and their steps; each one's YAML is the resource memhunt://playbooks/ID.",
                input: [:], required: [], output: Self.wrapper("playbooks", "The built-in playbooks.")),
            Self.tool(
                "validate", "Validate a playbook", "Every problem of a playbook file, as file:line:col diagnostics.",
                input: ["playbook": Self.path("A playbook file or a built-in playbook id.")], required: ["playbook"],
                output: Self.wrapper("playbooks", "The playbook checked: id and steps, or its diagnostics.")),
            Self.tool(
                "hunt_start", "Start a hunt step by step",
                "Start guided triage's hunt: the first step, what it reads and the candidates among the artifacts.",
                input: [
                    "artifacts": Self.paths("Files or folders to offer as candidates."), "app": app,
                    "playbook": playbook,
                ],
                required: [], output: MCPHunts.stepSchema, readOnly: false),
            Self.tool(
                "hunt_step", "Run the pending step",
                "Run the pending step as proposed (every candidate it reads; skipped when it has none): its result and the next step.",
                input: ["session": session], required: ["session"], output: MCPHunts.stepSchema, readOnly: false),
            Self.tool(
                "hunt_answer", "Answer the pending step",
                "Answer the pending step as in memhunt triage: '' runs the proposal, numbers pick candidates (1 3, 1-3, a, -2), "
                    + "a path adds an artifact, s skips, b goes back, ? shows the step's guidance.",
                input: ["session": session, "answer": ["type": "string", "description": "The answer."]],
                required: ["session", "answer"], output: MCPHunts.stepSchema, readOnly: false),
            Self.tool(
                "hunt_report", "Report the hunt so far",
                "The findings document of the steps run so far, with its verdict.",
                input: ["session": session, "format": format], required: ["session"], output: Self.findingsSchema),
            Self.tool(
                "ledger_add", "Add to an investigation ledger",
                "Append a hypothesis, an experiment (one variable changed between a baseline and a variant) or a fix to a "
                    + "ledger (memhunt.ledger/1), checked before it is written and never over another writer's "
                    + "change; then judge the ledger.",
                input: [
                    "ledger": Self.path("The ledger file (memhunt ledger init makes one)."),
                    "kind": [
                        "type": "string", "enum": ["experiment", "fix", "hypothesis"], "description": "What to add.",
                    ],
                    "id": ["type": "string", "description": "The new entry's id (kebab-case, unique)."],
                    "statement": ["type": "string", "description": "A hypothesis: what it says."],
                    "suspect": ["type": "string", "description": "A hypothesis: a view, type or file suspected."],
                    "tests": ["type": "string", "description": "An experiment: the hypothesis it tests."],
                    "variable": ["type": "string", "description": "An experiment or a fix: the one variable changed."],
                    "fixes": ["type": "string", "description": "A fix: the hypothesis whose cause it fixes."],
                    "equals": Self.paths("A fix: the good side's artifacts it must equal (relative to the ledger)."),
                    "equals_label": ["type": "string", "description": "The good side's measurement rows, by label."],
                    "measure": ["type": "string", "description": "An experiment: the fact that decides."],
                    "baseline": Self.paths("An experiment: the baseline's artifacts (relative to the ledger)."),
                    "variant": Self.paths("An experiment: the variant's artifacts (relative to the ledger)."),
                    "baseline_label": ["type": "string", "description": "The baseline's measurement rows, by label."],
                    "variant_label": ["type": "string", "description": "The variant's measurement rows, by label."],
                ],
                required: ["ledger", "kind", "id"], output: Self.ledgerSchema, readOnly: false),
            Self.tool(
                "ledger_judge", "Judge an investigation ledger",
                "Every experiment, bisection try and fix of a ledger judged over its artifacts: cause, amplifier, "
                    + "ruled-out, worse, fix-holds or inconclusive with the reasons, and the next toggle to try.",
                input: ["ledger": Self.path("The ledger file."), "app": app, "playbook": playbook],
                required: ["ledger"], output: Self.ledgerSchema),
        ] + Self.fixTools
    }

    static func tool(
        _ name: String, _ title: String, _ description: String, input: [String: JSONObject], required: [String],
        output: JSONObject, readOnly: Bool = true
    ) -> JSONObject {
        [
            "name": name, "title": title, "description": description,
            "inputSchema": [
                "type": "object", "properties": input, "required": required, "additionalProperties": false,
            ],
            "outputSchema": output,
            "annotations": ["readOnlyHint": readOnly, "openWorldHint": false],
        ]
    }

    static func path(_ description: String) -> JSONObject { ["type": "string", "description": description] }

    static func paths(_ description: String) -> JSONObject {
        ["type": "array", "items": ["type": "string"], "description": description]
    }

    static func wrapper(_ key: String, _ description: String) -> JSONObject {
        [
            "type": "object", "required": [key],
            "properties": [key: ["type": "array", "description": description]],
        ]
    }

    /// A ledger's judgement: what `memhunt ledger judge --format json` writes.
    static var ledgerSchema: JSONObject {
        [
            "type": "object", "required": ["origin", "hypotheses", "experiments", "bisections", "fixes"],
            "properties": [
                "hypotheses": ["type": "array"], "experiments": ["type": "array"], "bisections": ["type": "array"],
                "fixes": ["type": "array"], "counterEvidence": ["type": "array"],
            ],
        ]
    }

    /// The findings document's outline: what every document has.
    static var findingsSchema: JSONObject {
        [
            "type": "object",
            "required": ["schema", "tool", "playbook", "subject", "steps", "findings", "facts", "gate", "verdict"],
            "properties": [
                "schema": ["type": "string", "const": FindingsDocument.currentSchema],
                "steps": ["type": "array"], "findings": ["type": "array"], "facts": ["type": "object"],
                "gate": ["type": "object"], "verdict": ["type": "object"],
            ],
        ]
    }

    // MARK: - Calls

    func call(_ name: String, arguments: JSONObject) async -> Result {
        let given = Arguments(values: arguments)
        do {
            switch name {
            case "run": return try await run(given)
            case "inspect":
                try given.only(["artifacts"])
                let child = await memhunt(
                    ["inspect", "--format=json", "--color=never"] + downloadDeadline + ["--"]
                        + (try artifacts(given, "artifacts")))
                return Self.listing(child, key: "artifacts", tool: name)
            case "scan":
                try given.only(["artifacts", "app"])
                let app = try given.string("app").map { ["--app=\($0)"] } ?? []
                let child = await memhunt(
                    ["scan", "--format=json"] + app + downloadDeadline + ["--"] + (try artifacts(given, "artifacts")))
                return Self.listing(child, key: nil, tool: name)
            case "diff":
                try given.only(["before", "after"])
                let before = try local(given.required("before"), "before")
                let after = try local(given.required("after"), "after")
                return Self.listing(
                    await memhunt(["diff", "--format=json", "--", before, after]), key: nil, tool: name)
            case "checks":
                try given.only([])
                return Self.listing(
                    await memhunt(["checks", "--format=json", "--color=never"]), key: "checks", tool: name)
            case "playbooks":
                try given.only([])
                return Self.listing(
                    await memhunt(["playbooks", "--format=json", "--color=never"]), key: "playbooks", tool: name)
            case "validate":
                try given.only(["playbook"])
                let playbook = try local(given.required("playbook"), "playbook")
                // Invalid is an answer here, not a failure: the diagnostics are the result.
                return Self.listing(
                    await memhunt(["validate", "--format=json", "--color=never", "--", playbook]), key: "playbooks",
                    tool: name, answered: [0, 2])
            case "hunt_start":
                try given.only(["artifacts", "app", "playbook"])
                let operands = try (given.strings("artifacts") ?? []).map { try local($0, "artifacts") }
                let playbook = try given.string("playbook").map { try local($0, "playbook") }
                try refuseExec(playbook)
                return await hunts.start(operands: operands, app: try given.string("app"), playbook: playbook)
            case "hunt_step":
                try given.only(["session"])
                return await hunts.answer("", session: try given.required("session"))
            case "hunt_answer":
                try given.only(["session", "answer"])
                // Triage's grammar; a path is read with the server's rules (downloads refused without --allow-network).
                let answer = try given.required("answer").trimmingCharacters(in: .whitespaces)
                return await hunts.answer(answer, session: try given.required("session"))
            case "ledger_add": return try await ledgerAdd(given)
            case "classify_leaks": return try await classify(given)
            case "verify_fix": return try await verifyFix(given)
            case "ledger_judge":
                try given.only(["ledger", "app", "playbook"])
                return try await ledgerJudge(given)
            case "hunt_report":
                try given.only(["session", "format"])
                let format = try self.format(given)
                let (result, findings) = await hunts.report(session: try given.required("session"), format: format)
                if let findings { latestFindings = findings }
                return result
            default:
                return .failure("Unknown tool: \(name)")
            }
        } catch let error as ArgumentError {
            return .failure(error.message)
        } catch {
            return .failure("\(error)")
        }
    }

    func run(_ given: Arguments) async throws -> Result {
        try given.only(["artifacts", "app", "playbook", "baseline", "format"])
        let operands = try artifacts(given, "artifacts")
        let format = try self.format(given)
        var arguments = ["run", "--format=json", "--color=never"]
        if let app = try given.string("app") { arguments.append("--app=\(app)") }
        if let playbook = try given.string("playbook") {
            try refuseExec(ArtifactStore.isURL(playbook) ? nil : playbook)
            arguments.append("--playbook=\(try local(playbook, "playbook"))")
        }
        if let baseline = try given.string("baseline") {
            guard !ArtifactStore.isURL(baseline) else {
                throw ArgumentError(message: "argument 'baseline' must be a local file; got \(baseline)")
            }
            arguments.append("--baseline=\(try local(baseline, "baseline"))")
        }
        if configuration.allowExec { arguments.append("--allow-exec") }
        let child = await memhunt(arguments + downloadDeadline + ["--"] + operands)
        guard let status = child.status, [0, 1, 2].contains(status), let json = child.stdout,
            let object = Self.object(json), let document = try? FindingsDocument.decode(Array(json.utf8))
        else { return .failure(child.failure(tool: "run")) }
        latestFindings = json
        let report = Self.render(document, json: json, format: format)
        // Exit 2: the hunt could not be done as asked (an operand not read, a check that failed); the report
        // is still the result, and the reason leads.
        guard status == 2 else { return Result(text: report, structured: object) }
        return Result(text: child.stderrText + "\n\n" + report, structured: object, isError: true)
    }

    /// `ledger add` in a child, then the ledger judged: the loop of a coding agent, one experiment at a time.
    func ledgerAdd(_ given: Arguments) async throws -> Result {
        try given.only([
            "ledger", "kind", "id", "statement", "suspect", "tests", "fixes", "variable", "measure", "baseline",
            "variant", "equals", "baseline_label", "variant_label", "equals_label",
        ])
        let ledger = try local(given.required("ledger"), "ledger")
        var arguments = ["ledger", "add", "--quiet"]
        let options: [(String, String)] = [
            ("statement", "--statement"), ("suspect", "--suspect"), ("tests", "--tests"), ("variable", "--variable"),
            ("measure", "--measure"), ("baseline_label", "--baseline-label"), ("variant_label", "--variant-label"),
            ("fixes", "--fixes"), ("equals_label", "--equals-label"),
        ]
        for (name, option) in options {
            if let value = try given.string(name) { arguments.append("\(option)=\(value)") }
        }
        for name in ["baseline", "variant", "equals"] {
            for path in try given.strings(name) ?? [] { arguments.append("--\(name)=\(try local(path, name))") }
        }
        let child = await memhunt(
            arguments + ["--", ledger, try given.required("kind"), try given.required("id")])
        guard child.status == 0 else { return .failure(child.failure(tool: "ledger_add")) }
        return try await ledgerJudge(Arguments(values: ["ledger": ledger]))
    }

    func ledgerJudge(_ given: Arguments) async throws -> Result {
        var arguments = ["ledger", "judge", "--format=json", "--color=never"]
        if let app = try given.string("app") { arguments.append("--app=\(app)") }
        if let playbook = try given.string("playbook") {
            try refuseExec(playbook)
            arguments.append("--playbook=\(try local(playbook, "playbook"))")
        }
        if configuration.allowExec { arguments.append("--allow-exec") }
        return Self.listing(
            await memhunt(arguments + ["--", try local(given.required("ledger"), "ledger")]), key: nil,
            tool: "ledger_judge")
    }

    /// The text content of a findings document: the report in `format` (its JSON text as it is for json).
    static func render(_ document: FindingsDocument, json: String, format: String) -> String {
        guard format != "json", let reporter = reporters.named(format) else { return json }
        return reporter.render(document, options: ReportOptions(colored: false, decisions: decisions))
    }

    /// `--deadline` for the downloads, inside the call's timeout, when there may be downloads.
    var downloadDeadline: [String] {
        configuration.allowNetwork ? ["--deadline=\(max(1, Int(configuration.timeout * 0.8)))"] : []
    }

    func format(_ given: Arguments) throws -> String {
        guard let format = try given.string("format") else { return "text" }
        guard reporters.identifiers.contains(format) else {
            throw ArgumentError(
                message: "argument 'format' must be one of \(reporters.identifiers.joined(separator: ", ")); got "
                    + (MCPServer.literal(format) ?? format))
        }
        return format
    }

    /// The paths of an `artifacts` argument, each checked.
    func artifacts(_ given: Arguments, _ name: String) throws -> [String] {
        guard let values = try given.strings(name) else {
            throw ArgumentError(message: "argument '\(name)' is missing")
        }
        guard !values.isEmpty else { throw ArgumentError(message: "argument '\(name)' names no artifact") }
        return try values.map { try local($0, name) }
    }

    /// A path as given, or why it cannot be read here: standard input is the protocol's, URLs need
    /// `--allow-network`.
    func local(_ value: String, _ name: String) throws -> String {
        if value.isEmpty { throw ArgumentError(message: "argument '\(name)' is an empty path") }
        if value == "-" {
            throw ArgumentError(
                message: "argument '\(name)': '-' (standard input) carries the protocol here; name a file")
        }
        if ArtifactStore.isURL(value) && !configuration.allowNetwork {
            throw ArgumentError(
                message: "argument '\(name)': \(ArtifactStore.shown(operand: value)) is a URL; memhunt mcp reads local "
                    + "paths only unless it was started with --allow-network")
        }
        return value
    }

    /// A local or built-in playbook with `exec:` checks is refused without `--allow-exec` (a remote one's are
    /// not run without it: `run`'s own rule).
    func refuseExec(_ reference: String?) throws {
        guard !configuration.allowExec, let reference = reference ?? Optional("memory-hunt"),
            !ArtifactStore.isURL(reference)
        else { return }
        let loaded =
            playbookLoader.builtIn(reference)
            ?? (FileManager.default.fileExists(atPath: reference) ? playbookLoader.load(path: reference) : nil)
        guard case .success(let playbook)? = loaded else { return }
        for step in playbook.steps {
            for invocation in step.checks {
                if case .builtIn = invocation.kind { continue }
                throw ArgumentError(
                    message: "playbook \(reference): step '\(step.id)' runs an external program (exec:); memhunt mcp "
                        + "runs them only when started with --allow-exec")
            }
        }
    }

    // MARK: - The child memhunt

    /// How a child memhunt ended and what it wrote.
    struct Child {
        var status: Int32?
        var stdout: String?
        var stderrText: String
        /// Why it did not end with an exit status (killed at the timeout, a signal, not started).
        var problem: String?
        /// Whether it was stopped at the call's timeout, or because the call was cancelled.
        var timedOut = false
        var cancelled = false

        /// The error text of a call that did not answer: the problem or memhunt's own words on stderr.
        func failure(tool: String) -> String {
            if let problem { return "memhunt \(tool): \(problem)" }
            let said = stderrText.isEmpty ? "memhunt \(tool) ended with exit status \(status ?? -1)" : stderrText
            return said
        }
    }

    /// The memhunt executable this server is.
    static let executable: String? = Bundle.main.executablePath ?? CommandLine.arguments.first

    /// Runs memhunt with `arguments` in a process group of its own, bounded by the call's timeout.
    func memhunt(_ arguments: [String]) async -> Child {
        await Self.spawn(
            arguments, environment: Self.environment(console.environment, configuration), configuration: configuration)
    }

    /// Runs `configuration.executable` with `arguments` and `environment` in a process group of its own, bounded
    /// by the call's timeout.
    static func spawn(_ arguments: [String], environment: [String: String], configuration: MCPServer.Configuration)
        async -> Child
    {
        guard let executable = configuration.executable else {
            return Child(status: nil, stdout: nil, stderrText: "", problem: "the memhunt executable could not be found")
        }
        let outcome = await ProcessRunner.launch(
            executable: executable, arguments: arguments, environment: environment, directory: nil, input: [],
            timeout: configuration.timeout, stdoutLimit: 256 << 20, stderrLimit: 1 << 20)
        let stdout = String(decoding: outcome.stdout, as: UTF8.self)
        let stderr = String(decoding: outcome.stderr, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        var child = Child(status: nil, stdout: stdout, stderrText: stderr)
        switch outcome.ending {
        case .exited(let status): child.status = status
        case .timedOut:
            child.timedOut = true
            child.problem =
                "did not finish within \(Int(configuration.timeout)) s (memhunt mcp --timeout) and was stopped"
        case .flooded: child.problem = "wrote more than 256 MB and was stopped"
        case .cancelled:
            child.cancelled = true
            child.problem = "was stopped: the call was cancelled"
        case .signaled(let signal):
            child.problem =
                "ended by signal \(signal) (a crash, or more memory than the limit of \(configuration.memoryLimitMB) MB)"
                + (stderr.isEmpty ? "" : ": " + stderr.suffix(2000))
        case .launchFailed(let why): child.problem = "could not be started: \(why)"
        }
        return child
    }

    /// A listing command's result: its JSON as the structured content (an array under `key`).
    static func listing(_ child: Child, key: String?, tool: String, answered: Set<Int32> = [0]) -> Result {
        guard let status = child.status, let text = child.stdout,
            let parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [])
        else { return .failure(child.failure(tool: tool)) }
        let structured: JSONObject? = key.map { [$0: parsed] } ?? (parsed as? JSONObject)
        guard let structured else { return .failure(child.failure(tool: tool)) }
        // Exit 2 with a listing (an operand not read): the listing is still the answer, after the reason.
        guard answered.contains(status) else {
            return Result(text: child.failure(tool: tool) + "\n\n" + text, structured: structured, isError: true)
        }
        return Result(text: text, structured: structured)
    }

    static func object(_ json: String) -> JSONObject? {
        (try? JSONSerialization.jsonObject(with: Data(json.utf8), options: [])) as? JSONObject
    }

    // MARK: - Resources

    /// `resources/list`: each built-in playbook's YAML, and the latest findings document once there is one.
    var resources: [JSONObject] {
        var list: [JSONObject] = BuiltInPlaybooks.all.map { entry in
            var resource: JSONObject = [
                "uri": "memhunt://playbooks/\(entry.id)", "name": entry.id, "mimeType": "application/yaml",
            ]
            if case .success(let playbook)? = playbookLoader.builtIn(entry.id) {
                resource["title"] = playbook.title
                resource["description"] = playbook.summary
            }
            return resource
        }
        if latestFindings != nil {
            list.append([
                "uri": Self.latestFindingsURI, "name": "findings", "title": "The latest findings document",
                "description": "The findings document (memhunt.findings/3) of the latest run or hunt_report.",
                "mimeType": "application/json",
            ])
        }
        return list
    }

    static let latestFindingsURI = "memhunt://findings/latest"

    /// `resources/read`: the contents at `uri`, or nil when there is none.
    func read(_ uri: String) -> JSONObject? {
        if uri == Self.latestFindingsURI, let latestFindings {
            return ["uri": uri, "mimeType": "application/json", "text": latestFindings]
        }
        let prefix = "memhunt://playbooks/"
        guard uri.hasPrefix(prefix),
            let entry = BuiltInPlaybooks.all.first(where: { $0.id == uri.dropFirst(prefix.count) })
        else { return nil }
        return ["uri": uri, "mimeType": "application/yaml", "text": entry.text]
    }
}

/// A tool call's arguments, read by name with the type the schema says; a wrong type is an error naming it.
struct Arguments {
    var values: JSONObject

    /// Refuses an argument the tool does not take.
    func only(_ names: [String]) throws(MCPTools.ArgumentError) {
        for key in values.keys.sorted() where !names.contains(key) {
            throw MCPTools.ArgumentError(
                message: "unknown argument '\(key)'"
                    + (names.isEmpty ? "; this tool takes none" : "; this tool takes " + names.joined(separator: ", ")))
        }
    }

    func string(_ name: String) throws(MCPTools.ArgumentError) -> String? {
        guard let value = values[name], !(value is NSNull) else { return nil }
        guard let text = value as? String else { throw mistyped(name, "a string", value) }
        return text
    }

    func required(_ name: String) throws(MCPTools.ArgumentError) -> String {
        guard let text = try string(name) else {
            throw MCPTools.ArgumentError(message: "argument '\(name)' is missing")
        }
        return text
    }

    func strings(_ name: String) throws(MCPTools.ArgumentError) -> [String]? {
        guard let value = values[name], !(value is NSNull) else { return nil }
        guard let array = value as? [Any] else { throw mistyped(name, "an array of strings", value) }
        return try array.map { element throws(MCPTools.ArgumentError) in
            guard let text = element as? String else { throw mistyped(name, "an array of strings", element) }
            return text
        }
    }

    private func mistyped(_ name: String, _ expected: String, _ value: Any) -> MCPTools.ArgumentError {
        MCPTools.ArgumentError(
            message:
                "argument '\(name)' must be \(expected); got \(MCPServer.literal(value) ?? "a value of another type")")
    }
}
