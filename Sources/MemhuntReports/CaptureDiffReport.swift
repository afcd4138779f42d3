import MemhuntCore
import MemhuntSnapshots

/// `memhunt diff` of two captures: text for a terminal, JSON (`memhunt.capture-diff/1`) for tools, Markdown for a
/// pull request; at most 50 rows in text and Markdown, 1,000 in JSON, the largest change of bytes first.
extension CaptureDiff {
    /// The table of two captures, in `format`.
    public func rendered(_ format: String, before: String, after: String) -> String {
        let diff = self
        let rows = diff.rows.prefix(format == "json" ? 1_000 : 50)
        switch format {
        case "json":
            // A side that does not list the class has no key: absent, not 0.
            let list: [FactValue] = rows.map { row in
                var object: [String: FactValue] = ["class": .string(row.label), "summary": .bool(row.isSummary)]
                object["before"] = row.before.map { .int($0.count) }
                object["after"] = row.after.map { .int($0.count) }
                object["deltaCount"] = row.deltaCount.map { .int($0) }
                object["beforeBytes"] = row.before.map { .int($0.bytes) }
                object["afterBytes"] = row.after.map { .int($0.bytes) }
                object["deltaBytes"] = row.deltaBytes.map { .int($0) }
                return .object(object)
            }
            let document: FactValue = [
                "schema": "memhunt.capture-diff/1", "kind": .string(diff.kind.rawValue), "before": .string(before),
                "after": .string(after), "counts": .string(diff.kind.unit), "rows": .array(list),
                "rowsLeftOut": .int(diff.rows.count - rows.count), "unchanged": .int(diff.unchanged),
                "caveats": .array(diff.caveats.map { .string($0) }),
            ]
            return JSONText.pretty(document)
        case "markdown":
            var out = "## memhunt diff: \(diff.kind.rawValue) \(Escape.code(before)) → \(Escape.code(after))\n\n"
            out += "| Class | # before | # after | Δ count | Δ bytes |\n|---|---:|---:|---:|---:|\n"
            for row in rows {
                out +=
                    "| \(Escape.markdown(row.label)) | \(count(row.before)) | \(count(row.after)) | "
                    + "\(signed(row.deltaCount)) | \(signed(row.deltaBytes)) |\n"
            }
            return out + "\n" + Escape.markdown(summary(diff, shown: rows.count)) + "\n"
        default:
            var out = "BEFORE: \(before)\nAFTER:  \(after)\n\n"
            let width = min(60, max(5, rows.map(\.label.count).max() ?? 0)) + 2
            out += TextReporter.pad("Class", width) + pad("# before") + pad("# after") + pad("Δ count") + pad("Δ bytes")
            out += "\n"
            for row in rows {
                let label = row.label.count > 60 ? String(row.label.prefix(59)) + "…" : row.label
                out += TextReporter.pad(label, width) + pad(count(row.before))
                out += pad(count(row.after)) + pad(signed(row.deltaCount))
                out += pad(signed(row.deltaBytes)) + "\n"
            }
            return TerminalText.escaped(out + "\n" + summary(diff, shown: rows.count) + "\n", keepingNewlines: true)
        }
    }

    func pad(_ text: String) -> String { String(repeating: " ", count: max(1, 12 - text.count)) + text }

    func signed(_ value: Int?) -> String { value.map { ($0 > 0 ? "+" : "") + FactValue.grouped($0) } ?? "—" }

    func count(_ tally: Tally?) -> String { tally.map { FactValue.grouped($0.count) } ?? "—" }

    /// "3 classes changed (2 shown), 8 unchanged; of those changed, 74,027 → 76,730 instances, +489,696 bytes."
    func summary(_ diff: CaptureDiff, shown: Int) -> String {
        let total = diff.total
        let oneSide = diff.rows.count { $0.before == nil || $0.after == nil }
        var text = "\(Plural.count(diff.rows.count - oneSide, "class", "classes")) changed"
        if shown < diff.rows.count { text += " (\(shown) rows shown)" }
        text += ", \(FactValue.grouped(diff.unchanged)) unchanged"
        if oneSide > 0 { text += ", \(oneSide) listed on one side only (—: not compared)" }
        text += "; of those changed" + (diff.rows.contains(where: \.isSummary) ? " (summary rows, All …, aside)" : "")
        text +=
            ": \(FactValue.grouped(total.before.count)) → \(FactValue.grouped(total.after.count)) \(diff.kind.unit), "
        text += signed(total.after.bytes - total.before.bytes) + " bytes."
        for caveat in diff.caveats { text += " " + caveat + "." }
        return text
    }
}
