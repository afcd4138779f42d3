/// Reads a bug_type 298 JetsamEvent body.
public enum JetsamParser {
    /// Whether a JSON object has the shape of a JetsamEvent body (`memoryStatus` and `processes`).
    public static func isJetsamBody(_ value: JSONValue) -> Bool {
        value["memoryStatus"]?.members != nil && value["processes"]?.elements != nil
    }

    /// The JetsamEvent of a parsed body. `pageSize` is required: it is never assumed.
    public static func parse(body: JSONValue, header: IPSHeader?) throws(FormatError) -> JetsamEvent {
        try parse(body: body, header: header, processes: nil)
    }

    /// `processes`: the body's first `processes` array, read already by a `ProcessReader` as the parser met
    /// it (and so left out of `body`); nil reads it from `body`. The same event and errors either way: the
    /// `jetsam` fuzz target compares the two.
    static func parse(body: JSONValue, header: IPSHeader?, processes: [JetsamProcess]?) throws(FormatError)
        -> JetsamEvent
    {
        guard body.members != nil else { throw FormatError("JetsamEvent body is not a JSON object") }
        // The streamed array was left out of `body`: it counts as one more `processes` member.
        let streamed = processes != nil ? 1 : 0
        guard let memoryStatus = body["memoryStatus"], memoryStatus.members != nil else {
            throw FormatError("JetsamEvent has no memoryStatus object")
        }
        guard let pageSize = memoryStatus["pageSize"]?.uint64, pageSize > 0 else {
            // One that is there but no page size (negative, zero, 1e308, text) is named as written.
            if case .number(let literal) = memoryStatus["pageSize"] {
                throw FormatError(
                    "JetsamEvent's memoryStatus.pageSize \(FormatError.quoted(literal)) is not a page size in bytes: "
                        + "sizes cannot be converted")
            }
            throw FormatError("JetsamEvent has no memoryStatus.pageSize (bytes per page): sizes cannot be converted")
        }
        guard
            let processes = processes
                ?? body["processes"]?.elements?.enumerated().map({ process(index: $0.offset, $0.element) })
        else { throw FormatError("JetsamEvent has no processes array") }
        let date = body["date"]?.string ?? header?.timestamp
        var event = JetsamEvent(
            header: header, date: date, time: date.flatMap(AppleDate.parse), product: body["product"]?.string,
            build: body["build"]?.string, pageSize: pageSize, compressions: memoryStatus["compressions"]?.uint64,
            largestProcess: body["largestProcess"]?.string, processes: processes)
        event.decompressions = memoryStatus["decompressions"]?.uint64
        event.deviceKey = body["crashReporterKey"]?.string
        // A key given twice is read once, the first; the record says so rather than choosing in silence.
        for key in ["processes", "memoryStatus", "largestProcess", "date"] {
            let count = (body.members ?? []).count { $0.key == key } + (key == "processes" ? streamed : 0)
            if count > 1 { event.diagnostics.append("the key \"\(key)\" is given \(count) times: the first is read") }
        }
        for process in event.processes where !process.unreadable.isEmpty {
            event.diagnostics.append(
                "processes[\(process.index)] (\(process.name)): " + process.unreadable.joined(separator: ", ")
                    + " is no page count, left out")
        }
        event.compressorPages = memoryStatus["compressorSize"]?.uint64
        event.uncompressedPages = memoryStatus["uncompressed"]?.uint64
        let queues = memoryStatus["memoryPages"]?.members ?? []
        // Sized once: growing it from empty showed in a fleet scan's profile.
        event.memoryPages.reserveCapacity(queues.count)
        for member in queues {
            if let pages = member.value.uint64 { event.memoryPages[member.key] = pages }
        }
        return event
    }

    static func process(index: Int, _ record: JSONValue) -> JetsamProcess {
        var fields = ProcessFields<JSONValue>()
        for member in record.members ?? [] {
            var key = member.key
            key.withUTF8 { fields.offer($0, member.value) }
        }
        return fields.process(index: index)
    }
}

/// What `ProcessFields` reads of a member's value: the same accessors on a built `JSONValue` (the tree) and
/// on a `JSONRawValue` (the visitor), so both ways build the same process.
protocol ProcessFieldValue {
    var string: String? { get }
    var uint64: UInt64? { get }
    var int: Int? { get }
    /// `elements?.compactMap(\.string)`.
    var strings: [String]? { get }
    var built: JSONValue { get }
}

extension JSONValue: ProcessFieldValue {
    var strings: [String]? { elements?.compactMap(\.string) }
    var built: JSONValue { self }
}

extension JSONRawValue: ProcessFieldValue {}

/// The members of one process object that a JetsamEvent reads, the first of each key (what `record[key]` finds). One
/// pass over the members: nine lookups each comparing keys from the start showed in a fleet scan's profile. Keys are
/// compared as bytes, which for these ASCII names without `K`, `;` or `` ` `` is what `String`'s `==` decides.
struct ProcessFields<Value: ProcessFieldValue> {
    var name: Value?, pid: Value?, rpages: Value?, lifetimeMax: Value?, states: Value?
    var reason: Value?, priority: Value?, physicalPages: Value?
    var freezeColon: Value?, freeze: Value?

    mutating func offer(_ key: UnsafeBufferPointer<UInt8>, _ value: Value) {
        func keep(_ slot: inout Value?) { if slot == nil { slot = value } }
        func named(_ name: StaticString) -> Bool { key.equals(name) }
        switch key.count {
        case 3: if named("pid") { keep(&pid) }
        case 4: if named("name") { keep(&name) }
        case 6:
            if named("rpages") {
                keep(&rpages)
            } else if named("states") {
                keep(&states)
            } else if named("reason") {
                keep(&reason)
            }
        case 8: if named("priority") { keep(&priority) }
        case 11: if named("lifetimeMax") { keep(&lifetimeMax) }
        case 13: if named("physicalPages") { keep(&physicalPages) }
        case 18: if named("freeze_skip_reason") { keep(&freeze) }
        case 19: if named("freeze_skip_reason:") { keep(&freezeColon) }
        default: break
        }
    }

    func process(index: Int) -> JetsamProcess {
        let pidValue = pid?.int
        let internalPages = physicalPages?.built["internal"]
        var process = JetsamProcess(
            index: index, name: name?.string ?? pidValue.map { "pid \($0)" } ?? "", pid: pidValue,
            rpages: rpages?.uint64 ?? 0, lifetimeMax: lifetimeMax?.uint64, states: states?.strings ?? [],
            reason: reason?.string, priority: priority?.int, residentInternalPages: internalPages?[0]?.uint64,
            compressedInternalPages: internalPages?[1]?.uint64, freezeSkipReason: (freezeColon ?? freeze)?.string)
        // A page count that is present and no count (out of UInt64's range, a fraction, a string) is said, never
        // read as 0 or as absent.
        for (field, value) in [("rpages", rpages), ("lifetimeMax", lifetimeMax)] {
            guard let value, value.uint64 == nil else { continue }
            let written: String
            switch value.built {
            case .number(let text): written = text
            case .string(let text): written = "\"" + text + "\""
            case .null: written = "null"
            default: written = "not a number"
            }
            process.unreadable.append("\(field) \(written.count > 40 ? String(written.prefix(40)) + "…" : written)")
        }
        return process
    }
}

/// Builds each process as the parser meets its members, from their bytes: none is built as a `JSONValue`
/// but `physicalPages`.
final class ProcessReader: JSONElementVisitor {
    private(set) var processes: [JetsamProcess] = []
    private var fields = ProcessFields<JSONRawValue>()

    func begin(element index: Int) { fields = ProcessFields() }
    func member(key: UnsafeBufferPointer<UInt8>, value: JSONRawValue) { fields.offer(key, value) }
    func end(element index: Int) { processes.append(fields.process(index: index)) }
}
