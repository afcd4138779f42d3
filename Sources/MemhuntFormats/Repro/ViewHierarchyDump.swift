/// Counts from a UIKit `recursiveDescription` or Chisel `pviews` dump.
public struct ViewHierarchyDump: Sendable, Hashable {
    /// Lines that describe a view (`<UILabel: 0x…; frame = …>`).
    public var views: Int
    /// Distinct layer addresses: every view's `layer = <Class: 0x…>` plus every `<Class: 0x…> (layer)` line.
    public var layers: Int
    /// Distinct layers per class (`CALayer`, `_UILabelLayer`, `_UILabelContentLayer`, …).
    public var layerClasses: [String: Int]
    /// The deepest `|` nesting of any view or layer line; the root is 0.
    public var maxDepth: Int

    public init(views: Int, layers: Int, layerClasses: [String: Int], maxDepth: Int) {
        self.views = views
        self.layers = layers
        self.layerClasses = layerClasses
        self.maxDepth = maxDepth
    }

    /// Whether a line starts with `<UIWindow: 0x`, or at least two lines are `<Name: 0x…; … frame = (` views.
    public static func matches(_ prefix: ArraySlice<UInt8>) -> Bool { matches(lines: ReproText.sniffLines(prefix)) }

    static func matches(lines: [String]) -> Bool {
        var framed = 0
        for line in lines {
            let body = stripDepth(line).body
            if body.hasPrefix("<UIWindow: 0x") { return true }
            if object(body) != nil, body.contains("; frame = (") { framed += 1 }
            if framed >= 2 { return true }
        }
        return false
    }

    /// Counts views, layers (deduplicated by address) and depth; lines that are neither are ignored.
    public static func parse(_ bytes: [UInt8]) -> Result<ViewHierarchyDump, FormatError> {
        var dump = ViewHierarchyDump(views: 0, layers: 0, layerClasses: [:], maxDepth: 0)
        var seen: Set<Substring> = []
        func add(_ layer: (name: Substring, address: Substring)) {
            guard seen.insert(layer.address.lowercased()[...]).inserted else { return }
            dump.layers += 1
            dump.layerClasses[String(layer.name), default: 0] += 1
        }
        for line in ReproText.lines(bytes) {
            let (depth, body) = stripDepth(line)
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
        let start = line.firstIndex { $0 != " " && $0 != "|" && $0 != "\t" } ?? line.endIndex
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
