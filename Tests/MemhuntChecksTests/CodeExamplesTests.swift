import Foundation
import MemhuntArtifacts
import MemhuntCore
import MemhuntTestSupport
import Testing

@testable import MemhuntChecks

/// Every finding code's examples, SwiftLint's habit: the artifacts that raise it do, those that do not
/// stay quiet while the check reads them. The examples live in the check descriptions (and the engine's
/// `EngineFindings`); `memhunt checks --format json` lists them.
@Suite struct CodeExamplesTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var check: CheckDescription?
        var code: FindingCode
        var example: CodeExample
        var testDescription: String {
            "\(code.code) \(example.raises ? "raises" : "quiet"): \(example.paths.joined(separator: " "))"
        }
    }

    static let cases: [Case] =
        builtInChecks.flatMap { type in
            type.description.codes.flatMap { code in
                code.examples.map { Case(check: type.description, code: code, example: $0) }
            }
        } + EngineFindings.all.flatMap { code in code.examples.map { Case(check: nil, code: code, example: $0) } }

    @Test func everyCodeHasAnExampleEachWay() {
        let codes = builtInChecks.flatMap { $0.description.codes } + EngineFindings.all
        #expect(codes.count >= 41)
        for code in codes {
            let name = code.code
            let raising = code.examples.filter(\.raises).count
            let quiet = code.examples.count - raising
            #expect(raising > 0, "\(name) has no example that raises it")
            #expect(quiet > 0, "\(name) has no example that does not raise it")
            for path in code.examples.flatMap(\.paths) {
                let exists = FileManager.default.fileExists(atPath: Repo.root + "/" + path)
                #expect(exists, "\(name): no \(path)")
            }
        }
    }

    /// A JSON file per example in the folder `file` (its code, kind, paths, facts and titles), for writing the pins.
    static func record(_ test: Case, _ result: RunResult, to file: String) {
        let facts = result.steps.reduce(into: Facts()) { all, step in all.merge(step.facts) { first, _ in first } }
        let line: [String: Any] = [
            "code": test.code.code, "raises": test.example.raises, "paths": test.example.paths,
            "app": test.example.app ?? "", "check": test.check?.id ?? "",
            "declared": test.check?.facts.map(\.key) ?? [],
            "facts": (try? JSONSerialization.jsonObject(with: JSONEncoder().encode(facts))) ?? [:],
            "titles": result.findings.filter { $0.code == test.code.code }.map(\.title),
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]) else { return }
        // A file each: the cases run in parallel.
        let name = String(UInt(bitPattern: (test.testDescription + " " + (test.example.app ?? "")).hashValue))
        FileManager.default.createFile(atPath: file + "/" + name + ".json", contents: data)
    }

    /// Every example pins at least one fact, and every example that raises its code pins the finding's title.
    @Test func everyExamplePinsAFactAndRaisingOnesATitle() {
        for test in Self.cases {
            #expect(!test.example.facts.isEmpty, "\(test.testDescription): no fact pinned")
            if test.example.raises { #expect(test.example.title != nil, "\(test.testDescription): no title pinned") }
        }
    }

    /// A one-step playbook that runs only the check, over its kinds, with the example's parameters.
    static func playbook(_ check: CheckDescription, parameters: [String: FactValue]) throws -> Playbook {
        let with =
            parameters.isEmpty
            ? ""
            : "\n        with: " + String(decoding: try JSONEncoder().encode(parameters), as: UTF8.self)
        let text = """
            id: example-\(check.id)
            title: Example of \(check.id)
            summary: Only the check \(check.id), over its kinds.
            steps:
              - id: \(check.step)
                title: \(check.id)
                reads: [\(check.reads.map(\.rawValue).joined(separator: ", "))]
                checks:
                  - id: \(check.id)\(with)

            """
        let loader = PlaybookLoader(knownChecks: builtInChecks.map { $0.description })
        return try loader.load(text: text, origin: "example", directory: nil, isRemote: false).get()
    }

    @Test(arguments: cases)
    func example(_ test: Case) async throws {
        let paths = LocalArtifacts.expand(test.example.paths.map { Repo.root + "/" + $0 })
        let artifacts = paths.map { LocalArtifacts.load(path: $0, source: Repo.relative($0)) }
        let playbook =
            try test.check.map { try Self.playbook($0, parameters: test.example.parameters) } ?? Hunt.playbook()
        let result = await StepEngine(checks: builtInChecks, external: ProcessCheckRunner(), toolVersion: "test")
            .run(playbook: playbook, artifacts: artifacts, app: test.example.app)
        let codes = result.findings.map(\.code)
        if let file = ProcessInfo.processInfo.environment["MEMHUNT_PRINT_EXAMPLES"] {
            Self.record(test, result, to: file)
        }
        // The numbers and words, not only the code.
        let facts = result.steps.reduce(into: Facts()) { all, step in all.merge(step.facts) { first, _ in first } }
        for (key, value) in test.example.facts {
            #expect(facts[key] == value, "\(test.code.code): \(key) is \(facts[key].map { "\($0)" } ?? "not recorded")")
        }
        if let title = test.example.title {
            let titles = result.findings.filter { $0.code == test.code.code }.map(\.title)
            #expect(titles.contains(title), "\(test.code.code): titles \(titles)")
        }
        if test.example.raises {
            #expect(codes.contains(test.code.code), "\(test.code.code) not raised: \(codes)")
        } else {
            #expect(!codes.contains(test.code.code), "\(test.code.code) raised: \(codes)")
            if let check = test.check {
                // Quiet because the check read its artifacts and found nothing of this code, not for lack of them.
                let step = try #require(result.steps.first)
                #expect(step.checksRun.contains(check.id), "\(check.id) did not run")
                #expect(![StepStatus.noArtifact, .unanswered].contains(step.status), "\(step.status)")
            }
        }
    }
}
