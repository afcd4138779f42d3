import Foundation
import MemhuntArtifacts
import MemhuntBasics
import MemhuntCore
import MemhuntFormats
import MemhuntTestSupport
import Testing

/// An xctrace export is streamed (like a change log): never refused at the document limit, read window by
/// window, cut short said with its place.
@Suite struct XCTraceStreamTests {
    static func export(rows: Int, closed: Bool = true) -> [UInt8] {
        var text =
            "<?xml version=\"1.0\"?>\n<trace-query-result><node><schema name=\"virtual-memory\">"
            + "<col><mnemonic>operation</mnemonic></col><col><mnemonic>size</mnemonic></col></schema>\n"
            + "<row><vm-op id=\"1\" fmt=\"Zero Fill\">Zero Fill</vm-op><size-in-bytes id=\"2\">16384</size-in-bytes></row>\n"
        text += String(repeating: "<row><vm-op ref=\"1\"/><size-in-bytes ref=\"2\"/></row>\n", count: rows - 1)
        if closed { text += "</node></trace-query-result>\n" }
        return Array(text.utf8)
    }

    @Test func anExportOverTheDocumentLimitStreams() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let bytes = Self.export(rows: 60_000)
        try folder.write("big.xml", bytes)
        // 3.2 MB against a 1 MB limit: several 1 MiB windows, each token possibly split between two.
        let artifact = LocalArtifacts.load(path: folder.path + "/big.xml", documentLimit: 1 << 20)
        #expect(artifact.status == .ok && artifact.kind == .xctraceExport && artifact.size == bytes.count)
        guard case .repro(.xctraceExport(let export))? = artifact.content else {
            Issue.record("not read")
            return
        }
        #expect(
            export.tables.first?.operations == [
                XCTraceVMOperation(name: "Zero Fill", count: 60_000, bytes: 983_040_000)
            ])
        #expect(artifact.sha256 == SHA256.hex(bytes))
    }

    @Test func aStreamCutShortIsAnErrorWithItsPlace() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let bytes = Self.export(rows: 60_000, closed: false)
        try folder.write("cut.xml", bytes)
        let artifact = LocalArtifacts.load(path: folder.path + "/cut.xml", documentLimit: 1 << 20)
        #expect(artifact.status == .error && artifact.kind == .xctraceExport)
        #expect(
            artifact.error
                == "line 60003: the XML ends inside <node> opened at line 2, with 2 element(s) open: the file is cut "
                + "short (byte \(bytes.count))")
    }
}
