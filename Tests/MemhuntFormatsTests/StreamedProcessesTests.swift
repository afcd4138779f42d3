import Foundation
import MemhuntTestSupport
import Testing

@testable import MemhuntFormats

/// The reader takes a JetsamEvent's processes as the parser meets them (`ProcessReader`), never as a tree:
/// held here to the tree's answer on every JetsamEvent of the fixtures and the real-world corpus, and on
/// the shapes where the two could part (the `jetsam` fuzz target does the same on mutated input).
@Suite struct StreamedProcessesTests {
    /// Both ways through one body: the event (or error) and whether the array was streamed.
    static func both(_ bytes: [UInt8]) throws -> (
        tree: Result<JetsamEvent, FormatError>, streamed: Result<JetsamEvent, FormatError>, visited: Bool
    ) {
        let sniffed = ArtifactReader.sniffIPSHeader(bytes)
        let start = sniffed?.bodyOffset ?? 0
        func event(_ make: () throws(FormatError) -> JetsamEvent) -> Result<JetsamEvent, FormatError> {
            do throws(FormatError) { return .success(try make()) } catch { return .failure(error) }
        }
        let tree = event { () throws(FormatError) in
            try JetsamParser.parse(body: try JSON.parsePrefix(bytes, from: start).value, header: sniffed?.header)
        }
        let reader = ProcessReader()
        var visited = false
        let streamed = event { () throws(FormatError) in
            let (body, didVisit, _) = try JSON.parsePrefix(
                bytes, from: start, visitingElementsOf: "processes", with: reader)
            visited = didVisit
            return try JetsamParser.parse(
                body: body, header: sniffed?.header, processes: didVisit ? reader.processes : nil)
        }
        return (tree, streamed, visited)
    }

    static var jetsamFiles: [String] {
        var roots = [Repo.root + "/Fixtures"]
        if let realworld = Repo.realworld { roots.append(realworld) }
        return roots.flatMap { root in
            (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).map { root + "/" + $0 }
        }.filter { path in
            guard let data = FileManager.default.contents(atPath: path), data.count < 8 << 20 else { return false }
            return data.prefix(200).range(of: Data(#""bug_type":"298""#.utf8)) != nil
                || data.prefix(200).range(of: Data(#""bug_type": "298""#.utf8)) != nil
        }.sorted()
    }

    @Test func everyJetsamEventReadsTheSameStreamedAsFromTheTree() throws {
        let files = Self.jetsamFiles
        #expect(files.count >= 10)
        var streamedCount = 0
        for path in files {
            let bytes = try #require(FileManager.default.contents(atPath: path)).map { $0 }
            let (tree, streamed, visited) = try Self.both(bytes)
            #expect(tree == streamed, "\(path)")
            if visited { streamedCount += 1 }
        }
        #expect(streamedCount >= 8)
        // The seed's record, read by the reader itself: rank 7's app at 725 MB.
        let justSend = try #require(
            FileManager.default.contents(atPath: Repo.fixture("justsend/JetsamEvent-2026-08-11-112056.ips")))
        guard case .jetsamEvent(let event)? = try? ArtifactReader.read(Array(justSend)).result.get() else {
            Issue.record("the JustSend record did not read")
            return
        }
        let app = try #require(event.processes.first { $0.name == "JustSend" })
        #expect(app.lifetimeMax.map { $0 * event.pageSize } == 725 << 20)
    }

    @Test(arguments: [
        // The first `processes` is not an array: the tree's answer (an error), nothing streamed.
        #"{"memoryStatus":{"pageSize":16384},"processes":{"a":1},"processes":[{"name":"x"}]}"#,
        // A second `processes` after the streamed one stays in the tree and is not read.
        #"{"memoryStatus":{"pageSize":16384},"processes":[{"name":"a","rpages":1}],"processes":[{"name":"b"}]}"#,
        // An escaped key, elements that are not objects, duplicate members, nested `processes`.
        #"{"memoryStatus":{"pageSize":4096},"pro\u0063esses":[1,null,{"name":"a","name":"b","pid":3},{"processes":[2]}]}"#,
        // Errors inside the streamed array: where and what the tree says.
        #"{"memoryStatus":{"pageSize":4096},"processes":[{"name":"a",}]}"#,
        #"{"memoryStatus":{"pageSize":4096},"processes":[{"name":"a"} {"name":"b"}]}"#,
        #"{"memoryStatus":{"pageSize":4096},"processes":[{"name":"a\u00"}]}"#,
        #"{"memoryStatus":{"pageSize":4096},"processes":[{"name":"a"}"#,
        // No memoryStatus: the model's error, after a streamed array.
        #"{"processes":[{"name":"a"}]}"#,
        // A top-level array: nothing to stream.
        #"[{"processes":[{"name":"a"}]}]"#,
    ])
    func edgeShapesReadTheSameBothWays(_ text: String) throws {
        let (tree, streamed, _) = try Self.both(Array(text.utf8))
        #expect(tree == streamed)
    }

    @Test func theValueLimitIsCountedTheSameWay() throws {
        // 100,001 values: one over the limit for a small document, inside the streamed array.
        let processes = Array(repeating: "1", count: 99_997).joined(separator: ",")
        let text = #"{"memoryStatus":{"pageSize":4096},"processes":["# + processes + "]}"
        let (tree, streamed, _) = try Self.both(Array(text.utf8))
        #expect(tree == streamed)
        guard case .failure(let error) = tree else {
            Issue.record("the limit must be reached")
            return
        }
        #expect(error.message.hasPrefix("more than 100000 values"))
    }

    /// Collects each member of the streamed elements as a raw value's answers.
    final class RawCollector: JSONElementVisitor {
        var answers: [String] = []
        func begin(element index: Int) {}
        func member(key: UnsafeBufferPointer<UInt8>, value: JSONRawValue) {
            answers.append(Self.describe(value))
        }
        func end(element index: Int) {}
        static func describe(_ value: some ProcessFieldValue) -> String {
            "\(value.string as Any) \(value.uint64 as Any) \(value.int as Any) \(value.strings as Any) \(value.built)"
        }
    }

    @Test func aRawValueAnswersAsTheBuiltValueDoes() throws {
        // Integers at and past both ends of UInt64 and Int, -0 (0 for both, as `UInt64("-0")` is), fractions
        // and exponents (no integer), strings with and without escapes, arrays of strings with other values.
        let values = [
            "0", "-0", "7", "-7", "18446744073709551615", "18446744073709551616", "9223372036854775807",
            "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "1.0", "1e3", "-0.5E-2",
            #""""#, #""JustSend""#, #""a\"b\\c\u00e9\ud83d\ude00\ud800x""#, "[]", #"[ "active" , "suspended" ]"#,
            #"["a\nb", 1, null, ["c"], {"d": "e"}, "f"]"#, #"[1, "x"]"#, "true", "null", #"{"internal": [1, 2]}"#,
        ]
        let text =
            "{\"processes\":[{"
            + values.enumerated().map { #""k\#($0.offset)": \#($0.element)"# }
            .joined(separator: ", ") + "}]}"
        let collector = RawCollector()
        let (_, visited, _) = try JSON.parsePrefix(
            Array(text.utf8), from: 0, visitingElementsOf: "processes", with: collector)
        #expect(visited)
        let expected = try values.map { RawCollector.describe(try JSON.parse($0)) }
        #expect(collector.answers == expected)
        // Pinned, so that a shared mistake of both ways still fails here.
        #expect(expected[2] == "nil Optional(7) Optional(7) nil number(\"7\")")
        #expect(collector.answers[1].contains("Optional(0) Optional(0)"))
        #expect(collector.answers[5] == "nil nil nil nil number(\"18446744073709551616\")")
    }

    @Test(arguments: [
        // A first member of each name wins; a bug_type that is null or a number; an escaped key; other kinds.
        #"{"bug_type":"298","bug_type":"309","name":"a","name":"b","app_name":null,"bundleID":7}"#,
        #"{"bug_type":null,"timestamp":"2026-08-11 11:20:56.00 +0900"}"#,
        #"{"bug_type":309,"os_version":"iPhone OS 26.0 (23A341)","incident_id":"X"}"#,
        #"{"bug_\u0074ype":"298","na\u006de":"esc\"aped"}"#,
        #"{"bug_type":-0,"incident_id":["x"]}"#, #"{"bug_type":1.5}"#, #"{"name":"no bug_type"}"#,
        // Not a header: more after the object on its line, an error on the line, a line that does not end.
        #"{"bug_type":"298"} x"#, #"{"bug_type":"298",}"#, #"{"bug_type":"298""#, "{\"bug_type\":\"298\"}\t \r\n{}",
    ])
    func theHeaderLineReadsAsItsTreeDoes(_ text: String) throws {
        let bytes = Array(text.utf8)
        let sniffed = ArtifactReader.sniffIPSHeader(bytes)
        #expect(sniffed?.header == Self.treeHeader(bytes)?.header)
        #expect(sniffed?.bodyOffset == Self.treeHeader(bytes)?.bodyOffset)
    }

    @Test func everyHeaderOfTheCorpusReadsAsItsTreeDoes() throws {
        var headers = 0
        for path in Self.jetsamFiles {
            let bytes = try #require(FileManager.default.contents(atPath: path)).map { $0 }
            let sniffed = ArtifactReader.sniffIPSHeader(bytes)
            #expect(sniffed?.header == Self.treeHeader(bytes)?.header, "\(path)")
            if sniffed != nil { headers += 1 }
        }
        #expect(headers >= 8)
        let justSend = try #require(
            FileManager.default.contents(atPath: Repo.fixture("justsend/JetsamEvent-2026-08-11-112056.ips")))
        #expect(ArtifactReader.sniffIPSHeader(Array(justSend))?.header.bugType == "298")
    }

    /// The header as the tree reads it (the way before `JSON.visitPrefix`; the `jetsam` fuzz target holds
    /// the two to each other on mutated input).
    static func treeHeader(_ bytes: [UInt8]) -> (header: IPSHeader, bodyOffset: Int)? {
        guard let line = bytes.firstIndex(of: UInt8(ascii: "\n")).map({ Array(bytes[..<$0]) }) ?? Optional(bytes),
            let (value, end) = try? JSON.parsePrefix(line, from: 0), value.members != nil,
            let bugType = value["bug_type"],
            line[end...].allSatisfy({ [0x20, 0x09, 0x0D].contains($0) })
        else { return nil }
        let header = IPSHeader(
            bugType: bugType.string ?? bugType.int.map(String.init), timestamp: value["timestamp"]?.string,
            osVersion: value["os_version"]?.string, appName: value["app_name"]?.string, name: value["name"]?.string,
            bundleID: value["bundleID"]?.string, incidentID: value["incident_id"]?.string)
        return (header, min(line.count + 1, bytes.count))
    }
}
