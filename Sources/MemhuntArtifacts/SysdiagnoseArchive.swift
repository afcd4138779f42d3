import CZlib
import MemhuntBasics
import MemhuntCore
import MemhuntFormats

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A sysdiagnose archive (`sysdiagnose_*.tar.gz`, or a plain `.tar`) read as one stream: the file is read
/// 256 KiB at a time, inflated by zlib into a 256 KiB window and handed to `SysdiagnoseWalk` (MemhuntFormats),
/// which routes each member by its place. Nothing is written to disk. A member memhunt reads is held whole (up
/// to the document limit) and read like a file given alone; its artifact is named `ARCHIVE!/path/inside`, with
/// the sha256 and size of the member's bytes.
///
/// The artifacts are the archive's own (kind `sysdiagnose`, the counts of what it held, and why its rest was not
/// read, if it was not), then one per member read, named or refused, then one per `.logarchive` bundle.
///
/// Memory: the two windows, zlib's 32 KiB inflate state, and the member being collected (at most
/// `ArchiveLimits.documentBytes`).
public enum SysdiagnoseArchive {
    /// Whether `head` (a file's first bytes, at least 512 for a plain tar) starts a gzip stream or a tar archive.
    public static func isArchive(head: [UInt8]) -> Bool {
        isGzip(head) || isTar(head)
    }

    static func isGzip(_ head: [UInt8]) -> Bool { head.count >= 2 && head[0] == 0x1F && head[1] == 0x8B }

    /// A ustar magic (POSIX `ustar\0` or GNU `ustar `) at offset 257 of the first header.
    static func isTar(_ head: [UInt8]) -> Bool {
        head.count >= 263 && head[257..<262].elementsEqual("ustar".utf8) && (head[262] == 0 || head[262] == 0x20)
    }

    /// Whether the regular file at `path` is an archive, from its first 512 bytes (false when it cannot be read).
    public static func isArchive(path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 512)
        let count = head.withUnsafeMutableBytes { LocalArtifacts.fill(fd, $0) ?? 0 }
        return isArchive(head: Array(head[..<count]))
    }

    /// The artifacts of the archive at `path`; `source` names it in every artifact (default: `path`). Never
    /// throws: a broken or over-limit archive is an error of its own artifact, after the members read before it.
    public static func read(path: String, source: String? = nil, limits: ArchiveLimits = .standard) -> [Artifact] {
        let source = source ?? path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            return [Artifact(source: source, status: .error, error: "cannot be read: \(LocalArtifacts.reason(errno))")]
        }
        defer { close(fd) }
        let collector = MemberCollector(prefix: source + "!/", documentLimit: limits.documentBytes)
        var walk = SysdiagnoseWalk(limits: limits)
        let file = FileWindow(fd: fd)
        var problem: String?
        var cutAt: Int?
        var gzip = false
        var damaged = false
        if let count = file.next() {
            gzip = isGzip(Array(file.buffer[..<min(count, 2)]))
            if gzip {
                problem = inflate(
                    file, first: count, walk: &walk, collector: collector, cutAt: &cutAt, damaged: &damaged)
            } else {
                // A plain tar: the file's bytes are the stream.
                var count = count
                while count > 0, walk.wantsMore {
                    walk.feed(UnsafeRawBufferPointer(rebasing: file.buffer[..<count])) { collector.handle($0) }
                    guard walk.wantsMore else { break }
                    guard let more = file.next() else {
                        problem = "read failed: \(LocalArtifacts.reason(errno))"
                        break
                    }
                    count = more
                }
            }
        } else {
            problem = "read failed: \(LocalArtifacts.reason(errno))"
        }
        if let problem { walk.fail(FormatError(problem)) { collector.handle($0) } }
        var summary = walk.finish { collector.handle($0) }
        // A problem met after the tar's end (the gzip check) is the archive's too.
        if let problem, summary.failure == nil { summary.failure = FormatError(problem) }
        if gzip, summary.members == 0, summary.expandedBytes <= 512, summary.failure != nil, cutAt == nil {
            summary.failure = FormatError(
                "a gzip stream that holds no tar archive: memhunt reads sysdiagnose archives (.tar.gz); "
                    + "decompress a single file with gunzip and give it")
        }
        if let cutAt {
            // The tar stream's own words name the member cut, when one was; the gzip stream's end is said after.
            let gzip = "the gzip stream is cut short: the file ends at byte \(ArchiveSummary.grouped(cutAt))"
            summary.failure = FormatError(summary.failure.map { $0.message + "; " + gzip } ?? gzip)
        }
        var archive = Artifact(
            source: source, localPath: path, kind: .sysdiagnose,
            size: LocalArtifacts.regularFileSize(path) ?? file.total,
            status: .ok, content: .archive(summary))
        // The rest of the file (after the tar's end, or where a limit stopped the walk) is read only to be hashed:
        // the digest is always of the whole file, or none when it could not be read to its end.
        while !file.atEnd, let count = file.next(), count > 0 {}
        if file.atEnd { archive.sha256 = file.hasher.finalizeHex() }
        if let failure = summary.failure {
            archive.status = .error
            archive.error = failure.description
        } else if summary.overLimit > 0 {
            // Not all of it was read: never called whole.
            archive.status = .error
            archive.error =
                "\(ArchiveSummary.grouped(summary.overLimit)) members not read: the members read already met memhunt's "
                + "limit for one archive (\(ArchiveSummary.grouped(limits.documents)) members, "
                + "\(ArchiveSummary.grouped(limits.documentTotalBytes)) bytes)"
        }
        let bundles = summary.logArchives.map { bundle in
            let name = bundle.path.split(separator: "/").last.map(String.init) ?? bundle.path
            return Artifact(
                source: source + "!/" + bundle.path, kind: .logArchive, size: bundle.bytes, status: .error,
                error: LocalArtifacts.logArchiveReason(name, files: bundle.members))
        }
        var members = collector.artifacts
        if damaged {
            for index in members.indices where members[index].sha256 != nil {
                members[index].status = .error
                members[index].content = nil
                members[index].error =
                    "the archive's gzip check failed (\(summary.failure?.message ?? "")): these bytes may not be the "
                    + "member's, so they are not read"
            }
        }
        return [archive] + members + bundles
    }

    /// Inflates the gzip stream (or several, concatenated, as `gzip` writes them) from `file`, whose first `first`
    /// bytes are in its buffer, into `walk` until the walk wants no more or the file ends. Why it stopped early,
    /// or nil.
    private static func inflate(
        _ file: FileWindow, first: Int, walk: inout SysdiagnoseWalk, collector: MemberCollector, cutAt: inout Int?,
        damaged: inout Bool
    ) -> String? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return "zlib could not start inflating"
        }
        defer { inflateEnd(&stream) }
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: FileWindow.size, alignment: 16)
        defer { output.deallocate() }
        let start = file.buffer.baseAddress?.assumingMemoryBound(to: Bytef.self)
        var count = first
        var consumed = 0  // compressed bytes before the current window
        var ended = false
        stream.next_in = start
        stream.avail_in = uInt(count)
        // After the tar's end block, the rest of the gzip stream (the tar's record padding, a few KB) is inflated up to
        // 1 MiB, unread, so that zlib checks the stream's CRC-32 and length against the bytes the members came from.
        var after = 0
        while walk.wantsMore || (walk.reachedEnd && !ended && after < 1 << 20) {
            if stream.avail_in == 0 {
                consumed += count
                guard let more = file.next() else { return "read failed: \(LocalArtifacts.reason(errno))" }
                // The file ended. A gzip stream cut short leaves the tar stream cut short, which the walk names with
                // its member (so does a gzip stream that ended whole before the tar did).
                guard more > 0 else {
                    if !ended && walk.wantsMore { cutAt = consumed }
                    // Cut after the tar's end: the members arrived whole, but the gzip stream's CRC-32 and length,
                    // which would tell a changed byte, are missing, so the archive is not called whole.
                    if !ended && walk.reachedEnd {
                        return "the gzip stream ends at byte \(ArchiveSummary.grouped(consumed)) of the file, before "
                            + "its integrity check (CRC-32 and length): the members' bytes could not be verified"
                    }
                    return nil
                }
                count = more
                stream.next_in = start
                stream.avail_in = uInt(count)
            }
            if ended {
                // Another gzip member follows the one that ended.
                inflateReset(&stream)
                ended = false
            }
            stream.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.avail_out = uInt(output.count)
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            let produced = output.count - Int(stream.avail_out)
            if produced > 0 {
                if walk.wantsMore {
                    walk.feed(UnsafeRawBufferPointer(rebasing: output[..<produced])) { collector.handle($0) }
                } else {
                    after += produced
                }
            }
            switch status {
            case Z_OK, Z_BUF_ERROR: continue
            case Z_STREAM_END: ended = true
            default:
                let at = consumed + (count - Int(stream.avail_in))
                let why = stream.msg.map { String(cString: $0) } ?? "error \(status)"
                // A failed CRC-32 or length check: the bytes already handed over may not be the archive's.
                if why.hasSuffix("check") { damaged = true }
                return "the gzip stream is corrupt at byte \(ArchiveSummary.grouped(at)) of the file: \(why)"
            }
        }
        return nil
    }
}

/// The archive file read one window at a time and hashed as it is read.
private final class FileWindow {
    static let size = 1 << 18
    let fd: Int32
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: FileWindow.size, alignment: 16)
    var hasher = SHA256()
    private(set) var total = 0
    /// Whether the file was read to its end.
    private(set) var atEnd = false

    init(fd: Int32) { self.fd = fd }
    deinit { buffer.deallocate() }

    /// Reads the next window into `buffer`: its count, 0 at the end, nil on a read error (errno tells).
    func next() -> Int? {
        guard let count = LocalArtifacts.fill(fd, buffer) else { return nil }
        hasher.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        total += count
        if count == 0 { atEnd = true }
        return count
    }
}

/// Turns the walk's events into artifacts: each member's bytes hashed as they come, a document's kept and read
/// whole at its end.
private final class MemberCollector {
    let prefix: String
    let documentLimit: Int
    private(set) var artifacts: [Artifact] = []
    private var entry: SysdiagnoseWalk.Entry?
    private var hasher = SHA256()
    private var bytes: [UInt8] = []
    private var count = 0

    init(prefix: String, documentLimit: Int) {
        self.prefix = prefix
        self.documentLimit = documentLimit
    }

    func handle(_ event: SysdiagnoseWalk.Event) {
        switch event {
        case .begin(let begun):
            entry = begun
            hasher = SHA256()
            count = 0
            bytes = []
            if begun.role == .document { bytes.reserveCapacity(min(begun.size, documentLimit)) }
        case .data(let data):
            hasher.update(data)
            count += data.count
            if entry?.role == .document { bytes.append(contentsOf: data) }
        case .end:
            guard let entry else { return }
            let source = prefix + entry.name
            let digest = hasher.finalizeHex()
            switch entry.role {
            case .named(let kind):
                artifacts.append(
                    Artifact(
                        source: source, kind: kind, sha256: digest, size: count, status: .ok,
                        content: .recognized(kind)))
            default:
                artifacts.append(LocalArtifacts.document(bytes, source: source, sha256: digest))
            }
            self.entry = nil
            bytes = []
        case .abandon(let error):
            guard let entry else { return }
            artifacts.append(
                Artifact(
                    source: prefix + entry.name, kind: nil, size: entry.size, status: .error, error: error.description))
            self.entry = nil
            bytes = []
        case .refused(let name, let error):
            artifacts.append(Artifact(source: prefix + name, status: .error, error: error.description))
        }
    }
}
