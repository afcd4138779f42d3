import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file replaced all at once: readers see the old contents or the new, never a part.
public enum AtomicFile {
    /// Writes `bytes` to a temporary file beside `path`, flushes it to disk, then renames it over `path`.
    public static func write(_ bytes: [UInt8], to path: String) throws(AtomicFileError) {
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (directory.isEmpty ? "" : directory + "/") + ".\(name).\(UInt32.random(in: .min ... .max)).tmp"
        let fileDescriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o666)
        guard fileDescriptor >= 0 else { throw AtomicFileError(path: path, code: errno) }
        func fail() -> AtomicFileError {
            let error = AtomicFileError(path: path, code: errno)
            close(fileDescriptor)
            unlink(temporary)
            return error
        }
        var rest = bytes[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { Foundation.write(fileDescriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw fail() }
            rest = rest.dropFirst(written)
        }
        guard fsync(fileDescriptor) == 0 else { throw fail() }
        close(fileDescriptor)
        guard rename(temporary, path) == 0 else {
            let error = AtomicFileError(path: path, code: errno)
            unlink(temporary)
            throw error
        }
    }

    /// Writes `text` as UTF-8; see `write(_:to:)` for bytes.
    public static func write(_ text: String, to path: String) throws(AtomicFileError) {
        try write(Array(text.utf8), to: path)
    }
}

/// A file that could not be written, naming it and the system's reason.
public struct AtomicFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path that was to be written.
    public var path: String
    /// The `errno` value.
    public var code: Int32

    /// Creates an error for `path` with `errno` value `code`.
    public init(path: String, code: Int32) {
        self.path = path
        self.code = code
    }

    /// `Could not write '<path>': <strerror>`.
    public var description: String { "Could not write '\(path)': \(String(cString: strerror(code)))" }
}
