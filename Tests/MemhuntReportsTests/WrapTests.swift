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
}
