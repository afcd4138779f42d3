import MemhuntCore
import Testing

/// Outside text for a terminal (issue 26): control characters as `\u{1B}`, everything else as it is.
@Suite struct TerminalTextTests {
    @Test func controlCharactersAreShownEscaped() {
        #expect(TerminalText.escaped("\u{1B}]0;PWNED\u{07}") == #"\u{1B}]0;PWNED\u{07}"#)
        #expect(TerminalText.escaped("a\nb\rc\u{0}d\u{7F}e\u{9B}f") == #"a\u{0A}b\u{0D}c\u{00}d\u{7F}e\u{9B}f"#)
        #expect(TerminalText.escaped("a\r\nb") == #"a\u{0D}\u{0A}b"#)
        #expect(TerminalText.escaped("one\ntwo\u{1B}", keepingNewlines: true) == "one\ntwo\\u{1B}")
    }

    /// Bidirectional embeddings, overrides and isolates (Trojan Source) cannot show a name reversed; the marks
    /// (U+200E, U+200F) and right-to-left text stay.
    @Test func bidiOverridesAreShownEscaped() {
        #expect(TerminalText.escaped("\u{202E}gnp.exe") == #"\u{202E}gnp.exe"#)
        #expect(
            TerminalText.escaped("a\u{202A}\u{202B}\u{202C}\u{202D}b\u{2066}\u{2067}\u{2068}\u{2069}c")
                == #"a\u{202A}\u{202B}\u{202C}\u{202D}b\u{2066}\u{2067}\u{2068}\u{2069}c"#)
        #expect(TerminalText.escaped("\u{2065}\u{206A}\u{2029}\u{200F}שלום") == "\u{2065}\u{206A}\u{2029}\u{200F}שלום")
    }

    @Test func textThatIsNoControlStaysAsItIs() {
        for text in ["JustSend", "ジャストセンド", "🚀 emoji", "tab\there", "é ñ ü", ""] {
            #expect(TerminalText.escaped(text) == text)
        }
    }
}
