#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Line splitting and number helpers shared by the reproduction-side text parsers.
///
/// Speed (issue 13, fuzzing throughput): these ran generic over `some Collection<UInt8>` and
/// `some StringProtocol` and worked on `Character`s (grapheme breaking, `Set<Character>` hashing, a
/// dictionary built per `binarySize` call), and `SampleReport` searched every frame with `String.contains`.
/// Now lines are cut from the bytes and `tokens`, `trimmed`, `decimal`, the sizes and `containsText` look at UTF-8
/// bytes, which measured several times faster on vmmap, footprint and sample files and in `ReproReader.detect`. They
/// return exactly what the `Character` versions return: the byte fast paths are taken only
/// where every space, tab or unit letter involved is a `Character` of its own (an ASCII byte between ASCII
/// bytes, or a tab, which always stands alone), and everything else goes the old way (a space before a
/// combining mark is part of that mark's `Character`; `U+212A KELVIN SIGN` equals "K"). The differential
/// fuzz target `reprotext` compares them with the old helpers (Fuzz/Reference/ReferenceReproText.swift) on
/// every input, and the parse results of 5,751 files (fixtures, real-world files, the fuzz corpora, and
/// crafted combining-mark and Kelvin-sign lines) were identical before and after.
enum ReproText {
    /// The lines of `bytes` as UTF-8 (invalid bytes replaced), without `\n` or `\r\n` terminators.
    static func lines(_ bytes: [UInt8]) -> [String] { bytes.withUnsafeBufferPointer { lines(buffer: $0) } }

    /// The lines of `bytes`; see `lines(_:)` for arrays.
    static func lines(_ bytes: ArraySlice<UInt8>) -> [String] { bytes.withUnsafeBufferPointer { lines(buffer: $0) } }

    private static func lines(buffer: UnsafeBufferPointer<UInt8>) -> [String] {
        var result: [String] = []
        var start = 0
        for index in 0...buffer.count where index == buffer.count || buffer[index] == 10 {
            let end = index > start && buffer[index - 1] == 13 ? index - 1 : index
            result.append(String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self))
            start = index + 1
        }
        return result
    }

    /// Whitespace-separated tokens of `text`.
    static func tokens(_ text: String) -> [Substring] { tokens(Substring(text)) }

    /// Whitespace-separated tokens of `text`: split at `Character`s that are a space or a tab.
    static func tokens(_ text: Substring) -> [Substring] {
        if let tokens = asciiTokens(text) { return tokens }
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" })
    }

    /// `tokens` from the bytes; nil when a space touches a non-ASCII byte (it might not be a `Character`
    /// of its own there: a combining mark after it, a prepended one before it).
    private static func asciiTokens(_ text: Substring) -> [Substring]? {
        let utf8 = text.utf8
        var tokens: [Substring] = []
        var start: String.Index?
        var previous: UInt8 = 0
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            let next = utf8.index(after: index)
            if byte == 32 || byte == 9 {
                if byte == 32 && (previous >= 0x80 || (next < utf8.endIndex && utf8[next] >= 0x80)) { return nil }
                if let first = start {
                    tokens.append(text[first..<index])
                    start = nil
                }
            } else if start == nil {
                start = index
            }
            previous = byte
            index = next
        }
        if let first = start { tokens.append(text[first..<utf8.endIndex]) }
        return tokens
    }

    /// `text` without leading and trailing spaces, tabs and `\r`.
    static func trimmed(_ text: String) -> Substring { trimmed(Substring(text)) }

    /// `text` without leading and trailing `Character`s that are a space, a tab or `\r`.
    static func trimmed(_ text: Substring) -> Substring {
        let utf8 = text.utf8
        func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 13 }
        var start = utf8.startIndex
        while start < utf8.endIndex, isSpace(utf8[start]) { start = utf8.index(after: start) }
        if start == utf8.endIndex { return text[text.endIndex...] }
        var end = utf8.endIndex
        while isSpace(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        // Exact where the first and last bytes kept are ASCII (and no `\r\n` pair is cut): every byte
        // trimmed was then a `Character` of its own.
        let first = utf8[start], last = utf8[utf8.index(before: end)]
        let cutBefore = start > utf8.startIndex, cutAfter = end < utf8.endIndex
        if (cutBefore && (first >= 0x80 || (first == 10 && utf8[utf8.index(before: start)] == 13)))
            || (cutAfter && last >= 0x80)
        {
            return text.trimmedSlice(spaceCharacters)
        }
        return text[start..<end]
    }

    /// A finite decimal number, rejecting `nan`, `inf` and hexadecimal forms that `Double` accepts.
    static func decimal(_ text: String) -> Double? { decimal(Substring(text)) }

    /// A finite decimal number: ASCII digits, signs, points and exponents only.
    static func decimal(_ text: Substring) -> Double? {
        guard !text.isEmpty,
            text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 43 || $0 == 45 || $0 == 46 || $0 == 101 || $0 == 69 }
            ),
            let value = Double(text), value.isFinite
        else { return nil }
        return value
    }

    /// The largest magnitude a measured value may have: every unit's scaling (kB to bytes, and on) stays finite
    /// and exact enough; `1e308` kB is no measurement.
    static let measureLimit = 1e15

    /// A measured value as a tool prints it: a finite plain decimal (no hexadecimal float, no thousands
    /// separator), at most `measureLimit`, and not negative unless the quantity may be (a delta).
    static func measure(_ text: some StringProtocol, negative: Bool = false) -> Double? {
        guard let value = decimal(Substring(text)), value.magnitude <= measureLimit, negative || value >= 0 else {
            return nil
        }
        return value
    }

    /// `value` rounded to an `Int` when it fits comfortably (`Int(Double)` traps otherwise).
    static func int(_ value: Double) -> Int? {
        value.isFinite && abs(value) < 4e18 ? Int(value.rounded()) : nil
    }

    private static let binaryShifts: [Character: Double] = ["K": 0x1p10, "M": 0x1p20, "G": 0x1p30, "T": 0x1p40]

    /// A vmmap size: `824` (bytes), `1200K`, `611.0M`, `1.7G`, `2.0T`; binary (1024-based) units.
    static func binarySize(_ token: String) -> Int? { binarySize(Substring(token)) }

    /// A vmmap size from a token; see `binarySize(_:)` for strings.
    static func binarySize(_ token: Substring) -> Int? {
        let utf8 = token.utf8
        guard let lastByte = utf8.last else { return nil }
        let lastIndex = utf8.index(before: utf8.endIndex)
        // The last byte is the last `Character` when it and the byte before it are ASCII.
        if lastByte < 0x80, lastIndex == utf8.startIndex || utf8[utf8.index(before: lastIndex)] < 0x80 {
            let unit: Double
            switch lastByte {
            case UInt8(ascii: "K"): unit = 0x1p10
            case UInt8(ascii: "M"): unit = 0x1p20
            case UInt8(ascii: "G"): unit = 0x1p30
            case UInt8(ascii: "T"): unit = 0x1p40
            case 48...57: return decimal(token).flatMap { int($0) }
            default: return nil
            }
            return decimal(token[..<lastIndex]).flatMap { int($0 * unit) }
        }
        guard let last = token.last else { return nil }
        if let unit = binaryShifts[last] {
            return decimal(token.dropLast()).flatMap { int($0 * unit) }
        }
        return last.isNumber ? decimal(token).flatMap { int($0) } : nil
    }

    private static let unitScale: [String: Double] = [
        "B": 1, "KB": 0x1p10, "MB": 0x1p20, "GB": 0x1p30, "TB": 0x1p40, "K": 0x1p10, "M": 0x1p20, "G": 0x1p30,
    ]

    /// A `footprint` size written as number and unit word: `752 KB`, `6.2 GB`, `0 B`; 1024-based.
    static func unitSize(_ number: Substring, _ unit: Substring) -> Int? {
        guard let factor = unitScale[String(unit)], let value = decimal(number) else { return nil }
        return int(value * factor)
    }

    /// The value after `key` on a `Key:   value` header line, trimmed; nil when the line has another key.
    static func headerValue(_ line: String, _ key: String) -> Substring? {
        line.hasPrefix(key) ? trimmed(line.dropFirst(key.count)) : nil
    }

    /// `name [pid]` split into its parts (`clion [62913]`).
    static func nameAndPID(_ text: String) -> (name: String, pid: Int?) { nameAndPID(Substring(text)) }

    /// `name [pid]` split into its parts; see `nameAndPID(_:)` for strings.
    static func nameAndPID(_ text: Substring) -> (name: String, pid: Int?) {
        let text = trimmed(text)
        guard text.hasSuffix("]"), let open = text.lastIndex(of: "[") else { return (String(text), nil) }
        let pid = Int(text[text.index(after: open)..<text.index(before: text.endIndex)])
        return (String(trimmed(text[..<open])), pid)
    }

    /// Whether the UTF-8 of `text` contains the bytes of `needle` (a cheap test before a `Character`-level
    /// search: when the bytes are absent, no run of `Character`s can equal an ASCII needle without `K`, `;`
    /// or `` ` `` either; see `containsText`).
    static func containsBytes(_ text: String, _ needle: StaticString) -> Bool {
        var text = text
        return text.withUTF8 { haystack in
            find(UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount), in: haystack)
        }
    }

    /// Whether `bytes` contain the bytes of `needle`.
    static func containsBytes(_ bytes: ArraySlice<UInt8>, _ needle: StaticString) -> Bool {
        bytes.withUnsafeBufferPointer { haystack in
            find(UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount), in: haystack)
        }
    }

    /// Whether `bytes` (a line in a scanner's buffer) contain the bytes of `needle`.
    static func containsBytes(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool {
        find(UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount), in: bytes)
    }

    /// `text.contains(needle)` (whole `Character`s, canonical equivalence) answered from the bytes where that is exact:
    /// an ASCII needle without `K`, `;`, `` ` `` (which `U+212A`, `U+037E`, `U+1FEF` equal), `\r` or `\n` (which `\r\n`
    /// joins) is found as `Character`s only where its bytes are, and where its bytes are in all-ASCII text it is found.
    /// Otherwise `String.contains`, which built a searcher (and its dictionary) per call: nearly all of
    /// `SampleReport.parse`'s time, whose markers are matched against every frame.
    static func containsText(_ text: String, _ needle: String) -> Bool {
        let plainNeedle = needle.utf8.allSatisfy {
            $0 < 0x80 && $0 != 75 && $0 != 59 && $0 != 96 && $0 != 10 && $0 != 13
        }
        guard plainNeedle, !needle.isEmpty else { return text.contains(needle) }
        var text = text, needle = needle
        // nil: found, in text that is not all ASCII. The ASCII test runs on the buffer: `utf8.allSatisfy` cost many
        // instructions a byte.
        let found: Bool? = text.withUTF8 { haystack in
            guard needle.withUTF8({ find($0, in: haystack) }) else { return false }
            var bits: UInt8 = 0
            for byte in haystack { bits |= byte }
            return bits < 0x80 ? true : nil
        }
        return found ?? text.contains(needle)
    }

    /// Whether `pattern`'s bytes occur in `haystack`: `memchr` to each candidate of the pattern's rarest byte
    /// (`rarity`), then `memcmp` of the whole pattern around it (a byte loop cost many instructions a byte). It went by
    /// the first byte, which for ` by jetsam reason ` is a space: a `memchr` call and a `memcmp` at every space of
    /// every line that is no change line (on issue 30's realistic log, `memcmp` and `memchr` showed in the profile,
    /// most of it `MemoryKillLines.mayBeKill`).
    private static func find(
        _ pattern: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, anchor: Int? = nil
    ) -> Bool {
        pattern.isEmpty || firstIndex(pattern, in: haystack, anchor: anchor) != nil
    }

    /// Where `needle` first occurs in `haystack`, candidates found by its byte at `anchor` (`anchor(needle)`).
    static func firstIndex(of needle: StaticString, in haystack: UnsafeBufferPointer<UInt8>, anchor: Int) -> Int? {
        firstIndex(
            UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount), in: haystack, anchor: anchor)
    }

    /// `find`'s search: the offset of the first occurrence of a non-empty `pattern`, or nil.
    private static func firstIndex(
        _ pattern: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, anchor: Int?
    ) -> Int? {
        guard !pattern.isEmpty, let needle = pattern.baseAddress, let base = haystack.baseAddress,
            haystack.count >= pattern.count
        else { return nil }
        let anchor = anchor ?? Self.anchor(pattern)
        let byte = Int32(pattern[anchor])
        let last = haystack.count - pattern.count + anchor  // the last index the anchor byte can be at
        var index = anchor
        while index <= last, let found = memchr(base + index, byte, last - index + 1) {
            index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            // The first and last bytes before `memcmp`: most candidates differ there, and a call per candidate was a
            // large share of an ndjson scan's samples.
            let start = index - anchor
            if base[start] == needle[0], base[start + pattern.count - 1] == needle[pattern.count - 1],
                memcmp(base + start, needle, pattern.count) == 0
            {
                return start
            }
            index += 1
        }
        return nil
    }

    /// The offset of `pattern`'s rarest byte (the first of the rarest), where `find` looks for candidates.
    static func anchor(_ pattern: UnsafeBufferPointer<UInt8>) -> Int {
        var anchor = 0
        for offset in pattern.indices where rarity(pattern[offset]) > rarity(pattern[anchor]) { anchor = offset }
        return anchor
    }

    /// `anchor` of a literal.
    static func anchor(_ pattern: StaticString) -> Int {
        anchor(UnsafeBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount))
    }

    /// Whether `bytes` contain the bytes of `needle`, candidates found by its byte at `anchor` (`anchor(needle)`,
    /// worked out once by a caller that searches for the same literal on every line).
    static func containsBytes(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: StaticString, anchor: Int) -> Bool {
        find(UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount), in: bytes, anchor: anchor)
    }

    /// How rare `byte` is in text, roughly: the space, the quote (JSON's most common byte) and lowercase letters
    /// by their frequency in English, the rest (capitals, digits, punctuation) rarest.
    @inline(__always)
    private static func rarity(_ byte: UInt8) -> Int {
        switch byte {
        case 32, UInt8(ascii: "\""): 0
        case UInt8(ascii: "e"): 1
        case UInt8(ascii: "t"): 2
        case UInt8(ascii: "a"): 3
        case UInt8(ascii: "o"): 4
        case UInt8(ascii: "i"): 5
        case UInt8(ascii: "n"): 6
        case UInt8(ascii: "s"): 7
        case UInt8(ascii: "r"): 8
        case UInt8(ascii: "h"): 9
        case UInt8(ascii: "l"): 10
        case UInt8(ascii: "d"): 11
        case UInt8(ascii: "c"): 12
        case UInt8(ascii: "u"): 13
        case UInt8(ascii: "m"): 14
        case UInt8(ascii: "f"): 15
        case UInt8(ascii: "p"), UInt8(ascii: "g"), UInt8(ascii: "w"): 16
        case UInt8(ascii: "y"), UInt8(ascii: "b"), UInt8(ascii: "v"), UInt8(ascii: "k"): 17
        case UInt8(ascii: "x"), UInt8(ascii: "j"), UInt8(ascii: "q"), UInt8(ascii: "z"): 18
        default: 19
        }
    }

    /// The first `limit` bytes of `prefix` as lines, for sniffing.
    static func sniffLines(_ prefix: ArraySlice<UInt8>, limit: Int = sniffLimit) -> [String] {
        lines(prefix.prefix(limit))
    }

    /// How many bytes of a head `sniffLines` reads.
    static let sniffLimit = 65_536
}
