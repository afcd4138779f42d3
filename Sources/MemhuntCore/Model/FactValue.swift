/// A fact's value: the JSON subset the findings document carries.
public enum FactValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case int(Int)
    case double(Double)
    case string(String)
    case bool(Bool)
    case array([FactValue])
    case object([String: FactValue])

    /// Numbers compare by value, as JSON has one number type: `.int(725) == .double(725)`.
    public static func == (lhs: FactValue, rhs: FactValue) -> Bool {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): a == b
        case (.int, .double), (.double, .int), (.double, .double): lhs.doubleValue == rhs.doubleValue
        case (.string(let a), .string(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .int, .double: hasher.combine(doubleValue)
        case .string(let v): hasher.combine(v)
        case .bool(let v): hasher.combine(v)
        case .array(let v): hasher.combine(v)
        case .object(let v): hasher.combine(v)
        }
    }

    /// Megabytes (1,048,576 bytes) rounded to one decimal, the unit of every `…MB` fact.
    public static func megabytes(bytes: Double) -> FactValue {
        .double(((bytes / 1_048_576) * 10).rounded() / 10)
    }

    /// Rounded to one decimal.
    public static func oneDecimal(_ value: Double) -> FactValue {
        .double((value * 10).rounded() / 10)
    }

    public var intValue: Int? {
        switch self {
        case .int(let v): v
        case .double(let v) where v == v.rounded() && abs(v) < 9e15: Int(v)
        default: nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .int(let v): Double(v)
        case .double(let v): v
        default: nil
        }
    }

    public var stringValue: String? {
        if case .string(let v) = self { return v }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let v) = self { return v }
        return nil
    }

    public var arrayValue: [FactValue]? {
        if case .array(let v) = self { return v }
        return nil
    }

    public var objectValue: [String: FactValue]? {
        if case .object(let v) = self { return v }
        return nil
    }

    /// Human text: integers with grouping (15,734,833), doubles with at most one decimal.
    public var description: String {
        switch self {
        case .int(let v): return Self.grouped(v)
        case .double(let v):
            guard v.isFinite, abs(v) < 9e14 else { return String(v) }  // absurd input: say it as it is
            if v == v.rounded() { return Self.grouped(Int(v)) }
            let tenths = Int((abs(v) * 10).rounded())
            return (v < 0 ? "-" : "") + Self.grouped(tenths / 10) + "." + String(tenths % 10)
        case .string(let v): return v
        case .bool(let v): return v ? "true" : "false"
        case .array(let v): return "[" + v.map(\.description).joined(separator: ", ") + "]"
        case .object(let v):
            return "{" + v.keys.sorted().map { "\($0): \(v[$0]!.description)" }.joined(separator: ", ") + "}"
        }
    }

    /// 15734833 → "15,734,833".
    public static func grouped(_ value: Int) -> String { grouped(integer: value) }

    /// A counter as the record wrote it, `UInt64.max` included: 18446744073709551615 → "18,446,744,073,709,551,615".
    public static func grouped(_ value: UInt64) -> String { grouped(integer: value) }

    private static func grouped(integer value: some BinaryInteger) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return value < 0 ? "-" + out : out
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let v = try? c.decode(Bool.self) {
            self = .bool(v)
        } else if let v = try? c.decode(Int.self) {
            self = .int(v)
        } else if let v = try? c.decode(Double.self) {
            self = .double(v)
        } else if let v = try? c.decode(String.self) {
            self = .string(v)
        } else if let v = try? c.decode([FactValue].self) {
            self = .array(v)
        } else {
            self = .object(try c.decode([String: FactValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .int(let v): try c.encode(v)
        case .double(let v): try c.encode(v)
        case .string(let v): try c.encode(v)
        case .bool(let v): try c.encode(v)
        case .array(let v): try c.encode(v)
        case .object(let v): try c.encode(v)
        }
    }
}

extension FactValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByBooleanLiteral
{
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension FactValue: ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(arrayLiteral elements: FactValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, FactValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension Int {
    /// `value` rounded, clamped to `Int`'s range (NaN is 0). Numbers derived from input can be absurd
    /// (a measured footprint of 10^30 MB), and `Int(Double)` traps on those.
    public init(saturating value: Double) {
        let rounded = value.rounded()
        if rounded.isNaN {
            self = 0
        } else if rounded >= 9.2e18 {
            self = .max
        } else if rounded <= -9.2e18 {
            self = .min
        } else {
            self = Int(rounded)
        }
    }
}

/// Facts recorded by checks, keyed by dotted names such as `jetsam.app.peakMB`.
public typealias Facts = [String: FactValue]

extension Double {
    /// "725 MB" / "1055.5 MB" from a byte count (MB = 1,048,576 bytes, one decimal).
    public var megabytesText: String { FactUnit.megabytes.format(.megabytes(bytes: self)) }
    /// Bytes said in MB, or in bytes where one decimal of MB would round them to 0 ("4 leaks for 0 MB" was said of 160
    /// bytes).
    public var sizeText: String {
        self > 0 && self < 0.05 * 1_048_576 ? FactValue.grouped(Int(self)) + " bytes" : megabytesText
    }
}
