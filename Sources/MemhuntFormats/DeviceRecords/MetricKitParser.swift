/// Reads MetricKit `MXMetricPayload` / `MXDiagnosticPayload` JSON (`jsonRepresentation()`), bare,
/// wrapped as `{"payload": …}` / `{"_source": …}`, or in an array (the newest payload is taken).
public enum MetricKitParser {
    /// What a JSON value holds, when it is a MetricKit payload.
    public enum Shape: Sendable, Hashable {
        case metrics
        case diagnostics
    }

    /// The payload object inside `value` and its shape; `nil` when there is none (an `MXCallStackTree` alone
    /// is not a payload).
    public static func payload(in value: JSONValue) -> (payload: JSONValue, shape: Shape)? {
        if let elements = value.elements {
            let found = elements.compactMap { payload(in: $0) }
            let newest = found.enumerated().max { lhs, rhs in
                let (l, r) = (endTime(lhs.element.payload), endTime(rhs.element.payload))
                return l == r ? lhs.offset > rhs.offset : (l ?? -.infinity) < (r ?? -.infinity)
            }
            return newest?.element
        }
        guard let members = value.members else { return nil }
        for wrapper in ["payload", "_source"] {
            if let inner = value[wrapper], let found = payload(in: inner) { return found }
        }
        if members.contains(where: { $0.key.hasSuffix("Diagnostics") && $0.value.elements != nil }) {
            return (value, .diagnostics)
        }
        let stamped = value.has("timeStampBegin") || value.has("timeStampEnd")
        if stamped, members.contains(where: { $0.key.hasSuffix("Metrics") }) { return (value, .metrics) }
        return nil
    }

    /// The memory part of an `MXMetricPayload` object. Unparseable measurements are `nil` fields.
    public static func metrics(_ payload: JSONValue) -> MetricPayload {
        let memory = payload["memoryMetrics"]
        let exits = payload["applicationExitMetrics"]
        let limitExits = ["foregroundExitData", "backgroundExitData"].compactMap {
            exits?[path: $0, "cumulativeMemoryResourceLimitExitCount"]?.int
        }
        let end = payload["timeStampEnd"]?.string
        var unreadable: [String] = []
        for (pointer, value) in [
            ("/memoryMetrics/peakMemoryUsage", memory?["peakMemoryUsage"]),
            (
                "/memoryMetrics/averageSuspendedMemory/averageValue",
                memory?[path: "averageSuspendedMemory", "averageValue"]
            ),
        ] {
            guard let value, value.string.flatMap(MeasurementText.bytes) == nil else { continue }
            let text = value.string ?? "a \(value.members != nil ? "JSON object" : "non-text value")"
            let unit = value.string.flatMap(MeasurementText.split)?.unit
            unreadable.append(
                "\(pointer) is \(FormatError.quoted(text)): "
                    + (unit.map { "the unit \(FormatError.quoted($0)) is not one memhunt knows" }
                        ?? "not a number with a unit"))
        }
        var result = MetricPayload(
            timeStampBegin: payload["timeStampBegin"]?.string, timeStampEnd: end, time: end.flatMap(AppleDate.parse),
            bundleIdentifier: payload[path: "metaData", "bundleIdentifier"]?.string,
            appVersion: payload["appVersion"]?.string,
            peakMemoryBytes: memory?["peakMemoryUsage"]?.string.flatMap(MeasurementText.bytes),
            averageSuspendedMemoryBytes: memory?[path: "averageSuspendedMemory", "averageValue"]?.string
                .flatMap(MeasurementText.bytes),
            memoryResourceLimitExits: limitExits.isEmpty ? nil : limitExits.reduce(0, &+),
            memoryPressureExits: exits?[path: "backgroundExitData", "cumulativeMemoryPressureExitCount"]?.int)
        result.unreadable = unreadable
        return result
    }

    /// The counts of an `MXDiagnosticPayload` object.
    public static func diagnostics(_ payload: JSONValue) -> DiagnosticPayload {
        let crashes = payload["crashDiagnostics"]?.elements ?? []
        let hangs = payload["hangDiagnostics"]?.elements ?? []
        let firstMeta = (crashes + hangs).lazy.compactMap { $0["diagnosticMetaData"] }.first
        return DiagnosticPayload(
            timeStampEnd: payload["timeStampEnd"]?.string,
            bundleIdentifier: payload[path: "metaData", "bundleIdentifier"]?.string
                ?? firstMeta?["bundleIdentifier"]?.string,
            crashCount: crashes.count, hangCount: hangs.count)
    }

    private static func endTime(_ payload: JSONValue) -> Double? {
        payload["timeStampEnd"]?.string.flatMap(AppleDate.parse)
    }
}

/// Localized MetricKit measurement strings (`"200000 kB"`, `"1,106,818千字节"`, `"1 234,5 Ko"`).
public enum MeasurementText {
    /// Bytes per unit word. kB is 1,000 bytes, as `UnitInformationStorage.kilobytes`; the IEC units are binary.
    public static let byteUnits: [String: Double] = [
        "B": 1, "b": 1, "byte": 1, "bytes": 1, "字节": 1, "o": 1, "octets": 1,
        "kB": 1e3, "KB": 1e3, "kb": 1e3, "千字节": 1e3, "Ko": 1e3, "ko": 1e3, "kilobytes": 1e3,
        "MB": 1e6, "兆字节": 1e6, "Mo": 1e6, "megabytes": 1e6,
        "GB": 1e9, "吉字节": 1e9, "Go": 1e9, "gigabytes": 1e9,
        "KiB": 1024, "MiB": 1_048_576, "GiB": 1_073_741_824,
        // Localized payloads: Russian, Traditional Chinese, Japanese, Korean, Spanish/Portuguese/German words.
        "КБ": 1e3, "кБ": 1e3, "МБ": 1e6, "ГБ": 1e9, "千位元組": 1e3, "百萬位元組": 1e6, "キロバイト": 1e3,
        "メガバイト": 1e6, "킬로바이트": 1e3, "메가바이트": 1e6, "kilobytes (kB)": 1e3, "Kilobyte": 1e3,
        "Megabyte": 1e6, "kilooctets": 1e3, "mégaoctets": 1e6,
    ]

    /// The number of bytes a measurement string states, or `nil` when its number or unit is not understood.
    public static func bytes(_ text: String) -> Double? {
        guard let (value, unit) = split(text), let scale = byteUnits[unit] else { return nil }
        return value * scale
    }

    /// The number and the unit word of a measurement string, with grouping separators removed.
    public static func split(_ text: String) -> (value: Double, unit: String)? {
        let scalars = Array(text.unicodeScalars)
        var end = 0
        while end < scalars.count, isNumberPart(scalars[end]) { end += 1 }
        let unit = String(String.UnicodeScalarView(scalars[end...])).trimmingSpaces
        guard let value = number(scalars[..<end]) else { return nil }
        return (value, unit)
    }

    private static let spaces: Set<Unicode.Scalar> = [" ", "\u{A0}", "\u{202F}", "\u{2009}", "'", "’"]

    private static func isNumberPart(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar) || scalar == "," || scalar == "." || scalar == "-" || spaces.contains(scalar)
    }

    /// `1,106,818` and `1.106.818` are grouped; `1.5` and `1,5` are decimals; with both marks the last is
    /// the decimal mark. A single mark followed by exactly three digits is read as grouping (kB values are integers).
    private static func number(_ scalars: ArraySlice<Unicode.Scalar>) -> Double? {
        let marks = scalars.filter { !spaces.contains($0) }
        let commas = marks.filter { $0 == "," }.count
        let dots = marks.filter { $0 == "." }.count
        var decimalMark: Unicode.Scalar?
        if commas > 0, dots > 0 {
            decimalMark = marks.last { $0 == "," || $0 == "." }
        } else if commas + dots == 1, let index = marks.firstIndex(where: { $0 == "," || $0 == "." }) {
            let digitsAfter = marks.distance(from: index, to: marks.endIndex) - 1
            decimalMark = digitsAfter == 3 ? nil : marks[index]
        }
        var literal = ""
        for scalar in marks {
            if scalar == decimalMark {
                literal.append(".")
            } else if scalar != "," && scalar != "." {
                literal.unicodeScalars.append(scalar)
            }
        }
        guard literal.contains(where: \.isNumber) else { return nil }
        return Double(literal)
    }
}
