import MemhuntFormats
import MemhuntYAML

/// Maps a `YAMLNode` onto the playbook schema, collecting a located diagnostic for every problem.
struct PlaybookDecoder: SchemaDecoding {

    static let playbookKeys = ["id", "title", "summary", "steps", "symptoms", "fail_on"]
    static let requiredPlaybookKeys = ["id", "title", "summary", "steps"]
    static let symptomKeys = ["phrases", "means", "steps"]
    static let stepKeys = ["id", "title", "inspects", "tells", "reads", "checks", "guidance"]
    static let checkKeys = ["id", "exec", "timeout", "env", "with"]
    static let guidanceKeys = ["collect", "empty"]
    static let defaultTimeout = 30.0

    let file: String
    let checks: [String: CheckDescription]
    let checkIDs: [String]
    var diagnostics: [Diagnostic] = []
    private var stepIDs: [String: Mark] = [:]

    init(file: String, knownChecks: [CheckDescription]) {
        self.file = file
        checks = Dictionary(knownChecks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        checkIDs = knownChecks.map(\.id)
    }

    // MARK: - Schema

    mutating func playbook(_ root: YAMLNode, origin: String, directory: String?, isRemote: Bool) -> Playbook? {
        guard
            let fields = fields(
                of: root, in: "playbook", allowed: Self.playbookKeys, required: Self.requiredPlaybookKeys)
        else { return nil }
        let id = identifier(fields["id"], what: "playbook id")
        let title = text(fields["title"], key: "title")
        let summary = text(fields["summary"], key: "summary")
        var steps: [Step] = []
        if let field = fields["steps"], let items = list(field.value) {
            if items.isEmpty { error("'steps' must list at least one step", at: field.value.mark) }
            steps = items.compactMap { step($0) }
        }
        let symptoms = fields["symptoms"].flatMap { list($0.value) }?.compactMap { symptom($0) } ?? []
        let failOn = fields["fail_on"].flatMap { severity($0, key: "fail_on") }
        guard let id, let title, let summary, diagnostics.isEmpty else { return nil }
        return Playbook(
            id: id, title: title, summary: summary, steps: steps, origin: origin, directory: directory,
            isRemote: isRemote, symptoms: symptoms, failOn: failOn)
    }

    /// `- { phrases: [...], means: ..., steps: [step ids] }`; step ids must be the playbook's.
    mutating func symptom(_ node: YAMLNode) -> Symptom? {
        guard let fields = fields(of: node, in: "symptom", allowed: Self.symptomKeys, required: Self.symptomKeys)
        else { return nil }
        let phrases = fields["phrases"].flatMap { list($0.value) }?.compactMap { string($0) } ?? []
        if phrases.isEmpty, let field = fields["phrases"] {
            error("'phrases' must list at least one phrase", at: field.value.mark)
        }
        let means = text(fields["means"], key: "means")
        var steps: [String] = []
        for item in fields["steps"].flatMap({ list($0.value) }) ?? [] {
            guard let id = string(item) else { continue }
            if stepIDs[id] == nil {
                let suggestion = Suggestion.closest(to: id, among: stepIDs.keys.sorted())
                error(
                    "unknown step '\(id)' in symptom" + (suggestion.map { " (did you mean '\($0)'?)" } ?? ""),
                    at: item.mark)
            }
            steps.append(id)
        }
        guard let means, !phrases.isEmpty else { return nil }
        return Symptom(phrases: phrases, means: means, steps: steps)
    }

    mutating func step(_ node: YAMLNode) -> Step? {
        guard let fields = fields(of: node, in: "step", allowed: Self.stepKeys, required: ["id", "title"]) else {
            return nil
        }
        let id = identifier(fields["id"], what: "step id")
        if let id, let mark = fields["id"]?.value.mark {
            if let first = stepIDs[id] {
                error("duplicate step id '\(id)' (first at line \(first.line))", at: mark)
            } else {
                stepIDs[id] = mark
            }
        }
        let title = text(fields["title"], key: "title")
        let inspects = text(fields["inspects"], key: "inspects", required: false) ?? ""
        let tells = text(fields["tells"], key: "tells", required: false) ?? ""
        let reads = fields["reads"].flatMap { list($0.value) }?.compactMap { kind($0) } ?? []
        let invocations = fields["checks"].flatMap { list($0.value) }?.compactMap { check($0) } ?? []
        var collect: String?
        var empty: String?
        if let guidance = fields["guidance"],
            let inner = self.fields(of: guidance.value, in: "guidance", allowed: Self.guidanceKeys)
        {
            collect = text(inner["collect"], key: "collect", required: false)
            empty = text(inner["empty"], key: "empty", required: false)
        }
        guard let id, let title else { return nil }
        return Step(
            id: id, title: title, inspects: inspects, tells: tells, reads: reads, checks: invocations,
            collect: collect, empty: empty, location: location(node.mark))
    }

    mutating func kind(_ node: YAMLNode) -> ArtifactKind? {
        guard let name = string(node) else { return nil }
        if let kind = ArtifactKind(rawValue: name) { return kind }
        let hint = Suggestion.hint(for: name, among: ArtifactKind.allCases.map(\.rawValue))
        error("unknown artifact kind '\(name)'\(hint)", at: node.mark)
        return nil
    }

    mutating func check(_ node: YAMLNode) -> CheckInvocation? {
        if case .scalar(let value, _, let mark) = node {
            error("expected a mapping with 'id' or 'exec' (write '- id: \(value)')", at: mark)
            return nil
        }
        guard let fields = fields(of: node, in: "check", allowed: Self.checkKeys) else { return nil }
        switch (fields["id"], fields["exec"]) {
        case (nil, nil):
            error("a check needs 'id' (a built-in check) or 'exec' (an external command)", at: node.mark)
            return nil
        case (.some, .some(let exec)):
            error("a check takes either 'id' or 'exec', not both", at: exec.keyMark)
            return nil
        case (.some(let idField), nil):
            if let timeout = fields["timeout"] { error("'timeout' applies only to 'exec' checks", at: timeout.keyMark) }
            if let env = fields["env"] { error("'env' applies only to 'exec' checks", at: env.keyMark) }
            guard let id = string(idField.value) else { return nil }
            guard let description = checks[id] else {
                error("unknown check '\(id)'\(Suggestion.hint(for: id, among: checkIDs))", at: idField.value.mark)
                return nil
            }
            let parameters = fields["with"].map { builtInParameters($0.value, of: description) } ?? [:]
            return CheckInvocation(kind: .builtIn(id), parameters: parameters, location: location(node.mark))
        case (nil, .some(let exec)):
            var argv: [String]?
            switch exec.value {
            case .sequence(let items, _):
                argv = items.compactMap { string($0) }
                if items.isEmpty { error("exec needs at least a program", at: exec.value.mark) }
            case .scalar: error("exec takes an argv list, not a shell string", at: exec.value.mark)
            case .mapping: error("expected a list", at: exec.value.mark)
            }
            let timeout = fields["timeout"].map { seconds($0.value) } ?? Self.defaultTimeout
            let env = fields["env"].map { environmentNames($0.value) } ?? []
            var parameters: [String: FactValue] = [:]
            if let with = fields["with"] {
                if case .mapping = with.value {
                    parameters = value(with.value).objectValue ?? [:]
                } else {
                    error("expected a mapping", at: with.value.mark)
                }
            }
            guard let argv else { return nil }
            return CheckInvocation(
                kind: .exec(argv: argv, timeout: timeout, env: env), parameters: parameters,
                location: location(node.mark))
        }
    }

    /// `env:` of an exec check: a list of environment variable names, each once.
    mutating func environmentNames(_ node: YAMLNode) -> [String] {
        guard case .sequence(let items, _) = node else {
            error("'env' takes a list of environment variable names", at: node.mark)
            return []
        }
        var names: [String] = []
        for item in items {
            guard let name = string(item) else { continue }
            let bytes = Array(name.utf8)
            let valid =
                !bytes.isEmpty && !(0x30...0x39).contains(bytes[0])
                && bytes.allSatisfy { byte in
                    byte == UInt8(ascii: "_") || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
                        || (0x61...0x7A).contains(byte)
                }
            if !valid {
                error(
                    "'\(name)' is not an environment variable name (letters, digits and '_', not starting with a digit)",
                    at: item.mark)
            } else if names.contains(name) {
                error("duplicate name '\(name)' in 'env'", at: item.mark)
            } else {
                names.append(name)
            }
        }
        return names
    }

    mutating func seconds(_ node: YAMLNode) -> Double {
        if case .scalar(let text, true, _) = node, case let seconds? = Self.number(text)?.doubleValue, seconds > 0 {
            return seconds
        }
        error("'timeout' must be a number of seconds greater than 0", at: node.mark)
        return Self.defaultTimeout
    }

    /// `with:` of a built-in check: known parameter names, values typed like the parameter's default.
    mutating func builtInParameters(_ node: YAMLNode, of check: CheckDescription) -> [String: FactValue] {
        guard case .mapping(let pairs, _) = node else {
            error("expected a mapping", at: node.mark)
            return [:]
        }
        let names = check.parameters.map(\.name)
        var result: [String: FactValue] = [:]
        for (key, keyMark, valueNode) in pairs {
            guard let parameter = check.parameters.first(where: { $0.name == key }) else {
                let hint =
                    names.isEmpty ? " (it takes no parameters)" : Suggestion.hint(for: key, among: names)
                error("unknown parameter '\(key)' for check '\(check.id)'\(hint)", at: keyMark)
                continue
            }
            guard result[key] == nil else {
                error("duplicate key '\(key)' in 'with'", at: keyMark)
                continue
            }
            if let typed = typed(valueNode, like: parameter.defaultValue) {
                result[key] = typed
            } else {
                let expected = Self.typeName(parameter.defaultValue)
                error(
                    "parameter '\(key)' of check '\(check.id)' expects \(expected), got \(Self.describe(valueNode))",
                    at: valueNode.mark)
            }
        }
        return result
    }

    /// `node` as a value of the same type as `example`, or nil when it does not fit.
    mutating func typed(_ node: YAMLNode, like example: FactValue) -> FactValue? {
        let plain: String? = if case .scalar(let text, true, _) = node { text } else { nil }
        switch example {
        case .int: return plain.flatMap { Int($0) }.map { .int($0) }
        case .double: return plain.flatMap { Self.number($0)?.doubleValue }.map { .double($0) }
        case .bool: return plain.flatMap(Self.bool).map { .bool($0) }
        case .string: if case .scalar(let text, _, _) = node { return .string(text) } else { return nil }
        case .array: if case .sequence = node { return value(node) } else { return nil }
        case .object: if case .mapping = node { return value(node) } else { return nil }
        }
    }

    /// A free-form value: numbers and booleans from plain scalars only.
    mutating func value(_ node: YAMLNode) -> FactValue {
        switch node {
        case .scalar(let text, let plain, _):
            guard plain else { return .string(text) }
            return Self.bool(text).map { .bool($0) } ?? Self.number(text) ?? .string(text)
        case .sequence(let items, _):
            return .array(items.map { value($0) })
        case .mapping(let pairs, _):
            var object: [String: FactValue] = [:]
            for (key, keyMark, valueNode) in pairs {
                guard object[key] == nil else {
                    error("duplicate key '\(key)' in 'with'", at: keyMark)
                    continue
                }
                object[key] = value(valueNode)
            }
            return .object(object)
        }
    }
}
