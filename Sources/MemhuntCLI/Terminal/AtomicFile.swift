import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a report goes: stdout (`-`, or no `--output`) or a path written with `AtomicFile`.
public enum OutputDestination: Sendable, Equatable {
    case stdout
    case path(String)

    /// The destination an `--output` value names; nil for the empty string, which names nothing (a usage error).
    public init?(_ value: String?) {
        guard let value else {
            self = .stdout
            return
        }
        if value.isEmpty { return nil }
        self = value == "-" ? .stdout : .path(value)
    }
}

/// A report file replaced all at once: readers see the old contents or the new, never a part.
///
/// What is at the path decides how it is written:
/// - nothing, or a regular file: a temporary file beside it is written, flushed and renamed over it (keeping
///   an existing file's permission bits), and the folder is flushed after the rename. A process killed
///   (SIGKILL) before the rename leaves that hidden `.<name>.memhunt-<pid>-<hex>.tmp` behind and the old
///   file intact; the next write to the path removes it;
/// - a character device (`/dev/stdout`, `/dev/null`, a terminal), a FIFO or a socket: written through, never
///   replaced (before, as root, `-o /dev/null` turned /dev/null into a regular file);
/// - a symbolic link: refused. Writing through it would let whoever planted the link in a shared directory
///   choose the file memhunt (often root in CI) overwrites; replacing it would silently break the link.
///   The error says so; name the target instead;
/// - a directory or a block device: refused.
public enum AtomicFile {
    /// Writes `bytes` to `path` as described above.
    public static func write(_ bytes: [UInt8], to path: String) throws(AtomicFileError) {
        guard !path.isEmpty else { throw AtomicFileError(path: path, code: ENOENT) }
        var info = stat()
        if lstat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFLNK:
                throw AtomicFileError(
                    path: path, code: ELOOP,
                    reason: "it is a symbolic link, which memhunt neither follows nor replaces; name its target")
            case S_IFDIR: throw AtomicFileError(path: path, code: EISDIR)
            case S_IFBLK: throw AtomicFileError(path: path, code: EPERM, reason: "it is a block device")
            default: return try writeThrough(bytes, to: path)
            }
        } else if errno != ENOENT {
            throw AtomicFileError(path: path, code: errno)
        }
        try replace(bytes, at: path, mode: info.st_mode & S_IFMT == S_IFREG ? mode_t(info.st_mode & 0o7777) : nil)
    }

    /// Writes `text` as UTF-8; see `write(_:to:)` for bytes.
    public static func write(_ text: String, to path: String) throws(AtomicFileError) {
        try write(Array(text.utf8), to: path)
    }

    /// The folder of `path` without Foundation's path functions (`NSString.deletingLastPathComponent`
    /// trapped with SIGILL on a one-character path such as `-o a`).
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let directory = slash == path.startIndex ? "/" : String(path[..<slash])
        return (directory, String(path[path.index(after: slash)...]))
    }

    /// The temporary file beside `name` that process `pid` writes: hidden (the folder scans of `run`, `scan`
    /// and `triage` skip dot files, so one left behind is never read as an artifact) and naming its writer,
    /// so that a later write can tell a leftover from a write in progress.
    static func temporaryName(_ name: String, pid: pid_t, random: UInt32) -> String {
        ".\(name).memhunt-\(pid)-\(String(random, radix: 16)).tmp"
    }

    /// Removes the temporary files of earlier writes to `name` whose process is gone. SIGKILL (or a power
    /// cut) between creating the temporary file and renaming it leaves it behind, and no handler can run
    /// then; the next write to the same path sweeps it. A file whose writer still runs (`kill(pid, 0)`
    /// does not fail with ESRCH) is a write in progress and stays. Best effort: errors are ignored.
    static func sweepLeftovers(of name: String, in directory: String) {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        let prefix = ".\(name).memhunt-"
        let own = getpid()
        while let entry = readdir(stream) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard entryName.hasPrefix(prefix), entryName.hasSuffix(".tmp") else { continue }
            let fields = entryName.dropFirst(prefix.count).dropLast(4).split(separator: "-")
            guard fields.count == 2, let pid = pid_t(fields[0]), pid > 0, pid != own,
                UInt32(fields[1], radix: 16) != nil
            else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { unlink(directory + "/" + entryName) }
        }
    }

    private static func replace(_ bytes: [UInt8], at path: String, mode: mode_t?) throws(AtomicFileError) {
        let (directory, name) = split(path)
        let temporary =
            directory + "/" + temporaryName(name, pid: getpid(), random: UInt32.random(in: .min ... .max))
        let fileDescriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard fileDescriptor >= 0 else { throw AtomicFileError(path: path, code: errno) }
        func fail() -> AtomicFileError {
            let error = AtomicFileError(path: path, code: errno)
            close(fileDescriptor)
            unlink(temporary)
            return error
        }
        if let mode, fchmod(fileDescriptor, mode) != 0 { throw fail() }
        guard writeAll(bytes, to: fileDescriptor), fsync(fileDescriptor) == 0 else { throw fail() }
        close(fileDescriptor)
        guard rename(temporary, path) == 0 else {
            let error = AtomicFileError(path: path, code: errno)
            unlink(temporary)
            throw error
        }
        syncDirectory(directory)
        sweepLeftovers(of: name, in: directory)
    }

    /// Flushes the folder's entry for the rename, so that after a power loss the path holds the old file or
    /// the new one (the file's own bytes were flushed before the rename). Best effort: a file system that
    /// cannot sync a folder (some network ones) has already renamed, which is what a killed process needs.
    private static func syncDirectory(_ directory: String) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// A device, FIFO or socket: opened (never created, never followed) and written in place.
    private static func writeThrough(_ bytes: [UInt8], to path: String) throws(AtomicFileError) {
        let fileDescriptor = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fileDescriptor >= 0 else { throw AtomicFileError(path: path, code: errno) }
        defer { close(fileDescriptor) }
        guard writeAll(bytes, to: fileDescriptor) else { throw AtomicFileError(path: path, code: errno) }
    }

    private static func writeAll(_ bytes: [UInt8], to fileDescriptor: Int32) -> Bool {
        var rest = bytes[...]
        while !rest.isEmpty {
            let written = rest.withUnsafeBytes { Foundation.write(fileDescriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            rest = rest.dropFirst(written)
        }
        return true
    }
}

/// A file that could not be written, naming it and the reason.
public struct AtomicFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path that was to be written.
    public var path: String
    /// The `errno` value.
    public var code: Int32
    /// memhunt's own reason, when it refused rather than the system.
    public var reason: String?

    /// Creates an error for `path` with `errno` value `code`.
    public init(path: String, code: Int32, reason: String? = nil) {
        self.path = path
        self.code = code
        self.reason = reason
    }

    /// `Could not write '<path>': <reason or strerror>`.
    public var description: String { "Could not write '\(path)': \(reason ?? String(cString: strerror(code)))" }
}
