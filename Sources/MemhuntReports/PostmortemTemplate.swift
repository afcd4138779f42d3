import MemhuntCore

/// A postmortem template: Markdown with placeholders, the built-in one or a team's own.
///
/// - `{{section NAME}}`: a section (`Postmortem.sections`).
/// - `{{fact KEY}}`: a fact of the incident's run with its unit; `{{fact KEY after}}`: of the last run.
/// - `{{app}}`, `{{date}}` (the incident's first recorded time, UTC), `{{playbook}}` (its title).
///
/// An unknown placeholder, section or fact key is an error with its line and column.
public struct PostmortemTemplate: Sendable {
    public var text: String
    /// Where the template came from, for diagnostics (`Playbooks/templates/postmortem.md`, a path).
    public var origin: String

    public init(text: String, origin: String) {
        self.text = text
        self.origin = origin
    }

    /// The shipped template (`Playbooks/templates/postmortem.md`, embedded).
    public static let builtIn = PostmortemTemplate(
        text: BuiltInTemplates.all.first { $0.id == "postmortem" }?.text ?? "", origin: "built-in:postmortem")

    /// The placeholder words other than `section` and `fact`.
    public static let values = ["app", "date", "playbook"]

    /// A problem in a template, located.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public var origin: String
        public var line: Int
        public var column: Int
        public var message: String

        public var description: String { "\(origin):\(line):\(column): error: \(message)" }
    }

    /// Every problem of a template.
    public struct Problems: Error, Sendable {
        public var all: [Problem]
    }

    /// The postmortem, or every problem of the template. `knownFacts` are the keys any check declares.
    public func render(_ postmortem: Postmortem, knownFacts: Set<String>) -> Result<String, Problems> {
        var out = ""
        var problems: [Problem] = []
        let facts = knownFacts.union(postmortem.runs.flatMap(\.factCatalog.keys))
        var line = 1, column = 1
        var rest = Substring(text)
        func advance(over consumed: Substring) {
            for ch in consumed {
                if ch == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            }
        }
        while let open = rest.range(of: "{{") {
            let before = rest[..<open.lowerBound]
            out += before
            advance(over: before)
            let (startLine, startColumn) = (line, column)
            func problem(_ message: String) {
                problems.append(Problem(origin: origin, line: startLine, column: startColumn, message: message))
            }
            guard let close = rest[open.upperBound...].range(of: "}}"),
                !rest[open.upperBound..<close.lowerBound].contains("\n")
            else {
                problem("'{{' without '}}' on the same line")
                let skipped = rest[open.lowerBound..<open.upperBound]
                out += skipped
                advance(over: skipped)
                rest = rest[open.upperBound...]
                continue
            }
            let whole = rest[open.lowerBound..<close.upperBound]
            let words = rest[open.upperBound..<close.lowerBound].split(separator: " ").map(String.init)
            advance(over: whole)
            rest = rest[close.upperBound...]
            switch (words.first, words.count) {
            case ("section"?, 2):
                if Postmortem.sections.contains(words[1]) {
                    out += postmortem.section(words[1])
                } else {
                    problem(
                        "unknown section '\(words[1])'"
                            + Suggestion.hint(for: words[1], among: Postmortem.sections)
                            + " (sections: \(Postmortem.sections.joined(separator: ", ")))")
                }
            case ("fact"?, 2), ("fact"?, 3):
                guard words.count == 2 || words[2] == "after" else {
                    problem("'{{fact KEY \(words[2])}}': only 'after' may follow the key")
                    continue
                }
                if facts.contains(words[1]) {
                    out += postmortem.fact(words[1], after: words.count == 3)
                } else {
                    problem("unknown fact '\(words[1])'" + Suggestion.hint(for: words[1], among: facts.sorted()))
                }
            case ("app"?, 1): out += postmortem.app
            case ("date"?, 1): out += postmortem.date
            case ("playbook"?, 1): out += Escape.markdown(postmortem.incident.playbook.title)
            default:
                let all = ["section NAME", "fact KEY", "fact KEY after"] + Self.values
                problem(
                    "unknown placeholder '\(whole)'"
                        + Suggestion.hint(for: words.first ?? "", among: ["section", "fact"] + Self.values)
                        + " (placeholders: " + all.map { "{{\($0)}}" }.joined(separator: ", ") + ")")
            }
        }
        out += rest
        return problems.isEmpty ? .success(out) : .failure(Problems(all: problems))
    }
}
