import Foundation
import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// A word as a shell reads it back: as is when plain, else single-quoted (the commands reports print).
public enum ShellWord {
    public static func quoted(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || "-_./,:+=@%".unicodeScalars.contains($0)
        }
        return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

extension ScanFindings {
    /// Folds in one findings document's findings: those it reports and those its project file suppressed.
    public mutating func add(_ document: FindingsDocument, file: String) {
        documents += 1
        let app = document.subject.app
        func count(_ finding: Finding, suppressed: Bool) {
            let signature =
                finding.signature ?? FindingSignature.of(finding, playbook: document.playbook.id, app: app)
            self.add(
                signature: signature, code: finding.code, severity: finding.severity.rawValue, title: finding.title,
                app: app, suppressed: suppressed, file: file)
        }
        for finding in document.findings { count(finding, suppressed: false) }
        for accepted in document.suppression?.suppressed ?? [] { count(accepted.finding, suppressed: true) }
    }
}

/// The fleet scan's figures as every format prints them (`memhunt scan`): the JSON document, the text
/// summary and the CSV rows, built from the folded aggregate: `memhunt.scan/1`.
public struct ScanDocument: Encodable {
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
    /// Files with the same bytes as one already counted.
    var duplicates: Int
    var compressions: Compressions?
    var apps: [App]
    var outliers: [Outlier]
    /// App Store Connect responses (absent when none): Apple's aggregates per version, device class and
    /// percentile, apart from the records' figures.
    var appStoreConnect: [ScanASCMetrics]?
    /// Crash SDKs' memory claims per app and SDK, graded against the OS records of the fleet (absent when no
    /// SDK export was read).
    var sdkClaims: [SDKClaimCounts]?
    /// OS records past the scan's limit, not kept for grading (absent when none).
    var sdkRecordsNotKept: Int?
    /// memhunt's own findings documents read (absent when none), and their findings by signature, the most
    /// runs first.
    var findingsDocuments: Int?
    var findings: [ScanFindings.Tally]?

    /// One app's claims of one SDK, by grade.
    struct SDKClaimCounts: Encodable {
        var app: String
        var sdk: String
        var events = 0
        var confirmed = 0
        var contradicted = 0
        var falsePositiveClass = 0
        var unconfirmed = 0
        var noMemoryClaim = 0
    }

    public init(_ aggregate: ScanAggregate, apps: [(name: String, figures: ScanAggregate.App)], query: String?) {
        records = aggregate.records
        recordsByKind = aggregate.recordsByKind
        rejected = aggregate.rejected.sorted { $0.file < $1.file }
        skipped = aggregate.skipped
        duplicates = aggregate.duplicates
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
                            command: "memhunt run --app \(ShellWord.quoted($0.app)) \(ShellWord.quoted($0.file))")
                    })
        }
        outliers = aggregate.outliers.map {
            Outlier(file: $0.file, app: $0.app, peakMB: ScanFigures.megabytes($0.peakKiB))
        }
        appStoreConnect =
            aggregate.appStoreConnect.isEmpty ? nil : aggregate.appStoreConnect.sorted { $0.file < $1.file }
        if !aggregate.sdk.events.isEmpty {
            var counts: [String: SDKClaimCounts] = [:]
            for (_, grade) in aggregate.sdk.grades() {
                let event = grade.event
                let app = event.app ?? event.bundleID.map(Subject.shortName) ?? "(no app named)"
                if let query, !Self.named(query, event) { continue }
                let key = app + "\u{0}" + event.sdk.name
                var row = counts[key] ?? SDKClaimCounts(app: app, sdk: event.sdk.name)
                row.events += 1
                switch grade.grade {
                case .confirmed: row.confirmed += 1
                case .contradicted: row.contradicted += 1
                case .falsePositiveClass: row.falsePositiveClass += 1
                case .unconfirmed: row.unconfirmed += 1
                case .noClaim: row.noMemoryClaim += 1
                }
                counts[key] = row
            }
            sdkClaims = counts.values.sorted { ($0.app, $0.sdk) < ($1.app, $1.sdk) }
            sdkRecordsNotKept = aggregate.sdk.recordsNotKept > 0 ? aggregate.sdk.recordsNotKept : nil
        }
        if aggregate.findings.documents > 0 {
            findingsDocuments = aggregate.findings.documents
            findings = aggregate.findings.sorted.filter { tally in
                query.map { query in tally.apps.keys.contains { Self.named(query, $0) } } ?? true
            }
        }
    }

    /// Whether an app's name or bundle id is the one a scan's `--app` asks for.
    public static func named(_ query: String, _ name: String) -> Bool {
        let lower = name.lowercased(), wanted = query.lowercased()
        return lower == wanted || lower.hasSuffix("." + wanted) || wanted.hasSuffix("." + lower)
    }

    /// Whether an SDK event names the app a scan's `--app` asks for.
    static func named(_ query: String, _ event: SDKEvent) -> Bool {
        [event.app, event.bundleID].contains { name in name.map { named(query, $0) } ?? false }
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

    public func text() -> String {
        var out = "Records: \(FactValue.grouped(records))"
        if !recordsByKind.isEmpty { out += " (\(Self.counts(recordsByKind)))" }
        out += ", rejected: \(FactValue.grouped(rejected.count))"
        if !skipped.isEmpty { out += ", skipped: \(Self.counts(skipped))" }
        if let findingsDocuments { out += ", findings documents: \(FactValue.grouped(findingsDocuments))" }
        if duplicates > 0 {
            out +=
                ", duplicates: \(FactValue.grouped(duplicates)) (the same bytes or the same record as a file counted)"
        }
        out += "\n"
        for file in rejected { out += "   rejected \(e(file.file)): \(e(file.reason))\n" }
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
            out += "\n\(e(app.name))  \(Plural.count(app.records, "record"))\n"
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
                for entry in worst { out += "      \(Self.mb(entry.peakMB)) MB  \(e(entry.command))\n" }
            }
        }
        if !outliers.isEmpty {
            out += "\nLargest peaks\n"
            for outlier in outliers {
                out += "   \(Self.mb(outlier.peakMB)) MB  \(e(outlier.app))  \(e(outlier.file))\n"
            }
        }
        for response in appStoreConnect ?? [] {
            out += "\nApp Store Connect  \(e(response.file))  (Apple's aggregates per version, device class and "
            out += "percentile; the response names no app)\n"
            if response.points.isEmpty { out += "   no memory point\n" }
            for point in response.points {
                let device = point.deviceName ?? point.device ?? "-"
                let margin = point.errorMargin.map { " ± \(Self.mb($0))" } ?? ""
                out += "   \(e(point.metric))  \(e(point.version))  \(e(device))  \(e(point.percentile ?? "-"))  "
                out += "\(Self.mb(point.value))\(margin) \(e(point.unit ?? ""))\n"
            }
            if response.unreadable > 0 { out += "   \(Plural.count(response.unreadable, "value")) not read\n" }
        }
        if let rows = sdkClaims {
            out += "\nCrash SDKs' memory claims (graded against the OS records of the same app and device)\n"
            for row in rows {
                out +=
                    "   \(e(row.app))  \(row.sdk)  \(Plural.count(row.events, "event")): confirmed \(row.confirmed)  "
                out += "contradicted \(row.contradicted)  false-positive class \(row.falsePositiveClass)  "
                out += "unconfirmed \(row.unconfirmed)  no memory claim \(row.noMemoryClaim)\n"
            }
            if let dropped = sdkRecordsNotKept {
                out +=
                    "   \(Plural.count(dropped, "OS record")) past the scan's limit were not kept: a claim they would "
                out += "have settled is counted unconfirmed\n"
            }
        }
        if let findings, let documents = findingsDocuments {
            out +=
                "\nFindings of \(Plural.count(documents, "memhunt run")) by signature (a finding's name across runs, "
            out += "devices and paths)\n"
            if findings.isEmpty { out += "   none\n" }
            for tally in findings {
                out += "   \(tally.signature)  \(Plural.count(tally.runs, "run"))"
                if tally.suppressed > 0 { out += " (+\(FactValue.grouped(tally.suppressed)) suppressed)" }
                out += "  \(tally.severity)  \(e(tally.code))  \(e(tally.title))\n"
                out += "      apps \(Self.counts(tally.apps)); first in \(e(tally.file))\n"
            }
        }
        // Counts and devices, kinds and builds: from the records too, escaped with the line ends kept.
        return TerminalText.escaped(out, keepingNewlines: true)
    }

    /// An outside string as the terminal shows it (`TerminalText`).
    private func e(_ text: String) -> String { TerminalText.escaped(text) }

    static let csvHeader = [
        "app", "records", "rank1", "rank2to5", "rank6to10", "rankOver10", "peakP50MB", "peakP90MB", "peakP99MB",
        "peakMaxMB", "suspendedP50MB", "suspendedP90MB", "suspendedP99MB", "suspendedMaxMB", "reasons", "devices",
        "builds",
    ]

    /// One CSV cell: RFC 4180 quoting (a field holding a comma, a quote, CR or LF, or a `;`, is quoted, its quotes
    /// doubled) and OWASP's rule against formula injection: a cell that starts with `=`, `+`, `-`, `@`, a tab or
    /// CR gets a leading `'`, so a spreadsheet shows it as text instead of running it. A plain number (`-12.5`)
    /// stays a number: it can run nothing, and the figures' columns must stay numeric. Control characters (an ESC,
    /// a CR, a NUL) and bidi overrides are shown as `\u{1B}` (`TerminalText`), as on the terminal: a name from a
    /// record can neither recolor a terminal that shows the file nor end a row in a tool that splits on CR.
    static func csvField(_ text: String) -> String {
        let text = TerminalText.escaped(text)
        let scalars = text.unicodeScalars
        var cell = text
        if let first = scalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first), !isPlainNumber(text) {
            cell = "'" + text
        }
        let quoted = scalars.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == ";" }
        return quoted ? "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : cell
    }

    /// `-12`, `3.5`: an optional minus, digits, and an optional fraction.
    static func isPlainNumber(_ text: String) -> Bool {
        var rest = Substring(text)
        if rest.hasPrefix("-") { rest = rest.dropFirst() }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    static func csvCounts(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
    }

    public func csv() -> String {
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
