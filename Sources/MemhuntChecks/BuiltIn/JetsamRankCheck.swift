import MemhuntCore
import MemhuntFormats

/// Step 2: the app's lifetime peak and its rank among all processes in the JetsamEvent record.
struct JetsamRankCheck: Check {
    static let description = CheckDescription(
        id: "jetsam-rank",
        title: "Jetsam record: lifetime peak and rank",
        step: "jetsam-record",
        rationale: """
            The JetsamEvent record lists the memory of every process alive at that moment, including apps \
            that did not die. The app's lifetime peak and its rank among all processes say whether it is \
            the one the system had to make room for.
            """,
        reads: [.jetsamEvent],
        facts: [
            "jetsam.records", "jetsam.processes", "jetsam.pageSize", "jetsam.largestProcess", "jetsam.app.peakMB",
            "jetsam.app.rank", "jetsam.app.state", "jetsam.app.reason",
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
        output.record("jetsam.records", .int(records.count))
        output.record("jetsam.processes", .int(event.processes.count))
        output.record("jetsam.pageSize", .int(Int(clamping: event.pageSize)))
        output.record("jetsam.largestProcess", event.largestProcess.map(FactValue.string))

        let listing = records.map { r in
            "\(r.artifact.source) (\(r.event.date ?? "undated"), \(r.event.processes.count) processes"
                + (r.process(of: context.subject) == nil ? "" : ", lists \(context.subject.app ?? "")") + ")"
        }
        guard let app = context.subject.app else {
            let top = record.appsByPeak.prefix(5).map {
                "\($0.name) \(record.bytes(pages: JetsamRecord.peakPages($0)).megabytesText)"
            }
            output.emit(
                Finding(
                    severity: .notice,
                    title: "Which app? Pass --app",
                    detail: "No --app was given and no crash report names one. The five largest app processes by "
                        + "lifetime peak in \(record.artifact.source): " + top.joined(separator: ", ") + ".",
                    evidence: [Evidence(source: record.artifact.source, pointer: "/processes")],
                    next: "Run again with --app NAME (a process name or bundle id)."
                ))
            return output
        }
        guard let process = record.process(of: context.subject) else {
            output.emit(
                Finding(
                    severity: .notice,
                    title: "\(app) is not in the jetsam record",
                    detail: "None of \(records.count) JetsamEvent record(s) lists a process named \(app): "
                        + listing.joined(separator: "; ") + ".",
                    evidence: records.map { Evidence(source: $0.artifact.source) },
                    next: "Check the name (process names are cut at 32 characters) or collect the JetsamEvent "
                        + "from the time the user saw the problem."
                ))
            return output
        }
        let peakPages = JetsamRecord.peakPages(process)
        let peak = record.bytes(pages: peakPages)
        let rank = record.rank(of: process)
        output.record("jetsam.app.peakMB", .megabytes(bytes: peak))
        output.record("jetsam.app.rank", .int(rank))
        output.record("jetsam.app.state", process.states.first.map(FactValue.string))
        output.record("jetsam.app.reason", process.reason.map(FactValue.string))

        let peakEvidence = record.evidence(process, process.lifetimeMax == nil ? "rpages" : "lifetimeMax")
        let recordsNote =
            records.count > 1
            ? " Facts come from the newest record that lists \(app); all records: "
                + listing.joined(separator: "; ") + "." : ""
        if let reason = process.reason {
            output.emit(
                Finding(
                    severity: reason == "per-process-limit" ? .critical : .warning,
                    title: "\(app) was killed: \(reason)",
                    detail: "The jetsam record shows \(app) killed with reason \(reason) at "
                        + "\(record.bytes(pages: process.rpages).megabytesText) footprint.",
                    evidence: [record.evidence(process, "reason")],
                    next: reason == "per-process-limit"
                        ? "It crossed its own footprint limit: find which screen allocates (step 5)."
                        : "The system needed memory: see how much the app held when it was chosen (step 3)."
                ))
        }
        let maxRank = context.int("max_rank") ?? 10
        if rank <= maxRank {
            output.emit(
                Finding(
                    severity: .warning,
                    title:
                        "\(app) ranked \(rank) of \(event.processes.count) processes by lifetime peak (\(peak.megabytesText))",
                    detail: "\(app) used a lifetime maximum of \(peak.megabytesText) (\(peakPages) pages of "
                        + "\(event.pageSize) bytes) and ranked \(rank) among \(event.processes.count) processes "
                        + "(threshold: rank ≤ \(maxRank))." + recordsNote,
                    evidence: [peakEvidence],
                    next: "Reproduce in the simulator to find which screen is responsible (step 5)."
                ))
        }
        let ratio = context.double("dominance_ratio") ?? 2
        if let runnerUp = record.appsByPeak.first(where: { !context.subject.matches($0.name) }) {
            let other = record.bytes(pages: JetsamRecord.peakPages(runnerUp))
            if other > 0, peak >= ratio * other {
                output.emit(
                    Finding(
                        severity: .notice,
                        title: "\(app) \(peak.megabytesText) vs \(runnerUp.name) \(other.megabytesText)",
                        detail:
                            "\(app)'s lifetime peak is \(FactValue.oneDecimal(peak / other))× that of the next app, "
                            + "\(runnerUp.name) (threshold: \(FactValue.oneDecimal(ratio))×).",
                        evidence: [peakEvidence, record.evidence(runnerUp, "lifetimeMax")],
                        next: "Compare with what the app should need: a screen that allocates this much is the lead."
                    ))
            }
        }
        return output
    }
}
