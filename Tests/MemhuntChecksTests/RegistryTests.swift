import Foundation
import MemhuntCore
import MemhuntTestSupport
import Testing

@testable import MemhuntChecks

@Suite struct RegistryTests {
    @Test func builtInChecksAreSortedUniqueAndComplete() throws {
        let ids = builtInChecks.map { $0.description.id }
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
        let typeNames = builtInChecks.map { String(describing: $0) }.sorted()
        let files = try FileManager.default.contentsOfDirectory(atPath: Repo.root + "/Sources/MemhuntChecks/BuiltIn")
            .filter { $0.hasSuffix("Check.swift") }.map { String($0.dropLast(".swift".count)) }.sorted()
        for file in files where !typeNames.contains(file) {
            Issue.record(
                Comment(
                    rawValue:
                        "\(file).swift is in Sources/MemhuntChecks/BuiltIn but not in builtInChecks: add `\(file).self,` in "
                        + "its sorted place in Sources/MemhuntChecks/BuiltInChecks.swift"))
        }
        for name in typeNames where !files.contains(name) {
            Issue.record("\(name) is in builtInChecks but no file Sources/MemhuntChecks/BuiltIn/\(name).swift holds it")
        }
        #expect(typeNames == typeNames.sorted())
        // A large check's other files: NAME+Description.swift and NAME+Words.swift, beside NAME.swift.
        let parts = try FileManager.default.contentsOfDirectory(atPath: Repo.root + "/Sources/MemhuntChecks/BuiltIn")
            .filter { $0.contains("+") }
        #expect(parts.count >= 2)
        for part in parts {
            let pieces = part.dropLast(".swift".count).split(separator: "+").map(String.init)
            #expect(pieces.count == 2 && files.contains(pieces[0]), "\(part) belongs to no check")
            #expect(["Description", "Words"].contains(pieces.last ?? ""), "\(part): +Description or +Words only")
        }
    }

    @Test(arguments: builtInChecks.map { $0.description })
    func descriptionsAreComplete(description: CheckDescription) {
        #expect(description.id.allSatisfy { $0.isLowercase || $0 == "-" })
        #expect(!description.title.isEmpty)
        #expect(description.rationale.count > 40)
        #expect(!description.facts.isEmpty)
        #expect(Set(description.parameters.map(\.name)).count == description.parameters.count)
    }

    @Test(arguments: builtInChecks.map { $0.description })
    func everyCheckIsUsedByAShippedPlaybook(description: CheckDescription) throws {
        let playbooks = BuiltInPlaybooks.all.map(\.text).joined()
        #expect(playbooks.contains("id: \(description.id)\n"), "\(description.id) is in no shipped playbook")
    }
}
