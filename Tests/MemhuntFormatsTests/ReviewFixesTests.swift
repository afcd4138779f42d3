import MemhuntFormats
import Testing

@testable import MemhuntFormats

/// Cases a review found, each pinned so it stays fixed.
@Suite struct ReviewFixesTests {
    func crash(_ text: String) throws -> CrashReport {
        guard case .success(.crashReport(let report)) = ArtifactReader.read(Array(text.utf8)).result else {
            throw FormatError("not a crash report")
        }
        return report
    }

    @Test func codeSigningNamespaceKeepsItsCode() throws {
        let report = try crash(
            "Incident Identifier: 1\nProcess: App [1]\nException Type:  EXC_CRASH (SIGKILL)\n"
                + "Termination Reason: Namespace CODESIGNING,\tCode 0x1\n")
        #expect(report.terminationNamespace == "CODESIGNING")
        #expect(report.terminationCode == 1)
        #expect(report.kind == .system)
    }

    @Test func vmmapRowNameEndingInANumberIsReadFromTheRight() {
        let columns: [Substring] = ["VIRTUAL", "RESIDENT", "DIRTY", "SWAPPED", "VOLATILE", "NONVOL", "EMPTY", "REGION"]
        let row = VMMapSummary.region(
            "Memory Tag 253                    48K      32K      32K       0K       0K       0K       0K        3",
            columns: columns)
        #expect(row?.name == "Memory Tag 253")
        #expect(row?.virtualBytes == 48 * 1024)
        #expect(row?.dirtyBytes == 32 * 1024)
        #expect(row?.regionCount == 3)
    }

    @Test func loneSurrogatesDecodeAsTheJSONParserDoes() throws {
        let literal = #""\ud83dX\ude00 \ud83d\ude00""#
        var unescaper = JSONStringUnescaper()
        for byte in literal.utf8.dropFirst() { unescaper.feed(byte) }
        let streamed = String(decoding: unescaper.output, as: UTF8.self)
        #expect(streamed == "\u{FFFD}X\u{FFFD} 😀")
        #expect(try JSON.parse(Array(literal.utf8)).string == streamed)
    }
}
