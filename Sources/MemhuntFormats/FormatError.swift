/// Why bytes could not be read as the format they claim to be.
///
/// `line` is 1-based and `offset` is a byte offset from the start of the file; both are
/// optional because not every failure has a place.
public struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var line: Int?
    public var offset: Int?

    public init(_ message: String, line: Int? = nil, offset: Int? = nil) {
        self.message = message
        self.line = line
        self.offset = offset
    }

    /// A value of the file as a message quotes it: between `'`, cut at 64 characters with `…`, so that a 1 MB
    /// word in a field makes a short diagnostic, not a 1 MB one in every report.
    public static func quoted(_ text: some StringProtocol) -> String {
        text.count > 64 ? "'" + text.prefix(64) + "…'" : "'" + text + "'"
    }

    public var description: String {
        if let line { return "line \(line): \(message)" }
        if let offset { return "byte \(offset): \(message)" }
        return message
    }
}
