import Testing

@testable import MemhuntReports

@Suite struct WrapTests {
    /// A verdict sentence's `(step 7)` moves to the next line whole: it split between `(step` and `7)`.
    @Test func aStepReferenceIsNeverSplit() {
        #expect(TextReporter.wrap("a b c", indent: "   ", width: 14, unbroken: "(step 7)") == "   a b c\n   (step 7)\n")
        #expect(TextReporter.wrap("a b", indent: "   ", width: 20, unbroken: "(step 7)") == "   a b (step 7)\n")
        #expect(TextReporter.wrap("a b c (step 7)", indent: "   ", width: 14) == "   a b c (step\n   7)\n")
    }
}
