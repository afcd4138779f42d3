import MemhuntCore
import MemhuntTestSupport
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

    /// A URL inside a name became a live link under GitHub's autolinking: the `:` of `://` and the `.` of `www.`
    /// are escaped (cmark-gfm renders them as text: `GFMRenderingTests`).
    @Test func urlsInsideNamesAreNotAutolinked() {
        #expect(Escape.markdown("App https://evil.example/x") == #"App https\://evil.example/x"#)
        #expect(Escape.markdown("see WWW.evil.example") == #"see WWW\.evil.example"#)
        #expect(Escape.markdown("awww.x and 12:30 // a.b") == "awww.x and 12:30 // a.b")
    }

    /// The same, as GitHub's renderer reads it: no link, and the text as it was.
    @Test(.enabled(if: Tool.which("cmark-gfm") != nil, "cmark-gfm is not installed (scripts/setup --tests)"))
    func cmarkGFMRendersEscapedURLsAsText() async throws {
        let cmark = try #require(Tool.which("cmark-gfm"))
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write(
            "a.md", "| x |\n|---|\n| " + Escape.markdown("Evil https://evil.example/x www.evil.example") + " |\n")
        let run = try await Tool.run(cmark, ["-e", "table", "-e", "autolink", dir.path + "/a.md"])
        #expect(!run.stdout.contains("<a "), "\(run.stdout)")
        #expect(run.stdout.contains("<td>Evil https://evil.example/x www.evil.example</td>"), "\(run.stdout)")
    }

    /// A quote, pipe or backtick followed by a combining accent is one grapheme that is not the quote: the
    /// escapers walk scalars, so it is escaped all the same (an attribute, a cell, a code span stay closed).
    @Test func aCombiningMarkDoesNotCarryAMarkupCharacterThrough() {
        #expect(Escape.html("x\"\u{301} onmouseover=alert(1)") == "x&quot;\u{301} onmouseover=alert(1)")
        #expect(Escape.html("'\u{301}<\u{338}b>") == "&#39;\u{301}&lt;\u{338}b&gt;")
        #expect(Escape.markdown("a|\u{301}b") == "a\\|\u{301}b")
        #expect(Escape.code("`\u{301}|x") == "`'\u{301}\\|x`")
        #expect(JUnitReporter.attribute("\"\u{301}") == "&quot;\u{301}")
        #expect(GitHubReporter.escapeProperty("a,\u{301}b:%") == "a%2C\u{301}b%3A%25")
    }

    /// One table per target: what each writes for the characters that matter to it.
    @Test func eachTargetWritesItsOwnTable() {
        let text = "<a href=\"x\">&'|\r\n\t\u{1B}"
        #expect(Escape.html(text) == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;|\\u{0D}\n\t\\u{1B}")
        #expect(JUnitReporter.escape(text) == "&lt;a href=\"x\"&gt;&amp;'|&#13;\n\t\\u{1B}")
        #expect(JUnitReporter.attribute(text) == "&lt;a href=&quot;x&quot;&gt;&amp;'|&#13;&#10;&#9;\\u{1B}")
        #expect(Escape.markdown(text) == "&lt;a href=\"x\"&gt;&amp;'\\|<br>\t\\u{1B}")
        #expect(GitHubReporter.escapeData(text) == "<a href=\"x\">&'|%0D%0A\t\\u{1B}")
        #expect(JUnitReporter.escape("a\u{0}b\u{FFFE}c") == "a\\u{00}bc")
    }
}
