// The `Character`-level ReproText helpers as they were before the byte fast paths (commit 9cfdab6),
// kept (renamed) as the oracle of the differential fuzz target `reprotext`: the fast versions must
// return the same for every input.
@testable import MemhuntFormats

enum ReferenceReproText {
    static func lines(_ bytes: some Collection<UInt8>) -> [String] {
        bytes.split(separator: 10, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 13 ? line.dropLast() : line[...], as: UTF8.self)
        }
    }

    static func tokens(_ text: some StringProtocol) -> [Substring] {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { Substring($0) }
    }

    static func trimmed(_ text: some StringProtocol) -> Substring {
        Substring(text).trimmedSlice(spaceCharacters)
    }

    static func decimal(_ text: some StringProtocol) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
            let value = Double(text), value.isFinite
        else { return nil }
        return value
    }

    static func binarySize(_ token: some StringProtocol) -> Int? {
        guard let last = token.last else { return nil }
        if let unit = shifts[last] {
            return decimal(token.dropLast()).flatMap { ReproText.int($0 * unit) }
        }
        return last.isNumber ? decimal(token).flatMap { ReproText.int($0) } : nil
    }

    // The helpers' tables, built once (they were built on every call: 7 % of the target's samples, perf).
    static let shifts: [Character: Double] = ["K": 0x1p10, "M": 0x1p20, "G": 0x1p30, "T": 0x1p40]
    static let scale: [String: Double] = [
        "B": 1, "KB": 0x1p10, "MB": 0x1p20, "GB": 0x1p30, "TB": 0x1p40, "K": 0x1p10, "M": 0x1p20, "G": 0x1p30,
    ]

    static func unitSize(_ number: some StringProtocol, _ unit: some StringProtocol) -> Int? {
        guard let factor = scale[String(unit)], let value = decimal(number) else { return nil }
        return ReproText.int(value * factor)
    }
}
