import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard input, or bytes given in memory (tests and in-process runs): what `-` reads.
public final class InputReader: @unchecked Sendable {
    /// The process's standard input.
    public static let standardInput = InputReader(fileDescriptor: STDIN_FILENO)

    private let lock = NSLock()
    private let fileDescriptor: Int32?
    private var bytes: [UInt8]
    /// Bytes read past the last line returned by `readLine()`.
    private var pending: [UInt8] = []
    private var ended = false

    /// A reader of an open file descriptor.
    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        bytes = []
    }

    /// A reader of these bytes.
    public init(bytes: [UInt8]) {
        fileDescriptor = nil
        self.bytes = bytes
    }

    /// Whether the reader is a terminal (a person typing, not a pipe).
    public var isTTY: Bool { fileDescriptor.map(TerminalCapabilities.isTTY) ?? false }

    /// One line without its end (`\n`, `\r\n`), or nil at end of input. Lines longer than `maxLength` bytes
    /// (64 KiB unless told) are cut.
    public func readLine(maxLength: Int = 1 << 16) -> String? {
        lock.withLock {
            // Where the search for the line's end goes on: each byte is looked at once (a 16 MB message came in
            // 4,096 chunks).
            var searched = 0
            while true {
                if let newline = pending[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                    var line = Array(pending[..<newline])
                    pending.removeSubrange(...newline)
                    if line.last == UInt8(ascii: "\r") { line.removeLast() }
                    return String(decoding: line.prefix(maxLength), as: UTF8.self)
                }
                if ended {
                    guard !pending.isEmpty else { return nil }
                    defer { pending = [] }
                    return String(decoding: pending.prefix(maxLength), as: UTF8.self)
                }
                searched = pending.count
                guard let fileDescriptor else {
                    pending += bytes
                    bytes = []
                    ended = true
                    continue
                }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 {
                    ended = true
                    continue
                }
                pending += chunk[..<n]
            }
        }
    }

    /// Reads everything up to end of input, at most `limit` bytes; nil when there is more than that.
    public func readAll(limit: Int) -> [UInt8]? {
        lock.withLock {
            guard let fileDescriptor else {
                defer { bytes = [] }
                return bytes.count <= limit ? bytes : nil
            }
            var out: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return out }
                out += chunk[..<n]
                if out.count > limit { return nil }
            }
        }
    }

    /// Why `copy(to:limit:)` stopped; each description is one sentence about standard input.
    public enum CopyFailure: Error, Equatable, CustomStringConvertible {
        /// The input had more than `limit` bytes.
        case tooLarge(limit: Int)
        /// Reading the input failed (the system's words).
        case unreadable(String)
        /// The file it was copied into could not be created or written (the system's words).
        case uncopied(String)

        public var description: String {
            switch self {
            case .tooLarge(let limit): "standard input is larger than the \(limit >> 20) MB limit"
            case .unreadable(let why): "standard input could not be read: \(why)"
            case .uncopied(let why): "standard input could not be copied into the run's cache: \(why)"
            }
        }
    }

    /// Copies everything up to end of input into `path` (created 0600), at most `limit` bytes: the number of
    /// bytes, or why it stopped.
    public func copy(to path: String, limit: Int) -> Result<Int, CopyFailure> {
        func systemError() -> String { String(cString: strerror(errno)) }
        let out = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard out >= 0 else { return .failure(.uncopied(systemError())) }
        defer { close(out) }
        func put(_ data: UnsafeRawBufferPointer) -> Bool {
            var rest = data
            while !rest.isEmpty {
                let n = write(out, rest.baseAddress, rest.count)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                rest = UnsafeRawBufferPointer(rebasing: rest[n...])
            }
            return true
        }
        return lock.withLock { () -> Result<Int, CopyFailure> in
            guard let fileDescriptor else {
                defer { bytes = [] }
                guard bytes.count <= limit else { return .failure(.tooLarge(limit: limit)) }
                guard bytes.withUnsafeBytes(put) else { return .failure(.uncopied(systemError())) }
                return .success(bytes.count)
            }
            var total = 0
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n < 0 { return .failure(.unreadable(systemError())) }
                if n == 0 { return .success(total) }
                total += n
                guard total <= limit else { return .failure(.tooLarge(limit: limit)) }
                guard chunk.withUnsafeBytes({ put(UnsafeRawBufferPointer(rebasing: $0[..<n])) }) else {
                    return .failure(.uncopied(systemError()))
                }
            }
        }
    }
}
