/// How much a finding matters. Ordered: info < notice < warning < critical.
public enum Severity: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    case info, notice, warning, critical

    private var rank: Int {
        switch self {
        case .info: 0
        case .notice: 1
        case .warning: 2
        case .critical: 3
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}
