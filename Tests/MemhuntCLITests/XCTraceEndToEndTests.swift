import Foundation
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// xctrace exports through the built binary: inspect gives their facts only, a run compares two Allocations
/// exports, an export over the document limit streams.
@Suite struct XCTraceEndToEndTests {
    @Test(arguments: [
        "leaks.xml", "vm-regions.xml", "allocations-statistics.xml", "virtual-memory.xml", "swiftui-updates.xml",
        "toc.xml", "thermal.xml",
    ])
    func inspectPrintsTheExportsFactsOnly(name: String) async throws {
        let run = await memhunt(["inspect", "--format", "json", "Fixtures/xctrace/" + name])
        #expect(run.status == 0, "\(run.stderr)")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        let facts = try #require(entries.first?["facts"] as? [String: Any])
        #expect(!facts.isEmpty && facts.keys.allSatisfy { $0.hasPrefix("xctrace.") }, "\(facts.keys)")
        #expect((entries.first?["artifact"] as? [String: Any])?["kind"] as? String == "xctrace-export")
    }

    @Test func theLeaksAndVMTrackerFactsAreTheFiles() async throws {
        let run = await memhunt(["inspect", "Fixtures/xctrace/leaks.xml", "Fixtures/xctrace/vm-regions.xml"])
        #expect(run.stdout.contains("xctrace.leaks.count = 4\n"))
        #expect(run.stdout.contains("xctrace.leaks.leakedBytes = 4,272 bytes\n"))
        #expect(run.stdout.contains("xctrace.vm.dirtyMB = 31 MB\n"))
        #expect(run.stdout.contains("xctrace.vm.swappedMB = 6 MB\n"))
        #expect(
            run.stdout.contains(
                "xctrace.vm.footprintByTypeMB = {CoreAnimation: 10, IOSurface: 16, Malloc Small: 11, __TEXT: 0}"))
    }

    @Test func twoAllocationsExportsAreCompared() async throws {
        let run = await memhunt([
            "run", "--format", "json", "Fixtures/xctrace/allocations-statistics.xml",
            "Fixtures/xctrace/allocations-statistics-later.xml",
        ])
        let document = try FindingsDocument.decode(Array(run.stdout.utf8))
        let growth = try #require(document.findings.first { $0.code == "xctrace-memory.persistent-growth" })
        #expect(
            growth.title
                == "Persistent bytes grew: 50 MB → 80 MB (allocations-statistics.xml → allocations-statistics-later.xml)"
        )
        #expect(document.facts["xctrace.allocations.persistentMB"] == 80)
    }

    @Test func aTruncatedExportIsNamedAndTheRunGoesOn() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let lines = try Repo.bytes("xctrace/virtual-memory.xml").split(separator: 10, omittingEmptySubsequences: false)
        try folder.write("cut.xml", Array(lines.prefix(8).joined(separator: [10])) + [10])
        let run = await memhunt(["inspect", folder.path + "/cut.xml", "Fixtures/xctrace/leaks.xml"])
        #expect(run.stdout.contains("error: line 9: the XML ends inside <node> opened at line 8"))
        #expect(run.stdout.contains("xctrace.leaks.count = 4"))
    }
}
