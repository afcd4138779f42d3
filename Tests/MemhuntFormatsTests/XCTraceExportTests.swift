import Foundation
import MemhuntTestSupport
import Testing

@testable import MemhuntFormats

/// The streaming XML tokenizer and the xctrace reader on top of it: one test per fixture of
/// `Fixtures/xctrace/` (one per kind and variant), bad input, the intern table's bound.
@Suite struct XCTraceExportTests {
    /// Start tags, ends and text as one string: `<a k=v>`, `</>`, `"text"`.
    struct Recorder: XMLHandler {
        var events: [String] = []
        mutating func startElement(_ tag: XMLTag) {
            let attributes = (0..<tag.attributeCount).map {
                " " + String(decoding: tag.attributeName($0), as: UTF8.self) + "="
                    + String(decoding: tag.attributeValue($0), as: UTF8.self)
            }
            events.append("<" + String(decoding: tag.name, as: UTF8.self) + attributes.joined() + ">")
        }
        mutating func endElement(at position: XMLPosition) { events.append("</>") }
        mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
            // Pieces of one text are joined, whitespace between tags dropped.
            let piece = String(decoding: bytes, as: UTF8.self)
            if let last = events.last, last.hasPrefix("\"") {
                events[events.count - 1] = String(last.dropLast()) + piece + "\""
            } else if !piece.allSatisfy(\.isWhitespace) {
                events.append("\"" + piece + "\"")
            }
        }
    }

    /// The events of `text` fed `chunk` bytes at a time, and the error at the end.
    static func tokens(_ text: String, chunk: Int = 1 << 20) -> (events: [String], error: FormatError?) {
        var tokenizer = XMLTokenizer()
        var recorder = Recorder()
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + chunk)
            bytes[start..<end].withUnsafeBytes { tokenizer.feed($0, into: &recorder) }
            start = end
        }
        let error = tokenizer.finish()
        return (recorder.events, error)
    }

    @Test(arguments: [1, 2, 3, 7, 1 << 20])
    func entitiesCDATACommentsAttributesAndEmptyTags(chunk: Int) {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE r [ <!ELEMENT r ANY> ]>
            <!-- a comment with <tags> and -- dashes -->
            <r a="1 &lt; 2" b='it&apos;s &#x41;&#66;'>x &amp; y<e/><![CDATA[<raw> ]] ]]]>z<?pi data?></r>
            """
        let (events, error) = Self.tokens(text, chunk: chunk)
        #expect(error == nil)
        #expect(events == ["<r a=1 < 2 b=it's AB>", "\"x & y\"", "<e>", "</>", "\"<raw> ]] ]z\"", "</>"])
    }

    @Test func badXMLIsNamedWithItsPlace() {
        func error(_ text: String) -> String? { Self.tokens(text).error?.description }
        #expect(error("<a>\n<b>\n</a>") == "line 3: </a> closes <b> opened at line 2 (byte 8)")
        #expect(
            error("<a>\n<b>text") == "line 2: the XML ends inside <b> opened at line 2, with 2 element(s) open: "
                + "the file is cut short (byte 11)")
        #expect(error("<a>&bogus;</a>") == "line 1: unknown entity '&bogus;' (byte 3)")
        #expect(error("<a x=\"1\" x=\"2\"/>") == "line 1: attribute 'x' given twice in <a> (byte 0)")
        #expect(error("<a x=1/>") == "line 1: attribute 'x' of <a> is not quoted (byte 0)")
        #expect(error("<a/><b/>") == "line 1: a second root element <b> (byte 4)")
        #expect(error("hello <a/>") == "line 1: text before the root element (byte 0)")
        #expect(error("<a><!-- open") == "line 1: the XML ends inside a comment begun at line 1 (byte 12)")
        #expect(error("") == "line 1: no root element (byte 0)")
        let deep = String(repeating: "<a>", count: XMLTokenizer.maxDepth + 1)
        #expect(error(deep) == "line 1: elements nested deeper than 256 (byte 768)")
    }

    static func export(_ relative: String) throws -> XCTraceExport {
        let bytes = try Repo.bytes("xctrace/" + relative)
        #expect(ReproReader.detect(bytes) == .xctraceExport)
        return try XCTraceExport.parse(bytes).get()
    }

    @Test func theTableOfContents() throws {
        let toc = try Self.export("toc.xml")
        #expect(toc.document == .toc && toc.runs.count == 1)
        let run = try #require(toc.runs.first)
        #expect(run.number == 1 && run.templateName == "Allocations" && run.duration == "12.5")
        #expect(run.processName == "DemoApp" && run.pid == 4242)
        #expect(run.deviceModel == "iPhone 15" && run.platform == "iOS" && run.osVersion == "18.2 (22C152)")
        #expect(run.startDate == "2026-08-11T11:20:56.000+02:00" && run.endReason == "Target app exited")
        #expect(run.schemas == ["virtual-memory", "device-thermal-state-intervals"])
        #expect(run.tracks.map(\.name) == ["Allocations", "VM Tracker", "Leaks"])
        #expect(run.tracks[1].details == ["Summary", "Regions Map"])
        #expect(toc.processNames == ["DemoApp"])
    }

    @Test func virtualMemoryWithRefsSentinelsAndBacktraces() throws {
        let export = try Self.export("virtual-memory.xml")
        let table = try #require(export.tables.first)
        #expect(export.tables.count == 1 && table.shape == .virtualMemory && table.schema == "virtual-memory")
        #expect(table.columns.count == 10 && table.columns[3] == "operation" && table.columns[8] == "size")
        #expect(table.rows == 4 && table.skippedRows == 0 && export.diagnostics.isEmpty)
        #expect(table.operations.map(\.name) == ["Zero Fill", "Page In", "Copy-on-Write"])
        #expect(table.operations.map(\.count) == [2, 1, 1])
        #expect(table.operations.map(\.bytes) == [32_768, 49_152, 32_768])
        #expect(table.processes == ["DemoApp": 4])
        #expect(export.processNames == ["DemoApp"])
    }

    @Test func vmTrackerRegions() throws {
        let table = try #require(try Self.export("vm-regions.xml").tables.first)
        #expect(table.shape == .vmRegions && table.schema == nil && table.rows == 5)
        #expect(table.regionTypes.map(\.type) == ["Malloc Small", "IOSurface", "__TEXT", "CoreAnimation"])
        #expect(table.regionTypes.map(\.regions) == [2, 1, 1, 1])
        #expect(table.regionTypes[0].dirtyBytes == 7_340_032 && table.regionTypes[0].swappedBytes == 4_194_304)
        #expect(table.regionTypes.reduce(0) { $0 + $1.residentBytes } == 36_700_160)
        #expect(table.regionTypes.reduce(0) { $0 + $1.virtualBytes } == 50_331_648)
    }

    @Test func allocationsStatisticsAndList() throws {
        let statistics = try #require(try Self.export("allocations-statistics.xml").tables.first)
        #expect(statistics.shape == .allocationsStatistics && statistics.categoryCount == 7)
        let all = try #require(statistics.category("All Heap & Anonymous VM"))
        #expect(all.persistentBytes == 52_428_800 && all.persistentCount == 1200 && all.totalBytes == 104_857_600)
        #expect(all.transientBytes == 52_428_800 && all.totalCount == 2600 && all.line == 8)
        #expect(statistics.category("_ContiguousArrayStorage<UInt8>")?.persistentBytes == 15_728_640)
        let list = try #require(try Self.export("allocations-list.xml").tables.first)
        #expect(list.shape == .allocationsList && list.rows == 4)
        #expect(list.liveCount == 3 && list.liveBytes == 524_336 && list.listedBytes == 917_552)
    }

    @Test func leaks() throws {
        let table = try #require(try Self.export("leaks.xml").tables.first)
        #expect(table.shape == .leaks && table.leakCount == 4 && table.leakedBytes == 4272)
        #expect(
            table.largestLeaks.map(\.object) == [
                "Malloc 4.00 KiB", "DetailViewModel", "Closure context", "__NSDictionaryM",
            ])
        #expect(table.largestLeaks.first?.line == 9)
    }

    @Test func swiftUIUpdatesPerView() throws {
        let table = try #require(try Self.export("swiftui-updates.xml").tables.first)
        #expect(table.shape == .swiftUIUpdates && table.rows == 6)
        #expect(table.viewUpdates == ["StreamScreen": 3, "RootView": 2, "LibraryRow": 1])
    }

    /// A schema memhunt does not read is named by its schema name, nothing read of it.
    @Test func anUnreadSchemaIsNamed() throws {
        let export = try Self.export("thermal.xml")
        let table = try #require(export.tables.first)
        #expect(table.shape == .unread && table.name == "device-thermal-state-intervals" && table.rows == 2)
        #expect(export.schemaNames == ["device-thermal-state-intervals"])
        #expect(table.operations.isEmpty && table.viewUpdates.isEmpty)
    }

    /// Fed a byte at a time (every token split across chunks) it reads what it reads whole.
    @Test(arguments: ["virtual-memory.xml", "swiftui-updates.xml", "toc.xml", "allocations-statistics.xml"])
    func chunksOfAnySizeReadTheSame(name: String) throws {
        let bytes = try Repo.bytes("xctrace/" + name)
        var scanner = XCTraceScanner()
        for index in bytes.indices { scanner.feed(bytes[index...index]) }
        #expect(try scanner.finish().get() == XCTraceExport.parse(bytes).get())
    }

    /// A UTF-8 byte order mark before the XML (split between chunks, too) is read past.
    @Test func aByteOrderMarkIsReadPast() throws {
        let bytes = try Repo.bytes("xctrace/leaks.xml")
        var scanner = XCTraceScanner()
        for byte in [0xEF, 0xBB, 0xBF] + bytes { scanner.feed([byte][...]) }
        #expect(try scanner.finish().get() == XCTraceExport.parse(bytes).get())
        #expect(Self.tokens("\u{FEFF}<a/>").error == nil)
        #expect(Self.tokens("<a/>\u{FEFF}").error?.message == "text after the root element (byte 4)")
    }

    /// virtual-memory.xml cut after its first row (what an interrupted export leaves).
    static func truncated() throws -> [UInt8] {
        let lines = try Repo.bytes("xctrace/virtual-memory.xml").split(separator: 10, omittingEmptySubsequences: false)
        return Array(lines.prefix(8).joined(separator: [10])) + [10]
    }

    @Test func aTruncatedExportIsAnErrorWithItsPlace() throws {
        let bytes = try Self.truncated()
        #expect(ArtifactReader.read(bytes).kind == .xctraceExport)
        let error = XCTraceExport.parse(bytes).failure
        #expect(error?.line == 9 && error?.offset == bytes.count)
        #expect(
            error?.message
                == "the XML ends inside <node> opened at line 8, with 2 element(s) open: the file is cut short "
                + "(byte \(bytes.count))")
    }

    /// A ref to an id nothing defines and a cycle of refs are named with their lines; their rows are not counted;
    /// the other rows are.
    @Test func undefinedRefsAndCyclesAreNamed() throws {
        let export = try Self.export("undefined-ref.xml")
        let table = try #require(export.tables.first)
        #expect(table.rows == 3 && table.skippedRows == 2)
        #expect(table.operations == [XCTraceVMOperation(name: "Zero Fill", count: 1, bytes: 16_384)])
        #expect(
            export.diagnostics == [
                "line 7: <size-in-bytes ref=\"99\"> refers to id 99, which no element before it defines",
                "line 7: a row of virtual-memory is not counted: its ref=\"99\" is not resolved",
                "line 8: <size-in-bytes ref=\"5\"> is inside the element that defines id 5 (line 8): a cycle of refs, "
                    + "not resolved",
                "line 8: a row of virtual-memory is not counted: its ref=\"5\" is not resolved",
            ])
    }

    /// Past the intern table's bound, a value referred to often stays (each use moves it to the newer
    /// generation); one not referred to since is dropped, said, and its row not counted.
    @Test func theInternTableIsBounded() throws {
        var text =
            "<trace-query-result><node><schema name=\"virtual-memory\"><col><mnemonic>operation</mnemonic></col>"
            + "<col><mnemonic>size</mnemonic></col></schema>"
            + "<row><vm-op id=\"1\">Zero Fill</vm-op><size-in-bytes id=\"2\">4096</size-in-bytes></row>"
            + "<row><vm-op id=\"3\">Page In</vm-op><size-in-bytes ref=\"2\"/></row>"
        for index in 0..<40 {
            text += "<row><vm-op ref=\"1\"/><size-in-bytes id=\"\(100 + index)\">\(index)</size-in-bytes></row>"
        }
        text += "<row><vm-op ref=\"1\"/><size-in-bytes id=\"200\">8</size-in-bytes></row>"
        text += "<row><vm-op ref=\"3\"/><size-in-bytes ref=\"200\"/></row></node></trace-query-result>"
        var scanner = XCTraceScanner(internCapacity: 8)
        scanner.feed(Array(text.utf8)[...])
        let export = try scanner.finish().get()
        let table = try #require(export.tables.first)
        #expect(table.rows == 44 && table.skippedRows == 1 && export.droppedRefs == 1)
        #expect(table.operations.first { $0.name == "Zero Fill" }?.count == 42)
        #expect(
            export.diagnostics.first
                == "line 1: <vm-op ref=\"3\">: id 3 is not held (never defined, or dropped from the intern table of "
                + "24 ids)")
    }

    /// Past the bound, distinct ids that are never referred to again push older values out: an export of many
    /// still reads whole, the refs to what was dropped are named, and the last diagnostic says how many refs the
    /// bound cut short, also when the rest of the diagnostics were cut at their limit.
    @Test func refsTheInternBoundCutShortAreCounted() throws {
        var text =
            "<trace-query-result><node><schema name=\"virtual-memory\"><col><mnemonic>operation</mnemonic></col>"
            + "<col><mnemonic>size</mnemonic></col></schema>"
            + "<row><vm-op id=\"1\">Zero Fill</vm-op><size-in-bytes id=\"2\">4096</size-in-bytes></row>\n"
        for index in 0..<30 {
            text += "<row><vm-op ref=\"1\"/><size-in-bytes id=\"\(100 + index)\">\(index)</size-in-bytes></row>\n"
        }
        text += String(repeating: "<row><vm-op ref=\"1\"/><size-in-bytes ref=\"2\"/></row>\n", count: 25)
        text += "<row><vm-op ref=\"1\"/><size-in-bytes ref=\"129\"/></row>\n</node></trace-query-result>"
        var scanner = XCTraceScanner(internCapacity: 4)
        scanner.feed(Array(text.utf8)[...])
        let export = try scanner.finish().get()
        let table = try #require(export.tables.first)
        #expect(table.rows == 57 && table.skippedRows == 25 && export.droppedRefs == 25)
        // The first row, the 30 that define ids and the last (its ref to the id defined last resolves).
        #expect(table.operations == [XCTraceVMOperation(name: "Zero Fill", count: 32, bytes: 4096 + 435 + 29)])
        #expect(export.diagnostics.count == XCTraceExport.diagnosticLimit + 2)
        #expect(
            export.diagnostics.first
                == "line 32: <size-in-bytes ref=\"2\">: id 2 is not held (never defined, or dropped from the intern "
                + "table of 12 ids)")
        #expect(
            export.diagnostics[1] == "line 32: a row of virtual-memory is not counted: its ref=\"2\" is not resolved")
        #expect(export.diagnostics[XCTraceExport.diagnosticLimit] == "and 30 more of the same kinds")
        #expect(
            export.diagnostics.last
                == "the intern table's bound (12 ids) cut resolution short: 25 ref(s) to ids it no longer held (or "
                + "never held) were not resolved")
    }

    /// Values of a name no row refers to (a time stamp in every row) go to the transient tier once thousands were
    /// defined: a flood of them far past the bound no longer pushes out a value that rows refer to seldom.
    @Test func aFloodOfValuesNoRowRefersToLeavesTheOthersHeld() throws {
        var text =
            "<trace-query-result><node><schema name=\"virtual-memory\"><col><mnemonic>start</mnemonic></col>"
            + "<col><mnemonic>operation</mnemonic></col><col><mnemonic>size</mnemonic></col></schema><row>"
            + "<start-time id=\"3\">0</start-time><vm-op id=\"1\">Zero Fill</vm-op><size-in-bytes id=\"2\">4096"
            + "</size-in-bytes></row>"
        for index in 1..<4200 {
            text +=
                "<row><start-time id=\"\(1000 + index)\">\(index)</start-time><vm-op ref=\"1\"/><size-in-bytes ref=\"2\"/></row>"
        }
        for index in 4200..<7200 {
            text += "<row><start-time id=\"\(1000 + index)\">\(index)</start-time><vm-op ref=\"1\"/><sentinel/></row>"
        }
        text +=
            "<row><start-time ref=\"1005\"/><vm-op ref=\"1\"/><size-in-bytes ref=\"2\"/></row></node></trace-query-result>"
        var scanner = XCTraceScanner(internCapacity: 8)
        scanner.feed(Array(text.utf8)[...])
        let export = try scanner.finish().get()
        let table = try #require(export.tables.first)
        #expect(table.rows == 7201 && table.skippedRows == 0)
        #expect(table.operations == [XCTraceVMOperation(name: "Zero Fill", count: 7201, bytes: 4096 * 4201)])
        // The early time stamp was dropped (and said); the size, referred to once after 3,000 rows, was not.
        #expect(export.droppedRefs == 1)
        #expect(
            export.diagnostics == [
                "line 1: <start-time ref=\"1005\">: id 1005 is not held (never defined, or dropped from the intern "
                    + "table of 24 ids)",
                "the intern table's bound (24 ids) cut resolution short: 1 ref(s) to ids it no longer held (or never "
                    + "held) were not resolved",
            ])
    }

    /// A start tag is read in one pass where it stands in the chunk, and the careful way (its end found first)
    /// when it is split between chunks or anything in it is wrong: either way the same error, place and line.
    @Test func badTagsAreNamedAlikeWholeAndSplit() {
        let cases = [
            ("<a x=\"1\" <b>", "line 1: '<' inside a tag (byte 9)"),
            ("<a x=1 y=\"<\">", "line 1: attribute 'x' of <a> is not quoted (byte 0)"),
            ("<a x=\"&bogus;\" y=2>", "line 1: an unknown entity in an attribute value of <a> (byte 0)"),
            ("<a x=\"&bogus;\" <b>", "line 1: '<' inside a tag (byte 15)"),
            ("<a x=\"a<b\"/>", "line 1: '<' in an attribute value of <a> (byte 0)"),
            ("<a x=\"1\"y=\"2\"/>", "line 1: 'y' where an attribute name should be, in <a> (byte 0)"),
            ("<a x=\"1\" x=\"2\"/>", "line 1: attribute 'x' given twice in <a> (byte 0)"),
            ("<a/ >", "line 1: '/' where an attribute name should be, in <a> (byte 0)"),
            ("<a\nx=\"1\n2\"\n/><b/>", "line 4: a second root element <b> (byte 13)"),
            ("<r>\n<a\nx=\"&lt;\n\"/>\n</b>", "line 5: </b> closes <r> opened at line 1 (byte 19)"),
            ("<a x=\"1/>", "line 1: the XML ends inside markup begun at line 1 (byte 9)"),
        ]
        for (text, expected) in cases {
            #expect(Self.tokens(text).error?.description == expected, "\(text)")
            for chunk in [1, 2, 3, 7] {
                #expect(Self.tokens(text, chunk: chunk).error?.description == expected, "\(text), chunks of \(chunk)")
            }
        }
    }

    @Test func onlyAnXctraceRootIsDetected() {
        #expect(XCTraceExport.matches(Array("<?xml version=\"1.0\"?>\n<!-- c -->\n<trace-toc>".utf8)[...]))
        #expect(XCTraceExport.matches(Array("\u{FEFF}<trace-query-result>".utf8)[...]))
        #expect(!XCTraceExport.matches(Array("<trace-tocs>".utf8)[...]))
        #expect(!XCTraceExport.matches(Array("<?xml version=\"1.0\"?><testsuites>".utf8)[...]))
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// The real exports under ../shared/realworld/xctrace: each recognized, its facts as the file says (counted
/// independently with Python's ElementTree when the test was written).
@Suite(.enabled(if: Repo.realworld != nil, "shared/realworld is not beside the checkout")) struct XCTraceRealworldTests
{
    static func export(_ name: String) throws -> XCTraceExport {
        let path = try #require(Repo.realworld) + "/xctrace/" + name
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(ReproReader.detect(bytes) == .xctraceExport)
        return try XCTraceExport.parse(bytes).get()
    }

    @Test func microsoftVirtualMemory() throws {
        let export = try Self.export("msft-trace_memory-virtual-memory.xml")
        let table = try #require(export.tables.first)
        #expect(export.tables.count == 1 && table.shape == .virtualMemory)
        #expect(table.xpath == "//trace-toc[1]/run[1]/data[1]/table[29]")
        #expect(table.rows == 1914 && table.skippedRows == 0 && export.diagnostics.isEmpty)
        #expect(table.operations.map(\.name) == ["Page Cache Hit", "Zero Fill"])
        #expect(table.operations.map(\.count) == [979, 935])
        #expect(table.operations.map(\.bytes) == [16_039_936, 15_319_040])
        #expect(table.processes.count == 30 && table.processes["DTServiceHub"] == 944)
        #expect(table.processes["WindowServer"] == 464 && table.processes["com.apple.WebKit.WebContent"] == 5)
        // Thirty processes: the export names no one app.
        #expect(export.processNames.isEmpty)
    }

    @Test func microsoftThermalIsNamedNotRead() throws {
        let export = try Self.export("msft-trace_thermal.xml")
        let table = try #require(export.tables.first)
        #expect(table.shape == .unread && table.schema == "device-thermal-state-intervals" && table.rows == 1)
        #expect(
            table.columns == ["start", "duration", "end", "thermal-state", "track-label", "is-induced", "narrative"])
    }

    @Test func memorydetectivePotentialHangsIsNamedNotRead() throws {
        let export = try Self.export("memorydetective-example-potential-hangs.xml")
        let table = try #require(export.tables.first)
        #expect(table.shape == .unread && table.schema == "potential-hangs" && table.rows == 35)
        #expect(table.columns == ["start", "duration", "hang-type", "thread", "process"])
        #expect(export.diagnostics.isEmpty)
    }
}
