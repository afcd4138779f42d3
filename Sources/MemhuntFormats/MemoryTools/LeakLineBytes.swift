#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A line of a `leaks` report whose bytes are all ASCII, read where it lies in the scanner's buffer. In ASCII text
/// each byte is a `Character` of its own (no `\r\n` inside a line), so these readings return exactly what the
/// `Substring` readings (`LeakTreeLine.parse`, `LeaksScanner.entry`) return, without a string per line: those
/// took most of a large report's reading, each of its hundreds of thousands of entries parsed twice. The fuzz
/// target `leaks` holds the two equal.
struct LeakLineBytes {
    let bytes: UnsafeBufferPointer<UInt8>
    var count: Int { bytes.count }

    /// Whether every byte is ASCII.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var bits: UInt8 = 0
        for byte in bytes { bits |= byte }
        return bits < 0x80
    }

    subscript(_ index: Int) -> UInt8 { bytes[index] }

    /// Whether the line holds `<< TOTAL >>`, its candidates found by the `T` (nearly every line has a `<`).
    var holdsTotal: Bool { ReproText.containsBytes(bytes, "<< TOTAL >>", anchor: 3) }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// `Character.isWhitespace` of an ASCII byte: tab to carriage return, and the space.
    static func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    /// The trimmed bytes of `trimmingSpaces`: spaces, tabs and `\r`.
    static func isTrimmed(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }

    /// Past the spaces from `index`.
    func skippingSpaces(_ index: Int) -> Int {
        var index = index
        while index < count, bytes[index] == 0x20 { index += 1 }
        return index
    }

    /// The first `byte` in `from..<to`.
    func first(_ byte: UInt8, from: Int, to: Int) -> Int? {
        guard from < to, let base = bytes.baseAddress, let found = memchr(base + from, Int32(byte), to - from) else {
            return nil
        }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The last `byte` in `from..<to`.
    func last(_ byte: UInt8, from: Int, to: Int) -> Int? {
        var index = to - 1
        while index >= from {
            if bytes[index] == byte { return index }
            index -= 1
        }
        return nil
    }

    /// Where `needle` first starts in `from..<to`, its candidates found by its byte at `anchor`.
    func first(_ needle: StaticString, from: Int, to: Int, anchor: Int = 0) -> Int? {
        guard from < to, let base = bytes.baseAddress else { return nil }
        return ReproText.firstIndex(
            of: needle, in: UnsafeBufferPointer(start: base + from, count: to - from), anchor: anchor
        ).map { $0 + from }
    }

    func hasPrefix(_ prefix: StaticString, at index: Int, end: Int? = nil) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard index + length <= (end ?? count), let base = bytes.baseAddress else { return false }
        return memcmp(base + index, prefix.utf8Start, length) == 0
    }

    func string(_ from: Int, _ to: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
    }

    /// `from..<to` without leading and trailing spaces, tabs and `\r`.
    func trimmed(_ from: Int, _ to: Int) -> Range<Int> {
        var (start, end) = (from, to)
        while start < end, Self.isTrimmed(bytes[start]) { start += 1 }
        while end > start, Self.isTrimmed(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    /// `Int(…)` of the trimmed bytes.
    func int(_ range: Range<Int>) -> Int? {
        let range = trimmed(range.lowerBound, range.upperBound)
        return Int(string(range.lowerBound, range.upperBound))
    }

    /// `LeaksReport.size` of the bytes: `960.1M`, `56.9K`, `80 bytes`.
    func size(_ range: Range<Int>) -> Int? {
        let range = trimmed(range.lowerBound, range.upperBound)
        if range.count >= 6, hasPrefix(" bytes", at: range.upperBound - 6) {
            return int(range.lowerBound..<(range.upperBound - 6))
        }
        guard !range.isEmpty,
            let number = ReproText.measure(Substring(string(range.lowerBound, range.upperBound - 1)))
        else { return Int(string(range.lowerBound, range.upperBound)) }
        return LeaksReport.bytes(number, unit: bytes[range.upperBound - 1])
    }
}

extension LeakTreeLine {
    /// `parse` of an ASCII line.
    static func parse(ascii line: LeakLineBytes, line number: Int) -> LeakTreeLine? {
        let end = line.count
        var rest = line.skippingSpaces(0)
        let indent = rest
        var count: Int?
        var bytes: Int?
        if rest < end, LeakLineBytes.isDigit(line[rest]), let open = line.first(UInt8(ascii: "("), from: rest, to: end),
            let close = line.first(UInt8(ascii: ")"), from: open, to: end), let number = line.int(rest..<open)
        {
            count = number
            bytes = line.size((open + 1)..<close)
            rest = line.skippingSpaces(close + 1)
        }
        var label: String?
        if let arrow = line.first(" --> ", from: rest, to: end, anchor: 1) {
            let written = line.trimmed(rest, arrow)
            label = written.isEmpty ? nil : line.string(written.lowerBound, written.upperBound)
            rest = arrow + 5
        } else if line.hasPrefix("--> ", at: rest) {
            rest += 4
        }
        var marker: Marker?
        if line.hasPrefix("ROOT CYCLE:", at: rest) {
            marker = .rootCycle
            rest = line.skippingSpaces(rest + 11)
        }
        if line.hasPrefix("ROOT LEAK:", at: rest) {
            marker = .rootLeak
            rest = line.skippingSpaces(rest + 10)
        }
        if line.hasPrefix("CYCLE BACK TO ", at: rest) {
            marker = .cycleBackTo
            rest += 14
        }
        guard let node = node(ascii: line, from: rest) else { return nil }
        guard count != nil || marker != nil || label != nil else { return nil }
        return LeakTreeLine(
            indent: indent, count: count, bytes: bytes, label: label, marker: marker, className: node.className,
            address: node.address, size: node.size, image: node.image, line: number)
    }

    /// `node` of an ASCII line from `start`.
    private static func node(
        ascii line: LeakLineBytes, from start: Int
    ) -> (className: String?, address: String?, size: Int?, image: String?)? {
        let end = line.count
        if line.hasPrefix("0x", at: start) {
            var stop = start
            while stop < end, !LeakLineBytes.isWhitespace(line[stop]) { stop += 1 }
            return (nil, line.string(start, stop), size(ascii: line, from: stop), nil)
        }
        guard start < end, line[start] == UInt8(ascii: "<") else { return nil }
        var depth = 0
        var close: Int?
        for index in start..<end {
            if line[index] == UInt8(ascii: "<") { depth += 1 }
            if line[index] == UInt8(ascii: ">") {
                depth -= 1
                if depth == 0 {
                    close = index
                    break
                }
            }
        }
        let sized = line.first("> [", from: start, to: end).map { $0 + 3 }
        guard let close = close ?? line.last(UInt8(ascii: ">"), from: start, to: sized ?? end) else { return nil }
        var className = (start + 1)..<close
        var address: String?
        if let space = line.last(0x20, from: start + 1, to: close), line.hasPrefix("0x", at: space + 1, end: close) {
            address = line.string(space + 1, close)
            className = (start + 1)..<space
        }
        var image: String?
        if let size = line.first("]  ", from: close + 1, to: end) {
            let tail = size + 3
            var stop = tail
            while stop < end, !LeakLineBytes.isWhitespace(line[stop]) { stop += 1 }
            if stop > tail, line[tail] != UInt8(ascii: "\""), line.hasPrefix("  ", at: stop) {
                image = line.string(tail, stop)
            }
        }
        return (
            className.isEmpty ? nil : line.string(className.lowerBound, className.upperBound), address,
            size(ascii: line, from: close + 1), image
        )
    }

    /// `size` of an ASCII line from `start`: `N` of ` [N]`.
    private static func size(ascii line: LeakLineBytes, from start: Int) -> Int? {
        let open = line.skippingSpaces(start)
        guard open < line.count, line[open] == UInt8(ascii: "["),
            let close = line.first(UInt8(ascii: "]"), from: open, to: line.count)
        else { return nil }
        return Int(line.string(open + 1, close))
    }
}
