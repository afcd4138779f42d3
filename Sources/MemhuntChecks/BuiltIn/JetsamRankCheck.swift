import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// Step 2: the app's lifetime peak and its rank among all processes in the JetsamEvent record.
struct JetsamRankCheck: Check {
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
                .raises("Fixtures/webcontent"),
                .quiet("Fixtures/pressure", app: "JustSend"),
            ])
        static let notListed = FindingCode(
            "jetsam-rank.not-listed", .notice, "The record does not list the subject.",
            examples: [
                .raises("Fixtures/old-device", app: "JustSend"),
                .quiet("Fixtures/pressure", app: "JustSend"),
            ])
        static let killed = FindingCode(
            "jetsam-rank.killed", .warning, "The record shows the subject killed (per-process-limit: critical).",
            examples: [
                .raises("Fixtures/killed", app: "JustSend"),
                .quiet("Fixtures/pressure", app: "JustSend"),
            ])
        static let highRank = FindingCode(
            "jetsam-rank.high-rank", .warning, "The subject ranks at or above the threshold by lifetime peak.",
            examples: [
                .raises("Fixtures/pressure", app: "JustSend"),
                .quiet("Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", app: "MobileMail"),
            ])
        static let dominant = FindingCode(
            "jetsam-rank.dominant", .notice, "The subject's peak is the threshold's multiple of the next app's.",
            examples: [
                .raises("Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", app: "JustSend"),
                .quiet("Fixtures/pressure", app: "JustSend"),
            ])
        static let unreadable = FindingCode(
            "jetsam-rank.unreadable", .notice,
            "The subject's page counts in the record are no page count (out of range): no peak, no rank.",
            examples: [
                .raises("Fixtures/examples/jetsam-rank.unreadable/raises", app: "JustSend"),
                .quiet("Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", app: "JustSend"),
            ])
        static let incomplete = FindingCode(
            "jetsam-rank.incomplete", .notice,
            "The record is incomplete (elided, or process records pasted alone): the subject's own figures, no rank.",
            examples: [
                .raises("Fixtures/examples/jetsam-rank.incomplete/raises", app: "JustSend"),
                .quiet("Fixtures/pressure", app: "JustSend"),
            ])
        static let severalProcesses = FindingCode(
            "jetsam-rank.several-processes", .notice,
            "Several processes of the record match the subject's name; the facts are of the largest.",
            examples: [
                .raises("Fixtures/webcontent", app: "com.apple.WebKit.WebContent"),
                .quiet("Fixtures/pressure", app: "JustSend"),
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

    func run(_ context: CheckContext) async throws -> CheckOutput {
        var output = CheckOutput()
        let records = JetsamRecord.all(in: context)
        guard let record = JetsamRecord.chosen(in: context) else { return CheckOutput(noInput: true) }
        let event = record.event
        output.record(Fact.records, .int(records.count))
        // With no app, no record is the subject's: a value of one record is said as the run's only where every
        // record gives it (six JetsamEvents said 16,384-byte pages, two of them of 4 KiB pages).
        let oneRecord = context.subject.app != nil || records.count == 1
        func agreed<T: Equatable>(_ value: (JetsamSnapshot) -> T) -> Bool {
            oneRecord || records.allSatisfy { value($0.event) == value(event) }
        }
        // An incomplete record (elided, or process records pasted alone) does not list every process: no count,
        // no ten largest. Process records alone give no page size.
        if event.complete, agreed({ $0.complete ? $0.processes.count : -1 }) {
            output.record(Fact.processes, .int(event.processes.count))
        }
        if event.pageSizeKnown, agreed({ $0.pageSizeKnown ? $0.pageSize : 0 }) {
            output.record(Fact.pageSize, .int(Int(clamping: event.pageSize)))
        }
        if agreed(\.largestProcess) { output.record(Fact.largestProcess, event.largestProcess.map(FactValue.string)) }
        let largest = event.processes.enumerated().sorted { a, b in
            a.element.peakPages != b.element.peakPages ? a.element.peakPages > b.element.peakPages : a.offset < b.offset
        }
        if event.complete, event.pageSizeKnown, oneRecord {
            output.record(
                Fact.topProcesses.key,
                .array(
                    largest.prefix(10).map { _, process in
                        [
                            "name": .string(process.name),
                            "peakMB": .megabytes(bytes: record.bytes(pages: process.peakPages)),
                            "app": .bool(process.isApp),
                        ]
                    }))
        }

        let listing = records.map { r in
            "\(r.artifact.source) (\(r.event.date ?? "undated"), \(r.event.processes.count) processes"
                + (r.process(of: context.subject) == nil ? "" : ", lists \(context.subject.app ?? "")") + ")"
        }
        guard let app = context.subject.app else {
            let apps = record.appsByPeak
            let top = apps.prefix(5).map { "\($0.name) \(record.bytes(pages: $0.peakPages).megabytesText)" }
            // Says how many there are: "the five largest" of a record with four app processes was not true.
            let listed =
                if let why = event.incompleteness {
                    "\(record.artifact.source) is incomplete (\(why)); the app processes it keeps: "
                        + (apps.isEmpty ? "none" : apps.prefix(5).map(\.name).joined(separator: ", ")) + "."
                } else {
                    switch apps.count {
                    case 0: "\(record.artifact.source) lists no app process, only daemons and system services."
                    case 1: "The one app process in \(record.artifact.source): \(top[0])."
                    case 2...5:
                        "The \(apps.count) app processes in \(record.artifact.source), by lifetime peak: "
                            + top.joined(separator: ", ") + "."
                    default:
                        "The five largest of \(apps.count) app processes by lifetime peak in \(record.artifact.source): "
                            + top.joined(separator: ", ") + "."
                    }
                }
            // Artifacts that name several apps leave no subject too: then "no crash report names one" was false
            // beside step 1's crash reports of 12 apps (the real-world corpus).
            let candidates = context.subject.candidates ?? []
            let why =
                candidates.count > 1
                ? "No app was named, and the artifacts name \(candidates.count) apps, so none was chosen. "
                : "No app was named and no crash report names one. "
            output.emit(
                Finding(
                    code: Code.noSubject.code,
                    severity: .notice,
                    title: "Which app?",
                    detail: why + listed,
                    evidence: [Evidence(source: record.artifact.source, pointer: "/processes")],
                    next: .decide(.chooseApp, "Name the app under investigation (a process name or bundle id).")
                ))
            return output
        }
        guard let process = record.process(of: context.subject) else {
            // An incomplete record is no evidence that the app was not listed: what was left out may hold it.
            let incomplete = records.filter { !$0.event.complete }.map(\.artifact.source)
            output.emit(
                Finding(
                    code: Code.notListed.code,
                    severity: .notice,
                    title: incomplete.isEmpty
                        ? "\(app) is not in the jetsam record" : "\(app) is not in what the jetsam records keep",
                    detail: "None of " + Plural.count(records.count, "JetsamEvent record")
                        + " lists a process named \(app): "
                        + listing.joined(separator: "; ") + "."
                        + (incomplete.isEmpty
                            ? " A JetsamEvent lists every process alive when it is taken: \(app) was not running "
                                + "then, or runs under another process name (names are cut at 32 characters)."
                            : " " + incomplete.joined(separator: ", ") + (incomplete.count == 1 ? " is" : " are")
                                + " incomplete (elided or partial): what was left out may list \(app)."),
                    evidence: records.map { Evidence(source: $0.artifact.source) },
                    next: .collect(
                        .jetsamEvent,
                        "Check the name (process names are cut at 32 characters) or collect the JetsamEvent "
                            + "from the time the user saw the problem.")
                ))
            return output
        }
        let matching = record.processes(of: context.subject)
        if matching.count > 1 {
            let listed = matching.prefix(20).map { p in
                "\(p.name)" + (p.pid.map { " pid \($0)" } ?? "") + " \(record.bytes(pages: p.peakPages).megabytesText)"
            }
            output.emit(
                Finding(
                    code: Code.severalProcesses.code,
                    severity: .notice,
                    title: "\(matching.count) processes match \(app); the facts are of the largest",
                    detail:
                        "\(record.artifact.source) lists \(matching.count) processes that match \(app), by lifetime "
                        + "peak: " + listed.joined(separator: ", ") + (matching.count > 20 ? ", …" : "")
                        + ". This step's peak, rank and state are of the largest.",
                    evidence: matching.prefix(20).map { record.evidence($0, "name") },
                    next: .decide(.chooseApp, "Name the app by a name only one process has, if the largest is not it.")
                ))
        }
        // A page count present and unreadable is never guessed: the subject's own means no peak and no rank;
        // another process's means no rank (its peak could be above the subject's).
        if !process.unreadable.isEmpty {
            output.emit(
                Code.unreadable,
                title: "\(app)'s lifetime peak is not known: " + process.unreadable.joined(separator: ", ")
                    + " is no page count",
                detail: "\(record.artifact.source) gives \(app) " + process.unreadable.joined(separator: ", ")
                    + ", which is no page count (out of range or not a whole number). No peak and no rank are "
                    + "given rather than a guess; the record as the device wrote it, whole, would settle it.",
                evidence: [record.evidence(process, "lifetimeMax")])
            return output
        }
        if let why = event.incompleteness {
            Self.incomplete(&output, records: records, record: record, app: app, process: process, why: why)
            return output
        }
        let others = event.processes.filter { !$0.unreadable.isEmpty }
        let peakPages = process.peakPages
        let peak = record.bytes(pages: peakPages)
        let rank = process.rank
        output.record(Fact.peakMB, .megabytes(bytes: peak))
        if others.isEmpty { output.record(Fact.rank, .int(rank)) }
        output.record(Fact.state, process.states.first.map(FactValue.string))
        output.record(Fact.reason, process.reason.map(FactValue.string))
        Self.present(
            &output, record: records, chosen: record, byPeak: largest.map(\.element), app: app, process: process)

        let peakEvidence = record.evidence(process, !process.hasLifetimeMax ? "rpages" : "lifetimeMax")
        let recordsNote =
            records.count > 1
            ? " Facts come from the newest record that lists \(app); all records: "
                + listing.joined(separator: "; ") + "." : ""
        Self.killed(&output, record: record, app: app, process: process)
        let maxRank = context.int("max_rank")
        if !others.isEmpty {
            output.emit(
                Code.unreadable, severity: .info,
                title: "No rank for \(app): " + Plural.count(others.count, "process", "processes")
                    + " of the record have page counts that could not be read",
                detail: others.prefix(5).map { "\($0.name): " + $0.unreadable.joined(separator: ", ") }
                    .joined(separator: "; ")
                    + ". Their peaks are not known, so neither is how \(app) ranks among them.",
                evidence: others.prefix(5).map { record.evidence($0, "lifetimeMax") })
        } else if rank <= maxRank {
            output.emit(
                Finding(
                    code: Code.highRank.code,
                    severity: .warning,
                    title:
                        "\(app) ranked \(rank) of \(event.processes.count) processes by lifetime peak (\(peak.megabytesText))",
                    detail: "\(app) used a lifetime maximum of \(peak.megabytesText) ("
                        + "\(FactValue.grouped(Int(clamping: peakPages))) pages of "
                        + "\(FactValue.grouped(Int(clamping: event.pageSize))) bytes) and ranked \(rank) among \(event.processes.count) processes "
                        + "(threshold: rank ≤ \(maxRank))." + recordsNote,
                    evidence: [peakEvidence],
                    next: .step("simulator-repro", "Reproduce in the simulator to find which screen is responsible.")
                ))
        }
        let ratio = context.double("dominance_ratio")
        if let runnerUp = record.appsByPeak.first(where: { !context.subject.matches($0.name) }) {
            let other = record.bytes(pages: runnerUp.peakPages)
            if other > 0, peak >= ratio * other {
                output.emit(
                    Finding(
                        code: Code.dominant.code,
                        severity: .notice,
                        title: "\(app) \(peak.megabytesText) vs \(runnerUp.name) \(other.megabytesText)",
                        detail:
                            "\(app)'s lifetime peak is \(FactValue.oneDecimal(peak / other))× that of the next app, "
                            + "\(runnerUp.name) (threshold: \(FactValue.oneDecimal(ratio))×).",
                        evidence: [peakEvidence, record.evidence(runnerUp, "lifetimeMax")],
                        next: .change(
                            "Compare with what the app should need: a screen that allocates this much is the lead.")
                    ))
            }
        }
        return output
    }

    /// The subject's own figures in an incomplete record: no rank, no count of processes, and why.
    static func incomplete(
        _ output: inout CheckOutput, records: [JetsamRecord], record: JetsamRecord, app: String,
        process: JetsamSnapshot.Process, why: String
    ) {
        let event = record.event
        if event.pageSizeKnown { output.record(Fact.peakMB, .megabytes(bytes: record.bytes(pages: process.peakPages))) }
        output.record(Fact.state, process.states.first.map(FactValue.string))
        output.record(Fact.reason, process.reason.map(FactValue.string))
        output.headline(Fact.peakMB, "lifetime peak")
        output.headline(Fact.state, "state")
        let pages = FactValue.grouped(Int(clamping: process.peakPages))
        let peak =
            event.pageSizeKnown
            ? "a lifetime peak of \(record.bytes(pages: process.peakPages).megabytesText)"
            : "a lifetime peak of \(pages) pages, which the paste gives no page size to say in bytes"
        let state = process.states.first.map { ", \($0)" } ?? ""
        output.emit(
            Code.incomplete,
            title: "\(app) in an incomplete jetsam record: \(event.pageSizeKnown ? "" : "no size in bytes, ")no rank",
            detail: "\(record.artifact.source) is incomplete (\(why)). It gives \(app) \(peak)\(state). How many "
                + "processes the record had, and how \(app) ranked among them, is not known; nor are the system's "
                + "figures beyond what it keeps. The record as the device wrote it, whole, would settle it.",
            evidence: [record.evidence(process, process.hasLifetimeMax ? "lifetimeMax" : "rpages")],
            next: .collect(.jetsamEvent, "Collect the JetsamEvent file itself (.ips), whole, from the device."))
        killed(&output, record: record, app: app, process: process)
        output.impact(
            "Jetsam record (incomplete): "
                + (event.pageSizeKnown
                    ? "lifetime peak \(record.bytes(pages: process.peakPages).megabytesText)" : "peak \(pages) pages")
                + state + ", no rank.")
        for other in records { output.event("JetsamEvent recorded", of: other.artifact) }
    }

    /// The kill the record shows, when it shows one.
    static func killed(
        _ output: inout CheckOutput, record: JetsamRecord, app: String, process: JetsamSnapshot.Process
    ) {
        guard let reason = process.reason else { return }
        let footprint =
            record.event.pageSizeKnown
            ? "\(record.bytes(pages: process.residentPages).megabytesText) footprint (rpages)"
            : "\(FactValue.grouped(Int(clamping: process.residentPages))) pages of footprint (rpages)"
        output.emit(
            Finding(
                code: Code.killed.code,
                severity: reason == "per-process-limit" ? .critical : .warning,
                title: "\(app) was killed: \(reason)",
                detail: "The jetsam record shows \(app) killed with reason \(reason) at \(footprint).",
                evidence: [record.evidence(process, "reason")],
                next: reason == "per-process-limit"
                    ? .step("simulator-repro", "It crossed its own footprint limit: find which screen allocates.")
                    // What the app held in the background answers only for a suspended app; a frontmost or
                    // active one was chosen while memory was short, which the compressor's figures show.
                    : process.isSuspended
                        ? .step(
                            "suspended-footprint",
                            "The system needed memory: see how much the app held when it was chosen.")
                        : .step(
                            "compressor-pressure",
                            "The system needed memory while the app was not suspended: see how short it was.")
            ))
    }

    /// The headline, the chart of the largest processes, the impact and the records' times.
    static func present(
        _ output: inout CheckOutput, record records: [JetsamRecord], chosen record: JetsamRecord,
        byPeak: [JetsamSnapshot.Process], app: String, process: JetsamSnapshot.Process
    ) {
        let count = record.event.processes.count
        let state = process.states.first
        output.headline(Fact.peakMB, "lifetime peak")
        output.headline(Fact.rank, "rank", "rank \(process.rank) of \(count)")
        output.headline(Fact.state, "state")
        let peak = record.bytes(pages: process.peakPages)
        let ranked = output.facts[Fact.rank.key] != nil
        output.impact(
            "Jetsam record: lifetime peak \(peak.megabytesText)"
                + (ranked ? ", rank \(process.rank) of \(count) processes" : "") + (state.map { ", " + $0 } ?? "") + "."
        )
        // A process whose page counts could not be read has no known peak: it is left out of the chart.
        let largest = byPeak.filter(\.unreadable.isEmpty).prefix(10)
        var points: [Series.Point] = largest.map { other in
            let mb = FactValue.megabytes(bytes: record.bytes(pages: other.peakPages)).doubleValue ?? 0
            let isSubject = other.name == process.name && other.pid == process.pid
            let role: Series.Role = isSubject ? .subject : .plain
            return Series.Point(label: other.name, value: mb, text: FactUnit.megabytes.format(.double(mb)), role: role)
        }
        if !points.contains(where: { $0.role == .subject }) {
            let mb = FactValue.megabytes(bytes: peak).doubleValue ?? 0
            points.append(
                Series.Point(label: app, value: mb, text: FactUnit.megabytes.format(.double(mb)), role: .subject))
        }
        output.chart(
            Series(
                id: "jetsam-top-processes", title: "Lifetime peak: the largest processes of the jetsam record",
                caption: "\(app) (highlighted" + (ranked ? ", rank \(process.rank)" : "")
                    + ") against the record's largest processes by lifetime peak"
                    + (byPeak.count { !$0.unreadable.isEmpty } == 0
                        ? "." : "; processes whose page counts could not be read are left out."),
                axis: "lifetime peak (MB)", unit: .megabytes, points: Array(points)))
        for other in records { output.event("JetsamEvent recorded", of: other.artifact) }
    }
}
