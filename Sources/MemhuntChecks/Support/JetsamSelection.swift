import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// A JetsamEvent's snapshot with the artifact it came from.
struct JetsamRecord {
    var artifact: Artifact
    var event: JetsamSnapshot

    func bytes(pages: UInt64) -> Double { event.bytes(pages: pages) }

    /// The subject's process record, if the record lists it: of several matching processes (17
    /// `com.apple.WebKit.WebContent`), the largest peak; `processes(of:)` lists them all.
    func process(of subject: Subject) -> JetsamSnapshot.Process? {
        processes(of: subject).first
    }

    /// Every process of the record that denotes the subject, largest peak first. Exact names win: when a
    /// process is named exactly as given, looser matches (case, bundle id, cut name) are left out.
    func processes(of subject: Subject) -> [JetsamSnapshot.Process] {
        let loose = event.processes.filter { subject.matches($0.name) }
        let exact = loose.filter { subject.matchesExactly($0.name) }
        return (exact.isEmpty ? loose : exact).enumerated().sorted { a, b in
            a.element.peakPages != b.element.peakPages ? a.element.peakPages > b.element.peakPages : a.offset < b.offset
        }.map(\.element)
    }

    /// App processes, largest lifetime peak first.
    var appsByPeak: [JetsamSnapshot.Process] { event.appsByPeak }

    func evidence(_ process: JetsamSnapshot.Process, _ field: String) -> Evidence {
        Evidence(source: artifact.source, pointer: "/processes/\(process.index)/\(field)")
    }

    /// All JetsamEvent records of a context, oldest first (by capture time, then source order); each
    /// snapshot made once per run (`RunMemo`).
    static func all(in context: CheckContext) -> [JetsamRecord] {
        let artifacts = context.artifacts(of: .jetsamEvent)
        // Source and digest: a file read again at the same path after it changed is another record.
        let key = "jetsam-records" + artifacts.map { "\u{0}\($0.source)\u{0}\($0.sha256 ?? "")" }.joined()
        return context.memo.value(key) { ordered(artifacts) }
    }

    private static func ordered(_ artifacts: [Artifact]) -> [JetsamRecord] {
        let records = artifacts.enumerated().compactMap {
            offset, artifact -> (Int, JetsamRecord)? in
            guard case .jetsamEvent(let event)? = artifact.content else { return nil }
            return (offset, JetsamRecord(artifact: artifact, event: JetsamSnapshot(event)))
        }
        return records.sorted { a, b in
            switch (a.1.event.time, b.1.event.time) {
            case (let x?, let y?) where x != y: x < y
            default: a.0 < b.0
            }
        }.map(\.1)
    }

    /// The newest record that lists the subject; without a subject (or when no record lists it), the newest.
    static func chosen(in context: CheckContext) -> JetsamRecord? {
        let records = all(in: context)
        return records.last { $0.process(of: context.subject) != nil } ?? records.last
    }
}
