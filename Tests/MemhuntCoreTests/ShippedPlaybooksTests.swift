import Foundation
import MemhuntChecks
import MemhuntCore
import MemhuntTestSupport
import Testing

@Suite struct ShippedPlaybooksTests {
    static let directory = Repo.root + "/Playbooks"

    static func shippedFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".yaml") }.sorted()
    }

    @Test func embeddedTextsEqualTheFilesByteForByte() throws {
        let files = try Self.shippedFiles()
        let stale = "BuiltInPlaybooks.swift is out of date: run scripts/embed-playbooks"
        #expect(BuiltInPlaybooks.all.map(\.id) == files.map { String($0.dropLast(".yaml".count)) }, "\(stale)")
        for (file, embedded) in zip(files, BuiltInPlaybooks.all) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.directory + "/" + file))
            #expect(Array(embedded.text.utf8) == Array(bytes), "Playbooks/\(file): \(stale)")
        }
    }

    @Test func everyShippedPlaybookLoadsWithoutDiagnostics() throws {
        let loader = PlaybookLoader(knownChecks: builtInChecks.map { $0.description })
        #expect(!BuiltInPlaybooks.all.isEmpty)
        for (id, text) in BuiltInPlaybooks.all {
            switch loader.load(text: text, origin: "Playbooks/\(id).yaml", directory: nil, isRemote: false) {
            case .success(let playbook): #expect(playbook.id == id, "a playbook's id must match its file name")
            case .failure(let error): Issue.record("Playbooks/\(id).yaml:\n\(error)")
            }
        }
    }

    @Test func readmeExampleLoads() throws {
        let readme = try String(contentsOfFile: Self.directory + "/README.md", encoding: .utf8)
        let example = try #require(readme.components(separatedBy: "```yaml\n").dropFirst().first)
        let text = example.components(separatedBy: "```").first ?? ""
        let result = PlaybookLoader(knownChecks: fakeChecks).load(
            text: text, origin: "Playbooks/README.md", directory: nil, isRemote: false)
        #expect(throws: Never.self) { try result.get() }
    }

    /// A step's "if empty" text is shown when the step has no artifact at all: it may say what is unknown and
    /// what to collect, never what a missing artifact cannot show ("the app stayed alive and frozen", "the app
    /// was not suspended", "silence during a freeze" about a log nobody captured).
    @Test func noEmptyGuidanceClaimsWhatAMissingArtifactCannotShow() throws {
        let loader = PlaybookLoader(knownChecks: builtInChecks.map { $0.description })
        var texts: [String] = []
        for (id, text) in BuiltInPlaybooks.all {
            let playbook = try loader.load(text: text, origin: id, directory: nil, isRemote: false).get()
            texts += playbook.steps.compactMap(\.empty)
        }
        #expect(texts.count >= 15)
        for claim in ["stayed alive and", "was not suspended at", "Silence during", "did not die", "it lived"] {
            #expect(!texts.contains { $0.contains(claim) }, "\(claim)")
        }
        #expect(texts.contains { $0.hasPrefix("No crash report does not show the app stayed alive") })
    }
}
