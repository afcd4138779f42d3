import Foundation
import MemhuntCore

/// The walk's progress on stderr. On a terminal: one line rewritten in place (`\r`, then erase to the end of
/// the line), at most ten times a second, erased by `finish()` before the report is written, so it never
/// mixes with the report. Off a terminal: nothing, unless `log` asks for each step's line as it finishes
/// (`-v`), which then stays.
final class Progress: @unchecked Sendable {
    /// Where to draw, and how.
    enum Mode {
        /// Print nothing.
        case off
        /// One line on a terminal, rewritten in place.
        case line
        /// One line per finished step, kept.
        case log
    }

    /// The least time between two drawings of the line.
    static let interval: TimeInterval = 0.1

    private let writer: OutputWriter
    private let mode: Mode
    private let width: Int
    private let clock: @Sendable () -> TimeInterval
    private let lock = NSLock()
    private var lastDrawn: TimeInterval?
    private var shown = false

    /// `width`: the terminal's columns; the line is cut to one less so that it never wraps.
    init(
        _ writer: OutputWriter, mode: Mode, width: Int,
        clock: @escaping @Sendable () -> TimeInterval = { ProcessInfo.processInfo.systemUptime }
    ) {
        self.writer = writer
        self.mode = mode
        self.width = width
        self.clock = clock
    }

    /// What a run's console asks for: the line on a terminal stderr, the log with `-v`, nothing with `-q`.
    static func mode(for console: Console) -> Mode {
        switch console.detail {
        case .quiet: .off
        case .verbose: .log
        case .normal: console.stderr.isTTY ? .line : .off
        }
    }

    /// `text` as the current state: drawn when the last drawing is at least `interval` old.
    func update(_ text: String) {
        guard mode == .line else { return }
        lock.withLock {
            let now = clock()
            if let lastDrawn, now - lastDrawn < Self.interval { return }
            lastDrawn = now
            shown = true
            writer.write("\r\u{1B}[K" + String(TerminalText.escaped(text).prefix(max(width - 1, 1))))
        }
    }

    /// A finished step: kept as its own line in `log` mode.
    func log(_ text: String) {
        guard mode == .log else { return }
        writer.write(TerminalText.escaped(text) + "\n")
    }

    /// Erases the line, if one is shown.
    func finish() {
        lock.withLock {
            guard shown else { return }
            shown = false
            writer.write("\r\u{1B}[K")
        }
    }
}
