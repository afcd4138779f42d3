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

/// A recogniser's byte gate (`FormatSniff.mayHold`) says no only where its lines could not match: on every
/// fixture, every file of `../shared/realworld` when it is beside the checkout, and heads made to tempt it.
@Suite struct RecogniserByteGateTests {
    static let made: [String] = [
        "Process 42: 3 leaks for 1024 total leaked bytes.\n",
        "leaks Report Version: 4.0\n",
        "    2 (96 bytes) ROOT CYCLE: <Node 0x1> [48]\n",
        "Test Case '-[A b]' started.\n",
        "Command line invocation:\n    /usr/bin/xcodebuild test -scheme App\n",
        // Not all ASCII: the Kelvin sign equals `K` as a `Character`, and the lines are read as before.
        "    2 (96 bytes) ROOT LEA\u{212A}: <Node 0x1> [48]\n",
        "Process 42: 3 leaks for 1024 total leaked bytes.\u{301}\n",
        "nothing of either\nat all\n",
    ]

    static func files() -> [String] {
        var roots = [Repo.root + "/Fixtures"]
        if let shared = Repo.realworld { roots.append(shared) }
        return roots.flatMap { root in
            (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).map { root + "/" + $0 }
        }.filter { path in
            var folder: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && !folder.boolValue
        }
    }

    @Test func theGateTurnsNoMatchAway() throws {
        var heads = Self.made.map { Array($0.utf8)[...] }
        for path in Self.files() {
            guard let handle = FileHandle(forReadingAtPath: path) else { continue }
            defer { try? handle.close() }
            heads.append(Array(try handle.read(upToCount: 65_536) ?? Data())[...])
        }
        var matched = (leaks: 0, xctest: 0)
        for head in heads {
            let sniff = FormatSniff(head)
            let (leaks, xctest) = (LeaksReport.matches(lines: sniff.lines), XCTestMetrics.matches(lines: sniff.lines))
            #expect(LeaksReport.recognises(sniff) == leaks)
            #expect(XCTestMetrics.recognises(sniff) == xctest)
            matched.leaks += leaks ? 1 : 0
            matched.xctest += xctest ? 1 : 0
        }
        // The made heads alone match leaks four times (the Kelvin sign's among them) and xcodebuild twice.
        #expect(matched.leaks >= 4 && matched.xctest >= 2)
        #expect(!FormatSniff(Array("nothing of either\n".utf8)[...]).mayHold(anyOf: "ROOT LEAK:"))
        #expect(FormatSniff(Array("é\n".utf8)[...]).mayHold(anyOf: "ROOT LEAK:"))
    }
}
