import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// What the check declares: its facts, its codes with their examples, and its description.
extension CrashReportCheck {
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
}
