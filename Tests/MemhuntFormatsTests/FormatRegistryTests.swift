import Foundation
import MemhuntTestSupport
import Testing

@testable import MemhuntFormats

/// An artifact kind has one place in `FormatRegistry`, fixtures that are read as it, and a row in
/// docs/artifacts.md; each test names what to add when a kind is added without it.
@Suite struct FormatRegistryTests {
    static let registry = "Sources/MemhuntFormats/FormatRegistry.swift"

    @Test func everyKindHasExactlyOnePlace() {
        let sniffed = FormatRegistry.sniffed.map { $0.kind }
        let records = FormatRegistry.records.map(\.kind)
        for kind in ArtifactKind.allCases {
            let places = [sniffed.contains(kind), records.contains(kind), FormatRegistry.named.contains(kind)]
            #expect(
                places.count(where: \.self) == 1,
                """
                The kind `\(kind.rawValue)` is in \(places.count(where: \.self)) places of \
                \(Self.registry): a format read from its own bytes is a type conforming to ReproFormat in \
                `sniffed`; a kind ArtifactReader reads from a header or JSON keys is in `records`; a kind only \
                named is in `named`.
                """)
        }
    }

    @Test func recordsAndNamedAreSortedById() {
        let records = FormatRegistry.records.map(\.kind.rawValue)
        #expect(records == records.sorted(), "\(Self.registry): `records` is sorted by kind id")
        let named = FormatRegistry.named.map(\.rawValue)
        #expect(named == named.sorted(), "\(Self.registry): `named` is sorted by kind id")
    }

    /// Each sniffed format's fixtures are detected as its kind, in the registry's order, and parse; each record's
    /// fixtures read as its kind.
    @Test(arguments: FormatRegistry.sniffed.map { ($0.kind, $0.fixtures) } + FormatRegistry.records)
    func fixturesReadAsTheirKind(kind: ArtifactKind, fixtures: [String]) throws {
        #expect(
            !fixtures.isEmpty || kind == .sysdiagnose,
            "The kind `\(kind.rawValue)` has no fixture: add one under Fixtures/ and name it in its format's `fixtures`"
        )
        for fixture in fixtures {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Repo.root + "/" + fixture)))
            if kind == .manifest {
                #expect(ArtifactSniffer.route(bytes) == .manifest, "\(fixture) is not routed as a manifest")
                continue
            }
            let outcome = ArtifactReader.read(bytes)
            #expect(outcome.kind == kind, "\(fixture) reads as \(outcome.kind?.rawValue ?? "nothing"), not \(kind)")
            if case .failure(let error) = outcome.result { Issue.record("\(fixture): \(error)") }
        }
    }

    @Test func everyKindHasARowInTheArtifactsDocument() throws {
        let document = try String(contentsOfFile: Repo.root + "/docs/artifacts.md", encoding: .utf8)
        for kind in ArtifactKind.allCases {
            #expect(
                document.contains("`\(kind.rawValue)`"),
                "docs/artifacts.md does not name `\(kind.rawValue)`: add its row to the table of kinds")
        }
    }
}
