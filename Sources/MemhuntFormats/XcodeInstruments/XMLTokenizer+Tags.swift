/// Start and end tags, read from their bytes between `<` and `>` (in the chunk, or gathered in `carry`).
extension XMLTokenizer {
    /// What `readStartTag` found: the name's length, the attributes (in `buffers.spans`), whether the element is
    /// empty (`<a/>`), and where the tag's `>` stands.
    struct StartTag {
        var nameCount: Int
        var attributes: Int
        var empty: Bool
        var end: Int
    }

    /// A start tag whose bytes up to its `>` are `tag[..<length]` (its end found first, by `tag`): checked and
    /// handed over, errors named in the order they stand.
    mutating func startTag<H: XMLHandler>(_ tag: UnsafePointer<UInt8>, _ length: Int, _ handler: inout H) {
        var lines = 0
        guard let read = readStartTag(tag, limit: length, inPlace: false, lines: &lines) else { return }
        openElement(tag, read, &handler)
    }

    /// A start tag read in one pass where it stands in the chunk, from its name at `start`: the index after its `>`,
    /// or nil when it is anything but plain (an error, a bound, the chunk's end), to be read again by `tag`.
    mutating func startTagInPlace<H: XMLHandler>(
        _ base: UnsafePointer<UInt8>, from start: Int, count: Int, _ handler: inout H
    ) -> Int? {
        var lines = 0
        guard let read = readStartTag(base + start, limit: count - start, inPlace: true, lines: &lines) else {
            return nil
        }
        newlines += lines
        state = .text
        openElement(base + start, read, &handler)
        return start + read.end + 1
    }

    /// The element pushed on the open ones and handed over (and its end at once when it is empty).
    private mutating func openElement<H: XMLHandler>(_ tag: UnsafePointer<UInt8>, _ read: StartTag, _ handler: inout H)
    {
        guard push(tag, nameCount: read.nameCount, length: read.end) else { return }
        handler.startElement(
            XMLTag(
                bytes: tag, nameCount: read.nameCount, spans: buffers.spans, decoded: buffers.values,
                attributeCount: read.attributes, isEmpty: read.empty, position: markStart))
        if read.empty { close(&handler) }
    }

    /// Reads a start tag's name and attributes (values decoded into `buffers.values` where they must be).
    ///
    /// Not `inPlace`, `tag[..<limit]` is the whole tag before its `>` and an error is named (`fail`) as it comes.
    /// `inPlace`, the end is not known: it is the `>` or `/>` where an attribute name could stand, and anything
    /// irregular gives nil without an error. A tag read in place is read as the other way reads it: its quotes
    /// pair up the same way, and no `<` or `>` stands outside them before its end. `lines` counts its newlines.
    private mutating func readStartTag(
        _ tag: UnsafePointer<UInt8>, limit: Int, inPlace: Bool, lines: inout Int
    ) -> StartTag? {
        let classes = buffers.classes
        func isName(_ byte: UInt8) -> Bool { classes[Int(byte)] & ByteClass.name != 0 }
        func skipSpaces(_ index: inout Int) {
            while index < limit, classes[Int(tag[index])] & ByteClass.space != 0 {
                if tag[index] == 0x0A { lines += 1 }
                index += 1
            }
        }
        func failing(_ message: @autoclosure () -> String) -> StartTag? {
            if !inPlace { fail(message(), at: markStart) }
            return nil
        }
        var index = 0
        while index < limit, isName(tag[index]) { index += 1 }
        var read = StartTag(nameCount: index, attributes: 0, empty: false, end: 0)
        let spans = buffers.spans
        var decoded = 0
        while true {
            let before = index
            skipSpaces(&index)
            if inPlace {
                guard index < limit else { return nil }
                read.empty = tag[index] == 0x2F && index + 1 < limit && tag[index + 1] == 0x3E
                if tag[index] == 0x3E || read.empty {
                    read.end = read.empty ? index + 1 : index
                    return read.end <= Self.maxTagBytes ? read : nil
                }
            } else {
                read.empty = index + 1 == limit && tag[index] == 0x2F
                if index == limit || read.empty {
                    read.end = limit
                    return read
                }
            }
            guard index > before, classes[Int(tag[index])] & ByteClass.nameStart != 0 else {
                return failing(
                    "\(Self.describe(tag[index])) where an attribute name should be, in <\(Self.nameText(tag, limit))>")
            }
            let nameStart = index
            while index < limit, isName(tag[index]) { index += 1 }
            let name = UnsafeBufferPointer(start: tag + nameStart, count: index - nameStart)
            skipSpaces(&index)
            guard index < limit, tag[index] == 0x3D else {
                return failing(
                    "attribute '\(String(decoding: name, as: UTF8.self))' of <\(Self.nameText(tag, limit))> has no value"
                )
            }
            index += 1
            skipSpaces(&index)
            guard index < limit, tag[index] == 0x22 || tag[index] == 0x27 else {
                return failing(
                    "attribute '\(String(decoding: name, as: UTF8.self))' of <\(Self.nameText(tag, limit))> is not quoted"
                )
            }
            let mark = tag[index]
            index += 1
            let valueStart = index
            // Whether the value differs from its bytes: an entity, a tab or line break (normalized to a space),
            // or a `<` (an error).
            var seen: UInt8 = 0
            while index < limit {
                let byte = tag[index]
                let bits = classes[Int(byte)]
                if bits & ByteClass.quote != 0, byte == mark { break }
                seen |= bits
                index += 1
            }
            guard index < limit, !inPlace || index < Self.maxTagBytes else {
                return failing("an attribute value of <\(Self.nameText(tag, limit))> is not closed")
            }
            let raw = valueStart..<index
            index += 1
            guard read.attributes < Self.maxAttributes else {
                return failing("<\(Self.nameText(tag, limit))> has more than \(Self.maxAttributes) attributes")
            }
            guard !Self.named(name, among: spans, read.attributes, in: tag) else {
                return failing(
                    "attribute '\(String(decoding: name, as: UTF8.self))' given twice in <\(Self.nameText(tag, limit))>"
                )
            }
            var span = XMLAttributeSpan(
                nameStart: Int32(nameStart), nameCount: Int32(name.count), valueStart: Int32(raw.lowerBound),
                valueCount: Int32(raw.count), decoded: false)
            if seen & ByteClass.decode != 0 {
                for place in raw where tag[place] == 0x0A { lines += 1 }
                guard let written = decodeAttribute(tag, limit, raw, into: buffers.values + decoded, report: !inPlace)
                else { return nil }
                span.valueStart = Int32(decoded)
                span.valueCount = Int32(written)
                span.decoded = true
                decoded += written
            }
            spans[read.attributes] = span
            read.attributes += 1
        }
    }

    /// Whether one of the first `count` attributes of `spans` is named `name`.
    private static func named(
        _ name: UnsafeBufferPointer<UInt8>, among spans: UnsafePointer<XMLAttributeSpan>, _ count: Int,
        in tag: UnsafePointer<UInt8>
    ) -> Bool {
        for other in 0..<count where spans[other].nameCount == name.count {
            let otherName = UnsafeBufferPointer(start: tag + Int(spans[other].nameStart), count: name.count)
            if otherName.elementsEqual(name) { return true }
        }
        return false
    }

    /// Pushes the element named `tag[..<nameCount]` on the open ones; false (and the error) past a bound or after
    /// the root element.
    private mutating func push(_ tag: UnsafePointer<UInt8>, nameCount: Int, length: Int) -> Bool {
        guard !rootClosed else {
            fail("a second root element <\(Self.nameText(tag, length))>", at: markStart)
            return false
        }
        guard depth < Self.maxDepth else {
            fail("elements nested deeper than \(Self.maxDepth)", at: markStart)
            return false
        }
        guard namesCount + nameCount <= Self.maxNameBytes else {
            fail("the open elements' names take more than \(Self.maxNameBytes) bytes", at: markStart)
            return false
        }
        rootSeen = true
        (buffers.names + namesCount).update(from: tag, count: nameCount)
        buffers.nameStarts[depth] = namesCount
        buffers.opened[depth] = markStart
        namesCount += nameCount
        depth += 1
        return true
    }

    /// The name a tag's bytes begin with (at most 64 bytes of it), for a message.
    static func nameText(_ tag: UnsafePointer<UInt8>, _ length: Int) -> String {
        var index = 0
        while index < length, isNameByte(tag[index]) { index += 1 }
        return String(decoding: UnsafeBufferPointer(start: tag, count: min(index, 64)), as: UTF8.self)
    }

    /// The open element's name (at most 64 bytes of it), for a message.
    var openName: String {
        let start = buffers.nameStarts[depth - 1]
        let name = UnsafeBufferPointer(start: buffers.names + start, count: min(namesCount - start, 64))
        return String(decoding: name, as: UTF8.self)
    }

    mutating func close<H: XMLHandler>(_ handler: inout H) {
        depth -= 1
        namesCount = buffers.nameStarts[depth]
        if depth == 0 { rootClosed = true }
        handler.endElement(at: markStart)
    }

    mutating func endTag<H: XMLHandler>(_ tag: UnsafePointer<UInt8>, _ length: Int, _ handler: inout H) {
        var end = length
        while end > 0, Self.isSpace(tag[end - 1]) { end -= 1 }
        let name = UnsafeBufferPointer(start: tag, count: end)
        guard depth > 0 else {
            fail("</\(String(decoding: name.prefix(64), as: UTF8.self))> closes no open element", at: markStart)
            return
        }
        let top = buffers.nameStarts[depth - 1]
        let open = UnsafeBufferPointer(start: buffers.names + top, count: namesCount - top)
        var same = open.count == end
        var index = 0
        while same, index < end {
            same = open[index] == name[index]
            index += 1
        }
        guard same else {
            let line = " opened at line \(buffers.opened[depth - 1].line)"
            fail("</\(String(decoding: name.prefix(64), as: UTF8.self))> closes <\(openName)>\(line)", at: markStart)
            return
        }
        close(&handler)
    }

    /// Writes the attribute value `tag[raw]` to `out`, entities decoded and tabs and line breaks made spaces, and
    /// returns its length; nil (and, when `report`, the error) when an entity is unknown or a `<` stands in it.
    private mutating func decodeAttribute(
        _ tag: UnsafePointer<UInt8>, _ length: Int, _ raw: Range<Int>, into out: UnsafeMutablePointer<UInt8>,
        report: Bool
    ) -> Int? {
        var index = raw.lowerBound
        var written = 0
        while index < raw.upperBound {
            let byte = tag[index]
            if byte == 0x3C {
                if report { fail("'<' in an attribute value of <\(Self.nameText(tag, length))>", at: markStart) }
                return nil
            }
            guard byte == 0x26 else {
                // Attribute-value normalization: a tab or line break is a space.
                out[written] = byte == 0x09 || byte == 0x0A || byte == 0x0D ? 0x20 : byte
                written += 1
                index += 1
                continue
            }
            var semicolon = index
            let limit = min(raw.upperBound, index + 18)
            while semicolon < limit, tag[semicolon] != 0x3B { semicolon += 1 }
            guard semicolon < limit,
                let count = Self.decodeEntity(
                    UnsafeBufferPointer(start: tag + index + 1, count: semicolon - index - 1), into: out + written)
            else {
                if report {
                    fail("an unknown entity in an attribute value of <\(Self.nameText(tag, length))>", at: markStart)
                }
                return nil
            }
            written += count
            index = semicolon + 1
        }
        return written
    }
}
