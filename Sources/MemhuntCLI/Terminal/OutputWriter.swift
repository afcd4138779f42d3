import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A serialized text sink for stdout, stderr or memory: concurrent writers never interleave within one `write`.
public final class OutputWriter: TextOutputStream, @unchecked Sendable {
    /// The process's standard output.
    public static let standardOutput = OutputWriter(fileDescriptor: STDOUT_FILENO)
    /// The process's standard error.
    public static let standardError = OutputWriter(fileDescriptor: STDERR_FILENO)

    private let lock = NSLock()
    private let fileDescriptor: Int32?
    private var buffer = ""
    private var failedErrno: Int32?

    /// A writer to an open file descriptor. The first write error (a full disk, a closed pipe) is kept in
    /// `failure` and nothing more is written: the exit status is decided from it once, in `Memhunt.main`.
    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// A writer that keeps everything in memory, for tests and in-process runs.
    public init() {
        fileDescriptor = nil
    }

    /// Whether the writer goes to a terminal.
    public var isTTY: Bool { fileDescriptor.map(TerminalCapabilities.isTTY) ?? false }

    /// The columns of the terminal the writer goes to (`TIOCGWINSZ`), nil when it goes to none.
    public var terminalColumns: Int? { fileDescriptor.flatMap(TerminalCapabilities.terminalColumns) }

    /// Everything written so far to an in-memory writer.
    public var captured: String { lock.withLock { buffer } }

    /// Why a write failed (the system's words for the first error), or nil when every write went through.
    public var failure: String? {
        lock.withLock { failedErrno.map { String(cString: strerror($0)) } }
    }

    /// Writes `text` in one piece. After a failed write nothing more is written (a report cut short is not
    /// continued further on).
    public func write(_ text: String) {
        lock.withLock {
            guard let fileDescriptor else { return buffer += text }
            guard failedErrno == nil else { return }
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { Foundation.write(fileDescriptor, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    failedErrno = written < 0 ? errno : EIO
                    return
                }
                bytes = bytes.dropFirst(written)
            }
        }
    }
}
