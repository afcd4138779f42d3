import Foundation
import MemhuntCore
import MemhuntTestSupport
import Testing

/// Every parser's peak stays within a small multiple of its input (issue 26, defect 10): a ~60 MB file of
/// each whole-document kind through `memhunt inspect`, the child's peak RSS read from `/usr/bin/time -v`.
/// The bounds are docs/artifacts.md's (its limits paragraph); the figures measured are in the comments.
extension IOLimitsTests {
    /// `count` bytes or a little more: `head`, then `block` repeated, then `tail`.
    static func generated(_ path: String, head: String, block: String, separator: String = "", tail: String, count: Int)
        throws
    {
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        try handle.write(contentsOf: Data(head.utf8))
        let chunk = Data((block + separator).utf8)
        var written = head.utf8.count
        while written + chunk.count < count {
            try handle.write(contentsOf: chunk)
            written += chunk.count
        }
        try handle.write(contentsOf: Data((block + tail).utf8))
    }

    /// The peak in KB of `memhunt inspect path`, with the run's status and stdout.
    static func inspectPeak(_ path: String, tmp: String) async throws -> (kilobytes: Int, status: Int32, stdout: String)
    {
        let run = try await shell("exec /usr/bin/time -v \"$0\" \"$@\"", ["inspect", path], tmp: tmp)
        let line = try #require(run.stderr.split(separator: "\n").first { $0.contains("Maximum resident set size") })
        let kilobytes = try #require(Int(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)))
        return (kilobytes, run.status, run.stdout)
    }

    static let sixtyMB = 60 << 20

    /// Measurements CSV: at most 2 × the input + 64 MB. Before: a 63 MB CSV of short rows peaked at 4.0 GB (one
    /// 176-byte row value per 12-byte line, the array doubling, then a sample per row in the checks). Now a file
    /// of more than 100,000 rows is an error that names the limit, read no further.
    @Test func aSixtyMegabyteMeasurementsCSVPeaksUnderTwiceItsSize() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let rows = (0..<50_000).map { "r\($0),\($0 % 700)\n" }.joined()
        try Self.generated(
            dir.path + "/big.csv", head: "label,footprint_mb\n", block: rows, tail: "", count: Self.sixtyMB)
        let run = try await Self.inspectPeak(dir.path + "/big.csv", tmp: dir.path)
        #expect(run.status == 0)
        #expect(run.stdout.contains("kind: measurements  status: error"))
        #expect(run.stdout.contains("more than 100,000 rows, the limit of a measurements file"))
        let size = Int(try #require(LocalSize.of(dir.path + "/big.csv"))) >> 10
        #expect(run.kilobytes <= 2 * size + (64 << 10), "peak \(run.kilobytes) KB for \(size) KB of CSV")
    }

    /// A JetsamEvent-like `.ips` of ~60 MB (100,000 processes): at most 3 × the input + 64 MB (before and after:
    /// 136 MB for 60 MB).
    @Test func aSixtyMegabyteJetsamEventPeaksUnderThreeTimesItsSize() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let header =
            #"{"bug_type":"298","timestamp":"2026-08-11 11:20:56.00 +0900","os_version":"iPhone OS 26.0 (23A341)"}"#
            + "\n"
        let body =
            #"{"build":"iPhone OS 26.0 (23A341)","product":"iPhone18,1","date":"2026-08-11 11:20:56.00 +0900","#
            + #""memoryStatus":{"pageSize":16384,"compressions":1,"decompressions":1},"largestProcess":"kernel_task","#
            + #""processes":["#
        let process =
            #"{"uuid":"0F4205B4-9E77-34B9-7F15-881EAE2EB154","states":["daemon"],"name":"daemon","pid":7,"#
            + #""rpages":640,"lifetimeMax":1280,"fds":100,"coalition":400,"path":""#
            // Long strings keep the values under the JSON limit (2,000,000 values in a document).
            + "/private/var/containers/Bundle/Application/" + String(repeating: "0123456789ABCDEF", count: 28) + #""}"#
        try Self.generated(
            dir.path + "/JetsamEvent.ips", head: header + body, block: process, separator: ",", tail: "]}\n",
            count: Self.sixtyMB)
        let run = try await Self.inspectPeak(dir.path + "/JetsamEvent.ips", tmp: dir.path)
        #expect(run.status == 0)
        #expect(run.stdout.contains("kind: jetsam-event  status: ok"))
        let size = Int(try #require(LocalSize.of(dir.path + "/JetsamEvent.ips"))) >> 10
        #expect(run.kilobytes <= 3 * size + (64 << 10), "peak \(run.kilobytes) KB for \(size) KB of JSON")
    }

    /// A text crash report of ~60 MB (a crashed thread of 1.4 M frames): at most 4 × the input + 64 MB (before
    /// and after: 243 MB for 60 MB).
    @Test func aSixtyMegabyteTextCrashReportPeaksUnderFourTimesItsSize() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let text = try String(contentsOfFile: Repo.fixture("formats/crash-legacy-sigsegv.crash"), encoding: .utf8)
        let parts = text.components(separatedBy: "Thread 0 Crashed:\n")
        try #require(parts.count == 2)
        let frames = (0..<1_000).map { "\($0)   Segfaulter                    \t0x0000000102345678 main + \($0)\n" }
            .joined()
        try Self.generated(
            dir.path + "/big.crash", head: parts[0] + "Thread 0 Crashed:\n", block: frames, tail: parts[1],
            count: Self.sixtyMB)
        let run = try await Self.inspectPeak(dir.path + "/big.crash", tmp: dir.path)
        #expect(run.status == 0)
        #expect(run.stdout.contains("kind: crash-report  status: ok"))
        let size = Int(try #require(LocalSize.of(dir.path + "/big.crash"))) >> 10
        #expect(run.kilobytes <= 4 * size + (64 << 10), "peak \(run.kilobytes) KB for \(size) KB of text")
    }
}

/// Round four's readers over docs/artifacts.md's bound of 4 × the input + 64 MB, through `memhunt run` (the walk
/// and the report as well as the reader): a measurements JSON of short rows (6.5 MB ran at 168 MB), an App Store
/// Connect export (10.6 MB at 115 MB) and a measurements CSV whose notes hold quoted newlines (5.1 × its size).
/// Measured in a debug build: 8.4 MB of rows (60,000) 148 MB before the structure-variation check kept its
/// samples by index and named at most 100 of them (a findings document of 14 MB), 68 MB after; 10.7 MB of ASC
/// 76 MB; 8 MB of CSV 66 MB.
extension IOLimitsTests {
    /// The peak in KB of `memhunt run path`, and the run's status.
    static func runPeak(_ path: String, tmp: String) async throws -> (kilobytes: Int, status: Int32) {
        let run = try await shell(
            "exec /usr/bin/time -v \"$0\" \"$@\"", ["run", "--app", "Example", "--format", "json", path], tmp: tmp)
        let line = try #require(run.stderr.split(separator: "\n").first { $0.contains("Maximum resident set size") })
        let kilobytes = try #require(Int(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)))
        return (kilobytes, run.status)
    }

    static func underTheBound(_ path: String, _ tmp: String) async throws {
        let run = try await runPeak(path, tmp: tmp)
        #expect([0, 1].contains(run.status), "\(path): exit \(run.status)")
        let size = Int(try #require(LocalSize.of(path))) >> 10
        #expect(run.kilobytes <= 4 * size + (64 << 10), "\(path): peak \(run.kilobytes) KB for \(size) KB")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs /usr/bin/time"))
    func roundFoursReadersRunUnderFourTimesTheirSize() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let rows = (0..<1_000).map {
            #"{"label":"run-\#($0)","variant":"v\#($0 % 2)","footprint_mb":\#(100 + $0 % 500),"layers":\#(1000 + $0),"#
                + #""input_bytes":291840,"time":"2026-08-11T15:10:00+09:00"}"#
        }.joined(separator: ",")
        try Self.generated(
            dir.path + "/rows.json", head: #"{"memhunt":"measurements/1","scenario":"x","measurements":["#,
            block: rows, separator: ",", tail: "]}", count: 8 << 20)
        // As App Store Connect writes it: pretty-printed (a value every few bytes is over the limit for one document).
        let points: [[String: Any]] = (0..<13_000).map {
            ["version": "\($0 / 100).\($0 % 100)", "value": 100 + $0 % 300, "errorMargin": 0.5]
        }
        let datasets: [[String: Any]] = ["all_iphones", "iPhone15,2", "iPhone16,1", "iPad"].map {
            ["filterCriteria": ["percentile": "percentile.fifty", "device": $0], "points": points]
        }
        let metrics: [[String: Any]] = ["peakMemory", "suspendedMemory", "foregroundMemory"].map {
            ["identifier": $0, "unit": ["identifier": "megabytes", "displayName": "MB"], "datasets": datasets]
        }
        let asc: [String: Any] = [
            "productData": [["platform": "iOS", "metricCategories": [["identifier": "MEMORY", "metrics": metrics]]]]
        ]
        try dir.write(
            "asc.json", Array(try JSONSerialization.data(withJSONObject: asc, options: [.prettyPrinted, .sortedKeys])))
        // Notes of three lines, fewer than 100,000 rows (the limit of a measurements file).
        let quoted = (0..<1_000).map {
            "r\($0),\($0 % 700),\"a note of the run, as people write them\nwith lines in it\nand more after them\"\n"
        }.joined()
        try Self.generated(
            dir.path + "/quoted.csv", head: "label,footprint_mb,note\n", block: quoted, tail: "", count: 8 << 20)
        for name in ["rows.json", "asc.json", "quoted.csv"] {
            try await Self.underTheBound(dir.path + "/" + name, dir.path)
        }
    }
}

/// The size of a file.
enum LocalSize {
    static func of(_ path: String) -> UInt64? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.uint64Value
    }
}

extension IOLimitsTests {
    /// A ledger of 10,000 experiments over 50 sides judges with each side read once and only the facts the
    /// ledger names kept: its peak grows with the ledger and the report, not with the walks (measured in a
    /// debug build: 53 MB for the text, 121 MB for the 12 MB of JSON; 20,000 experiments 209 MB).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs /usr/bin/time"))
    func aLedgerOfTenThousandExperimentsJudgesInBoundedMemory() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let labels = (0..<50).map { "l\($0)" }
        try dir.write(
            "runs.csv",
            "label,footprint_mb,input_bytes\n"
                + labels.enumerated().map { "\($1),\(300 + $0 * 7),291840\n" }.joined())
        var yaml = "ledger: memhunt.ledger/1\nsymptoms:\n  - {id: s, shows: {fact: repro.peakMB, above: 300}}\n"
        yaml += "hypotheses:\n" + (0..<100).map { "  - {id: h\($0), statement: suspect \($0)}\n" }.joined()
        yaml += "experiments:\n"
        for e in 0..<10_000 {
            yaml +=
                "  - {id: e\(e), tests: h\(e % 100), variable: v\(e), baseline: {artifacts: [runs.csv], label: "
                + "\(labels[e % 50])}, variant: {artifacts: [runs.csv], label: \(labels[(e * 7 + 3) % 50])}}\n"
        }
        try dir.write("ledger.yaml", yaml)
        let run = try await Self.shell(
            "exec /usr/bin/time -v \"$0\" \"$@\"", ["ledger", "judge", "--format", "json", dir.path + "/ledger.yaml"],
            tmp: dir.path)
        #expect(run.status == 0, "\(run.stderr.prefix(2000))")
        let line = try #require(run.stderr.split(separator: "\n").first { $0.contains("Maximum resident set size") })
        let kilobytes = try #require(Int(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)))
        #expect(kilobytes < 400 << 10, "peak \(kilobytes) KB")
        let judgement = try JSONDecoder().decode(LedgerJudgement.self, from: Data(run.stdout.utf8))
        #expect(judgement.experiments.count == 10_000)
        // Baseline l0 (300 MB, not above the threshold) decides nothing; l3 (321 MB) against l24 (468 MB) is worse.
        #expect(judgement.experiments[0].verdict == .inconclusive)
        #expect(judgement.experiments[3].verdict == .worse, "\(judgement.experiments[3].sentence)")
    }
}
