import Foundation
import MemhuntCore
import MemhuntFormats
import MemhuntReports
import MemhuntTestSupport
import Testing

/// `JSONText` encodes straight into `JSONNode`: held here to the text the former path wrote, `JSONEncoder`
/// (`.sortedKeys`) parsed back and laid out, on real findings documents and on the awkward values.
@Suite struct JSONNodeEncoderTests {
    /// The former path, kept as the oracle.
    static func throughFoundation<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return JSONNode(try JSON.parse(Array(try encoder.encode(value)))).rendered()
    }

    @Test(arguments: ["justsend", "killed", "watchdog", "several-apps", "metrickit-mixed", "widget", "pressure"])
    func findingsDocumentsAreWrittenAsBefore(_ fixture: String) async throws {
        let run = await memhunt("run", "--format", "json", "Fixtures/" + fixture)
        let document = try JSONDecoder().decode(FindingsDocument.self, from: Data(run.stdout.utf8))
        #expect(document.steps.count >= 8)
        let text = JSONText.pretty(document)
        #expect(text == (try Self.throughFoundation(document)))
        #expect(text == run.stdout)
    }

    struct Awkward: Codable {
        var doubles: [Double] = [725, 102.5, 3e15, 1.5e16, 9_007_199_254_740_992, -0.0, 0.1, 1e-5, 1e21, -2.5e-300]
        var nonFinite: [Double] = [.infinity, -.infinity]
        var floats: [Float] = [0.1, 3, 1e20]
        var integers: [Int64] = [.min, .max, 0]
        var unsigned: UInt64 = .max
        var url = URL(string: "https://example.org/a/b?x=1")!
        var date = Date(timeIntervalSinceReferenceDate: 12.5)
        var data = Data([0, 1, 2, 250])
        // Told by their metatypes: as themselves, optional, in arrays and dictionaries.
        var decimal = Decimal(string: "12.345")!
        var optionalURL: URL? = URL(string: "file:///tmp/a%20b")
        var urls: [URL?] = [URL(string: "https://example.org")!, nil]
        var dates: [String: Date] = ["epoch": Date(timeIntervalSince1970: 0)]
        var optionalData: Data? = Data([255])
        var decimals: [Decimal] = [Decimal(1), Decimal(string: "-0.5")!]
        var optionals: [Int?] = [1, nil, 3]
        var missing: String? = nil
        var byInt: [Int: String] = [10: "ten", 9: "nine", -1: "minus one"]
        var keys: [String: Int] = ["a10": 1, "a9": 2, "B": 3, "a": 4, "_x": 5, "é": 6, "e": 7, "": 8, "x.y": 9]
        var empty: [String: [Int]] = ["none": [], "nested": [1]]
        var text = "quote \" backslash \\ slash / tab \t line\n nul \u{0} e\u{301} 😀 \u{2028}"
    }

    final class Base: Encodable {
        var base = 1
    }

    final class Derived: Encodable {
        var own = "x"
        let parent = Base()
        enum CodingKeys: String, CodingKey { case own }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(own, forKey: .own)
            try parent.encode(to: container.superEncoder())
            var list = container.superEncoder(forKey: .own).unkeyedContainer()
            try list.encode(2)
            var nested = list.nestedContainer(keyedBy: CodingKeys.self)
            try nested.encodeNil(forKey: .own)
        }
    }

    @Test func awkwardValuesAreWrittenAsJSONEncoderWritesThem() throws {
        let text = JSONText.pretty(Awkward())
        #expect(text == (try Self.throughFoundation(Awkward())))
        #expect(text.contains("3000000000000000,"))
        #expect(text.contains("1.5e+16"))
        #expect(text.contains("\"Infinity\""))
        #expect(!text.contains("missing"))
        #expect(text.contains("\"https://example.org\""))
        #expect(text.contains("\"/w==\""))
        #expect(text.contains("12.345"))
        #expect(JSONText.pretty(Derived()) == (try Self.throughFoundation(Derived())))
        #expect(JSONText.pretty(Derived()).contains("\"super\": {"))
    }
}
