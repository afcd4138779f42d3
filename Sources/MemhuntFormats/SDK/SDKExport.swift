/// What a crash-reporting SDK's export says about how a run ended. No SDK observes an out-of-memory kill: each
/// infers it on the next launch from state it saved while the app ran. So an export's claim is a hypothesis,
/// and the operating system's records (JetsamEvent, kill lines, crash reports) are the evidence that grades it.

/// The SDKs whose exports memhunt reads.
public enum CrashSDK: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case bugsnag
    case crashlytics
    case datadog
    case embrace
    case kscrash
    case sentry
    /// Sentry's on-disk report (a KSCrash fork), before it becomes a Sentry event.
    case sentryCrash = "sentrycrash"

    /// The SDK's name as its vendor writes it.
    public var name: String {
        switch self {
        case .bugsnag: "Bugsnag"
        case .crashlytics: "Crashlytics"
        case .datadog: "Datadog"
        case .embrace: "Embrace"
        case .kscrash: "KSCrash"
        case .sentry: "Sentry"
        case .sentryCrash: "SentryCrash"
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// How the SDK says the run ended.
public enum SDKClaim: String, Sendable, Hashable, CaseIterable, Codable {
    /// Out of memory: Bugsnag's `Out Of Memory`, KSCrash's `memory_termination`, a termination reason of
    /// `memory_limit` or `memory_pressure`, Sentry's `OutOfMemory` of before 2023.
    case oom
    /// A watchdog termination that the SDK relates to memory: Sentry's `WatchdogTermination` ("possibly because it
    /// overused RAM"), Datadog's `Watchdog Termination`; KSCrash's exit reason 0x8badf00d is a watchdog too.
    case watchdog
    /// A crash the SDK caught in the process (a signal, a Mach exception, an uncaught exception).
    case crash
    /// An app hang the SDK saw (a main thread that did not answer).
    case appHang = "app-hang"
    /// The run ended and the SDK could not tell why (KSCrash 2.6 `unexplained`).
    case unexplained
    /// A termination the SDK blames on something other than memory (thermal state, CPU, battery).
    case otherTermination = "other-termination"
    /// No claim about the run's end: a handled error, a state file, session metadata.
    case none

    /// Whether the claim says, or implies, that memory ended the run: what the OS records can grade.
    public var isMemoryClaim: Bool { self == .oom || self == .watchdog }

    /// The claim in words: "out of memory", "watchdog termination".
    public var words: String {
        switch self {
        case .oom: "out of memory"
        case .watchdog: "watchdog termination"
        case .crash: "crash"
        case .appHang: "app hang"
        case .unexplained: "unexplained termination"
        case .otherTermination: "termination not by memory"
        case .none: "no claim about the run's end"
        }
    }
}

/// A time an export gives, with what it is and how it was written. Never the kill's time: an SDK writes the
/// last moment it saw the run alive (a breadcrumb, a memory sample, a state update).
public struct SDKTime: Sendable, Hashable {
    /// As written: `2023-01-30T09:07:16.198Z`, `1716226564474658`.
    public var text: String
    /// Seconds since 1970 in UTC; nil when the text has no zone (a local time of unknown offset) or does not parse.
    public var utc: Double?
    /// The clock and notation: `ISO 8601 UTC`, `ISO 8601 without a zone`, `Unix seconds`, `Unix microseconds`,
    /// `seconds since 2001-01-01`.
    public var clock: String
    /// What the time is: `the last breadcrumb of the ended run`.
    public var basis: String
    /// Where it is in the export, as a JSON pointer.
    public var pointer: String

    public init(text: String, utc: Double?, clock: String, basis: String, pointer: String) {
        self.text = text
        self.utc = utc
        self.clock = clock
        self.basis = basis
        self.pointer = pointer
    }

    /// Whether the text carries no zone, so that its instant is not known.
    public var lacksZone: Bool { utc == nil && clock.hasSuffix("without a zone") }
}

/// A memory figure an export carries, in bytes, with whose memory it is.
public struct SDKMemoryFigure: Sendable, Hashable {
    /// `footprint`, `limit`, `remaining`, `device free`, `device total`, `resident`.
    public var name: String
    public var bytes: UInt64
    /// Where it is in the export, as a JSON pointer.
    public var pointer: String
    /// Whether it was measured in the run the claim is about (false: the host's, or the reporting launch's).
    public var ofEndedRun: Bool

    public init(name: String, bytes: UInt64, pointer: String, ofEndedRun: Bool) {
        self.name = name
        self.bytes = bytes
        self.pointer = pointer
        self.ofEndedRun = ofEndedRun
    }
}

/// What an export's own fields say about the ended run that SDKs' users found to make false memory claims.
public enum SDKContextKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// A debugger was attached: it may have killed the app.
    case debugger
    /// The run was in a simulator: no jetsam there.
    case simulator
    /// An automated test ran the app (XCTest, Appium, Datadog Synthetics): it ends apps it drives.
    case automatedTest = "automated-test"
    /// The device rebooted between the run and the next launch.
    case reboot
    /// The app or the OS was upgraded between the run and the next launch.
    case upgrade
    /// The app was in the background: a user closing it is not told from a kill there.
    case background
}

/// One such field, as written.
public struct SDKContext: Sendable, Hashable {
    public var kind: SDKContextKind
    /// `device.simulator: true`.
    public var evidence: String

    public init(_ kind: SDKContextKind, _ evidence: String) {
        self.kind = kind
        self.evidence = evidence
    }
}

/// One event or report of an SDK: its claim, its time, its app and device, and the memory figures it carries.
public struct SDKEvent: Sendable, Hashable {
    public var sdk: CrashSDK
    /// The shape it was read from: `Sentry event`, `SentryCrash report 3.2.0`, `Bugsnag last-launch state`.
    public var shape: String
    /// The event's or report's id, as written.
    public var eventID: String?
    public var claim: SDKClaim
    /// The SDK's own words for the claim: `WatchdogTermination: The OS watchdog terminated your app, …`.
    public var claimText: String?
    /// Where the claim is in the export, as a JSON pointer.
    public var claimPointer: String?
    /// The time the claim rests on.
    public var time: SDKTime?
    /// When the launch that reported the claim started (Sentry's `contexts.app.app_start_time` of a watchdog
    /// event): a process alive after it may be that launch, not the ended run.
    public var relaunch: SDKTime?
    public var app: String?
    public var bundleID: String?
    public var version: String?
    public var build: String?
    /// `iOS 16.2`.
    public var os: String?
    /// `20C5043e`.
    public var osBuild: String?
    /// The model identifier: `iPhone11,8`.
    public var device: String?
    /// An id of the device or of the install, as the SDK writes it (Sentry `device_app_hash`, Bugsnag `device.id`).
    public var deviceID: String?
    /// The ended run's process id, when the export has it.
    public var pid: Int?
    public var memory: [SDKMemoryFigure] = []
    /// KSCrash's memory level of the last sample (`normal`, `warn`, `urgent`, `critical`, `terminal`).
    public var memoryLevel: String?
    /// KSCrash's memory pressure of the last sample.
    public var memoryPressure: String?
    /// Whether the run saw a low-memory warning (Bugsnag `lowMemoryWarning`, a Sentry `LOW_MEMORY` breadcrumb).
    public var lowMemoryWarning: Bool?
    /// The OS exit reason code KSCrash 2.6 records on a Mach kill (0x8BADF00D: the watchdog).
    public var exitReasonCode: UInt64?
    public var contexts: [SDKContext] = []

    public init(sdk: CrashSDK, shape: String, claim: SDKClaim) {
        self.sdk = sdk
        self.shape = shape
        self.claim = claim
    }

    /// The named figure of the ended run, when the export carries it.
    public func figure(_ name: String) -> SDKMemoryFigure? {
        memory.first { $0.name == name && $0.ofEndedRun }
    }

    /// What identifies the event across copies: its id, else its SDK, time and app.
    public var identity: String {
        sdk.rawValue + ":" + (eventID ?? ((time?.text ?? "?") + "/" + (bundleID ?? app ?? "?") + "/" + shape))
    }
}

/// An SDK export: the events it holds, and what of it could not be read.
public struct SDKExport: Sendable, Hashable {
    public var events: [SDKEvent]
    /// Set when the export was cut short (a paste that ends mid-JSON): where, in words. What was whole was read.
    public var cut: String?
    /// What it holds that could not be read, a sentence each.
    public var diagnostics: [String] = []

    public init(events: [SDKEvent], cut: String? = nil) {
        self.events = events
        self.cut = cut
    }
}
