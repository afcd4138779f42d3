import MemhuntFormats

/// The per-process numbers of one JetsamEvent record, computed once: peak, resident, rank among all
/// processes and among apps. Checks, `inspect` and fleet scans read these instead of the raw record.
public struct JetsamSnapshot: Sendable, Hashable {
    /// One process of the record.
    public struct Process: Sendable, Hashable {
        /// Index in the record's `processes` array (JSON pointer `/processes/<index>`).
        public var index: Int
        /// `p_name`, cut by the kernel at 32 characters.
        public var name: String
        public var pid: Int?
        /// Footprint at that moment in pages (`rpages` = phys_footprint / page size: resident + compressed).
        /// The name is historical (the seed calls it "resident in that state"); `residentInternalPages` and
        /// `compressedInternalPages` split it where the record has `physicalPages`.
        public var residentPages: UInt64
        /// `physicalPages.internal[0]`: internal pages in memory at that moment (iOS 14+).
        public var residentInternalPages: UInt64?
        /// `physicalPages.internal[1]`: internal pages compressed at that moment (iOS 14+).
        public var compressedInternalPages: UInt64?
        /// Lifetime peak in pages: `lifetimeMax`, never below `rpages`. Up to iOS 12 `lifetimeMax` was the
        /// maximum *resident* size and can be smaller (SpringBoard 24,516 vs 61,443 pages in an iOS 10 record).
        public var peakPages: UInt64
        /// Whether `lifetimeMax` was present (else the peak is `rpages`).
        public var hasLifetimeMax: Bool
        public var states: [String]
        /// The kill reason, present only on processes the record shows killed.
        public var reason: String?
        /// An app or app extension: not a daemon, not a `com.apple.*` service, not SpringBoard and friends.
        public var isApp: Bool
        /// 1 + the processes of the record with a strictly larger peak.
        public var rank: Int
        /// 1 + the app processes with a strictly larger peak; nil for non-apps.
        public var appRank: Int?
        /// Page counts present and unreadable (`lifetimeMax` out of range): its peak is not known.
        public var unreadable: [String] = []

        /// Whether the record lists it suspended: only then is its footprint what it holds in the background.
        public var isSuspended: Bool { states.contains("suspended") }
    }

    public var date: String?
    /// `date` as seconds since 1970.
    public var time: Double?
    public var product: String?
    public var build: String?
    /// `crashReporterKey`: the device's identity.
    public var deviceKey: String?
    /// Bytes per page (16,384 on A9 and later, 4,096 on A7/A8).
    public var pageSize: UInt64
    /// `memoryStatus.compressions`: pages compressed since boot (a counter, not a moment).
    public var compressions: UInt64?
    public var largestProcess: String?
    /// In file order.
    public var processes: [Process]
    /// `memoryStatus.decompressions`: pages decompressed since boot (a counter).
    public var decompressions: UInt64?
    /// What the record shows about memory at that moment, when it has the page queues.
    public var moment: Moment?
    /// Whether the record lists every process it had: false for an elided or partial record (a paste cut by
    /// `...`, or process records without their event). Then its processes are not all: no count of them, and
    /// no rank among them (`rank` and `appRank` are among the listed ones only, never to be said).
    public var complete: Bool
    /// Whether the record gives its page size: false only for process records pasted without their event,
    /// whose page counts cannot be said in bytes (`bytes(pages:)` is then not to be asked).
    public var pageSizeKnown: Bool { pageSize > 0 }
    /// Why the record is incomplete, in words (the recovery's note); nil when it is complete.
    public var incompleteness: String?

    /// Memory at the record's moment, from `memoryStatus`, as the kernel counts it. The record's queues come
    /// from XNU's `vm_stats()`, whose `free` already holds the speculative pages: physical memory is the
    /// queues that partition it (free, active, inactive, throttled, wired) and the compressor's pages, and
    /// the truly free pages are `free - speculative`. What jetsam compares with its thresholds is
    /// `memorystatus_available_pages`, on iOS (CONFIG_JETSAM, `VM_CHECK_MEMORYSTATUS` in
    /// osfmk/vm/vm_page.h) the pageable file-backed pages plus the free ones (plus secluded pages over
    /// target, which no record carries); `fileBacked` is the first.
    public struct Moment: Sendable, Hashable {
        public var physicalPages: UInt64
        public var compressorPages: UInt64
        /// `free - speculative`: pages nobody uses.
        public var freePages: UInt64
        /// `fileBacked`, when the record has it (iOS 13+).
        public var fileBackedPages: UInt64?

        /// The compressor's share of physical memory, 0–100.
        public var compressorPercent: Double { 100 * Double(compressorPages) / Double(physicalPages) }
        /// Free pages' share of physical memory, 0–100.
        public var freePercent: Double { 100 * Double(freePages) / Double(physicalPages) }
        /// Jetsam's available pages (file-backed + free), when the record has file-backed pages.
        public var availablePages: UInt64? { fileBackedPages.map { $0 &+ freePages } }
        /// Their share of physical memory, 0–100.
        public var availablePercent: Double? { availablePages.map { 100 * Double($0) / Double(physicalPages) } }
    }

    /// Kill reasons that mean the whole system was short of memory (not one process over its own limit).
    public static let pressureReasons: Set<String> = [
        "vm-pageshortage", "vm-thrashing", "proc-thrashing", "fc-thrashing", "vm-compressor-thrashing",
        "vm-compressor-space-shortage", "zone-map-exhaustion",
    ]

    /// Processes the record shows killed for a system-wide shortage (`pressureReasons`).
    public var pressureKills: [Process] { processes.filter { $0.reason.map(Self.pressureReasons.contains) ?? false } }

    public init(_ event: JetsamEvent) {
        date = event.date
        time = event.time
        product = event.product
        build = event.build
        deviceKey = event.deviceKey
        pageSize = event.pageSize
        compressions = event.compressions
        largestProcess = event.largestProcess
        decompressions = event.decompressions
        complete = event.recovery?.isComplete ?? true
        incompleteness = complete ? nil : event.recovery?.note
        // Each queue looked up once: thirteen lookups showed in a fleet scan's profile.
        let queues = ["free", "speculative", "active", "inactive", "throttled", "wired"].map { event.memoryPages[$0] }
        if let compressor = event.compressorPages, let free = queues[0], let speculative = queues[1],
            !queues.contains(nil)
        {
            // Speculative pages are inside `free`: counted once.
            let physical = queues.enumerated().reduce(compressor) { $1.offset == 1 ? $0 : $0 &+ $1.element! }
            if physical > 0 {
                moment = Moment(
                    physicalPages: physical, compressorPages: compressor,
                    freePages: free >= speculative ? free - speculative : 0,
                    fileBackedPages: event.memoryPages["fileBacked"])
            }
        }
        var processes = event.processes.map { p in
            Process(
                index: p.index, name: p.name, pid: p.pid, residentPages: p.rpages,
                residentInternalPages: p.residentInternalPages, compressedInternalPages: p.compressedInternalPages,
                peakPages: max(p.lifetimeMax ?? 0, p.rpages), hasLifetimeMax: p.lifetimeMax != nil, states: p.states,
                reason: p.reason, isApp: Self.isApp(name: p.name, states: p.states), rank: 0, appRank: nil,
                unreadable: p.unreadable)
        }
        // Ranks from one sort: a process's rank is 1 + the number of strictly larger peaks.
        let order = processes.indices.sorted { processes[$0].peakPages > processes[$1].peakPages }
        // The apps before each position are counted as the walk goes (counting them again at each new peak was
        // quadratic, and showed in a run's profile).
        var larger = 0
        var largerApps = 0
        var appsBefore = 0
        for (position, index) in order.enumerated() {
            if position > 0, processes[order[position - 1]].peakPages > processes[index].peakPages {
                larger = position
                largerApps = appsBefore
            }
            processes[index].rank = larger + 1
            if processes[index].isApp {
                processes[index].appRank = largerApps + 1
                appsBefore += 1
            }
        }
        self.processes = processes
    }

    /// Bytes of `pages` pages of this record.
    public func bytes(pages: UInt64) -> Double { Double(pages) * Double(pageSize) }

    /// App processes, largest peak first (file order among equals).
    public var appsByPeak: [Process] {
        processes.filter(\.isApp).enumerated().sorted { a, b in
            a.element.peakPages != b.element.peakPages ? a.element.peakPages > b.element.peakPages : a.offset < b.offset
        }.map(\.element)
    }

    static func isApp(name: String, states: [String]) -> Bool { JetsamProcess.isApp(name: name, states: states) }
}

/// How one crash report ended, in the words a person acts on.
public struct CrashSnapshot: Sendable, Hashable {
    /// The app the report names (`app_name`, else the process, else the bundle id).
    public var app: String?
    public var process: String?
    public var bundleID: String?
    public var date: String?
    public var time: Double?
    public var kind: CrashKind
    /// `EXC_RESOURCE (SIGKILL), MEMORY` and the like.
    public var exception: String?
    /// `FRONTBOARD 0x8badf00d` and the like.
    public var termination: String?
    /// The termination's reason text.
    public var terminationReason: String?
    /// `Exception Codes:` as written.
    public var exceptionCodes: String?

    /// The exception with its codes: `EXC_CRASH (SIGKILL), codes 0x0000000000000000, 0x0000000000000000`.
    public var exceptionLine: String? {
        guard let exception else { return exceptionCodes.map { "codes " + $0 } }
        return exception + (exceptionCodes.map { ", codes " + $0 } ?? "")
    }

    /// `background` or `foreground`, when the termination reason says (`ProcessVisibility: Background`).
    public var visibility: String? {
        guard let text = terminationReason?.lowercased() else { return nil }
        if text.contains("processvisibility: background") || text.contains("watchdogvisibility: background") {
            return "background"
        }
        if text.contains("processvisibility: foreground") { return "foreground" }
        return nil
    }

    public init(_ report: CrashReport) {
        app = report.appName
        process = report.processName
        bundleID = report.bundleID
        date = report.date
        time = report.time
        kind = report.kind
        var exceptionParts: [String] = []
        if let type = report.exceptionType { exceptionParts.append(type + (report.signal.map { " (\($0))" } ?? "")) }
        if let subtype = report.exceptionSubtype { exceptionParts.append(subtype) }
        exception = exceptionParts.isEmpty ? nil : exceptionParts.joined(separator: ", ")
        termination = report.terminationCode.map {
            (report.terminationNamespace.map { "\($0) " } ?? "") + "0x" + String($0, radix: 16)
        }
        terminationReason = report.terminationDescription
        exceptionCodes = report.exceptionCodes
    }
}

/// The memory numbers of one MetricKit metric payload, for the app it names.
public struct MetricKitSnapshot: Sendable, Hashable {
    public var bundleID: String?
    public var appVersion: String?
    /// The payload's window, as written.
    public var begin: String?
    public var end: String?
    /// `end` as seconds since 1970.
    public var time: Double?
    public var peakBytes: Double?
    public var suspendedBytes: Double?
    public var memoryLimitExits: Int?
    public var memoryPressureExits: Int?

    public init(_ payload: MetricPayload) {
        bundleID = payload.bundleIdentifier
        appVersion = payload.appVersion
        begin = payload.timeStampBegin
        end = payload.timeStampEnd
        time = payload.time
        peakBytes = payload.peakMemoryBytes
        suspendedBytes = payload.averageSuspendedMemoryBytes
        memoryLimitExits = payload.memoryResourceLimitExits
        memoryPressureExits = payload.memoryPressureExits
    }

    /// Exits for memory of either kind, when MetricKit counts any.
    public var memoryExits: Int? {
        memoryLimitExits == nil && memoryPressureExits == nil
            ? nil : (memoryLimitExits ?? 0) + (memoryPressureExits ?? 0)
    }
}
