import MemhuntCore

/// How the reporters write outside text (artifact content, file names, app names) into markup: one table per
/// target, walked over Unicode scalars. A walk over `Character`s compared graphemes: a `"` or `|` followed by a
/// combining accent is one grapheme that is not `"` or `|`, and went out unescaped, closing an HTML attribute or
/// a Markdown table cell.
///
/// A scalar in `table` becomes its replacement; one in `kept` stays; any other control character or
/// bidirectional override is shown as `\u{1B}` (`TerminalText`), as on the terminal; with `xmlCharactersOnly`,
/// what XML 1.0 forbids is dropped; the rest stays as it is.
struct MarkupEscaping: Sendable {
    let table: [Unicode.Scalar: String]
    var kept: Set<Unicode.Scalar> = []
    var xmlCharactersOnly = false

    /// HTML text and attribute values (quoted with `"` or `'`).
    static let html = MarkupEscaping(
        table: ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"], kept: ["\n"])
    /// XML element text (JUnit).
    static let xmlText = MarkupEscaping(
        table: ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"], kept: ["\n"], xmlCharactersOnly: true)
    /// XML attribute values (JUnit): also quotes, and line breaks and tabs as character references.
    static let xmlAttribute = MarkupEscaping(
        table: [
            "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;",
        ], xmlCharactersOnly: true)
    /// Markdown inline text and table cells: HTML-sensitive characters, pipes, emphasis and link marks, line
    /// breaks (`Escape.markdown` adds the two rules that need the neighbouring characters).
    static let markdown = MarkupEscaping(table: [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "\\|", "\n": "<br>", "\r": "", "`": "\\`", "*": "\\*",
        "_": "\\_", "[": "\\[", "]": "\\]", "\\": "\\\\",
    ])
    /// A Markdown code span: a backtick, which cannot be escaped inside one, becomes `'`; a pipe is escaped for
    /// table cells; a line break is shown as `\u{0A}`, as it would end the row.
    static let codeSpan = MarkupEscaping(table: ["`": "'", "|": "\\|"])
    /// A GitHub workflow command's message: `%`, CR and LF as GitHub's rules say.
    static let githubData = MarkupEscaping(table: ["%": "%25", "\r": "%0D", "\n": "%0A"])
    /// A GitHub workflow command's property value: also `:` and `,`.
    static let githubProperty = MarkupEscaping(
        table: ["%": "%25", "\r": "%0D", "\n": "%0A", ":": "%3A", ",": "%2C"])

    func callAsFunction(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { append(scalar, to: &out) }
        return String(out)
    }

    /// `scalar` as this table writes it, appended to `out`.
    func append(_ scalar: Unicode.Scalar, to out: inout String.UnicodeScalarView) {
        if let replacement = table[scalar] {
            out.append(contentsOf: replacement.unicodeScalars)
        } else if kept.contains(scalar) {
            out.append(scalar)
        } else if TerminalText.isControl(scalar) {
            out.append(contentsOf: TerminalText.escaped(String(scalar)).unicodeScalars)
        } else if !xmlCharactersOnly || Self.xmlAllows(scalar) {
            out.append(scalar)
        }
    }

    /// XML 1.0's Char production (the tab, line feed and carriage return are in the tables or kept).
    static func xmlAllows(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
