import Foundation
import MemhuntBasics
import MemhuntCore
import MemhuntFormats

/// Reads local operands (files and directories) into artifacts.
public enum LocalArtifacts {
    /// Whole-document formats are read into memory up to this size; a larger file is an artifact
    /// error rather than an out-of-memory risk. The largest real JetsamEvent seen is 342 KB and the
    /// largest crash report 234 KB, so 64 MB leaves room for two orders of magnitude.
    public static let documentLimit = 64 << 20

    /// Expands operands into file paths: a file is itself; a directory is walked recursively,
    /// hidden entries skipped, paths sorted. A missing operand stays, so `load` reports it.
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
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return [] }
        var files: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            let isLink = (try? fm.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeSymbolicLink
            if isDirectory.boolValue {
                if !isLink { files += walk(path) }
            } else {
                files.append(path)
            }
        }
        return files
    }

    /// Reads, hashes, detects and parses one local file. Never throws: every failure is an artifact error.
    ///
    /// Documents are read whole (up to `documentLimit`); change logs, which can be gigabytes, are
    /// detected from their first chunk and streamed through the scanner in bounded memory.
    public static func load(path: String, source: String? = nil, documentLimit: Int = documentLimit) -> Artifact {
        let source = source ?? path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return Artifact(source: source, status: .error, error: "no such file or directory")
        }
        // Devices and pipes never end (/dev/zero) or block on open (a FIFO): only regular files are read.
        guard isDirectory.boolValue || regularFileSize(path) != nil else {
            return Artifact(source: source, localPath: path, status: .error, error: "not a regular file")
        }
        guard !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: path) else {
            return Artifact(
                source: source, localPath: path, status: .error, error: "cannot be read (permission denied?)")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        var bytes: [UInt8] = []
        var scanner: ChangeLogScanner?
        var size = 0
        while true {
            let chunk: Data
            do {
                // 1 MiB reads: the scanner's throughput is flat above 256 KiB chunks.
                guard let next = try handle.read(upToCount: 1 << 20), !next.isEmpty else { break }
                chunk = next
            } catch {
                return Artifact(source: source, localPath: path, status: .error, error: "read failed: \(error)")
            }
            hasher.update(chunk)
            size += chunk.count
            if size == chunk.count, isChangeLog(Array(chunk.prefix(65_536))) { scanner = ChangeLogScanner() }
            if scanner != nil {
                chunk.withUnsafeBytes { scanner!.feed($0) }
            } else if size <= documentLimit {
                bytes.append(contentsOf: chunk)
            }
        }
        var artifact = Artifact(source: source, localPath: path, sha256: hasher.finalizeHex(), size: size, status: .ok)
        if var scanner {
            let summary = scanner.finish()
            artifact.kind = .changeLog
            artifact.content = .repro(.changeLog(summary))
            return artifact
        }
        if size > documentLimit {
            artifact.status = .error
            artifact.error =
                "larger than the \(FactValue.oneDecimal(Double(documentLimit) / 1_048_576)) MB limit for documents (\(size) bytes)"
            return artifact
        }
        let outcome = ArtifactReader.read(bytes)
        if outcome.kind == nil, Manifest.looksLikeManifest(bytes), (try? Manifest.parse(bytes)) != nil {
            return classify(artifact, outcome: ReadOutcome(kind: .manifest, result: .success(.recognized(.manifest))))
        }
        return classify(artifact, outcome: outcome)
    }

    /// A change log by its first chunk, and not something the device-side readers claim
    /// (an `.ips` header or crash text that happens to contain "changed." lines).
    private static func isChangeLog(_ prefix: [UInt8]) -> Bool {
        ReproReader.detect(prefix) == .changeLog && ArtifactReader.sniffIPSHeader(prefix) == nil
            && !CrashParser.isCrashText(prefix[...])
    }

    /// The size of a regular file, following symbolic links; nil for anything else (devices, pipes,
    /// directories, missing paths).
    public static func regularFileSize(_ path: String) -> Int? {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return nil }
        return (attributes[.size] as? NSNumber)?.intValue
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
