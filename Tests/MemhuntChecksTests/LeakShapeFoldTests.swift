import Foundation
import MemhuntSnapshots
import MemhuntTestSupport
import Testing

@testable import MemhuntChecks
@testable import MemhuntFormats

/// A streamed `leaks` report folds each tree into its shapes as it closes and lets its lines go: the groups are
/// those of the kept trees grouped afterwards, and the check's groups count a tree's bytes once however many of
/// the tally's groups it joins.
@Suite struct LeakShapeFoldTests {
    /// The report read twice, once keeping the trees' lines: the tallies equal, and the kept trees' shapes, grouped
    /// one by one afterwards, are the tally's groups in order with their counts and trees.
    static func foldIsRegrouping(_ bytes: [UInt8], _ name: String) throws {
        guard case .success(let report) = LeaksReport.parse(bytes) else { return }
        var scanner = LeaksScanner(bounds: LeakForest.Bounds(), fast: true, keepingLines: true)
        bytes.withUnsafeBytes { scanner.feed($0) }
        let kept = try scanner.finish().get()
        #expect(report.forest.trees.isEmpty, "\(name): a streamed report kept its lines")
        #expect(kept.forest.shapes == report.forest.shapes, "\(name)")
        // And past a bound of two distinct shapes: a shape alike neither is counted, not named.
        var few = LeaksScanner(bounds: LeakForest.Bounds(shapes: 2), fast: true)
        bytes.withUnsafeBytes { few.feed($0) }
        let bounded = try few.finish().get().forest.shapes
        for (bound, tally) in [(Int.max, report.forest.shapes), (2, bounded)] {
            var regrouped: [(shape: LeakShape, instances: Int, trees: [Int])] = []
            var unnamed = 0
            for (tree, lines) in kept.forest.trees.enumerated() {
                for shape in LeakShape.shapes(in: lines) {
                    if let at = regrouped.firstIndex(where: { LeakShapeTally.alike($0.shape, shape) }) {
                        regrouped[at].instances += 1
                        if regrouped[at].trees.last != tree { regrouped[at].trees.append(tree) }
                    } else if regrouped.count >= bound {
                        unnamed += 1
                    } else {
                        regrouped.append((shape, 1, [tree]))
                    }
                }
            }
            #expect(regrouped.map(\.shape) == tally.groups.map(\.shape), "\(name)")
            #expect(regrouped.map(\.instances) == tally.groups.map(\.instances), "\(name)")
            #expect(regrouped.map(\.trees) == tally.groups.map(\.trees), "\(name)")
            #expect(unnamed == tally.unnamed, "\(name)")
            #expect(tally.treeBytes == kept.forest.trees.map { $0[0].bytes ?? 0 }, "\(name)")
        }
    }

    @Test func theFixturesFoldAsTheirTreesGroupAfterwards() throws {
        var read = 0
        let root = Repo.fixture("")
        let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        for name in files.sorted() where !name.hasPrefix("fuzz/") {
            guard let bytes = FileManager.default.contents(atPath: root + name), bytes.count < 1 << 22,
                ReproReader.detect(Array(bytes)) == .leaks
            else { continue }
            try Self.foldIsRegrouping(Array(bytes), name)
            read += 1
        }
        #expect(read >= 10, "the fixtures' leaks reports were not found")
    }

    @Test(.enabled(if: Repo.realworld != nil, "../shared/realworld is absent"))
    func theRealTreesFoldAsTheyGroupAfterwards() throws {
        let folder = try #require(Repo.realworld) + "/leaks-cycles"
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".txt") {
            let bytes = try #require(FileManager.default.contents(atPath: folder + "/" + name))
            try Self.foldIsRegrouping(Array(bytes), name)
        }
    }

    /// Two cycles of one tree through dictionaries whose full names differ past the 48 characters a path shows:
    /// two shapes to the tally, one group to the check, and the tree's bytes counted in it once.
    @Test func aTreeInTwoOfTheTallysGroupsCountsOnceInTheChecks() throws {
        let one = "Swift._DictionaryStorage<Swift.String, Shop.CatalogueThumbnailCacheEntryOne>"
        let two = "Swift._DictionaryStorage<Swift.String, Shop.CatalogueThumbnailCacheEntryTwo>"
        let text = """
            4 (400 bytes) ROOT CYCLE: <Catalogue 0x1> [64]
               2 (240 bytes) __strong storage --> ROOT CYCLE: <\(one) 0x2> [48]
                  __strong owner --> CYCLE BACK TO <Catalogue 0x1> [64]
               1 (96 bytes) __strong storage --> ROOT CYCLE: <\(two) 0x3> [96]
                  __strong owner --> CYCLE BACK TO <Catalogue 0x1> [64]
            2 (200 bytes) ROOT CYCLE: <Catalogue 0x4> [64]
               1 (136 bytes) __strong storage --> ROOT CYCLE: <\(one) 0x5> [136]
                  __strong owner --> CYCLE BACK TO <Catalogue 0x4> [64]
            """
        let report = try LeaksReport.parse(Array(text.utf8)).get()
        let tally = report.forest.shapes
        #expect(tally.treeBytes == [400, 200])
        #expect(tally.groups.map(\.instances) == [2, 1] && tally.groups.map(\.trees) == [[0, 1], [0]])
        #expect(tally.classes["Catalogue"] == .init(count: 2, bytes: 128))
        let groups = LeaksCheck.groups(report)
        #expect(groups.count == 1)
        let group = try #require(groups.first)
        #expect(group.leak.shape.path == "Catalogue → Swift._DictionaryStorage<…> → Catalogue")
        #expect(group.instances == 3 && group.trees == [0, 1])
        // 400 + 200: the first tree's bytes once, though both of its cycles are in the group.
        #expect(group.bytes == 600)
        #expect(LeaksCheck.union([0, 2, 5], [1, 2, 6]) == [0, 1, 2, 5, 6] && LeaksCheck.union([], [3]) == [3])
    }
}
