import Testing

@testable import MemhuntReports

@Suite struct WrapTests {
    /// A verdict sentence's `(step 7)` moves to the next line whole: it split between `(step` and `7)`.
    @Test func aStepReferenceIsNeverSplit() {
        #expect(TextReporter.wrap("a b c", indent: "   ", width: 14, unbroken: "(step 7)") == "   a b c\n   (step 7)\n")
        #expect(TextReporter.wrap("a b", indent: "   ", width: 20, unbroken: "(step 7)") == "   a b (step 7)\n")
        #expect(TextReporter.wrap("a b c (step 7)", indent: "   ", width: 14) == "   a b c (step\n   7)\n")
    }

    /// Widths are terminal columns: a dim `(step 7)` (8 columns, 16 characters with its escape codes) fits
    /// where its text fits, and moves on where its text would not.
    @Test func escapeCodesTakeNoColumns() {
        let dim = "(step 7)".styled(.dim, enabled: true)
        #expect(dim.count > 8)
        #expect(TextReporter.wrap("a b c", indent: "   ", width: 17, unbroken: dim) == "   a b c \(dim)\n")
        #expect(TextReporter.wrap("a b c", indent: "   ", width: 16, unbroken: dim) == "   a b c\n   \(dim)\n")
        let bold = "verdict".styled(.bold, enabled: true)
        #expect(TextReporter.wrap("\(bold) is here", indent: "", width: 15) == "\(bold) is here\n")
    }

    /// A number stays with its unit: `after-detail: 45 → 611` / `MB footprint` read as two facts.
    @Test func aNumberStaysWithItsUnit() {
        let text = "after-detail: 45 → 611 MB footprint (×13.6), 3,573 layers for 2,500 lines; 57 % of it"
        #expect(
            TextReporter.wrap(text, indent: "   ", width: 26)
                == "   after-detail: 45 →\n   611 MB footprint\n   (×13.6), 3,573 layers\n   for 2,500 lines; 57 %\n   of it\n"
        )
        #expect(TextReporter.wrapLines("   peak 725 MB, 122 MB.", width: 19) == "   peak 725 MB,\n   122 MB.\n")
        // A word that is not a unit, or a number inside a word, may still end a line.
        #expect(TextReporter.wrap("rank 7 of 16", indent: "", width: 7) == "rank 7\nof 16\n")
        #expect(TextReporter.keepingUnits(["v2", "MB"]) == ["v2", "MB"])
    }
}
