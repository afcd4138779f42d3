import MemhuntCore
import MemhuntFormats

/// What `heap` says of a process or a memgraph: its objects per class and, with several heaps of one process in
/// time order, the classes whose instance count only grows from one heap to the next (what each visit leaves
/// behind).
struct HeapCheck: MeasuringCheck {
    /// One class of one heap, summed over its rows.
    struct Tally {
        var label: String
        var className: String
        var count = 0
        var bytes = 0
        var line: Int
    }

    static func tallies(_ report: HeapReport) -> [String: Tally] {
        var result: [String: Tally] = [:]
        for row in report.classes {
            result[row.key, default: Tally(label: row.label, className: row.className, line: row.line)].count +=
                row.count
            result[row.key]!.bytes += row.bytes
        }
        return result
    }

    static let nonObject = "non-object\t\t"

    /// The heaps in time order, the newest's class table, and what grew from the first heap to the last.
    struct Measurement {
        var reports: [(artifact: Artifact, report: HeapReport)]
        var newest: [String: Tally]
        /// The class with the most bytes in the newest heap ("non-object" aside).
        var largest: Tally?
        /// Nil when there is one heap, or a heap without its class table.
        var growth: Growth?
    }

    /// Classes that gained at least the threshold's instances and lost none from one heap to the next.
    struct Growth {
        var steps: [[String: Tally]]
        var threshold: Int
        /// Every grown key, the non-object blocks included, most added first.
        var grown: [(key: String, tally: Tally, added: Int)]
        /// The grown classes (non-object blocks aside).
        var classes: [(key: String, tally: Tally, added: Int)] { grown.filter { $0.key != HeapCheck.nonObject } }
        /// The instances of `key` in each heap.
        func counts(_ key: String) -> [Int] { steps.map { $0[key]?.count ?? 0 } }
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        let reports = CaptureOrder.sorted(
            context.artifacts(of: .heap).compactMap { artifact -> (Artifact, HeapReport)? in
                guard case .repro(.heap(let report))? = artifact.content else { return nil }
                return (artifact, report)
            }, date: \.date)
        guard let newest = reports.last?.1 else { return nil }
        let tallies = Self.tallies(newest)
        var measurement = Measurement(
            reports: reports.map { (artifact: $0.0, report: $0.1) }, newest: tallies,
            largest: Self.largest(tallies, leftOut: newest.bytesLeftOut))
        // A heap without its class table, or with rows left out of it, tells no class's whole count: no comparison
        // of counts then.
        guard reports.count >= 2, reports.allSatisfy({ $0.1.tableWhole }) else { return measurement }
        let steps = reports.map { Self.tallies($0.1) }
        let threshold = max(1, context.int("min_instances"))
        // Grown: at least the threshold more instances in the last heap than in the first, never fewer in a heap
        // than in the one before it.
        let grown = tallies.compactMap { key, last -> (key: String, tally: Tally, added: Int)? in
            let counts = steps.map { $0[key]?.count ?? 0 }
            let added = last.count - counts[0]
            guard added >= threshold, zip(counts, counts.dropFirst()).allSatisfy({ $0 <= $1 }) else { return nil }
            return (key, last, added)
        }.sorted { ($0.added, $1.tally.label) > ($1.added, $0.tally.label) }
        measurement.growth = Growth(steps: steps, threshold: threshold, grown: grown)
        return measurement
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        let newest = m.reports.last!.report
        output.record(Fact.heaps, .int(m.reports.count))
        output.record(Fact.nodes, newest.nodes.map { .int($0) })
        output.record(Fact.allocatedMB, newest.bytes.map { .megabytes(bytes: Double($0)) })
        output.record(Fact.classes, newest.tableWhole ? .int(m.newest.count) : nil)
        output.record(Fact.footprintMB, newest.footprintBytes.map { .megabytes(bytes: Double($0)) })
        output.record(Fact.largestClass, m.largest.map { .string($0.label) })
        output.record(Fact.largestClassMB, m.largest.map { .megabytes(bytes: Double($0.bytes)) })
        if let nodes = newest.nodes, let bytes = newest.bytes {
            output.headline(Fact.allocatedMB, "heap", Words.heap(nodes: nodes, bytes: bytes, largest: m.largest))
        }
        for (each, report) in m.reports { output.event(Words.event(report), of: each) }
        Self.sayFamilies(
            Self.families(newest.tableWhole ? m.newest : [:], minimum: context.int("family_min")),
            m.reports.last!.artifact, to: &output)
        guard let growth = m.growth else { return }
        let (first, last) = (m.reports[0], m.reports[m.reports.count - 1])
        output.record(Fact.grownClasses, .int(growth.classes.count))
        output.record(Fact.diff.key, .array(Self.diff(growth.steps[0], growth.steps[growth.steps.count - 1])))
        if let (from, to) = first.report.bytes.flatMap({ a in last.report.bytes.map { (a, $0) } }) {
            output.record(Fact.growthMB, .megabytes(bytes: Double(to - from)))
            output.compare(
                Comparison(
                    kind: .growth, label: "Heap bytes ('All zones')", unit: .megabytes, better: .lower,
                    from: .init(
                        label: first.artifact.fileName, value: Double(from) / 1_048_576,
                        text: Double(from).megabytesText),
                    to: .init(
                        label: last.artifact.fileName, value: Double(to) / 1_048_576, text: Double(to).megabytesText)))
        }
        guard let top = growth.classes.first else {
            output.emit(
                Code.flat, title: Words.flatTitle(growth.threshold, heaps: m.reports.count),
                detail: Words.flat(m, growth),
                evidence: [first.artifact, last.artifact].map { Evidence(source: $0.source) })
            return
        }
        let held = HeldOrLeaked.judge(
            className: top.tally.className, added: top.added, process: last.report.processName, in: context)
        Self.sayGrowth(m, growth, top: top, visits: max(0, context.int("visits_per_heap")), held: held, to: &output)
    }

    /// The class that grew most: its facts, headline, comparison, chart and finding.
    static func sayGrowth(
        _ m: Measurement, _ growth: Growth, top: (key: String, tally: Tally, added: Int), visits: Int,
        held: HeldOrLeaked?, to output: inout CheckOutput
    ) {
        let (first, last) = (m.reports[0], m.reports[m.reports.count - 1])
        let counts = growth.counts(top.key)
        output.record(Fact.topGrowthClass, .string(top.tally.label))
        output.record(Fact.topGrowthInstances, .int(top.added))
        let least = Double(growth.threshold) / Double(max(1, counts.count - 1))
        let shape = GrowthShape.of(counts.map(Double.init), least: least, minR2: 0.9)
        output.record(Fact.shape, shape.map { .string($0.kind.rawValue) })
        output.record(Fact.kept, held.map { .string($0.kind.rawValue) })
        var perVisit: String?
        if visits > 0 {
            let intervals = m.reports.count - 1
            let each = Double(top.added) / Double(visits * intervals)
            output.record(Fact.perVisitInstances, .int(Int(each.rounded())))
            perVisit = Words.perVisit(each, exact: top.added % (visits * intervals) == 0)
        }
        output.headline(
            Fact.topGrowthInstances, "grew most", Words.grewMost(top.tally.label, counts, perVisit: perVisit))
        output.compare(
            Comparison(
                kind: .growth, label: "\(top.tally.label) instances", unit: .count, better: .lower,
                from: .init(
                    label: first.artifact.fileName, value: Double(counts[0]), text: FactValue.grouped(counts[0])),
                to: .init(
                    label: last.artifact.fileName, value: Double(top.tally.count),
                    text: FactValue.grouped(top.tally.count)),
                change: perVisit ?? "+" + FactValue.grouped(top.added)))
        if m.reports.count >= 3 {
            output.chart(
                Series(
                    id: "heap-growth", title: "\(top.tally.label) instances per heap",
                    caption: "\(m.reports.count) heaps in time order, \(Words.path(counts)).", style: .line,
                    axis: "instances", unit: .count,
                    points: zip(m.reports, counts).map { entry, count in
                        Series.Point(
                            label: ReproSample.fileLabel(entry.artifact.source), value: Double(count),
                            text: FactValue.grouped(count))
                    }))
        }
        output.emit(
            Code.grew, severity: shape?.kind == .step ? .notice : nil,
            title: Words.grewTitle(top, heaps: m.reports.count, perVisit: perVisit),
            detail: Words.grew(m, growth, top: top, visits: visits, perVisit: perVisit)
                + Words.shape(shape, top.tally.label) + (held?.sentence(top.tally.label, added: top.added) ?? ""),
            evidence: [
                Evidence(source: first.artifact.source, line: growth.steps[0][top.key]?.line),
                Evidence(source: last.artifact.source, line: top.tally.line),
            ],
            next: .change(Words.findWhatHolds(top.tally.label)))
    }

    /// The class with the most bytes ("non-object" aside), when it is certain: rows left out of the table
    /// (`leftOut` bytes of them) may belong to any class, so it must lead the next class by more than they hold.
    static func largest(_ tallies: [String: Tally], leftOut: Int) -> Tally? {
        // Lazily: a filtered copy of a table of thousands of classes was megabytes at the peak.
        let objects = tallies.lazy.filter { $0.key != nonObject }
        let order = { (a: (key: String, value: Tally), b: (key: String, value: Tally)) in
            (a.value.bytes, b.value.label) < (b.value.bytes, a.value.label)
        }
        guard let first = objects.max(by: order) else { return nil }
        let next = objects.filter { $0.key != first.key }.max(by: order)?.value.bytes ?? 0
        return leftOut == 0 || first.value.bytes - next > leftOut ? first.value : nil
    }
}

extension HeapCheck {
    /// Classes of one heap whose instance counts are within a thousandth of each other, each at least
    /// `minimum`: objects made together and never released (one of each per call of something that ran that
    /// many times). Three classes at least; the families with the most bytes first, at most 3.
    static func families(_ tallies: [String: Tally], minimum: Int) -> [[Tally]] {
        guard minimum > 0 else { return [] }
        let counted = tallies.filter { $0.key != nonObject && $0.value.count >= minimum }.values.sorted {
            ($0.count, $1.label) > ($1.count, $0.label)
        }
        var families: [[Tally]] = []
        var current: [Tally] = []
        for tally in counted {
            if let first = current.first, Double(first.count - tally.count) > 0.001 * Double(first.count) {
                if current.count >= 3 { families.append(current) }
                current = []
            }
            current.append(tally)
        }
        if current.count >= 3 { families.append(current) }
        // Each family's classes with the most bytes first; the families with the most bytes first.
        return Array(
            families.map { $0.sorted { ($0.bytes, $1.label) > ($1.bytes, $0.label) } }
                .sorted { $0.reduce(0) { $0 + $1.bytes } > $1.reduce(0) { $0 + $1.bytes } }.prefix(3))
    }

    static func sayFamilies(_ families: [[Tally]], _ artifact: Artifact, to output: inout CheckOutput) {
        guard !families.isEmpty else { return }
        output.record(
            Fact.families.key,
            .array(
                families.map { family in
                    [
                        "classes": .array(family.map { .string($0.label) }),
                        "fewest": .int(family.map(\.count).min() ?? 0),
                        "most": .int(family.map(\.count).max() ?? 0), "bytes": .int(family.reduce(0) { $0 + $1.bytes }),
                    ]
                }))
        for family in families {
            output.emit(
                Code.lockstep, title: Words.familyTitle(family), detail: Words.family(family, artifact),
                evidence: family.prefix(5).map { Evidence(source: artifact.source, line: $0.line) },
                next: .change(Words.releasePerCall))
        }
    }
}
