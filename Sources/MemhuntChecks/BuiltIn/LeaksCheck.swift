import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// What `leaks` found in a memgraph: the leaked objects and bytes, the largest trees with their root
/// class, and, with two reports of one process, before → after.
struct LeaksCheck: MeasuringCheck {
    /// Leaks of one shape, pattern and owner in the newest report: the first as named, how many, their trees' bytes.
    struct CycleGroup {
        var leak: ClassifiedLeak
        var instances: Int
        /// The bytes of the trees its cycles are in, each tree once.
        var bytes: Int
        /// Those trees, by their order in the report's tally, ascending.
        var trees: [Int]
        /// Its place among the groups as first seen: ties keep it.
        var order = 0
    }

    /// The reports in capture order, the newest's top-level entries, most bytes first, and its cycles and lone
    /// objects by group: the app's first, then those of no known owner, then the frameworks', most bytes first;
    /// with two reports or more, the first report's too (what a fix is judged against).
    struct Measurement {
        var reports: [(artifact: Artifact, report: LeaksReport)]
        var largest: [LeakRoot]
        var cycles: [CycleGroup]
        var firstCycles: [CycleGroup]?
        var newest: (artifact: Artifact, report: LeaksReport) { reports[reports.count - 1] }
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        let reports = CaptureOrder.sorted(
            context.artifacts(of: .leaks).compactMap { artifact -> (Artifact, LeaksReport)? in
                guard case .repro(.leaks(let report))? = artifact.content else { return nil }
                return (artifact, report)
            }, date: \.date)
        guard let newest = reports.last?.1 else { return nil }
        let known = try CycleCatalog.frameworkCycles + Self.addedFrameworkCycles(context.parameters["framework_cycles"])
        return Measurement(
            reports: reports.map { (artifact: $0.0, report: $0.1) },
            largest: newest.roots.sorted { ($0.bytes, -$0.line) > ($1.bytes, -$1.line) },
            cycles: Self.groups(newest, known: known),
            firstCycles: reports.count >= 2 ? Self.groups(reports[0].1, known: known) : nil)
    }

    /// The framework cycles a playbook adds (`framework_cycles`), or why an entry cannot be read.
    static func addedFrameworkCycles(_ value: FactValue?) throws -> [KnownFrameworkCycle] {
        let list = (value?.arrayValue ?? []).map { entry in
            (entry.objectValue ?? [:]).compactMapValues { $0.stringValue }
        }
        switch KnownFrameworkCycle.entries(list) {
        case .success(let entries): return entries
        case .failure(let problem): throw ParameterProblem(text: "framework_cycles: \(problem)")
        }
    }

    /// The newest report's leak shapes named (`CycleCatalog`) and grouped by path, references, pattern and owner.
    /// The report's tally has gathered shapes alike in all but where they are; each of its groups is named once.
    static func groups(_ report: LeaksReport, known: [KnownFrameworkCycle] = CycleCatalog.frameworkCycles)
        -> [CycleGroup]
    {
        let tally = report.forest.shapes
        var groups: [CycleGroup] = []
        groups.reserveCapacity(tally.groups.count)
        var index: [Int: [Int]] = [:]
        var classifier = CycleCatalog.Classifier(process: report.processName, known: known)
        for alike in tally.groups {
            let leak = classifier.classify(alike.shape)
            let (path, fields) = (alike.shape.path, alike.shape.fields)
            var hasher = Hasher()
            hasher.combine(alike.shape.kind)
            hasher.combine(path)
            hasher.combine(fields)
            hasher.combine(leak.pattern?.id)
            let key = hasher.finalize()
            let same = index[key]?.first { at in
                let other = groups[at].leak
                return other.shape.kind == alike.shape.kind && other.pattern?.id == leak.pattern?.id
                    && other.shape.path == path && other.shape.fields == fields
            }
            if let at = same {
                groups[at].instances += alike.instances
                groups[at].trees = Self.union(groups[at].trees, alike.trees)
            } else {
                index[key, default: []].append(groups.count)
                groups.append(
                    CycleGroup(
                        leak: leak, instances: alike.instances, bytes: 0, trees: alike.trees, order: groups.count))
            }
        }
        // Two cycles of one tree hold that tree's bytes between them, not twice.
        for at in groups.indices {
            groups[at].bytes = groups[at].trees.reduce(0) { $0 + tally.treeBytes[$1] }
        }
        let rank: [ClassifiedLeak.Owner: Int] = [.app: 0, .unknown: 1, .framework: 2]
        // Sorted in place, ties in the order first seen: a copy of thousands of groups was the check's peak.
        groups.sort { a, b in
            (rank[a.leak.owner] ?? 0, -a.bytes, a.order) < (rank[b.leak.owner] ?? 0, -b.bytes, b.order)
        }
        return groups
    }

    /// Two ascending lists of tree indexes as one, each once.
    static func union(_ a: [Int], _ b: [Int]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(a.count + b.count)
        var (i, j) = (0, 0)
        while i < a.count || j < b.count {
            let next = j == b.count || (i < a.count && a[i] <= b[j]) ? a[i] : b[j]
            if i < a.count, a[i] == next { i += 1 }
            if j < b.count, b[j] == next { j += 1 }
            result.append(next)
        }
        return result
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        let (artifact, newest) = m.newest
        output.record(Fact.reports, .int(m.reports.count))
        output.record(Fact.footprintMB, newest.footprintBytes.map { .megabytes(bytes: Double($0)) })
        output.record(Fact.largestRoot, m.largest.first.map { .string($0.className) })
        // Trees pasted alone carry no count of the report's: nothing is said of how many leaked.
        if newest.summaryKnown {
            output.record(Fact.count, .int(newest.leaks))
            output.record(Fact.leakedMB, .megabytes(bytes: Double(newest.leakedBytes)))
            output.record(Fact.leakedBytes, .int(newest.leakedBytes))
            output.headline(
                Fact.count, "leaks",
                "\(FactValue.grouped(newest.leaks)) leaks, \(Double(newest.leakedBytes).sizeText) leaked")
        }
        if newest.leaks > 0 {
            output.emit(
                Code.found, title: Words.foundTitle(newest, largest: m.largest.first),
                detail: Words.found(artifact, newest, largest: m.largest),
                evidence: [Evidence(source: artifact.source, line: m.largest.first?.line)],
                next: .change(Self.hint(m)))
        }
        Self.sayCycles(m.cycles, artifact, newest, to: &output)
        output.event("leaks report of the memgraph", of: artifact)
        // Two reports compare by their counts: both must give them.
        guard m.reports.count >= 2, m.reports[0].report.summaryKnown, newest.summaryKnown else { return }
        Self.compare(m.reports[0], m.newest, to: &output)
        let expected = Set((context.parameters["expected_alive"]?.arrayValue ?? []).compactMap(\.stringValue))
        let verdict = FixVerdict(
            before: (m.reports[0].report, m.firstCycles ?? []), after: (newest, m.cycles), expectedAlive: expected)
        output.record(Fact.verdict, .string(verdict.overall.word))
        output.record(Fact.bytesFreed, .int(max(0, verdict.bytes.before - verdict.bytes.after)))
        output.emit(
            Code.verdict, severity: verdict.severity, title: Words.verdictTitle(verdict, m.reports[0], m.newest),
            detail: Words.verdict(verdict),
            evidence: [
                Evidence(source: m.reports[0].artifact.source), Evidence(source: artifact.source),
            ])
    }

    /// The first report against the newest: their counts and bytes, and which way they went.
    static func compare(
        _ first: (artifact: Artifact, report: LeaksReport), _ newest: (artifact: Artifact, report: LeaksReport),
        to output: inout CheckOutput
    ) {
        let (before, after) = (first.report, newest.report)
        output.compare(
            Comparison(
                kind: .fix, label: "Leaked objects", unit: .count, better: .lower,
                from: .init(
                    label: first.artifact.fileName, value: Double(before.leaks), text: FactValue.grouped(before.leaks)),
                to: .init(
                    label: newest.artifact.fileName, value: Double(after.leaks), text: FactValue.grouped(after.leaks))))
        output.compare(
            Comparison(
                kind: .fix, label: "Leaked bytes", unit: .megabytes, better: .lower,
                from: .init(
                    label: first.artifact.fileName, value: Double(before.leakedBytes) / 1_048_576,
                    text: Double(before.leakedBytes).sizeText),
                to: .init(
                    label: newest.artifact.fileName, value: Double(after.leakedBytes) / 1_048_576,
                    text: Double(after.leakedBytes).sizeText)))
        let pair = Words.pair(first, newest)
        let evidence = [Evidence(source: first.artifact.source), Evidence(source: newest.artifact.source)]
        if after.leakedBytes > before.leakedBytes {
            output.emit(
                Code.more, title: "More leaked after: " + pair,
                detail: "The later report leaks more than the earlier one: " + pair + ".", evidence: evidence,
                next: .change(Words.compareRoots))
        } else if after.leaks < before.leaks {
            output.emit(
                Code.fewer, title: "Fewer leaks after: " + pair,
                detail: "The later report leaks less than the earlier one: " + pair + ". Leaks that remain are in the "
                    + "later report's trees.", evidence: evidence)
        }
    }

    /// The cycles and lone objects: each of the app's (or of no known owner) with its pattern and fix, then the
    /// frameworks', each with why it was classed so.
    static func sayCycles(
        _ groups: [CycleGroup], _ artifact: Artifact, _ report: LeaksReport, to output: inout CheckOutput
    ) {
        guard !groups.isEmpty else { return }
        output.record(Fact.cyclesComplete, .bool(report.shapesNamedWhole && groups.count <= 100))
        let unread = Words.notRead(report)
        // Filtered lazily: a large report has thousands of groups, and a copy of them was the check's peak.
        let own = groups.lazy.filter { $0.leak.owner != .framework }
        let framework = groups.lazy.filter { $0.leak.owner == .framework }
        output.record(Fact.appCycles, .int(own.reduce(0) { $0 + $1.instances }))
        output.record(Fact.frameworkCycles, .int(framework.reduce(0) { $0 + $1.instances }))
        output.record(
            Fact.cycles.key,
            .array(
                groups.prefix(100).map { group in
                    [
                        "path": .string(group.leak.shape.path),
                        "pattern": .string(group.leak.pattern?.id ?? "unknown"),
                        "owner": .string(group.leak.owner.rawValue), "instances": .int(group.instances),
                        "bytes": .int(group.bytes),
                    ]
                }))
        func evidence(_ leak: ClassifiedLeak) -> [Evidence] {
            leak.evidence.prefix(5).map { Evidence(source: artifact.source, line: $0) }
        }
        for group in own.prefix(10) {
            output.emit(
                Code.cycle, severity: group.leak.owner == .unknown ? .notice : nil, title: Words.cycleTitle(group),
                detail: Words.cycle(group, artifact) + unread, evidence: evidence(group.leak),
                next: .change(group.leak.pattern?.fix ?? Words.readTheReferences), pattern: group.leak.pattern?.id)
        }
        for group in framework.prefix(5) {
            output.emit(
                Code.frameworkCycle, title: Words.frameworkTitle(group),
                detail: Words.framework(group, artifact) + unread,
                evidence: evidence(group.leak))
        }
    }

    /// What to do about the leaks: break the largest root's cycle, unless that is a framework's.
    static func hint(_ m: Measurement) -> String {
        let largest = m.largest.first?.line
        guard m.cycles.contains(where: { $0.leak.owner == .framework && $0.leak.shape.treeLine == largest }) else {
            return Words.breakTheCycle
        }
        return m.cycles.contains { $0.leak.owner != .framework } ? Words.appCyclesFirst : Words.frameworkOnly
    }
}
