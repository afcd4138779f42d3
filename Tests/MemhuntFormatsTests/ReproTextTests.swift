import Testing

@testable import MemhuntFormats

/// ReproText's byte fast paths give what the `Character`-level helpers gave, also where a byte is not a
/// `Character` of its own (issue 13; the fuzz target `reprotext` compares them on every input).
@Suite struct ReproTextTests {
    @Test func linesKeepEmptyOnesAndDropOneCarriageReturn() {
        #expect(ReproText.lines(Array("a\r\n\nb\r\r\nc".utf8)) == ["a", "", "b\r", "c"])
        #expect(ReproText.lines([UInt8]()) == [""])
        #expect(ReproText.lines(Array("x\n".utf8)[1...]) == ["", ""])
        #expect(ReproText.lines([0x61, 0xFF, 0x0A]) == ["a\u{FFFD}", ""])
    }

    @Test func aSpaceBeforeACombiningMarkIsNoSeparator() {
        #expect(ReproText.tokens("a  b\tc ") == ["a", "b", "c"])
        // " \u{301}" is one Character, not a space: the token goes on.
        #expect(ReproText.tokens("a \u{301}b c") == ["a \u{301}b", "c"])
        // A prepended mark (U+0600) joins the space after it.
        #expect(ReproText.tokens("x\u{600} y") == ["x\u{600} y"])
        #expect(ReproText.tokens("\t\u{301}a\t") == ["\u{301}a"])
    }

    @Test func trimmingStopsAtCharactersThatAreNotSpaces() {
        #expect(ReproText.trimmed(" \t\r x \r") == "x")
        #expect(ReproText.trimmed("  \u{301}x") == " \u{301}x")
        #expect(ReproText.trimmed("x\u{600} ") == "x\u{600} ")
        // "\r\n" is one Character, which is not "\r".
        #expect(ReproText.trimmed("\r\nx") == "\r\nx")
        #expect(ReproText.trimmed(" \t ") == "")
    }

    @Test func sizesAndNumbers() {
        #expect(ReproText.binarySize("611.0M") == 640_679_936)
        #expect(ReproText.binarySize("824") == 824)
        #expect(ReproText.binarySize("1.5k") == nil)
        // U+212A KELVIN SIGN is canonically equivalent to "K", so the Character-level code read it as one.
        #expect(ReproText.binarySize("2\u{212A}") == 2048)
        #expect(ReproText.binarySize("1.0M\u{301}") == nil)
        #expect(ReproText.unitSize("752", "KB") == 770_048)
        #expect(ReproText.unitSize("752", "\u{212A}B") == 770_048)
        #expect(ReproText.decimal("1e3") == 1000)
        #expect(ReproText.decimal("0x10") == nil)
        #expect(ReproText.decimal("nan") == nil)
    }

    @Test func markerSearchIsByCharacter() {
        #expect(ReproText.containsText("x ViewGraph y", "ViewGraph"))
        #expect(!ReproText.containsText("x ViewGraph\u{301} y", "ViewGraph"))
        #expect(ReproText.containsText("\u{E9}ViewGraph", "ViewGraph"))
        #expect(ReproText.containsText("Ke\u{301}", "\u{E9}"))
        #expect(ReproText.containsText("\u{212A}", "K"))
        #expect(!ReproText.containsText("mach_msg", "mach_msg_trap"))
    }
}
