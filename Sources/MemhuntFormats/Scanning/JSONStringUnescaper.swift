/// Decodes the inside of a JSON string byte by byte (after the opening quote), into UTF-8.
struct JSONStringUnescaper {
    enum State { case plain, escape, unicode(Int, UInt32), done }
    var output: [UInt8] = []
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
            guard let digit = Self.hexDigit(byte) else {
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

    /// The value of a hexadecimal digit, or nil.
    @inline(__always)
    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 48...57: UInt32(byte - 48)
        case 65...70: UInt32(byte - 55)
        case 97...102: UInt32(byte - 87)
        default: nil
        }
    }

    /// Decodes `bytes` from `start` (after an opening quote) up to the closing quote into `output`; returns the
    /// closing quote's index, nil when the string does not end in `bytes`. Runs of bytes that are neither a
    /// quote nor a backslash are found 8 bytes at a time and appended whole; escapes go through `feed`, so the
    /// output is `feed`'s, byte for byte.
    mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        reset()
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = start
        while index < count {
            if case .plain = state, highSurrogate == nil {
                let end = Self.special(base, from: index, count: count)
                if end > index {
                    output.append(contentsOf: UnsafeBufferPointer(start: base + index, count: end - index))
                    index = end
                    if index == count { break }
                }
            }
            if case .done = feed(base[index]) { return index }
            index += 1
        }
        return nil
    }

    /// The index of the quote that ends the string from `start` (after its opening quote) as `decode` reads it,
    /// nil when it does not end in `bytes`; nothing is decoded. A backslash takes the byte after it; `\u`
    /// takes up to four hexadecimal digits and, when it stops short of four, the byte after them too (`feed`
    /// drops the byte that is not a digit, a quote included).
    static func end(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = start
        while true {
            index = special(base, from: index, count: count)
            guard index < count else { return nil }
            if base[index] == 0x22 { return index }
            index += 1
            guard index < count else { return nil }
            if base[index] != UInt8(ascii: "u") {
                index += 1
                continue
            }
            index += 1
            var digits = 0
            while digits < 4, index < count, hexDigit(base[index]) != nil {
                digits += 1
                index += 1
            }
            if digits < 4 {
                guard index < count else { return nil }
                index += 1
            }
        }
    }

    /// The index of the first `"` or `\` at or after `from`, or `count`.
    @inline(__always)
    static func special(_ base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int {
        var index = from
        let raw = UnsafeRawPointer(base)
        while index + 8 <= count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let quotes = word ^ 0x2222_2222_2222_2222
            let slashes = word ^ 0x5C5C_5C5C_5C5C_5C5C
            // A zero byte of either sets its top bit here; the lowest set bit is exact (borrows only reach up).
            let found =
                ((quotes &- 0x0101_0101_0101_0101) & ~quotes | (slashes &- 0x0101_0101_0101_0101) & ~slashes)
                & 0x8080_8080_8080_8080
            if found != 0 { return index + found.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < count, base[index] != 0x22, base[index] != 0x5C { index += 1 }
        return index
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
