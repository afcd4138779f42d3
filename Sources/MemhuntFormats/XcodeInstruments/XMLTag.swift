/// Where a token starts: its byte offset from the start of the input and its 1-based line.
public struct XMLPosition: Sendable, Hashable {
    public var offset: Int
    public var line: Int
}

/// One start tag: its name and attributes, values with their entities decoded. A view into the input and the
/// tokenizer's buffers, valid only during the `startElement` call that receives it.
public struct XMLTag {
    /// The tag's bytes after `<` (attribute values raw).
    let bytes: UnsafePointer<UInt8>
    let nameCount: Int
    let spans: UnsafePointer<XMLAttributeSpan>
    /// Attribute values that held an entity or a tab or line break, decoded.
    let decoded: UnsafePointer<UInt8>
    public let attributeCount: Int
    /// `<a/>`: the end follows at once.
    public let isEmpty: Bool
    public let position: XMLPosition

    public var name: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: bytes, count: nameCount) }

    /// The name of attribute `index`.
    public func attributeName(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let span = spans[index]
        return UnsafeBufferPointer(start: bytes + Int(span.nameStart), count: Int(span.nameCount))
    }

    /// The decoded value of attribute `index`.
    public func attributeValue(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let span = spans[index]
        return UnsafeBufferPointer(
            start: (span.decoded ? decoded : bytes) + Int(span.valueStart), count: Int(span.valueCount))
    }

    /// The decoded value of the attribute named `name`, nil when the tag has none.
    public func attribute(_ name: StaticString) -> UnsafeBufferPointer<UInt8>? {
        for index in 0..<attributeCount where Self.equal(attributeName(index), name) {
            return attributeValue(index)
        }
        return nil
    }

    /// Whether the tag's name is `name`.
    public func named(_ name: StaticString) -> Bool { Self.equal(self.name, name) }

    /// Whether `bytes` are those of `text`: the lengths first, then the bytes.
    @inline(__always)
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        let other = text.utf8Start
        for index in 0..<bytes.count where bytes[index] != other[index] { return false }
        return true
    }
}

/// Where an attribute of a tag stands: its name in the tag's bytes, its value there too or, when it had to be
/// decoded, in the tokenizer's decoded values.
struct XMLAttributeSpan {
    var nameStart: Int32
    var nameCount: Int32
    var valueStart: Int32
    var valueCount: Int32
    var decoded: Bool
}

/// An `XMLTokenizer`'s memory, allocated once at its bounds (pages are only touched as they are used) and freed
/// with the last tokenizer holding it. A tokenizer that finds it shared copies it before writing (`copy`).
final class XMLBuffers {
    /// A tag, comment opening or entity split between chunks, gathered.
    let carry = UnsafeMutablePointer<UInt8>.allocate(capacity: XMLTokenizer.maxTagBytes)
    /// The current tag's decoded attribute values (never longer than the tag), and a decoded text entity.
    let values = UnsafeMutablePointer<UInt8>.allocate(capacity: XMLTokenizer.maxTagBytes)
    /// The open elements' names, back to back; where each starts; where each was opened.
    let names = UnsafeMutablePointer<UInt8>.allocate(capacity: XMLTokenizer.maxNameBytes)
    let nameStarts = UnsafeMutablePointer<Int>.allocate(capacity: XMLTokenizer.maxDepth + 1)
    let opened = UnsafeMutablePointer<XMLPosition>.allocate(capacity: XMLTokenizer.maxDepth + 1)
    let spans = UnsafeMutablePointer<XMLAttributeSpan>.allocate(capacity: XMLTokenizer.maxAttributes)
    /// What each byte is to the scanning loops (`XMLTokenizer.ByteClass`): one load a byte instead of a chain of
    /// comparisons.
    let classes = XMLBuffers.byteClasses()

    static func byteClasses() -> UnsafeMutablePointer<UInt8> {
        typealias Class = XMLTokenizer.ByteClass
        let classes = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        for value in 0...255 {
            let byte = UInt8(value)
            var bits: UInt8 = 0
            if byte == 0x22 || byte == 0x27 { bits |= Class.quote | Class.tagStop | Class.quotedStop }
            if byte == 0x26 || byte == 0x3C || byte == 0x09 || byte == 0x0A || byte == 0x0D { bits |= Class.decode }
            if XMLTokenizer.isNameByte(byte) { bits |= Class.name }
            if XMLTokenizer.isNameStart(byte) { bits |= Class.nameStart }
            if XMLTokenizer.isSpace(byte) { bits |= Class.space }
            if byte == 0x3E || byte == 0x3C || byte == 0x0A { bits |= Class.tagStop }
            if byte == 0x3C || byte == 0x26 || byte == 0x0A { bits |= Class.textStop }
            if byte == 0x0A { bits |= Class.quotedStop }
            classes[value] = bits
        }
        return classes
    }

    deinit {
        carry.deallocate()
        values.deallocate()
        names.deallocate()
        nameStarts.deallocate()
        opened.deallocate()
        spans.deallocate()
        classes.deallocate()
    }

    /// A copy holding the first `carry` gathered bytes, `names` bytes of names and `depth` open elements.
    func copy(carry: Int, names: Int, depth: Int) -> XMLBuffers {
        let copy = XMLBuffers()
        copy.carry.update(from: self.carry, count: carry)
        copy.names.update(from: self.names, count: names)
        copy.nameStarts.update(from: nameStarts, count: depth)
        copy.opened.update(from: opened, count: depth)
        return copy
    }
}

extension XMLTokenizer {
    /// Bits of `XMLBuffers.classes`.
    enum ByteClass {
        /// `"` and `'`.
        static let quote: UInt8 = 1
        /// `&`, `<`, a tab or line break: an attribute value holding one differs from its bytes.
        static let decode: UInt8 = 2
        static let name: UInt8 = 4
        static let nameStart: UInt8 = 8
        static let space: UInt8 = 16
        /// What a tag's bytes outside quotes are looked at for: `>`, quotes, `<`, a newline.
        static let tagStop: UInt8 = 32
        /// What text is looked at for: `<`, `&`, a newline.
        static let textStop: UInt8 = 64
        /// What a quoted value's bytes are looked at for: quotes and a newline.
        static let quotedStop: UInt8 = 128
    }

    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- 0x61 < 26 || byte == 0x5F || byte == 0x3A || byte >= 0x80
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || byte &- 0x30 < 10 || byte == 0x2D || byte == 0x2E
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    static func describe(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    /// Writes the UTF-8 bytes of entity `name` (`lt`, `gt`, `amp`, `quot`, `apos`, `#60`, `#x3C`) to `out` and
    /// returns how many (1 to 4, never more than the entity's own length); nil for anything else.
    static func decodeEntity(_ name: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int? {
        func named(_ text: StaticString, _ byte: UInt8) -> Int? {
            guard XMLTag.equal(name, text) else { return nil }
            out[0] = byte
            return 1
        }
        if let one = named("lt", 0x3C) ?? named("gt", 0x3E) ?? named("amp", 0x26) ?? named("quot", 0x22)
            ?? named("apos", 0x27)
        {
            return one
        }
        guard name.first == 0x23 else { return nil }
        var digits = name.dropFirst()
        var radix: UInt32 = 10
        if digits.first == 0x78 {
            radix = 16
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.count <= 8 else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x61...0x66 where radix == 16: digit = UInt32(byte - 0x61 + 10)
            case 0x41...0x46 where radix == 16: digit = UInt32(byte - 0x41 + 10)
            default: return nil
            }
            value = value * radix + digit
        }
        guard value != 0, Unicode.Scalar(value) != nil else { return nil }
        // UTF-8: one byte below 0x80, then two, three and four.
        guard value >= 0x80 else {
            out[0] = UInt8(value)
            return 1
        }
        let count = value < 0x800 ? 2 : value < 0x10000 ? 3 : 4
        for index in (1..<count).reversed() {
            out[index] = 0x80 | UInt8(value & 0x3F)
            value >>= 6
        }
        out[0] = (count == 2 ? 0xC0 : count == 3 ? 0xE0 : 0xF0) | UInt8(value)
        return count
    }
}
