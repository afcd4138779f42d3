// The view-dump parser as it was before the byte-level rewrite (commit 6fdedff), kept verbatim
// (renamed) as the oracle of the differential fuzz target `viewdump`.
@testable import MemhuntFormats

enum ReferenceViewHierarchyDump {
    /// Counts views, layers (deduplicated by address) and depth; lines that are neither are ignored.
    static func parse(_ bytes: [UInt8]) -> Result<ViewHierarchyDump, FormatError> {
        var dump = ViewHierarchyDump(views: 0, layers: 0, layerClasses: [:], maxDepth: 0)
        var seen: Set<Substring> = []
        func add(_ layer: (name: Substring, address: Substring)) {
            guard seen.insert(layer.address.lowercased()[...]).inserted else { return }
            dump.layers += 1
            dump.layerClasses[String(layer.name), default: 0] += 1
        }
        for line in ReproText.lines(bytes) {
            var (depth, body) = stripDepth(line)
            // Issue 28: Cycript's backticks around its printed string are not part of a line.
            if body.last == "`" { body = body.dropLast() }
            guard body.first == "<", let head = object(body) else { continue }
            dump.maxDepth = max(dump.maxDepth, depth)
            if body.hasSuffix("> (layer)") {
                add(head)
                continue
            }
            dump.views += 1
            // The view's own layer is the last key; `text = '…'` earlier on the line may contain anything.
            var rest = body[...]
            var last: (name: Substring, address: Substring)?
            while let range = rest.firstRange(of: "layer = <") {
                if let layer = object(rest[rest.index(before: range.upperBound)...]),
                    rest[layer.address.endIndex...].first == ">"
                {
                    last = layer
                }
                rest = rest[range.upperBound...]
            }
            if let last { add(last) }
        }
        guard dump.views + dump.layers > 0 else {
            return .failure(FormatError("no '<Class: 0x…>' view or layer lines"))
        }
        return .success(dump)
    }

    /// The nesting depth (number of `|`) and the text after the `   | ` prefix.
    static func stripDepth(_ line: String) -> (depth: Int, body: Substring) {
        let start = line.firstIndex { $0 != " " && $0 != "|" && $0 != "\t" && $0 != "`" } ?? line.endIndex
        return (line[..<start].filter { $0 == "|" }.count, line[start...])
    }

    /// `<Name: 0xHEX` at the start of `text`: the class (`[A-Za-z_][A-Za-z0-9_.]*`) and the address.
    static func object(_ text: Substring) -> (name: Substring, address: Substring)? {
        guard text.first == "<" else { return nil }
        let nameStart = text.index(after: text.startIndex)
        let nameEnd = text[nameStart...].firstIndex {
            !($0.isASCII && ($0.isLetter || $0.isNumber || "_.".contains($0)))
        }
        guard let nameEnd, nameEnd > nameStart, text[nameStart].isLetter || text[nameStart] == "_",
            text[nameEnd...].hasPrefix(": 0x")
        else { return nil }
        let hexStart = text.index(nameEnd, offsetBy: 4)
        let hexEnd = text[hexStart...].firstIndex { !$0.isHexDigit } ?? text.endIndex
        guard hexEnd > hexStart else { return nil }
        return (text[nameStart..<nameEnd], text[hexStart..<hexEnd])
    }
}
