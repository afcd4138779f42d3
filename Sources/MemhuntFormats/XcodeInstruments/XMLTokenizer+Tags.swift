/// Start and end tags, read from their bytes between `<` and `>` (in the chunk, or gathered in `carry`).
extension XMLTokenizer {
    /// A start tag's name and attributes checked and handed over; its name pushed on the open elements.
    mutating func startTag<H: XMLHandler>(_ tag: UnsafePointer<UInt8>, _ length: Int, _ handler: inout H) {
        var end = length
        let empty = end > 0 && tag[end - 1] == 0x2F
        if empty { end -= 1 }
        var index = 0
        while index < end, Self.isNameByte(tag[index]) { index += 1 }
        let nameCount = index
        let spans = buffers.spans
        var attributes = 0
        var decoded = 0
        while true {
            let before = index
            while index < end, Self.isSpace(tag[index]) { index += 1 }
            guard index < end else { break }
            guard index > before, Self.isNameStart(tag[index]) else {
                fail(
                    "\(Self.describe(tag[index])) where an attribute name should be, in <\(Self.nameText(tag, length))>",
                    at: markStart)
                return
            }
            let nameStart = index
            while index < end, Self.isNameByte(tag[index]) { index += 1 }
            let name = UnsafeBufferPointer(start: tag + nameStart, count: index - nameStart)
            while index < end, Self.isSpace(tag[index]) { index += 1 }
            guard index < end, tag[index] == 0x3D else {
                fail(
                    "attribute '\(String(decoding: name, as: UTF8.self))' of <\(Self.nameText(tag, length))> has no value",
                    at: markStart)
                return
            }
            index += 1
            while index < end, Self.isSpace(tag[index]) { index += 1 }
            guard index < end, tag[index] == 0x22 || tag[index] == 0x27 else {
                fail(
                    "attribute '\(String(decoding: name, as: UTF8.self))' of <\(Self.nameText(tag, length))> is not quoted",
                    at: markStart)
                return
            }
            let mark = tag[index]
            index += 1
            let valueStart = index
            // Whether the value differs from its bytes: an entity, a tab or line break (normalized to a space),
            // or a `<` (an error).
            var plain = true
            while index < end {
                let byte = tag[index]
                if byte == mark { break }
                if byte <= 0x3C, byte == 0x26 || byte == 0x3C || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                    plain = false
                }
                index += 1
            }
            guard index < end else {
                fail("an attribute value of <\(Self.nameText(tag, length))> is not closed", at: markStart)
                return
            }
            let raw = valueStart..<index
            index += 1
            guard attributes < Self.maxAttributes else {
                fail("<\(Self.nameText(tag, length))> has more than \(Self.maxAttributes) attributes", at: markStart)
                return
            }
            for other in 0..<attributes where spans[other].nameCount == name.count {
                let otherName = UnsafeBufferPointer(start: tag + Int(spans[other].nameStart), count: name.count)
                guard !otherName.elementsEqual(name) else {
                    fail(
                        "attribute '\(String(decoding: name, as: UTF8.self))' given twice in <\(Self.nameText(tag, length))>",
                        at: markStart)
                    return
                }
            }
            var span = XMLAttributeSpan(
                nameStart: Int32(nameStart), nameCount: Int32(name.count), valueStart: Int32(raw.lowerBound),
                valueCount: Int32(raw.count), decoded: false)
            if !plain {
                guard let written = decodeAttribute(tag, length, raw, into: buffers.values + decoded) else { return }
                span = XMLAttributeSpan(
                    nameStart: span.nameStart, nameCount: span.nameCount, valueStart: Int32(decoded),
                    valueCount: Int32(written), decoded: true)
                decoded += written
            }
            spans[attributes] = span
            attributes += 1
        }
        guard push(tag, nameCount: nameCount, length: length) else { return }
        handler.startElement(
            XMLTag(
                bytes: tag, nameCount: nameCount, spans: spans, decoded: buffers.values, attributeCount: attributes,
                isEmpty: empty, position: markStart))
        if empty { close(&handler) }
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
        guard open.count == end, open.elementsEqual(name) else {
            let line = " opened at line \(buffers.opened[depth - 1].line)"
            fail("</\(String(decoding: name.prefix(64), as: UTF8.self))> closes <\(openName)>\(line)", at: markStart)
            return
        }
        close(&handler)
    }

    /// Writes the attribute value `tag[raw]` to `out`, entities decoded and tabs and line breaks made spaces, and
    /// returns its length; nil (and the error) when an entity is unknown or a `<` stands in it.
    private mutating func decodeAttribute(
        _ tag: UnsafePointer<UInt8>, _ length: Int, _ raw: Range<Int>, into out: UnsafeMutablePointer<UInt8>
    ) -> Int? {
        var index = raw.lowerBound
        var written = 0
        while index < raw.upperBound {
            let byte = tag[index]
            if byte == 0x3C {
                fail("'<' in an attribute value of <\(Self.nameText(tag, length))>", at: markStart)
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
                fail("an unknown entity in an attribute value of <\(Self.nameText(tag, length))>", at: markStart)
                return nil
            }
            written += count
            index = semicolon + 1
        }
        return written
    }
}
