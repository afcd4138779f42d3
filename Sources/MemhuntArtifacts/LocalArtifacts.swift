import CMappedFile
import Foundation
import MemhuntBasics
import MemhuntCore
import MemhuntFormats

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads local operands (files and directories) into artifacts.
public enum LocalArtifacts {
    /// Whole-document formats are read into memory up to this size; a larger file is an artifact
    /// error rather than an out-of-memory risk. The largest real JetsamEvent seen is 342 KB and the
    /// largest crash report 234 KB, so 64 MB leaves room for two orders of magnitude.
    public static let documentLimit = 64 << 20

    /// Expands operands into file paths: a file is itself; a directory is walked recursively,
    /// hidden entries skipped, paths sorted. A missing operand, or a directory that cannot be listed,
    /// stays as it is, so `load` reports it.
    ///
    /// `sorted: false` leaves each folder's entries in `readdir`'s order, for a caller whose output does not depend on
    /// the order (a fleet scan): sorting the names showed in a scan's profile, all of it before the workers start.
    public static func expand(_ operands: [String], sorted: Bool = true) -> [String] {
        operands.flatMap { operand -> [String] in
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: operand, isDirectory: &isDirectory)
            // An Xcode result bundle or a unified log archive is one artifact, never its database files.
            if exists && isDirectory.boolValue && isBundle(operand) { return [operand] }
            return exists && isDirectory.boolValue ? walk(operand, sorted: sorted) : [operand]
        }
    }

    /// A folder named `*.xcresult`: an Xcode result bundle.
    static func isResultBundle(_ path: String) -> Bool {
        (path.hasSuffix("/") ? String(path.dropLast()) : path).hasSuffix(".xcresult")
    }

    /// A folder named `*.logarchive`: a unified log archive (a sysdiagnose's `system_logs.logarchive`).
    static func isLogArchive(_ path: String) -> Bool {
        (path.hasSuffix("/") ? String(path.dropLast()) : path).hasSuffix(".logarchive")
    }

    /// A folder that is one artifact, named with the tool that reads it, never walked.
    static func isBundle(_ path: String) -> Bool { isResultBundle(path) || isLogArchive(path) }

    /// Why a unified log archive is not read, and the command that exports what memhunt reads from it.
    /// `files`: how many it holds, when it is inside a sysdiagnose archive (it is extracted first).
    static func logArchiveReason(_ name: String, files: Int? = nil) -> String {
        let held = files.map { " (\($0) files of tracev3 and metadata)" } ?? ""
        let export = files == nil ? "Export" : "Extract it from the archive and export"
        return "a unified log archive\(held): read by `log show` on a Mac, not by memhunt. \(export) the kernel's "
            + "memorystatus lines with `log show --archive \(name) --predicate 'process == \"kernel\" AND "
            + "eventMessage CONTAINS \"memorystatus\"' --style ndjson > memorystatus.ndjson` and give that file"
    }

    /// Symbolic links to directories are not followed inside a walk (as `find` does not), so a link
    /// to a parent cannot loop; links to files are read like files.
    ///
    /// `readdir`'s entry types spare a system call per regular file or folder; links and file systems that give no type
    /// are asked with `lstat` and `stat`. (`FileManager.attributesOfItem` and `fileExists` per entry showed in a scan's
    /// profile.)
    private static func walk(_ directory: String, sorted: Bool) -> [String] {
        guard let stream = opendir(directory) else { return [directory] }
        var entries: [(name: String, type: Int)] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(cString: $0)
                }
            }
            if !name.hasPrefix(".") { entries.append((name, Int(entry.pointee.d_type))) }
        }
        closedir(stream)
        var files: [String] = []
        for (name, type) in sorted ? entries.sorted(by: { $0.name < $1.name }) : entries {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            switch Self.entry(path, type: type) {
            case .file: files.append(path)
            case .folder(let isLink):
                if isBundle(path) {
                    files.append(path)
                } else if !isLink {
                    files += walk(path, sorted: sorted)
                }
            case .broken(let isLink):
                // A dangling link or a link loop: listed, so `load` names the reason.
                if isLink { files.append(path) }
            }
        }
        return files
    }

    /// What a folder's entry of `readdir` type `type` is.
    enum Entry {
        case file
        case folder(isLink: Bool)
        /// `stat` fails: a dangling link, a link loop, or an entry gone since `readdir`.
        case broken(isLink: Bool)
    }

    static func entry(_ path: String, type: Int) -> Entry {
        switch type {
        case Int(DT_REG): return .file
        case Int(DT_DIR): return .folder(isLink: false)
        default:
            var info = FileStatus()
            let isLink = lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
            guard systemStat(path, &info) == 0 else { return .broken(isLink: isLink) }
            return info.st_mode & S_IFMT == S_IFDIR ? .folder(isLink: isLink) : .file
        }
    }

    /// What `stat` says of a path (following links), or why it cannot say.
    enum Stat {
        case regular(size: Int)
        case directory
        case other
        case failed(String)
    }

    /// Why a path with a NUL byte is refused whole (the system would read it up to the NUL).
    static let nulInPath = "the path holds a NUL byte, which no file name can"

    static func stat(_ path: String) -> Stat {
        // stat follows every link and fails with ELOOP on a loop, ENOENT on a dangling link. (It was realpath then
        // lstat: one lstat and readlink per path component, 6 system calls a file in a fleet scan.)
        // The system reads a path up to its first NUL: `a.ips\0../x` would open `a.ips`, so it is refused whole.
        guard !path.utf8.contains(0) else { return .failed(nulInPath) }
        var info = FileStatus()
        guard systemStat(path, &info) == 0 else { return .failed(reason(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular(size: Int(info.st_size))
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// Why `path`, given as an operand, cannot be read at all, in the words `load` uses: it does not exist, is a
    /// device or a pipe, or cannot be opened. Nil when it can be opened (what it holds is `load`'s to say).
    public static func unreadable(_ path: String) -> String? {
        switch stat(path) {
        case .failed(let why): return why
        case .other: return "not a regular file"
        case .directory:
            guard let stream = opendir(path) else { return "cannot read the folder: \(opendirReason(path))" }
            closedir(stream)
            return nil
        case .regular:
            let fd = systemOpen(path)
            guard fd >= 0 else { return "cannot be read: \(reason(errno))" }
            _ = systemClose(fd)
            return nil
        }
    }

    /// The first `count` bytes of the regular file at `path` (following links); nil for anything else or an error.
    /// A FIFO, a device or a folder is never opened: opening a FIFO without a writer waits forever, and a device
    /// such as /dev/zero never ends. (`run --app` looked for the name in the unread files this way, and a FIFO
    /// in a walked folder hung the run.)
    public static func head(of path: String, upTo count: Int) -> [UInt8]? {
        guard case .regular(let size) = stat(path) else { return nil }
        // Non-blocking: a regular file swapped for a FIFO since the stat opens at once instead of waiting.
        let fd = systemOpen(path, flags: O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { _ = systemClose(fd) }
        var info = FileStatus()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return readArray(fd, capacity: min(count, max(size, 0)), after: [])
    }

    /// An errno in the words an artifact error uses.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file or directory"
        case ELOOP: "symbolic link loop"
        case EACCES, EPERM: "permission denied"
        case ENOTDIR: "a path component is not a directory"
        case ENAMETOOLONG: "file name too long"
        default: String(cString: strerror(code))
        }
    }

    /// Reads, hashes, detects and parses one local file. Never throws: every failure is an artifact error.
    ///
    /// The size comes from `stat` first (`fstat` of the opened file when `listedRegular`: its folder listed it
    /// as a regular file): a document over `documentLimit` is refused without being read.
    /// Change logs, which can be gigabytes, are detected from their first 64 KiB (or, when the file is text of no known
    /// kind, from a change or kill line anywhere in it: `lateChangeLog`, and over `documentLimit` a streamed scan) and
    /// streamed through the scanner in bounded memory (`stream`), and so are `xcodebuild` logs, through theirs.
    /// `hash: false` leaves `sha256` nil (a fleet scan, which never shows it: SHA-256 was a large share of its work).
    ///
    /// Files are read with `read(2)` into one array sized from `stat`: `FileHandle.read(upToCount:)` made a fresh 1 MiB
    /// `Data` per call, two per file, and a fleet scan spent much of its CPU time in the kernel.
    ///
    /// `streamChangeLogs: false` (a fleet scan, which counts no change log and no test metric) stops at the detection
    /// of a streamed kind: the artifact has its kind and size and no content. Streaming a log there took as long as
    /// reading it, only to skip it.
    public static func load(
        path: String, source: String? = nil, documentLimit: Int = documentLimit, hash: Bool = true,
        streamChangeLogs: Bool = true, listedRegular: Bool = false
    ) -> Artifact {
        let source = source ?? path
        // A file its folder listed as regular is opened first and asked with `fstat`: `stat` then `open` walked its
        // path twice (`fstatat` showed in a fleet scan's profile).
        if listedRegular, let (fd, size) = openRegular(path) {
            defer { _ = systemClose(fd) }
            return load(
                fd, path: path, source: source, size: size, documentLimit: documentLimit, hash: hash,
                streamChangeLogs: streamChangeLogs)
        }
        let size: Int
        switch stat(path) {
        case .failed(let why): return Artifact(source: source, status: .error, error: why)
        case .directory where isResultBundle(path):
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return Artifact(
                source: source, localPath: path, kind: .xctestMetrics, status: .error,
                error: "an Xcode result bundle: its database is read by xcresulttool, on a Mac. Export what memhunt "
                    + "reads with `xcrun xcresulttool get test-results metrics --path \(name) > metrics.json` "
                    + "(Xcode 16.3+) and give metrics.json, or give the xcodebuild test log")
        case .directory where isLogArchive(path):
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return Artifact(
                source: source, localPath: path, kind: .logArchive, status: .error,
                error: logArchiveReason(name))
        case .directory:
            // `expand` hands over a directory only when it could not list it.
            let why = opendirReason(path)
            return Artifact(source: source, localPath: path, status: .error, error: "cannot read the folder: \(why)")
        // Devices and pipes never end (/dev/zero) or block on open (a FIFO): only regular files are read.
        case .other: return Artifact(source: source, localPath: path, status: .error, error: "not a regular file")
        case .regular(let bytes): size = bytes
        }
        let fd = systemOpen(path)
        guard fd >= 0 else {
            return Artifact(source: source, localPath: path, status: .error, error: "cannot be read: \(reason(errno))")
        }
        defer { _ = systemClose(fd) }
        return load(
            fd, path: path, source: source, size: size, documentLimit: documentLimit, hash: hash,
            streamChangeLogs: streamChangeLogs)
    }

    /// `path` opened, when it is a regular file now, and its size: non-blocking, so an entry swapped for a FIFO
    /// since its folder was listed opens at once, and is then closed unread (as anything but a regular file).
    private static func openRegular(_ path: String) -> (fd: Int32, size: Int)? {
        let fd = systemOpen(path, flags: O_NONBLOCK)
        guard fd >= 0 else { return nil }
        var info = FileStatus()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            _ = systemClose(fd)
            return nil
        }
        return (fd, Int(info.st_size))
    }

    /// Reads, hashes, detects and parses the open regular file `fd` of `size` bytes (`load(path:…)`).
    private static func load(
        _ fd: Int32, path: String, source: String, size: Int, documentLimit: Int, hash: Bool, streamChangeLogs: Bool
    ) -> Artifact {
        func readFailed() -> Artifact {
            Artifact(source: source, localPath: path, status: .error, error: "read failed: \(reason(errno))")
        }
        // The first 64 KiB (the sniffers' window), or the whole file and one byte more when it is smaller, so
        // a small file is read in one array.
        let headCapacity = min(size + 1, 65_536)
        // A file smaller than the window is read in one call: `stat`'s size bytes end the read, where asking again for
        // the end of the file was a second `read` per file. Growth after the `stat` is then not seen: the file is read
        // as it was when it was looked at. A size of 0 is not trusted (procfs reports 0 for files with content): read
        // to the end as before.
        guard var bytes = readArray(fd, capacity: headCapacity, after: [], expected: size > 0 ? size : nil) else {
            return readFailed()
        }
        // A sysdiagnose archive (gzip or tar) is many artifacts: the caller reads it with `SysdiagnoseArchive`.
        if SysdiagnoseArchive.isArchive(head: bytes) {
            return Artifact(source: source, localPath: path, kind: .sysdiagnose, size: size, status: .ok)
        }
        var (route, detected) = ArtifactSniffer.routeAndDetect(bytes)
        if streamsAsFootprintJSON(bytes, size: size, documentLimit: documentLimit) { route = .footprintJSON }
        if route == .changeLog {
            var artifact = Artifact(source: source, localPath: path, size: size, status: .ok)
            artifact.kind = .changeLog
            guard streamChangeLogs else { return artifact }
            switch streamChangeLog(fd, head: bytes, more: bytes.count == headCapacity, size: size, hash: hash) {
            case .failure(let failure):
                return Artifact(source: source, localPath: path, status: .error, error: failure.message)
            case .success(let (summary, total, digest)):
                return changeLog(summary, source: source, path: path, size: total, sha256: digest)
            }
        }
        if let kind = Self.streamedKinds[route] {
            let file = StreamedFile(
                fd: fd, head: bytes, more: bytes.count == headCapacity, size: size, hash: hash, source: source,
                path: path)
            guard streamChangeLogs else {
                return Artifact(source: source, localPath: path, kind: kind, size: size, status: .ok)
            }
            return streamed(file, route: route)
        }
        let headCount = bytes.count
        if size > documentLimit {
            // A change log whose first change or kill line is past its first 64 KiB: streamed like one, in bounded
            // memory, before it is refused as a document.
            if streamChangeLogs, bytes.count == headCapacity, ArtifactSniffer.mayBeChangeLogPastHead(bytes) {
                switch streamChangeLog(fd, head: bytes, more: true, size: size, hash: hash) {
                case .failure(let failure):
                    return Artifact(source: source, localPath: path, status: .error, error: failure.message)
                case .success(let (summary, total, digest)) where summary.holdsLines:
                    return changeLog(summary, source: source, path: path, size: total, sha256: digest)
                case .success: break
                }
            }
            return Artifact(
                source: source, localPath: path, size: size, status: .error,
                error:
                    "larger than the \(FactValue.oneDecimal(Double(documentLimit) / 1_048_576)) MB limit for documents (\(size) bytes)"
            )
        }
        // A full buffer may have more behind it: the rest goes into one array sized to the file, one byte more to
        // notice growth; a file that grew after the stat is read on, up to the limit.
        var capacity = headCapacity
        while bytes.count == capacity {
            capacity = min(max(size + 1, bytes.count + 65_536), documentLimit + 1)
            guard bytes.count < capacity else {
                // Grew after the stat: refused like a file that was large to begin with.
                return Artifact(
                    source: source, localPath: path, status: .error, error: "grew past the document limit while read")
            }
            guard let longer = readArray(fd, capacity: capacity, after: bytes) else { return readFailed() }
            bytes = longer
        }
        // From 64 KiB on, `SHA256` hashes on its queue while this thread parses (the other core), so the hash is no
        // longer added to the parse's time.
        var hasher = hash ? SHA256() : nil
        hasher?.update(bytes)
        // The sniffer's detection holds when it saw the same first 64 KiB (not when the file grew under it).
        var head = headCount == min(bytes.count, 65_536)
        // UTF-16 looked binary to the sniffer: the text it is is transcoded once, then sniffed and read.
        let text = ArtifactReader.utf8(fromUTF16: bytes)
        if let text {
            (route, detected) = ArtifactSniffer.routeAndDetect(Array(text.prefix(65_536)))
            head = true
        }
        let content = text ?? bytes
        var outcome =
            (route == .manifest ? Self.manifestOutcome(content) : nil)
            ?? ArtifactReader.read(content, detected: head ? detected : nil)
        if text != nil { outcome = ArtifactReader.namingUTF16Flaw(of: bytes, in: outcome) }
        let sha256 = hasher?.finalizeHex()
        if streamChangeLogs, let summary = lateChangeLog(content, outcome: outcome) {
            return changeLog(summary, source: source, path: path, size: bytes.count, sha256: sha256)
        }
        let artifact = Artifact(source: source, localPath: path, sha256: sha256, size: bytes.count, status: .ok)
        return classify(artifact, outcome: outcome)
    }

    /// The routes read by a streamed reader, with the kind each gives.
    static let streamedKinds: [ArtifactRoute: ArtifactKind] = [
        .footprintJSON: .footprintJSON, .heapReport: .heap, .leaksReport: .leaks, .xctestLog: .xctestMetrics,
        .xctraceExport: .xctraceExport,
    ]

    /// `file` read by its route's streamed reader.
    private static func streamed(_ file: StreamedFile, route: ArtifactRoute) -> Artifact {
        switch route {
        case .xctestLog: xctestLog(file)
        case .leaksReport: leaksReport(file)
        case .heapReport: heapReport(file)
        case .footprintJSON: footprintJSON(file)
        default: xctraceExport(file)
        }
    }

    /// An open file routed to a streamed reader: its first bytes, whether more follow, and its names.
    struct StreamedFile {
        var fd: Int32
        var head: [UInt8]
        var more: Bool
        var size: Int
        var hash: Bool
        var source: String
        var path: String
    }

    /// An `xcodebuild test` log of hundreds of megabytes is one artifact: streamed, its metric lines kept.
    static func xctestLog(_ file: StreamedFile) -> Artifact {
        var scanner = XCTestLogScanner()
        return streamedDocument(file, kind: .xctestMetrics, feed: { scanner.feed($0) }) {
            scanner.finish().map { ParsedArtifact.repro(.xctestMetrics($0)) }
        }
    }

    /// A `leaks` report of hundreds of megabytes is one artifact: streamed, its trees kept within their bounds.
    static func leaksReport(_ file: StreamedFile) -> Artifact {
        var scanner = LeaksScanner()
        return streamedDocument(file, kind: .leaks, feed: { scanner.feed($0) }) {
            scanner.finish().map { ParsedArtifact.repro(.leaks($0)) }
        }
    }

    /// A `heap` report of hundreds of megabytes (`-addresses` lists every block) is one artifact: streamed, its
    /// class table kept within its bound.
    static func heapReport(_ file: StreamedFile) -> Artifact {
        var scanner = HeapScanner()
        return streamedDocument(file, kind: .heap, feed: { scanner.feed($0) }) {
            scanner.finish().map { ParsedArtifact.repro(.heap($0)) }
        }
    }

    /// Footprint JSON from this size on is streamed.
    static let streamedFootprintJSON = 4 << 20

    /// Whether a file of `size` bytes whose first 64 KiB are `head` is footprint JSON to stream. It is read whole, as
    /// every JSON document is, up to a few megabytes: a tree of a larger one costs several times its size, a sample
    /// at a time a little more than one sample. The sniffer leaves it to the document reader, which tells it after
    /// the JSON kinds before it.
    static func streamsAsFootprintJSON(_ head: [UInt8], size: Int, documentLimit: Int) -> Bool {
        size > min(documentLimit, streamedFootprintJSON) && head.count >= 65_536
            && ArtifactReader.sniffIPSHeader(head) == nil && ArtifactReader.jsonKindHint(head) == .footprintJSON
    }

    /// `footprint --sample … -j` JSON of hundreds of megabytes is one artifact: streamed a sample at a time.
    static func footprintJSON(_ file: StreamedFile) -> Artifact {
        var scanner = FootprintScanner()
        return streamedDocument(file, kind: .footprintJSON, feed: { scanner.feed($0) }) {
            scanner.finish().map { ParsedArtifact.repro(.footprintJSON($0)) }
        }
    }

    /// `file` streamed through a reader (`feed` each chunk, `finish` at the end) into one artifact of `kind`: a
    /// read that failed is an error artifact, what the reader made is classified as a document's outcome is.
    private static func streamedDocument(
        _ file: StreamedFile, kind: ArtifactKind, feed: (UnsafeRawBufferPointer) -> Void,
        finish: () -> Result<ParsedArtifact, FormatError>
    ) -> Artifact {
        switch stream(file.fd, head: file.head, more: file.more, size: file.size, hash: file.hash, feed: feed) {
        case .failure(let failure):
            return Artifact(source: file.source, localPath: file.path, status: .error, error: failure.message)
        case .success(let (total, digest)):
            let artifact = Artifact(
                source: file.source, localPath: file.path, sha256: digest, size: total, status: .ok)
            return classify(artifact, outcome: ReadOutcome(kind: kind, result: finish()))
        }
    }

    /// An `xctrace export` of gigabytes is one artifact: streamed through the XML scanner.
    static func xctraceExport(_ file: StreamedFile) -> Artifact {
        var artifact = Artifact(source: file.source, localPath: file.path, size: file.size, status: .ok)
        artifact.kind = .xctraceExport
        var scanner = XCTraceScanner()
        let streamed = stream(file.fd, head: file.head, more: file.more, size: file.size, hash: file.hash) {
            scanner.feed($0)
        }
        switch streamed {
        case .failure(let failure):
            return Artifact(
                source: file.source, localPath: file.path, kind: .xctraceExport, status: .error, error: failure.message)
        case .success(let (total, digest)):
            artifact.sha256 = digest
            artifact.size = total
            switch scanner.finish() {
            case .success(let export): artifact.content = .repro(.xctraceExport(export))
            case .failure(let error):
                artifact.status = .error
                artifact.error = error.description
            }
            return artifact
        }
    }

    /// What a file the sniffer routed as a manifest is: a manifest, one too long to read (an error of its
    /// own), or nil when it is no manifest after all (it is then read as a document).
    static func manifestOutcome(_ content: [UInt8]) -> ReadOutcome? {
        do {
            _ = try Manifest.read(content)
            return ReadOutcome(kind: .manifest, result: .success(.recognized(.manifest)))
        } catch  where error.isTooLong {
            return ReadOutcome(kind: .manifest, result: .failure(FormatError(error.description)))
        } catch {
            return nil
        }
    }

    /// The summary of `content`, read whole and of no known kind (`outcome`), when it is a change log all the same:
    /// its first change or kill line comes after its first 64 KiB (`ArtifactSniffer.mayBeChangeLogPastHead`).
    static func lateChangeLog(_ content: [UInt8], outcome: ReadOutcome) -> ChangeLogSummary? {
        guard outcome.isUnrecognized, content.count > 65_536, ArtifactSniffer.mayBeChangeLogPastHead(content)
        else { return nil }
        return try? ChangeLogScanner.parse(content).get()
    }

    /// The artifact of a change log read whole: its summary, size and digest.
    static func changeLog(
        _ summary: ChangeLogSummary, source: String, path: String?, size: Int, sha256: String?
    ) -> Artifact {
        let content = ParsedArtifact.log(summary)
        return Artifact(
            source: source, localPath: path, kind: content.kind, sha256: sha256, size: size, status: .ok,
            content: content)
    }

    /// `prefix` followed by what `read(2)` gives until `capacity` bytes or the end of the file; nil on a read
    /// error (errno tells).
    /// `expected`: the file's size from `stat`; the read stops there instead of reading on to the end.
    private static func readArray(_ fd: Int32, capacity: Int, after prefix: [UInt8], expected: Int? = nil)
        -> [UInt8]?
    {
        // Zeroed, then cut to what was read: `Array(unsafeUninitializedCapacity:)` is not specialized and looks its
        // storage type up in the runtime's metadata cache on every call, which costs more than the zeroing.
        var bytes = prefix
        bytes.append(contentsOf: repeatElement(0, count: max(0, capacity - prefix.count)))
        let read = bytes.withUnsafeMutableBytes {
            fill(fd, UnsafeMutableRawBufferPointer(rebasing: $0[prefix.count...]), stopAt: expected)
        }
        guard let read else { return nil }
        bytes.removeLast(bytes.count - prefix.count - read)
        return bytes
    }

    /// Reads until `buffer` is full or the file ends: the bytes read, nil on an error (errno tells). From the
    /// file's position, or with `pread` from `offset` when one is given.
    static func fill(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, stopAt: Int? = nil, offset: Int? = nil)
        -> Int?
    {
        guard let base = buffer.baseAddress else { return 0 }
        var total = 0
        while total < buffer.count, total != stopAt {
            let count =
                offset.map { systemPread(fd, base + total, buffer.count - total, $0 + total) }
                ?? systemRead(fd, base + total, buffer.count - total)
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            total += count
        }
        return total
    }

    /// Why a change log could not be streamed.
    struct StreamFailure: Error {
        let message: String
    }

    /// A change log streamed through `ChangeLogScanner`: its summary, the bytes read and the digest. A large
    /// one may be read in two parts on two cores (`streamChangeLogInParts`).
    static func streamChangeLog(
        _ fd: Int32, head: [UInt8], more: Bool, size: Int, hash: Bool, parts: Parts = .measured(from: partsFrom)
    ) -> Result<(summary: ChangeLogSummary, total: Int, digest: String?), StreamFailure> {
        let large =
            switch parts {
            case .never: false
            case .always: true
            case .measured(let from): size >= from
            }
        if more, large, ProcessInfo.processInfo.activeProcessorCount > 1 {
            return streamChangeLogInParts(fd, head: head, size: size, hash: hash, always: parts == .always).map {
                ($0.summary, $0.total, $0.digest)
            }
        }
        var scanner = ChangeLogScanner()
        return stream(fd, head: head, more: more, size: size, hash: hash) { scanner.feed($0) }.map {
            (scanner.finish(), $0.total, $0.digest)
        }
    }

    /// Whether a change log is read in two parts: never, always (when it has a line to cut after), or from a
    /// size on when a probe finds that it pays.
    enum Parts: Equatable {
        case never, always
        case measured(from: Int)
    }

    /// How `streamChangeLogInParts` read a log: in one part (the probe found two would not pay, or no line
    /// to cut after), in two (the first scanner absorbed the second), or in two with the second read again.
    enum PartsRead: Equatable {
        case onePart, absorbed, readAgain
    }

    /// Change logs from this size on may be read in two parts (`streamChangeLogInParts`).
    static let partsFrom = 32 << 20

    /// Where to cut a log in two, within 64 KiB of `near`: after the first line there that starts with `}`
    /// (one that ends a `log show --style json` record, so the first part holds whole records and the second
    /// is absorbed), else after the first newline; nil when there is none before `before` (a file of long lines
    /// is read in one part) or `near` is not past `after`.
    static func lineStart(_ fd: Int32, near: Int, after: Int, before: Int) -> Int? {
        let count = min(65_536, before - near)
        guard near > after, count > 0 else { return nil }
        var window = [UInt8](repeating: 0, count: count)
        guard let read = window.withUnsafeMutableBytes({ fill(fd, $0, offset: near) }) else { return nil }
        let bytes = window[..<read]
        guard let newline = bytes.firstIndex(of: 10) else { return nil }
        var start = newline + 1
        while start < read, let end = bytes[start...].firstIndex(of: 10) {
            let first = bytes[start..<end].firstIndex { $0 != 32 && $0 != 9 }
            if let first, bytes[first] == UInt8(ascii: "}") { return near + end + 1 < before ? near + end + 1 : nil }
            start = end + 1
        }
        return near + newline + 1 < before ? near + newline + 1 : nil
    }

    /// A large change log, read in two parts at once where that pays.
    ///
    /// First a probe: the 4 MiB after the head are scanned and hashed on this thread, each MiB timed (each thread's CPU
    /// time). Two parts pay where scanning takes well over as long as hashing: three threads then share two cores, and
    /// each maps its own windows. The lowest ratio of the last three windows decides, above 1.75: measured, the
    /// benchmark's uniform log stays below it, issue 30's realistic console log and its `--style json` above it, and
    /// its ndjson on either side (in steady state, two parts there neither gain nor lose). Timing only the second MiB
    /// of a 2 MiB probe put the uniform log above it in some runs, and split it.
    ///
    /// Two parts measured faster on the realistic console log and on its `--style json`, the same JSON out; the uniform
    /// log, read in two parts, measured slower, so the probe keeps it in one.
    ///
    /// In two parts, cut after a line halfway through the rest: this thread scans the first part, a thread of its
    /// own the second, and a third hashes the rest of the file (`windows`). Bytes past the size at `stat` (a log
    /// still written) go to the second part and the hash. The first scanner then absorbs the second
    /// (`ChangeLogScanner.absorb`); where it cannot say what one scanner would (a cut inside a JSON record,
    /// more than 20,000 kill records in the second part, names past a cap), it reads the second part again.
    static func streamChangeLogInParts(_ fd: Int32, head: [UInt8], size: Int, hash: Bool, always: Bool) -> Result<
        (summary: ChangeLogSummary, total: Int, digest: String?, way: PartsRead), StreamFailure
    > {
        var first = ChangeLogScanner(part: .first)
        var hasher = hash ? SHA256() : nil
        head.withUnsafeBytes {
            first.feed($0)
            hasher?.update($0)
        }
        ReadProgress.add(head.count)
        let probeEnd = min(size, head.count + 4 * ChunkReader.chunk)
        var windowsProbed = 0
        // The lowest ratio of scanning to hashing among the windows after the first (whose caches are cold).
        var ratio = Double.infinity
        let probed = windows(fd, from: head.count, to: probeEnd) { bytes in
            let start = threadTime()
            first.feed(bytes)
            let scanned = threadTime()
            hasher?.update(bytes)
            if windowsProbed > 0 {
                ratio = min(ratio, Double(scanned - start) / Double(max(1, threadTime() - scanned)))
            }
            windowsProbed += 1
        }
        if let probed { return .failure(probed) }
        let pays = always || hasher == nil || ratio > 1.75
        guard pays, let cut = lineStart(fd, near: probeEnd + (size - probeEnd) / 2, after: probeEnd, before: size)
        else {
            let reader = ChunkReader(fd: fd, from: probeEnd, mapTo: size, hasher: hasher)
            reader.drain { first.feed($0) }
            if let failure = reader.failure { return .failure(failure) }
            return .success((first.finish(), probeEnd + reader.total, reader.hasher.map(Self.hex), .onePart))
        }
        let second = PartWork(ChangeLogScanner(part: .rest))
        let hashed = PartWork(hasher)
        // Threads of their own: on two cores, libdispatch's pool runs two blocks at a time.
        let scanner = Thread {
            second.failure = windows(fd, from: cut, to: size) { second.value.feed($0) }
            second.done.signal()
        }
        // The scanner takes room on the stack for a line's items (up to 512 KiB for a 64 KiB line).
        scanner.stackSize = 8 << 20
        scanner.start()
        if hash {
            Thread {
                hashed.failure = windows(fd, from: probeEnd, to: size, counted: false) { hashed.value?.update($0) }
                hashed.done.signal()
            }.start()
        } else {
            hashed.done.signal()
        }
        let failure = windows(fd, from: probeEnd, to: cut) { first.feed($0) }
        second.done.wait()
        hashed.done.wait()
        if let failure = failure ?? second.failure ?? hashed.failure { return .failure(failure) }
        let tail = ChunkReader(fd: fd, from: size, mapTo: size, hasher: hashed.value)
        tail.drain { second.value.feed($0) }
        if let failure = tail.failure { return .failure(failure) }
        let total = size + tail.total
        let absorbed = first.absorb(second.value)
        // The second scanner's tables go before the first's summary is built (`ChangeLogScanner.finish`).
        second.value = ChangeLogScanner(part: .rest)
        if !absorbed {
            if let failure = windows(fd, from: cut, to: total, counted: false, { first.feed($0) }) {
                return .failure(failure)
            }
        }
        return .success((first.finish(), total, tail.hasher.map(Self.hex), absorbed ? .absorbed : .readAgain))
    }

    /// A digest's hex.
    private static func hex(_ hasher: SHA256) -> String {
        var hasher = hasher
        return hasher.finalizeHex()
    }

    /// This thread's CPU time in nanoseconds.
    private static func threadTime() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec)
    }

    /// Calls `body` with the bytes of `fd` in `from..<to`, a mapped window of `ChunkReader.chunk` bytes at a
    /// time (read with `pread` where mapping fails); nil when all were read.
    static func windows(
        _ fd: Int32, from: Int, to: Int, counted: Bool = true, _ body: (UnsafeRawBufferPointer) -> Void
    ) -> StreamFailure? {
        var offset = from
        var buffer: UnsafeMutableRawBufferPointer?
        defer { buffer?.deallocate() }
        while offset < to {
            if let window = mapWindow(fd, at: offset, end: to) {
                body(window.bytes)
                if counted { ReadProgress.add(window.bytes.count) }
                let truncated = memhunt_mapped_truncated(window.handle) != 0
                memhunt_unmap(window.handle)
                if truncated { return StreamFailure(message: "the file was truncated while it was read") }
                offset = window.next
                continue
            }
            let window = buffer ?? UnsafeMutableRawBufferPointer.allocate(byteCount: ChunkReader.chunk, alignment: 64)
            buffer = window
            guard
                let count = fill(
                    fd, UnsafeMutableRawBufferPointer(rebasing: window[0..<min(window.count, to - offset)]),
                    offset: offset)
            else { return StreamFailure(message: "read failed: \(reason(errno))") }
            guard count > 0 else { return StreamFailure(message: "the file was truncated while it was read") }
            body(UnsafeRawBufferPointer(rebasing: window[0..<count]))
            if counted { ReadProgress.add(count) }
            offset += count
        }
        return nil
    }

    /// The window of `fd` from `offset`, mapped from the page it is on and at most `ChunkReader.chunk` bytes long,
    /// not past `end`: its bytes from `offset`, its mapping's handle, and where the next window starts; nil when
    /// it cannot be mapped (a file system that cannot map, or 64 mappings live).
    static func mapWindow(_ fd: Int32, at offset: Int, end: Int) -> (
        bytes: UnsafeRawBufferPointer, handle: Int32, next: Int
    )? {
        let aligned = offset - offset % memhunt_page_size()
        let length = min(ChunkReader.chunk, end - aligned)
        var handle: Int32 = -1
        guard let address = memhunt_map(fd, Int64(aligned), length, &handle) else { return nil }
        return (
            UnsafeRawBufferPointer(start: address + (offset - aligned), count: aligned + length - offset), handle,
            aligned + length
        )
    }

    /// Hands `head` and then the rest of the file to `feed`, window by window: a reader thread maps the file
    /// 1 MiB at a time and hashes each window after handing it over (`streamChangeLog`). The bytes read and the
    /// digest.
    static func stream(
        _ fd: Int32, head: [UInt8], more: Bool, size: Int, hash: Bool, feed: (UnsafeRawBufferPointer) -> Void
    ) -> Result<(total: Int, digest: String?), StreamFailure> {
        head.withUnsafeBytes { feed($0) }
        ReadProgress.add(head.count)
        let reader = ChunkReader(fd: fd, from: head.count, mapTo: size, hasher: hash ? SHA256() : nil)
        head.withUnsafeBytes { reader.hasher?.update($0) }
        if more { reader.drain(into: feed) }
        if let failure = reader.failure { return .failure(failure) }
        return .success((head.count + reader.total, reader.hasher.map(Self.hex)))
    }
    private static func opendirReason(_ path: String) -> String {
        guard let directory = opendir(path) else { return reason(errno) }
        closedir(directory)
        return "cannot be listed"
    }

    static func isDirectory(_ path: String) -> Bool {
        if case .directory = stat(path) { return true }
        return false
    }

    /// The size of a regular file, following symbolic links; nil for anything else (devices, pipes,
    /// directories, missing paths).
    public static func regularFileSize(_ path: String) -> Int? {
        if case .regular(let size) = stat(path) { return size }
        return nil
    }

    /// Applies a reader outcome to an artifact.
    /// Bytes read like a file given alone (an archive's member, a record of a page): UTF-16 transcoded, its kind detected, parsed.
    static func document(_ bytes: [UInt8], source: String, sha256: String) -> Artifact {
        let text = ArtifactReader.utf8(fromUTF16: bytes)
        let content = text ?? bytes
        var outcome = ArtifactReader.read(content)
        if text != nil { outcome = ArtifactReader.namingUTF16Flaw(of: bytes, in: outcome) }
        if let summary = LocalArtifacts.lateChangeLog(content, outcome: outcome) {
            return LocalArtifacts.changeLog(summary, source: source, path: nil, size: bytes.count, sha256: sha256)
        }
        let artifact = Artifact(source: source, sha256: sha256, size: bytes.count, status: .ok)
        return LocalArtifacts.classify(artifact, outcome: outcome)
    }

    public static func classify(_ artifact: Artifact, outcome: ReadOutcome) -> Artifact {
        var artifact = artifact
        artifact.kind = outcome.kind
        switch outcome.result {
        case .success(let content):
            artifact.kind = content.kind
            artifact.content = content
            artifact.status = .ok
        case .failure(let error):
            artifact.status = outcome.isUnrecognized ? .unrecognized : .error
            artifact.error = error.description
        }
        return artifact
    }
}

/// What a thread of a change log read in two parts works on (the second part's scanner, or the hash), and how
/// its reading ended: read by the calling thread only after `done`.
private final class PartWork<Value>: @unchecked Sendable {
    var value: Value
    var failure: LocalArtifacts.StreamFailure?
    let done = DispatchSemaphore(value: 0)
    init(_ value: Value) { self.value = value }
}

/// The reading side of `LocalArtifacts.stream`: `produce` on one thread, `consume` on another.
///
/// Slots are filled in turn, each with a window of the file mapped read-only up to its size at `stat`, then
/// with what `pread` gives after it (a file that grew is read to its end) or when a mapping fails. `filled`
/// counts the slots handed over, `free` the ones the consumer is done with. The producer hashes a slot after
/// handing it over (both only read it then) and unmaps or refills it only after the consumer gave it back,
/// so each slot has one writer at a time; the semaphores order the bytes. A mapped page the file lost to a
/// truncation reads as zeros (`CMappedFile`) and sets `truncated`.
private final class ChunkReader: @unchecked Sendable {
    static let slots = 3
    static let chunk = 1 << 20
    let fd: Int32
    var hasher: SHA256?
    /// The next byte to map or read.
    private var offset: Int
    /// Where mapping ends: the size at `stat`, or `offset` once a mapping failed.
    private var mapEnd: Int
    /// Buffers for the part that is read; allocated on first use.
    private var buffers: [UnsafeMutableRawBufferPointer?] = Array(repeating: nil, count: ChunkReader.slots)
    /// What each slot hands over (written by the producer before `filled.signal()`, read by the consumer
    /// after its `wait`: raw memory, as an array's copy-on-write check would race with the reading thread).
    private let views = UnsafeMutablePointer<UnsafeRawBufferPointer>.allocate(capacity: ChunkReader.slots)
    /// Each slot's mapping handle (-1: a buffer); the producer's, and `close`'s after `finished`.
    private var mappings = [Int32](repeating: -1, count: ChunkReader.slots)
    /// Bytes in each slot (-1: a read failed), written by the producer before `filled.signal()`.
    private let lengths = UnsafeMutablePointer<Int>.allocate(capacity: ChunkReader.slots)
    /// Starts at 0 and is signalled `slots` times: libdispatch traps when a semaphore is released below the
    /// value it was created with, which the producer's last `wait` leaves it at.
    private let free = DispatchSemaphore(value: 0)
    private let filled = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    /// Bytes read by `produce`, whether a read failed (and errno then), whether a mapped page was gone;
    /// read after `finished` and `close`.
    private(set) var total = 0
    private(set) var failed = false
    private(set) var errorNumber: Int32 = 0
    private(set) var truncated = false
    /// Why the reading failed, if it did; after `finished` and `close`.
    var failure: LocalArtifacts.StreamFailure? {
        if truncated { return LocalArtifacts.StreamFailure(message: "the file was truncated while it was read") }
        if failed { return LocalArtifacts.StreamFailure(message: "read failed: \(LocalArtifacts.reason(errorNumber))") }
        return nil
    }

    init(fd: Int32, from offset: Int, mapTo size: Int, hasher: SHA256?) {
        self.fd = fd
        self.offset = offset
        self.mapEnd = size
        self.hasher = hasher
        lengths.initialize(repeating: 0, count: Self.slots)
        views.initialize(repeating: UnsafeRawBufferPointer(start: nil, count: 0), count: Self.slots)
        for _ in 0..<Self.slots { free.signal() }
    }

    deinit {
        close()
        for buffer in buffers { buffer?.deallocate() }
        lengths.deallocate()
        views.deallocate()
    }

    /// Maps or reads until the end of the file or an error (a length of -1).
    func produce() {
        var slot = 0
        while true {
            free.wait()
            release(slot)
            let count = fill(slot)
            lengths[slot] = count
            filled.signal()
            guard count > 0 else { break }
            total += count
            hasher?.update(views[slot])
            slot = (slot + 1) % Self.slots
        }
        failed = lengths[slot] < 0
        finished.signal()
    }

    /// Hands each slot's bytes to `body` in file order, until the end or an error.
    func consume(_ body: (UnsafeRawBufferPointer) -> Void) {
        var slot = 0
        while true {
            filled.wait()
            let count = lengths[slot]
            guard count > 0 else { return }
            body(views[slot])
            ReadProgress.add(count)
            free.signal()
            slot = (slot + 1) % Self.slots
        }
    }

    /// Produces on a thread of libdispatch's pool and hands the bytes to `body` on this one, to the end; then
    /// unmaps what is left. `failure` and `total` are then final.
    func drain(into body: (UnsafeRawBufferPointer) -> Void) {
        DispatchQueue.global().async { self.produce() }
        consume(body)
        finished.wait()
        close()
    }

    /// Unmaps what is still mapped; after `consume` returned and `finished`.
    func close() {
        for slot in 0..<Self.slots { release(slot) }
    }

    /// Unmaps the slot's window, noting a truncation, when it has one.
    private func release(_ slot: Int) {
        let handle = mappings[slot]
        guard handle >= 0 else { return }
        if memhunt_mapped_truncated(handle) != 0 { truncated = true }
        memhunt_unmap(handle)
        mappings[slot] = -1
    }

    /// Puts the next bytes in `views[slot]`: their count, 0 at the end, -1 on a read error.
    private func fill(_ slot: Int) -> Int {
        if offset < mapEnd {
            if let window = LocalArtifacts.mapWindow(fd, at: offset, end: mapEnd) {
                mappings[slot] = window.handle
                views[slot] = window.bytes
                offset = window.next
                return window.bytes.count
            }
            mapEnd = offset  // a file system that cannot map, or 64 mappings live: read from here on
        }
        let buffer = buffers[slot] ?? UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunk, alignment: 64)
        buffers[slot] = buffer
        guard let count = LocalArtifacts.fill(fd, buffer, offset: offset) else {
            errorNumber = errno
            return -1
        }
        offset += count
        views[slot] = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
        return count
    }
}

/// The files `LocalArtifacts.expand(_:sorted: false)` lists, one at a time: each folder is read while the walk
/// goes through it (the open folders on a stack, one per level), so a fleet's paths are never all held.
/// Not thread-safe: a caller's lock guards `next`.
///
/// Before, a fleet scan built the whole list first: for a large fleet that list was most of its peak heap, and no
/// worker started before the walk ended.
public final class FileWalk {
    #if canImport(Darwin)
        typealias Stream = UnsafeMutablePointer<DIR>
    #else
        typealias Stream = OpaquePointer
    #endif

    /// Operands still to go, last first.
    private var operands: [String]
    /// The folders being read, the innermost last.
    private var folders: [(path: String, stream: Stream)] = []
    /// The operand being walked and the files it gave so far.
    private var current: (operand: String, files: Int)?
    /// Folder operands that held no file to read, in operand order.
    public private(set) var emptyOperands: [String] = []

    public init(_ operands: [String]) { self.operands = operands.reversed() }

    deinit { for folder in folders { closedir(folder.stream) } }

    /// The next file (or a folder `load` names the reason for), or nil at the end.
    public func next() -> String? { nextEntry()?.path }

    /// The next file (or a folder `load` names the reason for) and whether its folder listed it as a regular file
    /// (`LocalArtifacts.load`'s `listedRegular`), or nil at the end.
    public func nextEntry() -> (path: String, listedRegular: Bool)? {
        while true {
            if let folder = folders.last {
                guard let entry = readdir(folder.stream) else {
                    closedir(folder.stream)
                    folders.removeLast()
                    if folders.isEmpty, let current, current.files == 0 { emptyOperands.append(current.operand) }
                    continue
                }
                let name = withUnsafePointer(to: &entry.pointee.d_name) {
                    $0.withMemoryRebound(
                        to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)
                    ) { String(cString: $0) }
                }
                if name.hasPrefix(".") { continue }
                let path = folder.path.hasSuffix("/") ? folder.path + name : folder.path + "/" + name
                let type = Int(entry.pointee.d_type)
                if let file = visit(path, type: type) {
                    current?.files += 1
                    return (file, type == Int(DT_REG))
                }
                continue
            }
            guard let operand = operands.popLast() else { return nil }
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: operand, isDirectory: &isDirectory)
            // An Xcode result bundle or a unified log archive is one artifact, never its database files.
            guard exists, isDirectory.boolValue, !LocalArtifacts.isBundle(operand) else { return (operand, false) }
            guard let stream = opendir(operand) else { return (operand, false) }
            current = (operand, 0)
            folders.append((operand, stream))
        }
    }

    /// What a folder's entry adds: itself (a file, a bundle, a dangling link, a folder that cannot be listed),
    /// or nil (a folder now being read, a link to a folder, an entry gone since `readdir`).
    private func visit(_ path: String, type: Int) -> String? {
        switch LocalArtifacts.entry(path, type: type) {
        case .file: return path
        case .broken(let isLink): return isLink ? path : nil
        case .folder(let isLink):
            if LocalArtifacts.isBundle(path) { return path }
            // Links to folders are not followed (as `find` does not), so a link to a parent cannot loop.
            guard !isLink else { return nil }
            guard let stream = opendir(path) else { return path }
            folders.append((path, stream))
            return nil
        }
    }
}

#if canImport(Glibc)
    typealias FileStatus = Glibc.stat
    private func systemStat(_ path: String, _ info: inout FileStatus) -> Int32 { stat(path, &info) }
    private func systemOpen(_ path: String, flags: Int32 = 0) -> Int32 {
        Glibc.open(path, O_RDONLY | O_CLOEXEC | flags)
    }
    private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        Glibc.read(fd, buffer, count)
    }
    private func systemPread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: Int) -> Int {
        Glibc.pread(fd, buffer, count, off_t(offset))
    }
    private func systemClose(_ fd: Int32) -> Int32 { Glibc.close(fd) }
#else
    typealias FileStatus = Darwin.stat
    private func systemStat(_ path: String, _ info: inout FileStatus) -> Int32 { stat(path, &info) }
    private func systemOpen(_ path: String, flags: Int32 = 0) -> Int32 {
        Darwin.open(path, O_RDONLY | O_CLOEXEC | flags)
    }
    private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        Darwin.read(fd, buffer, count)
    }
    private func systemPread(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: Int) -> Int {
        Darwin.pread(fd, buffer, count, off_t(offset))
    }
    private func systemClose(_ fd: Int32) -> Int32 { Darwin.close(fd) }
#endif
