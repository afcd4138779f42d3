import MemhuntYAML

/// A decoder of one YAML schema (playbooks, ledgers): the primitives that read a node and collect a located
/// diagnostic for every problem, so that a file's problems are all reported at once, in document order.
protocol SchemaDecoding {
    /// The file part of every diagnostic.
    var file: String { get }
    var diagnostics: [Diagnostic] { get set }
}

extension SchemaDecoding {
    typealias Field = (keyMark: Mark, value: YAMLNode)

    /// Diagnostics in document order.
    var sortedDiagnostics: [Diagnostic] {
        diagnostics.enumerated().sorted { a, b in
            let (l, r) = (a.element.location, b.element.location)
            let lk = [l?.line ?? 0, l?.column ?? 0, a.offset]
            let rk = [r?.line ?? 0, r?.column ?? 0, b.offset]
            return lk.lexicographicallyPrecedes(rk)
        }.map(\.element)
    }

    mutating func error(_ message: String, at mark: Mark) {
        diagnostics.append(Diagnostic(.error, message, at: location(mark)))
    }

    func location(_ mark: Mark) -> SourceLocation {
        SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    /// The entries of a mapping by key, reporting unknown, duplicate and missing keys.
    mutating func fields(of node: YAMLNode, in context: String, allowed: [String], required: [String] = [])
        -> [String: Field]?
    {
        guard case .mapping(let pairs, let mark) = node else {
            error("expected a mapping", at: node.mark)
            return nil
        }
        var result: [String: Field] = [:]
        let present = Set(pairs.map(\.key))
        for (key, keyMark, value) in pairs {
            if !allowed.contains(key) {
                let suggestion = Suggestion.closest(to: key, among: allowed)
                let hint = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
                error("unknown key '\(key)' in \(context)\(hint)", at: keyMark)
                // Read a misspelled key as the one it resembles, so its contents are still checked.
                if let suggestion, !present.contains(suggestion), result[suggestion] == nil {
                    result[suggestion] = (keyMark, value)
                }
            } else if result[key] != nil {
                error("duplicate key '\(key)' in \(context)", at: keyMark)
            } else {
                result[key] = (keyMark, value)
            }
        }
        for key in required where result[key] == nil {
            error("missing required key '\(key)' in \(context)", at: mark)
        }
        return result
    }

    mutating func string(_ node: YAMLNode) -> String? {
        switch node {
        case .scalar(let text, _, _): return text
        case .mapping(let pairs, _) where pairs.count == 1:
            // `- text: more text` reads as a mapping: the colon and space made it one.
            error("expected a string, got a mapping: quote a text that holds ': '", at: node.mark)
        default: error("expected a string, got \(Self.describe(node))", at: node.mark)
        }
        return nil
    }

    mutating func list(_ node: YAMLNode) -> [YAMLNode]? {
        if case .sequence(let items, _) = node { return items }
        error("expected a list", at: node.mark)
        return nil
    }

    /// A string field; a required one must not be empty.
    mutating func text(_ field: Field?, key: String, required: Bool = true) -> String? {
        guard let field, let text = string(field.value) else { return nil }
        if required && text.isEmpty {
            error("'\(key)' must not be empty", at: field.value.mark)
            return nil
        }
        return text
    }

    /// `fail_on: warning`: one of the severities, with the closest named when it is none.
    mutating func severity(_ field: Field, key: String) -> Severity? {
        guard let text = string(field.value) else { return nil }
        if let severity = Severity(rawValue: text) { return severity }
        let names = Severity.allCases.map(\.rawValue)
        error(
            "'\(key)' must be one of \(names.joined(separator: ", ")); got '\(text)'"
                + Suggestion.hint(for: text, among: names), at: field.value.mark)
        return nil
    }

    /// A kebab-case identifier: lowercase letters and digits in words joined by single hyphens.
    mutating func identifier(_ field: Field?, what: String) -> String? {
        guard let field, let text = string(field.value) else { return nil }
        let words = text.split(separator: "-", omittingEmptySubsequences: false)
        let valid = words.allSatisfy { word in
            !word.isEmpty && word.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        }
        guard valid else {
            error(
                "\(what) '\(text)' must be kebab-case (lowercase letters, digits, single hyphens)", at: field.value.mark
            )
            return nil
        }
        return text
    }

    static func bool(_ text: String) -> Bool? {
        switch text {
        case "true": true
        case "false": false
        default: nil
        }
    }

    /// An integer or a decimal number written in plain digits (`10`, `-2.5`, `1e3`).
    static func number(_ text: String) -> FactValue? {
        if let int = Int(text) { return .int(int) }
        guard text.contains(where: \.isNumber), text.allSatisfy({ "0123456789+-.eE".contains($0) }),
            let double = Double(text)
        else { return nil }
        return .double(double)
    }

    static func typeName(_ value: FactValue) -> String {
        switch value {
        case .int: "an integer"
        case .double: "a number"
        case .bool: "true or false"
        case .string: "a string"
        case .array: "a list"
        case .object: "a mapping"
        }
    }

    static func describe(_ node: YAMLNode) -> String {
        switch node {
        case .scalar(let text, true, _): "'\(text)'"
        case .scalar(let text, false, _): "the quoted string '\(text)'"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }
}
