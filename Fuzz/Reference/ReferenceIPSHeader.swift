// The `.ips` header sniff before it read the line without building it (commit fb0cf35): the line parsed as a
// tree, each field looked up by key. The `jetsam` target holds `ArtifactReader.sniffIPSHeader` to it.
@testable import MemhuntFormats

enum ReferenceIPSHeader {
    static func sniff(_ bytes: [UInt8]) -> (header: IPSHeader, bodyOffset: Int)? {
        let start = JSON.skipWhitespace(bytes, from: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
        let window = bytes[start..<min(bytes.count, start + 65_536)]
        guard
            let lineEnd = window.firstIndex(of: UInt8(ascii: "\n"))
                ?? (window.endIndex == bytes.count ? bytes.count : nil)
        else { return nil }
        guard let (value, end) = try? JSON.parsePrefix(Array(bytes[..<lineEnd]), from: start),
            let bugType = value["bug_type"]
        else { return nil }
        var cursor = end
        while cursor < bytes.count, bytes[cursor] == 0x20 || bytes[cursor] == 0x09 || bytes[cursor] == 0x0D {
            cursor += 1
        }
        guard cursor == bytes.count || bytes[cursor] == UInt8(ascii: "\n") else { return nil }
        let header = IPSHeader(
            bugType: bugType.string ?? bugType.int.map(String.init), timestamp: value["timestamp"]?.string,
            osVersion: value["os_version"]?.string, appName: value["app_name"]?.string, name: value["name"]?.string,
            bundleID: value["bundleID"]?.string, incidentID: value["incident_id"]?.string)
        return (header, min(cursor + 1, bytes.count))
    }
}
