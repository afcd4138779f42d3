import Foundation
import MemhuntFormats
import MemhuntTestSupport

/// Reads a reproduction fixture and parses it through `ReproReader`. Seed 000's files live with the
/// JustSend example, seed 002's image with the widget, seed 003's sample with the layout freeze.
enum ReproFixture {
    static let folders = ["formats/repro", "justsend", "layout-freeze", "widget"]

    static func bytes(_ name: String) throws -> [UInt8] {
        let folder = folders.first { FileManager.default.fileExists(atPath: Repo.fixture($0 + "/" + name)) }
        return try Repo.bytes((folder ?? folders[0]) + "/" + name)
    }

    static func read(_ name: String) throws -> ReproArtifact {
        let bytes = try bytes(name)
        guard let result = ReproReader.read(bytes) else { throw FormatError("\(name): not a repro kind") }
        return try result.get()
    }

    /// Every fixture with the kind `ReproReader.detect` must give it.
    static let kinds: [(String, ArtifactKind)] = [
        ("vmmap-detail-after.txt", .vmmapSummary), ("footprint-detail.txt", .footprint),
        ("measurements-detail.csv", .measurements), ("measurements-variation.json", .measurements),
        ("pviews-detail.txt", .viewHierarchy), ("drawer-before.log", .changeLog), ("drawer-after.log", .changeLog),
        ("thumbnail-fanout.log", .changeLog), ("logshow-ndjson.log", .changeLog), ("logshow-compact.log", .changeLog),
        ("silent-loop-sample.txt", .sample), ("illustration-1024.png", .image), ("image-2048x1536.jpg", .image),
        ("image-4032x3024.heic", .image),
    ]
}
