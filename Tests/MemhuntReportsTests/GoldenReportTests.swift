import Foundation
import MemhuntCore
import MemhuntReports
import MemhuntTestSupport
import Testing

/// Every reporter, the postmortem and the diff, rendered from the saved JustSend hunt and held to a golden
/// file: a change of layout shows up as a reviewed diff of `Golden/`. `MEMHUNT_UPDATE_GOLDEN=1 swift test
/// --filter Golden` writes them again.
@Suite struct GoldenReportTests {
    static let folder = Repo.root + "/Tests/MemhuntReportsTests/Golden"
    static let update = ProcessInfo.processInfo.environment["MEMHUNT_UPDATE_GOLDEN"] == "1"

    static func document(_ name: String) throws -> FindingsDocument {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name + ".findings.json"))
        return try FindingsDocument.decode(Array(bytes))
    }

    static func hold(_ text: String, to file: String) throws {
        let path = folder + "/" + file
        if update { try text.write(toFile: path, atomically: true, encoding: .utf8) }
        let golden = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        #expect(
            text == golden,
            "Tests/MemhuntReportsTests/Golden/\(file) differs: MEMHUNT_UPDATE_GOLDEN=1 swift test --filter Golden, then review git diff"
        )
    }

    static let extensions = [
        "github": "txt", "html": "html", "json": "json", "junit": "xml", "markdown": "md", "sarif": "sarif",
        "text": "txt",
    ]

    @Test func everyReporterHasAGoldenFile() {
        #expect(Set(reporters.identifiers) == Set(Self.extensions.keys), "add a golden file for each reporter")
    }

    @Test(arguments: reporters.identifiers)
    func reporterMatchesItsGoldenFile(identifier: String) throws {
        let reporter = try #require(reporters.named(identifier))
        let document = try Self.document("justsend")
        let text = reporter.render(document, options: ReportOptions())
        // The JSON report is the document itself: held to the saved document, not to a copy of it.
        let file = identifier == "json" ? "findings.json" : "\(identifier).\(Self.extensions[identifier] ?? "txt")"
        try Self.hold(text, to: "justsend." + file)
    }

    /// The JSON reporter is the document itself: a saved document re-renders byte for byte.
    @Test func theSavedDocumentReRendersByteForByte() throws {
        let path = Self.folder + "/justsend.findings.json"
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        let document = try Self.document("justsend")
        #expect(JSONReporter.render(document, options: ReportOptions()) == saved)
    }

    @Test func postmortemAndDiffMatchTheirGoldenFiles() throws {
        let before = try Self.document("justsend"), after = try Self.document("justsend-fixed")
        let postmortem = try PostmortemTemplate.builtIn.render(Postmortem(runs: [before, after]), knownFacts: []).get()
        try Self.hold(postmortem, to: "justsend.postmortem.md")
        let diff = RunDiff(before: before, after: after)
        for format in RunDiff.formats { try Self.hold(diff.rendered(format), to: "justsend.diff.\(format)") }
    }
}
