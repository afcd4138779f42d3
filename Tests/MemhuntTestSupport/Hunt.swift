import Foundation
import MemhuntArtifacts
import MemhuntChecks
import MemhuntCore

/// Runs a shipped playbook over fixture folders the way `memhunt run` does, without the CLI.
public enum Hunt {
    public static func playbook(_ id: String = "memory-hunt") throws -> Playbook {
        let loader = PlaybookLoader(knownChecks: builtInChecks.map { $0.description })
        return try require_(loader.builtIn(id), "no built-in playbook \(id)").get()
    }

    /// Loads every file under the given folders (relative to `Fixtures/`, or absolute) and walks the playbook.
    public static func run(_ folders: [String], app: String?, playbook id: String = "memory-hunt") async throws
        -> RunResult
    {
        let paths = LocalArtifacts.expand(folders.map { $0.hasPrefix("/") ? $0 : Repo.fixture($0) })
        let artifacts = paths.map { LocalArtifacts.load(path: $0, source: Repo.relative($0)) }
        return await StepEngine(checks: builtInChecks, external: ProcessCheckRunner(), toolVersion: "test")
            .run(playbook: try playbook(id), artifacts: artifacts, app: app)
    }
}

struct MissingValue: Error, CustomStringConvertible {
    var description: String
}

// A tiny stand-in for `#require` outside a test function.
func require_<T>(_ value: T?, _ message: String) throws -> T {
    guard let value else { throw MissingValue(description: message) }
    return value
}

extension Repo {
    /// A path relative to the repository root, as reports show it.
    public static func relative(_ path: String) -> String {
        path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }
}
