import Foundation
import MemhuntArtifacts
import MemhuntBasics
import MemhuntChecks
import MemhuntCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ledger read from its file and judged: each side an entry names is collected relative to the ledger's
/// folder and walked by the playbook once, however many entries name it.
enum LedgerRun {
    /// Ledgers are written by hand or by triage: a larger file is not one.
    static let maxBytes = 16 << 20

    static let loader = LedgerLoader(knownChecks: builtInChecks.map { $0.description })
    static let judge = LedgerJudge(knownChecks: builtInChecks.map { $0.description })

    /// The ledger at `path`; every problem goes to stderr as `file:line:col`, and the command exits 2.
    static func load(_ path: String, console: Console) throws -> Ledger {
        if let why = LocalArtifacts.unreadable(path) { throw CommandError("\(path): \(why)") }
        guard let data = LocalArtifacts.head(of: path, upTo: maxBytes + 1) else {
            throw CommandError("\(path): the ledger cannot be read")
        }
        guard data.count <= maxBytes else {
            throw CommandError("\(path): the ledger is larger than \(maxBytes >> 20) MB; a ledger is a short YAML file")
        }
        guard let text = String(bytes: data, encoding: .utf8) else {
            throw CommandError("\(path): the ledger is not UTF-8 text")
        }
        let directory = (path as NSString).deletingLastPathComponent
        switch loader.load(text: text, origin: path, directory: directory.isEmpty ? "." : directory) {
        case .success(let ledger): return ledger
        case .failure(let error):
            console.lines(error.description)
            throw CommandError("the ledger is invalid (" + Plural.count(error.diagnostics.count, "problem") + ")")
        }
    }

    /// Appends `entries` (each to its top-level list) to the ledger at `path`, checks the whole ledger with
    /// them, and replaces the file only when it is still the text it read: two writers (two triage sessions,
    /// an agent and a person) lose no entry, and the second is told. Returns the ledger as written.
    @discardableResult
    static func append(
        _ entries: [(list: String, entry: [(String, LedgerEditor.Value)])], to path: String, console: Console
    )
        throws -> Ledger
    {
        // Writers through memhunt take turns on the ledger's folder (the file itself is replaced by a rename,
        // so a lock on it would not outlive the first write); the revision check below catches any other.
        let folder = AtomicFile.split(path).directory
        let lock = open(folder.isEmpty ? "." : folder, O_RDONLY)
        if lock >= 0 { _ = flock(lock, LOCK_EX) }
        defer { if lock >= 0 { close(lock) } }
        let ledger = try load(path, console: console)
        guard let data = LocalArtifacts.head(of: path, upTo: maxBytes + 1),
            var text = String(bytes: data, encoding: .utf8)
        else { throw CommandError("\(path): the ledger cannot be read") }
        for (list, entry) in entries {
            switch LedgerEditor.appending(entry, to: list, in: text) {
            case .success(let result): text = result
            case .failure(let error): throw CommandError("\(path): \(error)")
            }
        }
        let updated: Ledger
        switch loader.load(text: text, origin: path, directory: ledger.directory) {
        case .success(let checked): updated = checked
        case .failure(let error):
            console.lines(error.description)
            throw CommandError(
                "the entry would make the ledger invalid (" + Plural.count(error.diagnostics.count, "problem")
                    + "); nothing written")
        }
        // The revision check: the file must still be what was read when it is replaced.
        guard let now = LocalArtifacts.head(of: path, upTo: maxBytes + 1), now == data,
            SHA256.hex(now) == ledger.sha256
        else {
            throw CommandError(
                "\(path) changed since it was read (another writer); nothing written: read it again and add the entry")
        }
        do {
            try AtomicFile.write(Array(text.utf8), to: path)
        } catch {
            throw CommandError("\(error)")
        }
        return updated
    }

    /// A ledger's artifact path as a file to read: URLs and absolute paths as they are, the rest relative to
    /// the ledger's folder.
    static func resolve(_ path: String, in directory: String?) -> String {
        guard !ArtifactStore.isURL(path), !path.hasPrefix("/"), let directory, directory != "." else { return path }
        return directory + "/" + path
    }

    /// The hunt's own artifacts, as operands.
    static func operands(of ledger: Ledger) -> [String] {
        ledger.artifacts.map { resolve($0, in: ledger.directory) }
    }

    /// Every side read and walked, then the ledger judged.
    static func judged(
        _ ledger: Ledger, playbook: Playbook, app: String?, collector: ArtifactCollector, allowExec: Bool
    ) async -> LedgerJudgement {
        let engine = StepEngine(
            checks: builtInChecks, external: ProcessCheckRunner(environment: collector.console.environment),
            toolVersion: Memhunt.version)
        // Each side keeps only the facts the ledger names: a ledger of thousands of sides stays small.
        let needed = LedgerJudge.neededFacts(ledger)
        var evidence: [String: SideEvidence] = [:]
        for side in LedgerJudge.sides(of: ledger) {
            evidence[side.key] = await read(
                side, ledger: ledger, playbook: playbook, app: app ?? ledger.subject, engine: engine,
                collector: collector, allowExec: allowExec, needed: needed)
        }
        return judge.judge(ledger, evidence: evidence)
    }

    /// One side: its files (a missing one is a problem of the side, and the rest is still read), its label
    /// applied, the playbook walked over them.
    static func read(
        _ side: LedgerSide, ledger: Ledger, playbook: Playbook, app: String?, engine: StepEngine,
        collector: ArtifactCollector, allowExec: Bool, needed: Set<String>
    ) async -> SideEvidence {
        var problems: [String] = []
        var operands: [String] = []
        for path in side.artifacts {
            let resolved = resolve(path, in: ledger.directory)
            if !ArtifactStore.isURL(resolved), let why = LocalArtifacts.unreadable(resolved) {
                problems.append("\(path): \(why)")
            } else {
                operands.append(resolved)
            }
        }
        guard !operands.isEmpty else { return .unavailable(side, problems) }
        var artifacts = await collector.collect(operands)
        // Sources as the ledger names them, so that every sentence cites the path the person wrote.
        for index in artifacts.indices {
            for (path, resolved) in zip(side.artifacts, side.artifacts.map { resolve($0, in: ledger.directory) })
            where artifacts[index].source.hasPrefix(resolved) {
                artifacts[index].source = path + artifacts[index].source.dropFirst(resolved.count)
            }
        }
        let (selected, missing) = SideEvidence.select(artifacts, label: side.label)
        if let missing { problems.append(missing) }
        let result = await engine.run(playbook: playbook, artifacts: selected, app: app, allowExec: allowExec)
        return SideEvidence(
            side: side, result: result, problems: problems, readings: judge.readings, keeping: needed)
    }
}
