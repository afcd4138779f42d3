import MemhuntFormats
import MemhuntTestSupport
import Testing

/// `footprint --sample … -j` JSON streamed a sample at a time: the same report as the whole document, in bounded
/// memory, bad samples named and the rest read.
@Suite struct FootprintScannerTests {
    static func streamed(_ bytes: [UInt8], chunk: Int = 7) -> Result<FootprintJSON, FormatError> {
        var scanner = FootprintScanner()
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            bytes[start..<min(start + chunk, bytes.count)].withUnsafeBytes { scanner.feed($0) }
        }
        return scanner.finish()
    }

    static func streamed(_ text: String) throws -> FootprintJSON { try streamed(Array(text.utf8)).get() }

    static func sample(_ index: Int, footprint: Int, categories: Bool = true) -> String {
        let categories = categories ? #", "categories": {"MALLOC_SMALL": {"dirty": \#(footprint / 2)}}"# : ""
        return #"{"start_time": {"wall_time_s": \#(1000 + index)}, "processes": [{"name": "AluminumWeight", "#
            + #""pid": 5120, "footprint": \#(footprint)\#(categories)}]}"#
    }

    /// Every fixture reads the same streamed, in chunks of seven bytes, as read whole.
    @Test(arguments: [
        "footprint-json/faq-visit-4.footprint.json", "footprint-json/faq-visits.samples.footprint.json",
        "footprint-json/faq-fixed.samples.footprint.json",
    ])
    func theFixturesReadAsTheWholeDocument(_ path: String) throws {
        let bytes = try Repo.bytes(path)
        let whole = try FootprintJSONTests.report(bytes)
        #expect(try Self.streamed(bytes).get() == whole)
    }

    /// Seed 001's eight samples: 86,409,216 → 129,925,120 bytes; the categories in the last sample only.
    @Test func samplesKeepTheirCategoriesInTheLatestOnly() throws {
        let report = try Self.streamed(try Repo.bytes("footprint-json/faq-visits.samples.footprint.json")).get()
        #expect(report.isSampled && report.snapshots.count == 8)
        #expect(report.snapshots.first?.processes[0].bytes == 86_409_216)
        #expect(report.snapshots.last?.processes[0].bytes == 129_925_120)
        let categorised = report.snapshots.indices.filter { !report.snapshots[$0].processes[0].categories.isEmpty }
        #expect(categorised == [7])
    }

    /// A sample that is no JSON is named with its index; the others are read.
    @Test func aBrokenSampleIsNamedAndTheRestRead() throws {
        let text =
            #"{"bytes per unit": 1, "samples": ["# + Self.sample(0, footprint: 100) + #", {"start_time": nan}, "#
            + Self.sample(2, footprint: 300) + "]}"
        let report = try Self.streamed(text)
        #expect(report.snapshots.map { $0.processes[0].bytes } == [100, 300])
        #expect(report.unreadable.count == 1 && report.unreadable[0].hasPrefix("samples[1]: "), "\(report.unreadable)")
    }

    /// `bytes per unit` after the samples still multiplies their sizes.
    @Test func theUnitAfterTheSamplesStillCounts() throws {
        let report = try Self.streamed(
            #"{"samples": ["# + Self.sample(0, footprint: 3) + #"], "unit": "page", "bytes per unit": 16384}"#)
        #expect(report.bytesPerUnit == 16384 && report.snapshots[0].processes[0].bytes == 49_152)
        #expect(report.snapshots[0].processes[0].categories[0].dirtyBytes == 16384)
    }

    /// A file cut inside its samples is an error that says so; so is a top level that is no object.
    @Test func aCutFileIsAnError() {
        let cut = #"{"samples": ["# + Self.sample(0, footprint: 3)
        guard case .failure(let error) = Self.streamed(Array(cut.utf8)) else {
            Issue.record("read")
            return
        }
        #expect(error.message == "the JSON ends before its top-level object closes: the file is cut short")
        guard case .failure(let list) = Self.streamed(Array("[1, 2]".utf8)) else {
            Issue.record("read")
            return
        }
        #expect(list.message == "the JSON is not an object")
    }

    /// Past `maxSnapshots` samples, every other one is let go, and the last is always kept; the report says so.
    @Test func manySamplesAreThinnedAndTheLastKept() throws {
        let count = FootprintScanner.maxSnapshots * 2 + 3
        var text = #"{"bytes per unit": 1, "samples": ["#
        for index in 0..<count {
            text += (index == 0 ? "" : ",") + Self.sample(index, footprint: 1000 + index, categories: index % 7 == 0)
        }
        let report = try Self.streamed(Array((text + "]}").utf8), chunk: 65_536).get()
        #expect(report.snapshots.count <= FootprintScanner.maxSnapshots + 1)
        #expect(report.snapshots.first?.processes[0].bytes == 1000)
        #expect(report.snapshots.last?.processes[0].bytes == 1000 + count - 1)
        #expect(
            report.unreadable == [
                "\(count) samples: every 4th kept and the last (\(report.snapshots.count)), to bound memory"
            ])
        let times = report.snapshots.compactMap(\.time)
        #expect(times == times.sorted() && times.count == report.snapshots.count)
    }
    /// Samples of many processes are thinned by the processes they keep, not only by their number.
    @Test func samplesOfManyProcessesAreThinnedByTheirProcesses() throws {
        let each = FootprintScanner.maxProcesses * 2 / 5
        let processes = (0..<each).map {
            #"{"name": "com.example.Host.Helper.\#($0)", "pid": \#($0), "footprint": 16384}"#
        }
        .joined(separator: ",")
        let samples = (0..<5).map { #"{"start_time": {"wall_time_s": \#(1000 + $0)}, "processes": [\#(processes)]}"# }
        let report = try Self.streamed(
            Array((#"{"bytes per unit": 1, "samples": ["# + samples.joined(separator: ",") + "]}").utf8),
            chunk: 1 << 20
        ).get()
        #expect(report.snapshots.map(\.time) == [1000, 1004])
        #expect(report.unreadable == ["5 samples: every 4th kept and the last (2), to bound memory"])
    }
}
