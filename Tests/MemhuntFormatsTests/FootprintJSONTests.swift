import MemhuntFormats
import MemhuntTestSupport
import Testing

/// `footprint -j` and `footprint --sample … -j` JSON: processes, categories and samples, and bad input named.
@Suite struct FootprintJSONTests {
    static func report(_ bytes: [UInt8]) throws -> FootprintJSON {
        let outcome = ArtifactReader.read(bytes)
        #expect(outcome.kind == .footprintJSON)
        guard case .repro(.footprintJSON(let report)) = try outcome.result.get() else {
            throw Failure("not footprint JSON")
        }
        return report
    }

    static func report(_ text: String) throws -> FootprintJSON { try report(Array(text.utf8)) }

    static func failure(_ text: String) throws -> FormatError {
        let outcome = ArtifactReader.read(Array(text.utf8))
        #expect(outcome.kind == .footprintJSON)
        guard case .failure(let error) = outcome.result else { throw Failure("read") }
        return error
    }

    @Test func oneSnapshotWithItsCategories() throws {
        let report = try Self.report(try Repo.bytes("footprint-json/faq-visit-4.footprint.json"))
        #expect(report.unit == "byte" && report.bytesPerUnit == 1 && report.pageSize == 16384)
        #expect(!report.isSampled && report.snapshots.count == 1 && report.unreadable.isEmpty)
        let snapshot = report.snapshots[0]
        #expect(snapshot.timeText == "2026-07-03T21:14:55.000+09:00")
        #expect(snapshot.time == AppleDate.parse("2026-07-03 21:14:55 +0900"))
        #expect(snapshot.totalFootprintBytes == 129_810_432)
        let process = try #require(snapshot.processes.first)
        #expect(process.name == "AluminumWeight" && process.pid == 5120)
        #expect(process.footprintBytes == 129_810_432 && process.physFootprintBytes == 129_810_432)
        #expect(process.peakBytes == 131_072_000)
        #expect(process.categories.count == 9)
        #expect(process.categories.map(\.dirtyBytes).reduce(0, +) == 129_810_432)
        #expect(process.largestCategory?.name == "MALLOC_SMALL" && process.largestCategory?.dirtyBytes == 58_720_256)
        let mapped = try #require(process.categories.first { $0.name == "mapped file" })
        #expect(mapped.dirtyBytes == 4_194_304 && mapped.cleanBytes == 41_943_040 && mapped.regions == 240)
    }

    @Test func samplesInFileOrder() throws {
        let report = try Self.report(try Repo.bytes("footprint-json/faq-visits.samples.footprint.json"))
        #expect(report.isSampled && report.snapshots.count == 8)
        #expect(report.snapshots.map(\.time) == (0..<8).map { 1000 + 10 * Double($0) })
        #expect(
            report.snapshots.map { $0.processes[0].bytes } == [
                86_409_216, 86_507_520, 100_761_600, 100_876_288, 115_654_656, 115_654_656, 129_810_432, 129_925_120,
            ])
        #expect(report.snapshots[7].processes[0].peakBytes == 129_925_120)
    }

    /// `bytes per unit` multiplies every size; several processes (`--targetChildren`) are all read.
    @Test func unitsAndSeveralProcesses() throws {
        let report = try Self.report(
            """
            {"unit": "page", "bytes per unit": 16384, "processes": [
              {"name": "Host", "pid": 1, "footprint": 10, "categories": {"MALLOC_SMALL": {"dirty": 4, "clean": 2}}},
              {"name": "Host Helper", "pid": 2, "auxiliary": {"phys_footprint": 3}}]}
            """)
        let processes = report.snapshots[0].processes
        #expect(processes.map(\.bytes) == [163_840, 49_152])
        #expect(processes[0].categories[0].dirtyBytes == 65_536 && processes[0].categories[0].cleanBytes == 32_768)
    }

    /// Each bad value is named with its place; the rest of the file reads.
    @Test func missingFieldsAndNanAreNamedWithTheirPlace() throws {
        let report = try Self.report(
            """
            {"bytes per unit": 1, "samples": [
              {"start_time": {"wall_time_s": 1}, "processes": [{"name": "A", "pid": 1, "footprint": "nan"}]},
              {"start_time": {"date": "yesterday"}, "processes": [{"name": "A", "pid": 1, "footprint": 200,
                "categories": {"Stack": {"clean": 1}, "MALLOC_NANO": {"dirty": -5}}}]},
              {"processes": [{"name": "A", "pid": 1, "auxiliary": {"phys_footprint": 300}}]},
              {"start_time": {"wall_time_s": 4}},
              7
            ]}
            """)
        #expect(report.snapshots.count == 4)
        #expect(report.snapshots.map { $0.processes.first?.bytes } == [nil, 200, 300, nil])
        #expect(
            report.unreadable == [
                "samples[0].processes[0].footprint is the string 'nan', not a size",
                "samples[0].processes[0] (A): no footprint (neither 'footprint' nor 'auxiliary.phys_footprint')",
                "samples[1].start_time.date 'yesterday' is not a date",
                "samples[1].processes[0].categories[\"Stack\"] has no 'dirty' size",
                "samples[1].processes[0].categories[\"MALLOC_NANO\"].dirty is -5, not a size",
                "samples[3] has no 'processes' list",
                "samples[4] is 7, not an object",
            ])
    }

    /// Shapes it does not know are refused by name, not guessed at.
    @Test func unknownShapesAreRefused() throws {
        #expect(
            try Self.failure(#"{"bytes per unit": 1, "total footprint": 5}"#).message
                == "footprint JSON with neither a 'processes' nor a 'samples' list")
        #expect(
            try Self.failure(#"{"bytes per unit": 0, "processes": []}"#).message
                == "'bytes per unit' is 0, not a positive whole number")
        #expect(
            try Self.failure(#"{"unit": "page", "total footprint": 1, "processes": []}"#).message
                == "sizes in 'page' without 'bytes per unit': their bytes are unknown")
    }

    /// Cut mid-file: the kind is known, the error says where.
    @Test func truncatedJSONIsNamedWithItsLine() throws {
        let whole = String(decoding: try Repo.bytes("footprint-json/faq-visits.samples.footprint.json"), as: UTF8.self)
        let error = try Self.failure(String(whole.prefix(900)))
        #expect(error.message.hasPrefix("footprint JSON is not valid JSON:"))
        #expect(error.line != nil)
    }
}
