/// Where a token starts: its byte offset from the start of the input and its 1-based line.
public struct XMLPosition: Sendable, Hashable {
    public var offset: Int
    public var line: Int
}

/// One start tag: its name and attributes, values with their entities decoded. A view into the tokenizer's
/// buffers, valid only during the `startElement` call that receives it.
public struct XMLTag {
    /// The tag's bytes between `<` and `>` (attribute values raw).
    let raw: ArraySlice<UInt8>
    let nameRange: Range<Int>
    /// Each attribute's name (in `raw`) and decoded value (in `values`).
    let names: ArraySlice<Range<Int>>
    let valueRanges: ArraySlice<Range<Int>>
    let values: [UInt8]
    /// `<a/>`: the end follows at once.
    public let isEmpty: Bool
    public let position: XMLPosition

    public var name: ArraySlice<UInt8> { raw[nameRange] }
    public var attributeCount: Int { names.count }

    /// The name of attribute `index`.
    public func attributeName(_ index: Int) -> ArraySlice<UInt8> { raw[names[names.startIndex + index]] }
    /// The decoded value of attribute `index`.
    public func attributeValue(_ index: Int) -> ArraySlice<UInt8> {
        values[valueRanges[valueRanges.startIndex + index]]
    }

    /// The decoded value of the attribute named `name`, nil when the tag has none.
    public func attribute(_ name: String) -> ArraySlice<UInt8>? {
        for index in 0..<names.count where attributeName(index).elementsEqual(name.utf8) {
            return attributeValue(index)
        }
        return nil
    }

    /// Whether the tag's name is `name`.
    public func named(_ name: String) -> Bool { self.name.elementsEqual(name.utf8) }
}

/// What an `XMLTokenizer` hands over, in document order.
public protocol XMLHandler {
    /// A start tag; for `<a/>` (`tag.isEmpty`) `endElement` follows at once.
    mutating func startElement(_ tag: XMLTag)
    /// The end of the element opened last.
    mutating func endElement(at position: XMLPosition)
    /// A piece of character data (entities decoded, CDATA as written); one text may come in several pieces.
    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>)
}

/// A streaming XML 1.0 tokenizer on bytes: fed chunks of any size, in one pass, it hands start tags, ends and
/// text to a handler. Comments, processing instructions (`<?xml …?>`) and a DOCTYPE (with its internal subset)
/// are skipped; CDATA is text; the five predefined entities and character references are decoded, any other
/// entity is an error. Well-formedness that a reader relies on is checked: end tags match their start tags,
/// attributes are quoted and not given twice, one root element, nothing but whitespace outside it.
///
/// Memory is bounded whatever the input: a tag (name and attributes) holds at most `maxTagBytes` bytes, elements
/// nest at most `maxDepth` deep, a tag has at most `maxAttributes` attributes; text is handed over as it comes,
/// never gathered. Past a bound, and at the first error, the tokenizer stops with an error naming the byte
/// offset and line; input that ends inside an element, a tag, a comment or CDATA is an error too (`finish`).
public struct XMLTokenizer {
    public static let maxTagBytes = 1 << 20
    public static let maxDepth = 256
    public static let maxAttributes = 256

    private enum State {
        case text
        case lessThan
        case startTag
        case endTag
        case bang
        case comment
        case cdata
        case processing
        case doctype
        case entity
    }

    private var state = State.text
    /// Bytes consumed before the current chunk; newlines seen.
    private var consumed = 0
    private var newlines = 0
    /// The position of the current markup's `<` (or entity's `&`).
    private var markStart = XMLPosition(offset: 0, line: 1)
    /// The current start or end tag's bytes; `<!…` and entity bytes.
    private var tag: [UInt8] = []
    private var quote: UInt8 = 0
    /// Comment, CDATA, PI and DOCTYPE ends: the last bytes seen, bracket depth of an internal subset.
    private var tail: UInt32 = 0
    private var bracketDepth = 0
    private var doctypeQuote: UInt8 = 0
    /// Open elements' names (in `names`, back to back) and where each started.
    private var names: [UInt8] = []
    private var nameStarts: [Int] = []
    private var opened: [XMLPosition] = []
    private var rootSeen = false
    private var rootClosed = false
    private var attributeNames: [Range<Int>] = []
    private var valueRanges: [Range<Int>] = []
    private var values: [UInt8] = []
    /// The first error; nothing is read after it.
    public private(set) var error: FormatError?

    public init() {}

    /// Elements open now.
    public var depth: Int { nameStarts.count }
    /// Bytes fed so far.
    public var offset: Int { consumed }

    private var position: XMLPosition { XMLPosition(offset: consumed, line: newlines + 1) }

    private mutating func fail(_ message: String, at place: XMLPosition) {
        guard error == nil else { return }
        error = FormatError(message + " (byte \(place.offset))", line: place.line, offset: place.offset)
    }

    /// The next chunk of the document.
    public mutating func feed<H: XMLHandler>(_ chunk: UnsafeRawBufferPointer, into handler: inout H) {
        guard error == nil, let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let count = chunk.count
        var index = 0
        func here(_ at: Int) -> XMLPosition { XMLPosition(offset: consumed + at, line: newlines + 1) }
        // A UTF-8 byte order mark before the document (some Windows editors save one) is read past.
        while bomMatched < 3, index < count {
            guard base[index] == Self.byteOrderMark[bomMatched] else {
                if bomMatched > 0 { fail("text before the root element", at: XMLPosition(offset: 0, line: 1)) }
                bomMatched = 3
                break
            }
            bomMatched += 1
            index += 1
        }
        while index < count, error == nil {
            switch state {
            case .text:
                // Runs of plain text are handed over in place.
                let start = index
                while index < count {
                    let byte = base[index]
                    if byte == 0x3C || byte == 0x26 { break }
                    if byte == 0x0A { newlines += 1 }
                    index += 1
                }
                if index > start {
                    deliverText(UnsafeBufferPointer(start: base + start, count: index - start), at: start, &handler)
                }
                guard index < count else { break }
                markStart = here(index)
                tag.removeAll(keepingCapacity: true)
                state = base[index] == 0x3C ? .lessThan : .entity
                index += 1
            case .entity:
                let byte = base[index]
                index += 1
                if byte == 0x3B {
                    guard let decoded = Self.decodeEntity(tag[...]) else {
                        fail("unknown entity '&\(String(decoding: tag.prefix(32), as: UTF8.self));'", at: markStart)
                        break
                    }
                    decoded.withUnsafeBufferPointer { deliverText($0, at: nil, &handler) }
                    state = .text
                } else if tag.count >= 16 || byte == 0x3C || byte == 0x26 || byte <= 0x20 {
                    fail("an '&' that starts no entity", at: markStart)
                } else {
                    tag.append(byte)
                }
            case .lessThan:
                let byte = base[index]
                switch byte {
                case 0x2F:
                    state = .endTag
                    index += 1
                case 0x21:
                    state = .bang
                    index += 1
                case 0x3F:
                    state = .processing
                    tail = 0
                    index += 1
                default:
                    guard Self.isNameStart(byte) else {
                        fail("'<' followed by \(Self.describe(byte)), not a tag", at: markStart)
                        break
                    }
                    quote = 0
                    state = .startTag
                }
            case .startTag, .endTag:
                let start = index
                let isStart = state == .startTag
                var end: Int?
                while index < count {
                    let byte = base[index]
                    if byte == 0x0A { newlines += 1 }
                    if quote != 0 {
                        if byte == quote { quote = 0 }
                    } else if byte == 0x3E {
                        end = index
                        break
                    } else if isStart, byte == 0x22 || byte == 0x27 {
                        quote = byte
                    } else if byte == 0x3C {
                        fail("'<' inside a tag", at: here(index))
                        return
                    }
                    index += 1
                }
                let stop = end ?? index
                guard tag.count + (stop - start) <= Self.maxTagBytes else {
                    fail("a tag longer than \(Self.maxTagBytes) bytes", at: markStart)
                    break
                }
                tag.append(contentsOf: UnsafeBufferPointer(start: base + start, count: stop - start))
                guard end != nil else { break }
                index += 1
                state = .text
                if isStart { startTag(&handler) } else { endTag(&handler) }
            case .bang:
                let byte = base[index]
                index += 1
                tag.append(byte)
                if tag.elementsEqual("--".utf8) {
                    state = .comment
                    tail = 0
                } else if tag.elementsEqual("[CDATA[".utf8) {
                    guard depth > 0 else {
                        fail("CDATA outside the root element", at: markStart)
                        break
                    }
                    state = .cdata
                    tail = 0
                } else if tag.elementsEqual("DOCTYPE".utf8) {
                    guard !rootSeen else {
                        fail("a DOCTYPE after the root element started", at: markStart)
                        break
                    }
                    state = .doctype
                    bracketDepth = 0
                    doctypeQuote = 0
                } else if !("--".utf8.starts(with: tag) || "[CDATA[".utf8.starts(with: tag)
                    || "DOCTYPE".utf8.starts(with: tag))
                {
                    fail("'<!' that starts no comment, CDATA section or DOCTYPE", at: markStart)
                }
            case .comment, .processing:
                // Ends at `-->` or `?>`: the last bytes are kept in `tail`.
                let isComment = state == .comment
                while index < count {
                    let byte = base[index]
                    index += 1
                    if byte == 0x0A { newlines += 1 }
                    tail = (tail << 8 | UInt32(byte)) & 0xFF_FFFF
                    if isComment ? tail == 0x2D2D3E : tail & 0xFFFF == 0x3F3E {
                        state = .text
                        break
                    }
                }
            case .cdata:
                // A `]` is withheld until the byte after it shows whether it begins `]]>`.
                var run = index
                while index < count {
                    let byte = base[index]
                    if byte == 0x0A { newlines += 1 }
                    if byte == 0x5D {
                        if index > run {
                            deliverText(UnsafeBufferPointer(start: base + run, count: index - run), at: nil, &handler)
                        }
                        if withheldBrackets == 2 {
                            Self.brackets.withUnsafeBufferPointer {
                                deliverText(UnsafeBufferPointer(rebasing: $0[..<1]), at: nil, &handler)
                            }
                        } else {
                            withheldBrackets += 1
                        }
                        index += 1
                        run = index
                        continue
                    }
                    if byte == 0x3E, withheldBrackets == 2 {
                        withheldBrackets = 0
                        index += 1
                        run = index
                        state = .text
                        break
                    }
                    if withheldBrackets > 0 {
                        let held = withheldBrackets
                        Self.brackets.withUnsafeBufferPointer {
                            deliverText(UnsafeBufferPointer(rebasing: $0[..<held]), at: nil, &handler)
                        }
                        withheldBrackets = 0
                    }
                    index += 1
                }
                if state == .cdata, index > run {
                    deliverText(UnsafeBufferPointer(start: base + run, count: index - run), at: nil, &handler)
                }
            case .doctype:
                while index < count {
                    let byte = base[index]
                    index += 1
                    if byte == 0x0A { newlines += 1 }
                    if doctypeQuote != 0 {
                        if byte == doctypeQuote { doctypeQuote = 0 }
                    } else if byte == 0x22 || byte == 0x27 {
                        doctypeQuote = byte
                    } else if byte == 0x5B {
                        bracketDepth += 1
                    } else if byte == 0x5D {
                        bracketDepth -= 1
                    } else if byte == 0x3E, bracketDepth <= 0 {
                        state = .text
                        break
                    }
                }
            }
        }
        consumed += count
    }

    /// Bytes of a leading byte order mark read so far (3: done, or none).
    private var bomMatched = 0
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// `]` bytes of CDATA withheld (0 to 2): they may begin its `]]>`.
    private var withheldBrackets = 0
    private static let brackets: [UInt8] = [0x5D, 0x5D]

    private mutating func deliverText<H: XMLHandler>(_ bytes: UnsafeBufferPointer<UInt8>, at: Int?, _ handler: inout H)
    {
        guard depth == 0 else {
            handler.text(bytes)
            return
        }
        // Outside the root only whitespace may stand.
        if let bad = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) {
            let place = at.map { XMLPosition(offset: consumed + $0 + bad, line: newlines + 1) } ?? markStart
            fail(rootClosed ? "text after the root element" : "text before the root element", at: place)
        }
    }

    private mutating func startTag<H: XMLHandler>(_ handler: inout H) {
        var end = tag.count
        let empty = end > 0 && tag[end - 1] == 0x2F
        if empty { end -= 1 }
        var index = 0
        while index < end, Self.isNameByte(tag[index]) { index += 1 }
        let nameRange = 0..<index
        attributeNames.removeAll(keepingCapacity: true)
        valueRanges.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        while true {
            let before = index
            while index < end, isSpace(tag[index]) { index += 1 }
            guard index < end else { break }
            guard index > before, Self.isNameStart(tag[index]) else {
                fail("\(Self.describe(tag[index])) where an attribute name should be, in <\(nameText)>", at: markStart)
                return
            }
            let nameStart = index
            while index < end, Self.isNameByte(tag[index]) { index += 1 }
            let name = nameStart..<index
            while index < end, isSpace(tag[index]) { index += 1 }
            guard index < end, tag[index] == 0x3D else {
                fail(
                    "attribute '\(String(decoding: tag[name], as: UTF8.self))' of <\(nameText)> has no value",
                    at: markStart)
                return
            }
            index += 1
            while index < end, isSpace(tag[index]) { index += 1 }
            guard index < end, tag[index] == 0x22 || tag[index] == 0x27 else {
                fail(
                    "attribute '\(String(decoding: tag[name], as: UTF8.self))' of <\(nameText)> is not quoted",
                    at: markStart)
                return
            }
            let mark = tag[index]
            index += 1
            let valueStart = index
            while index < end, tag[index] != mark { index += 1 }
            guard index < end else {
                fail("an attribute value of <\(nameText)> is not closed", at: markStart)
                return
            }
            let raw = valueStart..<index
            index += 1
            guard attributeNames.count < Self.maxAttributes else {
                fail("<\(nameText)> has more than \(Self.maxAttributes) attributes", at: markStart)
                return
            }
            for other in attributeNames where tag[other].elementsEqual(tag[name]) {
                fail(
                    "attribute '\(String(decoding: tag[name], as: UTF8.self))' given twice in <\(nameText)>",
                    at: markStart)
                return
            }
            let decodedStart = values.count
            guard decodeAttribute(raw) else { return }
            attributeNames.append(name)
            valueRanges.append(decodedStart..<values.count)
        }
        guard !rootClosed else {
            fail("a second root element <\(nameText)>", at: markStart)
            return
        }
        guard depth < Self.maxDepth else {
            fail("elements nested deeper than \(Self.maxDepth)", at: markStart)
            return
        }
        rootSeen = true
        let element = XMLTag(
            raw: tag[0..<end], nameRange: nameRange, names: attributeNames[...], valueRanges: valueRanges[...],
            values: values, isEmpty: empty, position: markStart)
        nameStarts.append(names.count)
        names.append(contentsOf: tag[nameRange])
        opened.append(markStart)
        handler.startElement(element)
        if empty { close(&handler) }
    }

    private var nameText: String {
        var index = 0
        while index < tag.count, Self.isNameByte(tag[index]) { index += 1 }
        return String(decoding: tag.prefix(min(index, 64)), as: UTF8.self)
    }

    private mutating func close<H: XMLHandler>(_ handler: inout H) {
        names.removeSubrange(nameStarts.removeLast()...)
        opened.removeLast()
        if nameStarts.isEmpty { rootClosed = true }
        handler.endElement(at: markStart)
    }

    private mutating func endTag<H: XMLHandler>(_ handler: inout H) {
        var end = tag.count
        while end > 0, tag[end - 1] == 0x20 || tag[end - 1] == 0x09 || tag[end - 1] == 0x0A || tag[end - 1] == 0x0D {
            end -= 1
        }
        let name = tag[0..<end]
        guard let top = nameStarts.last else {
            fail("</\(String(decoding: name.prefix(64), as: UTF8.self))> closes no open element", at: markStart)
            return
        }
        guard names[top...].elementsEqual(name) else {
            let open = String(decoding: names[top...].prefix(64), as: UTF8.self)
            let line = opened.last.map { " opened at line \($0.line)" } ?? ""
            fail("</\(String(decoding: name.prefix(64), as: UTF8.self))> closes <\(open)>\(line)", at: markStart)
            return
        }
        close(&handler)
    }

    /// Appends the attribute value `tag[raw]` to `values`, entities decoded; false (and the error) when one is
    /// unknown or a `<` stands in it.
    private mutating func decodeAttribute(_ raw: Range<Int>) -> Bool {
        var index = raw.lowerBound
        while index < raw.upperBound {
            let byte = tag[index]
            if byte == 0x3C {
                fail("'<' in an attribute value of <\(nameText)>", at: markStart)
                return false
            }
            guard byte == 0x26 else {
                // Attribute-value normalization: a tab or line break is a space.
                values.append(byte == 0x09 || byte == 0x0A || byte == 0x0D ? 0x20 : byte)
                index += 1
                continue
            }
            guard let semicolon = tag[index..<min(raw.upperBound, index + 18)].firstIndex(of: 0x3B),
                let decoded = Self.decodeEntity(tag[(index + 1)..<semicolon])
            else {
                fail("an unknown entity in an attribute value of <\(nameText)>", at: markStart)
                return false
            }
            values.append(contentsOf: decoded)
            index = semicolon + 1
        }
        return true
    }

    /// Ends the input: an error when it stops inside markup or an element, or holds no root element.
    public mutating func finish() -> FormatError? {
        if let error { return error }
        let end = position
        switch state {
        case .text where !nameStarts.isEmpty:
            let open = String(decoding: names[nameStarts.last!...].prefix(64), as: UTF8.self)
            let at = opened.last.map { " opened at line \($0.line)" } ?? ""
            fail("the XML ends inside <\(open)>\(at), with \(depth) element(s) open: the file is cut short", at: end)
        case .text:
            if !rootSeen { fail("no root element", at: end) }
        case .comment: fail("the XML ends inside a comment begun at line \(markStart.line)", at: end)
        case .cdata: fail("the XML ends inside a CDATA section begun at line \(markStart.line)", at: end)
        default: fail("the XML ends inside markup begun at line \(markStart.line)", at: end)
        }
        return error
    }

    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- 0x61 < 26 || byte == 0x5F || byte == 0x3A || byte >= 0x80
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || byte &- 0x30 < 10 || byte == 0x2D || byte == 0x2E
    }

    static func describe(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    /// `lt`, `gt`, `amp`, `quot`, `apos`, `#60`, `#x3C` → their UTF-8 bytes; nil for anything else.
    static func decodeEntity(_ name: ArraySlice<UInt8>) -> [UInt8]? {
        switch Array(name) {
        case Array("lt".utf8): return [0x3C]
        case Array("gt".utf8): return [0x3E]
        case Array("amp".utf8): return [0x26]
        case Array("quot".utf8): return [0x22]
        case Array("apos".utf8): return [0x27]
        default: break
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
        guard value != 0, let scalar = Unicode.Scalar(value) else { return nil }
        return Array(String(Character(scalar)).utf8)
    }
}
