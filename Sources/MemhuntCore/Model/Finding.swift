import MemhuntFormats

/// Where a finding's numbers come from: an artifact, and a JSON pointer or a line in it.
public struct Evidence: Sendable, Hashable, Codable {
    /// The artifact's source as listed in the report (path or URL).
    public var source: String
    /// RFC 6901 JSON pointer into the artifact's JSON body, e.g. `/processes/12/lifetimeMax`.
    public var pointer: String?
    /// 1-based line in a text artifact.
    public var line: Int?

    public init(source: String, pointer: String? = nil, line: Int? = nil) {
        self.source = source
        self.pointer = pointer
        self.line = line
    }

    /// `path#/pointer` or `path:line`.
    public var reference: String {
        if let pointer { return "\(source)#\(pointer)" }
        if let line { return "\(source):\(line)" }
        return source
    }
}

/// Something the person at the keyboard must decide that only the front end can name (a CLI flag, a
/// menu entry). Checks say what is needed; the front end says how to give it.
public enum Decision: String, Sendable, Hashable, Codable, CaseIterable {
    /// Name the app under investigation.
    case chooseApp = "choose-app"
    /// Allow the playbook to run external programs.
    case allowExec = "allow-exec"
}

/// What to do after a finding, as data: renderers phrase it for the playbook and front end at hand.
public enum NextAction: Sendable, Hashable, Codable {
    /// Collect an artifact of this kind; the sentence says which and why.
    case collect(ArtifactKind, String)
    /// Go to the step with this id, when the playbook at hand has it; the sentence says why.
    case step(String, String)
    /// Change the code to prevent the problem: a sentence.
    case change(String)
    /// Change the code to limit what the app costs the rest of the system (memory held in the background,
    /// pressure on other apps): a sentence.
    case mitigate(String)
    /// The person must decide something (choose the app, allow executables); the sentence says why.
    case decide(Decision, String)

    /// The sentence, without any reference to a step or a front end.
    public var text: String {
        switch self {
        case .collect(_, let text), .step(_, let text), .change(let text), .mitigate(let text), .decide(_, let text):
            text
        }
    }

    private enum CodingKeys: String, CodingKey { case action, kind, step, decision, text }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let text = try c.decode(String.self, forKey: .text)
        switch try c.decode(String.self, forKey: .action) {
        case "collect": self = .collect(try c.decode(ArtifactKind.self, forKey: .kind), text)
        case "step": self = .step(try c.decode(String.self, forKey: .step), text)
        case "change": self = .change(text)
        case "mitigate": self = .mitigate(text)
        case "decide": self = .decide(try c.decode(Decision.self, forKey: .decision), text)
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .action, in: c, debugDescription: "unknown next action '\(other)'")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .collect(let kind, _):
            try c.encode("collect", forKey: .action)
            try c.encode(kind, forKey: .kind)
        case .step(let id, _):
            try c.encode("step", forKey: .action)
            try c.encode(id, forKey: .step)
        case .change:
            try c.encode("change", forKey: .action)
        case .mitigate:
            try c.encode("mitigate", forKey: .action)
        case .decide(let decision, _):
            try c.encode("decide", forKey: .action)
            try c.encode(decision, forKey: .decision)
        }
        try c.encode(text, forKey: .text)
    }
}

/// Something a check concluded, with the numbers that made it conclude so.
public struct Finding: Sendable, Hashable, Codable {
    /// Stable identity, declared in the check's description (`jetsam-rank.dominant`). Never carries a number.
    public var code: String
    /// Id of the playbook step that ran the check (set by the engine).
    public var step: String
    /// Id of the check (set by the engine).
    public var check: String
    public var severity: Severity
    /// One line; may carry numbers.
    public var title: String
    public var detail: String
    public var evidence: [Evidence]
    /// What to do or collect next.
    public var next: NextAction?
    /// The id of the catalogued pattern the finding names (a leak pattern such as
    /// `closure.self-capture-stored`), when it names one: a code's finding per pattern, for SARIF rules and
    /// trackers.
    public var pattern: String?
    /// Its name across runs (`FindingSignature`), set when the findings document is made.
    public var signature: String?

    public init(
        code: String, step: String = "", check: String = "", severity: Severity, title: String, detail: String,
        evidence: [Evidence] = [], next: NextAction? = nil, pattern: String? = nil
    ) {
        self.code = code
        self.step = step
        self.check = check
        self.severity = severity
        self.title = title
        self.detail = detail
        self.evidence = evidence
        self.next = next
        self.pattern = pattern
    }
}
