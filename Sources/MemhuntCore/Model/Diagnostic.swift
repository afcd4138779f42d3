/// A place in a file: 1-based line and column.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}

/// A located problem, rendered `file:line:col: error: message`.
public struct Diagnostic: Sendable, Hashable, Error, CustomStringConvertible {
    public enum Level: String, Sendable, Hashable { case error, warning, note }

    public var level: Level
    public var message: String
    public var location: SourceLocation?

    public init(_ level: Level, _ message: String, at location: SourceLocation? = nil) {
        self.level = level
        self.message = message
        self.location = location
    }

    public var description: String {
        if let location { return "\(location): \(level.rawValue): \(message)" }
        return "\(level.rawValue): \(message)"
    }
}
