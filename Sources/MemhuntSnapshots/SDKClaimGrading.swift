import MemhuntFormats

/// What an operating-system record shows of one process of an app at one moment: the evidence an SDK's claim is
/// graded against. Built from a JetsamEvent (every process alive then, and the killed with their reason), a crash
/// report (how the process ended), or a kernel kill line.
public struct OSRecord: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// Killed by jetsam for memory: its reason (`per-process-limit`, `vm-pageshortage`, …).
        case memoryKill(reason: String)
        /// Killed by jetsam for another reason (`idle-exit`, `vnode-limit`, …).
        case otherKill(reason: String)
        /// Listed alive, with its states.
        case alive(states: [String])
        /// Ended as its crash report says (`watchdog`, `crash`, `system`, `memory-limit`), in words.
        case ended(CrashKind, words: String)
    }

    /// `JetsamEvent`, `crash report`, `kill line`.
    public var what: String
    /// The file's name, and a line where the record is one line of a log.
    public var file: String
    public var line: Int?
    public var process: String
    public var pid: Int?
    public var outcome: Outcome
    /// Seconds since 1970 in UTC; nil when the record's time has no zone or does not parse.
    public var time: Double?
    /// The time as the record writes it.
    public var timeText: String?
    public var device: String?
    /// `26.0` and `23A341`, from `iPhone OS 26.0 (23A341)`.
    public var osVersion: String?
    public var osBuild: String?
    /// The resident footprint the record gives, in bytes.
    public var residentBytes: UInt64?

    public init(
        what: String, file: String, line: Int? = nil, process: String, pid: Int? = nil, outcome: Outcome,
        time: Double?, timeText: String?, device: String? = nil, os: String? = nil, residentBytes: UInt64? = nil
    ) {
        self.what = what
        self.file = file
        self.line = line
        self.process = process
        self.pid = pid
        self.outcome = outcome
        self.time = time
        self.timeText = timeText
        self.device = device
        (osVersion, osBuild) = Self.split(os: os)
        self.residentBytes = residentBytes
    }

    /// Kill reasons of memory: the process's own limit, or the system short of memory.
    public static let memoryReasons: Set<String> = JetsamSnapshot.pressureReasons.union([
        "per-process-limit", "highwater", "memory-limit",
    ])

    /// The records of a JetsamEvent's processes that `isApp` says are the app's.
    public static func records(of event: JetsamEvent, file: String, isApp: (String) -> Bool) -> [OSRecord] {
        var shared = JetsamRecords.Shared()
        let listed = JetsamRecords(event, file: file, isApp: { isApp($0.name) }, shared: &shared)
        return listed.processes.map(listed.record)
    }

    /// The record of a crash report, when `isApp` says it is the app's.
    public static func record(of report: CrashReport, file: String, isApp: (String) -> Bool) -> OSRecord? {
        guard let name = [report.processName, report.appName, report.bundleID].compactMap({ $0 }).first(where: isApp)
        else { return nil }
        var words = report.kind.rawValue
        if let code = report.terminationCode { words = "termination code 0x" + String(code, radix: 16) }
        if report.kind == .crash || report.kind == .other {
            words = [report.exceptionType, report.signal].compactMap { $0 }.joined(separator: " ").nonEmptyOr(words)
        }
        return OSRecord(
            what: "crash report", file: file, process: name,
            outcome: report.kind == .memoryLimit ? .memoryKill(reason: words) : .ended(report.kind, words: words),
            time: zoned(report.date) ? report.time : nil, timeText: report.date, device: report.device,
            os: report.osVersion)
    }

    /// The record of a kill line, when `isApp` says it is the app's.
    public static func record(of kill: MemoryKill, file: String, isApp: (String) -> Bool) -> OSRecord? {
        guard kill.killed, let name = kill.process, isApp(name) else { return nil }
        let reason = kill.reason ?? (kill.limitMB != nil ? "per-process-limit" : "a memory kill")
        let time = kill.timestamp.flatMap { zoned($0) ? AppleDate.parse($0) : nil }
        let outcome: Outcome =
            memoryReasons.contains(reason) || reason == "a memory kill"
            ? .memoryKill(reason: reason) : .otherKill(reason: reason)
        return OSRecord(
            what: "kill line", file: file, line: kill.line, process: name, pid: kill.pid, outcome: outcome, time: time,
            timeText: kill.timestamp, residentBytes: kill.footprintKB.map { $0 &* 1024 })
    }

    private static func zoned(_ text: String?) -> Bool { text.map(AppleDate.hasZone) ?? false }

    /// `iPhone OS 26.0 (23A341)` → (`26.0`, `23A341`); `iOS 16.2` → (`16.2`, nil).
    static func split(os: String?) -> (String?, String?) {
        guard let os else { return (nil, nil) }
        var build: String?
        var head = Substring(os)
        if let open = os.lastIndex(of: "("), let close = os.lastIndex(of: ")"), open < close {
            build = String(os[os.index(after: open)..<close])
            head = os[..<open]
        }
        let version = head.split(separator: " ").last { $0.first?.isNumber == true }.map(String.init)
        return (version, build)
    }
}

/// How an SDK's claim stands against the OS records.
public enum SDKGrade: String, Sendable, Hashable, CaseIterable, Codable {
    /// An OS record of the app on that device shows a memory kill after the SDK's time, within the window.
    case confirmed
    /// An OS record shows another ending (a crash, the watchdog), or the app alive after the SDK's time, or the
    /// SDK's own last sample far below the limit.
    case contradicted
    /// No OS record settles it, and the export's own fields name a known false-positive class (a debugger, a
    /// simulator, automated testing, a reboot, an upgrade, the background).
    case falsePositiveClass = "false-positive-class"
    /// No OS record of that device covers the time.
    case unconfirmed
    /// The event makes no memory claim (a crash the SDK caught, a state file, Crashlytics): nothing to grade.
    case noClaim = "no-claim"
}

/// One claim, graded, with the sentence that says why.
public struct SDKClaimGrade: Sendable, Hashable {
    public var event: SDKEvent
    public var grade: SDKGrade
    /// The record the grade rests on, when one does.
    public var record: OSRecord?
    /// Why, with both sides' times and clocks, and the device match's basis.
    public var sentence: String
    /// For a contradiction: `watchdog, not memory`, `alive after the claimed time`, `far below its limit`.
    public var reason: String?
}

/// Grades SDK claims against OS records. Pure: the records are given, nothing is read.
public enum SDKClaimGrader {
    /// The tunables, with their defaults.
    public struct Options: Sendable, Hashable {
        /// How long after the SDK's time an OS record may come and still be of that run's end.
        public var windowSeconds: Double
        /// A last sample below this share of the limit, with no pressure or warning, is far below it.
        public var farBelowRatio: Double

        public init(windowSeconds: Double = 600, farBelowRatio: Double = 0.5) {
            self.windowSeconds = windowSeconds
            self.farBelowRatio = farBelowRatio
        }
    }

    /// The grade of `event` against `records` (of any app: those of the event's app are picked here with
    /// `isApp`, or with the event's own names when nil).
    public static func grade(
        _ event: SDKEvent, records: [OSRecord], options: Options = Options(), unread: [String] = []
    ) -> SDKClaimGrade {
        let said = claimSentence(event)
        guard event.claim.isMemoryClaim else {
            let why =
                event.sdk == .crashlytics
                ? "Crashlytics makes no out-of-memory or watchdog claim"
                : event.claim == .none ? "Not a memory claim" : "A " + event.claim.words + " is not a memory claim"
            return SDKClaimGrade(event: event, grade: .noClaim, sentence: said + ". " + why + ": nothing to grade.")
        }
        guard let time = event.time else {
            return unconfirmed(
                event,
                said + ". The export gives no time for the claim, so no OS record can be set "
                    + "beside it.")
        }
        guard let start = time.utc else {
            let why =
                time.lacksZone
                ? "its time \(time.text) has no zone, so the instant is not known and no OS record is set beside it"
                : "its time \(time.text) is no time memhunt reads"
            return unconfirmed(event, said + "; " + why + ".")
        }
        let found = Found(event, records: records, start: start, end: start + options.windowSeconds)
        if let grade = byRecord(event, found, said: said) { return grade }
        if let context = event.contexts.first {
            let all = event.contexts.map { $0.kind.rawValue + " (" + $0.evidence + ")" }.joined(separator: ", ")
            return SDKClaimGrade(
                event: event, grade: .falsePositiveClass,
                sentence: said + "; no OS record of that run's end was among the artifacts, and the export's own "
                    + "fields name a known false-positive class: " + all + ". " + falsePositiveWhy(context.kind),
                reason: context.kind.rawValue)
        }
        if let grade = farBelow(event, said: said, options: options) { return grade }
        return unconfirmed(event, said + "; " + notCovered(event, found, unread: unread, options: options))
    }

    /// The OS records of the event's app, sorted by what they can say of the claim: of another device, undated,
    /// outside the window, in it (each with the basis of its device match), and those before the relaunch.
    struct Found {
        var start: Double
        var end: Double
        var relaunch: Double?
        var otherDevice: [OSRecord] = []
        var undated: [OSRecord] = []
        var outside: [OSRecord] = []
        var inWindow: [(OSRecord, String)] = []
        /// A kill of the ended run comes before the launch that reported it.
        var beforeRelaunch: [(OSRecord, String)] {
            inWindow.filter { relaunch == nil || ($0.0.time ?? 0) <= relaunch! + 1 }
        }

        init(_ event: SDKEvent, records: [OSRecord], start: Double, end: Double) {
            self.start = start
            self.end = end
            relaunch = event.relaunch?.utc
            let names = appNames(event)
            for record in records where names.contains(where: { same($0, record.process) }) {
                let (same, basis) = deviceMatch(event, record)
                if same == false {
                    otherDevice.append(record)
                    continue
                }
                guard let at = record.time else {
                    undated.append(record)
                    continue
                }
                // A second of slack: the records write hundredths, some SDKs whole seconds.
                guard at >= start - 1, at <= end else {
                    outside.append(record)
                    continue
                }
                inWindow.append((record, basis))
            }
            inWindow.sort { ($0.0.time ?? 0) < ($1.0.time ?? 0) }
        }
    }

    /// "the JetsamEvent X of T (written …), 9 s after Sentry's time; the same device by …".
    static func beside(_ record: OSRecord, _ basis: String, _ event: SDKEvent, start: Double) -> String {
        let at = record.time ?? start
        let when =
            "the \(record.what) \(record.file)" + (record.line.map { " line \($0)" } ?? "") + " of "
            + AppleDate.utcText(at) + (record.timeText.map { $0.hasSuffix("Z") ? "" : " (written \($0))" } ?? "")
        return when + ", " + seconds(at - start) + " after " + event.sdk.name + "'s time; " + basis
    }

    /// The grade an OS record of the ended run gives: a memory kill confirms; another ending, or the process
    /// alive after the claimed time, contradicts. Nil when no record in the window says either.
    static func byRecord(_ event: SDKEvent, _ found: Found, said: String) -> SDKClaimGrade? {
        let before = found.beforeRelaunch
        func beside(_ record: OSRecord, _ basis: String) -> String {
            Self.beside(record, basis, event, start: found.start)
        }
        if let (record, basis) = before.first(where: { if case .memoryKill = $0.0.outcome { true } else { false } }),
            case .memoryKill(let reason) = record.outcome
        {
            let resident = record.residentBytes.map { " with " + megabytes($0) + " resident" } ?? ""
            return SDKClaimGrade(
                event: event, grade: .confirmed, record: record,
                sentence: said + "; " + beside(record, basis) + ": it shows " + record.process
                    + (record.pid.map { " [\($0)]" } ?? "") + " killed for memory (\(reason))" + resident
                    + ". Confirmed" + (event.claim == .watchdog ? ": the watchdog termination was a memory kill." : ".")
            )
        }
        if let (record, basis) = before.first(where: { pair in
            switch pair.0.outcome {
            case .ended(let kind, _): kind != .memoryLimit
            case .otherKill: true
            default: false
            }
        }) {
            let (shows, reason) = otherEnding(record)
            return SDKClaimGrade(
                event: event, grade: .contradicted, record: record,
                sentence: said + "; " + beside(record, basis) + ": " + shows + ". Contradicted.", reason: reason)
        }
        guard
            let (record, basis) = before.first(where: { pair in
                guard case .alive = pair.0.outcome else { return false }
                // Another process of the app (its pid differs from the ended run's) is not that run.
                return event.pid == nil || pair.0.pid == nil || event.pid == pair.0.pid
            }), case .alive(let states) = record.outcome
        else { return nil }
        let relaunchNote =
            found.relaunch != nil
            ? " and before the launch that sent the event (\(AppleDate.utcText(found.relaunch!)))"
            : "; the export does not say when the app was launched again: were it before that record, the "
                + "process listed is the new launch"
        let resident = record.residentBytes.map { ", " + megabytes($0) + " resident" } ?? ""
        return SDKClaimGrade(
            event: event, grade: .contradicted, record: record,
            sentence: said + "; " + beside(record, basis) + ": it lists " + record.process
                + (record.pid.map { " [\($0)]" } ?? "") + " alive"
                + (states.isEmpty ? "" : " (" + states.joined(separator: ", ") + ")") + resident
                + ", after the SDK's time" + relaunchNote + ". Contradicted.",
            reason: "alive after the claimed time")
    }

    /// What a record of another ending shows, and the reason it contradicts the claim.
    static func otherEnding(_ record: OSRecord) -> (shows: String, reason: String) {
        switch record.outcome {
        case .ended(.watchdog, let words):
            (
                "it shows \(record.process) ended by the watchdog (\(words)): a watchdog, but not memory",
                "watchdog, not memory"
            )
        case .ended(let kind, let words):
            ("it shows \(record.process) ended otherwise (\(kind.rawValue): \(words)), not by memory", "another ending")
        case .otherKill(let why):
            ("it shows \(record.process) killed by jetsam for \(why), not for memory", "another ending")
        default: ("", "")
        }
    }

    /// The SDK's own last sample far below its limit, with no pressure or low-memory warning: contradicted by
    /// the export itself. Nil otherwise.
    static func farBelow(_ event: SDKEvent, said: String, options: Options) -> SDKClaimGrade? {
        guard let footprint = event.figure("footprint"), let limit = event.figure("limit"), limit.bytes > 0 else {
            return nil
        }
        let ratio = Double(footprint.bytes) / Double(limit.bytes)
        let pressed = ["critical", "terminal", "urgent"]
        let calm =
            !pressed.contains(event.memoryLevel ?? "") && !pressed.contains(event.memoryPressure ?? "")
            && event.lowMemoryWarning != true
        guard ratio < options.farBelowRatio, calm else { return nil }
        let percent = Int((ratio * 100).rounded())
        return SDKClaimGrade(
            event: event, grade: .contradicted,
            sentence: said + "; no OS record of that run's end was among the artifacts, and the SDK's own "
                + "last sample has the footprint at " + megabytes(footprint.bytes) + " of its "
                + megabytes(limit.bytes) + " limit (\(percent) %)"
                + (event.memoryPressure.map { ", pressure \($0)" } ?? "")
                + (event.lowMemoryWarning == false ? ", no low-memory warning" : "")
                + ": far below it. Contradicted by the export itself; a JetsamEvent of that time would "
                + "settle it.",
            reason: "far below its limit")
    }

    /// Why no OS record settles the claim: the window, and what was there and not used.
    static func notCovered(_ event: SDKEvent, _ found: Found, unread: [String], options: Options) -> String {
        let start = found.start
        var known: [String] = []
        if let record = found.otherDevice.first {
            known.append(
                plural(found.otherDevice.count, "OS record") + " of " + record.process + " of another device or OS ("
                    + found.otherDevice.prefix(3).map { $0.file + ": " + deviceText($0) }.joined(separator: "; ")
                    + "), not used")
        }
        if !found.outside.isEmpty {
            let nearest = found.outside.min { abs(($0.time ?? 0) - start) < abs(($1.time ?? 0) - start) }!
            known.append(
                plural(found.outside.count, "OS record") + " of " + nearest.process + " outside the window (nearest: "
                    + "the " + nearest.what + " of " + AppleDate.utcText(nearest.time ?? 0) + ", "
                    + seconds((nearest.time ?? 0) - start) + " from " + event.sdk.name + "'s time)")
        }
        if let record = found.undated.first {
            known.append(
                plural(found.undated.count, "OS record") + " of " + record.process + " whose time has no zone ("
                    + found.undated.prefix(3).map(\.file).joined(separator: ", ") + ")")
        }
        if let pending = found.inWindow.first, found.relaunch != nil, found.beforeRelaunch.isEmpty {
            known.append(
                "the " + pending.0.what + " of " + AppleDate.utcText(pending.0.time ?? 0)
                    + " comes after the launch that sent the event, so it is of that launch")
        }
        if !unread.isEmpty {
            known.append(
                plural(unread.count, "file") + " that could not be read (" + unread.prefix(3).joined(separator: ", ")
                    + ")")
        }
        return "no OS record of " + (event.app ?? event.bundleID ?? "the app") + " on that device covers "
            + AppleDate.utcText(start) + " to " + AppleDate.utcText(found.end) + " (" + minutes(options.windowSeconds)
            + " after)" + (known.isEmpty ? "" : ": " + known.joined(separator: "; "))
            + ". A JetsamEvent or the device's log of that time would settle it."
    }

    private static func unconfirmed(_ event: SDKEvent, _ sentence: String) -> SDKClaimGrade {
        SDKClaimGrade(event: event, grade: .unconfirmed, sentence: sentence)
    }

    /// `Sentry says watchdog termination at 2026-08-12T00:02:02Z (the last breadcrumb …, ISO 8601 UTC)`.
    public static func claimSentence(_ event: SDKEvent) -> String {
        var text =
            event.claim == .none
            ? "The " + event.shape + " makes no claim about the run's end"
            : event.sdk.name + " says " + event.claim.words
        if let words = event.claimText, !words.isEmpty {
            text += " ('" + (words.count > 120 ? words.prefix(120) + "…" : words) + "')"
        }
        if let time = event.time {
            text +=
                " at " + (time.utc.map(AppleDate.utcText) ?? time.text) + " (" + time.basis + "; " + time.clock
                + (time.utc != nil && time.clock != "ISO 8601 UTC" ? ", written " + time.text : "") + ")"
        }
        return text
    }

    private static func falsePositiveWhy(_ kind: SDKContextKind) -> String {
        switch kind {
        case .debugger: "A debugger ends the app it is attached to, and the SDK cannot tell that from a kill."
        case .simulator: "A simulator has no jetsam: the run ended another way (Xcode stopped it, the host)."
        case .automatedTest: "An automated test ends the app it drives, which the SDK cannot tell from a kill."
        case .reboot: "A reboot ends every app."
        case .upgrade: "An upgrade ends the running app."
        case .background: "In the background a user's close is not told from a kill."
        }
    }

    /// What both sides carry of the device, compared: same (true), another (false), or not known (nil), in words.
    static func deviceMatch(_ event: SDKEvent, _ record: OSRecord) -> (Bool?, String) {
        var agree: [String] = []
        var differ: [String] = []
        if let a = event.device, let b = record.device {
            if a.lowercased() == b.lowercased() {
                agree.append("model " + a)
            } else {
                differ.append("model \(a) vs \(b)")
            }
        }
        if let a = event.osBuild, let b = record.osBuild {
            if a.lowercased() == b.lowercased() {
                agree.append("OS build " + a)
            } else {
                differ.append("OS build \(a) vs \(b)")
            }
        } else if let a = OSRecord.split(os: event.os).0, let b = record.osVersion {
            if a == b { agree.append("OS " + a) } else { differ.append("OS \(a) vs \(b)") }
        }
        if !differ.isEmpty { return (false, "another device or OS: " + differ.joined(separator: ", ")) }
        if !agree.isEmpty { return (true, "the same device by " + agree.joined(separator: " and ")) }
        return (nil, "no device field both carry: matched by app and time only")
    }

    private static func deviceText(_ record: OSRecord) -> String {
        [record.device, record.osBuild.map { "OS build " + $0 } ?? record.osVersion.map { "OS " + $0 }]
            .compactMap { $0 }.joined(separator: ", ")
    }

    /// The names an event gives its app, and a bundle id's last component.
    public static func appNames(_ event: SDKEvent) -> [String] {
        var names: [String] = []
        for case let name? in [event.app, event.bundleID] where !name.isEmpty {
            names.append(name)
            if name.contains("."), let last = name.split(separator: ".").last { names.append(String(last)) }
        }
        return names
    }

    /// Equal ignoring case, or one is the other cut by the kernel at 32 bytes.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = a.lowercased()
        let y = b.lowercased()
        if x == y { return true }
        if y.utf8.count == 32, x.utf8.count > 32, x.utf8.starts(with: y.utf8) { return true }
        if x.utf8.count == 32, y.utf8.count > 32, y.utf8.starts(with: x.utf8) { return true }
        return false
    }

    static func megabytes(_ bytes: UInt64) -> String { grouped(Int((Double(bytes) / 1_048_576).rounded())) + " MB" }

    static func seconds(_ delta: Double) -> String {
        let whole = Int(delta.rounded())
        if abs(whole) < 120 { return "\(whole) s" }
        if abs(whole) < 7200 { return "\(whole / 60) min \(abs(whole) % 60) s" }
        return grouped(whole / 3600) + " h"
    }

    static func minutes(_ seconds: Double) -> String {
        let whole = Int(seconds / 60)
        return whole == 1 ? "1 minute" : "\(whole) minutes"
    }

    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)" + (count == 1 ? "" : "s") }

    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (value < 0 ? "-" : "") + out
    }
}

extension String {
    fileprivate func nonEmptyOr(_ other: String) -> String { isEmpty ? other : self }
}
