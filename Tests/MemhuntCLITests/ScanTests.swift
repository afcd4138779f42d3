import Foundation
import MemhuntArtifacts
import MemhuntSnapshots
import MemhuntTestSupport
import Testing

/// `memhunt scan` over records written by `Tests/Support/gen_jetsam.py` (20 records whose figures follow
/// from their index; see the script) and one truncated record. Figures are exact; no timing here (the
/// 10,000-record figures are in `Benchmarks/run.py`'s fleet row).
@Suite struct ScanTests {
    /// Writes the 20 generated records and `broken.ips` into a fresh folder.
    static func generated() async throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        let python = try #require(Tool.which("python3"), "python3 writes the generated records")
        let run = try await Tool.run(python, ["Tests/Support/gen_jetsam.py", dir.path + "/records", "--count", "20"])
        #expect(run.status == 0, "\(run.stderr)")
        try dir.write(
            "records/broken.ips",
            "{\"bug_type\":\"298\",\"timestamp\":\"2026-08-11 11:20:56.00 +0900\"}\n{\n  \"build\" : \"x\",\n  \"processes\" : [\n"
        )
        return dir
    }

    @Test func jsonHasTheExactPerAppFigures() async throws {
        let dir = try await Self.generated()
        defer { dir.remove() }
        let run = await memhunt("scan", "--format", "json", dir.path + "/records")
        #expect(run.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(document["schema"] as? String == "memhunt.scan/1")
        #expect(document["records"] as? Int == 20)
        let rejected = try #require(document["rejected"] as? [[String: Any]])
        #expect(rejected.count == 1)
        #expect((rejected.first?["file"] as? String)?.hasSuffix("records/broken.ips") == true)
        #expect((rejected.first?["reason"] as? String)?.contains("JetsamEvent body is not valid JSON") == true)
        let compressions = try #require(document["compressions"] as? [String: Any])
        #expect(compressions["min"] as? Int == 1_000_000)
        #expect(compressions["median"] as? Int == 1_009_000)
        #expect(compressions["max"] as? Int == 1_019_000)
        let apps = try #require(document["apps"] as? [[String: Any]])
        #expect(apps.map { $0["name"] as? String } == ["Alpha", "Beta"])
        let alpha = apps[0]
        #expect(alpha["records"] as? Int == 20)
        #expect(alpha["ranks"] as? [String: Int] == ["1": 2, "2-5": 8, "6-10": 7, ">10": 3])
        let peak = try #require(alpha["peakMB"] as? [String: Any])
        #expect(peak["p50"] as? Double == 109)
        #expect(peak["p90"] as? Double == 117)
        #expect(peak["p99"] as? Double == 119)
        #expect(peak["max"] as? Double == 119)
        #expect(peak["count"] as? Int == 20)
        let suspended = try #require(alpha["suspendedResidentMB"] as? [String: Any])
        #expect(suspended["p50"] as? Double == 18)
        #expect(suspended["max"] as? Double == 28)
        #expect(suspended["count"] as? Int == 10)
        #expect(alpha["reasons"] as? [String: Int] == ["per-process-limit": 4, "vm-pageshortage": 1])
        #expect(alpha["devices"] as? [String: Int] == ["iPhone15,2": 7, "iPhone18,1": 13])
        #expect(alpha["builds"] as? [String: Int] == ["iPhone OS 26.0 (23A341)": 15, "iPhone OS 26.1 (23B5)": 5])
        let beta = apps[1]
        #expect(beta["records"] as? Int == 10)
        #expect(beta["ranks"] as? [String: Int] == ["1": 0, "2-5": 4, "6-10": 5, ">10": 1])
        #expect((beta["peakMB"] as? [String: Any])?["max"] as? Double == 300)
        #expect(beta["suspendedResidentMB"] == nil)
        let outliers = try #require(document["outliers"] as? [[String: Any]])
        #expect(outliers.count == 5)
        #expect(outliers.allSatisfy { $0["app"] as? String == "Beta" && $0["peakMB"] as? Double == 300 })
    }

    @Test func textAndCSVCarryTheSameFigures() async throws {
        let dir = try await Self.generated()
        defer { dir.remove() }
        let text = await memhunt("scan", dir.path + "/records")
        #expect(text.status == 0)
        for line in [
            "Records: 20 (jetsam-event 20), rejected: 1",
            "records/broken.ips: line 5: JetsamEvent body is not valid JSON",
            "Compressions (a counter since boot, per record): min 1,000,000  median 1,009,000  max 1,019,000",
            "Alpha  20 records",
            "rank                 1: 2  2-5: 8  6-10: 7  >10: 3",
            "peak MB              p50 109.0  p90 117.0  p99 119.0  max 119.0  (20)",
            "suspended MB         p50 18.0  p90 26.0  p99 28.0  max 28.0  (10)",
            "kill reasons         per-process-limit 4, vm-pageshortage 1",
            "Beta  10 records",
        ] {
            #expect(text.stdout.contains(line), "\(line)")
        }
        let csv = await memhunt("scan", "--format", "csv", dir.path + "/records")
        #expect(csv.status == 0)
        let rows = csv.stdout.split(separator: "\n").map(String.init)
        #expect(rows.count == 3)
        #expect(rows.first?.hasPrefix("app,records,rank1,rank2to5,rank6to10,rankOver10,peakP50MB") == true)
        #expect(
            rows.dropFirst().first
                == "Alpha,20,2,8,7,3,109.0,117.0,119.0,119.0,18.0,26.0,28.0,28.0,\"per-process-limit=4;vm-pageshortage=1\","
                + "\"iPhone15,2=7;iPhone18,1=13\",\"iPhone OS 26.0 (23A341)=15;iPhone OS 26.1 (23B5)=5\"")
        #expect(rows.last?.hasPrefix("Beta,10,0,4,5,1,300.0,300.0,300.0,300.0,,,,,,") == true)
    }

    @Test func ndjsonIsOneSnapshotLinePerRecord() async throws {
        let dir = try await Self.generated()
        defer { dir.remove() }
        let run = await memhunt("scan", "--format", "ndjson", dir.path + "/records")
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 20)
        #expect(run.stderr.contains("rejected \(dir.path)/records/broken.ips: line 5"))
        let records = try lines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(records.allSatisfy { $0["schema"] as? String == "memhunt.record/1" })
        let first = try #require(records.first { ($0["file"] as? String)?.hasSuffix("JetsamEvent-00000.ips") == true })
        #expect(first["kind"] as? String == "jetsam-event")
        #expect(first["product"] as? String == "iPhone15,2")
        #expect(first["build"] as? String == "iPhone OS 26.0 (23A341)")
        #expect(first["compressions"] as? Int == 1_000_000)
        #expect(first["time"] is Double)
        let apps = try #require(first["apps"] as? [[String: Any]])
        #expect(apps.count == 1)
        #expect(apps[0]["name"] as? String == "Alpha")
        #expect(apps[0]["peakMB"] as? Double == 100)
        #expect(apps[0]["residentMB"] as? Double == 10)
        #expect(apps[0]["rank"] as? Int == 1)
        #expect(apps[0]["state"] as? String == "suspended")
        #expect(apps[0]["reason"] as? String == "per-process-limit")
        // The same peaks as the aggregate: 20 Alpha peaks, 100 to 119 MB.
        let peaks = records.compactMap { record in
            (record["apps"] as? [[String: Any]])?.first { $0["name"] as? String == "Alpha" }?["peakMB"] as? Double
        }
        #expect(peaks.sorted() == (100...119).map(Double.init))
    }

    /// With `--app`, ndjson keeps the records that name the app; an app no record names is exit 2, as in the
    /// other formats (ndjson folds its aggregate for that check only).
    @Test func ndjsonWithAnAppKeepsItsRecords() async throws {
        let dir = try await Self.generated()
        defer { dir.remove() }
        let run = await memhunt("scan", "--format", "ndjson", "--app", "Beta", dir.path + "/records")
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 10)
        #expect(lines.allSatisfy { $0.contains("{\"name\":\"Beta\",\"peakMB\":300,") })
        let none = await memhunt("scan", "--format", "ndjson", "--app", "Nowhere", dir.path + "/records")
        #expect(none.status == 2)
        #expect(none.stdout.isEmpty)
        #expect(none.stderr.contains("no record names the app 'Nowhere'"))
    }

    /// The ndjson line is written by hand (one `JSONEncoder` per record cost 1.6 times the aggregate's CPU):
    /// it holds what the encoder writes of the record, plus `schema`, for names that need escaping, absent
    /// values and counters no Int holds.
    @Test func anNDJSONLineIsTheEncodersRecordWithItsSchema() throws {
        let records = [
            ScanRecord(
                file: "fleet/a \"quoted\" \\ back/slash\nnew\tline\u{1}\u{8}\u{C}\u{1F}é😀.ips", kind: "jetsam-event",
                time: 1_786_079_288.25, product: "iPhone15,2", build: "iPhone OS 26.0 (23A341)",
                compressions: UInt64.max,
                apps: [
                    ScanRecord.App(
                        name: "Ünï\u{7F}\"x\"", peakKiB: 742_400, residentKiB: 1, rank: 12,
                        state: "suspended,frontmost",
                        reason: "per-process-limit"),
                    ScanRecord.App(name: "B"),
                ]),
            ScanRecord(file: "b.json", kind: "metrickit-metrics", time: 0, apps: []),
            ScanRecord(
                file: "c.ips", kind: "crash-report", time: 1e20, apps: [ScanRecord.App(name: "C", reason: "crash")]),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for record in records {
            let line = record.ndjsonLine
            #expect(line.hasSuffix("}\n") && !line.dropLast().contains("\n"))
            var mine = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(mine.removeValue(forKey: "schema") as? String == "memhunt.record/1")
            let theirs = try #require(
                try JSONSerialization.jsonObject(with: try encoder.encode(record)) as? [String: Any])
            #expect(NSDictionary(dictionary: mine) == NSDictionary(dictionary: theirs), "\(line)")
        }
        #expect(
            records[1].ndjsonLine
                == "{\"apps\":[],\"file\":\"b.json\",\"kind\":\"metrickit-metrics\",\"schema\":\"memhunt.record/1\",\"time\":0}\n"
        )
        #expect(records[0].ndjsonLine.contains("\"peakMB\":725,\"rank\":12,"))
        #expect(records[0].ndjsonLine.contains("\"compressions\":18446744073709551615,"))
        #expect(records[0].ndjsonLine.contains("\"time\":1786079288.25}"))
    }

    @Test func oneAppOverTheFixturesListsItsWorstRecordsAsRunnableLines() async throws {
        let run = await memhunt("scan", "--app", "JustSend", "Fixtures/")
        #expect(run.status == 0)
        #expect(
            run.stdout.contains(
                "725.0 MB  memhunt run --app JustSend Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips"))
        #expect(run.stdout.contains("rejected Fixtures/bad/empty.ips: empty file"))
        let json = await memhunt("scan", "--app", "JustSend", "--format", "json", "Fixtures/justsend")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let apps = try #require(document["apps"] as? [[String: Any]])
        #expect(apps.count == 1)
        let worst = try #require(apps.first?["worst"] as? [[String: Any]])
        #expect(worst.first?["peakMB"] as? Double == 725)
        #expect(
            worst.first?["command"] as? String
                == "memhunt run --app JustSend Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips")
    }

    /// A change log is counted as skipped from its first 64 KiB; the scan does not stream the rest (a 1 GiB
    /// log took 1.2 s only to be skipped).
    @Test func aChangeLogIsSkippedFromItsHead() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let log = String(repeating: "2026-08-12 14:03:05.000000+0900 RootView: @self changed.\n", count: 40_000)
        try dir.write("drawer.log", log)
        try dir.write("JetsamEvent.ips", try Repo.bytes("justsend/JetsamEvent-2026-08-11-112056.ips"))
        let run = await memhunt("scan", dir.path)
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("Records: 1 (jetsam-event 1), rejected: 0, skipped: change-log 1\n"))
        let detected = LocalArtifacts.load(path: dir.path + "/drawer.log", hash: false, streamChangeLogs: false)
        #expect(detected.kind == .changeLog && detected.status == .ok && detected.content == nil)
        #expect(detected.size == log.utf8.count)
    }

    /// The fixture fleet of SDK exports and OS records: per app and SDK, how many claims each grade got (the
    /// same grades as a run of each pair), and one ndjson line per event with its SDK, claim and UTC time.
    @Test func sdkClaimsAreGradedAcrossTheFleet() async throws {
        let run = await memhunt("scan", "Fixtures/sdk")
        #expect(run.status == 0, "\(run.stderr)")
        let rows = [
            "JustSend  Sentry  3 events: confirmed 1  contradicted 2  false-positive class 0  unconfirmed 0  "
                + "no memory claim 0",
            "Roadbook  Bugsnag  2 events: confirmed 0  contradicted 1  false-positive class 1  unconfirmed 0  "
                + "no memory claim 0",
            "Roadbook  Crashlytics  1 event: confirmed 0  contradicted 0  false-positive class 0  unconfirmed 0  "
                + "no memory claim 1",
            "Roadbook  KSCrash  1 event: confirmed 0  contradicted 0  false-positive class 0  unconfirmed 1  "
                + "no memory claim 0",
        ]
        for row in rows { #expect(run.stdout.contains(row), "\(run.stdout.suffix(1500))") }
        let json = await memhunt("scan", "--format", "json", "Fixtures/sdk")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let claims = try #require(document["sdkClaims"] as? [[String: Any]])
        let sentry = try #require(claims.first { $0["app"] as? String == "JustSend" })
        #expect(sentry["confirmed"] as? Int == 1)
        #expect(sentry["contradicted"] as? Int == 2)
        let ndjson = await memhunt("scan", "--format", "ndjson", "--app", "JustSend", "Fixtures/sdk/confirmed")
        let line = try #require(ndjson.stdout.split(separator: "\n").first { $0.contains("\"sdk-export\"") })
        #expect(line.contains(#""claim":"watchdog""#))
        #expect(line.contains(#""sdk":"sentry""#))
        #expect(line.contains(#""time":1786492922,"timeBasis":"the last breadcrumb"#))
    }

    @Test func crashReportsAndMetricKitPayloadsCountForTheirApp() async {
        let run = await memhunt("scan", "--app", "JustSend", "Fixtures/")
        // MetricKit's bundle id matches the process name; crash reports count their kind as the reason (four of
        // the records are the JetsamEvents of Fixtures/examples/; its copy of Fixtures/pressure's record is the
        // same bytes, counted once; Fixtures/pasted-pages' copy of Fixtures/killed's record, and the pastes of
        // Fixtures/pasted (among them two copies of Fixtures/watchdog's report), are the same records
        // in other bytes, each counted once; fragments (the cut paste of
        // Fixtures/justsend's record, the elided copy of Fixtures/pressure's) are their whole records'; Fixtures/sdk
        // adds two JetsamEvents and a watchdog report of another incident; the pages of several records are a record
        // each, and two of those are copies: the header-less body of Fixtures/justsend's record before today's, and
        // the second report of two-crash-reports.txt, Fixtures/formats' TCC crash).
        #expect(run.stdout.contains("JustSend, com.example.JustSend  13 records"))
        #expect(run.stdout.contains("duplicates: 22 (the same bytes or the same record as a file counted)"))
        #expect(run.stdout.contains("kill reasons         watchdog 3, per-process-limit 2"))
        #expect(
            run.stdout.contains(
                "708.0 MB  memhunt run --app com.example.JustSend Fixtures/metrickit/MXMetricPayload-2026-08-10.json"))
    }

    /// Workers fold files in any order: merging partial aggregates gives the figures of one fold, and the
    /// kept samples do not depend on the order.
    /// A record whose counter is UInt64.max is left out of the compression figures and counted apart, the
    /// same in text and JSON; one record is "1 record".
    @Test func aCounterNoCountReachesIsLeftOutOfTheFigures() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("sentinel.ips", try Repo.bytes("formats/jetsam-16k.ips"))
        try dir.write("seed.ips", try Repo.bytes("justsend/JetsamEvent-2026-08-11-112056.ips"))
        let text = await memhunt("scan", dir.path)
        #expect(text.status == 0)
        #expect(
            text.stdout.contains(
                "Compressions (a counter since boot, per record): min 15,734,833  median 15,734,833  max 15,734,833  "
                    + "(1 record); 1 record with a counter above 2^63 - 1, no count (left out)"))
        #expect(text.stdout.contains("JustSend  1 record\n"))
        #expect(!text.stdout.contains("9,223,372,036,854,775,807"))
        let json = await memhunt("scan", "--format", "json", dir.path)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let compressions = try #require(document["compressions"] as? [String: Any])
        #expect(compressions["records"] as? Int == 1)
        #expect(compressions["max"] as? Int == 15_734_833)
        #expect(compressions["notCounts"] as? Int == 1)
    }

    @Test func aggregatesMergeTheSameInAnyOrder() {
        var generator = SplitMix64(seed: 13)
        let records = (0..<200).map { index in
            ScanRecord(
                file: "r\(index)", kind: "jetsam-event", compressions: UInt64(index),
                apps: [
                    ScanRecord.App(
                        name: index % 3 == 0 ? "A" : "B", peakKiB: UInt32(generator.next() % 500_000),
                        residentKiB: 1024, rank: index % 15 + 1, state: "suspended")
                ])
        }
        var whole = ScanAggregate()
        records.forEach { whole.add($0) }
        var parts = [ScanAggregate(), ScanAggregate(), ScanAggregate()]
        for record in records.shuffled(using: &generator) { parts[Int(generator.next() % 3)].add(record) }
        var merged = ScanAggregate()
        parts.reversed().forEach { merged.merge($0) }
        #expect(merged.records == 200)
        #expect(merged.outliers == whole.outliers)
        #expect(merged.compressions.sorted() == whole.compressions.sorted())
        for name in ["A", "B"] {
            let a = whole.apps[name]!, b = merged.apps[name]!
            #expect(a.records == b.records && a.ranks == b.ranks && a.worst == b.worst)
            #expect(ScanDistribution(kibibytes: a.peaksKiB) == ScanDistribution(kibibytes: b.peaksKiB))
        }
        #expect(ScanFigures.percentile([1, 2, 3, 4], 50) == 2)
        #expect(ScanFigures.percentile([1, 2, 3, 4], 99) == 4)
        #expect(ScanFigures.megabytes(742_400) == 725)
        // Nearest rank over repeated values: nine of 1 MB and one of 5 MB put p90 on the ninth, p99 on the tenth;
        // each value given as often as the sorted list of every value holds it.
        let repeated = ScanDistribution(kibibytes: Array(repeating: 1024, count: 9) + [5120])!
        let figures: [Double] = [repeated.p50, repeated.p90, repeated.p99, repeated.max]
        #expect(repeated.count == 10)
        #expect(figures == [1, 1, 5, 5])
        let values: [UInt32] = (0..<1_000).map { (index: Int) -> UInt32 in
            UInt32(index % 7) * 1024 + UInt32(index % 3) * 512
        }
        let sorted = values.sorted()
        let spread = ScanDistribution(kibibytes: values)!
        let ranks: [Double] = [50, 90, 99, 100]
        let expected: [Double] = ranks.map { (rank: Double) -> Double in
            ScanFigures.megabytes(ScanFigures.percentile(sorted, rank)!)
        }
        let read: [Double] = [spread.p50, spread.p90, spread.p99, spread.max]
        #expect(read == expected)
    }

    @Test func anAppNoRecordNamesIsExitTwo() async {
        let run = await memhunt("scan", "--app", "Nowhere", "Fixtures/justsend")
        #expect(run.status == 2)
        #expect(run.stderr.contains("no record names the app 'Nowhere'; the records name "))
        #expect(!run.stderr.contains("could not be read"))
    }

    /// A file that could not be read may be the app's record: the note says how many there were, not only
    /// that the records read name other apps.
    @Test func anAppNoRecordReadNamesCountsTheFilesNotRead() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let record = try String(contentsOfFile: "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", encoding: .utf8)
        try directory.write("whole.ips", record)
        try directory.write("cut-1.ips", String(record.prefix(record.count / 2)))
        try directory.write("cut-2.ips", String(record.prefix(record.count / 3)))
        let run = await memhunt("scan", "--app", "Nowhere", directory.path)
        #expect(run.status == 2)
        #expect(
            run.stderr.contains(
                "no record names the app 'Nowhere'; 2 files could not be read: a record among them may name it; "
                    + "the records name "))
    }
}

extension ScanTests {
    /// The same record reached twice (a folder and a file in it, a copy in the fleet) is counted once.
    @Test func aDuplicateInTheFleetIsCountedOnce() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let record = try Repo.bytes("justsend/JetsamEvent-2026-08-11-112056.ips")
        try directory.write("a/JetsamEvent.ips", record)
        try directory.write("b/JetsamEvent-copy.ips", record)
        let run = await memhunt("scan", directory.path, directory.path + "/a/JetsamEvent.ips")
        #expect(run.status == 0)
        #expect(
            run.stdout.hasPrefix(
                "Records: 1 (jetsam-event 1), rejected: 0, duplicates: 2 (the same bytes or the same record as a file counted)\n"
            ))
        let json = await memhunt("scan", "--format", "json", directory.path, directory.path + "/a/JetsamEvent.ips")
        #expect(json.stdout.contains("\"duplicates\": 2"))
    }

    /// memhunt's own findings documents, from runs of one folder copied to two paths and one of another app:
    /// the scan counts each finding by signature, the copied runs' findings twice, a copied document once.
    @Test func findingsDocumentsAreCountedBySignature() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let files = FileManager.default
        try files.createDirectory(atPath: dir.path + "/docs", withIntermediateDirectories: true)
        for (index, copy) in ["one", "two"].enumerated() {
            try files.copyItem(atPath: "Fixtures/justsend", toPath: "\(dir.path)/\(copy)")
            let run = await memhunt("run", "-q", "--format", "json", "\(dir.path)/\(copy)")
            #expect(run.status == 0, "\(run.stderr)")
            try dir.write("docs/justsend-\(index).json", run.stdout)
        }
        let other = await memhunt("run", "-q", "--format", "json", "--app", "ChatGPT", "Fixtures/justsend")
        try dir.write("docs/chatgpt.json", other.stdout)
        try files.copyItem(atPath: dir.path + "/docs/chatgpt.json", toPath: dir.path + "/docs/chatgpt-copy.json")

        let scan = await memhunt("scan", "--format", "json", dir.path + "/docs")
        #expect(scan.status == 0, "\(scan.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(scan.stdout.utf8)) as? [String: Any])
        #expect(document["findingsDocuments"] as? Int == 3)
        #expect(document["duplicates"] as? Int == 1)
        #expect((document["rejected"] as? [Any])?.isEmpty == true)
        let findings = try #require(document["findings"] as? [[String: Any]])
        let ranks = findings.filter { $0["code"] as? String == "jetsam-rank.high-rank" }
        #expect(ranks.count == 2)
        let justSend = try #require(ranks.first { ($0["apps"] as? [String: Int])?["JustSend"] != nil })
        #expect(justSend["runs"] as? Int == 2)
        #expect(justSend["title"] as? String == "JustSend ranked 7 of 16 processes by lifetime peak (725 MB)")
        let chatGPT = try #require(ranks.first { ($0["apps"] as? [String: Int])?["ChatGPT"] == 1 })
        #expect(chatGPT["runs"] as? Int == 1)
        #expect(chatGPT["signature"] as? String != justSend["signature"] as? String)
        // The signature is the one the run's own report prints.
        let one = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: dir.path + "/docs/justsend-0.json")))
                as? [String: Any])
        let rank = try #require(
            (one["findings"] as? [[String: Any]])?.first { $0["code"] as? String == "jetsam-rank.high-rank" })
        #expect(rank["signature"] as? String == justSend["signature"] as? String)

        let text = await memhunt("scan", dir.path + "/docs")
        #expect(text.stdout.hasPrefix("Records: 0, rejected: 0, findings documents: 3, duplicates: 1"))
        #expect(
            text.stdout.contains("\(justSend["signature"] as? String ?? "?")  2 runs  warning  jetsam-rank.high-rank"))
    }
}
