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
/// nest at most `maxDepth` deep, their names take at most `maxNameBytes` together, a tag has at most
/// `maxAttributes` attributes; text is handed over as it comes, never gathered. Past a bound, and at the first
/// error, the tokenizer stops with an error naming the byte offset and line; input that ends inside an element,
/// a tag, a comment or CDATA is an error too (`finish`).
///
/// A tag that lies whole in the chunk is read where it stands; only one split between chunks is gathered first.
/// Attribute values are handed over in place unless an entity or a tab or line break makes them differ.
public struct XMLTokenizer {
    public static let maxTagBytes = 1 << 20
    public static let maxDepth = 256
    public static let maxAttributes = 256
    public static let maxNameBytes = 1 << 20

    enum State {
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

    var state = State.text
    /// Bytes consumed before the current chunk; newlines seen.
    var consumed = 0
    var newlines = 0
    /// The position of the current markup's `<` (or entity's `&`).
    var markStart = XMLPosition(offset: 0, line: 1)
    /// Bytes of a tag, `<!…` or entity gathered in `buffers.carry` (it began in an earlier chunk).
    var carryCount = 0
    var quote: UInt8 = 0
    /// Comment, CDATA, PI and DOCTYPE ends: the last bytes seen, bracket depth of an internal subset.
    var tail: UInt32 = 0
    var bracketDepth = 0
    var doctypeQuote: UInt8 = 0
    /// Bytes of the open elements' names in `buffers.names`.
    var namesCount = 0
    /// Elements open now.
    public internal(set) var depth = 0
    var rootSeen = false
    var rootClosed = false
    var buffers = XMLBuffers()
    /// The first error; nothing is read after it.
    public internal(set) var error: FormatError?
    /// Bytes of a leading byte order mark read so far (3: done, or none).
    var bomMatched = 0
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    /// `]` bytes of CDATA withheld (0 to 2): they may begin its `]]>`.
    var withheldBrackets = 0
    static let brackets: [UInt8] = [0x5D, 0x5D]

    public init() {}

    /// Bytes fed so far.
    public var offset: Int { consumed }

    var position: XMLPosition { XMLPosition(offset: consumed, line: newlines + 1) }

    func here(_ at: Int) -> XMLPosition { XMLPosition(offset: consumed + at, line: newlines + 1) }

    mutating func fail(_ message: String, at place: XMLPosition) {
        guard error == nil else { return }
        error = FormatError(message + " (byte \(place.offset))", line: place.line, offset: place.offset)
    }

    /// The next chunk of the document.
    public mutating func feed<H: XMLHandler>(_ chunk: UnsafeRawBufferPointer, into handler: inout H) {
        guard error == nil, let base = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        if !isKnownUniquelyReferenced(&buffers) {
            buffers = buffers.copy(carry: carryCount, names: namesCount, depth: depth)
        }
        let count = chunk.count
        var index = 0
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
            case .text: index = text(base, from: index, count: count, &handler)
            case .entity: index = entity(base[index], at: index, &handler)
            case .lessThan: index = lessThan(base[index], at: index)
            case .startTag, .endTag: index = tag(base, from: index, count: count, &handler)
            case .bang: index = bang(base[index], at: index)
            case .comment, .processing: index = commentOrInstruction(base, from: index, count: count)
            case .cdata: index = cdata(base, from: index, count: count, &handler)
            case .doctype: index = doctype(base, from: index, count: count)
            }
        }
        consumed += count
    }

    /// Runs of plain text are handed over in place; at `<` or `&` markup begins.
    @inline(__always)
    private mutating func text<H: XMLHandler>(
        _ base: UnsafePointer<UInt8>, from start: Int, count: Int, _ handler: inout H
    ) -> Int {
        let classes = buffers.classes
        var index = start
        var lines = 0
        while index < count {
            let byte = base[index]
            if classes[Int(byte)] & ByteClass.textStop != 0 {
                if byte != 0x0A { break }
                lines += 1
            }
            index += 1
        }
        newlines += lines
        if index > start {
            deliverText(UnsafeBufferPointer(start: base + start, count: index - start), at: start, &handler)
        }
        guard index < count else { return index }
        markStart = here(index)
        carryCount = 0
        state = base[index] == 0x3C ? .lessThan : .entity
        return index + 1
    }

    /// A byte of an entity in text (`&…;`), gathered in `carry` up to its `;`.
    private mutating func entity<H: XMLHandler>(_ byte: UInt8, at index: Int, _ handler: inout H) -> Int {
        let carry = buffers.carry
        if byte == 0x3B {
            let name = UnsafeBufferPointer(start: carry, count: carryCount)
            guard let decoded = Self.decodeEntity(name, into: buffers.values) else {
                fail("unknown entity '&\(String(decoding: name.prefix(32), as: UTF8.self));'", at: markStart)
                return index + 1
            }
            deliverText(UnsafeBufferPointer(start: buffers.values, count: decoded), at: nil, &handler)
            state = .text
        } else if carryCount >= 16 || byte == 0x3C || byte == 0x26 || byte <= 0x20 {
            fail("an '&' that starts no entity", at: markStart)
        } else {
            carry[carryCount] = byte
            carryCount += 1
        }
        return index + 1
    }

    private mutating func lessThan(_ byte: UInt8, at index: Int) -> Int {
        switch byte {
        case 0x2F:
            state = .endTag
        case 0x21:
            state = .bang
        case 0x3F:
            state = .processing
            tail = 0
        default:
            guard Self.isNameStart(byte) else {
                fail("'<' followed by \(Self.describe(byte)), not a tag", at: markStart)
                return index
            }
            quote = 0
            state = .startTag
            return index
        }
        return index + 1
    }

    /// A start or end tag up to its `>` (one inside quotes is a value's); read in place when it began in this
    /// chunk, else gathered in `carry`.
    @inline(__always)
    private mutating func tag<H: XMLHandler>(
        _ base: UnsafePointer<UInt8>, from start: Int, count: Int, _ handler: inout H
    ) -> Int {
        let isStart = state == .startTag
        if isStart, carryCount == 0, quote == 0, let after = startTagInPlace(base, from: start, count: count, &handler)
        {
            return after
        }
        let classes = buffers.classes
        var index = start
        var end = -1
        var open = quote
        var lines = 0
        while index < count {
            let byte = base[index]
            if open != 0 {
                // Inside a quoted value only its quote and line breaks matter.
                if classes[Int(byte)] & ByteClass.quotedStop != 0 {
                    if byte == open {
                        open = 0
                    } else if byte == 0x0A {
                        lines += 1
                    }
                }
            } else if classes[Int(byte)] & ByteClass.tagStop == 0 {
                // Names, spaces, `=`: the bulk of a tag, nothing to look at.
            } else if byte == 0x3E {
                end = index
                break
            } else if byte == 0x0A {
                lines += 1
            } else if isStart, byte == 0x22 || byte == 0x27 {
                open = byte
            } else if byte == 0x3C {
                newlines += lines
                fail("'<' inside a tag", at: here(index))
                return count
            }
            index += 1
        }
        newlines += lines
        quote = open
        let stop = end >= 0 ? end : count
        guard carryCount + (stop - start) <= Self.maxTagBytes else {
            fail("a tag longer than \(Self.maxTagBytes) bytes", at: markStart)
            return count
        }
        var bytes = UnsafePointer(base + start)
        if carryCount > 0 || end < 0 {
            (buffers.carry + carryCount).update(from: base + start, count: stop - start)
            carryCount += stop - start
            guard end >= 0 else { return count }
            bytes = UnsafePointer(buffers.carry)
        }
        let length = carryCount > 0 ? carryCount : end - start
        state = .text
        if isStart { startTag(bytes, length, &handler) } else { endTag(bytes, length, &handler) }
        return end + 1
    }

    /// A byte after `<!`: a comment, CDATA section or DOCTYPE begins once its opening is whole.
    private mutating func bang(_ byte: UInt8, at index: Int) -> Int {
        buffers.carry[carryCount] = byte
        carryCount += 1
        let opening = UnsafeBufferPointer(start: buffers.carry, count: carryCount)
        if opening.elementsEqual("--".utf8) {
            state = .comment
            tail = 0
        } else if opening.elementsEqual("[CDATA[".utf8) {
            guard depth > 0 else {
                fail("CDATA outside the root element", at: markStart)
                return index + 1
            }
            state = .cdata
            tail = 0
        } else if opening.elementsEqual("DOCTYPE".utf8) {
            guard !rootSeen else {
                fail("a DOCTYPE after the root element started", at: markStart)
                return index + 1
            }
            state = .doctype
            bracketDepth = 0
            doctypeQuote = 0
        } else if !("--".utf8.starts(with: opening) || "[CDATA[".utf8.starts(with: opening)
            || "DOCTYPE".utf8.starts(with: opening))
        {
            fail("'<!' that starts no comment, CDATA section or DOCTYPE", at: markStart)
        }
        return index + 1
    }

    /// A comment or processing instruction up to its `-->` or `?>`: the last bytes are kept in `tail`.
    private mutating func commentOrInstruction(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        let isComment = state == .comment
        var index = start
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
        return index
    }

    /// CDATA up to its `]]>`: a `]` is withheld until the byte after it shows whether it begins `]]>`.
    private mutating func cdata<H: XMLHandler>(
        _ base: UnsafePointer<UInt8>, from start: Int, count: Int, _ handler: inout H
    ) -> Int {
        var index = start
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
        return index
    }

    /// A DOCTYPE up to its `>`, past quoted strings and an internal subset in brackets.
    private mutating func doctype(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        var index = start
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
        return index
    }

    mutating func deliverText<H: XMLHandler>(_ bytes: UnsafeBufferPointer<UInt8>, at: Int?, _ handler: inout H) {
        guard depth == 0 else {
            handler.text(bytes)
            return
        }
        // Outside the root only whitespace may stand.
        if let bad = bytes.firstIndex(where: { !Self.isSpace($0) }) {
            let place = at.map { XMLPosition(offset: consumed + $0 + bad, line: newlines + 1) } ?? markStart
            fail(rootClosed ? "text after the root element" : "text before the root element", at: place)
        }
    }

    /// Ends the input: an error when it stops inside markup or an element, or holds no root element.
    public mutating func finish() -> FormatError? {
        if let error { return error }
        let end = position
        switch state {
        case .text where depth > 0:
            let at = " opened at line \(buffers.opened[depth - 1].line)"
            fail(
                "the XML ends inside <\(openName)>\(at), with \(depth) element(s) open: the file is cut short", at: end)
        case .text:
            if !rootSeen { fail("no root element", at: end) }
        case .comment: fail("the XML ends inside a comment begun at line \(markStart.line)", at: end)
        case .cdata: fail("the XML ends inside a CDATA section begun at line \(markStart.line)", at: end)
        default: fail("the XML ends inside markup begun at line \(markStart.line)", at: end)
        }
        return error
    }
}
