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
        // One pass over the members keeping the first of each key (what `record[key]` finds): nine lookups
        // each comparing keys from the start were 8 % of a fleet scan's instructions (callgrind).
        var name: JSONValue?, pid: JSONValue?, rpages: JSONValue?, lifetimeMax: JSONValue?, states: JSONValue?
        var reason: JSONValue?, priority: JSONValue?, physicalPages: JSONValue?
        var freezeColon: JSONValue?, freeze: JSONValue?
        for member in record.members ?? [] {
            func keep(_ slot: inout JSONValue?) { if slot == nil { slot = member.value } }
            // By length first: comparing two different short strings is the slow path of `==`.
            let key = member.key
            switch key.utf8.count {
            case 3: if key == "pid" { keep(&pid) }
            case 4: if key == "name" { keep(&name) }
            case 6:
                if key == "rpages" {
                    keep(&rpages)
                } else if key == "states" {
                    keep(&states)
                } else if key == "reason" {
                    keep(&reason)
                }
            case 8: if key == "priority" { keep(&priority) }
            case 11: if key == "lifetimeMax" { keep(&lifetimeMax) }
            case 13: if key == "physicalPages" { keep(&physicalPages) }
            case 18: if key == "freeze_skip_reason" { keep(&freeze) }
            case 19: if key == "freeze_skip_reason:" { keep(&freezeColon) }
            default: break
            }
        }
        let pidValue = pid?.int
        let internalPages = physicalPages?["internal"]
        return JetsamProcess(
            index: index, name: name?.string ?? pidValue.map { "pid \($0)" } ?? "", pid: pidValue,
            rpages: rpages?.uint64 ?? 0, lifetimeMax: lifetimeMax?.uint64,
            states: states?.elements?.compactMap(\.string) ?? [], reason: reason?.string,
            priority: priority?.int, residentInternalPages: internalPages?[0]?.uint64,
            compressedInternalPages: internalPages?[1]?.uint64,
            freezeSkipReason: (freezeColon ?? freeze)?.string)
    }
}
