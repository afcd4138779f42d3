import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// Step 1: the subject's crash reports, and how the newest one ended; before it says the app stayed
/// alive, every other sign of an ending among the artifacts (a jetsam kill, MetricKit's exit counts,
/// MetricKit crash diagnostics).
struct CrashReportCheck: MeasuringCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let reports = FactDescription(
            "crash.reports", .count, "Crash reports of the subject among the artifacts.")
        static let kind = FactDescription(
            "crash.kind", .text,
            "How the newest crash report of the subject ended (none, memory-limit, watchdog, system, crash, other)."
        )
        static let ended = FactDescription(
            "crash.ended", .flag,
            "Whether any artifact shows the subject ended: a crash report, a jetsam kill reason, a log's kill line, "
                + "MetricKit exit counts or crash diagnostics.")
        static let endedBy = FactDescription(
            "crash.endedBy", .list,
            "The artifacts' signs of an ending (crash-report, jetsam, kill-log, metrickit-exits, "
                + "metrickit-crashes).")
        static let apps = FactDescription(
            "crash.apps", .count, "Apps that the crash reports name, when no subject was chosen.", better: .neutral)
        static let exception = FactDescription(
            "crash.exception", .text, "The newest report's exception type, signal, subtype and codes.")
        static let termination = FactDescription(
            "crash.termination", .text, "The newest report's termination namespace and code.")
        static let terminationReason = FactDescription(
            "crash.terminationReason", .text, "The newest report's termination reason text.")
        static let frames = FactDescription(
            "crash.frames", .list, "The top frames of the triggered thread (main thread for a watchdog).")
        static let os = FactDescription("crash.os", .text, "The OS version of the newest report.")
        static let device = FactDescription("crash.device", .text, "The device model of the newest report.")
        static let appVersion = FactDescription(
            "crash.appVersion", .text, "The app version (build) of the newest report.")
        static let fileLock = FactDescription(
            "crash.fileLock", .list,
            "Frames of the newest report's threads inside SQLite, when it ended with 0xdead10cc: a file "
                + "lock held while suspended is what that code means.")
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let crashReportNone = FindingCode(
            "crash-report.none", .info,
            "No crash report of the subject, and no artifact shows it ended (a jetsam record may list it alive "
                + "at its moment).",
            examples: [
                .raises(
                    "Fixtures/pressure", app: "JustSend", facts: [Fact.reports.key: 0, Fact.kind.key: "none"],
                    title: "No crash report of JustSend, and no sign that it ended: the jetsam record lists it alive"),
                .quiet("Fixtures/watchdog", app: "JustSend", facts: [Fact.reports.key: 1, Fact.kind.key: "watchdog"]),
            ])
        static let endedWithoutReport = FindingCode(
            "crash-report.ended-without-report", .notice,
            "No crash report of the subject, but another artifact shows it ended (a jetsam kill, a log's kill line, "
                + "MetricKit exits or crash diagnostics).",
            examples: [
                .raises(
                    "Fixtures/killed", app: "JustSend", facts: [Fact.reports.key: 0, Fact.kind.key: "none"],
                    title:
                        "No crash report of JustSend, but it ended: killed by jetsam (per-process-limit), recorded at 2026-08-12 09:02:11.00 +0900"
                ),
                .raises(
                    "Fixtures/kill-log", app: "Memo", facts: [Fact.reports.key: 0, Fact.kind.key: "none"],
                    title:
                        "No crash report of Memo, but it ended: killed by jetsam (per-process-limit) at its 2098 MB memory limit (ActiveHard), 2,148,532 KB footprint at the kill, recorded at 2026-08-12 14:03:05.104211+0900 (unified-log.log line 2)"
                ),
                .raises(
                    "Fixtures/metrickit", facts: [Fact.reports.key: 0, Fact.kind.key: "none"],
                    title:
                        "No crash report of JustSend, but it ended: MetricKit counts 3 memory exits of JustSend (2026-08-10 00:00:00 +0000 – 2026-08-10 23:59:00 +0000)"
                ),
                .raises(
                    "Fixtures/metrickit-mixed", app: "JustSend", facts: [Fact.reports.key: 0, Fact.kind.key: "none"],
                    title:
                        "No crash report of JustSend, but it ended: MetricKit holds 1 crash diagnostic of JustSend (to 2026-08-11 23:59:00 +0000)"
                ),
                .quiet("Fixtures/pressure", app: "JustSend", facts: [Fact.reports.key: 0, Fact.kind.key: "none"]),
                .quiet(
                    "Fixtures/watchdog", "Fixtures/killed", app: "JustSend",
                    facts: [Fact.reports.key: 1, Fact.kind.key: "watchdog"]),
            ])
        static let ended = FindingCode(
            "crash-report.ended", .warning, "The subject's newest crash report, and how it ended.",
            examples: [
                .raises(
                    "Fixtures/watchdog", facts: [Fact.reports.key: 1, Fact.kind.key: "watchdog"],
                    title: "JustSend was ended by the watchdog: EXC_CRASH (SIGKILL), FRONTBOARD 0x8badf00d"),
                .quiet("Fixtures/killed", app: "JustSend", facts: [Fact.reports.key: 0, Fact.kind.key: "none"]),
            ])
        static let severalApps = FindingCode(
            "crash-report.several-apps", .notice,
            "No subject: the crash reports name several apps; each report is counted for its own app.",
            examples: [
                .raises(
                    "Fixtures/several-apps", facts: [Fact.apps.key: 3],
                    title: "Crash reports of 3 apps: JustSend 1, Locker 1, Transit 1"),
                .quiet("Fixtures/watchdog", facts: [Fact.reports.key: 1, Fact.kind.key: "watchdog"]),
            ])
    }

    static let description = CheckDescription(
        id: "crash-report",
        title: "Crash report",
        step: "crash-report",
        rationale: """
            A crash report says how the app ended. None is information too, but not proof: the app was \
            killed without a report when a jetsam record gives it a kill reason or MetricKit counts exits, \
            so those are weighed first. With nothing showing an ending and a jetsam record listing the app \
            alive, it was alive at that record's moment: a slow app leaves no crash log, and the jetsam record \
            is the source of truth for that moment, not for what came after it.
            """,
        reads: [.crashReport],
        facts: [
            Fact.reports,
            Fact.kind,
            Fact.ended,
            Fact.endedBy,
            Fact.apps,
            Fact.exception,
            Fact.termination,
            Fact.terminationReason,
            Fact.frames,
            Fact.os,
            Fact.device,
            Fact.appVersion,
            Fact.fileLock,
        ],
        codes: [
            Code.crashReportNone,
            Code.endedWithoutReport,
            Code.ended,
            Code.severalApps,
        ],
        runsWithoutArtifacts: true,
        weighs: [.jetsamEvent, .killLog, .metricPayload, .diagnosticPayload, .sdkExport]
    )

    /// One sign that the subject ended, from an artifact other than a crash report.
    struct Sign {
        var tag: String
        var text: String
        var evidence: Evidence
    }

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
            signs: subject.app == nil ? [] : Self.signs(of: subject, in: context))
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
        let claims = sdkClaims(of: context.subject, in: context)
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

    /// `Bugsnag: out of memory` for each SDK event of the subject that says a run ended.
    static func sdkClaims(of subject: Subject, in context: CheckContext) -> [String] {
        context.artifacts(of: .sdkExport).flatMap { artifact -> [String] in
            guard case .sdkExport(let export)? = artifact.content else { return [] }
            return export.events.filter { event in
                event.claim != .none && [event.app, event.bundleID].contains { subject.matches($0) }
            }.map { $0.sdk.name + ": " + $0.claim.words }
        }
    }

    /// Every sign among the jetsam records and MetricKit payloads that the subject ended.
    static func signs(of subject: Subject, in context: CheckContext) -> [Sign] {
        var signs: [Sign] = []
        let app = subject.app ?? "the app"
        for record in JetsamRecord.all(in: context) {
            for process in record.processes(of: subject) {
                guard let reason = process.reason else { continue }
                signs.append(
                    Sign(
                        tag: "jetsam",
                        text: "killed by jetsam (\(reason))" + (record.event.date.map { ", recorded at \($0)" } ?? ""),
                        evidence: record.evidence(process, "reason")))
            }
        }
        // A log's kill lines: only kills that name the subject (or a debugger's stop in a log of no other app).
        for record in KillRecord.all(in: context) where record.kill.killed && record.isOf(subject) {
            signs.append(Sign(tag: "kill-log", text: record.sign, evidence: record.evidence))
        }
        for artifact in context.artifacts(of: .metricPayload) {
            guard case .metricPayload(let payload)? = artifact.content, subject.matches(payload.bundleIdentifier)
            else { continue }
            let metrics = MetricKitSnapshot(payload)
            guard let exits = metrics.memoryExits, exits > 0 else { continue }
            let window = [payload.timeStampBegin, payload.timeStampEnd].compactMap { $0 }.joined(separator: " – ")
            signs.append(
                Sign(
                    tag: "metrickit-exits",
                    text: "MetricKit counts " + Plural.count(exits, "memory exit") + " of \(app)"
                        + (window.isEmpty ? "" : " (\(window))"),
                    evidence: Evidence(source: artifact.source, pointer: "/applicationExitMetrics")))
        }
        for artifact in context.artifacts(of: .diagnosticPayload) {
            guard case .diagnosticPayload(let payload)? = artifact.content, subject.matches(payload.bundleIdentifier),
                payload.crashCount > 0
            else { continue }
            signs.append(
                Sign(
                    tag: "metrickit-crashes",
                    text: "MetricKit holds " + Plural.count(payload.crashCount, "crash diagnostic") + " of \(app)"
                        + (payload.timeStampEnd.map { " (to \($0))" } ?? ""),
                    evidence: Evidence(source: artifact.source, pointer: "/crashDiagnostics")))
        }
        return signs
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

    // MARK: - Texts

    static func unique(_ values: [String]) -> [String] {
        var seen: [String] = []
        for value in values where !seen.contains(value) { seen.append(value) }
        return seen
    }

    private static func verb(_ kind: CrashKind) -> String {
        switch kind {
        case .crash: "crashed"
        case .memoryLimit: "was killed at its memory limit"
        case .watchdog: "was ended by the watchdog"
        case .system: "was ended by the system"
        case .none, .other: "ended"
        }
    }

    private static func explain(_ report: CrashReport) -> String {
        var parts: [String] = []
        if let type = report.exceptionType { parts.append(type + (report.signal.map { " (\($0))" } ?? "")) }
        if let subtype = report.exceptionSubtype { parts.append(subtype) }
        if let code = report.terminationCode {
            parts.append((report.terminationNamespace.map { "\($0) " } ?? "") + "0x" + String(code, radix: 16))
        }
        if parts.isEmpty { parts.append(report.kind.rawValue) }
        return parts.joined(separator: ", ")
    }

    /// The report's own words: exception and codes, termination and reason, where it ran, the top frames.
    private static func describe(_ report: CrashReport, snapshot: CrashSnapshot) -> String {
        var sentences: [String] = []
        if let exception = snapshot.exceptionLine { sentences.append("Exception: \(exception).") }
        if let termination = snapshot.termination { sentences.append("Termination: \(termination).") }
        if let reason = snapshot.terminationReason {
            sentences.append("Reason: " + reason.split(separator: "\n").joined(separator: " ") + ".")
        }
        if let visibility = snapshot.visibility { sentences.append("It was in the \(visibility).") }
        let whereRan = [
            report.appVersion.map { "version \($0)" }, report.osVersion, report.device,
        ].compactMap { $0 }
        if !whereRan.isEmpty { sentences.append("App " + whereRan.joined(separator: ", ") + ".") }
        if !report.frames.isEmpty {
            sentences.append(
                "Top frames of \(report.framesThread ?? "the thread"): "
                    + report.frames.prefix(5).joined(separator: " ← ") + ".")
        }
        if report.terminationCode == 0xDEAD_10CC {
            sentences.append(
                !report.fileLockEvidence.isEmpty
                    ? "File-lock evidence, threads inside SQLite: " + report.fileLockEvidence.joined(separator: "; ")
                        + "."
                    : (report.terminationDescription ?? "").lowercased().contains("locked")
                        ? "The termination reason names the locked files; no thread of the report is inside SQLite."
                        : "No thread of the report is inside SQLite: look for another file lock held while suspended "
                            + "(a shared container, a file coordinator).")
        }
        return sentences.joined(separator: " ")
    }

    private static func severity(_ kind: CrashKind) -> Severity {
        switch kind {
        case .memoryLimit: .critical
        case .watchdog, .system, .crash: .warning
        case .none, .other: .notice
        }
    }

    private static func next(_ report: CrashReport) -> NextAction {
        switch report.kind {
        case .watchdog:
            .change(
                "The main thread was blocked past the watchdog's allowance: read the main thread's frames above.")
        case .memoryLimit:
            .step("jetsam-record", "It crossed its footprint limit: the jetsam record shows what it held.")
        case .system where report.terminationNamespace?.uppercased() == "TCC":
            .change(
                "Ended for privacy: add the usage description (NSCameraUsageDescription, …) the termination reason "
                    + "names to Info.plist, or stop accessing that data.")
        case .system where report.terminationCode == 0xDEAD_10CC:
            .change("Release file locks (SQLite, shared containers) before the app is suspended: 0xdead10cc.")
        case .system: .change("Ended by the system: read the termination reason above.")
        case .crash: .change("An ordinary crash: symbolicate the faulting thread; memory may be unrelated.")
        case .none, .other: .change("Read the report's exception and termination sections.")
        }
    }
}
