import MemhuntCore
import MemhuntFormats

/// What `footprint -j` and `footprint --sample … -j` JSON say of one process: its footprint, its categories, and,
/// over samples, whether the footprint grows with time.
struct FootprintJSONCheck: MeasuringCheck {
    /// The process of `snapshot` the check speaks of, by its place: the subject's; with no app named, the
    /// process the file is `followed` by (said so), or the only one.
    static func pick(_ snapshot: FootprintSnapshot, subject: Subject, following: Followed?) -> (
        place: Int, chosen: Bool
    )? {
        let processes = snapshot.processes
        let named = processes.indices.filter { processes[$0].bytes != nil }
        if subject.app != nil { return named.first { subject.matches(processes[$0].name) }.map { ($0, false) } }
        if let following { return named.first { Followed(processes[$0]) == following }.map { ($0, true) } }
        return named.count == 1 ? (named[0], false) : nil
    }

    /// A process as a file is followed by: its pid, or its name where the file gives no pids.
    enum Followed: Hashable, Comparable {
        case pid(Int)
        case name(String)

        init?(_ process: FootprintJSONProcess) {
            if let pid = process.pid {
                self = .pid(pid)
            } else if let name = process.name {
                self = .name(name)
            } else {
                return nil
            }
        }
    }

    /// With no app named, the pid a file's snapshots are read for: the process that is the largest in the most of
    /// them (the larger in its newest of a tie, then the lower pid or the first name). One process throughout,
    /// never the largest of each snapshot: a child that outgrows the app in one sample is no point of the app's
    /// line. A file without pids is followed by name. Nil when no snapshot names more than one process.
    static func followed(_ report: FootprintJSON) -> Followed? {
        var wins: [Followed: (count: Int, newest: Int)] = [:]
        var several = false
        for snapshot in report.snapshots {
            let named = snapshot.processes.filter { $0.bytes != nil }
            several = several || named.count > 1
            guard let largest = named.max(by: { ($0.bytes ?? 0) < ($1.bytes ?? 0) }), let key = Followed(largest)
            else { continue }
            wins[key] = ((wins[key]?.count ?? 0) + 1, largest.bytes ?? 0)
        }
        guard several else { return nil }
        return wins.max {
            ($0.value.count, $0.value.newest) < ($1.value.count, $1.value.newest)
                || (($0.value.count, $0.value.newest) == ($1.value.count, $1.value.newest) && $0.key > $1.key)
        }?.key
    }

    /// The subject's readings of one series in time order (file order when a sample has no time), whether its
    /// process was chosen as the largest, the lines the files could not read, and the other series not joined.
    struct Measurement {
        var readings: [Reading]
        var chosen: Bool
        var notes: [String]
        var others: [String] = []
        var newest: Reading { readings[readings.count - 1] }
        var name: String { (newest.process.name ?? "pid") + (newest.process.pid.map { " [\($0)]" } ?? "") }
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        var series = ReadingSeries()
        var chosen = false
        var notes: [String] = []
        for (number, artifact) in context.artifacts(of: .footprintJSON).sorted(by: { $0.source < $1.source })
            .enumerated()
        {
            guard case .repro(.footprintJSON(let report))? = artifact.content else { continue }
            let source = Reading.Source(artifact, report)
            let following = context.subject.app == nil ? Self.followed(report) : nil
            for (index, snapshot) in report.snapshots.enumerated() {
                guard let (place, largest) = Self.pick(snapshot, subject: context.subject, following: following),
                    let bytes = snapshot.processes[place].bytes
                else { continue }
                chosen = chosen || largest
                series.add(
                    Reading(source: source, index: index, place: place, time: snapshot.time, bytes: bytes),
                    key: SeriesKey(
                        pid: snapshot.processes[place].pid, file: snapshot.clock == .calendar ? nil : number))
            }
            notes += report.unreadable.prefix(3).map { "\(artifact.fileName): \($0)" }
        }
        let (judged, others) = series.split()
        var readings = judged
        guard !readings.isEmpty else { return nil }
        // Sorted by time unless they already are (a sorted copy of many thousand samples' readings is megabytes).
        if readings.allSatisfy({ $0.time != nil }),
            zip(readings, readings.dropFirst()).contains(where: { $0.time! > $1.time! })
        {
            readings = readings.enumerated().sorted { ($0.element.time!, $0.offset) < ($1.element.time!, $1.offset) }
                .map(\.element)
        }
        return Measurement(
            readings: readings, chosen: chosen, notes: notes, others: others.map(Words.series))
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        let (readings, newest, name) = (m.readings, m.newest, m.name)
        output.record(Fact.process, .string(name))
        output.record(Fact.footprintMB, .megabytes(bytes: Double(newest.bytes)))
        let peak = max(readings.compactMap(\.process.peakBytes).max() ?? 0, readings.map(\.bytes).max() ?? 0)
        output.record(Fact.peakMB, .megabytes(bytes: Double(peak)))
        output.record(Fact.samples, .int(readings.count))
        let withCategories = readings.last { !$0.process.categories.isEmpty }
        if let categorised = withCategories, let largest = categorised.process.largestCategory {
            output.record(Fact.largestCategory, .string(largest.name))
            output.record(Fact.largestCategoryMB, .megabytes(bytes: Double(largest.dirtyBytes)))
        }
        output.headline(
            Fact.footprintMB, "footprint", Words.headline(m, largest: withCategories?.process.largestCategory))
        if let categorised = withCategories { Self.categories(categorised, name: name, to: &output) }
        output.event("footprint JSON of \(name)" + Words.others(m), of: readings[0].artifact)
        guard readings.count >= 2 else { return }
        Self.growth(m, context: context, to: &output)
    }

    /// The chart of the largest categories of the reading that has them.
    static func categories(_ reading: Reading, name: String, to output: inout CheckOutput) {
        let top = reading.process.categories.enumerated().sorted {
            ($0.element.dirtyBytes, -$0.offset) > ($1.element.dirtyBytes, -$1.offset)
        }.prefix(6).map(\.element)
        output.chart(
            Series(
                id: "footprint-categories", title: "Dirty memory per category",
                caption: "The \(top.count) largest categories of \(name), \(reading.artifact.fileName).",
                axis: "dirty (MB)", unit: .megabytes,
                points: top.map {
                    Series.Point(
                        label: $0.name, value: Double($0.dirtyBytes) / 1_048_576,
                        text: Double($0.dirtyBytes).megabytesText)
                }))
    }

    /// Two readings or more: the first and the last compared, charted, and the line's fit judged.
    static func growth(_ m: Measurement, context: CheckContext, to output: inout CheckOutput) {
        let (readings, newest, name) = (m.readings, m.newest, m.name)
        let first = readings[0]
        let growth = newest.bytes - first.bytes
        output.record(Fact.firstMB, .megabytes(bytes: Double(first.bytes)))
        output.record(Fact.growthMB, .megabytes(bytes: Double(growth)))
        let label = { (reading: Reading, position: Int) in Words.label(reading, position, start: first.time) }
        output.compare(
            Comparison(
                kind: .growth, label: "footprint of \(name), first → last sample", unit: .megabytes, better: .lower,
                from: .init(
                    label: label(first, 0), value: Double(first.bytes) / 1_048_576,
                    text: Double(first.bytes).megabytesText),
                to: .init(
                    label: label(newest, readings.count - 1), value: Double(newest.bytes) / 1_048_576,
                    text: Double(newest.bytes).megabytesText)))
        output.chart(
            Series(
                id: "footprint-samples", title: "footprint of \(name) over the samples",
                caption: "\(readings.count) samples, \(Double(first.bytes).megabytesText) → "
                    + "\(Double(newest.bytes).megabytesText).", style: .line, axis: "footprint (MB)", unit: .megabytes,
                points: readings.enumerated().map { position, reading in
                    Series.Point(
                        label: label(reading, position), value: Double(reading.bytes) / 1_048_576,
                        text: Double(reading.bytes).megabytesText)
                }))
        guard readings.count >= max(2, context.int("min_samples")) else { return }
        Self.judge(m, growth: growth, context: context, to: &output)
    }

    /// The line fitted to the readings (over minutes when every sample has a time), and growing or steady.
    static func judge(_ m: Measurement, growth: Int, context: CheckContext, to output: inout CheckOutput) {
        let (readings, newest, first) = (m.readings, m.newest, m.readings[0])
        // Minutes since the first sample when every sample has a time, else the samples' positions.
        let start = first.time
        let timed = start != nil && readings.allSatisfy { $0.time != nil } && (newest.time! > start!)
        let xs = readings.enumerated().map { position, reading in
            timed ? (reading.time! - start!) / 60 : Double(position)
        }
        let (slope, r2) = Self.fit(xs, readings.map { Double($0.bytes) / 1_048_576 })
        if timed {
            output.record(Fact.slopeMB, .oneDecimal(slope))
            output.record(Fact.r2, .double((r2 * 100).rounded() / 100))
        }
        var fit = Fit(
            span: timed ? " over \(Int((newest.time! - start!).rounded())) s" : "", slope: timed ? slope : nil,
            r2: r2, minGrowth: context.double("min_growth_mb"), minR2: context.double("min_r2"))
        // The shape by position, a change of a tenth of the threshold counting (1 MB of the default 10).
        fit.shape = GrowthShape.of(
            readings.map { Double($0.bytes) / 1_048_576 }, least: fit.minGrowth / 10, minR2: fit.minR2)
        output.record(Fact.shape, fit.shape.map { .string($0.kind.rawValue) })
        let evidence =
            first.artifact.source == newest.artifact.source
            ? [Evidence(source: first.artifact.source)]
            : [Evidence(source: first.artifact.source), Evidence(source: newest.artifact.source)]
        if Double(growth) / 1_048_576 >= fit.minGrowth, r2 >= fit.minR2 {
            output.emit(
                Code.growing, title: Words.growingTitle(m, growth: growth, fit: fit),
                detail: Words.growing(m, growth: growth, fit: fit), evidence: evidence,
                next: .collect(.heap, Words.collectHeaps))
        } else {
            output.emit(
                Code.steady, title: Words.steadyTitle(m, fit: fit), detail: Words.steady(m, growth: growth, fit: fit),
                evidence: evidence)
        }
    }

    /// The line fitted to the readings, and the thresholds it is judged by.
    struct Fit {
        /// " over 120 s" when the samples are timed.
        var span: String
        /// MB per minute, when the samples are timed.
        var slope: Double?
        var r2: Double
        var minGrowth: Double
        var minR2: Double
        var shape: GrowthShape? = nil
    }

    /// Least-squares slope and R² of `ys` against `xs`.
    static func fit(_ xs: [Double], _ ys: [Double]) -> (slope: Double, r2: Double) {
        let n = Double(xs.count)
        let meanX = xs.reduce(0, +) / n, meanY = ys.reduce(0, +) / n
        let sxy = zip(xs, ys).reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
        let sxx = xs.reduce(0) { $0 + ($1 - meanX) * ($1 - meanX) }
        let syy = ys.reduce(0) { $0 + ($1 - meanY) * ($1 - meanY) }
        guard sxx > 0 else { return (0, 0) }
        return (sxy / sxx, syy > 0 ? (sxy * sxy) / (sxx * syy) : 1)
    }
}
