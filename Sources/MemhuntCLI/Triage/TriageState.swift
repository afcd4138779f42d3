import Foundation
import MemhuntArtifacts
import MemhuntCore
import MemhuntReports

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a triage saves after every answer: enough to continue at the first unfinished step.
///
/// A session file is data from outside (anyone may hand one over): every field is checked when it is resumed
/// (`validated`), and its paths are relative to the session file's own folder. It writes its report only inside
/// that folder, and replaces only a regular file it wrote itself (`report` records which), never an artifact.
struct TriageState: Codable, Sendable {
    /// `/2`: paths relative to the session's folder. `/1` recorded them as given, relative to where it ran.
    static let currentSchema = "memhunt.triage/2"

    var schema = currentSchema
    /// The user's report, in their words.
    var reported: String?
    /// The playbook as chosen: a built-in id, a path or a URL.
    var playbook: String
    /// Artifact operands and answers that are candidates (paths and URLs), in the order given.
    var operands: [String]
    /// `--format` and `--output` of the report written at the end.
    var format: String
    var output: String?
    /// The hunt session: the artifacts accepted so far and every step's result.
    var session: HuntSession.State
    /// Whether the walk reached its end and wrote the report.
    var finished = false
    /// The report file the session wrote, or the existing one its command line named with `-o` (device and
    /// inode), so that a resumed session replaces that file and nothing else.
    var report: FileIdentity?
    /// The investigation ledger this session writes to, once the person typed a hypothesis.
    var ledger: String?

    struct FileIdentity: Codable, Sendable, Equatable {
        var device: UInt64
        var inode: UInt64

        /// The identity of the regular file at `path` (not followed if a link); nil for anything else.
        static func of(_ path: String) -> FileIdentity? {
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
            return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
    }
}

/// A bad session file: the field and what is wrong with it.
struct SessionFieldError: Error, CustomStringConvertible {
    var file: String
    var field: String
    var problem: String
    var description: String { "\(file): field '\(field)' of the triage session \(problem)" }
}

/// Paths of a session file: relative to its folder when saved, resolved against it when resumed.
struct SessionPaths {
    /// The session file's folder, absolute and without `..`.
    let folder: String
    let here = FileManager.default.currentDirectoryPath

    init(sessionFile: String) {
        let absolute = SessionPaths.absolute(sessionFile, in: FileManager.default.currentDirectoryPath)
        folder = AtomicFile.split(absolute).directory
    }

    /// `path` made absolute against `directory`, without `.`, `..` or empty parts: `URL.standardized` keeps
    /// the empty part of `//`, and `..` after it then took away one folder too few (a session file under
    /// `/tmp//` read its artifacts from the wrong folder).
    static func absolute(_ path: String, in directory: String) -> String {
        var parts: [Substring] = []
        for part in (path.hasPrefix("/") ? path : directory + "/" + path).split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    static func isLocal(_ value: String) -> Bool { value != "-" && !ArtifactStore.isURL(value) }

    /// A path as the session records it: relative to its folder (a URL or `-` as it is).
    func recorded(_ path: String) -> String {
        guard Self.isLocal(path) else { return path }
        let target = Self.absolute(path, in: here).split(separator: "/")
        let base = folder.split(separator: "/")
        var common = 0
        while common < min(target.count, base.count), target[common] == base[common] { common += 1 }
        let parts = Array(repeating: "..", count: base.count - common) + target[common...].map(String.init)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// A recorded path as memhunt reads it: resolved against the session's folder, shown relative to the
    /// current folder when it is under it (as it was given, in the usual case).
    func resolved(_ recorded: String) -> String {
        guard Self.isLocal(recorded) else { return recorded }
        let absolute = Self.absolute(recorded, in: folder)
        let prefix = here.hasSuffix("/") ? here : here + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }

    /// Where the session's own `output` may be written: relative, inside the session's folder (also once its
    /// links are resolved), and either new or the regular file the session wrote (`report`), never an input.
    func output(_ recorded: String, report: TriageState.FileIdentity?, inputs: [String], file: String) throws
        -> String
    {
        func refuse(_ problem: String) -> SessionFieldError {
            SessionFieldError(file: file, field: "output", problem: "'\(recorded)' " + problem)
        }
        guard !recorded.isEmpty, !recorded.contains("\u{0}") else { throw refuse("is not a file name") }
        guard !ArtifactStore.isURL(recorded) else { throw refuse("is a URL; a report is written to a file") }
        guard !recorded.hasPrefix("/") else {
            throw refuse("is absolute; a session writes only in its own folder, by a path relative to it")
        }
        guard !recorded.split(separator: "/").contains("..") else {
            throw refuse("leaves the session's folder; a session writes only in its own folder")
        }
        let path = Self.absolute(recorded, in: folder)
        if let real = SameFile.resolved(path), let base = SameFile.resolved(folder),
            !(real + "/").hasPrefix(base == "/" ? "/" : base + "/")
        {
            throw refuse("resolves outside the session's folder (\(real))")
        }
        if let input = SameFile.input(replacedBy: path, inputs: inputs) {
            throw refuse("is an input of the session (\(input)), which memhunt never replaces")
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else { throw refuse("is not a regular file") }
            guard let report, report == TriageState.FileIdentity.of(path) else {
                throw refuse("is a file this session did not write, which it does not replace")
            }
        }
        return resolved(recorded)
    }
}

extension TriageState {
    /// The state as saved: its local paths relative to the session's folder.
    func recorded(by paths: SessionPaths) -> TriageState {
        var copy = self
        copy.operands = operands.map(paths.recorded)
        copy.output = output.map(paths.recorded)
        copy.ledger = ledger.map(paths.recorded)
        copy.session.artifactSources = session.artifactSources.map(paths.recorded)
        if playbookLoader.builtIn(playbook) == nil { copy.playbook = paths.recorded(playbook) }
        return copy
    }

    /// A state read from `file`, every field checked, its paths resolved against the session's folder. Throws
    /// `SessionFieldError` naming the field.
    static func validated(_ state: TriageState, file: String, paths: SessionPaths, formats: [String]) throws
        -> TriageState
    {
        func field(_ name: String, _ problem: String) -> SessionFieldError {
            SessionFieldError(file: file, field: name, problem: problem)
        }
        guard state.schema == currentSchema else {
            if state.schema == "memhunt.triage/1" {
                throw field(
                    "schema",
                    "is memhunt.triage/1, whose paths are relative to where it ran; start the triage again")
            }
            throw field("schema", "is '\(state.schema)'; this memhunt reads \(currentSchema)")
        }
        func checkPath(_ name: String, _ value: String) throws {
            guard !value.isEmpty, !value.unicodeScalars.contains(where: TerminalText.isControl) else {
                throw field(name, "holds '\(value)', which is not a path or URL")
            }
        }
        try checkPath("playbook", state.playbook)
        if let ledger = state.ledger {
            try checkPath("ledger", ledger)
            guard SessionPaths.isLocal(ledger) else {
                throw field("ledger", "is '\(ledger)'; a ledger is a local file")
            }
        }
        for (index, operand) in state.operands.enumerated() { try checkPath("operands[\(index)]", operand) }
        for (index, source) in state.session.artifactSources.enumerated() {
            try checkPath("session.artifactSources[\(index)]", source)
        }
        guard formats.contains(state.format) else {
            throw field("format", "is '\(state.format)', not one of " + formats.joined(separator: ", "))
        }
        guard (0...state.session.steps.count).contains(state.session.cursor) else {
            throw field("session.cursor", "is \(state.session.cursor), outside 0…\(state.session.steps.count)")
        }
        if let reported = state.reported, reported.utf8.count > 65_536 {
            throw field("reported", "is longer than 64 KB")
        }
        var resolved = state
        resolved.operands = state.operands.map(paths.resolved)
        resolved.ledger = state.ledger.map(paths.resolved)
        resolved.session.artifactSources = state.session.artifactSources.map(paths.resolved)
        if playbookLoader.builtIn(state.playbook) == nil { resolved.playbook = paths.resolved(state.playbook) }
        // The output stays as recorded: `SessionPaths.output` checks it once the artifacts are known.
        return resolved
    }
}
