import Dispatch
import Foundation
import MemhuntHTTP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The per-run download cache: `<TMPDIR>/memhunt-run-<pid>-<uuid>`, mode 0700 (files 0600), removed when the
/// run ends, on SIGINT and SIGTERM (then memhunt exits 130 or 143), and by the next run that downloads if this
/// one crashed: creating a cache in the temporary directory sweeps the caches there of pids no longer alive.
public final class RunCache: Sendable {
    /// The directory; it exists only once `create()` succeeded.
    public let path: String
    private let created = Locked(false)
    /// The temporary directory whose stale caches `create()` sweeps; nil for a cache at a given path.
    private let sweptDirectory: String?

    static let prefix = "memhunt-run-"
    private static let live = Locked<Set<String>>([])

    /// A cache path in `temporaryDirectory` (default: `NSTemporaryDirectory()`); nothing is created yet.
    public init(temporaryDirectory: String = NSTemporaryDirectory()) {
        let parent = temporaryDirectory.hasSuffix("/") ? temporaryDirectory : temporaryDirectory + "/"
        path = parent + Self.prefix + "\(getpid())-" + UUID().uuidString
        sweptDirectory = temporaryDirectory
    }

    /// A cache at a given path (a test's directory); `create()` accepts it if it already exists.
    public init(path: String) {
        self.path = path
        sweptDirectory = nil
    }

    /// Creates the directory (0700) if it is not there yet; its parent must exist (a missing TMPDIR is not created: it
    /// would be left behind). Returns why it could not, or nil. The first creation in the temporary directory sweeps
    /// the stale caches there: only a run that uses the cache (a download, standard input) pays for reading the
    /// directory (the kernel's readdir of a shared /tmp of thousands of entries is a noticeable share of a short run).
    public func create() -> String? {
        var first = false
        let problem = created.withLock { done -> String? in
            if done { return nil }
            Self.installSignalHandlers()
            Self.live.withLock { _ = $0.insert(path) }
            guard mkdir(path, 0o700) == 0 || (errno == EEXIST && LocalArtifacts.isDirectory(path)) else {
                let why = String(cString: strerror(errno))
                Self.live.withLock { _ = $0.remove(path) }
                return "cannot create the download cache in \((path as NSString).deletingLastPathComponent): \(why)"
            }
            done = true
            first = true
            return nil
        }
        if first, let directory = sweptDirectory { Self.sweepStale(in: directory) }
        return problem
    }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
        Self.live.withLock { _ = $0.remove(path) }
    }

    /// Removes `memhunt-run-<pid>-…` directories in `temporaryDirectory` whose pid is not a running process.
    static func sweepStale(in temporaryDirectory: String) {
        // readdir and a byte prefix test: `FileManager.contentsOfDirectory` made a String of every name, which in a
        // shared /tmp of thousands of entries was a noticeable share of a JetsamEvent run.
        guard let stream = opendir(temporaryDirectory) else { return }
        var names: [String] = []
        let wanted = Array(prefix.utf8)
        while let entry = readdir(stream) {
            let matches = withUnsafeBytes(of: &entry.pointee.d_name) { name in
                name.count > wanted.count && name.starts(with: wanted)
            }
            if matches {
                names.append(
                    withUnsafePointer(to: &entry.pointee.d_name) {
                        $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name))
                        {
                            String(cString: $0)
                        }
                    })
            }
        }
        closedir(stream)
        for name in names.sorted() where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]), pid > 0,
                pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            let path = (temporaryDirectory as NSString).appendingPathComponent(name)
            // Only directories this user owns (another user's cache is theirs to remove).
            var info = FileStatus()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() else { continue }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    private static let signalSources = Locked<[DispatchSourceSignal]>([])

    /// On SIGINT or SIGTERM: remove every live cache, then exit 128 + signal, as the shell reports a death by it.
    private static func installSignalHandlers() {
        signalSources.withLock { sources in
            guard sources.isEmpty else { return }
            for signalNumber in [SIGINT, SIGTERM] {
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler {
                    for path in live.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
                    exit(128 + signalNumber)
                }
                source.resume()
                sources.append(source)
            }
        }
    }
}
