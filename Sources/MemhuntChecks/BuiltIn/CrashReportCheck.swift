import MemhuntCore
import MemhuntFormats

/// Step 1: the subject's crash reports, and how the newest one ended.
struct CrashReportCheck: Check {
    static let description = CheckDescription(
        id: "crash-report",
        title: "Crash report",
        step: "crash-report",
        rationale: """
            A crash report says how the app died. None is information too: the app did not die, \
            so a slow app leaves no crash log and the jetsam record is the source of truth.
            """,
        reads: [.crashReport],
        facts: [
            FactDescription("crash.reports", .count, "Crash reports of the subject among the artifacts."),
            FactDescription(
                "crash.kind", .text,
                "How the newest crash report of the subject ended (none, memory-limit, watchdog, killed, crash, other)."
            ),
        ],
        codes: [
            FindingCode("crash-report.none", .info, "No crash report of the subject among the artifacts."),
            FindingCode("crash-report.ended", .warning, "The subject's newest crash report, and how it ended."),
        ],
        runsWithoutArtifacts: true
    )

    func run(_ context: CheckContext) async throws -> CheckOutput {
        var output = CheckOutput()
        let all = context.artifacts(of: .crashReport).compactMap { artifact -> (Artifact, CrashReport)? in
            guard case .crashReport(let report)? = artifact.content else { return nil }
            return (artifact, report)
        }
        let subject = context.subject
        let mine =
            subject.app == nil
            ? all
            : all.filter {
                subject.matches($0.1.appName) || subject.matches($0.1.processName) || subject.matches($0.1.bundleID)
            }
        let others = all.count - mine.count
        output.record("crash.reports", .int(mine.count))
        let app = subject.app ?? "the app"
        guard
            let newest = mine.enumerated().max(by: { a, b in
                (a.element.1.time ?? 0, a.offset) < (b.element.1.time ?? 0, b.offset)
            })?.element
        else {
            output.record("crash.kind", .string(CrashKind.none.rawValue))
            output.emit(
                Finding(
                    code: "crash-report.none",
                    severity: .info,
                    title: "No crash report of \(app): it did not die",
                    detail: "No crash report of \(app) among the artifacts"
                        + (others > 0 ? " (\(others) of other processes)" : "")
                        + ". Slowness in an app that stays alive leaves no crash log; that is information, not a gap.",
                    next: .collect(
                        .jetsamEvent,
                        "Read the jetsam record: it lists every process alive at that moment, not only the dead.")
                ))
            return output
        }
        let (artifact, report) = newest
        output.record("crash.kind", .string(report.kind.rawValue))
        let how = Self.explain(report)
        output.emit(
            Finding(
                code: "crash-report.ended",
                severity: Self.severity(report.kind),
                title: "\(report.appName ?? app) ended: \(how)",
                detail: "\(mine.count) crash report(s) of \(report.appName ?? app); the newest"
                    + (report.date.map { " (\($0))" } ?? "") + " is \(report.kind.rawValue): \(how).",
                evidence: [Evidence(source: artifact.source)],
                next: Self.next(report.kind)
            ))
        return output
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

    private static func severity(_ kind: CrashKind) -> Severity {
        switch kind {
        case .memoryLimit: .critical
        case .watchdog, .killed, .crash: .warning
        case .none, .other: .notice
        }
    }

    private static func next(_ kind: CrashKind) -> NextAction {
        switch kind {
        case .watchdog:
            .change("The main thread was blocked past the watchdog's allowance: read the main thread's frames.")
        case .memoryLimit:
            .step("jetsam-record", "It crossed its footprint limit: the jetsam record shows what it held.")
        case .killed: .change("Killed by the system (e.g. 0xdead10cc: a file lock held while suspended).")
        case .crash: .change("An ordinary crash: symbolicate the faulting thread; memory may be unrelated.")
        case .none, .other: .change("Read the report's exception and termination sections.")
        }
    }
}
