import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// How the check says what a crash report shows: the verb, the exception, the report's own words, the hint.
extension CrashReportCheck {

    static func unique(_ values: [String]) -> [String] {
        var seen: [String] = []
        for value in values where !seen.contains(value) { seen.append(value) }
        return seen
    }

    static func verb(_ kind: CrashKind) -> String {
        switch kind {
        case .crash: "crashed"
        case .memoryLimit: "was killed at its memory limit"
        case .watchdog: "was ended by the watchdog"
        case .system: "was ended by the system"
        case .none, .other: "ended"
        }
    }

    static func explain(_ report: CrashReport) -> String {
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
    static func describe(_ report: CrashReport, snapshot: CrashSnapshot) -> String {
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

    static func severity(_ kind: CrashKind) -> Severity {
        switch kind {
        case .memoryLimit: .critical
        case .watchdog, .system, .crash: .warning
        case .none, .other: .notice
        }
    }

    static func next(_ report: CrashReport) -> NextAction {
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
