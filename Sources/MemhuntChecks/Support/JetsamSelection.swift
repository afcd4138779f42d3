import MemhuntCore
import MemhuntFormats

/// A JetsamEvent with the artifact it came from.
struct JetsamRecord {
    var artifact: Artifact
    var event: JetsamEvent

    /// Lifetime peak in pages: `lifetimeMax`, but never below the current footprint `rpages`. Up to
    /// iOS 12 `lifetimeMax` was the maximum *resident* size and can be smaller (SpringBoard 24,516 vs
    /// 61,443 pages in an iOS 10 record); without it, `rpages`.
    static func peakPages(_ process: JetsamProcess) -> UInt64 { max(process.lifetimeMax ?? 0, process.rpages) }

    func bytes(pages: UInt64) -> Double { Double(pages) * Double(event.pageSize) }

    func megabytes(pages: UInt64) -> FactValue { .megabytes(bytes: bytes(pages: pages)) }

    /// The subject's process record, if the record lists it.
    func process(of subject: Subject) -> JetsamProcess? {
        event.processes.first { subject.matches($0.name) }
    }

    /// 1 + the number of processes with a strictly larger lifetime peak.
    func rank(of process: JetsamProcess) -> Int {
        let peak = Self.peakPages(process)
        return 1 + event.processes.count { Self.peakPages($0) > peak }
    }

    /// App processes (not daemons, not the system's own), largest lifetime peak first.
    var appsByPeak: [JetsamProcess] {
        event.processes.filter(Self.isApp).sorted { Self.peakPages($0) > Self.peakPages($1) }
    }

    /// System processes that are not daemons by `states` but are not apps either.
    private static let systemProcesses: Set<String> = [
        "SpringBoard", "backboardd", "kernel_task", "launchd", "WindowServer", "mediaserverd", "PineBoard",
        "Carousel", "InCallService", "CommCenter",
    ]

    /// An app or app extension: not a daemon, not a `com.apple.*` XPC service, not SpringBoard and friends.
    static func isApp(_ process: JetsamProcess) -> Bool {
        !process.states.contains("daemon") && !process.name.hasPrefix("com.apple.")
            && !systemProcesses.contains(process.name) && !process.name.isEmpty
    }

    func evidence(_ process: JetsamProcess, _ field: String) -> Evidence {
        Evidence(source: artifact.source, pointer: "/processes/\(process.index)/\(field)")
    }

    /// All JetsamEvent records of a context, oldest first (by capture time, then source order).
    static func all(in context: CheckContext) -> [JetsamRecord] {
        let records = context.artifacts(of: .jetsamEvent).enumerated().compactMap {
            offset, artifact -> (Int, JetsamRecord)? in
            guard case .jetsamEvent(let event)? = artifact.content else { return nil }
            return (offset, JetsamRecord(artifact: artifact, event: event))
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

extension Double {
    /// "725 MB" / "1055.5 MB" from a byte count (MB = 1,048,576 bytes, one decimal).
    var megabytesText: String { FactValue.megabytes(bytes: self).description + " MB" }
}
