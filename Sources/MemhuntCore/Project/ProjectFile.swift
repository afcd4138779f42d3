import MemhuntYAML

/// A team's settings for memhunt in one file, `.memhunt.yml`, found upward from the working directory as
/// `.swiftlint.yml` is: the app, the playbook, the gate, the artifact folders, check parameters, the tracker,
/// the report formats and suppressions. Flags given on the command line override it.
public struct ProjectFile: Sendable, Hashable {
    /// The file as given and its folder (relative paths in it are of that folder).
    public var path: String
    public var directory: String
    /// The app under investigation, and the bundle ids it also goes by.
    public var app: String?
    public var bundleIDs: [String] = []
    /// A built-in playbook id, or a playbook file (relative to the project file's folder).
    public var playbook: String?
    public var failOn: Severity?
    /// Files and folders to read when `memhunt run` is given none, relative to the project file's folder (its
    /// folder when the file names none).
    public var artifacts: [String] = []
    /// Check parameters by check id, over every playbook step that runs the check.
    public var checks: [String: [String: FactValue]] = [:]
    /// The tracker target of `--attach`.
    public var attach: String?
    /// Report formats written into `reportsFolder` (`findings.<format>`) besides the report on stdout.
    public var reportFormats: [String] = []
    public var reportsFolder: String?
    public var suppressions: [Suppression] = []

    public init(path: String, directory: String) {
        self.path = path
        self.directory = directory
    }

    /// Where a gate at the file's `fail_on` comes from, as an exit reason says it; nil without one.
    public var gateOrigin: String? { failOn.map { "\(path)'s fail_on: \($0.rawValue)" } }

    /// A path of the file resolved against its folder; absolute paths and URLs as they are.
    public func resolve(_ relative: String) -> String {
        if relative.hasPrefix("/") || relative.contains("://") { return relative }
        let base = directory.isEmpty ? "." : directory
        return relative == "." ? base : base + "/" + relative
    }
}

/// One accepted finding: by signature, or by code and a text its title contains; with the reason, who owns it
/// and until when.
public struct Suppression: Sendable, Hashable, Codable {
    public var signature: String?
    public var code: String?
    public var match: String?
    public var reason: String
    public var owner: String?
    /// `YYYY-MM-DD`: from that day on the finding is reported again, with a notice.
    public var expires: String?
    /// `file:line:col` of the entry.
    public var location: String?

    public init(
        signature: String? = nil, code: String? = nil, match: String? = nil, reason: String, owner: String? = nil,
        expires: String? = nil, location: String? = nil
    ) {
        self.signature = signature
        self.code = code
        self.match = match
        self.reason = reason
        self.owner = owner
        self.expires = expires
        self.location = location
    }

    /// Whether it names `finding`.
    public func covers(_ finding: Finding) -> Bool {
        if let signature { return finding.signature == signature }
        guard let code, finding.code == code else { return false }
        return match.map { finding.title.contains($0) || finding.detail.contains($0) } ?? true
    }

    /// Whether it has expired by `today` (`YYYY-MM-DD`).
    public func expired(today: String) -> Bool { expires.map { $0 <= today } ?? false }
}

/// Reads `.memhunt.yml`, reporting every problem at once with its place, as playbooks are read.
public struct ProjectFileLoader: Sendable {
    public var knownChecks: [CheckDescription]
    /// The report formats a project file may name.
    public var formats: [String]

    public init(knownChecks: [CheckDescription], formats: [String]) {
        self.knownChecks = knownChecks
        self.formats = formats
    }

    public func load(text: String, path: String, directory: String) -> Result<ProjectFile, PlaybookLoadError> {
        let root: YAMLNode
        do {
            root = try YAMLParser.parse(text)
        } catch {
            let location = SourceLocation(file: path, line: error.mark.line, column: error.mark.column)
            return .failure(PlaybookLoadError(diagnostics: [Diagnostic(.error, error.message, at: location)]))
        }
        var decoder = ProjectFileDecoder(file: path, knownChecks: knownChecks, formats: formats)
        let project = decoder.project(root, path: path, directory: directory)
        let diagnostics = decoder.sortedDiagnostics
        guard let project, diagnostics.isEmpty else { return .failure(PlaybookLoadError(diagnostics: diagnostics)) }
        return .success(project)
    }
}

struct ProjectFileDecoder: SchemaDecoding {
    static let keys = ["app", "playbook", "fail_on", "artifacts", "checks", "attach", "reports", "suppress"]
    static let appKeys = ["name", "bundle_ids"]
    static let reportKeys = ["formats", "folder"]
    static let suppressionKeys = ["signature", "code", "match", "reason", "owner", "expires"]

    let file: String
    let knownChecks: [CheckDescription]
    let formats: [String]
    var diagnostics: [Diagnostic] = []

    init(file: String, knownChecks: [CheckDescription], formats: [String]) {
        self.file = file
        self.knownChecks = knownChecks
        self.formats = formats
    }

    mutating func project(_ root: YAMLNode, path: String, directory: String) -> ProjectFile? {
        var project = ProjectFile(path: path, directory: directory)
        if case .scalar(let text, _, _) = root, text.isEmpty { return project }
        guard let fields = fields(of: root, in: "the project file", allowed: Self.keys) else { return nil }
        if let field = fields["app"] { app(field, into: &project) }
        project.playbook = text(fields["playbook"], key: "playbook")
        if let field = fields["fail_on"] { project.failOn = severity(field, key: "fail_on") }
        if let field = fields["artifacts"] { project.artifacts = strings(field) }
        project.attach = text(fields["attach"], key: "attach")
        if let field = fields["checks"] { project.checks = checks(field) }
        if let field = fields["reports"],
            let report = self.fields(of: field.value, in: "reports", allowed: Self.reportKeys)
        {
            if let formats = report["formats"] {
                project.reportFormats = strings(formats)
                for (index, format) in project.reportFormats.enumerated() where !self.formats.contains(format) {
                    let mark = (list(formats.value) ?? [])[safe: index]?.mark ?? formats.value.mark
                    error(
                        "unknown report format '\(format)'\(Suggestion.hint(for: format, among: self.formats))",
                        at: mark)
                }
            }
            project.reportsFolder = text(report["folder"], key: "folder")
        }
        if let field = fields["suppress"] {
            project.suppressions = (list(field.value) ?? []).compactMap { suppression($0) }
        }
        return project
    }

    mutating func app(_ field: Field, into project: inout ProjectFile) {
        if case .scalar = field.value {
            project.app = text(field, key: "app")
            return
        }
        guard let app = fields(of: field.value, in: "app", allowed: Self.appKeys, required: ["name"]) else { return }
        project.app = text(app["name"], key: "name")
        project.bundleIDs = app["bundle_ids"].map { strings($0) } ?? []
    }

    mutating func strings(_ field: Field) -> [String] {
        if case .scalar(let text, _, _) = field.value { return [text] }
        return (list(field.value) ?? []).compactMap { string($0) }
    }

    /// `checks: { widget-budget: { limit_mb: 30 } }`: each check known, each parameter one of its own.
    mutating func checks(_ field: Field) -> [String: [String: FactValue]] {
        guard case .mapping(let pairs, _) = field.value else {
            error("expected a mapping of check ids to parameters", at: field.value.mark)
            return [:]
        }
        var result: [String: [String: FactValue]] = [:]
        var playbook = PlaybookDecoder(file: file, knownChecks: knownChecks)
        for (id, keyMark, value) in pairs {
            guard let description = knownChecks.first(where: { $0.id == id }) else {
                error("unknown check '\(id)'\(Suggestion.hint(for: id, among: knownChecks.map(\.id)))", at: keyMark)
                continue
            }
            result[id] = playbook.builtInParameters(value, of: description)
        }
        diagnostics += playbook.diagnostics
        return result
    }

    mutating func suppression(_ node: YAMLNode) -> Suppression? {
        guard let fields = fields(of: node, in: "a suppression", allowed: Self.suppressionKeys, required: ["reason"])
        else { return nil }
        let signature = text(fields["signature"], key: "signature")
        let code = text(fields["code"], key: "code")
        if (signature == nil) == (code == nil) {
            error("a suppression names either a 'signature' or a 'code' (with an optional 'match')", at: node.mark)
        }
        if let signature, signature.count != 16 || !signature.allSatisfy(\.isHexDigit) {
            error(
                "'signature' is 16 hex digits, as reports print it; got '\(signature)'",
                at: fields["signature"]!.value.mark)
        }
        let expires = text(fields["expires"], key: "expires")
        if let expires, !Self.isDate(expires) {
            error("'expires' is a date YYYY-MM-DD; got '\(expires)'", at: fields["expires"]!.value.mark)
        }
        guard let reason = text(fields["reason"], key: "reason") else { return nil }
        return Suppression(
            signature: signature, code: code, match: text(fields["match"], key: "match"), reason: reason,
            owner: text(fields["owner"], key: "owner"), expires: expires, location: location(node.mark).description)
    }

    static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 3 && parts.map(\.count) == [4, 2, 2] && parts.allSatisfy { $0.allSatisfy(\.isNumber) }
            && (1...12).contains(Int(parts[1]) ?? 0) && (1...31).contains(Int(parts[2]) ?? 0)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

extension ProjectFile {
    /// `playbook` with the file's check parameters over its steps' own, for every step that runs the check.
    public func applying(to playbook: Playbook) -> Playbook {
        guard !checks.isEmpty else { return playbook }
        var playbook = playbook
        for step in playbook.steps.indices {
            for index in playbook.steps[step].checks.indices {
                let invocation = playbook.steps[step].checks[index]
                guard case .builtIn(let id) = invocation.kind, let given = checks[id] else { continue }
                playbook.steps[step].checks[index].parameters.merge(given) { _, new in new }
            }
        }
        return playbook
    }
}
