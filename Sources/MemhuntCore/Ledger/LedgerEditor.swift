/// Edits ledger text without re-writing what the person wrote: an entry is appended as one flow-style line
/// at the end of its list, so comments, order and spacing stay as they are. Pure; the caller checks the
/// result with `LedgerLoader` before it replaces the file.
public enum LedgerEditor {
    /// A value of an entry: a string, a list of strings, or a mapping of those.
    public indirect enum Value: Sendable, Hashable {
        case string(String)
        case strings([String])
        case mapping([(String, Value)])

        public static func == (a: Value, b: Value) -> Bool { a.yaml == b.yaml }
        public func hash(into hasher: inout Hasher) { hasher.combine(yaml) }

        /// The value in YAML's flow style, every string double-quoted (JSON's escapes are YAML's).
        public var yaml: String {
            switch self {
            case .string(let text): LedgerEditor.quoted(text)
            case .strings(let items): "[" + items.map(LedgerEditor.quoted).joined(separator: ", ") + "]"
            case .mapping(let pairs): "{" + pairs.map { "\($0.0): \($0.1.yaml)" }.joined(separator: ", ") + "}"
            }
        }
    }

    /// A double-quoted YAML scalar: quotes, backslashes and control characters escaped.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Why an entry could not be placed.
    public struct EditError: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    /// `text` with `entry` appended to the top-level list `key` (created at the end when missing).
    public static func appending(_ entry: [(String, Value)], to key: String, in text: String) -> Result<
        String, EditError
    > {
        let line = Value.mapping(entry).yaml
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        guard let start = lines.firstIndex(where: { isKey(key, $0) }) else {
            return .success((lines + ["", "\(key):", "  - " + line]).joined(separator: "\n") + "\n")
        }
        let rest = lines[start].dropFirst(key.count + 1).drop { $0 == " " }
        if !rest.isEmpty, !rest.hasPrefix("#") {
            guard rest.hasPrefix("[]") else {
                return .failure(
                    EditError(
                        description: "'\(key):' is written in flow style on line \(start + 1); "
                            + "write the entry there by hand, or turn the list into one item a line"))
            }
            lines[start] = "\(key):"
        }
        // The list runs until the next line at the left margin that is not an item, a comment or blank.
        var end = start + 1
        var last = start
        var indent: String?
        while end < lines.count {
            let text = lines[end]
            let trimmed = text.drop { $0 == " " }
            let isBlank = trimmed.isEmpty || trimmed.hasPrefix("#")
            if !isBlank, text.first != " ", text.first != "-" { break }
            if !isBlank {
                last = end
                if indent == nil, trimmed.hasPrefix("-") { indent = String(text.prefix(text.count - trimmed.count)) }
            }
            end += 1
        }
        lines.insert((indent ?? "  ") + "- " + line, at: last + 1)
        return .success(lines.joined(separator: "\n") + "\n")
    }

    static func isKey(_ key: String, _ line: String) -> Bool {
        line.hasPrefix(key + ":")
            && (line.count == key.count + 1 || [" ", "\t"].contains(line.dropFirst(key.count + 1).first))
    }

    /// A new ledger: the schema, the subject, and one example of each entry as comments to fill in.
    public static func skeleton(subject: String?, words: String? = nil) -> String {
        """
        # An investigation ledger (docs/ledger.md): the symptom, the hypotheses, and one experiment per
        # variable changed. Paths are relative to this file. Judge it with: memhunt ledger judge FILE
        ledger: \(Ledger.schema)
        \(subject.map { "subject: " + quoted($0) } ?? "# subject: MyApp")

        symptoms:
          - id: symptom
            words: \(words.map(quoted) ?? "\"what the user said, in their words\"")
            means:\(words == nil ? "\n      - \"what the app does, in symptoms\"" : " []")
            # shows: {fact: repro.peakMB, above: 300}

        hypotheses: []
        #  - id: suspect-one
        #    statement: what is suspected, and why
        #    suspect: a view, a type or a file

        experiments: []
        #  - id: first-test
        #    tests: suspect-one
        #    variable: the one thing changed
        #    baseline: [before.csv]
        #    variant: [after.csv]

        """
    }
}
