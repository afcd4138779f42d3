import MemhuntCore
import MemhuntTestSupport
import Testing

@testable import MemhuntChecks

/// Steps 5-8 and the playbooks of seeds 001-003 over their fixtures, asserting the seeds' numbers.
@Suite struct ReproStepsTests {
    @Test func justSendWalksEightStepsWithNumbersInEvery() async throws {
        let result = try await Hunt.run(["justsend"], app: "JustSend")
        #expect(result.steps.map(\.status) == [.clear] + Array(repeating: .finding, count: 7))
        for step in result.steps { #expect(!step.facts.isEmpty, "step \(step.number) has no numbers") }
        #expect(result.artifacts.allSatisfy { $0.status == .ok })
    }

    @Test func simulatorReproduction() async throws {
        let facts = try await Hunt.run(["justsend"], app: "JustSend").facts
        #expect(facts["repro.baselineMB"] == 45)
        #expect(facts["repro.peakMB"] == 611)
        #expect(facts["repro.ratio"] == 13.6)
        #expect(facts["repro.label"] == "after-detail")
    }

    @Test func baselineIsFirstInTimeAcrossFormsAndFiles() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // Row order and file order say "later" first; the parsed times say otherwise.
        try dir.write("a.csv", "label,footprint_mb,time\nlater,611,2026-08-11T14:02:31+09:00\n")
        try dir.write("b.csv", "label,footprint_mb,time\nearlier,45,2026-08-11 14:01:58 +0900\n")
        let timed = try await Hunt.run([dir.path], app: nil)
        #expect(timed.facts["repro.baselineMB"] == 45)
        #expect(timed.facts["repro.ratio"] == 13.6)
        // One reading without a time: file and row order decide.
        try dir.write("c.csv", "label,footprint_mb\nuntimed,50\n")
        let untimed = try await Hunt.run([dir.path], app: nil)
        #expect(untimed.facts["repro.baselineMB"] == 611)
    }

    @Test func layersAndCoreAnimation() async throws {
        let result = try await Hunt.run(["justsend"], app: "JustSend")
        #expect(result.facts["layers.coreAnimationMB"] == 346)
        #expect(result.facts["layers.count"] == 3573)
        let finding = try #require(result.findings.first { $0.check == "layer-count" })
        #expect(
            finding.title == "Rendering structure holds the memory: 3,573 layers for 2,500 lines: a layer for every "
                + "line; CoreAnimation 346 MB is 57 % of the 611 MB footprint")
    }

    /// A layer count alone is structure: without CoreAnimation's share of a footprint it says nothing of memory.
    @Test func layersAloneAreStructureNotMemory() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("pviews.txt", try Repo.bytes("justsend/pviews-detail.txt"))
        let result = try await Hunt.run([directory.path], app: "JustSend")
        let finding = try #require(result.findings.first { $0.code == "layer-count.structure" })
        #expect(finding.title == "Rendering structure: 3,573 layers")
        #expect(result.facts["layers.count"] == 3573)
    }

    @Test func vmmapAloneGivesFootprintCoreAnimationAndBackingStores() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("after.txt", try Repo.bytes("formats/repro/vmmap-detail-after.txt"))
        let result = try await Hunt.run([dir.path], app: nil)
        #expect(result.facts["repro.peakMB"] == 611)
        #expect(result.facts["layers.coreAnimationMB"] == 346)
        let finding = try #require(result.findings.first { $0.check == "layer-count" })
        #expect(
            finding.detail.hasSuffix(
                "Layer backing stores outside the CoreAnimation row: IOSurface 38.3 MB, IOAccelerator 41.2 MB, "
                    + "CG image 4.1 MB, CG raster data 12.5 MB."))
    }

    @Test func structureOnlyVariationAndTheFix() async throws {
        let result = try await Hunt.run(["justsend"], app: "JustSend")
        #expect(result.facts["variation.variants"] == ["one-block", "2500-blocks"])
        #expect(result.facts["variation.minMB"] == 103)
        #expect(result.facts["variation.maxMB"] == 623)
        #expect(result.facts["variation.ratio"] == 6.0)
        #expect(result.facts["variation.sameInput"] == true)
        let titles = result.findings.filter { $0.check == "structure-variation" }.map { "\($0.severity): \($0.title)" }
        #expect(
            titles == [
                "warning: Structure is the variable: one-block 623 MB vs 2500-blocks 103 MB",
                "info: The fix holds: one-block-after-fix 102 MB vs 2500-blocks 103 MB",
            ])
    }

    @Test func differentInputsAreConfounded() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write(
            "variation.csv",
            """
            label,footprint_mb,variant,scenario,input_bytes
            one-block,623,one-block,detail,291840
            split,103,split,detail,150000
            """)
        let result = try await Hunt.run([dir.path], app: "JustSend")
        #expect(result.facts["variation.sameInput"] == false)
        let finding = try #require(result.findings.first { $0.check == "structure-variation" })
        #expect(finding.severity == .notice)
        #expect(finding.title == "one-block 623 MB vs split 103 MB, but the inputs differ")
    }

    @Test func changeLogsPerViewAndTheDrawerComparison() async throws {
        let result = try await Hunt.run(["justsend"], app: "JustSend")
        #expect(result.facts["changes.logs"] == 3)
        #expect(result.facts["changes.evaluations"] == 39)
        let byLog = try #require(result.facts["changes.byLog"]?.objectValue)
        #expect(
            byLog["drawer-before"]
                == [
                    "evaluations": 22, "processes": ["JustSend": 22], "views": ["RootView": 11, "StreamScreen": 11],
                ])
        #expect(
            byLog["drawer-after"]
                == ["evaluations": 2, "processes": ["JustSend": 2], "views": ["RootView": 1, "StreamScreen": 1]])
        let titles = result.findings.filter { $0.check == "change-log" }.map { "\($0.severity): \($0.title)" }
        #expect(
            titles == [
                "warning: Fan-out: 4 views evaluated in one burst after one _thumbnailStore change",
                "notice: Unequal inputs: StreamScreen re-evaluated 11 times with @self changed",
                "notice: Unequal inputs: LibraryRow re-evaluated 8 times with @self changed",
                "info: drawer-before → drawer-after: RootView +11 → +1, StreamScreen +11 → +1",
            ])
        let fanOut = try #require(result.findings.first { $0.title.hasPrefix("Fan-out") })
        #expect(fanOut.detail.contains("LibraryScreen, ThumbnailGrid, SidebarView, StatusBar"))
        #expect(fanOut.evidence == [Evidence(source: "Fixtures/justsend/thumbnail-fanout.log", line: 2)])
    }

    @Test func viewReEvaluatedFarMoreThanItsSiblings() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var lines = Array(repeating: "ComposerView: _text changed.", count: 30)
        lines += [
            "HeaderView: @self changed.", "HeaderView: @self changed.", "SendButton: @self changed.",
            "SendButton: @self changed.", "Toolbar: @self changed.",
        ]
        try dir.write("typing.log", lines.joined(separator: "\n") + "\n")
        let result = try await Hunt.run([dir.path], app: nil)
        let hot = try #require(result.findings.first { $0.title.contains("re-evaluated 30 times") })
        #expect(hot.severity == .warning)
        #expect(hot.title == "ComposerView re-evaluated 30 times in typing, 15× the other views' median")
        #expect(hot.detail.contains("Its inputs changed: _text ×30."))
    }

    @Test func silentLoopInLayout() async throws {
        let result = try await Hunt.run(["layout-freeze"], app: nil, playbook: "layout-freeze")
        #expect(result.facts["sample.mainThreadSamples"] == 2000)
        #expect(result.facts["sample.layoutSamples"] == 1991)
        #expect(result.facts["sample.layoutPercent"] == 99.6)
        let finding = try #require(result.findings.first { $0.check == "silent-loop" })
        #expect(finding.severity == .warning)
        // Without a change log the sample says where the main thread is, not which kind of loop it is.
        #expect(
            finding.title
                == "Main thread 99.6 % in layout; no change log of Chat to tell a layout loop from a data loop"
        )
        #expect(finding.detail.contains("No change log of Chat was given"))
        // Suspects come from the sample's own frames; seed 003's shape is named as guidance only.
        #expect(
            finding.detail.contains(
                "Suspects from the sample's main thread: LazyStackLayout.placeSubviews(in:proposal:subviews:context:) "
                    + "(1,988 samples), UnaryPositionAwareChildGeometry.value.getter (1,612 samples), "
                    + "ScrollViewProxy.scrollTo(_:anchor:) (371 samples)"))
        #expect(finding.detail.contains("a shape to look for, not a finding of this sample"))
        #expect(finding.detail.contains("(-1001)"))
        #expect(finding.next == .collect(.changeLog, finding.next?.text ?? ""))
        #expect(finding.next?.text.hasPrefix("Capture the change log through a freeze") == true)
        #expect(
            finding.detail.hasSuffix(
                "Heaviest busy frames (top of stack, all threads): AG::Graph::UpdateStack::update() (1204), "
                    + "DynamicLayoutViewAdaptor.updatedItems() (408), ScrollViewReader.Child.updateValue() (359)."))
        #expect(result.steps.map(\.status) == [.clear, .finding, .noArtifact, .noArtifact])
    }

    /// A change log given and silent (a `log stream` capture that matched nothing) is what puts the loop in
    /// layout; the next action is then to bisect.
    @Test func aSilentChangeLogPutsTheLoopInLayout() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(
            "sample.txt", try Repo.bytes("layout-freeze/silent-loop-sample.txt"))
        try directory.write(
            "changes.log", try Repo.bytes("formats/repro/logstream-empty.log"))
        let result = try await Hunt.run([directory.path], app: nil, playbook: "layout-freeze")
        let finding = try #require(result.findings.first { $0.check == "silent-loop" })
        #expect(
            finding.title
                == "Main thread 99.6 % in layout while the change log is silent: the loop is in layout, not data")
        #expect(finding.detail.contains("The change log recorded 0 body evaluations"))
        #expect(finding.next?.text.hasPrefix("Bisect the view tree") == true)
    }

    /// The JustSend logs with their lines renamed to the sampled app: 39 evaluations of Chat.
    static func chatLogs(_ directory: TemporaryDirectory) throws {
        for name in ["drawer-before.log", "drawer-after.log", "thumbnail-fanout.log"] {
            let text = String(decoding: try Repo.bytes("justsend/" + name), as: UTF8.self)
            try directory.write(name, text.replacingOccurrences(of: " JustSend[", with: " Chat["))
        }
    }

    @Test func busyChangeLogMeansADataLoop() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("sample.txt", try Repo.bytes("layout-freeze/silent-loop-sample.txt"))
        try Self.chatLogs(directory)
        let result = try await Hunt.run([directory.path], app: nil, playbook: "layout-freeze")
        #expect(result.subject.app == "Chat")
        let finding = try #require(result.findings.first { $0.check == "silent-loop" })
        #expect(finding.severity == .notice)
        #expect(finding.title == "Main thread 99.6 % in layout with 39 body evaluations logged")
    }

    /// Change logs whose lines name another app are never the subject's: the sample of Chat beside the
    /// JustSend logs is a layout loop with no change log of Chat, and the logs are listed apart.
    @Test func aChangeLogOfAnotherAppIsNotTheSubjects() async throws {
        let result = try await Hunt.run(["layout-freeze", "justsend"], app: "Chat", playbook: "layout-freeze")
        let finding = try #require(result.findings.first { $0.check == "silent-loop" })
        #expect(finding.code == "silent-loop.layout-loop")
        #expect(
            finding.title
                == "Main thread 99.6 % in layout; no change log of Chat to tell a layout loop from a data loop"
        )
        let other = try #require(result.findings.first { $0.code == "artifacts.other-app" })
        #expect(other.title == "3 artifacts of other apps, not of Chat: JustSend (3 artifacts)")
        #expect(result.facts["changes.evaluations"] == nil)
    }

    /// A log of the whole SwiftUI subsystem holds several apps: the loop is judged on the subject's lines, and
    /// the log's mixture is a finding of its own.
    @Test func aLogOfSeveralProcessesCountsTheSubjectsLines() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("sample.txt", try Repo.bytes("layout-freeze/silent-loop-sample.txt"))
        let chat = (0..<3).map { "2026-08-12 14:03:05.00\($0)000+0900 Chat[51873:1] Bubble: @self changed." }
        let mail = (0..<30).map { "2026-08-12 14:03:06.0\($0 + 10)000+0900 MobileMail[412:9] Row: _unread changed." }
        try directory.write("stream.log", (chat + mail).joined(separator: "\n") + "\n")
        let result = try await Hunt.run([directory.path], app: "Chat", playbook: "layout-freeze")
        let finding = try #require(result.findings.first { $0.check == "silent-loop" })
        #expect(finding.title == "Main thread 99.6 % in layout with 3 body evaluations of Chat logged")
        #expect(finding.detail.contains("The log holds 30 more evaluations of other processes, not counted here."))
        let mixed = try #require(result.findings.first { $0.code == "change-log.several-processes" })
        #expect(mixed.title == "stream mixes the evaluations of 2 processes: MobileMail 30, Chat 3")
        #expect(mixed.next == .collect(.changeLog, mixed.next?.text ?? ""))
        #expect(result.facts["changes.evaluations"] == 33)
    }

    @Test func widgetBudgetWithHeadroomAndDecodedImages() async throws {
        let result = try await Hunt.run(["widget"], app: nil, playbook: "widget-budget")
        #expect(result.facts["budget.footprintMB"] == 26.4)
        #expect(result.facts["budget.limitMB"] == 30)
        #expect(result.facts["budget.ceilingMB"] == 24)
        #expect(result.facts["budget.images"] == 2)
        #expect(result.facts["budget.imageMB"] == 5)
        #expect(result.facts["budget.heaviestImage"] == "illustration-1024")
        let titles = result.findings.filter { $0.check == "widget-budget" }.map { "\($0.severity): \($0.title)" }
        #expect(
            titles == [
                "warning: systemLarge heaviest timeline is over its 24 MB ceiling: 26.4 MB, 3.6 MB under the 30 MB limit",
                "warning: illustration-1024 decodes to 4 MB (1024×1024)",
            ])
    }

    @Test func widgetOverTheLimitIsCritical() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("m.csv", "label,footprint_mb\nsystemLarge,31.5\n")
        let result = try await Hunt.run([dir.path], app: nil, playbook: "widget-budget")
        let finding = try #require(result.findings.first { $0.check == "widget-budget" })
        #expect(finding.severity == .critical)
        #expect(finding.title == "systemLarge is over the 30 MB limit: 31.5 MB")
    }

    @Test func growthPerVisit() async throws {
        let result = try await Hunt.run(["navigation-growth"], app: nil, playbook: "navigation-growth")
        #expect(result.facts["growth.visits"] == 4)
        #expect(result.facts["growth.firstMB"] == 82.4)
        #expect(result.facts["growth.lastMB"] == 123.8)
        #expect(result.facts["growth.slopeMB"] == 13.8)
        #expect(result.facts["growth.r2"] == 1.0)
        let titles = result.findings.map { "\($0.severity): \($0.title)" }
        #expect(
            titles == [
                "warning: Memory steps up 13.8 MB per visit over 4 visits",
                "notice: FAQAccordion got a new identity 4 times",
            ])
    }

    @Test func plateauIsNoStair() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("visits.csv", "label,footprint_mb\nvisit 1,82.4\nvisit 2,84.0\nvisit 3,83.1\nvisit 4,83.6\n")
        let result = try await Hunt.run([dir.path], app: nil, playbook: "navigation-growth")
        let finding = try #require(result.findings.first)
        #expect(finding.severity == .info)
        #expect(finding.title == "No stair: 82.4 → 84 → 83.1 → 83.6 MB over 4 visits")
    }

    @Test func leastSquaresFit() {
        let (slope, r2) = GrowthShape.fit([10, 20, 30, 40])
        #expect(slope == 10)
        #expect(r2 == 1)
        let flat = GrowthShape.fit([5, 5, 5])
        #expect(flat.slope == 0)
    }
}

/// Numbers from input can be absurd; no check may trap on them (found by mutating the fixtures).
@Suite struct AbsurdNumbersTests {
    @Test(arguments: ["memory-hunt", "widget-budget", "layout-freeze", "navigation-growth"])
    func hugeMeasurementsDoNotTrap(playbook: String) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write(
            "m.csv",
            """
            label,footprint_mb,core_animation_mb,layers,input_lines,variant,scenario
            a,1e30,1e30,9223372036854775807,1,,s
            b,1e-30,,,1,,s
            c,1e300,,,1,x,v
            d,0.0001,,,1,y,v
            """)
        let result = try await Hunt.run([dir.path], app: nil, playbook: playbook)
        let rendered = result.steps.flatMap { $0.facts.values.map(\.description) + $0.findings.map(\.detail) }
        #expect(!rendered.isEmpty)
    }

    @Test func saturatingConversion() {
        #expect(Int(saturating: 1e30) == .max)
        #expect(Int(saturating: -1e30) == .min)
        #expect(Int(saturating: .nan) == 0)
        #expect(Int(saturating: 2.5) == 3)
        #expect(FactValue.double(1e30).description == "1e+30")
        #expect(FactValue.double(1234.56).description == "1,234.6")
    }
}
