import MemhuntFormats

/// A check invocation inside a step.
public struct CheckInvocation: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A built-in check by id.
        case builtIn(String)
        /// An external executable: argv (never a shell string), a timeout in seconds, and the names of the
        /// environment variables it is given beyond PATH, HOME, LANG and TMPDIR (`env:`).
        case exec(argv: [String], timeout: Double, env: [String] = [])
    }

    public var kind: Kind
    /// `with:` parameters.
    public var parameters: [String: FactValue]
    public var location: SourceLocation?

    public init(kind: Kind, parameters: [String: FactValue] = [:], location: SourceLocation? = nil) {
        self.kind = kind
        self.parameters = parameters
        self.location = location
    }

    /// Built-in id, or `exec:<program name>`: the script's name when the program is an interpreter
    /// (`[python3, checks/peak-budget.py]` is `exec:peak-budget.py`).
    public var id: String {
        switch kind {
        case .builtIn(let id): id
        case .exec(let argv, _, _):
            "exec:" + (Self.program(argv).split(separator: "/").last.map(String.init) ?? "")
        }
    }

    private static let interpreters: Set<String> = ["bash", "env", "node", "perl", "python", "python3", "ruby", "sh"]

    private static func program(_ argv: [String]) -> String {
        guard let first = argv.first else { return "" }
        let name = first.split(separator: "/").last.map(String.init) ?? first
        guard interpreters.contains(name), argv.count > 1, !argv[1].hasPrefix("-") else { return first }
        return argv[1]
    }
}

/// One step of a playbook: what it inspects, what that tells, which artifacts it reads and checks it runs.
public struct Step: Sendable, Hashable {
    public var id: String
    public var title: String
    /// "What I inspect" (the seed's table).
    public var inspects: String
    /// "What it tells me".
    public var tells: String
    public var reads: [ArtifactKind]
    public var checks: [CheckInvocation]
    /// What to collect for this step.
    public var collect: String?
    /// What an empty result means.
    public var empty: String?
    public var location: SourceLocation?

    public init(
        id: String, title: String, inspects: String = "", tells: String = "", reads: [ArtifactKind] = [],
        checks: [CheckInvocation] = [], collect: String? = nil, empty: String? = nil, location: SourceLocation? = nil
    ) {
        self.id = id
        self.title = title
        self.inspects = inspects
        self.tells = tells
        self.reads = reads
        self.checks = checks
        self.collect = collect
        self.empty = empty
        self.location = location
    }
}

/// What a person's words may mean, for guided triage: phrases of a report, their meaning, and the
/// steps that matter most then.
public struct Symptom: Sendable, Hashable, Codable {
    /// Words a user might say ("the widget went blank"); matched case-insensitively, word by word.
    public var phrases: [String]
    /// What it means for the hunt ("the extension was killed for its memory budget").
    public var means: String
    /// Ids of the steps that matter most.
    public var steps: [String]

    public init(phrases: [String], means: String, steps: [String]) {
        self.phrases = phrases
        self.means = means
        self.steps = steps
    }
}

/// An ordered investigation.
public struct Playbook: Sendable, Hashable {
    public var id: String
    public var title: String
    public var summary: String
    public var steps: [Step]
    /// Where it was loaded from: a path, a URL, or `built-in:<id>`.
    public var origin: String
    /// Directory of a local playbook file, for relative `exec:` paths.
    public var directory: String?
    /// Loaded from a URL: `exec:` checks need the person's permission.
    public var isRemote: Bool
    /// Hex sha256 of the playbook's text, when it was loaded from text.
    public var sha256: String?
    /// What users' words mean for this hunt (guided triage).
    public var symptoms: [Symptom]
    /// The gate the playbook declares (`fail_on:`): the lowest severity that fails the run unless a project
    /// file or `--fail-on` says otherwise.
    public var failOn: Severity?

    /// Where a gate at the playbook's `fail_on` comes from, as an exit reason says it; nil without one.
    public var gateOrigin: String? { failOn.map { "the playbook \(id)'s fail_on: \($0.rawValue)" } }

    public init(
        id: String, title: String, summary: String, steps: [Step], origin: String, directory: String? = nil,
        isRemote: Bool = false, sha256: String? = nil, symptoms: [Symptom] = [], failOn: Severity? = nil
    ) {
        self.id = id
        self.title = title
        self.summary = summary
        self.steps = steps
        self.origin = origin
        self.directory = directory
        self.isRemote = isRemote
        self.sha256 = sha256
        self.symptoms = symptoms
        self.failOn = failOn
    }
}
