/// Parses the timestamps Apple writes into diagnostics, without `DateFormatter`.
public enum AppleDate {
    /// Seconds since 1970 for `yyyy-MM-dd HH:mm:ss[.frac][ ±hhmm]` (`.ips`, `.crash`, MetricKit) or
    /// ISO 8601 `yyyy-MM-ddTHH:mm:ss[.frac][Z|±hh:mm|±hhmm]`. No offset means UTC.
    public static func parse(_ text: String) -> Double? {
        var scanner = Scanner(bytes: Array(text.utf8))
        scanner.skipSpaces()
        guard let year = scanner.number(digits: 4), scanner.eat("-"),
            let month = scanner.number(digits: 2), scanner.eat("-"),
            let day = scanner.number(digits: 2), scanner.eat("T") || scanner.eat(" "),
            let hour = scanner.number(digits: 2), scanner.eat(":"),
            let minute = scanner.number(digits: 2), scanner.eat(":"),
            let second = scanner.number(digits: 2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        var fraction = ""
        if scanner.eat(".") || scanner.eat(",") {
            while let digit = scanner.digit() { fraction.append(Character(String(digit))) }
            guard !fraction.isEmpty else { return nil }
        }
        scanner.skipSpaces()
        var offsetSeconds = 0
        if !scanner.eat("Z"), let sign = scanner.eat("+") ? 1 : scanner.eat("-") ? -1 : nil {
            guard let hours = scanner.number(digits: 2) else { return nil }
            _ = scanner.eat(":")
            let minutes = scanner.number(digits: 2) ?? 0
            guard hours <= 23, minutes <= 59 else { return nil }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        }
        scanner.skipSpaces()
        guard scanner.atEnd else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        // Through one decimal literal, so "…:58.79" is the Double nearest to the written time.
        guard seconds >= 0 else { return Double(seconds) + (Double("0." + fraction) ?? 0) }
        return Double(fraction.isEmpty ? "\(seconds)" : "\(seconds).\(fraction)")
    }

    /// Whether a time that `parse` reads says its zone (`Z` or an offset after the time of day): `parse` takes
    /// a time without one as UTC, which for an SDK's local time would be a guess.
    public static func hasZone(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        // Past `yyyy-MM-dd?HH:mm:ss`, whose dashes are the date's.
        guard bytes.count > 19 else { return false }
        return bytes[19...].contains { $0 == UInt8(ascii: "Z") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }
    }

    /// `2026-08-12T00:02:11Z` for seconds since 1970 (whole seconds, rounded down).
    public static func utcText(_ seconds: Double) -> String {
        // Past year ±30,000 no record is dated: said as the number, where `Int(_:)` would trap on a huge one.
        guard seconds.isFinite, abs(seconds) < 1e12 else { return "\(seconds) s after 1970 (UTC)" }
        let whole = Int(seconds.rounded(.down))
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let rest = whole - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))Z"
    }

    /// The civil date of days since 1970-01-01 (Howard Hinnant's algorithm, the inverse of `daysFromCivil`).
    private static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index >= bytes.count }

        mutating func eat(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(character.value) else { return false }
            index += 1
            return true
        }

        mutating func skipSpaces() { while eat(" ") {} }

        mutating func digit() -> Int? {
            guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else { return nil }
            defer { index += 1 }
            return Int(bytes[index] - 0x30)
        }

        /// Exactly `digits` decimal digits (at most 4, so no overflow).
        mutating func number(digits: Int) -> Int? {
            var value = 0
            for _ in 0..<digits {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }
    }
}
