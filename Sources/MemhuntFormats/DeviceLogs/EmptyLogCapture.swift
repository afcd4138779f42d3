/// A `log stream` / `log show` capture whose predicate matched nothing: only the tool's own lines (the
/// "Filtering the log data using …" banner, the column header, the closing separator and counts). That is
/// a change log with zero evaluations — seed 003's silence during a freeze — not an unknown file.
public enum EmptyLogCapture {
    /// The change-log summary of such a capture (zero evaluations), or nil when any line is something else
    /// or no column header is present.
    public static func read(_ bytes: [UInt8]) -> ChangeLogSummary? {
        guard bytes.count <= 65_536, !bytes.contains(0) else { return nil }
        // Split as bytes: by `Character`, `\r\n` is neither "\n" nor "\r", and a CRLF capture was one line.
        let lines = bytes.split(whereSeparator: { $0 == 10 || $0 == 13 })
            .map { String(decoding: $0, as: UTF8.self).trimmingSpaces }.filter { !$0.isEmpty }
        var header = false
        for line in lines {
            if isColumnHeader(line) {
                header = true
            } else if !isToolLine(line) {
                return nil
            }
        }
        return header ? ChangeLogSummary(lines: lines.count) : nil
    }

    /// `Timestamp  Thread  Type  Activity  PID  TTL` (default and syslog-like styles) or
    /// `Timestamp  Ty Process[PID:TID]` (`--style compact`).
    static func isColumnHeader(_ line: String) -> Bool {
        guard line.hasPrefix("Timestamp ") else { return false }
        let words = line.split(separator: " ")
        return (words.contains("Thread") && words.contains("Type")) || words.contains("Process[PID:TID]")
    }

    /// The lines `log` prints around the entries.
    static func isToolLine(_ line: String) -> Bool {
        line.hasPrefix("Filtering the log data using") || line.hasPrefix("Skipping info and debug messages")
            || line.allSatisfy { $0 == "-" } || line.hasPrefix("Log      - Default:")
            || line.hasPrefix("Log - Default:")
            || line.hasPrefix("Activity - Create:") || line.hasPrefix("Skipping")
    }
}
