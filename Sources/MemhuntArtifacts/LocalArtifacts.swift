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
    public static func expand(_ operands: [String]) -> [String] {
        operands.flatMap { operand -> [String] in
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: operand, isDirectory: &isDirectory)
            return exists && isDirectory.boolValue ? walk(operand) : [operand]
        }
    }

    /// Symbolic links to directories are not followed inside a walk (as `find` does not), so a link
    /// to a parent cannot loop; links to files are read like files.
    private static func walk(_ directory: String) -> [String] {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return [directory] }
        var files: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            var isDirectory: ObjCBool = false
            let isLink = (try? fm.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeSymbolicLink
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
                // A dangling link or a link loop: listed, so `load` names the reason.
                if isLink { files.append(path) }
                continue
            }
            if isDirectory.boolValue {
                if !isLink { files += walk(path) }
            } else {
                files.append(path)
            }
        }
        return files
    }

    /// What `stat` says of a path (following links), or why it cannot say.
    enum Stat {
        case regular(size: Int)
        case directory
        case other
        case failed(String)
    }

    static func stat(_ path: String) -> Stat {
        // realpath follows every link (and fails with ELOOP on a loop); lstat then cannot meet one.
        guard let resolved = realpath(path, nil) else { return .failed(reason(errno)) }
        defer { free(resolved) }
        var info = FileStatus()
        guard lstat(resolved, &info) == 0 else { return .failed(reason(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular(size: Int(info.st_size))
        case S_IFDIR: return .directory
        default: return .other
        }
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
    /// The size comes from `stat` first: a document over `documentLimit` is refused without being read.
    /// Change logs, which can be gigabytes, are detected from their first chunk and streamed through the
    /// scanner in bounded memory.
    public static func load(path: String, source: String? = nil, documentLimit: Int = documentLimit) -> Artifact {
        let source = source ?? path
        let size: Int
        switch stat(path) {
        case .failed(let why): return Artifact(source: source, status: .error, error: why)
        case .directory:
            // `expand` hands over a directory only when it could not list it.
            let why = opendirReason(path)
            return Artifact(source: source, localPath: path, status: .error, error: "cannot read the folder: \(why)")
        // Devices and pipes never end (/dev/zero) or block on open (a FIFO): only regular files are read.
        case .other: return Artifact(source: source, localPath: path, status: .error, error: "not a regular file")
        case .regular(let bytes): size = bytes
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return Artifact(source: source, localPath: path, status: .error, error: "cannot be read: \(reason(errno))")
        }
        defer { try? handle.close() }
        let first: Data
        do {
            // 1 MiB reads: the scanner's throughput is flat above 256 KiB chunks.
            first = try handle.read(upToCount: 1 << 20) ?? Data()
        } catch {
            return Artifact(source: source, localPath: path, status: .error, error: "read failed: \(error)")
        }
        let route = ArtifactSniffer.route(Array(first.prefix(65_536)))
        if route != .changeLog, size > documentLimit {
            return Artifact(
                source: source, localPath: path, size: size, status: .error,
                error:
                    "larger than the \(FactValue.oneDecimal(Double(documentLimit) / 1_048_576)) MB limit for documents (\(size) bytes)"
            )
        }
        var hasher = SHA256()
        var scanner: ChangeLogScanner? = route == .changeLog ? ChangeLogScanner() : nil
        var bytes: [UInt8] = []
        if scanner == nil { bytes.reserveCapacity(min(size, documentLimit) + 1) }
        var total = 0
        var chunk = first
        while !chunk.isEmpty {
            hasher.update(chunk)
            total += chunk.count
            if scanner != nil {
                chunk.withUnsafeBytes { scanner!.feed($0) }
            } else if total > documentLimit {
                // Grew after the stat: refused like a file that was large to begin with.
                return Artifact(
                    source: source, localPath: path, status: .error, error: "grew past the document limit while read")
            } else {
                bytes.append(contentsOf: chunk)
            }
            do {
                chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            } catch {
                return Artifact(source: source, localPath: path, status: .error, error: "read failed: \(error)")
            }
        }
        var artifact = Artifact(source: source, localPath: path, sha256: hasher.finalizeHex(), size: total, status: .ok)
        if var scanner {
            let summary = scanner.finish()
            artifact.kind = .changeLog
            artifact.content = .repro(.changeLog(summary))
            return artifact
        }
        if route == .manifest, (try? Manifest.parse(bytes)) != nil {
            return classify(artifact, outcome: ReadOutcome(kind: .manifest, result: .success(.recognized(.manifest))))
        }
        return classify(artifact, outcome: ArtifactReader.read(bytes))
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
    public static func classify(_ artifact: Artifact, outcome: ReadOutcome) -> Artifact {
        var artifact = artifact
        artifact.kind = outcome.kind
        switch outcome.result {
        case .success(let content):
            artifact.kind = content.kind
            artifact.content = content
            artifact.status = .ok
        case .failure(let error):
            artifact.status = outcome.kind == nil && error.message.hasPrefix("unrecognized") ? .unrecognized : .error
            artifact.error = error.description
        }
        return artifact
    }
}

#if canImport(Glibc)
    typealias FileStatus = Glibc.stat
#else
    typealias FileStatus = Darwin.stat
#endif
