import Testing

@testable import MemhuntFormats

/// The one line splitter of the streaming readers: the same lines whatever the chunks, long lines reported and
/// not kept.
@Suite struct LineSplitterTests {
    struct Line: Equatable {
        var text: String
        var tooLong: Bool
    }

    static func split(_ input: [UInt8], chunks: [Int], cap: Int) -> [Line] {
        var splitter = LineSplitter(cap: cap)
        var lines: [Line] = []
        var start = 0
        for size in chunks + [input.count] where start < input.count {
            let end = min(input.count, start + size)
            input[start..<end].withUnsafeBytes { chunk in
                splitter.feed(chunk) { text, tooLong, _ in
                    lines.append(Line(text: String(decoding: text, as: UTF8.self), tooLong: tooLong))
                }
            }
            start = end
        }
        splitter.finish { text, tooLong, _ in
            lines.append(Line(text: String(decoding: text, as: UTF8.self), tooLong: tooLong))
        }
        return lines
    }

    @Test func theSameLinesWhateverTheChunks() {
        let input = Array("short\n\nexactly8\nninebytes\nrest without newline".utf8)
        let expected = [
            Line(text: "short", tooLong: false), Line(text: "", tooLong: false),
            Line(text: "exactly8", tooLong: false), Line(text: "", tooLong: true),
            Line(text: "", tooLong: true),
        ]
        #expect(Self.split(input, chunks: [input.count], cap: 8) == expected)
        for size in 1...12 {
            #expect(
                Self.split(input, chunks: Array(repeating: size, count: input.count), cap: 8) == expected,
                "chunks of \(size) bytes")
        }
        #expect(Self.split(Array("a\nb\n".utf8), chunks: [1, 1, 1, 1], cap: 8).map(\.text) == ["a", "b"])
    }
}
