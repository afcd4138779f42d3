import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// Step 1: the subject's crash reports, and how the newest one ended; before it says the app stayed
/// alive, every other sign of an ending among the artifacts (a jetsam kill, MetricKit's exit counts,
/// MetricKit crash diagnostics).
struct CrashReportCheck: MeasuringCheck {
    typealias Sign = EndingSign

    /// The crash reports, the subject they are weighed for (the named app, or the one app every report names),
    /// the subject's reports, and the other signs that it ended.
    struct Measurement {
        var all: [(artifact: Artifact, report: CrashReport)]
        var subject: Subject
        var mine: [(artifact: Artifact, report: CrashReport)]
        var signs: [Sign]
        /// The subject's newest report (by time, then the order given).
        var newest: (artifact: Artifact, report: CrashReport)? {
            mine.enumerated().max(by: { a, b in
                (a.element.report.time ?? 0, a.offset) < (b.element.report.time ?? 0, b.offset)
            })?.element
        }
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        let all = context.artifacts(of: .crashReport).compactMap { artifact -> (Artifact, CrashReport)? in
            guard case .crashReport(let report)? = artifact.content else { return nil }
            return (artifact, report)
        }
        var subject = context.subject
        // Without a subject (inspect, or a run whose artifacts disagree), reports that all name one app are its.
        if subject.app == nil, let first = all.first?.1.appName,
            all.allSatisfy({ Subject(app: first, origin: .none).matches($0.1.appName) })
        {
            subject = Subject(app: first, bundleID: all.first?.1.bundleID, origin: .crashReports)
        }
        var context = context
        context.subject = subject
        // The engine has left out reports of other apps; a report that names nothing would not be here either.
        return Measurement(
            all: all.map { (artifact: $0.0, report: $0.1) }, subject: subject,
            mine: all.filter { ArtifactOwner.belongs($0.0, to: subject) != false }.map {
                (artifact: $0.0, report: $0.1)
            },
            signs: subject.app == nil ? [] : EndingSign.all(of: subject, in: context))
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        var context = context
        context.subject = m.subject
        guard let app = m.subject.app else {
            output = Self.withoutSubject(m.all.map { ($0.artifact, $0.report) }, context: context)
            return
        }
        output.record(Fact.reports, .int(m.mine.count))
        output.record(Fact.ended, .bool(!m.mine.isEmpty || !m.signs.isEmpty))
        output.record(
            Fact.endedBy.key,
            .array(((m.mine.isEmpty ? [] : ["crash-report"]) + Self.unique(m.signs.map(\.tag))).map(FactValue.string)))
        guard let (artifact, report) = m.newest else {
            output.record(Fact.kind, .string(CrashKind.none.rawValue))
            output.emit(
                m.signs.isEmpty
                    ? Self.none(app, context: context) : Self.endedWithoutReport(app, m.signs, context: context))
            Self.present(&output, reports: [], signs: m.signs, context: context)
            return
        }
        let snapshot = CrashSnapshot(report)
        Self.recordFacts(report, snapshot, to: &output)
        let name = report.appName ?? app
        output.emit(
            Code.ended, severity: Self.severity(report.kind),
            title: "\(name) \(Self.verb(report.kind)): \(Self.explain(report))",
            detail: Plural.count(m.mine.count, "crash report") + " of \(name); the newest"
                + (report.date.map { " (\($0))" } ?? "") + " is \(report.kind.rawValue). "
                + Self.describe(report, snapshot: snapshot)
                + (m.signs.isEmpty
                    ? "" : " Other signs of an ending: " + m.signs.map(\.text).joined(separator: "; ") + "."),
            evidence: [Evidence(source: artifact.source)] + m.signs.map(\.evidence), next: Self.next(report))
        Self.present(&output, reports: m.mine.map(\.artifact), signs: m.signs, context: context)
    }

    /// The newest report's facts: its kind, exception, termination, OS, device, version, frames and file locks.
    static func recordFacts(_ report: CrashReport, _ snapshot: CrashSnapshot, to output: inout CheckOutput) {
        output.record(Fact.kind, .string(report.kind.rawValue))
        output.record(Fact.exception, snapshot.exceptionLine.map(FactValue.string))
        output.record(Fact.termination, snapshot.termination.map(FactValue.string))
        output.record(
            Fact.terminationReason.key,
            snapshot.terminationReason.map { .string($0.split(separator: "\n").joined(separator: " | ")) })
        output.record(Fact.os, report.osVersion.map(FactValue.string))
        output.record(Fact.device, report.device.map(FactValue.string))
        output.record(Fact.appVersion, report.appVersion.map(FactValue.string))
        if !report.frames.isEmpty { output.record(Fact.frames, .array(report.frames.map(FactValue.string))) }
        if !report.fileLockEvidence.isEmpty {
            output.record(Fact.fileLock, .array(report.fileLockEvidence.map(FactValue.string)))
        }
    }

    /// The headline, the impact and the timeline of what the run shows of an ending.
    static func present(_ output: inout CheckOutput, reports: [Artifact], signs: [Sign], context: CheckContext) {
        let kind = output.facts[Fact.kind.key]?.stringValue ?? CrashKind.none.rawValue
        if reports.isEmpty, let unread = context.unreadNote(.crashReport, as: "a crash report") {
            output.headline(Fact.reports, "crash reports", "no crash report read")
            output.impact("No crash report was read: \(unread).")
        } else if reports.isEmpty {
            output.headline(Fact.reports, "crash reports", "no crash report")
            output.impact(
                signs.isEmpty
                    ? "No crash report among the artifacts, and nothing in them shows the app ended."
                    : "No crash report among the artifacts, but they show the app ended ("
                        + unique(signs.map(\.tag)).joined(separator: ", ") + ").")
            let listed = JetsamRecord.all(in: context).contains { !$0.processes(of: context.subject).isEmpty }
            if listed {
                output.strength(
                    signs.isEmpty
                        ? "The jetsam record listed the app alive, with its peak and rank, where there was no crash report."
                        : "The jetsam record gave the app's peak and rank where there was no crash report.")
            }
        } else {
            let count = Plural.count(reports.count, "crash report")
            output.headline(Fact.reports, "crash reports", count + ", the newest " + kind)
            output.impact("Crash reports: \(count), the newest of kind \(kind).")
        }
        for artifact in reports { output.event("Crash report written", of: artifact) }
    }

    // MARK: - Without a crash report

    /// No crash report and nothing else showing an ending. "Alive" only with a jetsam record that lists the
    /// app, and only for that record's moment: no artifact here shows what came after it.
    static func none(_ app: String, context: CheckContext) -> Finding {
        // A file that may be a crash report and could not be read: nothing is said of an absence, nor of life.
        if let unread = context.unreadNote(.crashReport, as: "a crash report") {
            return Code.crashReportNone.finding(
                severity: .notice,
                title: "No crash report of \(app) was read: \(unread)",
                detail: "\(unread.prefix(1).uppercased() + unread.dropFirst()), so whether a crash report of \(app) is "
                    + "among the artifacts is not known, nor whether the app ended. The crash report, read whole, would "
                    + "settle it.",
                evidence: context.unread.prefix(3).map { Evidence(source: $0.source) },
                next: .collect(.crashReport, "Collect the file again whole, or export it from the device as .ips."))
        }
        let alive = JetsamRecord.all(in: context).reversed().compactMap {
            record -> (JetsamRecord, JetsamSnapshot.Process)? in
            record.processes(of: context.subject).first.map { (record, $0) }
        }.first
        if let (record, process) = alive {
            let state = process.states.first.map { " (\($0))" } ?? ""
            let when = record.event.date.map { " of \($0)" } ?? ""
            return Code.crashReportNone.finding(
                title: "No crash report of \(app), and no sign that it ended: the jetsam record lists it alive",
                detail: "No crash report of \(app) among the artifacts, no kill reason for it in any jetsam record and "
                    + "no MetricKit exit count; the jetsam record\(when) lists it alive\(state). That is the record's "
                    + "moment; no artifact here shows what came after it. Slowness in an app that stays alive leaves "
                    + "no crash log; that is information, not a gap.",
                evidence: [record.evidence(process, "states")],
                next: .step("jetsam-record", "Read the jetsam record: its peak and rank say what the living app held."))
        }
        // A crash SDK's claim that a run ended is an inference of its next launch, not an OS record: said as such.
        let claims = EndingSign.sdkClaims(of: context.subject, in: context)
        if !claims.isEmpty {
            return Code.crashReportNone.finding(
                title: "No crash report of \(app) among the artifacts; a crash SDK says a run ended",
                detail:
                    "No crash report of \(app), and no OS record among the artifacts shows it ended (no jetsam kill "
                    + "reason, no MetricKit exit count or crash diagnostic). A crash SDK's export says a run ended ("
                    + claims.prefix(5).joined(separator: "; ") + (claims.count > 5 ? "; …" : "")
                    + "): an SDK infers that on the next launch, and no OS record here confirms it.",
                next: .collect(
                    .jetsamEvent, "Collect the jetsam record of the time the SDK gives: it tells how the run ended."))
        }
        return Code.crashReportNone.finding(
            title: "No crash report of \(app) among the artifacts",
            detail: "No crash report of \(app), and nothing among the artifacts shows it ended (no jetsam kill reason, "
                + "no MetricKit exit count or crash diagnostic). That it was alive needs a jetsam record that lists "
                + "it: no crash report alone does not show it.",
            next: .collect(
                .jetsamEvent,
                "Collect the jetsam record: it lists every process alive at that moment, not only the dead."))
    }

    static func endedWithoutReport(_ app: String, _ signs: [Sign], context: CheckContext) -> Finding {
        let killed = signs.contains { $0.tag == "jetsam" || $0.tag == "kill-log" }
        let inRecord = signs.contains { $0.tag == "jetsam" }
        return Code.endedWithoutReport.finding(
            title: "No crash report of \(app)"
                + (context.unreadNote(.crashReport, as: "a crash report").map { " was read (\($0))" } ?? "")
                + ", but it ended: " + signs.map(\.text).joined(separator: "; "),
            detail: "No crash report of \(app) among the artifacts, yet other artifacts show it ended: "
                + signs.map(\.text).joined(separator: "; ") + "."
                + (killed
                    ? " A jetsam kill leaves no crash report; "
                        + (inRecord ? "the kill reason is in the jetsam record." : "the log's kill lines tell it.")
                    : " MetricKit counts endings in the field; the device's crash report says how."),
            evidence: signs.map(\.evidence),
            next: killed
                ? .step("jetsam-record", "Read what the app held when it was killed.")
                : .collect(.crashReport, "Collect the app's crash reports (.ips) from the same days."))
    }

    // MARK: - Without a subject

    /// No subject: each crash report counts for the app it names, and the person picks one.
    static func withoutSubject(_ all: [(Artifact, CrashReport)], context: CheckContext) -> CheckOutput {
        var output = CheckOutput()
        var groups: [(app: String, reports: [(Artifact, CrashReport)])] = []
        for entry in all {
            let app = entry.1.appName ?? "unnamed"
            if let index = groups.firstIndex(where: { Subject(app: $0.app, origin: .none).matches(app) }) {
                groups[index].reports.append(entry)
            } else {
                groups.append((app, [entry]))
            }
        }
        guard !groups.isEmpty else {
            output.record(Fact.kind, .string(CrashKind.none.rawValue))
            output.emit(
                Code.crashReportNone,
                title: context.unreadNote(.crashReport, as: "a crash report").map {
                    "No crash report was read: " + $0
                }
                    ?? "No crash report among the artifacts",
                detail: "No crash report was read, and no app was named; without one, no other "
                    + "artifact is weighed for an ending.",
                next: .decide(.chooseApp, "Name the app under investigation (a process name or bundle id)."))
            return output
        }
        output.record(Fact.apps, .int(groups.count))
        let listing = groups.map { group -> String in
            let kinds = unique(group.reports.map(\.1.kind.rawValue)).joined(separator: ", ")
            return group.app + " (" + Plural.count(group.reports.count, "report") + ": " + kinds + ")"
        }
        output.emit(
            Code.severalApps,
            title: "Crash reports of " + Plural.count(groups.count, "app") + ": "
                + groups.map { "\($0.app) \($0.reports.count)" }.joined(separator: ", "),
            detail: "The crash reports name different apps, so none is the subject and each report counts for "
                + "its own app: " + listing.joined(separator: "; ") + ".",
            evidence: all.map { Evidence(source: $0.0.source) },
            next: .decide(
                .chooseApp, "Name the app under investigation: " + groups.map(\.app).joined(separator: ", ") + "."))
        return output
    }
}
