/// A JSON value as written: objects keep their key order and numbers keep their literal text,
/// so 64-bit integers (18446744073709551615) and 17-digit doubles survive exactly.
///
/// Not `indirect`: the arrays already give the recursion its indirection, and an indirect case cost a heap box per
/// value (an 8-byte slot plus a boxed String); inline, a value is 24 bytes in its array and a short number or key (≤ 15
/// UTF-8 bytes) allocates nothing. `JSON.maxValues` bounds the rest.
public enum JSONValue: Sendable, Hashable {
    case object([JSONMember])
    case array([JSONValue])
    case string(String)
    /// The literal text, e.g. `-12`, `0.066796999999999995`, `1e3`.
    case number(String)
    case bool(Bool)
    case null

    /// The value of the first member named `key`, when this is an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        // Lengths first: a failed `==` of two different short strings costs far more than comparing counts.
        let length = key.utf8.count
        return members.first { $0.key.utf8.count == length && $0.key == key }?.value
    }

    /// The element at `index`, when this is an array and the index is in bounds.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The value at a path of object keys, e.g. `value[path: "memoryStatus", "pageSize"]`.
    public subscript(path keys: String...) -> JSONValue? {
        keys.reduce(Optional(self)) { $0?[$1] }
    }

    /// The members, when this is an object.
    public var members: [JSONMember]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// The elements, when this is an array.
    public var elements: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// The string, when this is a string.
    public var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The number as an exact `UInt64`, when it is a non-negative integer literal in range.
    public var uint64: UInt64? {
        if case .number(let text) = self { UInt64(text) } else { nil }
    }

    /// The number as an exact `Int`, when it is an integer literal in range.
    public var int: Int? {
        if case .number(let text) = self { Int(text) } else { nil }
    }

    /// The number as the nearest `Double`.
    public var double: Double? {
        if case .number(let text) = self { Double(text) } else { nil }
    }

    /// The boolean, when this is `true` or `false`.
    public var bool: Bool? {
        if case .bool(let flag) = self { flag } else { nil }
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// Whether this object has a member named `key`.
    public func has(_ key: String) -> Bool { self[key] != nil }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    public var key: String
    public var value: JSONValue

    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// A byte-level JSON parser (RFC 8259) that never traps: errors are `FormatError`s with a 1-based
/// line and a byte offset into the bytes given.
public enum JSON {
    /// `text` as a JSON string appended to `out`: `"` and `\` escaped, control characters as `\n`, `\r`, `\t` or
    /// `\u00xx`; `/` and everything else as it is (what `JSONEncoder` writes with `.withoutEscapingSlashes`). The one
    /// writer of JSON strings by hand (`JSONNode`'s text, the scan's ndjson lines). Most strings need no escape and are
    /// appended whole: appending per scalar was a noticeable share of a JetsamEvent run's JSON report.
    public static func appendString(_ text: String, to out: inout String) {
        out += "\""
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes in
            !bytes.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        }
        if plain == true {
            out += text
            out += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// Containers nested deeper than this are an error rather than a stack overflow.
    public static let maxDepth = 512

    /// Values in one document beyond `maxValues(forBytes:)` are an error rather than gigabytes of tree.
    ///
    /// A value costs ~34 bytes at the peak, the array's last doubling included, so one value per 16 bytes of input
    /// keeps any document's peak under 4 × its size plus the process at rest; 100 k values are always allowed (every
    /// document under 1.6 MB), 2 M never exceeded. Real documents are far sparser: the 342 KB JetsamEvent has ~15 k
    /// values (one per ~23 bytes). Before, a large array of one-digit numbers or a JetsamEvent body of empty process
    /// objects took gigabytes; now they are refused at the limit.
    public static let maxValues = 2_000_000

    /// How the value limit's error ends, so a reader can tell it from a syntax error (`isValueLimit`).
    public static let valueLimitWords = "memhunt's limit for one document"

    /// Whether `error` is the value limit's: the document may be well-formed, only too large to build.
    public static func isValueLimit(_ error: FormatError) -> Bool { error.message.hasSuffix(valueLimitWords) }

    /// The value limit for a document of `count` bytes.
    public static func maxValues(forBytes count: Int) -> Int { min(maxValues, max(100_000, count / 16)) }

    /// Parses `bytes` as one JSON document; only whitespace may follow the value.
    public static func parse(_ bytes: [UInt8]) throws(FormatError) -> JSONValue {
        let (value, end) = try parsePrefix(bytes, from: 0)
        let after = skipWhitespace(bytes, from: end)
        if after < bytes.count {
            throw FormatError(
                "unexpected \(describe(bytes[after])) after the JSON value", line: line(of: after, in: bytes),
                offset: after)
        }
        return value
    }

    /// Parses `text` (UTF-8) as one JSON document.
    public static func parse(_ text: String) throws(FormatError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Parses one JSON value that starts at `offset` (after optional whitespace) and returns it with
    /// the offset just past its last byte. Whatever follows is left alone.
    public static func parsePrefix(_ bytes: [UInt8], from offset: Int) throws(FormatError) -> (
        value: JSONValue, end: Int
    ) {
        let (value, _, end) = try parse(bytes, from: offset, visiting: nil)
        return (value, end)
    }

    /// `parsePrefix`, except that the elements of the top-level object's first member named `key`, when it
    /// is an array, are handed to `visitor` instead of being built: each element's members one at a time,
    /// keys as their decoded UTF-8 bytes, in order. That member is then left out of the returned object,
    /// and `visited` says so. Everything else (what is valid, every error, the value limit, depths) is
    /// `parsePrefix`'s own: the same code reads both.
    ///
    /// For a JetsamEvent's `processes`, whose objects were built, read once and freed: with them, building and
    /// releasing the tree were a large share of a fleet scan's work.
    public static func parsePrefix(
        _ bytes: [UInt8], from offset: Int, visitingElementsOf key: String, with visitor: any JSONElementVisitor
    ) throws(FormatError) -> (value: JSONValue, visited: Bool, end: Int) {
        try parse(bytes, from: offset, visiting: (Array(key.utf8), visitor))
    }

    /// `parsePrefix` without building: the value at `offset` is validated (the same errors, the same limit)
    /// and, when it is an object, each of its members goes to `member` in order: the key's decoded UTF-8
    /// bytes and the value, both valid only during the call. Returns whether it was an object, and its end.
    ///
    /// For an `.ips` header line, read for seven strings: building it as a tree showed in a fleet scan's profile.
    public static func visitPrefix(
        _ bytes: [UInt8], from offset: Int, members member: (UnsafeBufferPointer<UInt8>, JSONRawValue) -> Void
    ) throws(FormatError) -> (isObject: Bool, end: Int) {
        try withParser(bytes, from: offset) { parser throws(FormatError) in
            guard parser.current == UInt8(ascii: "{") else {
                try parser.skipValue(depth: 0)
                return (false, parser.index)
            }
            try parser.countValue()
            try parser.visitObject(depth: 1, member)
            return (true, parser.index)
        }
    }

    /// Both `parsePrefix`: the value at `offset`, whether `visiting`'s array went to its visitor, the end.
    private static func parse(
        _ bytes: [UInt8], from offset: Int, visiting: (key: [UInt8], visitor: any JSONElementVisitor)?
    ) throws(FormatError) -> (value: JSONValue, visited: Bool, end: Int) {
        try withParser(bytes, from: offset) { parser throws(FormatError) in
            parser.visited = visiting
            let value = try parser.parseValue(depth: 0)
            return (value, parser.didVisit, parser.index)
        }
    }

    /// `body` with a parser of `bytes` at `offset`, past whitespace: the set-up every entry point shares.
    private static func withParser<T>(
        _ bytes: [UInt8], from offset: Int, _ body: (inout Parser) throws(FormatError) -> T
    ) throws(FormatError) -> T {
        // The parser reads through an unsafe buffer: indexing the array checked bounds and uniqueness per byte.
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<T, FormatError> in
            var parser = Parser(bytes: bytes, buffer: buffer, index: max(0, min(offset, bytes.count)))
            parser.skipWhitespace()
            do throws(FormatError) {
                return .success(try body(&parser))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// `'x'` for a printable byte, `byte 0x…` otherwise: how errors name what they found.
    static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    /// The first index at or after `start` that is not JSON whitespace (space, tab, CR, LF).
    static func skipWhitespace(_ bytes: [UInt8], from start: Int) -> Int {
        var index = max(0, start)
        while index < bytes.count, isWhitespace(bytes[index]) { index &+= 1 }
        return index
    }

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The 1-based line of byte `offset` in `bytes`.
    public static func line(of offset: Int, in bytes: [UInt8]) -> Int {
        var line = 1
        for byte in bytes[0..<max(0, min(offset, bytes.count))] where byte == UInt8(ascii: "\n") { line &+= 1 }
        return line
    }
}

/// Takes the elements of an array that `JSON.parsePrefix(_:from:visitingElementsOf:with:)` does not build.
public protocol JSONElementVisitor: AnyObject {
    /// Element `index` (from 0) starts; an element that is not an object has no members.
    func begin(element index: Int)
    /// One member of the current element: its key's decoded UTF-8 bytes (valid only during the call), its
    /// value validated but not built (valid until `end(element:)`).
    func member(key: UnsafeBufferPointer<UInt8>, value: JSONRawValue)
    /// Element `index` is complete.
    func end(element index: Int)
}

/// A JSON value that the parser validated (and counted against the document's limit) without building it:
/// its bytes, read on demand. Each accessor gives what the same accessor of the built `JSONValue` gives, so
/// a visitor and the tree read a document alike (the `jetsam` fuzz target compares them). Valid while the
/// parse that made it runs.
///
/// Building every member of a JetsamEvent's processes and then reading nine of them was a large share of a fleet scan's
/// work: most members are never read, and a number read is converted from its bytes without a `String` between.
public struct JSONRawValue {
    let buffer: UnsafeBufferPointer<UInt8>
    let range: Range<Int>

    private var first: UInt8 { buffer[range.lowerBound] }

    /// The value, built: what the parser would have built in its place.
    public var built: JSONValue {
        var parser = Parser(bytes: [], buffer: buffer, index: range.lowerBound)
        parser.limit = .max  // counted once already, when it was validated
        return (try? parser.parseValue(depth: 0)) ?? .null  // never fails: the bytes were validated
    }

    /// `JSONValue.string`.
    public var string: String? {
        guard first == UInt8(ascii: "\"") else { return nil }
        let content = UnsafeBufferPointer(rebasing: buffer[(range.lowerBound &+ 1)..<(range.upperBound &- 1)])
        guard content.contains(UInt8(ascii: "\\")) else { return String(decoding: content, as: UTF8.self) }
        var parser = Parser(bytes: [], buffer: buffer, index: range.lowerBound)
        return try? parser.parseString()
    }

    /// `JSONValue.uint64`: `UInt64(text)` of a number's text.
    public var uint64: UInt64? { integer() }

    /// `JSONValue.int`: `Int(text)` of a number's text.
    public var int: Int? { integer() }

    /// `T(text)` for a number: decimal digits after an optional `-`, within `T`'s range (`-0` is 0, also
    /// unsigned), as the standard library parses them; nil for a fraction, an exponent or another kind.
    private func integer<T: FixedWidthInteger>() -> T? {
        var index = range.lowerBound
        let negative = buffer[index] == UInt8(ascii: "-")
        if negative { index &+= 1 }
        guard index < range.upperBound else { return nil }
        var result: T = 0
        while index < range.upperBound {
            let digit = buffer[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (shifted, overflowA) = result.multipliedReportingOverflow(by: 10)
            let (next, overflowB) =
                negative
                ? shifted.subtractingReportingOverflow(T(digit)) : shifted.addingReportingOverflow(T(digit))
            guard !overflowA, !overflowB else { return nil }
            result = next
            index &+= 1
        }
        return result
    }

    /// `JSONValue.elements?.compactMap(\.string)`, without building the array: the strings of an array.
    public var strings: [String]? {
        guard first == UInt8(ascii: "[") else { return nil }
        // Most arrays read this way (a process's `states`) hold short strings without escapes: read those here;
        // anything else goes through the parser. A parser per array cost more than these short arrays need.
        var strings: [String] = []
        var index = range.lowerBound &+ 1
        while true {
            while JSON.isWhitespace(buffer[index]) { index &+= 1 }
            if buffer[index] == UInt8(ascii: "]") { return strings }
            guard buffer[index] == UInt8(ascii: "\"") else { break }
            let start = index &+ 1
            index = start
            while buffer[index] != UInt8(ascii: "\""), buffer[index] != UInt8(ascii: "\\") { index &+= 1 }
            guard buffer[index] == UInt8(ascii: "\"") else { break }
            strings.append(String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self))
            index &+= 1
            while JSON.isWhitespace(buffer[index]) { index &+= 1 }
            if buffer[index] == UInt8(ascii: ",") { index &+= 1 }
        }
        return parsedStrings
    }

    private var parsedStrings: [String]? {
        var parser = Parser(bytes: [], buffer: buffer, index: range.lowerBound)
        parser.limit = .max
        var strings: [String] = []
        try? parser.readElements(depth: 1) { parser throws(FormatError) in
            if parser.current == UInt8(ascii: "\"") {
                strings.append(try parser.parseString())
            } else {
                try parser.skipValue(depth: 1)
            }
        }
        return strings
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes are `name`'s UTF-8: how visitors match the keys they read.
    func equals(_ name: StaticString) -> Bool {
        count == name.utf8CodeUnitCount
            && elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }
}

/// A string's decoded bytes: where it lies in the input when it has no escapes, else a copy.
private enum StringBytes {
    case span(Range<Int>)
    case decoded([UInt8])
}

private struct Parser {
    /// The document, for the lines of errors only (empty when re-reading a validated `JSONRawValue`).
    let bytes: [UInt8]
    /// The document, valid for the parser's life (`JSON.parsePrefix`): what is read.
    let buffer: UnsafeBufferPointer<UInt8>
    var index: Int
    var values = 0
    /// Members and elements of the containers being parsed, moved into an exactly sized array when each closes: growing
    /// every object's array from empty (1, 2, 4, 8, 16) showed in a fleet scan's profile. Made on first use: a parser
    /// re-reading one string of a `JSONRawValue` needs neither.
    lazy var members = ScratchStack<JSONMember>()
    lazy var elements = ScratchStack<JSONValue>()
    lazy var limit = JSON.maxValues(forBytes: buffer.count)
    /// The key whose array goes to the visitor, until that member is met (then nil).
    var visited: (key: [UInt8], visitor: any JSONElementVisitor)?
    /// Whether that member was an array and went to the visitor.
    var didVisit = false

    func error(_ message: String, at offset: Int? = nil) -> FormatError {
        let offset = offset ?? index
        return FormatError(message, line: JSON.line(of: offset, in: bytes), offset: offset)
    }

    func describe(_ byte: UInt8) -> String { JSON.describe(byte) }

    var current: UInt8? { index < buffer.count ? buffer[index] : nil }

    mutating func skipWhitespace() {
        while index < buffer.count, JSON.isWhitespace(buffer[index]) { index &+= 1 }
    }

    /// One more value, within the document's limit.
    mutating func countValue() throws(FormatError) {
        values &+= 1
        guard values <= limit else {
            throw error("more than \(limit) values in \(buffer.count) bytes, \(JSON.valueLimitWords)")
        }
    }

    mutating func parseValue(depth: Int) throws(FormatError) -> JSONValue {
        guard let byte = current else { throw error("truncated: no JSON value before the end") }
        try countValue()
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth &+ 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth &+ 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        default: throw error("unexpected \(describe(byte))")
        }
    }

    mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(FormatError) -> JSONValue {
        let start = index
        for expected in UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount) {
            guard let byte = current else { throw error("truncated: JSON ends inside '\(word)'") }
            guard byte == expected else { throw error("unexpected \(describe(byte)) in '\(word)'", at: start) }
            index &+= 1
        }
        return value
    }

    /// The members of the object at `index` (its `{`): for each, after its key and colon, `member` reads the
    /// value. Punctuation, depth and every error are here, once, for the built and the visited objects.
    @inline(__always)
    mutating func readMembers(
        depth: Int, _ member: (inout Parser, StringBytes) throws(FormatError) -> Void
    ) throws(FormatError) {
        guard depth <= JSON.maxDepth else { throw error("nesting deeper than \(JSON.maxDepth) levels") }
        index &+= 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index &+= 1
            return
        }
        while true {
            skipWhitespace()
            guard let byte = current else { throw error("truncated: JSON ends before the closing '}'") }
            guard byte == UInt8(ascii: "\"") else { throw error("unexpected \(describe(byte)), expected a key") }
            let key = try parseStringBytes()
            skipWhitespace()
            guard let colon = current else { throw error("truncated: JSON ends before the closing '}'") }
            guard colon == UInt8(ascii: ":") else { throw error("unexpected \(describe(colon)), expected ':'") }
            index &+= 1
            skipWhitespace()
            guard current != nil else { throw error("truncated: JSON ends before the closing '}'") }
            try member(&self, key)
            skipWhitespace()
            guard let next = current else { throw error("truncated: JSON ends before the closing '}'") }
            index &+= 1
            if next == UInt8(ascii: "}") { return }
            guard next == UInt8(ascii: ",") else {
                throw error("unexpected \(describe(next)), expected ',' or '}'", at: index &- 1)
            }
        }
    }

    /// The elements of the array at `index` (its `[`): `element` reads each. Punctuation, depth and every
    /// error are here, once, for the built and the visited arrays.
    @inline(__always)
    mutating func readElements(depth: Int, _ element: (inout Parser) throws(FormatError) -> Void) throws(FormatError) {
        guard depth <= JSON.maxDepth else { throw error("nesting deeper than \(JSON.maxDepth) levels") }
        index &+= 1
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index &+= 1
            return
        }
        while true {
            skipWhitespace()
            guard current != nil else { throw error("truncated: JSON ends before the closing ']'") }
            try element(&self)
            skipWhitespace()
            guard let next = current else { throw error("truncated: JSON ends before the closing ']'") }
            index &+= 1
            if next == UInt8(ascii: "]") { return }
            guard next == UInt8(ascii: ",") else {
                throw error("unexpected \(describe(next)), expected ',' or ']'", at: index &- 1)
            }
        }
    }

    mutating func parseObject(depth: Int) throws(FormatError) -> JSONValue {
        let base = members.count
        try readMembers(depth: depth) { parser, key throws(FormatError) in
            if depth == 1, let (wanted, visitor) = parser.visited, parser.isKey(key, wanted) {
                // Only the first member of that name is the one `value[key]` finds.
                parser.visited = nil
                if parser.current == UInt8(ascii: "[") {
                    try parser.countValue()
                    try parser.visitArray(depth: depth &+ 1, visitor)
                    parser.didVisit = true
                    return
                }
            }
            let value = try parser.parseValue(depth: depth)
            parser.members.push(JSONMember(key: parser.string(key), value: value))
        }
        return .object(members.pop(from: base))
    }

    mutating func parseArray(depth: Int) throws(FormatError) -> JSONValue {
        let base = elements.count
        try readElements(depth: depth) { parser throws(FormatError) in
            let value = try parser.parseValue(depth: depth)
            parser.elements.push(value)
        }
        return .array(elements.pop(from: base))
    }

    /// `parseArray` for the visited array: its objects go to `visitor` member by member, unbuilt.
    mutating func visitArray(depth: Int, _ visitor: any JSONElementVisitor) throws(FormatError) {
        var element = 0
        try readElements(depth: depth) { parser throws(FormatError) in
            visitor.begin(element: element)
            if parser.current == UInt8(ascii: "{") {
                try parser.countValue()
                try parser.visitObject(depth: depth &+ 1) { visitor.member(key: $0, value: $1) }
            } else {
                _ = try parser.parseValue(depth: depth)
            }
            visitor.end(element: element)
            element &+= 1
        }
    }

    /// `parseObject` without building: each member goes to `member`, its key as decoded bytes, its value
    /// validated, not built (an element of the visited array, or the document of `JSON.visitPrefix`).
    mutating func visitObject(
        depth: Int, _ member: (UnsafeBufferPointer<UInt8>, JSONRawValue) -> Void
    ) throws(FormatError) {
        try readMembers(depth: depth) { parser, key throws(FormatError) in
            let start = parser.index
            try parser.skipValue(depth: depth)
            let value = JSONRawValue(buffer: parser.buffer, range: start..<parser.index)
            switch key {
            case .span(let range): member(UnsafeBufferPointer(rebasing: parser.buffer[range]), value)
            case .decoded(let decoded): decoded.withUnsafeBufferPointer { member($0, value) }
            }
        }
    }

    /// `parseValue` without building: the same bytes accepted, the same values counted, the same errors.
    mutating func skipValue(depth: Int) throws(FormatError) {
        guard let byte = current else { throw error("truncated: no JSON value before the end") }
        try countValue()
        switch byte {
        case UInt8(ascii: "{"):
            try readMembers(depth: depth &+ 1) { parser, _ throws(FormatError) in
                try parser.skipValue(depth: depth &+ 1)
            }
        case UInt8(ascii: "["):
            try readElements(depth: depth &+ 1) { parser throws(FormatError) in try parser.skipValue(depth: depth &+ 1)
            }
        case UInt8(ascii: "\""): _ = try parseStringBytes()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try scanNumber()
        case UInt8(ascii: "t"): _ = try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): _ = try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): _ = try parseLiteral("null", .null)
        default: throw error("unexpected \(describe(byte))")
        }
    }

    func string(_ bytes: StringBytes) -> String {
        switch bytes {
        case .span(let range): String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
        case .decoded(let decoded): String(decoding: decoded, as: UTF8.self)
        }
    }

    func isKey(_ bytes: StringBytes, _ wanted: [UInt8]) -> Bool {
        switch bytes {
        case .span(let range): range.count == wanted.count && buffer[range].elementsEqual(wanted)
        case .decoded(let decoded): decoded == wanted
        }
    }

    mutating func parseNumber() throws(FormatError) -> JSONValue {
        let range = try scanNumber()
        return .number(String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self))
    }

    /// The bytes of the number at `index`, validated.
    mutating func scanNumber() throws(FormatError) -> Range<Int> {
        let start = index
        func digits(_ parser: inout Parser) -> Int {
            let first = parser.index
            while let byte = parser.current, (0x30...0x39).contains(byte) { parser.index &+= 1 }
            return parser.index &- first
        }
        func fail(_ parser: Parser, _ what: String) -> FormatError {
            guard let byte = parser.current else { return parser.error("truncated: JSON ends inside a number") }
            return parser.error("unexpected \(parser.describe(byte)) in a number, expected \(what)")
        }
        if current == UInt8(ascii: "-") { index &+= 1 }
        let leadingZero = current == UInt8(ascii: "0")
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw fail(self, "a digit") }
        guard !leadingZero || integerDigits == 1 else { throw error("leading zero in a number", at: start) }
        if current == UInt8(ascii: ".") {
            index &+= 1
            guard digits(&self) > 0 else { throw fail(self, "a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index &+= 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index &+= 1 }
            guard digits(&self) > 0 else { throw fail(self, "a digit in the exponent") }
        }
        return start..<index
    }

    mutating func parseString() throws(FormatError) -> String { string(try parseStringBytes()) }

    /// A string's decoded bytes, without making a `String` of them.
    mutating func parseStringBytes() throws(FormatError) -> StringBytes {
        let start = index
        index &+= 1
        let contentStart = index
        // Fast path: no escapes, which is most keys and values.
        while index < buffer.count {
            let byte = buffer[index]
            guard byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte >= 0x20 else { break }
            index &+= 1
        }
        if current == UInt8(ascii: "\"") {
            defer { index &+= 1 }
            return .span(contentStart..<index)
        }
        var buffer = Array(self.buffer[contentStart..<index])
        while true {
            guard let byte = current else { throw error("truncated: JSON ends inside the string at offset \(start)") }
            index &+= 1
            switch byte {
            case UInt8(ascii: "\""):
                return .decoded(buffer)
            case UInt8(ascii: "\\"):
                guard let escape = current else { throw error("truncated: JSON ends inside an escape") }
                index &+= 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"): buffer.append(contentsOf: try parseUnicodeEscape())
                default: throw error("invalid escape '\\\(describe(escape))'", at: index &- 2)
                }
            case 0..<0x20:
                throw error("unescaped control character \(describe(byte)) in a string", at: index &- 1)
            default:
                buffer.append(byte)
            }
        }
    }

    /// After `\u`: four hex digits, combined with a following `\uDC00`–`\uDFFF` when it is a high
    /// surrogate. A lone surrogate becomes U+FFFD.
    mutating func parseUnicodeEscape() throws(FormatError) -> [UInt8] {
        let high = try hex4()
        var scalar = Unicode.Scalar(high)
        if (0xD800...0xDBFF).contains(high), current == UInt8(ascii: "\\"),
            index &+ 1 < buffer.count, buffer[index &+ 1] == UInt8(ascii: "u")
        {
            let save = index
            index &+= 2
            let low = try hex4()
            if (0xDC00...0xDFFF).contains(low) {
                scalar = Unicode.Scalar(0x10000 &+ ((UInt32(high) &- 0xD800) << 10) &+ (UInt32(low) &- 0xDC00))
            } else {
                index = save
            }
        }
        return Array(String(Character(scalar ?? "\u{FFFD}")).utf8)
    }

    mutating func hex4() throws(FormatError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw error("truncated: JSON ends inside a \\u escape") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
            default: throw error("unexpected \(describe(byte)) in a \\u escape, expected a hex digit")
            }
            value = value &<< 4 | UInt16(digit)
            index &+= 1
        }
        return value
    }
}

/// A stack of values kept in one growing buffer; `pop(from:)` moves the top values into an exactly sized array
/// (moves, so no reference counting). What is left at the end (a parse that failed) is released with the stack.
private final class ScratchStack<Element> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0

    init() {
        capacity = 64
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    func push(_ element: consuming Element) {
        if count == capacity {
            let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = larger
            capacity *= 2
        }
        (base + count).initialize(to: element)
        count += 1
    }

    /// The values from `start` to the top, in order, removed from the stack.
    func pop(from start: Int) -> [Element] {
        let moved = count - start
        guard moved > 0 else { return [] }
        // Appends of moved values, not `Array(unsafeUninitializedCapacity:)`: that one is not specialized and looked
        // the storage type up in the runtime's metadata cache on every call, a noticeable share of a fleet scan.
        var result: [Element] = []
        result.reserveCapacity(moved)
        for offset in start..<count { result.append((base + offset).move()) }
        count = start
        return result
    }
}
