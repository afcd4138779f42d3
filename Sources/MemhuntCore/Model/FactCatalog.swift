/// The unit of a fact: how renderers print it, and what a consumer of the findings document may assume.
public enum FactUnit: String, Sendable, Hashable, Codable, CaseIterable {
    /// Megabytes of 1,048,576 bytes, one decimal: printed `725 MB`.
    case megabytes = "MB"
    /// A byte count: printed `1,234 bytes`.
    case bytes
    /// A count of memory pages (the record's page size tells bytes): printed `1,234 pages`.
    case pages
    /// A count of things (processes, layers, evaluations): printed `3,573`.
    case count
    /// One quantity divided by another: printed `13.6` (the finding texts write `×13.6`).
    case ratio
    /// A percentage, 0–100: printed `57 %`.
    case percent
    /// A name, a kind, a state: printed as it is.
    case text
    /// A yes-or-no answer: printed `true` or `false`.
    case flag
    /// A list of values: printed `[a, b]`.
    case list
    /// A map from names to values: printed `{a: 1, b: 2}`.
    case map
    /// A number whose unit nobody declared (an external check's fact without `unit`): printed as it is.
    case number

    /// `value` with this unit, as every renderer prints it.
    public func format(_ value: FactValue) -> String {
        switch self {
        case .megabytes: value.doubleValue == nil ? value.description : value.description + " MB"
        case .bytes: value.doubleValue == nil ? value.description : value.description + " bytes"
        case .pages: value.doubleValue == nil ? value.description : value.description + " pages"
        case .percent: value.doubleValue == nil ? value.description : value.description + " %"
        case .count, .ratio, .text, .flag, .list, .map, .number: value.description
        }
    }
}

/// One fact a check may record: its key, unit and meaning. The catalog of all of them drives
/// `memhunt checks`, the README's fact table and the renderers' units.
public struct FactDescription: Sendable, Hashable, Codable {
    /// Dotted key (`jetsam.app.peakMB`).
    public var key: String
    public var unit: FactUnit
    /// What the number is, in one sentence.
    public var meaning: String

    public init(_ key: String, _ unit: FactUnit, _ meaning: String) {
        self.key = key
        self.unit = unit
        self.meaning = meaning
    }
}

/// One kind of finding a check may emit: its stable code, default severity and meaning.
public struct FindingCode: Sendable, Hashable, Codable {
    /// `check-id.what` in kebab case, never a number (`jetsam-rank.dominant`).
    public var code: String
    /// The severity it is emitted with unless the evidence says otherwise (a kill reason can raise it).
    public var severity: Severity
    /// What it means, in one line.
    public var meaning: String

    public init(_ code: String, _ severity: Severity, _ meaning: String) {
        self.code = code
        self.severity = severity
        self.meaning = meaning
    }
}
