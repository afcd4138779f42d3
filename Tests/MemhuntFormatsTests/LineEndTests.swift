import Foundation
import MemhuntTestSupport
import Testing

@testable import MemhuntFormats

/// A text artifact saved with CRLF line ends (a Windows machine, a ticket's attachment, a paste) reads as
/// the same artifact. Splitting text by `Character` had lost that twice: `\r\n` is one `Character`, so a
/// legacy crash report lost its threads' frames and an empty `log stream` capture was not recognized.
@Suite struct LineEndTests {
    /// Every text file of the fixtures (outside the deliberately broken ones) and of the real-world corpus
    /// when present: not binary, not CRLF already. Absolute paths.
    static var textFiles: [String] {
        var roots = [Repo.root + "/Fixtures"]
        if let realworld = Repo.realworld { roots.append(realworld) }
        return roots.flatMap { root in
            (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter {
                !$0.hasPrefix("fuzz/") && !$0.hasPrefix("bad/")
            }.map { root + "/" + $0 }
        }.filter { path in
            guard let data = FileManager.default.contents(atPath: path) else { return false }
            return data.contains(10) && !data.prefix(4096).contains(0) && data.range(of: Data([13, 10])) == nil
        }.sorted()
    }

    @Test func everyTextFileReadsTheSameWithCRLFLineEnds() throws {
        let fixtures = Self.textFiles
        #expect(fixtures.count >= 60)
        var recognized = 0
        for path in fixtures {
            let lf = try #require(FileManager.default.contents(atPath: path)).map { $0 }
            let crlf = lf.flatMap { $0 == 10 ? [UInt8(13), 10] : [$0] }
            let a = ArtifactReader.read(lf)
            let b = ArtifactReader.read(crlf)
            #expect(a.kind == b.kind, "\(path)")
            switch (a.result, b.result) {
            case (.success(let x), .success(let y)):
                #expect(x == y, "\(path)")
                if a.kind != nil { recognized += 1 }
            case (.failure, .failure): break
            default: Issue.record("\(path): \(a.result) / \(b.result)")
            }
        }
        #expect(recognized >= 40)
    }
}
