/// Reads a bug_type 298 JetsamEvent body.
public enum JetsamParser {
    /// Whether a JSON object has the shape of a JetsamEvent body (`memoryStatus` and `processes`).
    public static func isJetsamBody(_ value: JSONValue) -> Bool {
        value["memoryStatus"]?.members != nil && value["processes"]?.elements != nil
    }

    /// The JetsamEvent of a parsed body. `pageSize` is required: it is never assumed.
    public static func parse(body: JSONValue, header: IPSHeader?) throws(FormatError) -> JetsamEvent {
        guard body.members != nil else { throw FormatError("JetsamEvent body is not a JSON object") }
        guard let memoryStatus = body["memoryStatus"], memoryStatus.members != nil else {
            throw FormatError("JetsamEvent has no memoryStatus object")
        }
        guard let pageSize = memoryStatus["pageSize"]?.uint64, pageSize > 0 else {
            throw FormatError("JetsamEvent has no memoryStatus.pageSize (bytes per page): sizes cannot be converted")
        }
        guard let records = body["processes"]?.elements else { throw FormatError("JetsamEvent has no processes array") }
        let date = body["date"]?.string ?? header?.timestamp
        var event = JetsamEvent(
            header: header, date: date, time: date.flatMap(AppleDate.parse), product: body["product"]?.string,
            build: body["build"]?.string, pageSize: pageSize, compressions: memoryStatus["compressions"]?.uint64,
            largestProcess: body["largestProcess"]?.string,
            processes: records.enumerated().map { process(index: $0.offset, $0.element) })
        event.decompressions = memoryStatus["decompressions"]?.uint64
        event.compressorPages = memoryStatus["compressorSize"]?.uint64
        event.uncompressedPages = memoryStatus["uncompressed"]?.uint64
        for member in memoryStatus["memoryPages"]?.members ?? [] {
            if let pages = member.value.uint64 { event.memoryPages[member.key] = pages }
        }
        return event
    }

    private static func process(index: Int, _ record: JSONValue) -> JetsamProcess {
        let pid = record["pid"]?.int
        let internalPages = record[path: "physicalPages", "internal"]
        return JetsamProcess(
            index: index, name: record["name"]?.string ?? pid.map { "pid \($0)" } ?? "", pid: pid,
            rpages: record["rpages"]?.uint64 ?? 0, lifetimeMax: record["lifetimeMax"]?.uint64,
            states: record["states"]?.elements?.compactMap(\.string) ?? [], reason: record["reason"]?.string,
            priority: record["priority"]?.int, residentInternalPages: internalPages?[0]?.uint64,
            compressedInternalPages: internalPages?[1]?.uint64,
            freezeSkipReason: (record["freeze_skip_reason:"] ?? record["freeze_skip_reason"])?.string)
    }
}
