import MemhuntCore

/// The README's fact table, generated from the checks' descriptions (a test keeps the README equal to it).
public enum FactTable {
    /// One Markdown row per fact, sorted by key: key, unit, check, meaning.
    public static func markdown() -> String {
        var rows: [(key: String, line: String)] = []
        for check in builtInChecks {
            let d = check.description
            for fact in d.facts {
                rows.append((fact.key, "| `\(fact.key)` | \(fact.unit.rawValue) | `\(d.id)` | \(fact.meaning) |"))
            }
        }
        let body = rows.sorted { $0.key < $1.key }.map(\.line).joined(separator: "\n")
        return "| key | unit | check | meaning |\n|---|---|---|---|\n" + body + "\n"
    }
}
