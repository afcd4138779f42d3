/// A JSON document whose top level is an object, read as it streams: each member's value is handed over whole as
/// its bytes, except the elements of the array member named `arrayKey`, handed over one at a time. So a document of
/// gigabytes whose bulk is one long array (`footprint --sample`'s `samples`) is read in the memory of its largest
/// element. The top level's grammar (the object, its keys, colons and commas, the array's commas) is checked here;
/// the values and elements are checked by whoever parses their bytes. A value or element longer than `valueCap` is
/// passed over and said so (`Event.tooLong`), its bytes not kept.
struct JSONObjectStream {
    enum Event {
        /// A member of the top-level object (never the array's): its key, decoded, and its value's bytes.
        case member(key: String, value: [UInt8])
        /// The array member was found (`elements` follow).
        case arrayStart
        /// An element of the array member: its 0-based index and bytes.
        case element(index: Int, bytes: [UInt8])
        /// A member's value (`index` nil) or an element over `valueCap` bytes, not kept.
        case tooLong(key: String, index: Int?)
    }

    private enum State {
        /// Before the `{`.
        case start
        /// After `{` or a member's `,`: a key or (after `{` only) `}`.
        case key(first: Bool)
        /// Inside a key's string.
        case keyString
        /// After a key: the `:`.
        case colon
        /// After the `:`: a value starts (the array member's `[`, or any value).
        case value
        /// Inside a member's value.
        case inValue
        /// After a member's value: `,` or `}`.
        case afterValue
        /// After the array's `[` or an element's `,`: an element or (after `[` only) `]`.
        case element(first: Bool)
        /// Inside an element.
        case inElement
        /// After an element: `,` or `]`.
        case afterElement
        /// After the top-level object's `}`: whitespace only.
        case done
    }

    let arrayKey: String
    let valueCap: Int
    private var state = State.start
    private var key: [UInt8] = []
    private var keyEscaped = false
    private var keyName = ""
    /// The value or element being read: its bytes (unless over the cap), depth and string state.
    private var value: [UInt8] = []
    private var overCap = false
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// A scalar value (a number, `true`) ends at the byte after it: whether the value is one.
    private var scalar = false
    private var elementIndex = 0
    /// Whether a member named `arrayKey` was met: only the first is streamed (a reader of the whole document takes
    /// the first of a name too).
    private var sawArrayKey = false
    /// Bytes read before the current chunk: errors name their offset in the document.
    private var offset = 0
    private(set) var failure: FormatError?

    init(arrayKey: String, valueCap: Int) {
        self.arrayKey = arrayKey
        self.valueCap = valueCap
    }

    /// Reads the next chunk, handing each complete member or element to `event`.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, _ event: (Event) -> Void) {
        guard failure == nil, let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let bytes = UnsafeBufferPointer(start: base, count: chunk.count)
        var index = 0
        while index < bytes.count, failure == nil {
            switch state {
            case .inValue, .inElement:
                index = consumeValue(bytes, from: index, event)
            default:
                step(bytes[index], at: offset + index, event)
                index += 1
            }
        }
        offset += bytes.count
    }

    /// Ends the document: an error when it is not one whole object.
    mutating func finish() -> FormatError? {
        if failure == nil, case .done = state { return nil }
        return failure
            ?? FormatError("the JSON ends before its top-level object closes: the file is cut short", offset: offset)
    }

    private mutating func fail(_ message: String, at position: Int) {
        failure = FormatError(message, offset: position)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    /// One byte of the top level's grammar.
    private mutating func step(_ byte: UInt8, at position: Int, _ event: (Event) -> Void) {
        if Self.isSpace(byte), !isKeyString { return }
        switch state {
        case .start:
            // A byte order mark before the object is no part of it.
            if position < 3, byte == 0xEF || byte == 0xBB || byte == 0xBF { return }
            guard byte == UInt8(ascii: "{") else { return fail("the JSON is not an object", at: position) }
            state = .key(first: true)
        case .key(let first):
            if first, byte == UInt8(ascii: "}") { state = .done; return }
            guard byte == UInt8(ascii: "\"") else { return fail("expected a key at offset \(position)", at: position) }
            key.removeAll(keepingCapacity: true)
            keyEscaped = false
            state = .keyString
        case .keyString:
            if keyEscaped {
                keyEscaped = false
            } else if byte == UInt8(ascii: "\\") {
                keyEscaped = true
            } else if byte == UInt8(ascii: "\"") {
                keyName = Self.decodeKey(key)
                state = .colon
                return
            }
            if key.count < 1024 { key.append(byte) }
        case .colon:
            guard byte == UInt8(ascii: ":") else { return fail("expected ':' after a key", at: position) }
            state = .value
        case .value:
            if keyName == arrayKey, !sawArrayKey {
                sawArrayKey = true
                if byte == UInt8(ascii: "[") {
                    event(.arrayStart)
                    state = .element(first: true)
                    return
                }
            }
            begin(byte)
            state = .inValue
        case .afterValue:
            if byte == UInt8(ascii: ",") {
                state = .key(first: false)
            } else if byte == UInt8(ascii: "}") {
                state = .done
            } else {
                fail("expected ',' or '}' after a member", at: position)
            }
        case .element(let first):
            if first, byte == UInt8(ascii: "]") { state = .afterValue; return }
            begin(byte)
            state = .inElement
        case .afterElement:
            if byte == UInt8(ascii: ",") {
                state = .element(first: false)
            } else if byte == UInt8(ascii: "]") {
                state = .afterValue
            } else {
                fail("expected ',' or ']' after an element of '\(arrayKey)'", at: position)
            }
        case .done:
            fail("unexpected bytes after the JSON object", at: position)
        case .inValue, .inElement:
            break
        }
    }

    private var isKeyString: Bool {
        if case .keyString = state { return true }
        return false
    }

    /// The first byte of a value or element.
    private mutating func begin(_ byte: UInt8) {
        value.removeAll(keepingCapacity: value.capacity <= 1 << 20)
        value.append(byte)
        overCap = false
        inString = byte == UInt8(ascii: "\"")
        escaped = false
        scalar = !inString && byte != UInt8(ascii: "{") && byte != UInt8(ascii: "[")
        depth = scalar || inString ? 0 : 1
    }

    /// Reads a value's or element's bytes from `start` to its end (or the chunk's); returns where reading stopped.
    private mutating func consumeValue(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ event: (Event) -> Void
    ) -> Int {
        var index = start
        var ended = false
        // A string or container ends at its closing byte (kept); a scalar at the first byte that is not its own
        // (not kept, and read again as the top level's).
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if depth == 0 {
                        ended = true
                        index += 1
                        break
                    }
                }
            } else if scalar {
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
                    || Self.isSpace(byte)
                {
                    ended = true
                    break
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        ended = true
                        index += 1
                    }
                default: break
                }
                if ended { break }
            }
            index += 1
        }
        // The bytes read of the value, without the first (kept by `begin`) and, for a scalar, without what ends it.
        if !overCap {
            let piece = UnsafeBufferPointer(rebasing: bytes[start..<index])
            if value.count + piece.count > valueCap {
                overCap = true
                value.removeAll()
            } else {
                value.append(contentsOf: piece)
            }
        }
        if ended { endValue(event) }
        return index
    }

    private mutating func endValue(_ event: (Event) -> Void) {
        if case .inElement = state {
            event(overCap ? .tooLong(key: keyName, index: elementIndex) : .element(index: elementIndex, bytes: value))
            elementIndex += 1
            state = .afterElement
        } else {
            event(overCap ? .tooLong(key: keyName, index: nil) : .member(key: keyName, value: value))
            state = .afterValue
        }
    }

    /// A key's bytes as its text: escapes decoded by the JSON parser, the plain ones as they are.
    private static func decodeKey(_ bytes: [UInt8]) -> String {
        guard bytes.contains(UInt8(ascii: "\\")) else { return String(decoding: bytes, as: UTF8.self) }
        return (try? JSON.parse([UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")]))?.string
            ?? String(decoding: bytes, as: UTF8.self)
    }
}
