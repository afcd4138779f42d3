import Foundation
import MemhuntArtifacts
import MemhuntCore
import MemhuntFormats
import MemhuntTestSupport
import Testing

/// A text artifact saved with CRLF line ends (a Windows machine, a ticket's attachment, a paste) or with a
/// UTF-8 byte order mark before it (some Windows editors), or in UTF-16, is read as the same artifact, through the path a
/// user's file takes (`LocalArtifacts.load`: change logs streamed, the rest read whole). Each failed once:
/// `\r\n` is one `Character`, so a legacy crash report split by `Character` lost its threads' frames and an
/// empty `log stream` capture was not recognized; the streamed change-log scanner took the mark as the start
/// of the first view's name and dropped that line.
@Suite struct LineEndTests {
    /// Every text file of the fixtures (outside the deliberately broken ones): not binary, not CRLF already, no
    /// mark already. Absolute paths. The real-world corpus is `realWorldTextFiles`, in tests of its own: no
    /// count here depends on what lies beside the checkout.
    static var textFiles: [String] { textFiles(under: [Repo.root + "/Fixtures"]) }

    /// The same of `../shared/realworld`, when it is beside the checkout.
    static var realWorldTextFiles: [String] { Repo.realworld.map { textFiles(under: [$0]) } ?? [] }

    static func textFiles(under roots: [String]) -> [String] {
        roots.flatMap { root in
            (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter {
                !$0.hasPrefix("fuzz/") && !$0.hasPrefix("bad/")
            }.map { root + "/" + $0 }
        }.filter { path in
            guard let data = FileManager.default.contents(atPath: path) else { return false }
            return data.contains(10) && !data.prefix(4096).contains(0) && data.range(of: Data([13, 10])) == nil
                && !data.starts(with: [0xEF, 0xBB, 0xBF])
        }.sorted()
    }

    /// The paths whose variant (`transform`ed bytes) reads differently from the file as it is, and how many
    /// were read as a known kind.
    static func differences(
        of files: [String] = textFiles, _ transform: ([UInt8]) -> [UInt8]
    ) throws -> (differ: [String], recognized: Int) {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var differ: [String] = []
        var recognized = 0
        for (index, path) in files.enumerated() {
            let bytes = try #require(FileManager.default.contents(atPath: path)).map { $0 }
            let name = "\(index)-" + (path as NSString).lastPathComponent
            try directory.write(name, transform(bytes))
            let a = LocalArtifacts.load(path: path, source: "a")
            let b = LocalArtifacts.load(path: directory.path + "/" + name, source: "a")
            // An unread file's error names its size, which the variant changes.
            if a.kind != b.kind || a.status != b.status || a.content != b.content
                || (a.kind != nil && Self.sizeless(a.error) != Self.sizeless(b.error))
            {
                differ.append(path)
            }
            if a.kind != nil { recognized += 1 }
        }
        return (differ, recognized)
    }

    /// An error without the size it ends with when the content was not read (`, 4309 bytes)`, ` (4309 bytes)`).
    static func sizeless(_ error: String?) -> String? {
        error?.replacingOccurrences(of: #"[0-9]+ bytes\)$"#, with: "N bytes)", options: .regularExpression)
    }

    static func crlf(_ bytes: [UInt8]) -> [UInt8] { bytes.flatMap { $0 == 10 ? [13, 10] : [$0] } }

    @Test func everyTextFileReadsTheSameWithCRLFLineEnds() throws {
        #expect(Self.textFiles.count >= 150)
        let (differ, recognized) = try Self.differences(Self.crlf)
        #expect(differ == [])
        #expect(recognized >= 100)
    }

    /// The real-world corpus with CRLF line ends, after a byte order mark, and in UTF-16, when it is beside
    /// the checkout.
    @Test(.enabled(if: Repo.realworld != nil, "shared/realworld is not beside the checkout"))
    func everyRealWorldTextFileReadsTheSameInEveryEncoding() throws {
        let files = Self.realWorldTextFiles
        #expect(files.count >= 10)
        let (differ, recognized) = try Self.differences(of: files, Self.crlf)
        #expect(differ == [])
        #expect(recognized >= 1)
        #expect(try Self.differences(of: files) { [0xEF, 0xBB, 0xBF] + $0 }.differ == [])
        #expect(try Self.differences(of: files) { bytes in Self.utf16(bytes, little: true) }.differ == [])
    }

    /// Valid UTF-8 as UTF-16 after its byte order mark; other bytes as they are (their text would change).
    static func utf16(_ bytes: [UInt8], little: Bool) -> [UInt8] {
        guard String(validating: bytes, as: UTF8.self) != nil else { return bytes }
        let units = Array(String(decoding: bytes, as: UTF8.self).utf16)
        return (little ? [0xFF, 0xFE] : [0xFE, 0xFF])
            + units.flatMap { little ? [UInt8($0 & 0xFF), UInt8($0 >> 8)] : [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }

    @Test func everyTextFileReadsTheSameAfterAByteOrderMark() throws {
        let (differ, _) = try Self.differences { [0xEF, 0xBB, 0xBF] + $0 }
        #expect(differ == [])
        // The seed-style log: seven evaluations, four of them FAQAccordion's, the first line included.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("faq.log", [0xEF, 0xBB, 0xBF] + (try Repo.bytes("navigation-growth/faq-visits.log")))
        guard case .repro(.changeLog(let summary))? = LocalArtifacts.load(path: directory.path + "/faq.log").content
        else {
            Issue.record("the change log did not read")
            return
        }
        #expect(summary.evaluations == 7)
    }

    /// UTF-16 after its byte order mark (Windows PowerShell's `>`, Notepad's "Unicode") reads as the same text:
    /// it was "binary content". Files that are not valid UTF-8 are left out (their text would change).
    @Test func everyTextFileReadsTheSameInUTF16() throws {
        let (differ, _) = try Self.differences { bytes in Self.utf16(bytes, little: true) }
        #expect(differ == [])
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("faq.log", Self.utf16(try Repo.bytes("navigation-growth/faq-visits.log"), little: false))
        let artifact = LocalArtifacts.load(path: directory.path + "/faq.log")
        guard case .repro(.changeLog(let summary))? = artifact.content else {
            Issue.record("the big-endian change log did not read: \(artifact.error ?? "")")
            return
        }
        #expect(summary.evaluations == 7)
        #expect(summary.views["FAQAccordion"] == 4)
    }

    /// UTF-16 with an unpaired surrogate that breaks the document: the error names the surrogate at its byte offset
    /// in the file. It said "unexpected byte 0xef" (the first byte of U+FFFD in the converted text), a byte the
    /// file does not hold. Defect 12.
    @Test(arguments: [true, false])
    func anUnpairedUTF16SurrogateIsNamedAtItsOffsetInTheFile(little: Bool) throws {
        let text = String(decoding: try Repo.bytes("justsend/JetsamEvent-2026-08-11-112056.ips"), as: UTF8.self)
        let cut = try #require(text.range(of: "\"processes\""))
        let before = Array(text[..<cut.lowerBound].utf16), after = Array(text[cut.lowerBound...].utf16)
        let units: [UInt16] = before + [0xD800] + after
        let mark: [UInt8] = little ? [0xFF, 0xFE] : [0xFE, 0xFF]
        let bytes: [UInt8] =
            mark + units.flatMap { little ? [UInt8($0 & 0xFF), UInt8($0 >> 8)] : [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let offset = 2 + 2 * before.count
        let line = before.count { $0 == 0x0A } + 1
        let expected =
            "line \(line): not valid UTF-16: an unpaired surrogate (0xD800) at byte offset \(offset) of the file"
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("jetsam.ips", bytes)
        let artifact = LocalArtifacts.load(path: directory.path + "/jetsam.ips")
        #expect(artifact.status == .error)
        #expect(artifact.kind == .jetsamEvent)
        #expect(artifact.error == expected)
        #expect(artifact.error?.contains("0xef") == false)
        guard case .failure(let error) = ArtifactReader.read(bytes).result else {
            Issue.record("the broken document read")
            return
        }
        #expect(error.description == expected)
        // An odd last byte is named too.
        let odd: [UInt8] = [0xFF, 0xFE, UInt8(ascii: "{"), 0, UInt8(ascii: "x")]
        guard case .failure(let oddError) = ArtifactReader.read(odd).result else { return }
        #expect(oddError.description.contains("not valid UTF-16: an odd last byte at byte offset 4 of the file"))
    }
}
