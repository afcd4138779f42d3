import Foundation
import MemhuntBasics
import MemhuntCore
import MemhuntFormats

/// A page that holds several records (two crash reports one after the other; a low-memory report and then an
/// `EXC_RESOURCE` crash report, as Apple's technical notes print them) is read as one artifact per whole record:
/// the file's own artifact is the record its reading chose, and each other whole record is an artifact of its
/// own, named `SOURCE#L<line>` by the line of the page it starts on, read from the page's bytes from that line
/// to the next record's. Never one report made of both.
public enum PageRecords {
    /// `artifact`, then one artifact for each other whole record of its page. Only a record read out of a paste
    /// (its reading has a recovery note) is looked at again: a clean file is one record.
    public static func expanding(_ artifact: Artifact) -> [Artifact] {
        guard artifact.status == .ok, let path = artifact.localPath, isPasted(artifact),
            let data = FileManager.default.contents(atPath: path)
        else { return [artifact] }
        let raw = [UInt8](data)
        var page = ArtifactReader.utf8(fromUTF16: raw) ?? raw
        if page.starts(with: [0xEF, 0xBB, 0xBF]) { page.removeFirst(3) }
        let records = PastedRecord.records(page)
        guard records.count >= 2 else { return [artifact] }
        var result = [artifact]
        var notes: [String] = []
        for record in records {
            let bytes = Array(record.bytes)
            var other = LocalArtifacts.document(
                bytes, source: artifact.source + "#L\(record.line)", sha256: SHA256.hex(bytes))
            guard other.status == .ok, other.kind == .crashReport || other.kind == .jetsamEvent,
                other.isCompleteRecord, !sameRecord(other, artifact)
            else { continue }
            other.localPath = path
            other.finalURL = artifact.finalURL
            result.append(other)
            let what = other.kind == .crashReport ? "a crash report" : "a JetsamEvent"
            let said = "line \(record.line) starts another report"
            notes.append(
                (own(artifact).contains { $0.hasPrefix(said) }
                    ? "it is" : "line \(record.line) starts another record (\(what)),")
                    + " read on its own as " + Artifact.fileName(of: other.source))
        }
        // The page's own reading said what it skipped around its record: it says where the others went.
        switch result[0].content {
        case .crashReport(var report)?:
            report.recovery?.notes += notes
            result[0].content = .crashReport(report)
        case .jetsamEvent(var event)?:
            event.recovery?.notes += notes
            result[0].content = .jetsamEvent(event)
        default: break
        }
        return result
    }

    /// The notes of the artifact's reading.
    static func own(_ artifact: Artifact) -> [String] {
        switch artifact.content {
        case .crashReport(let report)?: report.recovery?.notes ?? []
        case .jetsamEvent(let event)?: event.recovery?.notes ?? []
        default: []
        }
    }

    /// Whether the artifact's record was taken out of a paste (its reading says how).
    static func isPasted(_ artifact: Artifact) -> Bool {
        switch artifact.content {
        case .crashReport(let report)?: report.recovery != nil
        case .jetsamEvent(let event)?: event.recovery != nil
        default: false
        }
    }

    /// Whether two artifacts hold one record: the same identity where both have one, else the same process,
    /// date and exception (a crash report) or the same date, device and processes (a JetsamEvent).
    static func sameRecord(_ one: Artifact, _ other: Artifact) -> Bool {
        if let a = one.recordIdentity?.key, let b = other.recordIdentity?.key { return a == b }
        switch (one.content, other.content) {
        case (.crashReport(let a)?, .crashReport(let b)?):
            return a.processName == b.processName && a.date == b.date && a.exceptionType == b.exceptionType
        case (.jetsamEvent(let a)?, .jetsamEvent(let b)?):
            return a.date == b.date && a.product == b.product && a.processes.count == b.processes.count
        default: return false
        }
    }
}
