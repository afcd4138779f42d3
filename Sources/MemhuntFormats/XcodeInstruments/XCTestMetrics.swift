/// One XCTest performance metric of one test run: what `measure(metrics:)` reported.
public struct XCTestMetric: Sendable, Hashable {
    /// The test as the log or the result bundle names it (`-[Suite testName]`, `Suite/testName()`).
    public var test: String
    /// The device of the run, when the result bundle says (`iPhone 16e`).
    public var device: String?
    /// `com.apple.dt.XCTMetric_Memory.physical_peak`, `com.apple.dt.XCTMetric_Memory-com.example.App.physical`,
    /// `com.apple.dt.XCTMetric_CPU.time`, …
    public var identifier: String
    /// `Memory Peak Physical`, `Clock Monotonic Time`, …
    public var displayName: String
    /// `kB`, `s`, `kI`, … as written.
    public var unit: String
    /// Every measured value, in order.
    public var values: [Double]
    /// The average as written (or of `values`).
    public var average: Double?
    /// The baseline's average, when a baseline was set (an empty `baselineAverage: ` is none).
    public var baselineAverage: Double?
    public var baselineName: String?
    /// `maxPercentRegression` in percent.
    public var maxPercentRegression: Double?
    /// `prefers smaller` or `prefers larger`.
    public var polarity: String?
    /// 1-based line of the log (nil for the result bundle's JSON).
    public var line: Int?

    public init(
        test: String, device: String? = nil, identifier: String, displayName: String, unit: String,
        values: [Double], average: Double? = nil, baselineAverage: Double? = nil, baselineName: String? = nil,
        maxPercentRegression: Double? = nil, polarity: String? = nil, line: Int? = nil
    ) {
        self.test = test
        self.device = device
        self.identifier = identifier
        self.displayName = displayName
        self.unit = unit
        self.values = values
        self.average = average
        self.baselineAverage = baselineAverage
        self.baselineName = baselineName
        self.maxPercentRegression = maxPercentRegression
        self.polarity = polarity
        self.line = line
    }

    /// Whether it measures memory (`XCTMetric_Memory`, for the test runner or an app).
    public var isMemory: Bool { identifier.contains("XCTMetric_Memory") }

    /// Bytes per unit for memory units (XCTest writes SI kilobytes, `UnitInformationStorage.kilobytes`);
    /// nil for any other unit.
    public var bytesPerUnit: Double? {
        switch unit.lowercased() {
        case "b", "bytes": 1
        case "kb": 1000
        case "mb": 1_000_000
        case "gb": 1_000_000_000
        case "kib": 1024
        case "mib": 1_048_576
        default: nil
        }
    }
}

/// XCTest performance metrics, from an `xcodebuild test` log (`Test Case '…' measured [Memory Peak Physical,
/// kB] average: …, values: […], performanceMetricID:…, baselineAverage: …, maxPercentRegression: …`) or from
/// `xcrun xcresulttool get test-results metrics` JSON (Xcode 16.3+).
public struct XCTestMetrics: Sendable, Hashable {
    public enum Source: String, Sendable, Hashable {
        case xcodebuildLog = "xcodebuild log"
        case resultMetrics = "xcresulttool metrics"
    }

    public var source: Source
    public var metrics: [XCTestMetric]
    /// Metric lines that could not be read, with their line numbers: named, never guessed.
    public var unreadable: [String]
    /// Test cases the log shows started (a log may hold tests without metrics).
    public var testsStarted: Int

    public init(source: Source, metrics: [XCTestMetric], unreadable: [String] = [], testsStarted: Int = 0) {
        self.source = source
        self.metrics = metrics
        self.unreadable = unreadable
        self.testsStarted = testsStarted
    }

    // MARK: - xcodebuild log

    /// Whether the sniffed lines are an XCTest log: `Test Case '…' started.` / `Test Suite '…' started at` or a
    /// `… measured [` metric line.
    /// An `xcodebuild` log whose first 64 KiB are all build output is one too when it starts with xcodebuild's
    /// own banner (`Command line invocation:` and then the `xcodebuild … test` command): its tests come later.
    public static func matches(lines: [String]) -> Bool {
        for (index, line) in lines.enumerated() {
            if line.contains("Test Case '") && (line.contains("' started") || line.contains("' measured [")) {
                return true
            }
            if line.hasPrefix("Test Suite '") && line.contains("' started at") { return true }
            if line.hasPrefix("Command line invocation:"), index + 1 < lines.count {
                let command = lines[index + 1]
                if command.contains("xcodebuild"), command.contains(" test") { return true }
            }
        }
        return false
    }

    /// The metrics of a whole log in memory (`XCTestLogScanner` reads it; a file is streamed through the same
    /// scanner).
    public static func parse(_ bytes: [UInt8]) -> Result<XCTestMetrics, FormatError> {
        var scanner = XCTestLogScanner()
        scanner.feed(bytes[...])
        return scanner.finish()
    }

    /// One `… measured [Name, unit] average: …` line.
    static func metric(_ line: String, number: Int) -> Result<XCTestMetric, FormatError> {
        guard let measured = line.firstRange(of: " measured [") else { return .failure(FormatError("no metric")) }
        let before = line[..<measured.lowerBound]
        // `Test Case '-[Suite test]'`, `Test Case 'Suite.test'`, or Swift Testing's `Test test()`.
        let test: String
        if let open = before.firstRange(of: "Test Case '") {
            test = String(before[open.upperBound...].dropLast(before.hasSuffix("'") ? 1 : 0))
        } else if let open = before.ranges(of: "Test ").last {
            test = String(before[open.upperBound...])
        } else {
            return .failure(FormatError("a measured metric without a test name"))
        }
        let rest = line[measured.upperBound...]
        guard let close = rest.firstIndex(of: "]") else { return .failure(FormatError("no ']' after the metric name")) }
        let label = rest[..<close]
        let comma = label.lastIndex(of: ",")
        let displayName = (comma.map { label[..<$0] } ?? label).trimmingSpaces
        let unit = comma.map { label[label.index(after: $0)...].trimmingSpaces } ?? ""
        let fields = rest[rest.index(after: close)...]
        func field(_ name: String) -> Substring? {
            guard let start = fields.firstRange(of: name + ":") else { return nil }
            let value = fields[start.upperBound...].drop { $0 == " " }
            if value.first == "[" {
                guard let end = value.firstIndex(of: "]") else { return value }
                return value[value.index(after: value.startIndex)..<end]
            }
            // The value ends at its first separating comma (`32,984.8` is kept whole, to be named unreadable).
            let end = value.indices.first { value[$0] == "," && Self.separates(value, at: $0) } ?? value.endIndex
            return Substring(value[..<end].trimmingSpaces)
        }
        guard let id = field("performanceMetricID") else {
            return .failure(FormatError("\(displayName): no performanceMetricID"))
        }
        // Xcode's values are plain decimals; a negative one is possible only for a delta (`Memory Physical`),
        // never for a peak, a time or a count.
        let mayBeNegative = id.hasSuffix(".physical")
        func numeric(_ text: Substring?) -> Double?? {
            guard let text else { return .some(nil) }
            let trimmed = text.trimmingSpaces.trimming(["%", "\""])
            if trimmed.isEmpty { return .some(nil) }
            guard let value = ReproText.measure(trimmed, negative: mayBeNegative) else { return nil }
            return .some(value)
        }
        var values: [Double] = []
        for text in Self.listItems(field("values") ?? "") {
            guard let value = ReproText.measure(text, negative: mayBeNegative) else {
                return .failure(
                    FormatError("\(displayName): value \(FormatError.quoted(text)) is not a number"))
            }
            values.append(value)
        }
        guard let average = numeric(field("average")) else {
            return .failure(
                FormatError("\(displayName): average \(FormatError.quoted(field("average") ?? "")) is not a number"))
        }
        guard !values.isEmpty || average != nil else {
            return .failure(FormatError("\(displayName): no values and no average"))
        }
        guard let baseline = numeric(field("baselineAverage")), let regression = numeric(field("maxPercentRegression"))
        else { return .failure(FormatError("\(displayName): a baseline field is not a number")) }
        let baselineName = field("baselineName").map { String($0.trimming(["\""])) }.flatMap { $0.isEmpty ? nil : $0 }
        return .success(
            XCTestMetric(
                test: test, identifier: String(id), displayName: displayName, unit: unit, values: values,
                average: average, baselineAverage: baseline, baselineName: baselineName,
                maxPercentRegression: regression, polarity: field("polarity").map(String.init), line: number))
    }

    /// Whether the comma at `index` separates two values: Xcode writes `, `; a comma straight before a digit is a
    /// thousands separator inside one number (`32,984.8`), never read as two.
    static func separates(_ text: Substring, at index: Substring.Index) -> Bool {
        let next = text.index(after: index)
        return next == text.endIndex || !(text[next].isASCII && text[next].isNumber)
    }

    /// The items of a `values: [a, b, …]` list: Xcode separates them with `, `; a comma straight before a digit
    /// is a thousands separator inside one item (`32,984.8`), kept so that the item is named unreadable.
    static func listItems(_ list: Substring) -> [String] {
        var items: [String] = []
        var start = list.startIndex
        for index in list.indices where list[index] == "," && separates(list, at: index) {
            items.append(list[start..<index].trimmingSpaces)
            start = list.index(after: index)
        }
        let last = list[start...].trimmingSpaces
        if !last.isEmpty || !items.isEmpty { items.append(last) }
        return items
    }

    // MARK: - xcresulttool metrics JSON

    /// Whether a JSON document is `xcresulttool get test-results metrics` output: an array of objects with
    /// `testIdentifier` and `testRuns`.
    public static func isResultMetrics(_ value: JSONValue) -> Bool {
        guard let first = value.elements?.first else { return false }
        return first["testIdentifier"]?.string != nil && first["testRuns"]?.elements != nil
    }

    public static func parse(resultMetrics value: JSONValue) -> XCTestMetrics {
        var metrics: [XCTestMetric] = []
        var unreadable: [String] = []
        for (index, entry) in (value.elements ?? []).enumerated() {
            let test = entry["testIdentifier"]?.string ?? "test \(index)"
            for run in entry["testRuns"]?.elements ?? [] {
                let device = run[path: "device", "deviceName"]?.string
                for metric in run["metrics"]?.elements ?? [] {
                    guard let id = metric["identifier"]?.string else {
                        unreadable.append("\(test): a metric without an identifier")
                        continue
                    }
                    let values = (metric["measurements"]?.elements ?? []).compactMap(\.double)
                    guard !values.isEmpty else {
                        unreadable.append("\(test): \(id) has no measurement that is a number")
                        continue
                    }
                    let baseline = metric["baselineAverage"]?.double
                    metrics.append(
                        XCTestMetric(
                            test: test, device: device, identifier: id,
                            displayName: metric["displayName"]?.string ?? id,
                            unit: metric["unitOfMeasurement"]?.string ?? "", values: values,
                            average: values.reduce(0, +) / Double(values.count),
                            // An unset baseline is written as 0 with an empty name.
                            baselineAverage: baseline == 0 && (metric["baselineName"]?.string ?? "").isEmpty
                                ? nil : baseline,
                            baselineName: metric["baselineName"]?.string.flatMap { $0.isEmpty ? nil : $0 },
                            maxPercentRegression: metric["maxPercentRegression"]?.double,
                            polarity: metric["polarity"]?.string))
                }
            }
        }
        return XCTestMetrics(source: .resultMetrics, metrics: metrics, unreadable: unreadable)
    }
}

extension XCTestMetrics: ReproFormat {
    public static let kind = ArtifactKind.xctestMetrics
    public static let fixtures = ["Fixtures/xctest/xcodebuild-widget-over.log"]
    /// Every line `matches` takes holds one of these.
    public static func recognises(_ sniff: FormatSniff) -> Bool {
        sniff.mayHold(anyOf: "Test Case '", "Test Suite '", "Command line invocation:") && matches(lines: sniff.lines)
    }
    public static func artifact(_ value: XCTestMetrics) -> ReproArtifact { .xctestMetrics(value) }
}
