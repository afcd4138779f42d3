import MemhuntCore
import MemhuntFormats
import MemhuntTestSupport
import Testing

@testable import MemhuntChecks

/// The heap and footprint JSON checks over seed 001's fixtures: what each visit of the FAQ screen leaves behind.
@Suite struct HeapFootprintStepsTests {
    static let visits = [
        "heap/faq-visit-1.heap.txt", "heap/faq-visit-2.heap.txt", "heap/faq-visit-3.sortBySize.heap.txt",
        "heap/faq-visit-4.heap.txt",
    ]

    @Test func eachVisitLeavesItsFAQsBehind() async throws {
        let result = try await Hunt.run(Self.visits, app: nil, playbook: "navigation-growth")
        let step = try #require(result.steps.first { $0.step.id == "leaks" })
        #expect(step.facts["heap.heaps"] == 4)
        #expect(step.facts["heap.topGrowthClass"] == "FAQ (Swift, AluminumWeight)")
        #expect(step.facts["heap.topGrowthInstances"] == 900)
        #expect(step.facts["heap.perVisitInstances"] == 300)
        #expect(step.facts["heap.grownClasses"] == 1)
        #expect(step.facts["heap.nodes"] == 101_163)
        #expect(step.facts["heap.growthMB"] == 0.5)
        // The first heap against the last, per class, the largest change of bytes first.
        let diff: FactValue = [
            "class": "FAQ (Swift, AluminumWeight)", "before": 300, "after": 1200, "deltaCount": 900,
            "deltaBytes": 72000,
        ]
        #expect(step.facts["heap.diff"]?.arrayValue?.prefix(3).last == diff)
        #expect(step.facts["heap.diff"]?.arrayValue?.first?.objectValue?["deltaBytes"] == 345_600)
        let finding = try #require(result.findings.first { $0.code == "heap.grew" })
        #expect(
            finding.title
                == "FAQ (Swift, AluminumWeight) gained 900 instances over 4 heaps (+300 per visit) and kept them")
        #expect(finding.detail.contains("FAQ (Swift, AluminumWeight) 300 → 1,200 (0.1 MB in the last heap)"))
        #expect(finding.detail.contains("Non-object blocks (allocations of no class) gained 1,800 as well."))
        #expect(finding.evidence.map(\.line) == [41, 40])
        let comparison = try #require(step.presentation.comparisons.first { $0.unit == .count })
        #expect(comparison.from.value == 300 && comparison.to.value == 1200 && comparison.change == "+300 per visit")
        #expect(step.presentation.series.first?.points.map(\.value) == [300, 600, 900, 1200])
    }

    /// Without a visit count (the eight-step hunt), the growth is said between heaps, not per visit.
    @Test func withoutVisitsTheGrowthIsPerHeapPair() async throws {
        let result = try await Hunt.run([Self.visits[0], Self.visits[3]], app: "AluminumWeight")
        let finding = try #require(result.findings.first { $0.code == "heap.grew" })
        #expect(finding.title == "FAQ (Swift, AluminumWeight) gained 900 instances over 2 heaps and kept them")
        #expect(result.facts["heap.perVisitInstances"] == nil)
    }

    /// After the fix the FAQs are loaded once: three more CFStrings are below the threshold.
    @Test func theFixedScreenKeepsNothing() async throws {
        let result = try await Hunt.run(
            ["heap/faq-fixed-visit-1.heap.txt", "heap/faq-fixed-visit-4.heap.txt"], app: nil,
            playbook: "navigation-growth")
        let finding = try #require(result.findings.first { $0.check == "heap" })
        #expect(finding.code == "heap.flat" && finding.severity == .info)
        #expect(finding.title == "No class gained 100 instances over 2 heaps")
        #expect(result.facts["heap.grownClasses"] == 0)
    }

    /// A last heap whose table has rows past the bound: no class's whole count is known there, so no class is said
    /// to have grown, no class count is given, and the heap's event says what was left out.
    @Test func aTableWithRowsLeftOutIsNotComparedByClass() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var text = String(decoding: try Repo.bytes(Self.visits[3]), as: UTF8.self)
        for index in 0..<HeapScanner.maxRows {
            text += "       1         16      16.0   Filler\(index)                 Swift   AluminumWeight\n"
        }
        try folder.write("faq-visit-4.heap.txt", Array(text.utf8))
        let result = try await Hunt.run(
            [Repo.fixture(Self.visits[0]), folder.path + "/faq-visit-4.heap.txt"], app: nil,
            playbook: "navigation-growth")
        let step = try #require(result.steps.first { $0.step.id == "leaks" })
        #expect(step.facts["heap.heaps"] == 2 && step.facts["heap.nodes"] == 101_163)
        #expect(step.facts["heap.classes"] == nil && step.facts["heap.grownClasses"] == nil)
        // Closure context leads the next class by far more than the 11 rows (176 bytes) left out hold.
        #expect(step.facts["heap.largestClass"] == "Closure context (Swift, <unknown>)")
        #expect(!result.findings.contains { $0.code == "heap.grew" || $0.code == "heap.flat" })
        let events = step.presentation.events.map(\.text)
        #expect(
            events.contains {
                $0.hasSuffix(
                    "its table's first 50,000 rows kept, 11 more (176 bytes) counted in no class, so no class's whole "
                        + "count is known")
            }, "\(events)")
    }

    /// A heap of another app is not the subject's.
    @Test func aHeapOfAnotherAppIsNotTheSubjects() async throws {
        let result = try await Hunt.run(Self.visits, app: "OtherApp", playbook: "navigation-growth")
        #expect(result.facts["heap.heaps"] == nil)
        #expect(result.findings.allSatisfy { $0.check != "heap" })
    }

    @Test func samplesThatClimbAreGrowth() async throws {
        let result = try await Hunt.run(
            ["footprint-json/faq-visits.samples.footprint.json"], app: "AluminumWeight", playbook: "navigation-growth")
        #expect(result.facts["footprint.samples"] == 8)
        #expect(result.facts["footprint.firstMB"] == 82.4)
        #expect(result.facts["footprint.footprintMB"] == 123.9)
        #expect(result.facts["footprint.growthMB"] == 41.5)
        #expect(result.facts["footprint.slopeMBPerMinute"] == 39.5)
        #expect(result.facts["footprint.r2"] == 0.95)
        #expect(result.facts["footprint.largestCategory"] == "MALLOC_SMALL")
        let finding = try #require(result.findings.first { $0.code == "footprint-json.growing" })
        #expect(finding.title == "AluminumWeight [5120] grew 41.5 MB in 8 samples over 70 s (39.5 MB per minute)")
        let step = try #require(result.steps.first)
        let line = try #require(step.presentation.series.first { $0.id == "footprint-samples" })
        #expect(line.points.map(\.label) == ["+0 s", "+10 s", "+20 s", "+30 s", "+40 s", "+50 s", "+60 s", "+70 s"])
    }

    /// Three files of two runs on two clocks: the leaking run's samples on their file's own clock, the fixed
    /// run's on theirs, and one snapshot dated by the calendar. They are three series, never one: the series of
    /// the most samples (the later of a tie, by name) is judged and the others are named, not joined.
    @Test func runsAndClocksAreNotJoinedIntoOneSeries() async throws {
        let result = try await Hunt.run(["footprint-json"], app: "AluminumWeight", playbook: "navigation-growth")
        #expect(result.facts["footprint.samples"] == 8)
        #expect(result.facts["footprint.firstMB"] == 82.4)
        #expect(result.facts["footprint.slopeMBPerMinute"] == 39.5)
        let finding = try #require(result.findings.first { $0.code == "footprint-json.growing" })
        #expect(finding.title == "AluminumWeight [5120] grew 41.5 MB in 8 samples over 70 s (39.5 MB per minute)")
        #expect(finding.evidence.map(\.source) == ["Fixtures/footprint-json/faq-visits.samples.footprint.json"])
        #expect(
            finding.detail.hasSuffix(
                "Not joined to these samples (another process or launch, or another clock): 8 samples of "
                    + "AluminumWeight [5120] in faq-fixed.samples.footprint.json, on that file's own clock; 1 dated "
                    + "snapshot of AluminumWeight [5120] (faq-visit-4.footprint.json)."))
    }

    /// With no app named, one process is read throughout the file, the largest in most of its samples: where a
    /// child outgrows the app in one sample, the app's footprint there is still the point of its line, and the
    /// child's is no point of it.
    @Test func theLargestProcessOfOneSampleIsNotAPointOfAnothersLine() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let mib = 1_048_576
        let samples = [(100, 50), (110, 50), (120, 300), (130, 50)].enumerated().map { index, sizes in
            """
            {"start_time": {"wall_time_s": \(1000 + 10 * index)}, "processes": [
              {"name": "Shop", "pid": 77, "footprint": \(sizes.0 * mib)},
              {"name": "com.apple.WebKit.WebContent", "pid": 78, "footprint": \(sizes.1 * mib)}]}
            """
        }
        let text = "{\"unit\": \"byte\", \"bytes per unit\": 1, \"samples\": [" + samples.joined(separator: ",") + "]}"
        try folder.write("shop.samples.footprint.json", Array(text.utf8))
        let result = try await Hunt.run([folder.path], app: nil, playbook: "navigation-growth")
        #expect(result.facts["footprint.process"] == "Shop [77]")
        #expect(result.facts["footprint.samples"] == 4)
        #expect(result.facts["footprint.firstMB"] == 100)
        #expect(result.facts["footprint.growthMB"] == 30)
        #expect(result.facts["footprint.peakMB"] == 130)
        #expect(result.facts["footprint.slopeMBPerMinute"] == 60)
        let finding = try #require(result.findings.first { $0.code == "footprint-json.growing" })
        #expect(finding.title == "Shop [77] grew 30 MB in 4 samples over 30 s (60 MB per minute)")
        #expect(
            finding.detail.hasSuffix(
                "The process is the one largest in most of the file's snapshots: no app was named."))
    }

    /// Snapshots dated by the calendar are one series across files, in time order whatever their names.
    @Test func datedSnapshotsOfOneProcessAreOneSeriesAcrossFiles() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let text = String(decoding: try Repo.bytes("footprint-json/faq-visit-4.footprint.json"), as: UTF8.self)
        #expect(text.contains("2026-07-03T21:14:55.000+09:00") && text.contains("129810432"))
        // b is ten minutes before a and 45 MiB smaller.
        try folder.write("a.footprint.json", Array(text.utf8))
        try folder.write(
            "b.footprint.json",
            Array(
                text.replacingOccurrences(of: "2026-07-03T21:14:55.000+09:00", with: "2026-07-03T21:04:55.000+09:00")
                    .replacingOccurrences(of: "129810432", with: "82624512").utf8))
        let result = try await Hunt.run([folder.path], app: "AluminumWeight", playbook: "navigation-growth")
        #expect(result.facts["footprint.samples"] == 2)
        #expect(result.facts["footprint.firstMB"] == 78.8)
        #expect(result.facts["footprint.footprintMB"] == 123.8)
        #expect(result.facts["footprint.growthMB"] == 45)
        // Two samples are fewer than the playbook judges a line by: compared and charted, by their times.
        let step = try #require(result.steps.first)
        let line = try #require(step.presentation.series.first { $0.id == "footprint-samples" })
        #expect(line.points.map(\.label) == ["+0 s", "+600 s"])
        #expect(result.findings.allSatisfy { !$0.detail.contains("Not joined") })
    }

    @Test func steadySamplesAreNoGrowth() async throws {
        let result = try await Hunt.run(
            ["footprint-json/faq-fixed.samples.footprint.json"], app: nil, playbook: "navigation-growth")
        let finding = try #require(result.findings.first { $0.check == "footprint-json" })
        #expect(finding.code == "footprint-json.steady")
        #expect(finding.title == "AluminumWeight [5120]: 82.4 MB → 82.5 MB over 8 samples over 70 s")
    }

    /// One `footprint -j` snapshot: its footprint, peak and categories, and no judgement of growth.
    @Test func oneSnapshotGivesItsCategories() async throws {
        let result = try await Hunt.run(["footprint-json/faq-visit-4.footprint.json"], app: "AluminumWeight")
        #expect(result.facts["footprint.footprintMB"] == 123.8)
        #expect(result.facts["footprint.peakMB"] == 125)
        #expect(result.facts["footprint.largestCategory"] == "MALLOC_SMALL")
        #expect(result.facts["footprint.largestCategoryMB"] == 56)
        #expect(result.facts["footprint.growthMB"] == nil)
        #expect(result.findings.allSatisfy { $0.check != "footprint-json" })
        let step = try #require(result.steps.first { $0.step.id == "simulator-repro" })
        let bars = try #require(step.presentation.series.first { $0.id == "footprint-categories" })
        #expect(
            bars.points.map(\.label) == [
                "MALLOC_SMALL", "MALLOC_LARGE", "MALLOC_NANO", "Untagged", "IOSurface", "CoreAnimation",
            ])
    }

    /// Several processes and the subject named: the subject's is read, whatever is largest.
    @Test func theSubjectsProcessIsRead() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write(
            "children.json",
            """
            {"bytes per unit": 1, "processes": [
              {"name": "com.apple.WebKit.WebContent", "pid": 9, "footprint": 524288000},
              {"name": "AluminumWeight", "pid": 5120, "footprint": 104857600}]}
            """)
        let named = try await Hunt.run([dir.path], app: "AluminumWeight")
        #expect(named.facts["footprint.process"] == "AluminumWeight [5120]")
        #expect(named.facts["footprint.footprintMB"] == 100)
        let unnamed = try await Hunt.run([dir.path], app: nil)
        #expect(
            unnamed.steps.contains { step in
                step.presentation.headline.contains {
                    $0.text.hasSuffix("(the process largest in most of the file's snapshots: no app was named)")
                }
            })
    }
}

extension HeapFootprintStepsTests {
    /// Samples of several processes without pids, and no app named: the file is followed by the name that is the
    /// largest in most of its samples, and a child larger in one sample is no point of its line.
    @Test func samplesWithoutPidsAreFollowedByName() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        func sample(_ second: Int, app: Int, child: Int) -> String {
            """
            {"start_time": {"wall_time_s": \(second)}, "processes": [
              {"name": "com.apple.WebKit.WebContent", "footprint": \(child << 20)},
              {"name": "AluminumWeight", "footprint": \(app << 20)}]}
            """
        }
        let samples = [sample(0, app: 80, child: 20), sample(10, app: 90, child: 300), sample(20, app: 100, child: 30)]
        try dir.write(
            "nopids.samples.footprint.json",
            "{\"bytes per unit\": 1, \"samples\": [" + samples.joined(separator: ",") + "]}")
        let result = try await Hunt.run([dir.path], app: nil, playbook: "navigation-growth")
        #expect(result.facts["footprint.process"] == "AluminumWeight")
        #expect(result.facts["footprint.samples"] == 3)
        #expect(result.facts["footprint.footprintMB"] == 100)
        #expect(result.facts["footprint.peakMB"] == 100)
    }

    /// A heap with its total but no class table is no evidence that no class grew.
    @Test func aHeapWithoutItsTableComparesNothing() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("a.heap.txt", "Process:         Demo [7]\nAll zones: 10 nodes (640 bytes)\n")
        try dir.write("b.heap.txt", "Process:         Demo [7]\nAll zones: 900 nodes (57600 bytes)\n")
        let result = try await Hunt.run([dir.path], app: nil, playbook: "navigation-growth")
        #expect(result.facts["heap.heaps"] == 2 && result.facts["heap.nodes"] == 900)
        #expect(result.facts["heap.classes"] == nil && result.facts["heap.grownClasses"] == nil)
        #expect(result.findings.allSatisfy { $0.check != "heap" })
    }
}

/// One heap of Mouser after 81 hours (a real `heap -s`): its XPC connections and the GamePolicy monitors made
/// with them stand in step, a family of classes made per call and kept.
@Suite struct HeapLockstepTests {
    @Test(.enabled(if: Repo.realworld != nil, "../shared/realworld is absent"))
    func mousersConnectionsAndMonitorsAreAFamilyInStep() async throws {
        let root = try #require(Repo.realworld)
        let result = try await Hunt.run(
            [root + "/leaks-cycles/Mouser-heap-s-macOS26.2-6.0G-81h-XPC-HIDEvent-growth-EXCERPT.txt"], app: nil,
            playbook: "navigation-growth")
        let families = result.findings.filter { $0.code == "heap.lockstep" }
        #expect(families.count == 2)
        let first = try #require(families.first)
        #expect(first.title.hasPrefix("13 classes in step at 729,436–729,603 instances each: xpc_connection_t"))
        #expect(first.detail.contains("NSXPCConnection (ObjC, Foundation) 729,457"))
        #expect(first.detail.contains("GPProcessMonitor (ObjC, GamePolicy) 729,442"))
        // HIDEvent (9.3 million) stands alone: no family.
        #expect(!families.contains { $0.detail.contains("HIDEvent (ObjC") })
    }
}

/// Heap series of the four growth shapes (`Fixtures/heap-series/make.py`): what grows, how, and whether a
/// leaks report of the same process finds it leaked or still reachable.
@Suite struct HeapSeriesShapeTests {
    static func run(_ shape: String) async throws -> (facts: Facts, findings: [Finding]) {
        let folder = "heap-series/" + shape
        let files = (1...4).map { "\(folder)/relay-visit-\($0).heap.txt" }
        let leaks = ["leak", "abandoned"].contains(shape) ? ["\(folder)/relay-visit-4.leaks.txt"] : []
        let result = try await Hunt.run(files + leaks, app: nil, playbook: "navigation-growth")
        let step = try #require(result.steps.first { $0.step.id == "leaks" })
        return (step.facts, result.findings)
    }

    @Test func aLeakGrowsAlongALineAndLeaksListsIt() async throws {
        let (facts, findings) = try await Self.run("leak")
        #expect(facts["heap.shape"] == "linear")
        #expect(facts["heap.kept"] == "leaked")
        let grew = try #require(findings.first { $0.code == "heap.grew" })
        #expect(grew.severity == .warning)
        #expect(grew.detail.contains("Session (Swift, Relay) 10 → 160"))
        #expect(grew.detail.contains("lists 150 Closure context (Swift, <unknown>) in its leaked trees"))
        // 150 equal top-level entries are said once, with how many.
        let found = try #require(findings.first { $0.code == "leaks.found" })
        #expect(found.detail.contains("top-level entries: Relay.Session (root cycle, 2 objects, 144 bytes) ×150. "))
    }

    /// A class is counted once per leaked object: the back reference of each of the 150 cycles names a Session
    /// already counted.
    @Test func leakedObjectsOfAClassAreCountedOnce() throws {
        let bytes = try Repo.bytes("heap-series/leak/relay-visit-4.leaks.txt")
        let report = try LeaksReport.parse(bytes).get()
        #expect(HeldOrLeaked.leaked("Session", in: report) == 150)
        #expect(HeldOrLeaked.leaked("Closure context", in: report) == 150)
    }

    @Test func abandonedMemoryGrowsAlongALineAndIsReachable() async throws {
        let (facts, findings) = try await Self.run("abandoned")
        #expect(facts["heap.shape"] == "linear")
        #expect(facts["heap.kept"] == "reachable")
        #expect(facts["heap.topGrowthInstances"] == 360)
        let grew = try #require(findings.first { $0.code == "heap.grew" })
        #expect(grew.detail.contains("about +120 per heap, R² 1.00"))
        #expect(grew.detail.contains("still reachable (memory abandoned, not leaked)"))
    }

    @Test func aCacheFilledOnceIsAStepAndANotice() async throws {
        let (facts, findings) = try await Self.run("step")
        #expect(facts["heap.shape"] == "step")
        #expect(facts["heap.kept"] == nil)
        let grew = try #require(findings.first { $0.code == "heap.grew" })
        #expect(grew.severity == .notice)
        #expect(grew.detail.contains("rose once, after heap 1, and then held"))
    }

    @Test func aTransientClassIsSaidWithItsNumbersAndNothingGrew() async throws {
        let (facts, findings) = try await Self.run("transient")
        #expect(facts["heap.grownClasses"] == 0)
        #expect(facts["heap.shape"] == nil)
        let flat = try #require(findings.first { $0.code == "heap.flat" })
        #expect(flat.detail.contains("DecodedPage (Swift, Relay) rose 20 → 900 by heap 3 and fell back to 25"))
        #expect(!findings.contains { $0.code == "heap.grew" })
    }
}
