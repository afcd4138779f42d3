import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// Step 2: the app's lifetime peak and its rank among all processes in the JetsamEvent record.
struct JetsamRankCheck: MeasuringCheck {
    typealias Process = JetsamSnapshot.Process

    /// What the records say: the chosen record, whether the others agree with it, its processes by peak, and the
    /// subject's place in it.
    struct Measurement {
        var records: [JetsamRecord]
        var record: JetsamRecord
        /// One record speaks for the run: an app is named, or there is one record.
        var oneRecord: Bool
        /// Whether every record gives the chosen one's process count, page size and largestProcess.
        var countsAgree: Bool
        var pageSizesAgree: Bool
        var largestAgree: Bool
        /// The chosen record's processes, largest lifetime peak first (ties in the record's order).
        var byPeak: [Process]
        var subject: Place
    }

    /// Where the subject stands in the chosen record.
    enum Place {
        /// No app named: the record's app processes, and how many apps the artifacts name.
        case unnamed(apps: [Process], candidates: Int)
        /// Named and not listed; the records that are incomplete (elided or partial).
        case notListed(app: String, incomplete: [String])
        /// Listed: the largest matching process, every matching one, the other processes whose page counts could
        /// not be read, and the largest app that is not the subject.
        case listed(app: String, process: Process, matching: [Process], unreadable: [Process], runnerUp: Process?)
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        let records = JetsamRecord.all(in: context)
        guard let record = JetsamRecord.chosen(in: context) else { return nil }
        let event = record.event
        // With no app, no record is the subject's: a value of one record is said as the run's only where every
        // record gives it (six JetsamEvents said 16,384-byte pages, two of them of 4 KiB pages).
        let oneRecord = context.subject.app != nil || records.count == 1
        func agreed<T: Equatable>(_ value: (JetsamSnapshot) -> T) -> Bool {
            oneRecord || records.allSatisfy { value($0.event) == value(event) }
        }
        let byPeak = event.processes.enumerated().sorted { a, b in
            a.element.peakPages != b.element.peakPages ? a.element.peakPages > b.element.peakPages : a.offset < b.offset
        }.map(\.element)
        let place: Place
        if let app = context.subject.app {
            if let process = record.process(of: context.subject) {
                place = .listed(
                    app: app, process: process, matching: record.processes(of: context.subject),
                    unreadable: event.processes.filter { !$0.unreadable.isEmpty },
                    runnerUp: record.appsByPeak.first { !context.subject.matches($0.name) })
            } else {
                place = .notListed(app: app, incomplete: records.filter { !$0.event.complete }.map(\.artifact.source))
            }
        } else {
            place = .unnamed(apps: record.appsByPeak, candidates: context.subject.candidates?.count ?? 0)
        }
        return Measurement(
            records: records, record: record, oneRecord: oneRecord,
            countsAgree: agreed { $0.complete ? $0.processes.count : -1 },
            pageSizesAgree: agreed { $0.pageSizeKnown ? $0.pageSize : 0 }, largestAgree: agreed(\.largestProcess),
            byPeak: byPeak, subject: place)
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        let record = m.record
        let event = record.event
        Self.recordFacts(m, to: &output)
        switch m.subject {
        case .unnamed(let apps, let candidates):
            output.emit(
                Code.noSubject, title: Words.whichApp,
                detail: Words.noSubject(candidates: candidates) + Words.appsOf(record, apps),
                evidence: [Evidence(source: record.artifact.source, pointer: "/processes")],
                next: .decide(.chooseApp, Words.nameTheApp))
        case .notListed(let app, let incomplete):
            output.emit(
                Code.notListed, title: Words.notListedTitle(app, incomplete: incomplete),
                detail: Words.notListed(app, records: m.records, subject: context.subject, incomplete: incomplete),
                evidence: m.records.map { Evidence(source: $0.artifact.source) },
                next: .collect(.jetsamEvent, Words.checkTheName))
        case .listed(let app, let process, let matching, let unreadable, let runnerUp):
            if matching.count > 1 {
                output.emit(
                    Code.severalProcesses, title: Words.severalTitle(matching.count, app),
                    detail: Words.several(record, matching, app),
                    evidence: matching.prefix(20).map { record.evidence($0, "name") },
                    next: .decide(.chooseApp, Words.nameByAnOnlyName))
            }
            // A page count present and unreadable is never guessed: the subject's own means no peak and no rank;
            // another process's means no rank (its peak could be above the subject's).
            if !process.unreadable.isEmpty {
                output.emit(
                    Code.unreadable, title: Words.unreadablePeakTitle(app, process),
                    detail: Words.unreadablePeak(record, app, process),
                    evidence: [record.evidence(process, "lifetimeMax")])
                return
            }
            if let why = event.incompleteness {
                Self.incomplete(&output, records: m.records, record: record, app: app, process: process, why: why)
                return
            }
            Self.listed(
                &output, m, context: context, app: app, process: process, unreadable: unreadable, runnerUp: runnerUp)
        }
    }

    /// The record's own facts: how many records, and the chosen one's processes, page size and largest
    /// processes where it speaks for the run.
    static func recordFacts(_ m: Measurement, to output: inout CheckOutput) {
        let record = m.record
        let event = record.event
        output.record(Fact.records, .int(m.records.count))
        // An incomplete record (elided, or process records pasted alone) does not list every process: no count,
        // no ten largest. Process records alone give no page size.
        if event.complete, m.countsAgree { output.record(Fact.processes, .int(event.processes.count)) }
        if event.pageSizeKnown, m.pageSizesAgree { output.record(Fact.pageSize, .int(Int(clamping: event.pageSize))) }
        if m.largestAgree { output.record(Fact.largestProcess, event.largestProcess.map(FactValue.string)) }
        if event.complete, event.pageSizeKnown, m.oneRecord {
            output.record(
                Fact.topProcesses.key,
                .array(
                    m.byPeak.prefix(10).map { process in
                        [
                            "name": .string(process.name),
                            "peakMB": .megabytes(bytes: record.bytes(pages: process.peakPages)),
                            "app": .bool(process.isApp),
                        ]
                    }))
        }
    }

    /// The subject's facts, rank and lead in a complete record that lists it.
    static func listed(
        _ output: inout CheckOutput, _ m: Measurement, context: CheckContext, app: String, process: Process,
        unreadable others: [Process], runnerUp: Process?
    ) {
        let record = m.record
        let peak = record.bytes(pages: process.peakPages)
        output.record(Fact.peakMB, .megabytes(bytes: peak))
        if others.isEmpty { output.record(Fact.rank, .int(process.rank)) }
        output.record(Fact.state, process.states.first.map(FactValue.string))
        output.record(Fact.reason, process.reason.map(FactValue.string))
        present(&output, record: m.records, chosen: record, byPeak: m.byPeak, app: app, process: process)
        let peakEvidence = record.evidence(process, !process.hasLifetimeMax ? "rpages" : "lifetimeMax")
        killed(&output, record: record, app: app, process: process)
        let maxRank = context.int("max_rank")
        if !others.isEmpty {
            output.emit(
                Code.unreadable, severity: .info, title: Words.noRankTitle(app, others.count),
                detail: Words.noRank(app, others), evidence: others.prefix(5).map { record.evidence($0, "lifetimeMax") }
            )
        } else if process.rank <= maxRank {
            output.emit(
                Code.highRank, title: Words.highRankTitle(app, process, record),
                detail: Words.highRank(app, process, record, maxRank: maxRank)
                    + Words.recordsNote(app, m.records, subject: context.subject),
                evidence: [peakEvidence], next: .step("simulator-repro", Words.reproduce))
        }
        let ratio = context.double("dominance_ratio")
        if let runnerUp {
            let other = record.bytes(pages: runnerUp.peakPages)
            if other > 0, peak >= ratio * other {
                output.emit(
                    Code.dominant, title: Words.dominantTitle(app, peak, runnerUp, other),
                    detail: Words.dominant(app, peak, runnerUp, other, ratio: ratio),
                    evidence: [peakEvidence, record.evidence(runnerUp, "lifetimeMax")],
                    next: .change(Words.compareWithNeed))
            }
        }
    }

    /// The subject's own figures in an incomplete record: no rank, no count of processes, and why.
    static func incomplete(
        _ output: inout CheckOutput, records: [JetsamRecord], record: JetsamRecord, app: String, process: Process,
        why: String
    ) {
        let event = record.event
        if event.pageSizeKnown { output.record(Fact.peakMB, .megabytes(bytes: record.bytes(pages: process.peakPages))) }
        output.record(Fact.state, process.states.first.map(FactValue.string))
        output.record(Fact.reason, process.reason.map(FactValue.string))
        output.headline(Fact.peakMB, "lifetime peak")
        output.headline(Fact.state, "state")
        output.emit(
            Code.incomplete, title: Words.incompleteTitle(app, pageSizeKnown: event.pageSizeKnown),
            detail: Words.incomplete(record, app, process, why: why),
            evidence: [record.evidence(process, process.hasLifetimeMax ? "lifetimeMax" : "rpages")],
            next: .collect(.jetsamEvent, Words.collectWhole))
        killed(&output, record: record, app: app, process: process)
        output.impact(Words.incompleteImpact(record, process))
        for other in records { output.event("JetsamEvent recorded", of: other.artifact) }
    }

    /// The kill the record shows, when it shows one: critical at the app's own limit.
    static func killed(_ output: inout CheckOutput, record: JetsamRecord, app: String, process: Process) {
        guard let reason = process.reason else { return }
        output.emit(
            Code.killed, severity: reason == "per-process-limit" ? .critical : nil,
            title: "\(app) was killed: \(reason)",
            detail: Words.killed(record, app, process, reason: reason), evidence: [record.evidence(process, "reason")],
            next: reason == "per-process-limit"
                ? .step("simulator-repro", Words.ownLimit)
                // What the app held in the background answers only for a suspended app; a frontmost or active one
                // was chosen while memory was short, which the compressor's figures show.
                : process.isSuspended
                    ? .step("suspended-footprint", Words.systemNeededSuspended)
                    : .step("compressor-pressure", Words.systemNeededActive))
    }

    /// The headline, the chart of the largest processes, the impact and the records' times.
    static func present(
        _ output: inout CheckOutput, record records: [JetsamRecord], chosen record: JetsamRecord, byPeak: [Process],
        app: String, process: Process
    ) {
        let count = record.event.processes.count
        output.headline(Fact.peakMB, "lifetime peak")
        output.headline(Fact.rank, "rank", "rank \(process.rank) of \(count)")
        output.headline(Fact.state, "state")
        let peak = record.bytes(pages: process.peakPages)
        let ranked = output.facts[Fact.rank.key] != nil
        output.impact(Words.impact(peak, process, count: count, ranked: ranked))
        // A process whose page counts could not be read has no known peak: it is left out of the chart.
        let largest = byPeak.filter(\.unreadable.isEmpty).prefix(10)
        var points: [Series.Point] = largest.map { other in
            let mb = FactValue.megabytes(bytes: record.bytes(pages: other.peakPages)).doubleValue ?? 0
            let isSubject = other.name == process.name && other.pid == process.pid
            return Series.Point(
                label: other.name, value: mb, text: FactUnit.megabytes.format(.double(mb)),
                role: isSubject ? .subject : .plain)
        }
        if !points.contains(where: { $0.role == .subject }) {
            let mb = FactValue.megabytes(bytes: peak).doubleValue ?? 0
            points.append(
                Series.Point(label: app, value: mb, text: FactUnit.megabytes.format(.double(mb)), role: .subject))
        }
        output.chart(
            Series(
                id: "jetsam-top-processes", title: "Lifetime peak: the largest processes of the jetsam record",
                caption: Words.chartCaption(
                    app, process, ranked: ranked, leftOut: byPeak.count { !$0.unreadable.isEmpty }),
                axis: "lifetime peak (MB)", unit: .megabytes, points: points))
        for other in records { output.event("JetsamEvent recorded", of: other.artifact) }
    }
}
