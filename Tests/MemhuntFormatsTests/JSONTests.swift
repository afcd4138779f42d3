import Foundation
import MemhuntFormats
import MemhuntTestSupport
import Testing

@Suite struct JSONTests {
    @Test func keepsUInt64MaxAndDoublesExactly() throws {
        let value = try JSON.parse(#"{"r": 18446744073709551615, "cpu": 0.066796999999999995, "n": -12, "e": 1E3}"#)
        #expect(value["r"]?.uint64 == UInt64.max)
        #expect(value["r"]?.int == nil)
        #expect(value["cpu"] == .number("0.066796999999999995"))
        #expect(value["cpu"]?.double == 0.066796999999999995)
        #expect(value["n"]?.int == -12)
        #expect(value["n"]?.uint64 == nil)
        #expect(value["e"]?.double == 1000)
    }

    @Test func keepsKeyOrderAndFirstDuplicate() throws {
        let value = try JSON.parse(#"{"b": 1, "a": [true, false, null], "b": 2}"#)
        #expect(value.members?.map(\.key) == ["b", "a", "b"])
        #expect(value["b"]?.int == 1)
        #expect(value["a"]?[0]?.bool == true)
        #expect(value["a"]?[2]?.isNull == true)
        #expect(value["a"]?[3] == nil)
        #expect(value[path: "a", "x"] == nil)
    }

    @Test func decodesEscapes() throws {
        let value = try JSON.parse(#"["root:xnu\/RELEASE", "\u00e9\uD83D\uDE00\t\"\\", "\uD800x", "千字节"]"#)
        #expect(value[0]?.string == "root:xnu/RELEASE")
        #expect(value[1]?.string == "é😀\t\"\\")
        #expect(value[2]?.string == "\u{FFFD}x")
        #expect(value[3]?.string == "千字节")
    }

    @Test func reportsErrorsWithLineAndOffset() {
        #expect(throws: FormatError("unexpected '.', expected a key", line: 3, offset: 12)) {
            try JSON.parse("{\n\"a\": 1,\n  ...\n}")
        }
        #expect(throws: FormatError("truncated: JSON ends before the closing '}'", line: 1, offset: 9)) {
            try JSON.parse("{\"a\": [1]")
        }
        #expect(throws: FormatError("truncated: JSON ends before the closing ']'", line: 1, offset: 7)) {
            try JSON.parse("[1, 2, ")
        }
        #expect(throws: FormatError("unexpected 'x' after the JSON value", line: 1, offset: 3)) {
            try JSON.parse("{} x")
        }
        #expect(throws: FormatError("leading zero in a number", line: 1, offset: 0)) { try JSON.parse("012") }
        #expect(throws: FormatError("truncated: no JSON value before the end", line: 1, offset: 0)) {
            try JSON.parse("")
        }
    }

    @Test func limitsDepth() throws {
        let ok = String(repeating: "[", count: JSON.maxDepth) + String(repeating: "]", count: JSON.maxDepth)
        #expect(throws: Never.self) { try JSON.parse(ok) }
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: FormatError("nesting deeper than 512 levels", line: 1, offset: 512)) { try JSON.parse(deep) }
    }

    @Test func parsesAPrefixAndTellsWhereItEnds() throws {
        let bytes = Array("  {\"bug_type\":\"298\"}\n{\"x\": 1}".utf8)
        let (value, end) = try JSON.parsePrefix(bytes, from: 0)
        #expect(value["bug_type"]?.string == "298")
        #expect(end == 20)
        #expect(try JSON.parsePrefix(bytes, from: end).value["x"]?.int == 1)
    }
}

/// The tree of one document is bounded (issue 8, defect 8).
@Suite struct JSONMemoryTests {
    @Test func moreValuesThanTheLimitIsAnErrorNotGigabytes() throws {
        // 2 MB of "1," is 1 M values; the limit for 2 MB is 131,072 (one per 16 bytes).
        var bytes = [UInt8](repeating: UInt8(ascii: ","), count: 2 << 20)
        bytes[0] = UInt8(ascii: "[")
        for index in stride(from: 1, to: bytes.count, by: 2) { bytes[index] = UInt8(ascii: "1") }
        bytes[bytes.count - 1] = UInt8(ascii: "]")
        let error = #expect(throws: FormatError.self) { try JSON.parse(bytes) }
        #expect(error?.message == "more than 131072 values in 2097152 bytes, memhunt's limit for one document")
        // The limit follows the size: one value per 16 bytes, at least 100 k, at most 2 M.
        #expect(JSON.maxValues(forBytes: 342_000) == 100_000)
        #expect(JSON.maxValues(forBytes: 16_000_000) == 1_000_000)
        #expect(JSON.maxValues(forBytes: 64 << 20) == 2_000_000)
        let padded = Array(
            ("[" + String(repeating: "1," + String(repeating: " ", count: 16), count: 99_999) + "1]").utf8)
        #expect(try JSON.parse(padded).elements?.count == 100_000)
    }

    @Test func aValueIsStoredInline() {
        #expect(MemoryLayout<JSONValue>.stride <= 24)
    }
}

/// JSON past memhunt's value limit may be valid: it is said to be too large, never "not valid JSON".
@Suite struct JSONLimitWordsTests {
    @Test func aFootprintPastTheValueLimitIsTooLargeNotInvalid() throws {
        let fixture = try String(
            contentsOfFile: Repo.fixture("footprint-json/faq-visits.samples.footprint.json"), encoding: .utf8)
        // The same document with a list of a million numbers before its last brace: 2 MB, valid JSON.
        let cut = try #require(fixture.range(of: "}", options: .backwards))
        let padded = fixture[..<cut.lowerBound] + ", \"pad\": [" + String(repeating: "1,", count: 1_000_000) + "1]}\n"
        let outcome = ArtifactReader.read(Array(padded.utf8))
        guard case .failure(let error) = outcome.result else {
            Issue.record("read a document past the limit")
            return
        }
        #expect(error.message.hasPrefix("footprint JSON is too large to read: more than "), "\(error.message)")
        #expect(!error.message.contains("not valid JSON"))
    }
}
