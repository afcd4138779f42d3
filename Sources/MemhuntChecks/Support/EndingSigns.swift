import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// One sign that the subject ended, from an artifact other than a crash report: a jetsam record's kill reason,
/// a log's kill line, MetricKit's exit counts or crash diagnostics.
struct EndingSign {
    var tag: String
    var text: String
    var evidence: Evidence

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
    static func all(of subject: Subject, in context: CheckContext) -> [EndingSign] {
        var signs: [EndingSign] = []
        let app = subject.app ?? "the app"
        for record in JetsamRecord.all(in: context) {
            for process in record.processes(of: subject) {
                guard let reason = process.reason else { continue }
                signs.append(
                    EndingSign(
                        tag: "jetsam",
                        text: "killed by jetsam (\(reason))" + (record.event.date.map { ", recorded at \($0)" } ?? ""),
                        evidence: record.evidence(process, "reason")))
            }
        }
        // A log's kill lines: only kills that name the subject (or a debugger's stop in a log of no other app).
        for record in KillRecord.all(in: context) where record.kill.killed && record.isOf(subject) {
            signs.append(EndingSign(tag: "kill-log", text: record.sign, evidence: record.evidence))
        }
        for artifact in context.artifacts(of: .metricPayload) {
            guard case .metricPayload(let payload)? = artifact.content, subject.matches(payload.bundleIdentifier)
            else { continue }
            let metrics = MetricKitSnapshot(payload)
            guard let exits = metrics.memoryExits, exits > 0 else { continue }
            let window = [payload.timeStampBegin, payload.timeStampEnd].compactMap { $0 }.joined(separator: " – ")
            signs.append(
                EndingSign(
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
                EndingSign(
                    tag: "metrickit-crashes",
                    text: "MetricKit holds " + Plural.count(payload.crashCount, "crash diagnostic") + " of \(app)"
                        + (payload.timeStampEnd.map { " (to \($0))" } ?? ""),
                    evidence: Evidence(source: artifact.source, pointer: "/crashDiagnostics")))
        }
        return signs
    }
}
