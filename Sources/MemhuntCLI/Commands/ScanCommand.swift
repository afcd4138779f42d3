import Dispatch
import Foundation
import MemhuntArtifacts
import MemhuntBasics
import MemhuntCore
import MemhuntFormats
import MemhuntReports
import MemhuntSnapshots

/// `memhunt scan`: a fleet of JetsamEvents, crash reports and MetricKit payloads folded into per-app figures. Local
/// files are read in parallel (one worker per core, each holding one file at a time) and every record is folded into
/// the worker's `ScanAggregate` and dropped; the walk hands the workers each path as it finds it (`FileWalk`), so only
/// the aggregates stay, which lowered the peak memory of a large scan with the same JSON out. Files are read without
/// their SHA-256, which a scan never shows. `Benchmarks/run.py`'s fleet row measures a scan of generated records.
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

    /// The shared state of the workers: the walk hands out one path at a time (no list of the fleet's paths).
    final class Work: @unchecked Sendable {
        let lock = NSLock()
        let walk: FileWalk
        var done = 0
        var lastProgress = DispatchTime.now().uptimeNanoseconds
        var aggregate = ScanAggregate()
        /// The first 128 bits of the sha256 of every file read so far: a file with the same bytes is one record.
        /// Two words a file, where the hex `String` was a heap object of 64 characters (1,000,000 records:
        /// 16 MB of keys instead of about 100), in a table fuller than a `Set`'s (`DigestSet`).
        var seen = DigestSet()

        /// The identities of the records read so far (`Artifact.recordIdentity`): the same record in other bytes
        /// (a CRLF copy, a paste) is one record too. Only crash reports and JetsamEvents have one.
        var seenRecords = Set<String>()
        /// The same identities in words (`recordIdentity.description`): a fragment of a record read already is
        /// that record (a whole record's key also holds its processes, which a fragment lacks).
        var seenDescriptions = Set<String>()

        init(walk: FileWalk) {
            self.walk = walk
            aggregate.sdk.room = take
        }

        /// The OS records the workers may still keep for SDK claims, all of them together.
        var sdkRoom = ScanSDKClaims.recordLimit

        /// How many of `wanted` OS records a worker may keep (`ScanSDKClaims.room`).
        @Sendable func take(_ wanted: Int) -> Int {
            lock.withLock {
                let granted = min(wanted, sdkRoom)
                sdkRoom -= granted
                return granted
            }
        }

        /// Fragments of records (elided or partial pastes with an identity), folded after the walk unless a whole
        /// record of theirs was read: whichever came first, the whole record is the one counted.
        var fragments: [Artifact] = []

        /// What the record an artifact holds is to the scan: new, a whole record read already, or a fragment (kept
        /// for the end, `fragments`). An artifact with no record identity is new.
        enum Record { case new, seen, fragment }

        func record(_ artifact: Artifact) -> Record {
            guard let identity = artifact.recordIdentity else { return .new }
            return lock.withLock {
                if identity.key == identity.description {
                    fragments.append(artifact)
                    return .fragment
                }
                seenDescriptions.insert(identity.description)
                return seenRecords.insert(identity.key).inserted ? .new : .seen
            }
        }

        /// Whether bytes with this sha256 (hex) were read already (and notes them when not).
        func isDuplicate(_ sha256: String?) -> Bool {
            guard let sha256, let digest = Self.digest(sha256) else { return false }
            return lock.withLock { !seen.insert(high: digest.high, low: digest.low) }
        }

        /// The first 32 hex digits of `hex` as two words; nil when they are not hex.
        static func digest(_ hex: String) -> (high: UInt64, low: UInt64)? {
            let utf8 = Array(hex.utf8.prefix(32))
            guard utf8.count == 32, let high = UInt64(String(decoding: utf8[0..<16], as: UTF8.self), radix: 16),
                let low = UInt64(String(decoding: utf8[16..<32], as: UTF8.self), radix: 16)
            else { return nil }
            return (high, low)
        }

        func take() -> (path: String, listedRegular: Bool)? { lock.withLock { walk.nextEntry() } }
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
        let walk = FileWalk(operands.filter { !isRemote($0) })
        var aggregate = await Self.scan(walk, format: format, query: query, console: console)
        // A folder of no file is named too (as `run` names it), not passed over in silence.
        unread += walk.emptyOperands.map { "\($0): no files to read" }
        // A file named as an operand that is nothing memhunt can read (empty, binary) is exit 2, as in `run` and
        // `inspect`, with the same words; only rejected operands are read again to tell.
        let rejected = Set(aggregate.rejected.map(\.file))
        for operand in operands where !isRemote(operand) && rejected.contains(operand) {
            let artifact = LocalArtifacts.load(path: operand, hash: false, streamChangeLogs: false)
            if InspectCommand.isUnusable(artifact) {
                unread.append("\(operand): \(artifact.error ?? "cannot be read")")
            }
        }
        let remote = operands.filter(isRemote)
        if !remote.isEmpty {
            let collector = try ArtifactCollector(console: console, command: parsed)
            defer { collector.removeCache() }
            var lines = ""
            for artifact in await collector.collect(remote) {
                if artifact.isOperand, InspectCommand.isUnusable(artifact) {
                    let why = artifact.error ?? "cannot be read"
                    unread.append(why.hasPrefix(artifact.source) ? why : "\(artifact.source): \(why)")
                }
                Self.fold(artifact, into: &aggregate, lines: &lines, format: format, query: query, console: console)
                Self.flush(&lines, console: console, atLeast: 0)
            }
        }
        let status = render(aggregate, format: format, query: query)
        guard status == .success else { return status }
        return InspectCommand.announce(unread, console: console)
    }

    /// Reads the walk's files on every core, a bounded number in flight (one per worker), as the walk finds them.
    static func scan(_ walk: FileWalk, format: String, query: String?, console: Console) async -> ScanAggregate {
        let work = Work(walk: walk)
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let progress = console.stderr.isTTY
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                DispatchQueue.concurrentPerform(iterations: workers) { _ in
                    var local = ScanAggregate()
                    local.sdk.room = work.take
                    var lines = ""
                    defer { flush(&lines, console: console, atLeast: 0) }
                    while let (path, listedRegular) = work.take() {
                        // Hashed so that the same file reached twice (two operands, a copy in the fleet) counts once.
                        let loaded = LocalArtifacts.load(
                            path: path, hash: true, streamChangeLogs: false, listedRegular: listedRegular)
                        // A page of several records is a record each.
                        // memhunt's own findings documents (runs on other devices or CI jobs): their findings by
                        // signature, a copy of one counted once.
                        if loaded.status == .unrecognized, let document = findingsDocument(loaded) {
                            if work.isDuplicate(loaded.sha256) {
                                local.duplicates += 1
                            } else {
                                local.findings.add(document, file: loaded.source)
                            }
                            continue
                        }
                        for artifact in PageRecords.expanding(loaded) {
                            let record: Work.Record =
                                artifact.status != .ok
                                ? .new : work.isDuplicate(artifact.sha256) ? .seen : work.record(artifact)
                            if record == .seen {
                                local.duplicates += 1
                            } else if record == .fragment {
                                // Counted or folded at the end.
                            } else {
                                fold(
                                    artifact, into: &local, lines: &lines, format: format, query: query,
                                    console: console)
                                flush(&lines, console: console, atLeast: linesBuffered)
                            }
                        }
                        guard progress else { continue }
                        work.lock.withLock {
                            work.done += 1
                            let now = DispatchTime.now().uptimeNanoseconds
                            // At most ten updates a second.
                            if now - work.lastProgress >= 100_000_000 {
                                work.lastProgress = now
                                console.stderr.write("\rscan: \(FactValue.grouped(work.done)) files\u{1B}[K")
                            }
                        }
                    }
                    work.lock.withLock { work.aggregate.merge(local) }
                }
                if progress, work.done > 0 {
                    console.stderr.write("\rscan: \(FactValue.grouped(work.done)) files\u{1B}[K\n")
                }
                // Fragments, in a fixed order: a whole record of theirs, or an earlier fragment, makes them duplicates.
                var lines = ""
                var seen = Set<String>()
                for fragment in work.fragments.sorted(by: { $0.source < $1.source }) {
                    let description = fragment.recordIdentity?.description ?? ""
                    if work.seenDescriptions.contains(description) || !seen.insert(description).inserted {
                        work.aggregate.duplicates += 1
                    } else {
                        fold(
                            fragment, into: &work.aggregate, lines: &lines, format: format, query: query,
                            console: console)
                    }
                }
                flush(&lines, console: console, atLeast: 0)
                continuation.resume()
            }
        }
        return work.aggregate
    }

    /// The ndjson lines a worker keeps before it writes them in one piece (whole lines: workers' lines do not
    /// interleave within one). One write a line was 100,000 `write` calls for 100,000 records.
    static let linesBuffered = 64 << 10

    /// Writes `lines` when they hold at least `bytes` bytes (any with 0), and empties them.
    static func flush(_ lines: inout String, console: Console, atLeast bytes: Int) {
        guard !lines.isEmpty, lines.utf8.count >= bytes else { return }
        console.stdout.write(lines)
        lines.removeAll(keepingCapacity: true)
    }

    /// Folds one artifact: a record, a rejected file or a skipped kind. With ndjson the record's line is
    /// appended to `lines` (in completion order; each line names its file), for the caller to write, and the
    /// record is folded only with `--app`.
    static func fold(
        _ artifact: Artifact, into aggregate: inout ScanAggregate, lines: inout String, format: String,
        query: String?, console: Console
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
        // An SDK export's claims, and the OS records that grade them: graded once every file is read.
        if case .sdkExport(let export) = content {
            if format == "ndjson" {
                for event in export.events
                where query == nil
                    || [event.app, event.bundleID].contains(where: {
                        $0.map { matches($0, query!) } ?? false
                    })
                {
                    lines += ScanRecord.ndjsonLine(of: event, file: artifact.source)
                }
                guard query != nil else { return }
            }
            aggregate.sdk.add(content, file: artifact.source)
            return
        }
        if format != "ndjson" { aggregate.sdk.add(content, file: artifact.source) }
        guard let record = ScanRecord(file: artifact.source, content: content) else {
            aggregate.skip(kind: content.kind.rawValue)
            return
        }
        if format == "ndjson" {
            if let query, !record.apps.contains(where: { matches($0.name, query) }) { return }
            lines += record.ndjsonLine
            // ndjson prints no figures: the aggregate serves only `--app`'s check that some record names the app.
            guard query != nil else { return }
        }
        aggregate.add(record)
    }

    /// The findings document `artifact` holds: a JSON object within the size `memhunt report` reads.
    static func findingsDocument(_ artifact: Artifact) -> FindingsDocument? {
        let path = artifact.localPath ?? artifact.source
        guard let size = artifact.size, size <= FindingsInput.limit, FindingsInput.looksLikeJSON(path),
            let data = FileManager.default.contents(atPath: path)
        else { return nil }
        return try? FindingsDocument.decode(Array(data))
    }

    static func matches(_ name: String, _ query: String) -> Bool { ScanDocument.named(query, name) }

    // MARK: - Output

    /// Why `--app` selected nothing: what was read, what could not be (a file not read may be the app's), and
    /// the apps the records do name (20 of them, and how many more).
    static func noRecordNames(_ query: String, in aggregate: ScanAggregate) -> String {
        let names = aggregate.apps.keys.sorted()
        var note = "Error: no record names the app '\(query)'"
        if !aggregate.rejected.isEmpty {
            note +=
                "; \(Plural.count(aggregate.rejected.count, "file")) could not be read: a record among them may name it"
        }
        if !names.isEmpty {
            note += "; the records name " + names.prefix(20).joined(separator: ", ")
            if names.count > 20 { note += " and \(names.count - 20) more" }
        }
        return note
    }

    func render(_ aggregate: ScanAggregate, format: String, query: String?) -> Memhunt.ExitStatus {
        var selected: [(name: String, figures: ScanAggregate.App)]
        if let query {
            guard let match = aggregate.app(matching: query) else {
                console.note(Self.noRecordNames(query, in: aggregate))
                return .couldNotRun
            }
            selected = [(match.names.joined(separator: ", "), match.figures)]
        } else {
            // A name and a bundle id that the records tie together are one app, as with --app.
            selected = aggregate.groupedApps
        }
        let document = ScanDocument(aggregate, apps: selected, query: query)
        switch format {
        case "ndjson": break
        case "json": console.stdout.write(JSONText.pretty(document))
        case "csv": console.stdout.write(document.csv())
        // Wrapped at the terminal's width, else COLUMNS; with neither, its long header lines stay whole (a
        // script's parser reads them as they are).
        default:
            let text = document.text()
            console.stdout.write(console.reportWidth.map { TextReporter.wrapLines(text, width: $0) } ?? text)
        }
        return .success
    }
}
