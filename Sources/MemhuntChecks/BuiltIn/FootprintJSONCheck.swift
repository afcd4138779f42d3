import MemhuntCore
import MemhuntFormats

/// What `footprint -j` and `footprint --sample … -j` JSON say of one process: its footprint, its categories, and,
/// over samples, whether the footprint grows with time.
struct FootprintJSONCheck: Check {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let process = FactDescription(
            "footprint.process", .text, "The process read (name and pid) of the footprint JSON.")
        static let footprintMB = FactDescription(
            "footprint.footprintMB", .megabytes, "The process's footprint in the last snapshot, in MB.", measure: true)
        static let peakMB = FactDescription(
            "footprint.peakMB", .megabytes,
            "The process's highest footprint: the kernel's lifetime peak (phys_footprint_peak) when given, else the "
                + "largest snapshot.")
        static let largestCategory = FactDescription(
            "footprint.largestCategory", .text, "The category with the most dirty bytes in the last snapshot.")
        static let largestCategoryMB = FactDescription(
            "footprint.largestCategoryMB", .megabytes, "The dirty bytes of that category, in MB.")
        static let samples = FactDescription(
            "footprint.samples", .count, "Snapshots of the process, over every footprint JSON of the subject.",
            better: .neutral)
        static let firstMB = FactDescription(
            "footprint.firstMB", .megabytes, "The process's footprint in the first snapshot, in MB.")
        static let growthMB = FactDescription(
            "footprint.growthMB", .megabytes, "Last snapshot's footprint minus the first's, in MB.", measure: true)
        static let slopeMB = FactDescription(
            "footprint.slopeMBPerMinute", .megabytes,
            "The fitted growth of the footprint per minute of the samples' times (MB per minute).")
        static let r2 = FactDescription(
            "footprint.r2", .ratio, "How well a line over time fits the samples (R², 0–1).", better: .neutral)
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let growing = FindingCode(
            "footprint-json.growing", .warning, "footprint samples of the process grow along a line over time.",
            examples: [
                .raises(
                    "Fixtures/footprint-json/faq-visits.samples.footprint.json",
                    facts: [Fact.process.key: "AluminumWeight [5120]", Fact.footprintMB.key: 123.9],
                    title: "AluminumWeight [5120] grew 41.5 MB in 8 samples over 70 s (39.5 MB per minute)"),
                .quiet(
                    "Fixtures/footprint-json/faq-fixed.samples.footprint.json",
                    facts: [Fact.process.key: "AluminumWeight [5120]", Fact.footprintMB.key: 82.5]),
            ])
        static let steady = FindingCode(
            "footprint-json.steady", .info, "footprint samples of the process do not grow by the threshold.",
            examples: [
                .raises(
                    "Fixtures/footprint-json/faq-fixed.samples.footprint.json",
                    facts: [Fact.process.key: "AluminumWeight [5120]", Fact.footprintMB.key: 82.5],
                    title: "AluminumWeight [5120]: 82.4 MB → 82.5 MB over 8 samples over 70 s"),
                .quiet(
                    "Fixtures/footprint-json/faq-visits.samples.footprint.json",
                    facts: [Fact.process.key: "AluminumWeight [5120]", Fact.footprintMB.key: 123.9]),
            ])
    }

    static let description = CheckDescription(
        id: "footprint-json",
        title: "footprint JSON: categories and samples over time",
        step: "simulator-repro",
        rationale: """
            `footprint` reads the kernel's own footprint of a process and splits it into categories (malloc \
            zones, CoreAnimation, IOSurface, mapped files): the largest category says where the memory is. \
            Sampled over a reproduction, a footprint that climbs along a line and does not come back says memory \
            is kept, and when.
            """,
        reads: [.footprintJSON],
        facts: [
            Fact.process, Fact.footprintMB, Fact.peakMB, Fact.largestCategory, Fact.largestCategoryMB, Fact.samples,
            Fact.firstMB, Fact.growthMB, Fact.slopeMB, Fact.r2,
        ],
        codes: [Code.growing, Code.steady],
        parameters: [
            CheckParameter("min_samples", default: 3, "Samples needed before judging growth."),
            CheckParameter("min_growth_mb", default: 10.0, "Warn when the footprint grows at least this many MB …"),
            CheckParameter("min_r2", default: 0.8, "… along a line at least this good (R²)."),
        ]
    )

    /// One snapshot of the process read.
    struct Reading {
        var artifact: Artifact
        var index: Int
        var time: Double?
        var process: FootprintJSONProcess
        var bytes: Int
    }

    /// The process of `snapshot` the check speaks of: the subject's, or the only one, or the largest (said so).
    static func pick(_ snapshot: FootprintSnapshot, subject: Subject) -> (FootprintJSONProcess, chosen: Bool)? {
        let named = snapshot.processes.filter { $0.bytes != nil }
        if subject.app != nil { return named.first { subject.matches($0.name) }.map { ($0, false) } }
        if named.count == 1 { return (named[0], false) }
        return named.max { ($0.bytes ?? 0) < ($1.bytes ?? 0) }.map { ($0, true) }
    }

    func run(_ context: CheckContext) async throws -> CheckOutput {
        var readings: [Reading] = []
        var chosen = false
        var notes: [String] = []
        for artifact in context.artifacts(of: .footprintJSON).sorted(by: { $0.source < $1.source }) {
            guard case .repro(.footprintJSON(let report))? = artifact.content else { continue }
            for (index, snapshot) in report.snapshots.enumerated() {
                guard let (process, largest) = Self.pick(snapshot, subject: context.subject), let bytes = process.bytes
                else { continue }
                chosen = chosen || largest
                readings.append(
                    Reading(artifact: artifact, index: index, time: snapshot.time, process: process, bytes: bytes))
            }
            notes += report.unreadable.prefix(3).map { "\(artifact.fileName): \($0)" }
        }
        guard let last = readings.last else { return CheckOutput(noInput: true) }
        if readings.allSatisfy({ $0.time != nil }) {
            readings = readings.enumerated().sorted { ($0.element.time!, $0.offset) < ($1.element.time!, $1.offset) }
                .map(\.element)
        }
        var output = CheckOutput()
        let newest = readings.last ?? last
        let name = (newest.process.name ?? "pid") + (newest.process.pid.map { " [\($0)]" } ?? "")
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
        let mb = { (bytes: Int) in Double(bytes).megabytesText }
        output.headline(
            Fact.footprintMB, "footprint",
            "\(name): \(mb(newest.bytes))"
                + (withCategories?.process.largestCategory.map { "; largest category \($0.name) \(mb($0.dirtyBytes))" }
                    ?? "") + (chosen ? " (the largest of the file's processes: no app was named)" : ""))
        if let categorised = withCategories {
            let top = categorised.process.categories.enumerated().sorted {
                ($0.element.dirtyBytes, -$0.offset) > ($1.element.dirtyBytes, -$1.offset)
            }.prefix(6).map(\.element)
            output.chart(
                Series(
                    id: "footprint-categories", title: "Dirty memory per category",
                    caption: "The \(top.count) largest categories of \(name), \(categorised.artifact.fileName).",
                    axis: "dirty (MB)", unit: .megabytes,
                    points: top.map {
                        Series.Point(
                            label: $0.name, value: Double($0.dirtyBytes) / 1_048_576, text: mb($0.dirtyBytes))
                    }))
        }
        output.event("footprint JSON of \(name)", of: readings[0].artifact)
        guard readings.count >= 2 else { return output }
        let first = readings[0]
        let growth = newest.bytes - first.bytes
        output.record(Fact.firstMB, .megabytes(bytes: Double(first.bytes)))
        output.record(Fact.growthMB, .megabytes(bytes: Double(growth)))
        let start = first.time
        func label(_ reading: Reading, _ position: Int) -> String {
            if let start, let time = reading.time { return "+\(Int((time - start).rounded())) s" }
            return "sample \(position + 1)"
        }
        output.compare(
            Comparison(
                kind: .growth, label: "footprint of \(name), first → last sample", unit: .megabytes, better: .lower,
                from: .init(label: label(first, 0), value: Double(first.bytes) / 1_048_576, text: mb(first.bytes)),
                to: .init(
                    label: label(newest, readings.count - 1), value: Double(newest.bytes) / 1_048_576,
                    text: mb(newest.bytes))))
        output.chart(
            Series(
                id: "footprint-samples", title: "footprint of \(name) over the samples",
                caption: "\(readings.count) samples, \(mb(first.bytes)) → \(mb(newest.bytes)).", style: .line,
                axis: "footprint (MB)", unit: .megabytes,
                points: readings.enumerated().map { position, reading in
                    Series.Point(
                        label: label(reading, position), value: Double(reading.bytes) / 1_048_576,
                        text: mb(reading.bytes))
                }))
        guard readings.count >= max(2, context.int("min_samples")) else { return output }
        // Minutes since the first sample when every sample has a time, else the samples' positions.
        let timed = start != nil && readings.allSatisfy { $0.time != nil } && (newest.time! > start!)
        let xs = readings.enumerated().map { position, reading in
            timed ? (reading.time! - start!) / 60 : Double(position)
        }
        let (slope, r2) = Self.fit(xs, readings.map { Double($0.bytes) / 1_048_576 })
        if timed {
            output.record(Fact.slopeMB, .oneDecimal(slope))
            output.record(Fact.r2, .double((r2 * 100).rounded() / 100))
        }
        let span = timed ? " over \(Int((newest.time! - start!).rounded())) s" : ""
        let minGrowth = context.double("min_growth_mb")
        let minR2 = context.double("min_r2")
        let series = readings.count <= 8 ? readings.map { mb($0.bytes) }.joined(separator: " → ") : nil
        let evidence =
            first.artifact.source == newest.artifact.source
            ? [Evidence(source: first.artifact.source)]
            : [Evidence(source: first.artifact.source), Evidence(source: newest.artifact.source)]
        let unread = notes.isEmpty ? "" : " Not read: " + notes.prefix(5).joined(separator: "; ") + "."
        if Double(growth) / 1_048_576 >= minGrowth, r2 >= minR2 {
            output.emit(
                Code.growing,
                title: "\(name) grew \(mb(growth)) in \(readings.count) samples\(span)"
                    + (timed ? " (\(slope.oneDecimalText) MB per minute)" : ""),
                detail: "footprint of \(name): \(series ?? mb(first.bytes) + " → " + mb(newest.bytes)), "
                    + "+\(mb(growth))\(span), R² \(format2(r2)) (thresholds \(minGrowth.oneDecimalText) MB, "
                    + "R² \(format2(minR2))). It climbs and does not come back within the samples."
                    + (chosen ? " The process is the largest of the file's: no app was named." : "") + unread,
                evidence: evidence,
                next: .collect(
                    .heap, "A heap report of a memgraph after each visit says which class gains the objects."))
        } else {
            output.emit(
                Code.steady,
                title: "\(name): \(mb(first.bytes)) → \(mb(newest.bytes)) over \(readings.count) samples\(span)",
                detail: "footprint of \(name) changed \(growth >= 0 ? "+" : "")\(mb(growth)) over "
                    + "\(readings.count) samples\(span) (R² \(format2(r2))): below the threshold of "
                    + "\(minGrowth.oneDecimalText) MB along a line." + unread,
                evidence: evidence)
        }
        return output
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
