import Dispatch
import Foundation
import MemhuntArtifacts
import MemhuntCore
import MemhuntFormats
import MemhuntReports
import MemhuntSnapshots

/// `memhunt scan`: a fleet of JetsamEvents, crash reports and MetricKit payloads folded into per-app
/// figures. Local files are read in parallel (one worker per core, each holding one file at a time) and
/// every record is folded into the worker's `ScanAggregate` and dropped; only the list of paths and the
/// aggregates stay. Files are read without their SHA-256, which a scan never shows. 10,000 generated records
/// (`/usr/bin/time -v`, 2 shared cores, 2026-11-30): 0.43 s CPU and 26 MB peak RSS in release (1.14 s before
/// the second round of issue 13), 3.4 s and 35 MB in debug (`Benchmarks/run.py`'s fleet row).
struct ScanCommand: MemhuntCommand {
    static let app = OptionSpec(
        "app", valueName: "name", help: "One app: its figures and its ten worst records as runnable lines.")

    static let spec = CommandSpec(
        "scan",
        abstract: "Fold many JetsamEvents, crash reports and MetricKit payloads into per-app figures.",
        arguments: [
            ArgumentSpec(
                "artifact", help: "A file, a directory (walked), an http(s) URL or a manifest.", isRepeating: true)
        ],
        options: [app, Options.format(["csv", "json", "ndjson", "text"]), RunCommand.deadline]
    )

    var parsed: ParsedCommand
    var console: Console

    init(_ parsed: ParsedCommand, console: Console) throws {
        self.parsed = parsed
        self.console = console
    }

    /// The shared state of the workers.
    final class Work: @unchecked Sendable {
        let lock = NSLock()
        let files: [String]
        var next = 0
        var done = 0
        var lastProgress = DispatchTime.now().uptimeNanoseconds
        var aggregate = ScanAggregate()
        /// The sha256 of every file read so far: a file with the same bytes is one record.
        var seen = Set<String>()

        init(files: [String]) { self.files = files }

        /// Whether bytes with this sha256 were read already (and notes them when not).
        func isDuplicate(_ sha256: String?) -> Bool {
            guard let sha256 else { return false }
            return lock.withLock { !seen.insert(sha256).inserted }
        }

        func take() -> String? {
            lock.withLock {
                guard next < files.count else { return nil }
                next += 1
                return files[next - 1]
            }
        }
    }

    func execute() async throws -> Memhunt.ExitStatus {
        let operands = parsed.values.positionals
        let format = parsed.values.string(Options.format()) ?? "text"
        let query = parsed.values.string(Self.app)
        let isRemote = { (operand: String) in
            operand == "-" || operand.hasPrefix("http://") || operand.hasPrefix("https://")
        }
        // The summary does not depend on the order files are read (rejected files are sorted, samples kept by
        // a total order, percentiles from sorted values): the walk is left unsorted.
        // An operand that cannot be read at all makes the scan one that could not be done as asked (as in `run`);
        // it is still listed among the rejected files.
        var unread = operands.filter { !isRemote($0) }.compactMap { operand in
            LocalArtifacts.unreadable(operand).map { "\(operand): \($0)" }
        }
        let local = operands.filter { !isRemote($0) }.map { ($0, LocalArtifacts.expand([$0], sorted: false)) }
        // A folder of no file is named too (as `run` names it), not passed over in silence.
        unread += local.filter { $0.1.isEmpty }.map { "\($0.0): no files to read" }
        let files = local.flatMap(\.1)
        var aggregate = await Self.scan(files: files, format: format, query: query, console: console)
        let remote = operands.filter(isRemote)
        if !remote.isEmpty {
            let collector = try ArtifactCollector(console: console, command: parsed)
            defer { collector.removeCache() }
            for artifact in await collector.collect(remote) {
                if artifact.isOperand, artifact.status == .error, artifact.size == nil {
                    let why = artifact.error ?? "cannot be read"
                    unread.append(why.hasPrefix(artifact.source) ? why : "\(artifact.source): \(why)")
                }
                Self.fold(artifact, into: &aggregate, format: format, query: query, console: console)
            }
        }
        let status = render(aggregate, format: format, query: query)
        guard status == .success else { return status }
        return InspectCommand.announce(unread, console: console)
    }

    /// Reads `files` on every core, a bounded number in flight (one per worker).
    static func scan(files: [String], format: String, query: String?, console: Console) async -> ScanAggregate {
        let work = Work(files: files)
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, files.count))
        let progress = console.stderr.isTTY
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                DispatchQueue.concurrentPerform(iterations: workers) { _ in
                    var local = ScanAggregate()
                    while let path = work.take() {
                        // Hashed so that the same file reached twice (two operands, a copy in the fleet) counts once.
                        let artifact = LocalArtifacts.load(path: path, hash: true, streamChangeLogs: false)
                        if artifact.status == .ok, work.isDuplicate(artifact.sha256) {
                            local.duplicates += 1
                        } else {
                            fold(artifact, into: &local, format: format, query: query, console: console)
                        }
                        guard progress else { continue }
                        work.lock.withLock {
                            work.done += 1
                            let now = DispatchTime.now().uptimeNanoseconds
                            // At most ten updates a second.
                            if now - work.lastProgress >= 100_000_000 || work.done == files.count {
                                work.lastProgress = now
                                console.stderr.write(
                                    "\rscan: \(FactValue.grouped(work.done)) / \(FactValue.grouped(files.count)) files\u{1B}[K"
                                        + (work.done == files.count ? "\n" : ""))
                            }
                        }
                    }
                    work.lock.withLock { work.aggregate.merge(local) }
                }
                continuation.resume()
            }
        }
        return work.aggregate
    }

    /// Folds one artifact: a record, a rejected file or a skipped kind. With ndjson the record's line is
    /// written at once (in completion order; each line names its file).
    static func fold(
        _ artifact: Artifact, into aggregate: inout ScanAggregate, format: String, query: String?, console: Console
    ) {
        // A kind the scan counts no record of, detected and not read (a change log).
        if artifact.status == .ok, artifact.content == nil, let kind = artifact.kind {
            aggregate.skip(kind: kind.rawValue)
            return
        }
        guard artifact.status == .ok, let content = artifact.content else {
            let reason = artifact.error ?? "not readable"
            aggregate.reject(file: artifact.source, reason: reason)
            if format == "ndjson" { console.note("memhunt: rejected \(artifact.source): \(reason)") }
            return
        }
        // Apple's aggregates, not a record: kept apart from the records' figures (and from ndjson's records).
        if case .ascMetrics(let metrics) = content {
            aggregate.appStoreConnect.append(ScanASCMetrics(file: artifact.source, metrics: metrics))
            return
        }
        guard let record = ScanRecord(file: artifact.source, content: content) else {
            aggregate.skip(kind: content.kind.rawValue)
            return
        }
        if format == "ndjson" {
            if let query, !record.apps.contains(where: { matches($0.name, query) }) { return }
            console.stdout.write(ndjsonLine(record))
        }
        aggregate.add(record)
    }

    static func matches(_ name: String, _ query: String) -> Bool {
        let lower = name.lowercased(), wanted = query.lowercased()
        return lower == wanted || lower.hasSuffix("." + wanted) || wanted.hasSuffix("." + lower)
    }

    static func ndjsonLine(_ record: ScanRecord) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(record) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    // MARK: - Output

    func render(_ aggregate: ScanAggregate, format: String, query: String?) -> Memhunt.ExitStatus {
        var selected: [(name: String, figures: ScanAggregate.App)]
        if let query {
            guard let match = aggregate.app(matching: query) else {
                let known = aggregate.apps.keys.sorted().prefix(20).joined(separator: ", ")
                console.note(
                    "memhunt: no record names the app '\(query)'" + (known.isEmpty ? "" : "; the records name \(known)")
                )
                return .couldNotRun
            }
            selected = [(match.names.joined(separator: ", "), match.figures)]
        } else {
            selected = aggregate.apps.map { ($0.key, $0.value) }.sorted {
                $0.figures.records != $1.figures.records ? $0.figures.records > $1.figures.records : $0.name < $1.name
            }
        }
        let document = ScanDocument(aggregate, apps: selected, query: query)
        switch format {
        case "ndjson": break
        case "json": console.stdout.write(JSONText.pretty(document))
        case "csv": console.stdout.write(document.csv())
        default: console.stdout.write(document.text())
        }
        return .success
    }
}
