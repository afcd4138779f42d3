import MemhuntCore

/// What the checks said a reader should see, gathered for the renderers: the Markdown, HTML and
/// postmortem renderers print the same numbers the same way, and none of them names a fact or a check.
extension FindingsDocument {
    /// "725 MB, rank 7 of 16, suspended": the step's headline, in the checks' order.
    public func result(of step: StepRecord) -> String {
        step.presentation.headline.map(\.text).joined(separator: ", ")
    }

    /// Every comparison of the run, in step order.
    public var comparisons: [Comparison] { steps.flatMap(\.presentation.comparisons) }

    /// Every series the reports draw, in step order.
    public var drawnSeries: [Series] { steps.flatMap(\.presentation.series).filter(\.drawn) }

    /// The comparisons grouped as the checks grouped them: ungrouped ones first, as one table.
    public var comparisonTables: [(group: String?, rows: [Comparison])] {
        var tables: [(group: String?, rows: [Comparison])] = []
        for comparison in comparisons {
            if let index = tables.firstIndex(where: { $0.group == comparison.group }) {
                tables[index].rows.append(comparison)
            } else {
                tables.append((comparison.group, [comparison]))
            }
        }
        return tables.sorted { ($0.group == nil ? 0 : 1) < ($1.group == nil ? 0 : 1) }
    }
}

extension Comparison {
    /// "Leaked objects: 60,436 (before.txt) → 55,576 (after.txt), a fix": one line, for the text formats.
    public var line: String {
        "\(label): \(from.text) (\(from.label)) → \(to.text) (\(to.label))" + (change.map { ", " + $0 } ?? "")
            + " [\(kind.word)]"
    }
}

extension Comparison.Kind {
    /// One word for the kind, as the reports print it.
    public var word: String {
        switch self {
        case .growth: "growth"
        case .variation: "variation"
        case .fix: "fix"
        }
    }
}

/// Text for Markdown and HTML.
enum Escape {
    /// For Markdown table cells and inline text: `MarkupEscaping.markdown`, and links kept from forming.
    static func markdown(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            // GitHub links `https://…` and `www.…` in text by themselves: a URL inside a name (an app's, a file's)
            // stays text, by escaping the `:` of `://` and the `.` of `www.` (both render as themselves).
            if scalar == ":", scalars[(index + 1)...].starts(with: ["/", "/"]) {
                out.append(contentsOf: "\\:".unicodeScalars)
            } else if scalar == ".", index >= 3, scalars[(index - 3)..<index].allSatisfy({ $0 == "w" || $0 == "W" }),
                index == 3
                    || !(scalars[index - 4].properties.isAlphabetic || scalars[index - 4].properties.numericType != nil)
            {
                out.append(contentsOf: "\\.".unicodeScalars)
            } else {
                MarkupEscaping.markdown.append(scalar, to: &out)
            }
        }
        return String(out)
    }

    /// For inline code spans: backticks cannot be escaped inside, so they are replaced; a line break or another
    /// control character, which would end a table row or a list item, is shown as `\u{0A}`.
    static func code(_ text: String) -> String { "`" + MarkupEscaping.codeSpan(text) + "`" }

    /// For HTML text and attribute values.
    static func html(_ text: String) -> String { MarkupEscaping.html(text) }
}
