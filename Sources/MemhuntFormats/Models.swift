/// The typed values the parsers produce. They carry what the checks need and nothing that
/// would tie them to a file: no paths, no I/O. Positions (JSON pointers, line numbers) are kept
/// so findings can cite their evidence.

/// The one-line JSON header of an `.ips` file.
public struct IPSHeader: Sendable, Hashable {
    public var bugType: String?
    public var timestamp: String?
    public var osVersion: String?
    public var appName: String?
    public var name: String?
    public var bundleID: String?
    public var incidentID: String?

    public init(
        bugType: String? = nil, timestamp: String? = nil, osVersion: String? = nil, appName: String? = nil,
        name: String? = nil, bundleID: String? = nil, incidentID: String? = nil
    ) {
        self.bugType = bugType
        self.timestamp = timestamp
        self.osVersion = osVersion
        self.appName = appName
        self.name = name
        self.bundleID = bundleID
        self.incidentID = incidentID
    }
}

/// A bug_type 298 JetsamEvent.
public struct JetsamEvent: Sendable, Hashable {
    public var header: IPSHeader?
    /// Body `date`, else header `timestamp`, as written.
    public var date: String?
    /// `date` as seconds since 1970, when it parses.
    public var time: Double?
    public var product: String?
    public var build: String?
    /// `crashReporterKey`: the device's identity (the same on every record of one device).
    public var deviceKey: String?
    /// What the record holds that could not be read as written (a number out of range, a key given twice),
    /// one sentence each: the artifact's diagnostics.
    public var diagnostics: [String] = []
    /// Bytes per page: 16384 on A9+ devices, 4096 on A7/A8. Never assumed: 0 only in a partial record
    /// (process records pasted without their event, `recovery?.state == .partial`), which does not say it.
    public var pageSize: UInt64
    /// How the record was taken out of a paste (prose, fence, quote, wrapped header, elision); nil for a file
    /// read as the device wrote it. An elided or partial record is incomplete: its process list is not all.
    public var recovery: Recovery?
    /// Cumulative count of pages compressed since boot (`memoryStatus.compressions`).
    public var compressions: UInt64?
    public var largestProcess: String?
    /// In file order, which is not by size.
    public var processes: [JetsamProcess]
    /// `memoryStatus.decompressions`: pages decompressed since boot (a counter).
    public var decompressions: UInt64?
    /// `memoryStatus.compressorSize`: pages of physical memory holding compressed data at that moment.
    public var compressorPages: UInt64?
    /// `memoryStatus.uncompressed`: pages (uncompressed size) held in the compressor at that moment.
    public var uncompressedPages: UInt64?
    /// `memoryStatus.memoryPages`: the VM page queues at that moment (`free`, `speculative`, `active`,
    /// `inactive`, `wired`, `throttled`, `purgeable`, `fileBacked`, `anonymous`), in pages.
    public var memoryPages: [String: UInt64] = [:]

    /// A since-boot counter (`compressions`, `decompressions`) as a count: nil when absent or above `Int.max`,
    /// which no count reaches (UInt64.max is -1 written unsigned; a million a second would take 290,000 years
    /// to reach 2^63). Such a value is to be said as written, never clamped.
    public static func count(_ written: UInt64?) -> Int? {
        guard let written, written <= UInt64(Int.max) else { return nil }
        return Int(written)
    }

    public init(
        header: IPSHeader? = nil, date: String? = nil, time: Double? = nil, product: String? = nil,
        build: String? = nil, pageSize: UInt64, compressions: UInt64? = nil, largestProcess: String? = nil,
        processes: [JetsamProcess]
    ) {
        self.header = header
        self.date = date
        self.time = time
        self.product = product
        self.build = build
        self.pageSize = pageSize
        self.compressions = compressions
        self.largestProcess = largestProcess
        self.processes = processes
    }
}

/// One entry of a JetsamEvent's `processes` array. Sizes are in pages.
public struct JetsamProcess: Sendable, Hashable {
    /// Index in the `processes` array, for the JSON pointer `/processes/<index>`.
    public var index: Int
    /// `p_name`, truncated by the kernel to 32 characters.
    public var name: String
    public var pid: Int?
    /// Current footprint in pages.
    public var rpages: UInt64
    /// Lifetime maximum footprint in pages (iOS 13+; max resident size before).
    public var lifetimeMax: UInt64?
    public var states: [String]
    /// Present only on killed processes (`per-process-limit`, `vm-pageshortage`, …).
    public var reason: String?
    public var priority: Int?
    /// `physicalPages.internal[0]`: resident internal pages.
    public var residentInternalPages: UInt64?
    /// `physicalPages.internal[1]`: compressed internal pages.
    public var compressedInternalPages: UInt64?
    /// The key literally is `"freeze_skip_reason:"`.
    public var freezeSkipReason: String?
    /// Fields present whose value is no page count (`lifetimeMax 18446744073709551616000`): never guessed, and
    /// named in the artifact's diagnostics.
    public var unreadable: [String] = []

    public init(
        index: Int, name: String, pid: Int? = nil, rpages: UInt64, lifetimeMax: UInt64? = nil,
        states: [String] = [], reason: String? = nil, priority: Int? = nil, residentInternalPages: UInt64? = nil,
        compressedInternalPages: UInt64? = nil, freezeSkipReason: String? = nil
    ) {
        self.index = index
        self.name = name
        self.pid = pid
        self.rpages = rpages
        self.lifetimeMax = lifetimeMax
        self.states = states
        self.reason = reason
        self.priority = priority
        self.residentInternalPages = residentInternalPages
        self.compressedInternalPages = compressedInternalPages
        self.freezeSkipReason = freezeSkipReason
    }
}

extension JetsamProcess {
    /// Processes that are not daemons by `states` but are the system's own.
    public static let systemProcesses: Set<String> = [
        "SpringBoard", "backboardd", "kernel_task", "launchd", "WindowServer", "mediaserverd", "PineBoard",
        "Carousel", "InCallService", "CommCenter",
    ]

    /// An app or app extension: not a daemon, not a `com.apple.*` service, not SpringBoard and friends.
    public static func isApp(name: String, states: [String]) -> Bool {
        !states.contains("daemon") && !name.hasPrefix("com.apple.") && !systemProcesses.contains(name) && !name.isEmpty
    }

    public var isApp: Bool { Self.isApp(name: name, states: states) }
}

/// How a process ended, as far as its crash report tells.
public enum CrashKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// No crash report of the app (which alone does not show that it stayed alive).
    case none
    /// Termination code 0x8badf00d.
    case watchdog
    /// EXC_RESOURCE MEMORY, or a per-process memory limit (JETSAM namespace).
    case memoryLimit = "memory-limit"
    /// Ended by the system, not by jetsam and not by its own fault: a SIGKILL with a system termination
    /// code (0xdead10cc, 0x2bad45ec, …) or a privacy (TCC) termination. Not "killed": that word is jetsam's.
    case system
    /// Signals such as SIGSEGV, SIGBUS, SIGABRT, SIGTRAP, SIGILL.
    case crash
    case other
}

/// A crash report in any of its three shapes.
public struct CrashReport: Sendable, Hashable {
    public enum Format: String, Sendable, Hashable {
        /// bug_type 309: header line + JSON body.
        case ipsJSON = "ips-json"
        /// Header line + legacy text body (109, 185, …).
        case ipsText = "ips-text"
        /// Header-less legacy `.crash` text (or a Console "Translated Report").
        case text
    }

    public var format: Format
    public var header: IPSHeader?
    /// `app_name`, else `name`, else `procName`/`Process:`, else the bundle id.
    public var appName: String?
    public var processName: String?
    public var bundleID: String?
    /// The capture time as written (`captureTime`, `Date/Time:`, or header `timestamp`).
    public var date: String?
    /// `date` as seconds since 1970, when it parses.
    public var time: Double?
    public var exceptionType: String?
    public var signal: String?
    public var exceptionSubtype: String?
    public var exceptionMessage: String?
    public var terminationNamespace: String?
    /// Decimal in JSON, hex in text: normalized to a number here.
    public var terminationCode: UInt64?
    /// Termination reasons/description joined with "\n".
    public var terminationDescription: String?
    public var kind: CrashKind
    /// `Exception Codes:` / `exception.codes`, as written.
    public var exceptionCodes: String?
    /// `OS Version:` / `osVersion` (train and build) / the header's `os_version`.
    public var osVersion: String?
    /// `Hardware Model:` / `modelCode`.
    public var device: String?
    /// `Version:` / `app_version (build_version)`.
    public var appVersion: String?
    /// The report's incident identifier (`incident`, `Incident Identifier:`, the header's `incident_id`): what
    /// identifies it whatever its bytes (a CRLF copy, a paste, UTF-16), as written.
    public var incidentID: String?
    /// Which thread `frames` are of: `thread 0 (triggered)`, `thread 0 (main thread)`.
    public var framesThread: String?
    /// The top frames (at most 8) of the triggered thread, or of the main thread for a watchdog kill:
    /// `"QuartzCore CA::Transaction::commit()"`.
    public var frames: [String] = []
    /// Lines of the report's VM summary or frames that show a file lock could be held (SQLite regions or
    /// frames), the evidence for a 0xdead10cc.
    public var fileLockEvidence: [String] = []
    /// How the report was taken out of a paste (prose, fence, quote, wrapped header, elision); nil for a file
    /// read as the device wrote it. An elided report is read up to the elision only.
    public var recovery: Recovery?

    public init(
        format: Format, header: IPSHeader? = nil, appName: String? = nil, processName: String? = nil,
        bundleID: String? = nil, date: String? = nil, time: Double? = nil, exceptionType: String? = nil,
        signal: String? = nil, exceptionSubtype: String? = nil, exceptionMessage: String? = nil,
        terminationNamespace: String? = nil, terminationCode: UInt64? = nil, terminationDescription: String? = nil,
        kind: CrashKind
    ) {
        self.format = format
        self.header = header
        self.appName = appName
        self.processName = processName
        self.bundleID = bundleID
        self.date = date
        self.time = time
        self.exceptionType = exceptionType
        self.signal = signal
        self.exceptionSubtype = exceptionSubtype
        self.exceptionMessage = exceptionMessage
        self.terminationNamespace = terminationNamespace
        self.terminationCode = terminationCode
        self.terminationDescription = terminationDescription
        self.kind = kind
    }
}

/// The memory part of an `MXMetricPayload`.
public struct MetricPayload: Sendable, Hashable {
    public var timeStampBegin: String?
    public var timeStampEnd: String?
    /// `timeStampEnd` as seconds since 1970, when it parses.
    public var time: Double?
    public var bundleIdentifier: String?
    public var appVersion: String?
    /// `memoryMetrics.peakMemoryUsage` in bytes (kB = 1,000 bytes, as `UnitInformationStorage.kilobytes`).
    public var peakMemoryBytes: Double?
    /// `memoryMetrics.averageSuspendedMemory.averageValue` in bytes.
    public var averageSuspendedMemoryBytes: Double?
    /// `applicationExitMetrics.*.cumulativeMemoryResourceLimitExitCount`, summed.
    public var memoryResourceLimitExits: Int?
    /// `backgroundExitData.cumulativeMemoryPressureExitCount`.
    public var memoryPressureExits: Int?
    /// Memory measurements present but not understood (an unknown unit), each naming its JSON pointer,
    /// the text and why: reported, never dropped in silence.
    public var unreadable: [String] = []

    public init(
        timeStampBegin: String? = nil, timeStampEnd: String? = nil, time: Double? = nil,
        bundleIdentifier: String? = nil, appVersion: String? = nil, peakMemoryBytes: Double? = nil,
        averageSuspendedMemoryBytes: Double? = nil, memoryResourceLimitExits: Int? = nil,
        memoryPressureExits: Int? = nil
    ) {
        self.timeStampBegin = timeStampBegin
        self.timeStampEnd = timeStampEnd
        self.time = time
        self.bundleIdentifier = bundleIdentifier
        self.appVersion = appVersion
        self.peakMemoryBytes = peakMemoryBytes
        self.averageSuspendedMemoryBytes = averageSuspendedMemoryBytes
        self.memoryResourceLimitExits = memoryResourceLimitExits
        self.memoryPressureExits = memoryPressureExits
    }
}

/// The summary of an `MXDiagnosticPayload`.
public struct DiagnosticPayload: Sendable, Hashable {
    public var timeStampEnd: String?
    public var bundleIdentifier: String?
    public var crashCount: Int
    public var hangCount: Int

    public init(timeStampEnd: String? = nil, bundleIdentifier: String? = nil, crashCount: Int, hangCount: Int) {
        self.timeStampEnd = timeStampEnd
        self.bundleIdentifier = bundleIdentifier
        self.crashCount = crashCount
        self.hangCount = hangCount
    }
}

/// A parsed artifact. Kinds memhunt recognizes but does not read further are `.recognized`.
public enum ParsedArtifact: Sendable, Hashable {
    case ascMetrics(ASCMetrics)
    case crashReport(CrashReport)
    case jetsamEvent(JetsamEvent)
    case metricPayload(MetricPayload)
    case diagnosticPayload(DiagnosticPayload)
    /// Steps 5-8: measurements, memory tools, view dumps, change logs, samples, images.
    case repro(ReproArtifact)
    /// A log of kill lines and no change line.
    case killLog(MemoryKillLog)
    case recognized(ArtifactKind)
    /// A crash-reporting SDK's export: its events' claims.
    case sdkExport(SDKExport)
    /// A sysdiagnose archive: what its members were (they are artifacts of their own).
    case archive(ArchiveSummary)

    /// What a log scan gave: a change log (with the kills its other lines tell), or a kill log when it
    /// holds kill lines and no change line.
    public static func log(_ summary: ChangeLogSummary) -> ParsedArtifact {
        summary.evaluations == 0 && !summary.kills.isEmpty ? .killLog(summary.kills) : .repro(.changeLog(summary))
    }

    /// The kill records it holds: a kill log's, or a change log's other lines'; nil when it holds none.
    public var killLog: MemoryKillLog? {
        switch self {
        case .killLog(let log): log
        case .repro(.changeLog(let summary)) where !summary.kills.isEmpty: summary.kills
        default: nil
        }
    }

    public var kind: ArtifactKind {
        switch self {
        case .ascMetrics: .ascMetrics
        case .killLog: .killLog
        case .archive: .sysdiagnose
        case .crashReport: .crashReport
        case .jetsamEvent: .jetsamEvent
        case .metricPayload: .metricPayload
        case .diagnosticPayload: .diagnosticPayload
        case .repro(let artifact): artifact.kind
        case .recognized(let kind): kind
        case .sdkExport: .sdkExport
        }
    }
}

/// What reading one file's bytes gave.
public struct ReadOutcome: Sendable, Hashable {
    /// The kind, when the content identified it even if it then failed to parse
    /// (a JetsamEvent header followed by a truncated body is a `jetsamEvent` with an error).
    public var kind: ArtifactKind?
    public var result: Result<ParsedArtifact, FormatError>
    /// Whether the content is of no kind memhunt reads (text or JSON of no known kind, an `.ips` of another
    /// bug_type, a thread's backtrace alone), as opposed to an artifact that could not be read (empty,
    /// binary, broken): said here, not left to the words of the error.
    public var isUnrecognized: Bool

    public init(kind: ArtifactKind?, result: Result<ParsedArtifact, FormatError>, isUnrecognized: Bool = false) {
        self.kind = kind
        self.result = result
        self.isUnrecognized = isUnrecognized
    }
}
