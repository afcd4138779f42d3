/// One category of a process in `footprint -j` JSON (sizes in bytes, already multiplied by `bytes per unit`).
public struct FootprintJSONCategory: Sendable, Hashable {
    /// `MALLOC_SMALL`, `CoreAnimation`, `mapped file`, `WebKit malloc`, … (the vmmap region type names).
    public var name: String
    /// Dirty bytes: counted in the footprint (they include the swapped, or compressed, ones).
    public var dirtyBytes: Int
    /// Swapped (compressed) bytes, part of the dirty ones.
    public var swappedBytes: Int?
    /// Clean bytes: not counted.
    public var cleanBytes: Int?
    /// Reclaimable (purgeable) bytes.
    public var reclaimableBytes: Int?
    /// Wired bytes.
    public var wiredBytes: Int?
    /// VM regions.
    public var regions: Int?

    public init(
        name: String, dirtyBytes: Int, swappedBytes: Int? = nil, cleanBytes: Int? = nil,
        reclaimableBytes: Int? = nil, wiredBytes: Int? = nil, regions: Int? = nil
    ) {
        self.name = name
        self.dirtyBytes = dirtyBytes
        self.swappedBytes = swappedBytes
        self.cleanBytes = cleanBytes
        self.reclaimableBytes = reclaimableBytes
        self.wiredBytes = wiredBytes
        self.regions = regions
    }
}

/// One process of a footprint snapshot.
public struct FootprintJSONProcess: Sendable, Hashable {
    public var name: String?
    public var pid: Int?
    /// `footprint`: the process's footprint in bytes (what the text banner prints as `Footprint:`).
    public var footprintBytes: Int?
    /// `auxiliary.phys_footprint` in bytes.
    public var physFootprintBytes: Int?
    /// `auxiliary.phys_footprint_peak` in bytes: the kernel's lifetime peak.
    public var peakBytes: Int?
    /// The categories in file order.
    public var categories: [FootprintJSONCategory]

    public init(
        name: String? = nil, pid: Int? = nil, footprintBytes: Int? = nil, physFootprintBytes: Int? = nil,
        peakBytes: Int? = nil, categories: [FootprintJSONCategory] = []
    ) {
        self.name = name
        self.pid = pid
        self.footprintBytes = footprintBytes
        self.physFootprintBytes = physFootprintBytes
        self.peakBytes = peakBytes
        self.categories = categories
    }

    /// The footprint to speak of: `footprint`, else `auxiliary.phys_footprint`.
    public var bytes: Int? { footprintBytes ?? physFootprintBytes }

    /// The category with the most dirty bytes (the first of equals).
    public var largestCategory: FootprintJSONCategory? {
        categories.enumerated().max { ($0.element.dirtyBytes, -$0.offset) < ($1.element.dirtyBytes, -$1.offset) }?
            .element
    }
}

/// One moment of `footprint`: every process it looked at. A `footprint -j` file is one; `footprint --sample`
/// writes one per interval.
public struct FootprintSnapshot: Sendable, Hashable {
    /// Which clock `time` is on.
    public enum Clock: String, Sendable, Hashable {
        /// `start_time.date`: seconds since 1970, comparable across files.
        case calendar
        /// `start_time.wall_time_s`: seconds on the tool's own clock, comparable only within its file.
        case toolWall
    }

    /// Seconds since 1970 (`start_time.date`) or since the tool's own epoch (`start_time.wall_time_s`), when given.
    public var time: Double?
    /// The clock `time` is on, when there is one.
    public var clock: Clock?
    /// The time as written.
    public var timeText: String?
    public var processes: [FootprintJSONProcess]
    /// `total footprint` in bytes (de-duplicated over the processes), when given.
    public var totalFootprintBytes: Int?

    public init(
        time: Double? = nil, timeText: String? = nil, processes: [FootprintJSONProcess] = [],
        totalFootprintBytes: Int? = nil
    ) {
        self.time = time
        self.timeText = timeText
        self.processes = processes
        self.totalFootprintBytes = totalFootprintBytes
    }
}

/// `footprint -j <file>` (`--json`) and `footprint --sample <interval> -j <file>` JSON.
///
/// Shape, from the decompiled `MREOutputFormatterInMemory` of Apple's libMemoryResourceException (which writes
/// the same keys as the tool) and from several parsers of real `footprint --json` files in public code: a top-level
/// object with `unit` (`"byte"`), `bytes per unit`, `page size`, `total footprint`, `processes` (each `name`, `pid`,
/// `footprint`, `categories` by name with `dirty`, `swapped`, `clean`, `reclaimable`, `wired`, `regions`, and
/// `auxiliary` with `phys_footprint` and `phys_footprint_peak`), `shared`, `summary`, `auxiliary`, `errors` and
/// `warnings`. A real trimmed file also carries `start_time: {"date": "2026-09-05T11:27:12.932+05:30"}`.
/// **Unverified:** the `--sample` file. Third-party fixtures write a top-level `samples` array of such objects, each
/// with `start_time: {"wall_time_s": …}`; that is what is read here, and a document with neither `processes` nor
/// `samples` is refused by name rather than guessed at.
public struct FootprintJSON: Sendable, Hashable {
    /// `unit` as written (`byte`).
    public var unit: String?
    /// `bytes per unit`: every size was multiplied by it.
    public var bytesPerUnit: Int
    /// `page size`, when given.
    public var pageSize: Int?
    /// One snapshot (`-j`), or the samples in file order (`--sample`).
    public var snapshots: [FootprintSnapshot]
    /// Whether the file is a `samples` series.
    public var isSampled: Bool
    /// The tool's own `errors` and `warnings` (`Unable to retrieve ledger entry info - No such process`).
    public var toolMessages: [String]
    /// What could not be read, each with its place (`samples[3].processes[0]: no footprint`).
    public var unreadable: [String]

    public init(
        unit: String? = nil, bytesPerUnit: Int = 1, pageSize: Int? = nil, snapshots: [FootprintSnapshot] = [],
        isSampled: Bool = false, toolMessages: [String] = [], unreadable: [String] = []
    ) {
        self.unit = unit
        self.bytesPerUnit = bytesPerUnit
        self.pageSize = pageSize
        self.snapshots = snapshots
        self.isSampled = isSampled
        self.toolMessages = toolMessages
        self.unreadable = unreadable
    }

    /// At most this many problems are named one by one; the rest are counted.
    static let namedLimit = 20

    /// Whether a parsed document is footprint JSON: an object with one of the tool's own keys (`bytes per unit`,
    /// `total footprint`), or whose first process has `auxiliary` or `categories`.
    public static func isFootprintJSON(_ value: JSONValue) -> Bool {
        guard value.members != nil else { return false }
        if value.has("bytes per unit") || value.has("total footprint") { return true }
        let process = value["processes"]?[0] ?? value["samples"]?[0]?["processes"]?[0]
        return process?["auxiliary"]?.members != nil || process?["categories"]?.members != nil
    }

    /// Parses a document `isFootprintJSON` accepted.
    public static func parse(_ value: JSONValue) -> Result<FootprintJSON, FormatError> {
        var report: FootprintJSON
        switch header(value) {
        case .success(let read): report = read
        case .failure(let error): return .failure(error)
        }
        var reader = SnapshotReader(scale: report.bytesPerUnit)
        if let samples = value["samples"]?.elements {
            report.isSampled = true
            for (index, sample) in samples.enumerated() {
                if let snapshot = reader.sample(sample, index: index) { report.snapshots.append(snapshot) }
            }
        } else if value["processes"]?.elements != nil {
            report.snapshots.append(reader.snapshot(value, ""))
        } else {
            return .failure(FormatError("footprint JSON with neither a 'processes' nor a 'samples' list"))
        }
        report.snapshots = keepingLatestCategories(report.snapshots)
        report.finish(reader)
        return .success(report)
    }

    /// The top level's `unit`, `bytes per unit`, `page size` and the tool's `errors` and `warnings`.
    static func header(_ value: JSONValue) -> Result<FootprintJSON, FormatError> {
        var report = FootprintJSON(unit: value["unit"]?.string)
        if let scale = value["bytes per unit"] {
            guard let number = whole(scale), number > 0 else {
                return .failure(FormatError("'bytes per unit' is \(describe(scale)), not a positive whole number"))
            }
            report.bytesPerUnit = number
        } else if let unit = report.unit, unit != "byte" {
            return .failure(FormatError("sizes in '\(unit)' without 'bytes per unit': their bytes are unknown"))
        }
        report.pageSize = value["page size"].flatMap(whole)
        for key in ["errors", "warnings"] {
            for message in value[key]?.elements ?? [] {
                if let text = message.string { report.toolMessages.append(text) }
            }
        }
        return .success(report)
    }

    /// The reader's problems as `unreadable`: the first named, the rest counted.
    mutating func finish(_ reader: SnapshotReader) {
        unreadable += reader.unreadable
        if reader.problems > reader.unreadable.count {
            unreadable.append("and \(reader.problems - reader.unreadable.count) more not read")
        }
    }

    /// The snapshots with each process's categories kept in its latest snapshot only (a process is its name and
    /// pid): what is said of categories is said of the newest reading that has them, and a long `--sample` file
    /// would otherwise keep every sample's forty categories of every process.
    static func keepingLatestCategories(_ snapshots: [FootprintSnapshot]) -> [FootprintSnapshot] {
        var result = snapshots
        var seen = Set<ProcessKey>()
        for index in result.indices.reversed() {
            for place in result[index].processes.indices where !result[index].processes[place].categories.isEmpty {
                let process = result[index].processes[place]
                if !seen.insert(ProcessKey(name: process.name, pid: process.pid)).inserted {
                    result[index].processes[place].categories = []
                }
            }
        }
        return result
    }

    struct ProcessKey: Hashable {
        var name: String?
        var pid: Int?
    }

    /// Reads the snapshots of one document in its unit, naming the first places that could not be read.
    struct SnapshotReader {
        let scale: Int
        var problems = 0
        var unreadable: [String] = []

        /// This reader, its problems kept, reading sizes in units of `scale` bytes from now on.
        func rescaled(_ scale: Int) -> SnapshotReader {
            var reader = SnapshotReader(scale: scale)
            reader.problems = problems
            reader.unreadable = unreadable
            return reader
        }

        mutating func note(_ text: String) {
            problems += 1
            if unreadable.count < FootprintJSON.namedLimit { unreadable.append(text) }
        }

        /// A size in bytes, or nil (named) when the field is there and is not a size.
        mutating func bytes(_ field: JSONValue?, _ place: String) -> Int? {
            guard let field, !field.isNull else { return nil }
            guard let number = FootprintJSON.size(field, scale: scale) else {
                note("\(place) is \(FootprintJSON.describe(field)), not a size")
                return nil
            }
            return number
        }

        /// The `samples[index]` element as a snapshot; nil (named) when it is no object.
        mutating func sample(_ sample: JSONValue, index: Int) -> FootprintSnapshot? {
            guard sample.members != nil else {
                note("samples[\(index)] is \(FootprintJSON.describe(sample)), not an object")
                return nil
            }
            return snapshot(sample, "samples[\(index)].")
        }

        mutating func snapshot(_ object: JSONValue, _ place: String) -> FootprintSnapshot {
            var shot = FootprintSnapshot(
                totalFootprintBytes: bytes(object["total footprint"], place + "total footprint"))
            if let start = object["start_time"] { time(start, place, into: &shot) }
            guard let processes = object["processes"]?.elements else {
                note("\(place.isEmpty ? "the document" : String(place.dropLast())) has no 'processes' list")
                return shot
            }
            // Exact capacities: a long `--sample` file keeps thousands of snapshots, and arrays grown by doubling
            // held a third more than their processes.
            shot.processes.reserveCapacity(processes.count)
            for (index, entry) in processes.enumerated() {
                let at = "\(place)processes[\(index)]"
                guard entry.members != nil else {
                    note("\(at) is \(FootprintJSON.describe(entry)), not an object")
                    continue
                }
                shot.processes.append(process(entry, at))
            }
            return shot
        }

        /// The snapshot's start time: a date, or seconds of the wall clock.
        mutating func time(_ start: JSONValue, _ place: String, into shot: inout FootprintSnapshot) {
            if let date = start["date"]?.string {
                shot.timeText = date
                shot.time = AppleDate.parse(date)
                shot.clock = shot.time == nil ? nil : .calendar
                if shot.time == nil { note("\(place)start_time.date '\(String(date.prefix(40)))' is not a date") }
            } else if let seconds = start["wall_time_s"] {
                if let number = seconds.double, number.isFinite {
                    shot.time = number
                    shot.clock = .toolWall
                    shot.timeText = FootprintJSON.describe(seconds)
                } else {
                    note("\(place)start_time.wall_time_s is \(FootprintJSON.describe(seconds)), not a number")
                }
            } else {
                note("\(place)start_time has neither 'date' nor 'wall_time_s'")
            }
        }

        mutating func process(_ entry: JSONValue, _ at: String) -> FootprintJSONProcess {
            var process = FootprintJSONProcess(
                name: entry["name"]?.string, pid: entry["pid"].flatMap(FootprintJSON.whole))
            process.footprintBytes = bytes(entry["footprint"], at + ".footprint")
            process.physFootprintBytes = bytes(entry["auxiliary"]?["phys_footprint"], at + ".auxiliary.phys_footprint")
            process.peakBytes = bytes(
                entry["auxiliary"]?["phys_footprint_peak"], at + ".auxiliary.phys_footprint_peak")
            process.categories.reserveCapacity(entry["categories"]?.members?.count ?? 0)
            for member in entry["categories"]?.members ?? [] {
                let where_ = "\(at).categories[\"\(String(member.key.prefix(40)))\"]"
                guard let dirty = bytes(member.value["dirty"], where_ + ".dirty") else {
                    if member.value["dirty"] == nil { note("\(where_) has no 'dirty' size") }
                    continue
                }
                process.categories.append(
                    FootprintJSONCategory(
                        name: member.key, dirtyBytes: dirty,
                        swappedBytes: bytes(member.value["swapped"], where_ + ".swapped"),
                        cleanBytes: bytes(member.value["clean"], where_ + ".clean"),
                        reclaimableBytes: bytes(member.value["reclaimable"], where_ + ".reclaimable"),
                        wiredBytes: bytes(member.value["wired"], where_ + ".wired"),
                        regions: member.value["regions"].flatMap(FootprintJSON.whole)))
            }
            if process.bytes == nil {
                note(
                    "\(at)\(process.name.map { " (\($0))" } ?? ""): no footprint (neither 'footprint' nor "
                        + "'auxiliary.phys_footprint')")
            }
            return process
        }
    }

    /// A non-negative whole number (`12`, `12.0`, `1.2e3`).
    static func whole(_ value: JSONValue) -> Int? {
        if let int = value.int { return int >= 0 ? int : nil }
        guard let double = value.double, double.isFinite, double >= 0, double == double.rounded() else { return nil }
        return ReproText.int(double)
    }

    /// A size in units of `scale` bytes, as bytes.
    static func size(_ value: JSONValue, scale: Int) -> Int? {
        guard let double = value.double, double.isFinite, double >= 0 else { return nil }
        return ReproText.int(double * Double(scale))
    }

    /// A value in words for a message: `"nan"` (a string), `null`, `an object`.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): "the string '\(String(text.prefix(20)))'"
        case .number(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        case .object: "an object"
        case .array: "a list"
        }
    }
}
