import MemhuntCore
import Testing

@testable import MemhuntReports

/// Outside strings in reports: CSV cells (RFC 4180 with OWASP's formula rule) and Markdown (issue 26).
@Suite struct EscapeTests {
    @Test func csvCellsAreQuotedAndFormulasDefused() {
        #expect(ScanDocument.csvField("plain") == "plain")
        #expect(ScanDocument.csvField("=HYPERLINK(\"http://x\")") == "\"'=HYPERLINK(\"\"http://x\"\")\"")
        #expect(ScanDocument.csvField("+cmd") == "'+cmd")
        #expect(ScanDocument.csvField("-2+3") == "'-2+3")
        #expect(ScanDocument.csvField("@SUM(1)") == "'@SUM(1)")
        #expect(ScanDocument.csvField("\tx") == "'\tx")
        #expect(ScanDocument.csvField("\rx") == #"\u{0D}x"#)
        #expect(ScanDocument.csvField("a\rb") == #"a\u{0D}b"#)
        #expect(ScanDocument.csvField("a\r\nb") == #"a\u{0D}\u{0A}b"#)
        #expect(ScanDocument.csvField("\u{1B}]0;x\u{07},\u{202E}") == #""\u{1B}]0;x\u{07},\u{202E}""#)
        #expect(ScanDocument.csvField("a,b") == "\"a,b\"")
        // Numbers stay numbers: a plain number, negative or not, is no formula.
        #expect(ScanDocument.csvField("-12.5") == "-12.5")
        #expect(ScanDocument.csvField("725.0") == "725.0")
    }
}
