/// A small JSON reader for memhunt's own formats: values, 1-based error lines, depth-limited.
enum MiniJSON {
    case object([(key: String, value: MiniJSON)])
    case array([MiniJSON])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// The member `key` of an object.
    subscript(key: String) -> MiniJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// Parses one JSON value surrounded by optional whitespace.
    static func parse(_ bytes: [UInt8]) -> Result<MiniJSON, FormatError> {
        var parser = Parser(bytes: bytes)
        do throws(FormatError) {
            let value = try parser.value(depth: 0)
            parser.skipSpace()
            guard parser.offset == bytes.count else { throw parser.error("trailing characters after the JSON value") }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    struct Parser {
        let bytes: [UInt8]
        var offset = 0

        func error(_ message: String) -> FormatError {
            FormatError(
                message, line: bytes[..<min(offset, bytes.count)].reduce(1) { $0 + ($1 == 10 ? 1 : 0) }, offset: offset)
        }

        mutating func skipSpace() {
            while offset < bytes.count, [9, 10, 13, 32].contains(bytes[offset]) { offset += 1 }
        }

        mutating func expect(_ literal: String) throws(FormatError) {
            let utf8 = Array(literal.utf8)
            guard bytes[offset...].starts(with: utf8) else { throw error("expected '\(literal)'") }
            offset += utf8.count
        }

        mutating func value(depth: Int) throws(FormatError) -> MiniJSON {
            guard depth < 64 else { throw error("JSON nested deeper than 64 levels") }
            skipSpace()
            guard offset < bytes.count else { throw error("unexpected end of JSON") }
            switch bytes[offset] {
            case UInt8(ascii: "{"):
                offset += 1
                var members: [(key: String, value: MiniJSON)] = []
                skipSpace()
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
                    offset += 1
                    return .object(members)
                }
                while true {
                    skipSpace()
                    let key = try string()
                    skipSpace()
                    try expect(":")
                    members.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    if offset < bytes.count, bytes[offset] == UInt8(ascii: ",") {
                        offset += 1
                    } else {
                        try expect("}")
                        return .object(members)
                    }
                }
            case UInt8(ascii: "["):
                offset += 1
                var items: [MiniJSON] = []
                skipSpace()
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                    offset += 1
                    return .array(items)
                }
                while true {
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    if offset < bytes.count, bytes[offset] == UInt8(ascii: ",") {
                        offset += 1
                    } else {
                        try expect("]")
                        return .array(items)
                    }
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"):
                try expect("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expect("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try expect("null")
                return .null
            default:
                let start = offset
                while offset < bytes.count, "+-.eE0123456789".utf8.contains(bytes[offset]) { offset += 1 }
                guard let number = ReproText.decimal(String(decoding: bytes[start..<offset], as: UTF8.self)) else {
                    offset = start
                    throw error("invalid JSON value")
                }
                return .number(number)
            }
        }

        mutating func string() throws(FormatError) -> String {
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a string") }
            var unescaper = JSONStringUnescaper()
            offset += 1
            while offset < bytes.count {
                if case .done = unescaper.feed(bytes[offset]) {
                    offset += 1
                    return String(decoding: unescaper.output, as: UTF8.self)
                }
                offset += 1
            }
            throw error("unterminated string")
        }
    }
}

/// Decodes the inside of a JSON string byte by byte (after the opening quote), into UTF-8.
struct JSONStringUnescaper {
    enum State { case plain, escape, unicode(Int, UInt32), done }
    private(set) var output: [UInt8] = []
    private var state = State.plain
    private var highSurrogate: UInt32?

    /// Consumes one byte; returns `.done` at the closing quote.
    @discardableResult mutating func feed(_ byte: UInt8) -> State {
        switch state {
        case .done: break
        case .plain:
            if byte == UInt8(ascii: "\"") {
                state = .done
            } else if byte == UInt8(ascii: "\\") {
                state = .escape
            } else {
                output.append(byte)
            }
        case .escape:
            state = .plain
            switch byte {
            case UInt8(ascii: "n"): output.append(10)
            case UInt8(ascii: "t"): output.append(9)
            case UInt8(ascii: "r"): output.append(13)
            case UInt8(ascii: "b"): output.append(8)
            case UInt8(ascii: "f"): output.append(12)
            case UInt8(ascii: "u"): state = .unicode(0, 0)
            default: output.append(byte)  // \" \\ \/ and anything lenient
            }
        case .unicode(let digits, let value):
            guard let digit = UInt32(String(UnicodeScalar(byte)), radix: 16) else {
                state = .plain
                return state
            }
            let next = value << 4 | digit
            guard digits == 3 else {
                state = .unicode(digits + 1, next)
                return state
            }
            state = .plain
            append(codeUnit: next)
        }
        return state
    }

    private mutating func append(codeUnit: UInt32) {
        var scalar = codeUnit
        if (0xD800..<0xDC00).contains(codeUnit) {
            highSurrogate = codeUnit
            return
        }
        if (0xDC00..<0xE000).contains(codeUnit), let high = highSurrogate {
            scalar = 0x10000 + ((high - 0xD800) << 10) + (codeUnit - 0xDC00)
        }
        highSurrogate = nil
        output.append(contentsOf: String(Character(UnicodeScalar(scalar) ?? "\u{FFFD}")).utf8)
    }

    /// Empties the output and starts a new string.
    mutating func reset() {
        output.removeAll(keepingCapacity: true)
        state = .plain
        highSurrogate = nil
    }
}
