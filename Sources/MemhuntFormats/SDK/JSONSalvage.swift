/// Reads what is whole of a JSON document that people pasted and something cut or redacted: a document that
/// ends mid-value, with bare words where a poster blanked a value (`"project": REDACTED`). Used only after the
/// strict parser failed, and only for SDK exports: what it gives is said to be cut, with where.
enum JSONSalvage {
    /// What was whole, and where the text ended.
    struct Salvaged {
        var value: JSONValue
        /// The keys of the containers still open where the text ended (`contexts.app`); nil when it ended whole.
        var cutInside: [String]?
        /// Values written as bare words (`REDACTED`), kept as strings.
        var bareWords: Int
    }

    /// The salvage of `bytes` from the first line that opens an object: lines before it (`#` comments, prose)
    /// are skipped. Nil when no object opens, or the text is not JSON-like enough to hold one member.
    static func salvage(_ bytes: [UInt8]) -> Salvaged? {
        guard let start = firstObjectLine(bytes) else { return nil }
        var parser = Lenient(bytes: bytes, index: start, limit: JSON.maxValues(forBytes: bytes.count))
        guard let value = parser.value(depth: 0), case .object(let members) = value, !members.isEmpty else {
            return nil
        }
        return Salvaged(value: value, cutInside: parser.cutPath, bareWords: parser.bareWords)
    }

    /// The offset of the first `{` that starts a line (after blanks).
    private static func firstObjectLine(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            var cursor = index
            while cursor < bytes.count, bytes[cursor] == 0x20 || bytes[cursor] == 0x09 { cursor += 1 }
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "{") { return cursor }
            guard let end = bytes[cursor...].firstIndex(of: 0x0A) else { return nil }
            index = end + 1
        }
        return nil
    }

    private struct Lenient {
        let bytes: [UInt8]
        var index: Int
        let limit: Int
        var values = 0
        var bareWords = 0
        /// The keys of the open containers; kept as the path where the text ended.
        var path: [String] = []
        var cutPath: [String]?

        mutating func skipBlanks() {
            while index < bytes.count, JSON.isWhitespace(bytes[index]) { index += 1 }
        }

        mutating func ended() -> JSONValue? {
            if cutPath == nil { cutPath = path }
            return nil
        }

        /// A value, or nil when the text ended (or broke) before it was whole.
        mutating func value(depth: Int) -> JSONValue? {
            skipBlanks()
            values += 1
            guard index < bytes.count, depth < 64, values <= limit else { return ended() }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object(depth: depth + 1)
            case UInt8(ascii: "["): return array(depth: depth + 1)
            case UInt8(ascii: "\""): return string().map(JSONValue.string)
            default: return word()
            }
        }

        mutating func object(depth: Int) -> JSONValue? {
            index += 1
            var members: [JSONMember] = []
            while true {
                skipBlanks()
                guard index < bytes.count else { return cut(.object(members)) }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    return .object(members)
                }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "\""), let key = string() else { return cut(.object(members)) }
                skipBlanks()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return cut(.object(members)) }
                index += 1
                path.append(key)
                guard let value = value(depth: depth) else {
                    path.removeLast()
                    return cut(.object(members))
                }
                path.removeLast()
                members.append(JSONMember(key: key, value: value))
            }
        }

        mutating func array(depth: Int) -> JSONValue? {
            index += 1
            var elements: [JSONValue] = []
            while true {
                skipBlanks()
                guard index < bytes.count else { return cut(.array(elements)) }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    return .array(elements)
                }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                path.append("\(elements.count)")
                guard let value = value(depth: depth) else {
                    path.removeLast()
                    return cut(.array(elements))
                }
                path.removeLast()
                elements.append(value)
            }
        }

        /// A container the text ended inside: what it held so far, once the end is recorded.
        mutating func cut(_ partial: JSONValue) -> JSONValue? {
            if cutPath == nil { cutPath = path }
            // The outermost object is what the caller reads; inner ones keep what was whole of them.
            return partial
        }

        /// A string at `index` (its `"`); nil when the text ends inside it.
        mutating func string() -> String? {
            var out: [UInt8] = []
            var cursor = index + 1
            while cursor < bytes.count {
                let byte = bytes[cursor]
                if byte == UInt8(ascii: "\"") {
                    index = cursor + 1
                    return String(decoding: out, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\"), cursor + 1 < bytes.count {
                    let next = bytes[cursor + 1]
                    switch next {
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "u"):
                        let hex = bytes[(cursor + 2)..<min(bytes.count, cursor + 6)]
                        let scalar = UInt32(String(decoding: hex, as: UTF8.self), radix: 16).flatMap(
                            Unicode.Scalar.init)
                        out.append(contentsOf: Array(String(scalar ?? "\u{FFFD}").utf8))
                        cursor += 4
                    default: out.append(next)
                    }
                    cursor += 2
                    continue
                }
                if byte == 0x0A { break }
                out.append(byte)
                cursor += 1
            }
            index = bytes.count
            return nil
        }

        /// A number, `true`, `false`, `null`, or a bare word (a redaction) up to the next `,`, `}`, `]` or line end.
        mutating func word() -> JSONValue? {
            let start = index
            while index < bytes.count, !",}]\n\r".utf8.contains(bytes[index]) { index += 1 }
            guard index < bytes.count else { return ended() }
            var text = String(decoding: bytes[start..<index], as: UTF8.self)
            while text.last == " " || text.last == "\t" { text.removeLast() }
            guard !text.isEmpty else { return ended() }
            switch text {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "null": return .null
            default:
                if let first = text.utf8.first, first == UInt8(ascii: "-") || (0x30...0x39).contains(first),
                    Double(text) != nil
                {
                    return .number(text)
                }
                bareWords += 1
                return .string(text)
            }
        }
    }
}
