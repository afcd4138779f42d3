import Foundation
import MemhuntFormats
import MemhuntSnapshots
import MemhuntTestSupport
import Testing

/// The pattern catalog: its examples are its tests, and the real `leaks` trees of ../shared/realworld are named
/// as the research note reads them (leak-patterns.md, and SOURCES.md's leaks-cycles table).
@Suite struct CyclePatternTests {
    static func classified(_ text: String, process: String? = nil) -> [ClassifiedLeak] {
        let forest = LeakForest.read(text.split(separator: "\n", omittingEmptySubsequences: false))
        return LeakShape.all(in: forest).map { CycleCatalog.classify($0, process: process) }
    }

    @Test func patternsAreSortedUniqueAndEachHasARaisingAndAQuietExample() {
        let ids = CycleCatalog.patterns.map(\.id)
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
        for pattern in CycleCatalog.patterns {
            #expect(pattern.examples.contains { if case .raises = $0 { true } else { false } }, "\(pattern.id)")
            #expect(pattern.examples.contains { if case .quiet = $0 { true } else { false } }, "\(pattern.id)")
            #expect(!pattern.fix.isEmpty && !pattern.before.isEmpty && !pattern.after.isEmpty)
        }
    }

    @Test(arguments: CycleCatalog.patterns.map(\.id))
    func examplesRaiseAndStayQuiet(id: String) throws {
        let pattern = try #require(CycleCatalog.patterns.first { $0.id == id })
        for example in pattern.examples {
            switch example {
            case .raises(let tree):
                let named = Self.classified(tree)
                #expect(!named.isEmpty, "\(id): no leak shape in\n\(tree)")
                #expect(named.contains { $0.pattern?.id == id || $0.alsoMatches.contains(id) }, "\(id) not raised")
                // The evidence is lines of the tree.
                #expect(named.allSatisfy { !$0.evidence.isEmpty })
            case .quiet(let tree):
                #expect(
                    !Self.classified(tree).contains { $0.pattern?.id == id || $0.alsoMatches.contains(id) },
                    "\(id) raised by its quiet example\n\(tree)")
            }
        }
    }

    /// One report's classifier names every shape as `classify` does alone, its memo of names notwithstanding:
    /// every example of the catalog in one forest, twice, so the second of each shape is named from the memo, with
    /// the evidence of its own lines.
    @Test func theClassifierNamesEachShapeAsClassifyDoes() throws {
        let trees = CycleCatalog.patterns.flatMap(\.examples).map { example -> String in
            switch example {
            case .raises(let tree), .quiet(let tree): tree
            }
        }
        let text = (trees + trees).joined(separator: "\n\n")
        let shapes = LeakShape.all(in: LeakForest.read(text.split(separator: "\n", omittingEmptySubsequences: false)))
        #expect(shapes.count >= 2 * CycleCatalog.patterns.count)
        for process in [nil, "Uploader"] {
            var classifier = CycleCatalog.Classifier(process: process)
            let named = shapes.map { classifier.classify($0) }
            #expect(named == shapes.map { CycleCatalog.classify($0, process: process) })
            // The second half's evidence lies in the second half of the text.
            let half = text.split(separator: "\n", omittingEmptySubsequences: false).count / 2
            #expect(named[(named.count / 2)...].allSatisfy { $0.evidence.allSatisfy { $0 > half } })
        }
    }

    /// A pattern that names a framework class is named before a general shape that also matches.
    @Test func theSpecificPatternIsNamedFirst() throws {
        let tree = """
            3 (176 bytes) ROOT CYCLE: <InboxModel 0x1> [48]
               2 (128 bytes) __strong token --> ROOT CYCLE: <__NSObserver 0x2> [64]
                  1 (64 bytes) ROOT CYCLE: <__NSMallocBlock__ 0x3> [32]
                     __strong [capture] --> CYCLE BACK TO <InboxModel 0x1> [48]
            """
        let named = try #require(Self.classified(tree).first)
        #expect(named.pattern?.id == "notification.block-observer")
        #expect(named.alsoMatches == ["block.self-capture-stored"])
        #expect(named.shape.path == "InboxModel → __NSObserver → __NSMallocBlock__ → InboxModel")
        #expect(named.evidence == [1, 2])
        #expect(named.owner == .app)
    }

    /// Odd input is read or named, never a crash: addresses elided, a cut tree, odd labels, a cycle 3,000 deep
    /// (13.5 MB of indentation, kept to `LeakForest.maxLines`).
    @Test func oddTreesAreReadWithoutACrash() {
        let elided = Self.classified(
            "ROOT CYCLE: <Node 0x...> [96]\n" + "   __strong next --> CYCLE BACK TO <Node 0x...> [96]")
        #expect(elided.map(\.shape.path) == ["Node → Node"])
        let long = (0..<3_000).map {
            String(repeating: " ", count: 3 * ($0 + 1)) + "1 (32 bytes) next --> ROOT CYCLE: <Node 0x\($0 + 1)> [32]"
        }
        let tree = (["1 (32 bytes) ROOT CYCLE: <Node 0x0> [32]"] + long).joined(separator: "\n")
        #expect(Self.classified(tree).count == 1)
        #expect(Self.classified("  12 (1 bytes) ⚠️ odd|label --> ROOT CYCLE: <A<B<C> 0x1> [1]\n").count == 1)
        #expect(Self.classified("--> <\n0x\n(\n").isEmpty)
    }

    // MARK: - Real trees

    static func sample(_ name: String) throws -> String? {
        guard let root = Repo.realworld else { return nil }
        return try String(contentsOfFile: root + "/" + name, encoding: .utf8)
    }

    @Test(
        .enabled(if: Repo.realworld != nil, "../shared/realworld is absent"),
        arguments: [
            "leaks-cycles/MemoryLeaksCheck-temporary-2023-09-25-Apartment-Person-HomeViewModel.txt",
            "leaks-cycles/MemoryLeaksCheck-temporary-2023-10-02-Apartment-Person-HomeViewModel.txt",
        ])
    func apartmentAndPersonHoldEachOtherAndTheViewModelsLeakAlone(file: String) throws {
        let named = Self.classified(try #require(try Self.sample(file)))
        let cycle = try #require(named.first { $0.shape.kind == .cycle })
        #expect(cycle.shape.path == "Apartment → Person → Apartment")
        #expect(cycle.pattern?.id == "object.strong-back-reference" && cycle.owner == .app)
        #expect(cycle.shape.fields == ["person", "apartment"])
        let lone = named.filter { $0.shape.kind == .lone }
        #expect(lone.count == (file.contains("09-25") ? 3 : 2))
        #expect(lone.allSatisfy { $0.pattern?.id == "closure.self-capture-stored" && $0.confidence == .low })
    }

    @Test(.enabled(if: Repo.realworld != nil, "../shared/realworld is absent"))
    func symbolicatorsSwiftObjectsHoldEachOtherAndKeepTheirDataAlive() throws {
        let file = "leaks-cycles/symbolicator-MemoryLeakingApp-iOS15.5sim-cycles-unsymbolicated-EXCERPT.txt"
        let named = Self.classified(try #require(try Self.sample(file)), process: "MemoryLeakingApp")
        let cycles = named.filter { $0.shape.kind == .cycle }
        #expect(cycles.count == 2)
        for cycle in cycles {
            #expect(cycle.pattern?.id == "object.strong-back-reference" && cycle.owner == .app)
            #expect(cycle.shape.fields == ["cycle", "cycle"])
            // What hangs below is what the cycle keeps alive, not its evidence.
            #expect(cycle.shape.keptAlive.map(\.className).starts(with: ["BigObject", "__DataStorage"]))
            #expect(cycle.shape.treeBytes == 262_144)
        }
    }

    @Test(.enabled(if: Repo.realworld != nil, "../shared/realworld is absent"))
    func aLinkedListWithElidedAddressesIsABackReference() throws {
        let file = "leaks-cycles/SwiftEarcut-ISSUES-md-Node-linked-list-cycle-elided.txt"
        let named = Self.classified(try #require(try Self.sample(file)))
        let cycle = try #require(named.first)
        #expect(cycle.shape.path == "Node → Node → Node")
        #expect(cycle.pattern?.id == "object.strong-back-reference")
    }

    @Test(
        .enabled(if: Repo.realworld != nil, "../shared/realworld is absent"),
        arguments: [
            (
                "leaks-cycles/keepassxc-issue2910-leaks-macOS10.14-FITNode-cycle-EXCERPT.txt",
                "FinderKit's open and save panel nodes"
            ),
            (
                "leaks-cycles/cyberduck-issue18120-leaks-CFNetwork-PACClient-cycle-fragment.txt",
                "CFNetwork's PAC client"
            ),
            (
                "leaks-cycles/LuLu-issue616-leaks-macOS15.5-NEFilterSocketFlow-block-capture-EXCERPT.txt",
                "Network Extension's verdict blocks"
            ),
            (
                "leaks-cycles/LuLu-issue616-later-comment-tree-fragment-NEFilterSocketFlow-getVerdict-block.txt",
                "Network Extension's verdict blocks"
            ),
            ("leaks/memorydetective-example-leaks.head.leaks.txt", "SwiftUI's internal dictionaries"),
        ])
    func frameworkCyclesAreNamedAsTheFrameworks(file: String, known: String) throws {
        let named = Self.classified(try #require(try Self.sample(file)))
        let first = try #require(named.first { $0.frameworkWhy?.contains(known) == true }, "\(named.map(\.shape.path))")
        #expect(first.owner == .framework)
        #expect(first.frameworkWhy?.hasPrefix("a known framework cycle: " + known) == true)
    }

    /// memorydetective's own fixture fires its URLSession rule for a session a cycle merely keeps alive: here a
    /// pattern rests on the cycle's nodes only.
    @Test(.enabled(if: Repo.realworld != nil, "../shared/realworld is absent"))
    func aSessionBelowACycleIsNotTheCyclesPattern() throws {
        let named = Self.classified(try #require(try Self.sample("leaks/memorydetective-example-leaks.head.leaks.txt")))
        #expect(!named.isEmpty)
        #expect(!named.contains { $0.pattern?.id == "urlsession.delegate-retained" })
    }

    @Test(.enabled(if: Repo.realworld != nil, "../shared/realworld is absent"))
    func theVerdictBlockCaptureIsABlockCycleOfTheFramework() throws {
        let file = "leaks-cycles/LuLu-issue616-later-comment-tree-fragment-NEFilterSocketFlow-getVerdict-block.txt"
        let named = Self.classified(try #require(try Self.sample(file)))
        let block = try #require(named.first { $0.pattern?.id == "block.self-capture-stored" })
        #expect(block.owner == .framework)
        #expect(block.shape.path.hasPrefix("NEFilterSocketFlow → __NSMallocBlock__"))
        #expect(!block.shape.complete)
    }
}

extension CyclePatternTests {
    /// docs/leak-patterns.md holds the catalog's tables as `CycleCatalog.markdown()` renders them;
    /// `MEMHUNT_UPDATE_GOLDEN=1 swift test --filter CyclePatternTests` writes them there.
    @Test func theDocumentHoldsTheGeneratedTables() throws {
        let path = Repo.root + "/docs/leak-patterns.md"
        let document = try String(contentsOfFile: path, encoding: .utf8)
        let marker = "<!-- generated: CycleCatalog.markdown() -->\n"
        let start = try #require(document.range(of: marker), "docs/leak-patterns.md lost its marker")
        let generated = CycleCatalog.markdown()
        if ProcessInfo.processInfo.environment["MEMHUNT_UPDATE_GOLDEN"] == "1" {
            try (String(document[..<start.upperBound]) + generated).write(
                toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(
            String(document[start.upperBound...]) == generated,
            "docs/leak-patterns.md differs from the catalog: MEMHUNT_UPDATE_GOLDEN=1 swift test --filter CyclePatternTests"
        )
    }
}

extension CyclePatternTests {
    /// Each pattern's examples as fixture files, `Fixtures/leak-patterns/<id>.raises.leaks.txt` and
    /// `<id>.near-miss.leaks.txt` (`-2`, `-3` for further ones): the trees people paste, read through the
    /// leaks reader as any file is. `MEMHUNT_UPDATE_GOLDEN=1 swift test --filter CyclePatternTests` writes them.
    static var exampleFiles: [(name: String, id: String, raises: Bool, tree: String)] {
        CycleCatalog.patterns.flatMap { pattern in
            var counts = [true: 0, false: 0]
            return pattern.examples.map { example in
                let (raises, tree): (Bool, String) =
                    switch example {
                    case .raises(let tree): (true, tree)
                    case .quiet(let tree): (false, tree)
                    }
                counts[raises]! += 1
                let suffix = counts[raises]! > 1 ? "-\(counts[raises]!)" : ""
                return ("\(pattern.id).\(raises ? "raises" : "near-miss")\(suffix).leaks.txt", pattern.id, raises, tree)
            }
        }
    }

    @Test func eachPatternHasItsFixturesAndTheReaderNamesThem() throws {
        let folder = Repo.fixture("leak-patterns")
        let update = ProcessInfo.processInfo.environment["MEMHUNT_UPDATE_GOLDEN"] == "1"
        let files = Self.exampleFiles
        if update {
            for file in files {
                try (file.tree + "\n").write(toFile: folder + "/" + file.name, atomically: true, encoding: .utf8)
            }
        }
        let present = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".leaks.txt") }
        #expect(Set(present) == Set(files.map(\.name)), "MEMHUNT_UPDATE_GOLDEN=1 swift test --filter CyclePatternTests")
        for file in files {
            let bytes = try #require(FileManager.default.contents(atPath: folder + "/" + file.name), "\(file.name)")
            #expect(String(decoding: bytes, as: UTF8.self) == file.tree + "\n", "\(file.name) differs from the catalog")
            guard case .success(let report) = LeaksReport.parse(Array(bytes)) else {
                Issue.record("\(file.name): not read as a leaks report")
                continue
            }
            let named = report.forest.shapes.groups.map(\.shape).map {
                CycleCatalog.classify($0, process: report.processName)
            }
            let raised = named.contains { $0.pattern?.id == file.id || $0.alsoMatches.contains(file.id) }
            #expect(raised == file.raises, "\(file.name)")
        }
    }
}
