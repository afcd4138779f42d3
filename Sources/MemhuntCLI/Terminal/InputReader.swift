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

    /// One line without its end (`\n`, `\r\n`), or nil at end of input. Lines longer than 64 KiB are cut.
    public func readLine() -> String? {
        lock.withLock {
            while true {
                if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    var line = Array(pending[..<newline])
                    pending.removeSubrange(...newline)
                    if line.last == UInt8(ascii: "\r") { line.removeLast() }
                    return String(decoding: line.prefix(1 << 16), as: UTF8.self)
                }
                if ended {
                    guard !pending.isEmpty else { return nil }
                    defer { pending = [] }
                    return String(decoding: pending.prefix(1 << 16), as: UTF8.self)
                }
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

    /// Copies everything up to end of input into `path` (created 0600), at most `limit` bytes.
    /// Returns the number of bytes, or nil when the input was larger than `limit` or the file failed.
    public func copy(to path: String, limit: Int) -> Int? {
        let out = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard out >= 0 else { return nil }
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
        return lock.withLock { () -> Int? in
            guard let fileDescriptor else {
                defer { bytes = [] }
                guard bytes.count <= limit, bytes.withUnsafeBytes(put) else { return nil }
                return bytes.count
            }
            var total = 0
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n < 0 { return nil }
                if n == 0 { return total }
                total += n
                guard total <= limit, chunk.withUnsafeBytes({ put(UnsafeRawBufferPointer(rebasing: $0[..<n])) })
                else { return nil }
            }
        }
    }
}
