/// Text from outside (artifact content, file names, saved documents, playbooks) made safe for a terminal.
///
/// Every control character (Unicode category Cc: C0, DEL and C1) but the tab, and every bidirectional
/// embedding, override and isolate (U+202A–U+202E, U+2066–U+2069), is shown as Swift writes it in a string
/// literal, `\u{1B}`: an ESC or BEL from an app name can no longer retitle or recolor the terminal, a newline in
/// a file name can no longer forge a line of a report or an error, and an override can no longer show a name
/// reversed (`\u{202E}gnp.exe`). Everything else (Japanese, Arabic, emoji, accents) stays as it is. Used at the
/// output boundary: the text reporter, the GitHub reporter, the CSV, HTML and Markdown cells, and memhunt's
/// lines on stderr.
public enum TerminalText {
    /// `text` with its control characters escaped; with `keepingNewlines`, line feeds stay (for text that
    /// memhunt composed of whole lines, with the outside strings in it already escaped or single-line).
    public static func escaped(_ text: String, keepingNewlines: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && !(keepingNewlines && $0 == "\n") }) else {
            return text
        }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) && !(keepingNewlines && scalar == "\n") {
                out.append(contentsOf: "\\u{\(hex(scalar.value))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether `scalar` is shown escaped: C0 (but the tab), DEL and C1, and the bidirectional embeddings,
    /// overrides and isolates.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x09) || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count < 2 ? "0" + digits : digits
    }
}
