import Foundation
import MemhuntCore

extension PlaybookLoader {
    /// Reads and loads a local playbook file; its directory resolves relative `exec:` paths.
    public func load(path: String) -> Result<Playbook, PlaybookLoadError> {
        func failure(_ message: String) -> Result<Playbook, PlaybookLoadError> {
            .failure(PlaybookLoadError(diagnostics: [Diagnostic(.error, message)]))
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return failure("cannot read playbook '\(path)': no such file")
        }
        guard !isDirectory.boolValue else { return failure("cannot read playbook '\(path)': it is a directory") }
        guard let data = FileManager.default.contents(atPath: path) else {
            // Why, in the artifacts' words: a FIFO or a device is "not a regular file", not "permission denied".
            let why = LocalArtifacts.unreadable(path).map {
                $0.hasPrefix("cannot be read: ") ? String($0.dropFirst(16)) : $0
            }
            return failure("cannot read playbook '\(path)': \(why ?? "it could not be read whole")")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            return failure("cannot read playbook '\(path)': not UTF-8 text")
        }
        let directory = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        return load(text: text, origin: path, directory: directory, isRemote: false)
    }
}
