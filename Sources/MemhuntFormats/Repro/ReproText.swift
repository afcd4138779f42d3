/// Line splitting and number helpers shared by the reproduction-side text parsers.
enum ReproText {
    /// The lines of `bytes` as UTF-8 (invalid bytes replaced), without `\n` or `\r\n` terminators.
    static func lines(_ bytes: some Collection<UInt8>) -> [String] {
        bytes.split(separator: 10, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 13 ? line.dropLast() : line[...], as: UTF8.self)
        }
    }

    /// Whitespace-separated tokens of `text`.
    static func tokens(_ text: some StringProtocol) -> [Substring] {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { Substring($0) }
    }

    /// `text` without leading and trailing spaces, tabs and `\r`.
    static func trimmed(_ text: some StringProtocol) -> Substring {
        Substring(text).trimmedSlice(spaceCharacters)
    }

    /// A finite decimal number, rejecting `nan`, `inf` and hexadecimal forms that `Double` accepts.
    static func decimal(_ text: some StringProtocol) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
            let value = Double(text), value.isFinite
        else { return nil }
        return value
    }

    /// `value` rounded to an `Int` when it fits comfortably (`Int(Double)` traps otherwise).
    static func int(_ value: Double) -> Int? {
        value.isFinite && abs(value) < 4e18 ? Int(value.rounded()) : nil
    }

    /// A vmmap size: `824` (bytes), `1200K`, `611.0M`, `1.7G`, `2.0T`; binary (1024-based) units.
    static func binarySize(_ token: some StringProtocol) -> Int? {
        guard let last = token.last else { return nil }
        let shifts: [Character: Double] = ["K": 0x1p10, "M": 0x1p20, "G": 0x1p30, "T": 0x1p40]
        if let unit = shifts[last] {
            return decimal(token.dropLast()).flatMap { int($0 * unit) }
        }
        return last.isNumber ? decimal(token).flatMap { int($0) } : nil
    }

    /// A `footprint` size written as number and unit word: `752 KB`, `6.2 GB`, `0 B`; 1024-based.
    static func unitSize(_ number: some StringProtocol, _ unit: some StringProtocol) -> Int? {
        let scale: [String: Double] = [
            "B": 1, "KB": 0x1p10, "MB": 0x1p20, "GB": 0x1p30, "TB": 0x1p40, "K": 0x1p10, "M": 0x1p20, "G": 0x1p30,
        ]
        guard let factor = scale[String(unit)], let value = decimal(number) else { return nil }
        return int(value * factor)
    }

    /// The value after `key` on a `Key:   value` header line, trimmed; nil when the line has another key.
    static func headerValue(_ line: String, _ key: String) -> Substring? {
        line.hasPrefix(key) ? trimmed(line.dropFirst(key.count)) : nil
    }

    /// `name [pid]` split into its parts (`clion [62913]`).
    static func nameAndPID(_ text: some StringProtocol) -> (name: String, pid: Int?) {
        let text = trimmed(text)
        guard text.hasSuffix("]"), let open = text.lastIndex(of: "[") else { return (String(text), nil) }
        let pid = Int(text[text.index(after: open)..<text.index(before: text.endIndex)])
        return (String(trimmed(text[..<open])), pid)
    }

    /// The first `limit` bytes of `prefix` as lines, for sniffing.
    static func sniffLines(_ prefix: some Collection<UInt8>, limit: Int = 65_536) -> [String] {
        lines(prefix.prefix(limit))
    }
}
