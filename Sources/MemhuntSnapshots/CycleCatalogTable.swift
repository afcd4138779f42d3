/// The catalog as the Markdown table of docs/leak-patterns.md, generated so that the two never drift
/// (`CyclePatternTests.theDocumentHoldsTheGeneratedTables`).
extension CycleCatalog {
    public static func markdown() -> String {
        func cell(_ text: String) -> String {
            text.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
                .split(separator: "\n").joined(separator: "<br>")
        }
        func name(_ match: NameMatch) -> String {
            switch match {
            case .exact(let text): "`\(text)`"
            case .prefix(let text): "`\(text)…`"
            case .contains(let text): "contains `\(text)`"
            case .regex(let pattern): "`/\(pattern.text)/`"
            }
        }
        func requirement(_ requirement: CyclePattern.Requirement) -> String {
            switch requirement {
            case .node(let match): "a node " + name(match)
            case .field(let match): "a reference " + name(match)
            case .appClass: "a class of the app"
            case .onlyAppClasses: "only classes of the app"
            case .lone: "one object leaked alone"
            case .cycle: "a cycle"
            }
        }
        var lines = [
            "| id | what | matches on the cycle (confidence) | fix | before → after | SwiftLint |",
            "|---|---|---|---|---|---|",
        ]
        for pattern in patterns {
            let ways = pattern.ways.map { way in
                way.requirements.map(requirement).joined(separator: ", ") + " (\(way.confidence.rawValue))"
            }
            lines.append(
                "| `\(pattern.id)` | \(cell(pattern.title)) | \(cell(ways.joined(separator: "; or "))) | "
                    + "\(cell(pattern.fix)) | `\(cell(pattern.before))` → `\(cell(pattern.after))` | "
                    + (pattern.swiftLint == "none" ? "none" : "`\(pattern.swiftLint)`") + " |")
        }
        lines += [
            "", "| known framework cycle | holder | reference | target | seen on |", "|---|---|---|---|---|",
        ]
        for cycle in frameworkCycles {
            lines.append(
                "| \(cycle.name) | \(cell(name(cycle.holder))) | \(cycle.field.map { cell(name($0)) } ?? "any") | "
                    + "\(cell(name(cycle.target))) | "
                    + "\(cycle.seenOn) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
