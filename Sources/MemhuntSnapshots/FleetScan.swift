import MemhuntFormats

/// One record of a fleet scan, as `memhunt scan --format ndjson` prints it: the per-record numbers of
/// the apps it names, nothing aggregated. Built from a parsed artifact, then folded into a `ScanAggregate`
/// and dropped.
public struct ScanRecord: Sendable, Hashable, Encodable {
    /// One app of the record.
    public struct App: Sendable, Hashable, Encodable {
        public var name: String
        /// The lifetime peak (JetsamEvent `lifetimeMax`, MetricKit `peakMemoryUsage`) in KiB.
        public var peakKiB: UInt32?
        /// The footprint at the record's moment (JetsamEvent `rpages`) or MetricKit's average suspended
        /// memory, in KiB.
        public var residentKiB: UInt32?
        /// Rank among all processes of a JetsamEvent by peak (1 = largest).
        public var rank: Int?
        /// The process's states joined with `,` (`suspended`, `active,frontmost`); MetricKit's average
        /// suspended memory is `suspended`.
        public var state: String?
        /// The JetsamEvent kill reason, or a crash report's kind (`memory-limit`, `watchdog`, `system`, `crash`).
        public var reason: String?

        public init(
            name: String, peakKiB: UInt32? = nil, residentKiB: UInt32? = nil, rank: Int? = nil, state: String? = nil,
            reason: String? = nil
        ) {
            self.name = name
            self.peakKiB = peakKiB
            self.residentKiB = residentKiB
            self.rank = rank
            self.state = state
            self.reason = reason
        }

        /// Whether the resident figure is of a suspended app (step 3's question).
        public var isSuspended: Bool {
            // One pass over the bytes: splitting into substrings cost far more per call, and showed in a fleet scan's
            // profile.
            guard var state else { return false }
            return state.withUTF8 { bytes in
                var start = 0
                for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: ",") {
                    if end - start == 9, bytes[start..<end].elementsEqual("suspended".utf8) { return true }
                    start = end + 1
                }
                return false
            }
        }

        enum CodingKeys: String, CodingKey { case name, peakMB, residentMB, rank, state, reason }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encodeIfPresent(peakKiB.map(ScanFigures.megabytes), forKey: .peakMB)
            try container.encodeIfPresent(residentKiB.map(ScanFigures.megabytes), forKey: .residentMB)
            try container.encodeIfPresent(rank, forKey: .rank)
            try container.encodeIfPresent(state, forKey: .state)
            try container.encodeIfPresent(reason, forKey: .reason)
        }
    }

    public var file: String
    /// The artifact kind (`jetsam-event`, `crash-report`, `metrickit-metrics`).
    public var kind: String
    /// Seconds since 1970, when the record's date parses.
    public var time: Double?
    public var product: String?
    public var build: String?
    /// `memoryStatus.compressions`: pages compressed since boot (a counter, not a moment).
    public var compressions: UInt64?
    /// One entry per app name (the largest process when a record lists a name twice), largest peak first.
    public var apps: [App]
    /// Names the record ties to one app (a crash report's process name and bundle id): one app in every
    /// table of a scan. Not written in the record's line.
    public var ties: [[String]] = []

    enum CodingKeys: String, CodingKey { case file, kind, time, product, build, compressions, apps }

    public init(
        file: String, kind: String, time: Double? = nil, product: String? = nil, build: String? = nil,
        compressions: UInt64? = nil, apps: [App]
    ) {
        self.file = file
        self.kind = kind
        self.time = time
        self.product = product
        self.build = build
        self.compressions = compressions
        self.apps = apps
    }

    /// The record of a parsed artifact; nil for kinds a scan does not read (measurements, change logs, …).
    public init?(file: String, content: ParsedArtifact) {
        switch content {
        case .jetsamEvent(let event):
            let snapshot = JetsamSnapshot(event)
            var seen = Set<String>()
            var apps: [App] = []
            // Process records without their event have no page size and no rank: no figures of a scan.
            for process in snapshot.appsByPeak where snapshot.pageSizeKnown && seen.insert(process.name).inserted {
                apps.append(
                    App(
                        name: process.name, peakKiB: ScanFigures.kibibytes(snapshot.bytes(pages: process.peakPages)),
                        residentKiB: ScanFigures.kibibytes(snapshot.bytes(pages: process.residentPages)),
                        rank: snapshot.complete ? process.rank : nil, state: process.states.joined(separator: ","),
                        reason: process.reason))
            }
            self.init(
                file: file, kind: ArtifactKind.jetsamEvent.rawValue, time: snapshot.time, product: snapshot.product,
                build: snapshot.build ?? event.header?.osVersion, compressions: snapshot.compressions, apps: apps)
        case .crashReport(let report):
            let snapshot = CrashSnapshot(report)
            let name = snapshot.app ?? snapshot.process ?? snapshot.bundleID
            self.init(
                file: file, kind: ArtifactKind.crashReport.rawValue, time: snapshot.time, product: report.device,
                build: report.osVersion ?? report.header?.osVersion,
                apps: name.map { [App(name: $0, reason: snapshot.kind.rawValue)] } ?? [])
            // The report names its app and bundle id together: they are one app.
            let names = Set(
                [snapshot.app, snapshot.process, snapshot.bundleID].compactMap { $0 }.filter { !$0.isEmpty })
            if names.count > 1 { ties = [names.sorted()] }
        case .metricPayload(let payload):
            let snapshot = MetricKitSnapshot(payload)
            let name = snapshot.bundleID
            let app = name.map {
                App(
                    name: $0, peakKiB: snapshot.peakBytes.map(ScanFigures.kibibytes),
                    residentKiB: snapshot.suspendedBytes.map(ScanFigures.kibibytes),
                    state: snapshot.suspendedBytes == nil ? nil : "suspended")
            }
            self.init(
                file: file, kind: ArtifactKind.metricPayload.rawValue, time: snapshot.time,
                apps: app.map { [$0] } ?? [])
        default:
            return nil
        }
    }
}

/// An App Store Connect `perfPowerMetrics` response as a scan shows it: its memory points as Apple gave them.
/// They are aggregates already (a percentile over the devices of a class that ran a version), not records:
/// kept apart from the records' figures and never folded into their percentiles.
public struct ScanASCMetrics: Sendable, Hashable, Encodable {
    public struct Point: Sendable, Hashable, Encodable {
        /// `peakMemory`, `averageSuspendedMemory`, as written.
        public var metric: String
        public var version: String
        public var device: String?
        public var deviceName: String?
        /// `p50`, `p90`, or the percentile as written.
        public var percentile: String?
        public var value: Double
        /// The unit as written (`megabytes`).
        public var unit: String?
        public var errorMargin: Double?
    }

    public var file: String
    public var platforms: [String]
    public var points: [Point]
    /// Values of the memory category that could not be read (the artifact names each).
    public var unreadable: Int

    public init(file: String, metrics: ASCMetrics) {
        self.file = file
        var platforms: [String] = []
        for case let platform? in metrics.memory.map(\.platform) where !platforms.contains(platform) {
            platforms.append(platform)
        }
        self.platforms = platforms
        points = metrics.memory.map {
            Point(
                metric: $0.metric, version: $0.version, device: $0.device, deviceName: $0.deviceName,
                percentile: $0.percentileLabel, value: $0.value, unit: $0.unit ?? $0.unitName,
                errorMargin: $0.errorMargin)
        }
        unreadable = metrics.problemCount
    }
}

/// Number helpers shared by the scan's aggregates and outputs, so every format rounds alike.
public enum ScanFigures {
    /// Bytes to KiB, rounded, saturating at `UInt32.max` (4 TiB): compact per-app arrays.
    public static func kibibytes(_ bytes: Double) -> UInt32 {
        guard bytes.isFinite, bytes > 0 else { return 0 }
        return UInt32(min((bytes / 1024).rounded(), Double(UInt32.max)))
    }

    /// KiB to MB (1,048,576 bytes), one decimal.
    public static func megabytes(_ kib: UInt32) -> Double { (Double(kib) / 1024 * 10).rounded() / 10 }

    /// The nearest-rank percentile of sorted values: the value at 1-based position ⌈p/100 × n⌉ (p50 of
    /// four values is the second). An element of the data, so rounding before or after gives the same
    /// figure; the Spark job (`Benchmarks/spark/scan_job.py`) computes the same definition.
    public static func percentile<T>(_ sorted: [T], _ p: Double) -> T? {
        guard !sorted.isEmpty else { return nil }
        return sorted[rank(p, of: sorted.count) - 1]
    }

    /// The 1-based position of the nearest-rank percentile `p` among `count` (at least one) sorted values.
    static func rank(_ p: Double, of count: Int) -> Int {
        min(max(Int((p / 100 * Double(count)).rounded(.up)), 1), count)
    }
}

/// Exact nearest-rank percentiles of KiB values kept as value → count: memory grows with the distinct values,
/// not with the records (a fleet's peaks are whole pages of one size, and repeat).
public struct ScanHistogram: Sendable, Hashable {
    public private(set) var counts: [UInt32: Int] = [:]
    /// Values added, with repeats.
    public private(set) var total = 0

    public init() {}

    public mutating func add(_ value: UInt32) {
        counts[value, default: 0] += 1
        total += 1
    }

    public mutating func merge(_ other: ScanHistogram) {
        counts.merge(other.counts, uniquingKeysWith: +)
        total += other.total
    }
}

/// What a fleet scan keeps: per-app aggregates and bounded samples, never the records. Memory grows with
/// the number of apps and the distinct KiB values of each (`ScanHistogram`: exact percentiles; they were a
/// `[UInt32]` of 4 bytes per app per record), and by 8 bytes per record for the compressions counter (a
/// counter hardly repeats). Pure: no I/O; workers fold their files into their own aggregate and `merge` them.
public struct ScanAggregate: Sendable {
    /// A file that could not be read as a record, with the reason.
    public struct Rejected: Sendable, Hashable, Encodable {
        public var file: String
        public var reason: String

        public init(file: String, reason: String) {
            self.file = file
            self.reason = reason
        }
    }

    /// One app's peak in one record: the outliers and an app's worst records.
    public struct Sample: Sendable, Hashable {
        public var file: String
        public var app: String
        public var peakKiB: UInt32

        /// Largest peak first, then by file and app, so the kept samples do not depend on the fold order.
        static func before(_ a: Sample, _ b: Sample) -> Bool {
            if a.peakKiB != b.peakKiB { return a.peakKiB > b.peakKiB }
            if a.file != b.file { return a.file < b.file }
            return a.app < b.app
        }
    }

    /// One app's figures.
    public struct App: Sendable {
        public var records = 0
        /// Records where the app ranked 1, 2–5, 6–10, over 10 (JetsamEvents only).
        public var ranks = [0, 0, 0, 0]
        /// Peaks in KiB, one per record that has one.
        public var peaksKiB = ScanHistogram()
        /// Resident KiB of the records where the app was suspended.
        public var suspendedKiB = ScanHistogram()
        public var reasons: [String: Int] = [:]
        public var devices: [String: Int] = [:]
        public var builds: [String: Int] = [:]
        /// The records with the largest peaks, at most `ScanAggregate.worstPerApp`.
        public var worst: [Sample] = []

        public init() {}

        mutating func merge(_ other: App) {
            records += other.records
            for index in ranks.indices { ranks[index] += other.ranks[index] }
            peaksKiB.merge(other.peaksKiB)
            suspendedKiB.merge(other.suspendedKiB)
            reasons.merge(other.reasons, uniquingKeysWith: +)
            devices.merge(other.devices, uniquingKeysWith: +)
            builds.merge(other.builds, uniquingKeysWith: +)
            for sample in other.worst { ScanAggregate.keep(sample, in: &worst, limit: ScanAggregate.worstPerApp) }
        }
    }

    public static let worstPerApp = 10
    public static let outlierCount = 5

    public var records = 0
    public var recordsByKind: [String: Int] = [:]
    public var rejected: [Rejected] = []
    /// Files of kinds a scan does not read, counted by kind.
    public var skipped: [String: Int] = [:]
    /// Files with the same bytes (sha256) as a file already counted: counted once.
    public var duplicates = 0
    /// `memoryStatus.compressions` of each JetsamEvent that has it as a count.
    public var compressions: [UInt64] = []
    /// JetsamEvents whose counter holds a value no count reaches (above `Int.max`; UInt64.max is -1 written
    /// unsigned): left out of `compressions`.
    public var compressionsNotCounts = 0
    public var apps: [String: App] = [:]
    /// Names the records tie to one app (`ScanRecord.ties`), each name to the others.
    public var ties: [String: Set<String>] = [:]
    /// The largest peaks of any app, at most `outlierCount`.
    public var outliers: [Sample] = []
    /// App Store Connect responses: Apple's aggregates, apart from the records.
    public var appStoreConnect: [ScanASCMetrics] = []
    /// SDK exports' claims and the OS records that grade them, graded when every file is read.
    public var sdk = ScanSDKClaims()
    /// memhunt's own findings documents, counted by signature.
    public var findings = ScanFindings()

    public init() {}

    /// Folds one record in.
    public mutating func add(_ record: ScanRecord) {
        for names in record.ties {
            for name in names { ties[name, default: []].formUnion(names.filter { $0 != name }) }
        }
        records += 1
        recordsByKind[record.kind, default: 0] += 1
        if let compressions = JetsamEvent.count(record.compressions) {
            self.compressions.append(UInt64(compressions))
        } else if record.compressions != nil {
            compressionsNotCounts += 1
        }
        for app in record.apps {
            if let peak = app.peakKiB {
                Self.keep(
                    Sample(file: record.file, app: app.name, peakKiB: peak), in: &outliers, limit: Self.outlierCount)
            }
            // In place: a copy taken out of the dictionary and stored back shared its arrays with the stored one,
            // so every append copied the app's whole `peaksKiB` (quadratic in the records of an app).
            Self.fold(app, of: record, into: &apps[app.name, default: App()])
        }
    }

    private static func fold(_ app: ScanRecord.App, of record: ScanRecord, into figures: inout App) {
        figures.records += 1
        if let rank = app.rank {
            figures.ranks[rank <= 1 ? 0 : rank <= 5 ? 1 : rank <= 10 ? 2 : 3] += 1
        }
        if let peak = app.peakKiB {
            figures.peaksKiB.add(peak)
            keep(Sample(file: record.file, app: app.name, peakKiB: peak), in: &figures.worst, limit: worstPerApp)
        }
        if app.isSuspended, let resident = app.residentKiB { figures.suspendedKiB.add(resident) }
        if let reason = app.reason { figures.reasons[reason, default: 0] += 1 }
        if let product = record.product { figures.devices[product, default: 0] += 1 }
        if let build = record.build { figures.builds[build, default: 0] += 1 }
    }

    /// Notes a file that is not a record.
    public mutating func reject(file: String, reason: String) { rejected.append(Rejected(file: file, reason: reason)) }

    /// Notes a file of a kind a scan does not read.
    public mutating func skip(kind: String) { skipped[kind, default: 0] += 1 }

    /// Folds another aggregate in (another worker's files).
    public mutating func merge(_ other: ScanAggregate) {
        records += other.records
        recordsByKind.merge(other.recordsByKind, uniquingKeysWith: +)
        rejected += other.rejected
        skipped.merge(other.skipped, uniquingKeysWith: +)
        duplicates += other.duplicates
        compressions += other.compressions
        compressionsNotCounts += other.compressionsNotCounts
        // An app new here is taken whole (its histograms shared, not copied value by value while the other
        // aggregate still holds them: the first worker's merge doubled its figures at the scan's end).
        for (name, figures) in other.apps {
            if apps[name] == nil { apps[name] = figures } else { apps[name]!.merge(figures) }
        }
        for (name, others) in other.ties { ties[name, default: []].formUnion(others) }
        for sample in other.outliers { Self.keep(sample, in: &outliers, limit: Self.outlierCount) }
        appStoreConnect += other.appStoreConnect
        sdk.merge(other.sdk)
        findings.merge(other.findings)
    }

    /// Inserts `sample` in order and drops what falls past `limit`.
    static func keep(_ sample: Sample, in samples: inout [Sample], limit: Int) {
        let position = samples.firstIndex { Sample.before(sample, $0) } ?? samples.count
        guard position < limit else { return }
        samples.insert(sample, at: position)
        if samples.count > limit { samples.removeLast() }
    }

    /// The figures of every app whose name matches `query` (ignoring case; `com.example.JustSend` matches
    /// `JustSend`), with every name the records tie to them, merged; nil when none does.
    public func app(matching query: String) -> (names: [String], figures: App)? {
        let wanted = query.lowercased()
        let matched = apps.keys.filter { name in
            let lower = name.lowercased()
            return lower == wanted || lower.hasSuffix("." + wanted) || wanted.hasSuffix("." + lower)
        }
        guard !matched.isEmpty else { return nil }
        let names = matched.reduce(into: Set<String>()) { $0.formUnion(tied(to: $1)) }.sorted()
        return (names, merged(names))
    }

    /// The figures of `names` (apps with figures, at least one) as one app. A name alone is its figures as they
    /// are, shared and not copied: the grouped apps of a large fleet, each its own group, would otherwise be a
    /// second copy of every histogram at the end of the scan, its peak.
    func merged(_ names: [String]) -> App {
        var figures = apps[names[0]]!
        for name in names.dropFirst() { figures.merge(apps[name]!) }
        return figures
    }

    /// `name` and every app name the records tie to it, directly or through others (only names with figures).
    func tied(to name: String) -> Set<String> {
        var group: Set<String> = [name]
        var pending = [name]
        while let next = pending.popLast() {
            for other in ties[next] ?? [] where group.insert(other).inserted { pending.append(other) }
        }
        return group.filter { apps[$0] != nil }
    }

    /// Every app, the names the records tie together as one (`JustSend, com.example.JustSend`), most records
    /// first, then by name.
    public var groupedApps: [(name: String, figures: App)] {
        var done = Set<String>()
        var groups: [(name: String, figures: App)] = []
        for name in apps.keys.sorted() where !done.contains(name) {
            let names = tied(to: name).sorted()
            done.formUnion(names)
            groups.append((names.joined(separator: ", "), merged(names)))
        }
        return groups.sorted {
            $0.figures.records != $1.figures.records ? $0.figures.records > $1.figures.records : $0.name < $1.name
        }
    }
}

/// Percentiles of one app's values, in MB with one decimal.
public struct ScanDistribution: Sendable, Hashable, Encodable {
    public var count: Int
    public var p50: Double
    public var p90: Double
    public var p99: Double
    public var max: Double

    /// Nil for no values.
    public init?(kibibytes values: [UInt32]) {
        var histogram = ScanHistogram()
        for value in values { histogram.add(value) }
        self.init(kibibytes: histogram)
    }

    /// Nil for no values. The nearest-rank percentiles of `ScanFigures.percentile`, read off the cumulative
    /// counts: the value at 1-based position ⌈p/100 × n⌉.
    public init?(kibibytes histogram: ScanHistogram) {
        // The distinct values alone, sorted (four bytes each), their counts looked up: the sorted pairs of a large
        // fleet's app, and their copy, were megabytes at the scan's end, its peak.
        let values = histogram.counts.keys.sorted()
        let n = histogram.total
        guard n > 0, let max = values.last else { return nil }
        let wanted = [50.0, 90, 99].map { ScanFigures.rank($0, of: n) }
        var found: [UInt32] = []
        var seen = 0
        for value in values where found.count < wanted.count {
            seen += histogram.counts[value]!
            while found.count < wanted.count, seen >= wanted[found.count] { found.append(value) }
        }
        count = n
        p50 = ScanFigures.megabytes(found[0])
        p90 = ScanFigures.megabytes(found[1])
        p99 = ScanFigures.megabytes(found[2])
        self.max = ScanFigures.megabytes(max)
    }
}
