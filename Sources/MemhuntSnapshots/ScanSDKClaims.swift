import MemhuntFormats

/// A JetsamEvent's app processes as OS records need them: the event's fields once, each process's few. A scan
/// keeps these until the claims are graded: a record made for each of a realistic event's hundreds of processes held
/// the event's fields again in each (about 900 bytes a process: a fleet of 1,000 full-size events peaked at 188 MB).
struct JetsamRecords: Sendable {
    struct Process: Sendable {
        var name: String
        var pid: Int?
        var reason: String?
        var states: [String]
        var rpages: UInt64
    }

    var file: String
    var date: String?
    /// The event's time, where its date has a zone.
    var time: Double?
    var product: String?
    var build: String?
    var pageSize: UInt64
    var processes: [Process]

    /// The processes of `event` that `isApp` says are the app's, their names and states as `shared` holds them.
    init(_ event: JetsamEvent, file: String, isApp: (JetsamProcess) -> Bool, shared: inout Shared) {
        self.file = file
        date = event.date
        time = (event.date.map(AppleDate.hasZone) ?? false) ? event.time : nil
        product = event.product
        build = event.build
        pageSize = event.pageSize
        // Sized to the apps: `compactMap` reserved room for every process of the event, a tenth of them apps.
        let apps = event.processes.indices.filter { isApp(event.processes[$0]) }
        processes = []
        processes.reserveCapacity(apps.count)
        for index in apps {
            let process = event.processes[index]
            processes.append(
                Process(
                    name: shared.name(process.name), pid: process.pid, reason: process.reason,
                    states: shared.states(process.states), rpages: process.rpages))
        }
    }

    /// One copy of each name and list of states the records of a scan repeat (an app is in thousands of events):
    /// each parsed event has its own.
    struct Shared: Sendable {
        private var names: [String: String] = [:]
        private var lists: [[String]: [String]] = [:]
        /// Distinct values kept at most, of each kind; past them a value is kept as it comes.
        static let limit = 20_000

        mutating func name(_ text: String) -> String {
            if let known = names[text] { return known }
            if names.count < Self.limit { names[text] = text }
            return text
        }

        mutating func states(_ list: [String]) -> [String] {
            if let known = lists[list] { return known }
            if lists.count < Self.limit { lists[list] = list }
            return list
        }
    }

    /// The OS record of one of the processes.
    func record(_ process: Process) -> OSRecord {
        let outcome: OSRecord.Outcome =
            if let reason = process.reason {
                OSRecord.memoryReasons.contains(reason) ? .memoryKill(reason: reason) : .otherKill(reason: reason)
            } else {
                .alive(states: process.states)
            }
        let bytes = pageSize > 0 ? process.rpages.multipliedReportingOverflow(by: pageSize) : nil
        return OSRecord(
            what: "JetsamEvent", file: file, process: process.name, pid: process.pid, outcome: outcome, time: time,
            timeText: date, device: product, os: build,
            residentBytes: bytes.flatMap { $0.overflow ? nil : $0.partialValue })
    }
}

/// What a fleet scan keeps of SDK exports and OS records, to grade the claims once every file is read.
public struct ScanSDKClaims: Sendable {
    /// The events of the SDK exports, with their files.
    public var events: [(file: String, event: SDKEvent)] = []
    /// The OS records of app processes (JetsamEvents, crash reports, kill lines), up to `recordLimit`, in the order
    /// they were read; a JetsamEvent's as one entry, made records when claims are graded.
    private var kept: [Kept] = []
    private var keptCount = 0
    private var shared = JetsamRecords.Shared()
    /// OS records past `recordLimit`, not kept: a claim they would have settled stays unconfirmed.
    public var recordsNotKept = 0
    /// A JetsamEvent lists every process; a scan keeps its apps' records (not its daemons': an SDK runs in an app),
    /// at most this many in all.
    public static let recordLimit = 200_000
    /// Where the aggregates of one scan's workers share `recordLimit`: given how many records an entry holds, how
    /// many of them may be kept. Without it each worker kept up to the limit until they were merged, twice the
    /// records at the peak with two. Nil: this aggregate's own count decides.
    public var room: (@Sendable (Int) -> Int)?

    private enum Kept: Sendable {
        case record(OSRecord)
        case jetsam(JetsamRecords)
    }

    public init() {}

    /// Every OS record kept, in the order read.
    public var records: [OSRecord] { records { _ in true } }

    /// The records kept of the processes `wanted` names.
    private func records(where wanted: (String) -> Bool) -> [OSRecord] {
        kept.flatMap { entry -> [OSRecord] in
            switch entry {
            case .record(let record): wanted(record.process) ? [record] : []
            case .jetsam(let listed): listed.processes.filter { wanted($0.name) }.map(listed.record)
            }
        }
    }

    /// Keeps the OS records `content` holds, when it is a JetsamEvent, a crash report or a log of kills.
    public mutating func add(_ content: ParsedArtifact, file: String) {
        switch content {
        case .jetsamEvent(let event):
            keep(
                JetsamRecords(
                    event, file: file, isApp: \.isApp, shared: &shared))
        case .crashReport(let report):
            if let record = OSRecord.record(of: report, file: file, isApp: { _ in true }) { keep(record) }
        case .sdkExport(let export):
            events += export.events.map { (file, $0) }
        default: break
        }
        for kill in content.killLog?.kills ?? [] {
            if let record = OSRecord.record(of: kill, file: file, isApp: { _ in true }) { keep(record) }
        }
    }

    public mutating func merge(_ other: ScanSDKClaims) {
        events += other.events
        // Kept within the room both share: nothing more to take.
        if room != nil, other.room != nil {
            kept += other.kept
            keptCount += other.keptCount
            recordsNotKept += other.recordsNotKept
            return
        }
        for entry in other.kept {
            switch entry {
            case .record(let record): keep(record)
            case .jetsam(let listed): keep(listed)
            }
        }
        recordsNotKept += other.recordsNotKept
    }

    /// How many of `wanted` records may be kept.
    private func granted(_ wanted: Int) -> Int {
        guard wanted > 0 else { return 0 }
        return room?(wanted) ?? min(wanted, max(0, Self.recordLimit - keptCount))
    }

    private mutating func keep(_ record: OSRecord) {
        guard granted(1) == 1 else {
            recordsNotKept += 1
            return
        }
        kept.append(.record(record))
        keptCount += 1
    }

    private mutating func keep(_ listed: JetsamRecords) {
        let room = granted(listed.processes.count)
        recordsNotKept += listed.processes.count - room
        guard room > 0 else { return }
        var listed = listed
        if listed.processes.count > room { listed.processes = Array(listed.processes.prefix(room)) }
        kept.append(.jetsam(listed))
        keptCount += listed.processes.count
    }

    /// Each event once (by its id, else its SDK, time and app), graded, in file order.
    public func grades(options: SDKClaimGrader.Options = .init()) -> [(file: String, grade: SDKClaimGrade)] {
        guard !events.isEmpty else { return [] }
        // The kernel cuts a process name at 32 bytes: the cut name is looked up too.
        func names(_ event: SDKEvent) -> [String] {
            SDKClaimGrader.appNames(event).flatMap { [$0.lowercased(), String($0.lowercased().utf8.prefix(32))!] }
        }
        // Only the records of the apps the events name are made.
        let wanted = Set(events.flatMap { names($0.event) })
        var byApp: [String: [OSRecord]] = [:]
        for record in records(where: { wanted.contains($0.lowercased()) }) {
            byApp[record.process.lowercased(), default: []].append(record)
        }
        var seen: Set<String> = []
        return events.sorted { $0.file < $1.file }.compactMap { file, event in
            guard seen.insert(event.identity).inserted else { return nil }
            // Each name once, in the event's order: a set's order changes from run to run, and records of one
            // time under the whole and the cut name would have come in either order.
            var named: Set<String> = []
            let candidates = names(event).filter { named.insert($0).inserted }.flatMap { byApp[$0] ?? [] }
            return (file, SDKClaimGrader.grade(event, records: candidates, options: options))
        }
    }
}
