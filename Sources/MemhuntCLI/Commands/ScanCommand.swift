import Dispatch
import Foundation
import MemhuntArtifacts
import MemhuntCore
import MemhuntFormats
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
        options: [app, Options.format(["csv", "json", "ndjson", "text"])]
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

        init(files: [String]) { self.files = files }

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
        let files = LocalArtifacts.expand(operands.filter { !isRemote($0) }, sorted: false)
        var aggregate = await Self.scan(files: files, format: format, query: query, console: console)
        let remote = operands.filter(isRemote)
        if !remote.isEmpty {
            let collector = try ArtifactCollector(console: console)
            defer { collector.removeCache() }
            for artifact in await collector.collect(remote) {
                Self.fold(artifact, into: &aggregate, format: format, query: query, console: console)
            }
        }
        return render(aggregate, format: format, query: query)
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
                        fold(
                            LocalArtifacts.load(path: path, hash: false, streamChangeLogs: false), into: &local,
                            format: format, query: query, console: console)
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
            if format == "ndjson" { console.stderr.write("memhunt: rejected \(artifact.source): \(reason)\n") }
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
                console.stderr.write(
                    "memhunt: no record names the app '\(query)'" + (known.isEmpty ? "" : "; the records name \(known)")
                        + "\n")
                return .couldNotRun
            }
            selected = [(match.names.joined(separator: ", "), match.figures)]
        } else {
            selected = aggregate.apps.map { ($0.key, $0.value) }.sorted {
                $0.figures.records != $1.figures.records ? $0.figures.records > $1.figures.records : $0.name < $1.name
            }
        }
        let document = Document(aggregate, apps: selected, query: query)
        switch format {
        case "ndjson": break
        case "json": console.stdout.write(JSONText.pretty(document))
        case "csv": console.stdout.write(document.csv())
        default: console.stdout.write(document.text())
        }
        return .success
    }

    /// `memhunt.scan/1`: the figures every format prints.
    struct Document: Encodable {
        struct Compressions: Encodable {
            var note = "memoryStatus.compressions: pages compressed since boot (a counter, not a moment)"
            var records: Int
            var min: UInt64?
            var median: UInt64?
            var max: UInt64?
            /// Records whose counter holds a value no count reaches (above 2^63 - 1), left out of the figures.
            var notCounts: Int
        }

        struct Ranks: Encodable {
            var first: Int
            var second: Int
            var sixth: Int
            var over: Int

            enum CodingKeys: String, CodingKey {
                case first = "1", second = "2-5", sixth = "6-10", over = ">10"
            }
        }

        struct Worst: Encodable {
            var file: String
            var app: String
            var peakMB: Double
            var command: String
        }

        struct App: Encodable {
            var name: String
            var records: Int
            var ranks: Ranks
            var peakMB: ScanDistribution?
            var suspendedResidentMB: ScanDistribution?
            var reasons: [String: Int]
            var devices: [String: Int]
            var builds: [String: Int]
            var worst: [Worst]?
        }

        struct Outlier: Encodable {
            var file: String
            var app: String
            var peakMB: Double
        }

        var schema = "memhunt.scan/1"
        var records: Int
        var recordsByKind: [String: Int]
        var rejected: [ScanAggregate.Rejected]
        var skipped: [String: Int]
        var compressions: Compressions?
        var apps: [App]
        var outliers: [Outlier]

        init(_ aggregate: ScanAggregate, apps: [(name: String, figures: ScanAggregate.App)], query: String?) {
            records = aggregate.records
            recordsByKind = aggregate.recordsByKind
            rejected = aggregate.rejected.sorted { $0.file < $1.file }
            skipped = aggregate.skipped
            let sorted = aggregate.compressions.sorted()
            if !sorted.isEmpty || aggregate.compressionsNotCounts > 0 {
                compressions = Compressions(
                    records: sorted.count, min: sorted.first, median: ScanFigures.percentile(sorted, 50),
                    max: sorted.last, notCounts: aggregate.compressionsNotCounts)
            }
            self.apps = apps.map { name, figures in
                App(
                    name: name, records: figures.records,
                    ranks: Ranks(
                        first: figures.ranks[0], second: figures.ranks[1], sixth: figures.ranks[2],
                        over: figures.ranks[3]),
                    peakMB: ScanDistribution(kibibytes: figures.peaksKiB),
                    suspendedResidentMB: ScanDistribution(kibibytes: figures.suspendedKiB),
                    reasons: figures.reasons, devices: figures.devices, builds: figures.builds,
                    worst: query == nil
                        ? nil
                        : figures.worst.map {
                            Worst(
                                file: $0.file, app: $0.app, peakMB: ScanFigures.megabytes($0.peakKiB),
                                command: "memhunt run --app \(Self.quoted($0.app)) \(Self.quoted($0.file))")
                        })
            }
            outliers = aggregate.outliers.map {
                Outlier(file: $0.file, app: $0.app, peakMB: ScanFigures.megabytes($0.peakKiB))
            }
        }

        /// A shell word: as is when plain, else single-quoted.
        static func quoted(_ word: String) -> String {
            let plain = word.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) || "-_./,:+=@%".unicodeScalars.contains($0)
            }
            return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }

        static func counts(_ counts: [String: Int]) -> String {
            counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .map { "\($0.key) \(FactValue.grouped($0.value))" }.joined(separator: ", ")
        }

        static func mb(_ value: Double) -> String { String(format: "%.1f", value) }

        static func distribution(_ d: ScanDistribution?) -> String {
            guard let d else { return "-" }
            return
                "p50 \(mb(d.p50))  p90 \(mb(d.p90))  p99 \(mb(d.p99))  max \(mb(d.max))  (\(FactValue.grouped(d.count)))"
        }

        func text() -> String {
            var out = "Records: \(FactValue.grouped(records))"
            if !recordsByKind.isEmpty { out += " (\(Self.counts(recordsByKind)))" }
            out += ", rejected: \(FactValue.grouped(rejected.count))"
            if !skipped.isEmpty { out += ", skipped: \(Self.counts(skipped))" }
            out += "\n"
            for file in rejected { out += "   rejected \(file.file): \(file.reason)\n" }
            if let c = compressions {
                out += "Compressions (a counter since boot, per record):"
                if let min = c.min, let median = c.median, let max = c.max {
                    out += " min \(FactValue.grouped(min))  median \(FactValue.grouped(median))  "
                    out += "max \(FactValue.grouped(max))  (\(Plural.count(c.records, "record")))"
                }
                if c.notCounts > 0 {
                    out += (c.records > 0 ? ";" : "") + " \(Plural.count(c.notCounts, "record")) with a counter above "
                    out += "2^63 - 1, no count (left out)"
                }
                out += "\n"
            }
            for app in apps {
                out += "\n\(app.name)  \(Plural.count(app.records, "record"))\n"
                let r = app.ranks
                out += "   rank                 1: \(FactValue.grouped(r.first))  2-5: \(FactValue.grouped(r.second))  "
                out += "6-10: \(FactValue.grouped(r.sixth))  >10: \(FactValue.grouped(r.over))\n"
                out += "   peak MB              \(Self.distribution(app.peakMB))\n"
                out += "   suspended MB         \(Self.distribution(app.suspendedResidentMB))\n"
                if !app.reasons.isEmpty { out += "   kill reasons         \(Self.counts(app.reasons))\n" }
                if !app.devices.isEmpty { out += "   devices              \(Self.counts(app.devices))\n" }
                if !app.builds.isEmpty { out += "   OS                   \(Self.counts(app.builds))\n" }
                if let worst = app.worst {
                    out += "   worst records (by peak):\n"
                    for entry in worst { out += "      \(Self.mb(entry.peakMB)) MB  \(entry.command)\n" }
                }
            }
            if !outliers.isEmpty {
                out += "\nLargest peaks\n"
                for outlier in outliers { out += "   \(Self.mb(outlier.peakMB)) MB  \(outlier.app)  \(outlier.file)\n" }
            }
            return out
        }

        static let csvHeader = [
            "app", "records", "rank1", "rank2to5", "rank6to10", "rankOver10", "peakP50MB", "peakP90MB", "peakP99MB",
            "peakMaxMB", "suspendedP50MB", "suspendedP90MB", "suspendedP99MB", "suspendedMaxMB", "reasons", "devices",
            "builds",
        ]

        static func csvField(_ text: String) -> String {
            text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == ";" })
                ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }

        static func csvCounts(_ counts: [String: Int]) -> String {
            counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
        }

        func csv() -> String {
            var out = Self.csvHeader.joined(separator: ",") + "\n"
            for app in apps {
                let number = { (value: Double?) in value.map(Self.mb) ?? "" }
                let fields: [String] = [
                    app.name, String(app.records), String(app.ranks.first), String(app.ranks.second),
                    String(app.ranks.sixth), String(app.ranks.over), number(app.peakMB?.p50), number(app.peakMB?.p90),
                    number(app.peakMB?.p99), number(app.peakMB?.max), number(app.suspendedResidentMB?.p50),
                    number(app.suspendedResidentMB?.p90), number(app.suspendedResidentMB?.p99),
                    number(app.suspendedResidentMB?.max), Self.csvCounts(app.reasons), Self.csvCounts(app.devices),
                    Self.csvCounts(app.builds),
                ]
                out += fields.map(Self.csvField).joined(separator: ",") + "\n"
            }
            return out
        }
    }
}
