import Foundation
import MemhuntCore
import MemhuntTestSupport
import Testing

@testable import MemhuntChecks

/// The output side knows no check: no declared fact key or finding code is written as a string literal in
/// `Sources/MemhuntReports` or `Sources/MemhuntCLI` (reporters render the checks' presentation, and `diff`
/// takes each fact's direction from its declaration). On the check side each key and code is written once,
/// in its declaration, and the body uses the constant.
@Suite struct DeclaredOnceTests {
    static let keys: [String] =
        builtInChecks.flatMap { $0.description.facts.map(\.key) }
        + builtInChecks.flatMap { $0.description.codes.map(\.code) } + EngineFindings.all.map(\.code)

    /// Every `"…"` literal of the Swift files under `folder` (comment lines left out), with its place.
    static func literals(under folder: String, skippingLinesStartingWith skipped: String? = nil) throws -> [(
        place: String, text: String
    )] {
        let root = Repo.root + "/" + folder
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [(String, String)] = []
        for case let path as String in walker where path.hasSuffix(".swift") {
            let text = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//"), skipped.map({ !code.hasPrefix($0) }) ?? true else { continue }
                let parts = line.split(separator: "\"", omittingEmptySubsequences: false)
                for (i, part) in parts.enumerated() where i % 2 == 1 {
                    found.append(("\(folder)/\(path):\(index + 1)", String(part)))
                }
            }
        }
        return found
    }

    @Test(arguments: ["Sources/MemhuntReports", "Sources/MemhuntCLI"])
    func theOutputSideNamesNoFactOrCode(folder: String) throws {
        let declared = Set(Self.keys)
        #expect(declared.count > 60)
        for literal in try Self.literals(under: folder) where declared.contains(literal.text) {
            Issue.record(
                """
                \(literal.place): "\(literal.text)" is a fact key or finding code of a check. Say it in the check \
                instead: its headline, comparisons or series (CheckOutput.headline/compare/chart), or the fact's \
                declaration (better:, measure:). See docs/architecture.md, "Where to add".
                """)
        }
    }

    @Test func eachKeyAndCodeIsWrittenOnceInTheChecks() throws {
        var counts: [String: [String]] = [:]
        // The engine's finding examples (Core) pin facts of the checks, whose constants Core cannot name: their
        // `facts: [` lines are test data, not a body that should use a constant.
        let core = try Self.literals(under: "Sources/MemhuntCore", skippingLinesStartingWith: "facts: [")
        for literal in try Self.literals(under: "Sources/MemhuntChecks") + core
        where Self.keys.contains(literal.text) {
            counts[literal.text, default: []].append(literal.place)
        }
        for key in Self.keys {
            let places = counts[key] ?? []
            #expect(
                places.count == 1,
                """
                "\(key)" is written \(places.count) times (\(places.joined(separator: ", "))): declare it once as a \
                constant (enum Fact / enum Code in its check) and use the constant in the body.
                """)
        }
    }
}

/// Every built-in check measures, then says: a typed measurement first, the words after it (issue 46).
@Suite struct MeasureThenSayTests {
    @Test func everyBuiltInCheckIsAMeasuringCheck() {
        for type in builtInChecks {
            #expect(
                type is any MeasuringCheck.Type, "\(type) is a Check with a run of its own: give it measure and say")
        }
    }
}
