import MemhuntCore
import MemhuntFormats

/// What `heap` says of a process or a memgraph: its objects per class and, with several heaps of one process in
/// time order, the classes whose instance count only grows from one heap to the next (what each visit leaves
/// behind).
struct HeapCheck: Check {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let heaps = FactDescription(
            "heap.heaps", .count, "heap reports of the subject among the artifacts.", better: .neutral)
        static let nodes = FactDescription(
            "heap.nodes", .count, "Nodes of the newest heap report (its 'All zones: N nodes (M bytes)').")
        static let allocatedMB = FactDescription(
            "heap.allocatedMB", .megabytes, "Bytes of the newest heap report's nodes ('All zones'), in MB.",
            measure: true)
        static let classes = FactDescription(
            "heap.classes", .count, "Classes of the newest heap report's table (name, type and binary).",
            better: .neutral)
        static let largestClass = FactDescription(
            "heap.largestClass", .text, "The class with the most bytes in the newest heap report ('non-object' aside).")
        static let largestClassMB = FactDescription(
            "heap.largestClassMB", .megabytes, "The bytes of that class, in MB.")
        static let footprintMB = FactDescription(
            "heap.footprintMB", .megabytes, "The newest heap report header's physical footprint, in MB.")
        static let grownClasses = FactDescription(
            "heap.grownClasses", .count,
            "Classes whose instance count rose by at least the threshold from the first heap to the last without "
                + "falling between two heaps.")
        static let topGrowthClass = FactDescription(
            "heap.topGrowthClass", .text, "The class whose instance count rose most from the first heap to the last.")
        static let topGrowthInstances = FactDescription(
            "heap.topGrowthInstances", .count, "Instances of that class added from the first heap to the last.",
            measure: true)
        static let perVisitInstances = FactDescription(
            "heap.perVisitInstances", .count,
            "Instances of that class added per visit, when the heaps are a known number of visits apart.",
            measure: true)
        static let growthMB = FactDescription(
            "heap.growthMB", .megabytes, "The change of the heap's bytes ('All zones') from the first heap to the last."
        )
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let grew = FindingCode(
            "heap.grew", .warning,
            "Heaps of one process in time order: a class gains instances from each heap to the next and keeps them.",
            examples: [
                .raises(
                    "Fixtures/heap/faq-visit-1.heap.txt", "Fixtures/heap/faq-visit-2.heap.txt",
                    "Fixtures/heap/faq-visit-3.sortBySize.heap.txt", "Fixtures/heap/faq-visit-4.heap.txt",
                    facts: ["heap.heaps": 4, "heap.nodes": 101163],
                    title: "FAQ (Swift, AluminumWeight) gained 900 instances over 4 heaps and kept them"),
                .quiet(
                    "Fixtures/heap/faq-fixed-visit-1.heap.txt", "Fixtures/heap/faq-fixed-visit-4.heap.txt",
                    facts: ["heap.heaps": 2, "heap.nodes": 98464]),
            ])
        static let flat = FindingCode(
            "heap.flat", .info, "Heaps of one process in time order: no class gains the threshold's instances.",
            examples: [
                .raises(
                    "Fixtures/heap/faq-fixed-visit-1.heap.txt", "Fixtures/heap/faq-fixed-visit-4.heap.txt",
                    facts: ["heap.heaps": 2, "heap.nodes": 98464], title: "No class gained 100 instances over 2 heaps"),
                .quiet(
                    "Fixtures/heap/faq-visit-1.heap.txt", "Fixtures/heap/faq-visit-4.heap.txt",
                    facts: ["heap.heaps": 2, "heap.nodes": 101163]),
            ])
    }

    static let description = CheckDescription(
        id: "heap",
        title: "Objects per class in heap reports",
        step: "navigation-growth",
        rationale: """
            `heap` counts a memgraph's objects per class. A screen that loads its data again on every \
            appearance and keeps it leaves the same objects behind each time: taken after each visit, the \
            heaps show a class whose count climbs by the same amount per visit, which names what is kept even \
            when nothing leaks (reachable memory is no leak).
            """,
        reads: [.heap],
        facts: [
            Fact.heaps, Fact.nodes, Fact.allocatedMB, Fact.classes, Fact.largestClass, Fact.largestClassMB,
            Fact.footprintMB, Fact.grownClasses, Fact.topGrowthClass, Fact.topGrowthInstances, Fact.perVisitInstances,
            Fact.growthMB,
        ],
        codes: [Code.grew, Code.flat],
        parameters: [
            CheckParameter(
                "min_instances", default: 100, "A class counts as grown when it gains at least this many instances."),
            CheckParameter(
                "visits_per_heap", default: 0,
                "Visits of the screen between one heap and the next; 0 when the heaps are not of counted visits."),
        ]
    )

    /// One class of one heap, summed over its rows.
    struct Tally {
        var label: String
        var count = 0
        var bytes = 0
        var line: Int
    }

    static func tallies(_ report: HeapReport) -> [String: Tally] {
        var result: [String: Tally] = [:]
        for row in report.classes {
            result[row.key, default: Tally(label: row.label, line: row.line)].count += row.count
            result[row.key]!.bytes += row.bytes
        }
        return result
    }

    static let nonObject = "non-object\t\t"

    func run(_ context: CheckContext) async throws -> CheckOutput {
        let reports = CaptureOrder.sorted(
            context.artifacts(of: .heap).compactMap { artifact -> (Artifact, HeapReport)? in
                guard case .repro(.heap(let report))? = artifact.content else { return nil }
                return (artifact, report)
            }, date: \.date)
        guard let (artifact, newest) = reports.last else { return CheckOutput(noInput: true) }
        var output = CheckOutput()
        let newestTallies = Self.tallies(newest)
        output.record(Fact.heaps, .int(reports.count))
        output.record(Fact.nodes, newest.nodes.map { .int($0) })
        output.record(Fact.allocatedMB, newest.bytes.map { .megabytes(bytes: Double($0)) })
        output.record(Fact.classes, newest.hasTable ? .int(newestTallies.count) : nil)
        output.record(Fact.footprintMB, newest.footprintBytes.map { .megabytes(bytes: Double($0)) })
        let largest = newestTallies.filter { $0.key != Self.nonObject }.max {
            ($0.value.bytes, $1.value.label) < ($1.value.bytes, $0.value.label)
        }?.value
        output.record(Fact.largestClass, largest.map { .string($0.label) })
        output.record(Fact.largestClassMB, largest.map { .megabytes(bytes: Double($0.bytes)) })
        if let nodes = newest.nodes, let bytes = newest.bytes {
            output.headline(
                Fact.allocatedMB, "heap",
                "\(FactValue.grouped(nodes)) nodes, \(Double(bytes).megabytesText)"
                    + (largest.map { "; most bytes: \($0.label) (\(FactValue.grouped($0.count)))" } ?? ""))
        }
        for (each, report) in reports {
            output.event(
                "heap report: \(report.nodes.map { FactValue.grouped($0) + " nodes" } ?? "its class table")", of: each)
        }
        // A heap without its class table says nothing of its classes: no comparison of counts then.
        guard reports.count >= 2, reports.allSatisfy({ $0.1.hasTable }) else { return output }
        let (firstArtifact, first) = reports[0]
        let steps = reports.map { Self.tallies($0.1) }
        let threshold = max(1, context.int("min_instances"))
        // Grown: at least the threshold more instances in the last heap than in the first, never fewer in a heap
        // than in the one before it.
        let grown = newestTallies.compactMap { key, last -> (key: String, tally: Tally, added: Int)? in
            let counts = steps.map { $0[key]?.count ?? 0 }
            let added = last.count - counts[0]
            guard added >= threshold, zip(counts, counts.dropFirst()).allSatisfy({ $0 <= $1 }) else { return nil }
            return (key, last, added)
        }.sorted { ($0.added, $1.tally.label) > ($1.added, $0.tally.label) }
        let classes = grown.filter { $0.key != Self.nonObject }
        output.record(Fact.grownClasses, .int(classes.count))
        if let (from, to) = first.bytes.flatMap({ a in newest.bytes.map { (a, $0) } }) {
            output.record(Fact.growthMB, .megabytes(bytes: Double(to - from)))
            output.compare(
                Comparison(
                    kind: .growth, label: "Heap bytes ('All zones')", unit: .megabytes, better: .lower,
                    from: .init(
                        label: firstArtifact.fileName, value: Double(from) / 1_048_576,
                        text: Double(from).megabytesText),
                    to: .init(
                        label: artifact.fileName, value: Double(to) / 1_048_576, text: Double(to).megabytesText)))
        }
        let visits = max(0, context.int("visits_per_heap"))
        let intervals = reports.count - 1
        let pair = "\(firstArtifact.fileName) → \(artifact.fileName)"
        guard let top = classes.first else {
            output.emit(
                Code.flat,
                title: "No class gained \(FactValue.grouped(threshold)) instances over \(reports.count) heaps",
                detail: "\(pair): no class's instance count rose by \(FactValue.grouped(threshold)) or more "
                    + "without falling between two heaps"
                    + (grown.isEmpty ? "." : " (non-object blocks aside).")
                    + Self.unread(reports),
                evidence: [Evidence(source: firstArtifact.source), Evidence(source: artifact.source)])
            return output
        }
        let firstCount = steps[0][top.key]?.count ?? 0
        output.record(Fact.topGrowthClass, .string(top.tally.label))
        output.record(Fact.topGrowthInstances, .int(top.added))
        var perVisit: String?
        if visits > 0 {
            let each = Double(top.added) / Double(visits * intervals)
            output.record(Fact.perVisitInstances, .int(Int(each.rounded())))
            let exact = top.added % (visits * intervals) == 0
            perVisit = (exact ? "+" : "about +") + FactValue.grouped(Int(each.rounded())) + " per visit"
        }
        let counts = steps.map { $0[top.key]?.count ?? 0 }
        let path = counts.map { FactValue.grouped($0) }.joined(separator: " → ")
        output.headline(
            Fact.topGrowthInstances, "grew most",
            "\(top.tally.label): \(path) over \(reports.count) heaps" + (perVisit.map { " (\($0))" } ?? ""))
        output.compare(
            Comparison(
                kind: .growth, label: "\(top.tally.label) instances", unit: .count, better: .lower,
                from: .init(
                    label: firstArtifact.fileName, value: Double(firstCount), text: FactValue.grouped(firstCount)),
                to: .init(
                    label: artifact.fileName, value: Double(top.tally.count), text: FactValue.grouped(top.tally.count)),
                change: perVisit ?? "+" + FactValue.grouped(top.added)))
        if reports.count >= 3 {
            output.chart(
                Series(
                    id: "heap-growth", title: "\(top.tally.label) instances per heap",
                    caption: "\(reports.count) heaps in time order, \(path).", style: .line, axis: "instances",
                    unit: .count,
                    points: zip(reports, counts).map { entry, count in
                        Series.Point(
                            label: ReproSample.fileLabel(entry.0.source), value: Double(count),
                            text: FactValue.grouped(count))
                    }))
        }
        let listed = classes.prefix(3).map { entry in
            let before = steps[0][entry.key]?.count ?? 0
            return "\(entry.tally.label) \(FactValue.grouped(before)) → \(FactValue.grouped(entry.tally.count)) "
                + "(\(Double(entry.tally.bytes).megabytesText) in the last heap)"
        }
        let raw = grown.first { $0.key == Self.nonObject }.map {
            " Non-object blocks (allocations of no class) gained \(FactValue.grouped($0.added)) as well."
        }
        output.emit(
            Code.grew,
            title: "\(top.tally.label) gained \(FactValue.grouped(top.added)) instances over \(reports.count) heaps"
                + (perVisit.map { " (\($0))" } ?? "") + " and kept them",
            detail: "\(pair), \(reports.count) heaps in time order: "
                + "\(FactValue.grouped(classes.count)) \(classes.count == 1 ? "class" : "classes") gained "
                + "\(FactValue.grouped(threshold)) or more instances and lost none from one heap to the next: "
                + listed.joined(separator: "; ") + "." + (raw ?? "")
                + (perVisit.map {
                    " The heaps are \(visits) \(visits == 1 ? "visit" : "visits") apart: \(top.tally.label) \($0)."
                } ?? "")
                + Self.unread(reports),
            evidence: [
                Evidence(source: firstArtifact.source, line: steps[0][top.key]?.line),
                Evidence(source: artifact.source, line: top.tally.line),
            ],
            next: .change(
                "Find what holds the \(top.tally.label) instances (the memory graph's paths to one of them): load "
                    + "the data once into a store that outlives the screen instead of on every appearance."))
        return output
    }

    /// " Not read: …" for the reports' unreadable lines, or nothing.
    static func unread(_ reports: [(Artifact, HeapReport)]) -> String {
        let lines = reports.flatMap { artifact, report in report.unreadable.map { "\(artifact.fileName) \($0)" } }
        return lines.isEmpty ? "" : " Not read: " + lines.prefix(5).joined(separator: "; ") + "."
    }
}
