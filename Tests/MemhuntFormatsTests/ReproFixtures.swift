import MemhuntFormats
import MemhuntTestSupport

/// Reads a `Fixtures/formats/repro` file and parses it through `ReproReader`.
enum ReproFixture {
    static func bytes(_ name: String) throws -> [UInt8] { try Repo.bytes("formats/repro/" + name) }

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
        ("silent-loop-sample.txt", .sample), ("image-1024.png", .image), ("image-2048x1536.jpg", .image),
        ("image-4032x3024.heic", .image),
    ]
}
