import Foundation
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// `heap` text and `footprint` JSON through the built binary: `inspect` shows each file's own facts, a run reads
/// heaps as growth per visit, and a file cut short is named while the rest of the run goes on.
@Suite struct HeapFootprintEndToEndTests {
    /// Every fixture of the two kinds, with the facts `inspect` prints for it (and nothing else).
    static let inspected: [(path: String, kind: String, facts: [String])] = [
        (
            "Fixtures/heap/faq-visit-1.heap.txt", "heap",
            [
                "heap.allocatedMB = 26.8 MB", "heap.classes = 11", "heap.footprintMB = 82.4 MB", "heap.heaps = 1",
                "heap.largestClass = Closure context (Swift, <unknown>)", "heap.largestClassMB = 0.9 MB",
                "heap.nodes = 98,460",
            ]
        ),
        (
            "Fixtures/heap/faq-visit-3.sortBySize.heap.txt", "heap",
            [
                "heap.allocatedMB = 27.1 MB", "heap.classes = 11", "heap.footprintMB = 110.3 MB", "heap.heaps = 1",
                "heap.largestClass = Closure context (Swift, <unknown>)", "heap.largestClassMB = 0.9 MB",
                "heap.nodes = 100,262",
            ]
        ),
        (
            "Fixtures/heap/faq-visit-4.human.heap.txt", "heap",
            [
                "heap.allocatedMB = 27 MB", "heap.classes = 11", "heap.footprintMB = 123.8 MB", "heap.heaps = 1",
                "heap.largestClass = Closure context (Swift, <unknown>)", "heap.largestClassMB = 0.9 MB",
                "heap.nodes = 101,163",
            ]
        ),
        (
            "Fixtures/heap/faq-visit-4.diffFrom-visit-1.heap.txt", "heap",
            [
                "heap.allocatedMB = 0.5 MB", "heap.classes = 3", "heap.footprintMB = 123.8 MB", "heap.heaps = 1",
                "heap.largestClass = _ContiguousArrayStorage<AluminumWeight.FAQ> (Swift, libswiftCore.dylib)",
                "heap.largestClassMB = 0.1 MB", "heap.nodes = 2,703",
            ]
        ),
        (
            "Fixtures/footprint-json/faq-visit-4.footprint.json", "footprint-json",
            [
                "footprint.footprintMB = 123.8 MB", "footprint.largestCategory = MALLOC_SMALL",
                "footprint.largestCategoryMB = 56 MB", "footprint.peakMB = 125 MB",
                "footprint.process = AluminumWeight [5120]", "footprint.samples = 1",
            ]
        ),
        (
            "Fixtures/footprint-json/faq-visits.samples.footprint.json", "footprint-json",
            [
                "footprint.firstMB = 82.4 MB", "footprint.footprintMB = 123.9 MB", "footprint.growthMB = 41.5 MB",
                "footprint.largestCategory = MALLOC_SMALL", "footprint.largestCategoryMB = 63.9 MB",
                "footprint.peakMB = 123.9 MB", "footprint.process = AluminumWeight [5120]", "footprint.r2 = 1.0",
                "footprint.samples = 8", "footprint.shape = linear", "footprint.slopeMBPerMinute = 39.5 MB",
            ]
        ),
    ]

    @Test(arguments: 0..<inspected.count)
    func inspectShowsTheFilesOwnFactsOnly(index: Int) async throws {
        let (path, kind, facts) = Self.inspected[index]
        let run = await memhunt(["inspect", path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains { $0.hasPrefix("kind: \(kind)  status: ok") })
        // Every fact line is one of the file's own, and no check's settings or other kinds' facts appear.
        #expect(lines.filter { $0.contains(" = ") } == facts, "\(path)")
    }

    @Test func aRunReadsTheHeapsAsGrowthPerVisit() async throws {
        let heaps =
            [1, 2, 4].map { "Fixtures/heap/faq-visit-\($0).heap.txt" } + [
                "Fixtures/heap/faq-visit-3.sortBySize.heap.txt"
            ]
        let run = await memhunt(["run", "--playbook", "navigation-growth", "--format", "json"] + heaps)
        let document = try FindingsDocument.decode(Array(run.stdout.utf8))
        let grew = try #require(document.findings.first { $0.code == "heap.grew" })
        #expect(grew.title.hasPrefix("FAQ (Swift, AluminumWeight) gained 900 instances over 4 heaps (+300 per visit)"))
        #expect(document.facts["heap.perVisitInstances"] == 300)
        let text = await memhunt(["run", "--playbook", "navigation-growth"] + heaps)
        #expect(
            text.stdout.contains(
                "FAQ (Swift, AluminumWeight) instances: 300 (faq-visit-1.heap.txt) → 1,200 (faq-visit-4.heap.txt), "
                    + "+300 per visit [growth]"))
    }

    /// A heap cut mid-row and a footprint JSON cut mid-file: each named with its place; the other files still speak.
    @Test func filesCutShortAreNamedAndTheRunGoesOn() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let heap = String(decoding: try Repo.bytes("heap/faq-visit-4.heap.txt"), as: UTF8.self)
        try dir.write("cut.heap.txt", String(heap.dropLast(30)))
        let json = String(decoding: try Repo.bytes("footprint-json/faq-visits.samples.footprint.json"), as: UTF8.self)
        try dir.write("cut.footprint.json", String(json.prefix(2000)))
        let run = await memhunt([
            "run", "--playbook", "navigation-growth", "--format", "json", Repo.fixture("heap/faq-visit-1.heap.txt"),
            dir.path + "/cut.heap.txt", dir.path + "/cut.footprint.json",
        ])
        let document = try FindingsDocument.decode(Array(run.stdout.utf8))
        let cutHeap = try #require(document.artifacts.first { $0.source.hasSuffix("cut.heap.txt") })
        #expect(cutHeap.status == .ok && cutHeap.kind == .heap)
        #expect(cutHeap.diagnostics.contains { $0.hasPrefix("line 43: the file ends inside this row") })
        let cutJSON = try #require(document.artifacts.first { $0.source.hasSuffix("cut.footprint.json") })
        #expect(cutJSON.status == .error && cutJSON.kind == .footprintJSON)
        #expect(
            cutJSON.diagnostics == [
                "line 104: footprint JSON is not valid JSON: truncated: JSON ends before the closing '}'"
            ])
        // The two heaps are still compared.
        #expect(document.facts["heap.heaps"] == 2)
        #expect(document.facts["heap.nodes"] == 101_163)
    }
}
