import MemhuntCore
import MemhuntFormats

/// The kills the logs among a check's artifacts record (`Artifact.killLog`), and which are the subject's: a
/// kill whose process matches it, or a debugger's stop (which names no process) in a log that names no other
/// app. A kill of another process is never the subject's.
struct KillRecord {
    var kill: MemoryKill
    /// The log's artifact, one box shared by its records: an `Artifact` held in each of a large log's thousands of
    /// records was most of a run's heap.
    private let log: Log
    var artifact: Artifact { log.artifact }

    private final class Log: Sendable {
        let artifact: Artifact
        init(_ artifact: Artifact) { self.artifact = artifact }
    }

    var evidence: Evidence { Evidence(source: artifact.source, line: kill.line) }

    /// Every kill record of the logs among `context`'s artifacts, in artifact and line order.
    static func all(in context: CheckContext) -> [KillRecord] {
        context.artifacts(of: .killLog).flatMap { artifact in
            let log = Log(artifact)
            return (artifact.killLog?.kills ?? []).map { KillRecord(kill: $0, log: log) }
        }
    }

    /// Whether the record is the subject's.
    func isOf(_ subject: Subject) -> Bool {
        guard subject.app != nil else { return false }
        if let process = kill.process { return subject.matches(process) }
        return kill.inDebugger && ArtifactOwner.belongs(artifact, to: subject) != false
    }

    /// What the kill is, in words: `killed by jetsam (per-process-limit) at its 77 MB memory limit (ActiveHard),
    /// 78,850 KB footprint at the kill` (`of`: the name to use for a debugger's unnamed process).
    var text: String {
        var parts: [String] = []
        if kill.inDebugger {
            parts.append(
                kill.limitMB.map { "stopped in the debugger at its \($0) MB memory limit (EXC_RESOURCE MEMORY)" }
                    ?? "ended in the debugger by a memory issue")
        } else if !kill.killed {
            parts.append("crossed its non-fatal \(kill.limitKind ?? "soft") memory limit of \(kill.limitMB ?? 0) MB")
        } else {
            var killed = "killed by jetsam" + (kill.reason.map { " (\($0))" } ?? "")
            if let limit = kill.limitMB {
                killed += " at its \(limit) MB memory limit" + (kill.limitKind.map { " (\($0))" } ?? "")
            }
            parts.append(killed)
        }
        if let kb = kill.footprintKB { parts.append(FactValue.grouped(kb) + " KB footprint at the kill") }
        return parts.joined(separator: ", ")
    }

    /// `text`, with where and when: `…, recorded at 2024-05-01 10:11:12 (kill.log line 3)`.
    var sign: String {
        text + (kill.timestamp.map { ", recorded at \($0)" } ?? "") + " (\(artifact.fileName) line \(kill.line))"
    }
}
