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
            if byte == UInt8(ascii: "\\") {
                state = .escape
                return state
            }
            flushSurrogate()
            if byte == UInt8(ascii: "\"") { state = .done } else { output.append(byte) }
        case .escape:
            state = .plain
            if byte != UInt8(ascii: "u") { flushSurrogate() }
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

    /// Lone surrogates become U+FFFD, as `JSON.parse` decodes them.
    private mutating func append(codeUnit: UInt32) {
        var scalar = codeUnit
        if (0xD800..<0xDC00).contains(codeUnit) {
            flushSurrogate()
            highSurrogate = codeUnit
            return
        }
        if (0xDC00..<0xE000).contains(codeUnit), let high = highSurrogate {
            scalar = 0x10000 + ((high - 0xD800) << 10) + (codeUnit - 0xDC00)
            highSurrogate = nil
        }
        flushSurrogate()
        output.append(contentsOf: String(Character(UnicodeScalar(scalar) ?? "\u{FFFD}")).utf8)
    }

    /// A high surrogate not followed by a low one.
    private mutating func flushSurrogate() {
        guard highSurrogate != nil else { return }
        highSurrogate = nil
        output.append(contentsOf: "\u{FFFD}".utf8)
    }

    /// Empties the output and starts a new string.
    mutating func reset() {
        output.removeAll(keepingCapacity: true)
        state = .plain
        highSurrogate = nil
    }
}
