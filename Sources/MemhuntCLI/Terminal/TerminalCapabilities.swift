#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a terminal stream supports, decided once at startup from injected facts.
public enum TerminalCapabilities {
    /// Whether to color a stream: never when `NO_COLOR` is set and non-empty or `TERM` is `dumb`, else only on a TTY.
    public static func colorEnabled(isTTY: Bool, environment: [String: String]) -> Bool {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if environment["TERM"] == "dumb" { return false }
        return isTTY
    }

    /// Whether the file descriptor is a terminal.
    public static func isTTY(_ fileDescriptor: Int32) -> Bool {
        isatty(fileDescriptor) != 0
    }

    /// Whether standard output is a terminal.
    public static var stdoutIsTTY: Bool { isTTY(STDOUT_FILENO) }

    /// Whether standard error is a terminal.
    public static var stderrIsTTY: Bool { isTTY(STDERR_FILENO) }

    /// The screen width for wrapping help: `COLUMNS` when it is a positive number, else 80.
    public static func columns(environment: [String: String]) -> Int {
        columns(terminal: nil, environment: environment, fallback: 80)
    }

    /// The width to wrap to: the terminal's (`terminal`, from `TIOCGWINSZ`), then `COLUMNS` when it is a
    /// positive number, else `fallback` (100 for reports, 80 for help).
    public static func columns(terminal: Int?, environment: [String: String], fallback: Int) -> Int {
        terminal ?? environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? fallback
    }

    /// The columns of the terminal on `fileDescriptor` (`TIOCGWINSZ`); nil when it is no terminal or says 0.
    public static func terminalColumns(_ fileDescriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
