import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// Step 2: the app's lifetime peak and its rank among all processes in the JetsamEvent record.
struct JetsamRankCheck: MeasuringCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let records = FactDescription(
            "jetsam.records", .count, "JetsamEvent records among the artifacts.", better: .neutral)
        static let processes = FactDescription(
            "jetsam.processes", .count,
            "Processes listed in the chosen record (the newest that lists the app; with no app, said only when "
                + "every record lists as many).",
            better: .neutral)
        static let pageSize = FactDescription(
            "jetsam.pageSize", .bytes,
            "Bytes per page of the chosen record: 16,384, or 4,096 on A7/A8 devices (with no app, said only when "
                + "every record has that page size).", better: .neutral)
        static let largestProcess = FactDescription(
            "jetsam.largestProcess", .text,
            "The chosen record's largestProcess field (with no app, said only when every record names it).")
        static let topProcesses = FactDescription(
            "jetsam.topProcesses", .list,
            "The chosen record's ten largest processes by lifetime peak: {name, peakMB, app}, largest first (with "
                + "no app, said only when there is one record).")
        static let peakMB = FactDescription(
            "jetsam.app.peakMB", .megabytes,
            "The subject's lifetime peak: lifetimeMax pages, never below rpages (records up to iOS 12).")
        static let rank = FactDescription(
            "jetsam.app.rank", .count, "1 + the processes of the record with a larger lifetime peak.", better: .higher)
        static let state = FactDescription(
            "jetsam.app.state", .text, "The subject's first state in the record (suspended, frontmost…).")
        static let reason = FactDescription(
            "jetsam.app.reason", .text, "The reason the record gives for killing the subject.")
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let noSubject = FindingCode(
            "jetsam-rank.no-subject", .notice, "No app was named: the largest app processes of the record.",
            examples: [
                .raises(
                    "Fixtures/webcontent", facts: [Fact.records.key: 1, Fact.processes.key: 6], title: "Which app?"),
                .quiet("Fixtures/pressure", app: "JustSend", facts: [Fact.peakMB.key: 640, Fact.rank.key: 2]),
            ])
        static let notListed = FindingCode(
            "jetsam-rank.not-listed", .notice, "The record does not list the subject.",
            examples: [
                .raises(
                    "Fixtures/old-device", app: "JustSend", facts: [Fact.records.key: 1, Fact.processes.key: 6],
                    title: "JustSend is not in the jetsam record"),
                .quiet("Fixtures/pressure", app: "JustSend", facts: [Fact.peakMB.key: 640, Fact.rank.key: 2]),
            ])
        static let killed = FindingCode(
            "jetsam-rank.killed", .warning, "The record shows the subject killed (per-process-limit: critical).",
            examples: [
                .raises(
                    "Fixtures/killed", app: "JustSend", facts: [Fact.peakMB.key: 2098, Fact.rank.key: 1],
                    title: "JustSend was killed: per-process-limit"),
                .quiet("Fixtures/pressure", app: "JustSend", facts: [Fact.peakMB.key: 640, Fact.rank.key: 2]),
            ])
        static let highRank = FindingCode(
            "jetsam-rank.high-rank", .warning, "The subject ranks at or above the threshold by lifetime peak.",
            examples: [
                .raises(
                    "Fixtures/pressure", app: "JustSend", facts: [Fact.peakMB.key: 640, Fact.rank.key: 2],
                    title: "JustSend ranked 2 of 3 processes by lifetime peak (640 MB)"),
                .quiet(
                    "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", app: "MobileMail",
                    facts: [Fact.peakMB.key: 218.8, Fact.rank.key: 11]),
            ])
        static let dominant = FindingCode(
            "jetsam-rank.dominant", .notice, "The subject's peak is the threshold's multiple of the next app's.",
            examples: [
                .raises(
                    "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", app: "JustSend",
                    facts: [Fact.peakMB.key: 725, Fact.rank.key: 7], title: "JustSend 725 MB vs ChatGPT 362 MB"),
                .quiet("Fixtures/pressure", app: "JustSend", facts: [Fact.peakMB.key: 640, Fact.rank.key: 2]),
            ])
        static let unreadable = FindingCode(
            "jetsam-rank.unreadable", .notice,
            "The subject's page counts in the record are no page count (out of range): no peak, no rank.",
            examples: [
                .raises(
                    "Fixtures/examples/jetsam-rank.unreadable/raises", app: "JustSend",
                    facts: [Fact.records.key: 1, Fact.processes.key: 16],
                    title: "JustSend's lifetime peak is not known: lifetimeMax 18446744073709551616000 is no page count"
                ),
                .quiet(
                    "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", app: "JustSend",
                    facts: [Fact.peakMB.key: 725, Fact.rank.key: 7]),
            ])
        static let incomplete = FindingCode(
            "jetsam-rank.incomplete", .notice,
            "The record is incomplete (elided, or process records pasted alone): the subject's own figures, no rank.",
            examples: [
                .raises(
                    "Fixtures/examples/jetsam-rank.incomplete/raises", app: "JustSend",
                    facts: [Fact.peakMB.key: 593.8, Fact.state.key: "frontmost"],
                    title: "JustSend in an incomplete jetsam record: no rank"),
                .quiet("Fixtures/pressure", app: "JustSend", facts: [Fact.peakMB.key: 640, Fact.rank.key: 2]),
            ])
        static let severalProcesses = FindingCode(
            "jetsam-rank.several-processes", .notice,
            "Several processes of the record match the subject's name; the facts are of the largest.",
            examples: [
                .raises(
                    "Fixtures/webcontent", app: "com.apple.WebKit.WebContent",
                    facts: [Fact.peakMB.key: 340, Fact.rank.key: 2],
                    title: "3 processes match com.apple.WebKit.WebContent; the facts are of the largest"),
                .quiet("Fixtures/pressure", app: "JustSend", facts: [Fact.peakMB.key: 640, Fact.rank.key: 2]),
            ])
    }

    static let description = CheckDescription(
        id: "jetsam-rank",
        title: "Jetsam record: lifetime peak and rank",
        step: "jetsam-record",
        rationale: """
            The JetsamEvent record lists the memory of every process alive at that moment, including apps \
            it did not kill. The app's lifetime peak and its rank among all processes say whether it is \
            the one the system had to make room for.
            """,
        reads: [.jetsamEvent],
        facts: [
            Fact.records,
            Fact.processes,
            Fact.pageSize,
            Fact.largestProcess,
            Fact.topProcesses,
            Fact.peakMB,
            Fact.rank,
            Fact.state,
            Fact.reason,
        ],
        codes: [
            Code.noSubject,
            Code.notListed,
            Code.killed,
            Code.highRank,
            Code.dominant,
            Code.severalProcesses,
            Code.unreadable,
            Code.incomplete,
        ],
        parameters: [
            CheckParameter("max_rank", default: 10, "Warn when the app ranks this high or higher by lifetime peak."),
            CheckParameter(
                "dominance_ratio", default: 2.0,
                "Notice when the app's peak is at least this many times the next app's."),
        ]
    )

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

/// Every sentence the check says.
extension JetsamRankCheck {
    enum Words {
        static let whichApp = "Which app?"
        static let nameTheApp = "Name the app under investigation (a process name or bundle id)."
        static let nameByAnOnlyName = "Name the app by a name only one process has, if the largest is not it."
        static let checkTheName =
            "Check the name (process names are cut at 32 characters) or collect the JetsamEvent from the time the "
            + "user saw the problem."
        static let reproduce = "Reproduce in the simulator to find which screen is responsible."
        static let compareWithNeed =
            "Compare with what the app should need: a screen that allocates this much is the lead."
        static let collectWhole = "Collect the JetsamEvent file itself (.ips), whole, from the device."
        static let ownLimit = "It crossed its own footprint limit: find which screen allocates."
        static let systemNeededSuspended = "The system needed memory: see how much the app held when it was chosen."
        static let systemNeededActive =
            "The system needed memory while the app was not suspended: see how short it was."

        /// Artifacts that name several apps leave no subject too: then "no crash report names one" was false beside
        /// step 1's crash reports of 12 apps (the real-world corpus).
        static func noSubject(candidates: Int) -> String {
            candidates > 1
                ? "No app was named, and the artifacts name \(candidates) apps, so none was chosen. "
                : "No app was named and no crash report names one. "
        }

        /// The record's app processes, saying how many there are ("the five largest" of a record with four app
        /// processes was not true).
        static func appsOf(_ record: JetsamRecord, _ apps: [JetsamRankCheck.Process]) -> String {
            let source = record.artifact.source
            if let why = record.event.incompleteness {
                return "\(source) is incomplete (\(why)); the app processes it keeps: "
                    + (apps.isEmpty ? "none" : apps.prefix(5).map(\.name).joined(separator: ", ")) + "."
            }
            let top = apps.prefix(5).map { "\($0.name) \(record.bytes(pages: $0.peakPages).megabytesText)" }
            switch apps.count {
            case 0: return "\(source) lists no app process, only daemons and system services."
            case 1: return "The one app process in \(source): \(top[0])."
            case 2...5:
                return "The \(apps.count) app processes in \(source), by lifetime peak: " + top.joined(separator: ", ")
                    + "."
            default:
                return "The five largest of \(apps.count) app processes by lifetime peak in \(source): "
                    + top.joined(separator: ", ") + "."
            }
        }

        /// Each record: its file, date, process count, and whether it lists the subject.
        static func listing(_ records: [JetsamRecord], subject: Subject) -> [String] {
            records.map { r in
                "\(r.artifact.source) (\(r.event.date ?? "undated"), \(r.event.processes.count) processes"
                    + (r.process(of: subject) == nil ? "" : ", lists \(subject.app ?? "")") + ")"
            }
        }

        static func notListedTitle(_ app: String, incomplete: [String]) -> String {
            incomplete.isEmpty ? "\(app) is not in the jetsam record" : "\(app) is not in what the jetsam records keep"
        }

        /// An incomplete record is no evidence that the app was not listed: what was left out may hold it.
        static func notListed(_ app: String, records: [JetsamRecord], subject: Subject, incomplete: [String]) -> String
        {
            "None of " + Plural.count(records.count, "JetsamEvent record") + " lists a process named \(app): "
                + listing(records, subject: subject).joined(separator: "; ") + "."
                + (incomplete.isEmpty
                    ? " A JetsamEvent lists every process alive when it is taken: \(app) was not running "
                        + "then, or runs under another process name (names are cut at 32 characters)."
                    : " " + incomplete.joined(separator: ", ") + (incomplete.count == 1 ? " is" : " are")
                        + " incomplete (elided or partial): what was left out may list \(app).")
        }

        static func severalTitle(_ count: Int, _ app: String) -> String {
            "\(count) processes match \(app); the facts are of the largest"
        }

        static func several(_ record: JetsamRecord, _ matching: [JetsamRankCheck.Process], _ app: String) -> String {
            let listed = matching.prefix(20).map { p in
                "\(p.name)" + (p.pid.map { " pid \($0)" } ?? "") + " \(record.bytes(pages: p.peakPages).megabytesText)"
            }
            return "\(record.artifact.source) lists \(matching.count) processes that match \(app), by lifetime "
                + "peak: " + listed.joined(separator: ", ") + (matching.count > 20 ? ", …" : "")
                + ". This step's peak, rank and state are of the largest."
        }

        static func unreadablePeakTitle(_ app: String, _ process: JetsamRankCheck.Process) -> String {
            "\(app)'s lifetime peak is not known: " + process.unreadable.joined(separator: ", ") + " is no page count"
        }

        static func unreadablePeak(_ record: JetsamRecord, _ app: String, _ process: JetsamRankCheck.Process) -> String
        {
            "\(record.artifact.source) gives \(app) " + process.unreadable.joined(separator: ", ")
                + ", which is no page count (out of range or not a whole number). No peak and no rank are "
                + "given rather than a guess; the record as the device wrote it, whole, would settle it."
        }

        static func noRankTitle(_ app: String, _ count: Int) -> String {
            "No rank for \(app): " + Plural.count(count, "process", "processes")
                + " of the record have page counts that could not be read"
        }

        static func noRank(_ app: String, _ others: [JetsamRankCheck.Process]) -> String {
            others.prefix(5).map { "\($0.name): " + $0.unreadable.joined(separator: ", ") }.joined(separator: "; ")
                + ". Their peaks are not known, so neither is how \(app) ranks among them."
        }

        static func highRankTitle(_ app: String, _ process: JetsamRankCheck.Process, _ record: JetsamRecord) -> String {
            "\(app) ranked \(process.rank) of \(record.event.processes.count) processes by lifetime peak "
                + "(\(record.bytes(pages: process.peakPages).megabytesText))"
        }

        static func highRank(_ app: String, _ process: JetsamRankCheck.Process, _ record: JetsamRecord, maxRank: Int)
            -> String
        {
            let event = record.event
            return "\(app) used a lifetime maximum of \(record.bytes(pages: process.peakPages).megabytesText) ("
                + "\(FactValue.grouped(Int(clamping: process.peakPages))) pages of "
                + "\(FactValue.grouped(Int(clamping: event.pageSize))) bytes) and ranked \(process.rank) among "
                + "\(event.processes.count) processes (threshold: rank ≤ \(maxRank))."
        }

        static func recordsNote(_ app: String, _ records: [JetsamRecord], subject: Subject) -> String {
            records.count > 1
                ? " Facts come from the newest record that lists \(app); all records: "
                    + listing(records, subject: subject).joined(separator: "; ") + "." : ""
        }

        static func dominantTitle(_ app: String, _ peak: Double, _ runnerUp: JetsamRankCheck.Process, _ other: Double)
            -> String
        {
            "\(app) \(peak.megabytesText) vs \(runnerUp.name) \(other.megabytesText)"
        }

        static func dominant(
            _ app: String, _ peak: Double, _ runnerUp: JetsamRankCheck.Process, _ other: Double, ratio: Double
        ) -> String {
            "\(app)'s lifetime peak is \(FactValue.oneDecimal(peak / other))× that of the next app, "
                + "\(runnerUp.name) (threshold: \(FactValue.oneDecimal(ratio))×)."
        }

        static func incompleteTitle(_ app: String, pageSizeKnown: Bool) -> String {
            "\(app) in an incomplete jetsam record: \(pageSizeKnown ? "" : "no size in bytes, ")no rank"
        }

        static func incomplete(_ record: JetsamRecord, _ app: String, _ process: JetsamRankCheck.Process, why: String)
            -> String
        {
            let peak =
                record.event.pageSizeKnown
                ? "a lifetime peak of \(record.bytes(pages: process.peakPages).megabytesText)"
                : "a lifetime peak of \(FactValue.grouped(Int(clamping: process.peakPages))) pages, which the paste "
                    + "gives no page size to say in bytes"
            let state = process.states.first.map { ", \($0)" } ?? ""
            return "\(record.artifact.source) is incomplete (\(why)). It gives \(app) \(peak)\(state). How many "
                + "processes the record had, and how \(app) ranked among them, is not known; nor are the system's "
                + "figures beyond what it keeps. The record as the device wrote it, whole, would settle it."
        }

        static func incompleteImpact(_ record: JetsamRecord, _ process: JetsamRankCheck.Process) -> String {
            "Jetsam record (incomplete): "
                + (record.event.pageSizeKnown
                    ? "lifetime peak \(record.bytes(pages: process.peakPages).megabytesText)"
                    : "peak \(FactValue.grouped(Int(clamping: process.peakPages))) pages")
                + (process.states.first.map { ", \($0)" } ?? "") + ", no rank."
        }

        static func killed(_ record: JetsamRecord, _ app: String, _ process: JetsamRankCheck.Process, reason: String)
            -> String
        {
            let footprint =
                record.event.pageSizeKnown
                ? "\(record.bytes(pages: process.residentPages).megabytesText) footprint (rpages)"
                : "\(FactValue.grouped(Int(clamping: process.residentPages))) pages of footprint (rpages)"
            return "The jetsam record shows \(app) killed with reason \(reason) at \(footprint)."
        }

        static func impact(_ peak: Double, _ process: JetsamRankCheck.Process, count: Int, ranked: Bool) -> String {
            "Jetsam record: lifetime peak \(peak.megabytesText)"
                + (ranked ? ", rank \(process.rank) of \(count) processes" : "")
                + (process.states.first.map { ", " + $0 } ?? "") + "."
        }

        static func chartCaption(_ app: String, _ process: JetsamRankCheck.Process, ranked: Bool, leftOut: Int)
            -> String
        {
            "\(app) (highlighted" + (ranked ? ", rank \(process.rank)" : "")
                + ") against the record's largest processes by lifetime peak"
                + (leftOut == 0 ? "." : "; processes whose page counts could not be read are left out.")
        }
    }
}
