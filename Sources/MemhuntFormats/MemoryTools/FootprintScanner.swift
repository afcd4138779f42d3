/// `footprint -j` JSON read as it streams: the top level's members whole, and `footprint --sample`'s `samples` one
/// at a time (`JSONObjectStream`), each parsed on its own and kept as a snapshot, so a sampling session of gigabytes
/// is read in the memory of its snapshots. A process keeps its categories in its latest snapshot only
/// (`FootprintJSON.keepingLatestCategories`); past `maxSnapshots` (or `maxProcesses` in them), every other snapshot
/// is let go and then only every second, fourth … sample is kept, the last one always, and the report says so. A
/// sample that is no valid JSON is named and the others are read.
public struct FootprintScanner: Sendable {
    /// A member or sample over this many bytes is named and not read.
    public static let valueCap = 64 << 20
    /// Snapshots kept: a day of `footprint --sample 5`.
    public static let maxSnapshots = 20_000
    /// Processes kept over all snapshots (about 100 bytes each), whatever the number of processes a sample holds.
    public static let maxProcesses = 100_000

    private var stream = JSONObjectStream(arrayKey: "samples", valueCap: valueCap)
    /// The top level's members but `samples`, parsed.
    private var members: [JSONMember] = []
    private var reader = FootprintJSON.SnapshotReader(scale: 1)
    private var sampled = false
    private var snapshots: [FootprintSnapshot] = []
    /// Where each process's categories are kept: the index of its latest snapshot that has them.
    private var categorised: [FootprintJSON.ProcessKey: (snapshot: Int, process: Int)] = [:]
    /// Samples read, and every how many one is kept.
    private var samples = 0
    private var stride = 1
    /// Processes of the kept snapshots.
    private var keptProcesses = 0
    /// The newest sample not on the stride, kept as bytes until a later one replaces it: the last sample is
    /// always read.
    private var tail: (index: Int, bytes: [UInt8])?
    /// Process names met, each kept once (`interned`).
    private var names: [String: String] = [:]

    public init() {}

    /// Consumes the next chunk.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        var stream = self.stream
        self.stream = JSONObjectStream(arrayKey: "samples", valueCap: Self.valueCap)
        stream.feed(chunk) { handle($0) }
        self.stream = stream
    }

    public mutating func finish() -> Result<FootprintJSON, FormatError> {
        if let failure = stream.finish() { return .failure(failure) }
        let object = JSONValue.object(members)
        var report: FootprintJSON
        switch FootprintJSON.header(object) {
        case .success(let read): report = read
        case .failure(let error): return .failure(error)
        }
        if sampled {
            if let (index, bytes) = tail { read(bytes, index: index) }
            if stride > 1 {
                reader.note(
                    "\(samples) samples: every \(stride == 2 ? "second" : "\(stride)th") kept and the last "
                        + "(\(snapshots.count)), to bound memory")
            }
            report.isSampled = true
            // `bytes per unit` after the samples: they were read in bytes of one unit.
            report.snapshots =
                report.bytesPerUnit == reader.scale
                ? snapshots : snapshots.map { $0.scaled(by: report.bytesPerUnit / reader.scale) }
        } else if object["processes"]?.elements != nil {
            reader = reader.rescaled(report.bytesPerUnit)
            report.snapshots = [reader.snapshot(object, "")]
        } else {
            return .failure(FormatError("footprint JSON with neither a 'processes' nor a 'samples' list"))
        }
        report.finish(reader)
        return .success(report)
    }

    private mutating func handle(_ event: JSONObjectStream.Event) {
        switch event {
        case .member(let key, let bytes):
            do throws(FormatError) {
                members.append(JSONMember(key: key, value: try JSON.parse(bytes)))
            } catch {
                reader.note("'\(String(key.prefix(40)))': \(error.message)")
            }
        case .arrayStart:
            sampled = true
            // The samples' sizes are in `bytes per unit`, when the top level gave it before them.
            if case .success(let header) = FootprintJSON.header(.object(members)) {
                reader = reader.rescaled(header.bytesPerUnit)
            }
        case .element(let index, let bytes):
            samples += 1
            if index % stride == 0 {
                tail = nil
                read(bytes, index: index)
            } else {
                tail = (index, bytes)
            }
        case .tooLong(let key, let index):
            let place = index.map { "\(key)[\($0)]" } ?? "'\(String(key.prefix(40)))'"
            reader.note("\(place) is over \(Self.valueCap >> 20) MB: not read")
            if index != nil { samples += 1 }
        }
    }

    /// Sample `index` parsed and kept.
    private mutating func read(_ bytes: [UInt8], index: Int) {
        let value: JSONValue
        do throws(FormatError) {
            value = try JSON.parse(bytes)
        } catch {
            reader.note("samples[\(index)]: \(error.message)")
            return
        }
        guard var snapshot = reader.sample(value, index: index) else { return }
        for place in snapshot.processes.indices {
            if let name = snapshot.processes[place].name { snapshot.processes[place].name = interned(name) }
        }
        while snapshots.count > 1,
            snapshots.count == Self.maxSnapshots || keptProcesses + snapshot.processes.count > Self.maxProcesses
        {
            thin()
        }
        keptProcesses += snapshot.processes.count
        let at = snapshots.count
        // As `FootprintJSON.keepingLatestCategories`: the latest snapshot's first process of a name and pid keeps
        // its categories, any other place of it lets them go.
        for place in snapshot.processes.indices where !snapshot.processes[place].categories.isEmpty {
            let process = snapshot.processes[place]
            let key = FootprintJSON.ProcessKey(name: process.name, pid: process.pid)
            if let earlier = categorised[key], earlier.snapshot == at {
                snapshot.processes[place].categories = []
                continue
            } else if let earlier = categorised[key] {
                snapshots[earlier.snapshot].processes[earlier.process].categories = []
            }
            categorised[key] = (at, place)
        }
        snapshots.append(snapshot)
    }

    /// `name` as the first snapshot that named it had it: one string of a process's name, not one per sample.
    private mutating func interned(_ name: String) -> String {
        if let known = names[name] { return known }
        if names.count < 4_096 { names[name] = name }
        return name
    }

    /// Every other snapshot let go (the first kept), and from now on every `stride`-th sample kept.
    private mutating func thin() {
        snapshots = snapshots.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        keptProcesses = snapshots.reduce(0) { $0 + $1.processes.count }
        stride *= 2
        categorised = [:]
        for (index, snapshot) in snapshots.enumerated() {
            for (place, process) in snapshot.processes.enumerated() where !process.categories.isEmpty {
                categorised[FootprintJSON.ProcessKey(name: process.name, pid: process.pid)] = (index, place)
            }
        }
    }
}

extension FootprintSnapshot {
    /// The snapshot with every size multiplied by `factor`.
    func scaled(by factor: Int) -> FootprintSnapshot {
        func times(_ value: Int?) -> Int? {
            value.flatMap { value in
                let (product, overflow) = value.multipliedReportingOverflow(by: factor)
                return overflow ? nil : product
            }
        }
        var copy = self
        copy.totalFootprintBytes = times(totalFootprintBytes)
        for index in copy.processes.indices {
            var process = copy.processes[index]
            process.footprintBytes = times(process.footprintBytes)
            process.physFootprintBytes = times(process.physFootprintBytes)
            process.peakBytes = times(process.peakBytes)
            process.categories = process.categories.map { category in
                var category = category
                category.dirtyBytes = times(category.dirtyBytes) ?? 0
                category.swappedBytes = times(category.swappedBytes)
                category.cleanBytes = times(category.cleanBytes)
                category.reclaimableBytes = times(category.reclaimableBytes)
                category.wiredBytes = times(category.wiredBytes)
                return category
            }
            copy.processes[index] = process
        }
        return copy
    }
}
