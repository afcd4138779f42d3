/// A 1-based position in a YAML document.
public struct Mark: Sendable, Hashable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// A YAML document as a tree, every node with its position.
public indirect enum YAMLNode: Sendable, Hashable {
    /// `plain` is true for unquoted scalars (so `"10"` stays a string while `10` may be a number).
    case scalar(String, plain: Bool, Mark)
    case sequence([YAMLNode], Mark)
    /// Keys keep their order and their own marks; duplicate keys are kept (the loader reports them).
    case mapping([(key: String, keyMark: Mark, value: YAMLNode)], Mark)

    public var mark: Mark {
        switch self {
        case .scalar(_, _, let m), .sequence(_, let m), .mapping(_, let m): m
        }
    }

    public static func == (lhs: YAMLNode, rhs: YAMLNode) -> Bool {
        switch (lhs, rhs) {
        case (.scalar(let a, let pa, let ma), .scalar(let b, let pb, let mb)): a == b && pa == pb && ma == mb
        case (.sequence(let a, let ma), .sequence(let b, let mb)): a == b && ma == mb
        case (.mapping(let a, let ma), .mapping(let b, let mb)):
            ma == mb && a.count == b.count
                && zip(a, b).allSatisfy { $0.key == $1.key && $0.keyMark == $1.keyMark && $0.value == $1.value }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .scalar(let s, let p, let m):
            hasher.combine(0); hasher.combine(s); hasher.combine(p); hasher.combine(m)
        case .sequence(let items, let m):
            hasher.combine(1); hasher.combine(items); hasher.combine(m)
        case .mapping(let pairs, let m):
            hasher.combine(2); hasher.combine(m)
            for pair in pairs { hasher.combine(pair.key); hasher.combine(pair.value) }
        }
    }
}

/// A YAML syntax error with its position.
public struct YAMLError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var mark: Mark

    public init(message: String, mark: Mark) {
        self.message = message
        self.mark = mark
    }

    public var description: String { "\(mark.line):\(mark.column): \(message)" }
}
