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

/// Something a check concluded, with the numbers that made it conclude so.
public struct Finding: Sendable, Hashable, Codable {
    /// Id of the playbook step that ran the check.
    public var step: String
    /// Id of the check.
    public var check: String
    public var severity: Severity
    public var title: String
    public var detail: String
    public var evidence: [Evidence]
    /// What to do or collect next.
    public var next: String?

    public init(
        step: String = "", check: String = "", severity: Severity, title: String, detail: String,
        evidence: [Evidence] = [], next: String? = nil
    ) {
        self.step = step
        self.check = check
        self.severity = severity
        self.title = title
        self.detail = detail
        self.evidence = evidence
        self.next = next
    }
}
