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
    ///
    /// Bytes, line by line: a line of ASCII is read in place (`Line`); a line with any other byte goes through `String`
    /// and `Character`s as before, so grapheme clusters and fullwidth digits read the same. The `Character` path alone
    /// was most of a JustSend run's time, for its `pviews-detail.txt`; with the byte path the whole JustSend run
    /// measured much faster.
    public static func parse(_ bytes: [UInt8]) -> Result<ViewHierarchyDump, FormatError> {
        var counter = Counter()
        bytes.withUnsafeBufferPointer { all in
            var start = 0
            while start <= all.count {
                var end = start
                while end < all.count, all[end] != 10 { end += 1 }
                var line = UnsafeBufferPointer(rebasing: all[start..<end])
                if line.last == 13 { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
                if line.allSatisfy({ $0 < 0x80 }) {
                    counter.count(ascii: line)
                } else {
                    counter.count(String(decoding: line, as: UTF8.self))
                }
                start = end + 1
            }
        }
        let dump = counter.dump
        guard dump.views + dump.layers > 0 else {
            return .failure(FormatError("no '<Class: 0x…>' view or layer lines"))
        }
        return .success(dump)
    }

    /// The counts so far, and the layer addresses seen (lowercased).
    private struct Counter {
        var dump = ViewHierarchyDump(views: 0, layers: 0, layerClasses: [:], maxDepth: 0)
        var seen: Set<String> = []

        mutating func add(name: String, address: String) {
            guard seen.insert(address).inserted else { return }
            dump.layers += 1
            dump.layerClasses[name, default: 0] += 1
        }

        /// One line of any text, through `Character`s.
        mutating func count(_ line: String) {
            var (depth, body) = stripDepth(line)
            // The backtick that closes Cycript's printed string is not part of the line.
            if body.last == "`" { body = body.dropLast() }
            guard body.first == "<", let head = object(body) else { return }
            dump.maxDepth = max(dump.maxDepth, depth)
            if body.hasSuffix("> (layer)") {
                add(name: String(head.name), address: head.address.lowercased())
                return
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
            if let last { add(name: String(last.name), address: last.address.lowercased()) }
        }

        /// One line of ASCII bytes: the same reading as `count(_: String)`, where a byte is a `Character`.
        mutating func count(ascii line: UnsafeBufferPointer<UInt8>) {
            var start = 0
            var depth = 0
            // A backtick opens (and closes) Cycript's printed string: skipped like the indentation.
            while start < line.count, line[start] == 32 || line[start] == 124 || line[start] == 9 || line[start] == 96 {
                if line[start] == 124 { depth += 1 }
                start += 1
            }
            var end = line.count
            if end > start, line[end - 1] == 96 { end -= 1 }
            let body = UnsafeBufferPointer(rebasing: line[start..<end])
            guard let head = ViewHierarchyDump.object(ascii: body, at: 0) else { return }
            dump.maxDepth = max(dump.maxDepth, depth)
            if ViewHierarchyDump.hasSuffix(body, "> (layer)") {
                add(name: head.name, address: head.address)
                return
            }
            dump.views += 1
            var last: (name: String, address: String)?
            var from = 0
            while let found = ViewHierarchyDump.find(body, "layer = <", from: from) {
                let open = found + 8
                if let layer = ViewHierarchyDump.object(ascii: body, at: open), layer.end < body.count,
                    body[layer.end] == UInt8(ascii: ">")
                {
                    last = (layer.name, layer.address)
                }
                from = open + 1
            }
            if let last { add(name: last.name, address: last.address) }
        }
    }

    /// `<Name: 0xHEX` at `at` in ASCII `text`: the class, the address lowercased, and the index after it.
    static func object(ascii text: UnsafeBufferPointer<UInt8>, at: Int) -> (name: String, address: String, end: Int)? {
        guard at < text.count, text[at] == UInt8(ascii: "<") else { return nil }
        let nameStart = at + 1
        var nameEnd = nameStart
        while nameEnd < text.count, isNameByte(text[nameEnd]) { nameEnd += 1 }
        guard nameEnd < text.count, nameEnd > nameStart, isLetter(text[nameStart]) || text[nameStart] == 95,
            nameEnd + 4 <= text.count, text[nameEnd] == 58, text[nameEnd + 1] == 32, text[nameEnd + 2] == 48,
            text[nameEnd + 3] == UInt8(ascii: "x")
        else { return nil }
        let hexStart = nameEnd + 4
        var hexEnd = hexStart
        while hexEnd < text.count, isHexDigit(text[hexEnd]) { hexEnd += 1 }
        guard hexEnd > hexStart else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: text[nameStart..<nameEnd]), as: UTF8.self)
        let address = String(unsafeUninitializedCapacity: hexEnd - hexStart) { out in
            for index in hexStart..<hexEnd {
                let byte = text[index]
                out[index - hexStart] = byte >= 65 && byte <= 90 ? byte + 32 : byte
            }
            return hexEnd - hexStart
        }
        return (name, address, hexEnd)
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 97 && (byte | 0x20) <= 122 }
    private static func isNameByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= 48 && byte <= 57) || byte == 95 || byte == 46
    }
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || ((byte | 0x20) >= 97 && (byte | 0x20) <= 102)
    }

    private static func hasSuffix(_ text: UnsafeBufferPointer<UInt8>, _ suffix: StaticString) -> Bool {
        suffix.withUTF8Buffer { suffix in
            text.count >= suffix.count && text[(text.count - suffix.count)...].elementsEqual(suffix)
        }
    }

    /// The index of the first `needle` in `text` at or after `from`.
    private static func find(_ text: UnsafeBufferPointer<UInt8>, _ needle: StaticString, from: Int) -> Int? {
        needle.withUTF8Buffer { needle in
            guard let first = needle.first, needle.count <= text.count else { return nil }
            var index = from
            while index + needle.count <= text.count {
                if text[index] == first, text[index..<(index + needle.count)].elementsEqual(needle) { return index }
                index += 1
            }
            return nil
        }
    }

    /// The nesting depth (number of `|`) and the text after the `   | ` prefix.
    static func stripDepth(_ line: String) -> (depth: Int, body: Substring) {
        // Over UTF-8 when the byte after the prefix is ASCII (no combining mark can join the prefix's last character):
        // the sniffer runs this on every line of every file's first 64 KiB, and the `Character` walk showed in a
        // JetsamEvent run's profile.
        let utf8 = line.utf8
        var index = utf8.startIndex
        var depth = 0
        // A backtick opens Cycript's printed string (`` `<UIWindow: 0x…> ``): it is not part of the line.
        while index < utf8.endIndex, utf8[index] == 32 || utf8[index] == 124 || utf8[index] == 9 || utf8[index] == 96 {
            if utf8[index] == 124 { depth += 1 }
            index = utf8.index(after: index)
        }
        if index == utf8.endIndex || utf8[index] < 0x80 { return (depth, line[index...]) }
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

extension ViewHierarchyDump: ReproFormat {
    public static let kind = ArtifactKind.viewHierarchy
    public static let fixtures = ["Fixtures/justsend/pviews-detail.txt"]
    public static func recognises(_ sniff: FormatSniff) -> Bool { matches(lines: sniff.lines) }
    public static func artifact(_ value: ViewHierarchyDump) -> ReproArtifact { .viewHierarchy(value) }
}
