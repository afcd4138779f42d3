import MemhuntFormats

/// How the subject of a run was chosen.
public enum SubjectOrigin: String, Sendable, Hashable, Codable, CaseIterable {
    /// Named by the person (`--app`, a triage answer).
    case given
    /// Every crash report among the artifacts names the same app.
    case crashReports = "crash-reports"
    /// Every artifact that names one app (crash reports, MetricKit payloads, vmmap, footprint, samples)
    /// names the same app, and not only crash reports do.
    case artifacts
    /// Not chosen: nothing named one app, or the artifacts name several.
    case none
}

/// The app under investigation and how to recognize its processes and reports.
public struct Subject: Sendable, Hashable, Codable {
    /// The name as given or as named by the artifacts.
    public var app: String?
    /// The bundle id, where an artifact or the person names it (`com.example.JustSend`).
    public var bundleID: String?
    /// How the subject was chosen.
    public var origin: SubjectOrigin
    /// The apps the artifacts name, when the subject was not chosen because they name several, or when the
    /// given name matches none of them (nil otherwise).
    public var candidates: [String]?
    /// For a given name: whether any artifact names it (a crash report, a MetricKit payload, a process of a
    /// JetsamEvent record, a vmmap). False only when some artifact names an app and none names this one;
    /// nil when no artifact names any app.
    public var matched: Bool?
    /// For a given name no artifact names: true when its absence is an answer, not a usage error: a complete
    /// JetsamEvent was read (it lists every process alive when it was taken), or the artifacts name the app's
    /// family (an extension's bundle id that starts with it), and no artifact's name is a close spelling of it.
    public var absenceAnswered: Bool?

    public init(
        app: String?, bundleID: String? = nil, origin: SubjectOrigin, candidates: [String]? = nil,
        matched: Bool? = nil
    ) {
        self.app = app
        self.bundleID = bundleID
        self.origin = origin
        self.candidates = candidates
        self.matched = matched
    }

    /// The kernel cuts process names at 32 characters (`2*MAXCOMLEN+1`).
    public static let processNameLimit = 32

    /// Whether a process or report name denotes the subject.
    ///
    /// Case-insensitive. Matches the exact name, a bundle id on either side (`com.example.JustSend`
    /// matches the process `JustSend`, and the process `JustSend` matches MetricKit's
    /// `com.example.JustSend`), and a name the kernel cut at 32 characters, also when the cut name is the
    /// last component of a bundle id (`com.example.AVeryLongExtensionNameOfMoreThan32` matches
    /// `AVeryLongExtensionNameOfMoreThan`). Never a different, longer name: `JustSend` does not match
    /// `JustSendWidget`.
    public func matches(_ candidate: String?) -> Bool {
        guard let app, !app.isEmpty, let candidate, !candidate.isEmpty else { return false }
        // Most calls (every process of a JetsamEvent, in every check) compare two plain names: no arrays.
        if bundleID == nil, !Self.hasDot(app), !Self.hasDot(candidate) { return Self.same(app, candidate) }
        let mine = Self.names(app) + (bundleID.map(Self.names) ?? [])
        let theirs = Self.names(candidate)
        return mine.contains { name in theirs.contains { Self.same(name, $0) } }
    }

    /// Whether `candidate` is the subject's name exactly as written (no case folding, no bundle id, no cut).
    public func matchesExactly(_ candidate: String?) -> Bool {
        guard let app, let candidate else { return false }
        return app == candidate || bundleID == candidate
    }

    /// Whether `text` holds a dot. `utf8.contains`, not `contains(".")`: with Foundation in the build, the latter is
    /// `range(of:)` through CFString, and this runs for every process of a JetsamEvent in every check: it was a large
    /// share of the work of `memhunt run --app` on a JetsamEvent of many processes.
    static func hasDot(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains(UInt8(ascii: ".")) }
            ?? text.utf8.contains(UInt8(ascii: "."))
    }

    /// A name and, for a bundle id, its last component (usually the executable's name).
    static func names(_ text: String) -> [String] {
        guard isBundleID(text), let last = text.split(separator: ".").last else { return [text] }
        return [text, String(last)]
    }

    /// The name an app is shown by: a bundle id's last component, any other name as written (`a.out`, `My.App`).
    public static func shortName(_ text: String) -> String { names(text).last ?? text }

    /// Whether `text` is written like a bundle id (reverse DNS): three or more non-empty components
    /// (`com.example.JustSend`), or two whose first is a common top-level domain (`org.telegram`); no spaces.
    /// A process named `a.out`, `Foo.bar` or `node.js` is a name, never cut to its last component.
    static func isBundleID(_ text: String) -> Bool {
        guard hasDot(text), !text.utf8.contains(32) else { return false }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty }) else { return false }
        return parts.count >= 3 || topLevelDomains.contains(parts[0].lowercased())
    }

    private static let topLevelDomains: Set<String> = [
        "app", "at", "au", "be", "br", "ca", "ch", "cn", "co", "com", "de", "dev", "dk", "es", "eu", "fi", "fr", "in",
        "io", "it", "jp", "kr", "me", "net", "nl", "no", "org", "pl", "ru", "se", "tv", "uk", "us",
    ]

    /// Equal ignoring case, or `b` is `a` cut by the kernel at 32 bytes (or the reverse).
    static func same(_ a: String, _ b: String) -> Bool {
        // ASCII names (nearly all) are compared in place: `lowercased()` maps only A-Z there and keeps lengths.
        if let answer = asciiSame(a.utf8, b.utf8) { return answer }
        let x = Array(a.lowercased().utf8)
        let y = Array(b.lowercased().utf8)
        if x == y { return true }
        if y.count == processNameLimit, x.count > processNameLimit, x.starts(with: y) { return true }
        if x.count == processNameLimit, y.count > processNameLimit, y.starts(with: x) { return true }
        return false
    }

    /// `same` for two ASCII names without allocating; nil when either is not ASCII (or not contiguous).
    private static func asciiSame(_ a: String.UTF8View, _ b: String.UTF8View) -> Bool? {
        a.withContiguousStorageIfAvailable { x in b.withContiguousStorageIfAvailable { y in asciiSame(x, y) } ?? nil }
            ?? nil
    }

    private static func asciiSame(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool? {
        var high: UInt8 = 0
        for byte in x { high |= byte }
        for byte in y { high |= byte }
        guard high < 0x80 else { return nil }
        // Only a cut at exactly `processNameLimit` bytes can match names of different lengths.
        if x.count != y.count, min(x.count, y.count) != processNameLimit { return false }
        func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }
        for index in 0..<min(x.count, y.count) where lower(x[index]) != lower(y[index]) { return false }
        return true
    }
}

/// The app an artifact belongs to, when it names one: a crash report's app, a MetricKit payload's bundle id,
/// the process of a vmmap, footprint, heap or sample (and of footprint JSON when it holds one), the processes of a change log's lines (`Memo[48211:…]`; a
/// log of `_printChanges` pasted from Xcode names none). A JetsamEvent names every process alive, and
/// measurements, view dumps and images name none; a kill log names the processes of its kills, as a
/// JetsamEvent its processes, and chooses no subject.
public enum ArtifactOwner {
    /// The names the artifact gives its app (app name, process name, bundle id), most specific first;
    /// empty when it names none.
    public static func names(of artifact: Artifact) -> [String] {
        guard artifact.status == .ok, let content = artifact.content else { return [] }
        let names: [String?]
        switch content {
        case .crashReport(let report): names = [report.appName, report.processName, report.bundleID]
        case .metricPayload(let payload): names = [payload.bundleIdentifier]
        case .diagnosticPayload(let payload): names = [payload.bundleIdentifier]
        // An SDK export names the app of its events (most exports hold one event of one app).
        case .sdkExport(let export): names = export.events.flatMap { [$0.app, $0.bundleID] }
        case .repro(.vmmap(let summary)): names = [summary.processName]
        case .repro(.footprint(let report)): names = [report.processName]
        case .repro(.sample(let report)): names = [report.processName]
        case .repro(.leaks(let report)): names = [report.processName]
        case .repro(.heap(let report)): names = [report.processName]
        // footprint JSON of one process names it; of several (`--targetChildren`, several pids) it names no one
        // app: the check reads the subject's process among them.
        // Found by walking the snapshots, never by a set of every snapshot's names: a long `--sample` file has
        // tens of thousands of them.
        case .repro(.footprintJSON(let report)):
            var only: String?
            var several = false
            for snapshot in report.snapshots where !several {
                for process in snapshot.processes where !several {
                    let name = process.name ?? ""
                    if only == nil { only = name } else if only != name { several = true }
                }
            }
            names = several ? [] : [only]
        case .repro(.xctraceExport(let export)): names = export.processNames
        // A change log names the processes of its lines, the one with most evaluations first.
        case .repro(.changeLog(let summary)):
            names = summary.processesByEvaluations.map(\.name)
        default: names = []
        }
        var seen: [String] = []
        for case let name? in names where !name.isEmpty && !seen.contains(name) { seen.append(name) }
        return seen
    }

    /// The name to show for the artifact's app: the first of `names(of:)`.
    public static func name(of artifact: Artifact) -> String? { names(of: artifact).first }

    /// Whether the artifact is of the subject: true when it names the subject, false when it names another
    /// app, nil when it names none (or there is no subject). A JetsamEvent is of the subject when it lists it.
    public static func belongs(_ artifact: Artifact, to subject: Subject) -> Bool? {
        guard subject.app != nil else { return nil }
        if case .jetsamEvent(let event)? = artifact.content, artifact.status == .ok {
            return event.processes.contains { subject.matches($0.name) }
        }
        // A kill log, like a JetsamEvent, is of the subject when one of its kills names it; a log whose kills
        // name no process (a debugger's stop) names no app.
        if case .killLog(let log)? = artifact.content, artifact.status == .ok {
            let names = log.processNames
            return names.isEmpty ? nil : names.contains { subject.matches($0) }
        }
        let names = names(of: artifact)
        guard !names.isEmpty else { return nil }
        return names.contains { subject.matches($0) }
    }
}

/// The app processes a JetsamEvent record names, largest lifetime peak first (daemons and `com.apple.*`
/// services left out), for listing and "did you mean".
public enum JetsamEventNames {
    public static func apps(_ event: JetsamEvent) -> [String] {
        event.processes.filter(\.isApp).enumerated().sorted { a, b in
            let x = max(a.element.lifetimeMax ?? 0, a.element.rpages)
            let y = max(b.element.lifetimeMax ?? 0, b.element.rpages)
            return x != y ? x > y : a.offset < b.offset
        }.map(\.element.name)
    }
}
