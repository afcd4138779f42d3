/// One point of an App Store Connect power and performance metric: Apple's aggregate over the devices that
/// ran one app version, for one device class and percentile.
public struct ASCMetricPoint: Sendable, Hashable {
    /// `productData[].platform` (`iOS`).
    public var platform: String?
    /// `metricCategories[].identifier` (`MEMORY`, `LAUNCH`, …).
    public var category: String
    /// `metrics[].identifier` (`peakMemory`, `averageSuspendedMemory`).
    public var metric: String
    /// `metrics[].unit.identifier` (`megabytes`), as written.
    public var unit: String?
    /// `metrics[].unit.displayName` (`MB`), as written.
    public var unitName: String?
    /// `filterCriteria.device` (`all_iphones`, `iPhone_5.8in`), as written.
    public var device: String?
    /// `filterCriteria.deviceMarketingName` (`All iPhones`).
    public var deviceName: String?
    /// `filterCriteria.percentile` (`percentile.fifty`, `percentile.ninety`), as written.
    public var percentile: String?
    /// `points[].version`: the app version.
    public var version: String
    /// `points[].value`, in `unit`.
    public var value: Double
    /// `points[].errorMargin`, in `unit`, when given.
    public var errorMargin: Double?
    /// Its JSON pointer (`/productData/0/metricCategories/1/metrics/0/datasets/0/points/2`).
    public var pointer: String

    public init(
        platform: String?, category: String, metric: String, unit: String?, unitName: String?, device: String?,
        deviceName: String?, percentile: String?, version: String, value: Double, errorMargin: Double?,
        pointer: String
    ) {
        self.platform = platform
        self.category = category
        self.metric = metric
        self.unit = unit
        self.unitName = unitName
        self.device = device
        self.deviceName = deviceName
        self.percentile = percentile
        self.version = version
        self.value = value
        self.errorMargin = errorMargin
        self.pointer = pointer
    }

    /// `p50` for `percentile.fifty`, `p90` for `percentile.ninety`; the text as written otherwise.
    public var percentileLabel: String? {
        switch percentile {
        case "percentile.fifty": "p50"
        case "percentile.ninety": "p90"
        case let other: other
        }
    }

    /// The value in MB when its unit is megabytes (`megabytes` or `MB`, Apple's word, not converted); nil for
    /// any other unit.
    public var megabytes: Double? {
        unit == "megabytes" || (unit == nil && unitName == "MB") ? value : nil
    }
}

/// The App Store Connect API's `perfPowerMetrics` response (`GET /v1/apps/{id}/perfPowerMetrics` or
/// `/v1/builds/{id}/perfPowerMetrics`, `Accept: application/vnd.apple.xcode-metrics+json`):
/// `productData[].metricCategories[].metrics[].datasets[].points[]`. The points of the `MEMORY` category are
/// kept; of the other categories only their identifiers. The response names no app (the request's URL did).
public struct ASCMetrics: Sendable, Hashable {
    /// The response's `version` (`1.0.0`).
    public var version: String?
    /// Every category identifier met, in order, unique.
    public var categories: [String]
    /// The `MEMORY` category's points, in file order (at most `maxPoints`).
    public var memory: [ASCMetricPoint]
    /// Points past `maxPoints`: counted, not kept.
    public var droppedPoints: Int
    /// What could not be read, each with its JSON pointer (at most `maxProblems`).
    public var unreadable: [String]
    public var problemCount: Int

    static let maxPoints = 100_000
    static let maxProblems = 50

    public init(
        version: String? = nil, categories: [String] = [], memory: [ASCMetricPoint] = [], droppedPoints: Int = 0,
        unreadable: [String] = [], problemCount: Int = 0
    ) {
        self.version = version
        self.categories = categories
        self.memory = memory
        self.droppedPoints = droppedPoints
        self.unreadable = unreadable
        self.problemCount = problemCount
    }

    /// The app versions of the memory points, in order of first appearance.
    public var versions: [String] {
        var seen: [String] = []
        for point in memory where !seen.contains(point.version) { seen.append(point.version) }
        return seen
    }

    /// Whether `value` is a perfPowerMetrics response: an object whose `productData` array has an element with
    /// `metricCategories`.
    public static func isPerfPowerMetrics(_ value: JSONValue) -> Bool {
        guard let products = value["productData"]?.elements else { return false }
        return products.contains { $0["metricCategories"] != nil }
    }

    /// Reads a response; what cannot be read is named by its JSON pointer and the rest is read.
    public static func parse(_ value: JSONValue) -> ASCMetrics {
        var result = ASCMetrics(version: value["version"]?.string)
        func problem(_ text: String) {
            result.problemCount += 1
            if result.unreadable.count < maxProblems { result.unreadable.append(text) }
        }
        func describe(_ value: JSONValue?) -> String {
            switch value {
            case nil: "missing"
            case .null?: "null"
            case .string(let text)?: "'\(text.prefix(40))', not a number"
            case .bool?: "a boolean, not a number"
            case .object?: "an object, not a number"
            case .array?: "an array, not a number"
            case .number?: "a number"
            }
        }
        func shape(_ value: JSONValue?) -> String {
            switch value {
            case nil: "missing"
            case .null?: "null"
            case .string?: "a string"
            case .bool?: "a boolean"
            case .object?: "an object"
            case .array?: "an array"
            case .number?: "a number"
            }
        }
        for (p, product) in (value["productData"]?.elements ?? []).enumerated() {
            let platform = product["platform"]?.string
            guard let categories = product["metricCategories"]?.elements else {
                problem("/productData/\(p)/metricCategories is \(shape(product["metricCategories"])), not an array")
                continue
            }
            for (c, category) in categories.enumerated() {
                let here = "/productData/\(p)/metricCategories/\(c)"
                guard let identifier = category["identifier"]?.string else {
                    problem("\(here)/identifier is missing or not text: the category is skipped")
                    continue
                }
                if !result.categories.contains(identifier) { result.categories.append(identifier) }
                guard identifier == "MEMORY" else { continue }
                for (m, metric) in (category["metrics"]?.elements ?? []).enumerated() {
                    let at = "\(here)/metrics/\(m)"
                    guard let name = metric["identifier"]?.string else {
                        problem("\(at)/identifier is missing or not text: the metric is skipped")
                        continue
                    }
                    let unit = metric[path: "unit", "identifier"]?.string
                    let unitName = metric[path: "unit", "displayName"]?.string
                    for (d, dataset) in (metric["datasets"]?.elements ?? []).enumerated() {
                        let criteria = dataset["filterCriteria"]
                        guard let points = dataset["points"]?.elements else {
                            problem("\(at)/datasets/\(d)/points is missing or not an array")
                            continue
                        }
                        for (i, point) in points.enumerated() {
                            let pointer = "\(at)/datasets/\(d)/points/\(i)"
                            guard let version = point["version"]?.string else {
                                problem(
                                    "\(pointer)/version is \(shape(point["version"])), not text: the point is skipped")
                                continue
                            }
                            guard let number = point["value"]?.double, number.isFinite else {
                                let what = point["value"].map { describe($0) } ?? "missing"
                                problem("\(pointer)/value is \(what == "a number" ? "out of range" : what)")
                                continue
                            }
                            guard result.memory.count < maxPoints else {
                                result.droppedPoints += 1
                                continue
                            }
                            result.memory.append(
                                ASCMetricPoint(
                                    platform: platform, category: identifier, metric: name, unit: unit,
                                    unitName: unitName, device: criteria?["device"]?.string,
                                    deviceName: criteria?["deviceMarketingName"]?.string,
                                    percentile: criteria?["percentile"]?.string, version: version, value: number,
                                    errorMargin: point["errorMargin"]?.double, pointer: pointer))
                        }
                    }
                }
            }
        }
        return result
    }
}
