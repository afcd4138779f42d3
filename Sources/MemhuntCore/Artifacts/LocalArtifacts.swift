import Foundation
import MemhuntBasics
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

    private static func walk(_ directory: String) -> [String] {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return [] }
        var files: [String] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            var isDirectory: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue { files += walk(path) } else { files.append(path) }
        }
        return files
    }

    /// Reads, hashes, detects and parses one local file. Never throws: every failure is an artifact error.
    public static func load(path: String, source: String? = nil) -> Artifact {
        let source = source ?? path
        guard FileManager.default.fileExists(atPath: path) else {
            return Artifact(source: source, status: .error, error: "no such file or directory")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return Artifact(
                source: source, localPath: path, status: .error, error: "cannot be read (permission denied?)")
        }
        defer { try? handle.close() }
        // Read in 1 MiB chunks: hash everything, keep at most `documentLimit` bytes.
        var hasher = SHA256()
        var bytes: [UInt8] = []
        var size = 0
        var tooLarge = false
        while true {
            let chunk: Data
            do {
                guard let next = try handle.read(upToCount: 1 << 20), !next.isEmpty else { break }
                chunk = next
            } catch {
                return Artifact(source: source, localPath: path, status: .error, error: "read failed: \(error)")
            }
            hasher.update(chunk)
            size += chunk.count
            if size <= documentLimit { bytes.append(contentsOf: chunk) } else { tooLarge = true }
        }
        var artifact = Artifact(source: source, localPath: path, sha256: hasher.finalizeHex(), size: size, status: .ok)
        if tooLarge {
            artifact.status = .error
            artifact.error = "larger than the \(documentLimit >> 20) MB limit for documents (\(size) bytes)"
            return artifact
        }
        return classify(artifact, outcome: ArtifactReader.read(bytes))
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
