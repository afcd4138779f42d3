import MemhuntFormats
import MemhuntTestSupport
import Testing

/// `heap` text: the header, the `All zones` total and the class table, in its variants and cut short.
@Suite struct HeapReportTests {
    static func report(_ bytes: [UInt8]) throws -> HeapReport {
        let outcome = ArtifactReader.read(bytes)
        #expect(outcome.kind == .heap)
        guard case .repro(.heap(let report)) = try outcome.result.get() else { throw Failure("not a heap report") }
        return report
    }

    static func report(_ text: String) throws -> HeapReport { try report(Array(text.utf8)) }

    @Test func theHeaderTheTotalAndTheTable() throws {
        let report = try Self.report(try Repo.bytes("heap/faq-visit-1.heap.txt"))
        #expect(report.processName == "AluminumWeight" && report.pid == 5120)
        #expect(report.date == "2026-07-03 21:14:02.000 +0900")
        #expect(report.footprintBytes == Int((82.4 * 1_048_576).rounded()))
        #expect(report.footprintPeakBytes == Int((82.9 * 1_048_576).rounded()))
        #expect(report.zones == 3)
        #expect(report.nodes == 98_460 && report.bytes == 28_075_313)
        #expect(report.hasTable && report.unreadable.isEmpty)
        #expect(report.classes.count == 11)
        #expect(report.classes.map(\.count).reduce(0, +) == 98_460)
        #expect(report.classes.map(\.bytes).reduce(0, +) == 28_075_313)
        let raw = report.classes[0]
        #expect(raw.className == "non-object" && raw.type == nil && raw.binary == nil)
        #expect(raw.count == 73_726 && raw.bytes == 25_962_113 && raw.averageBytes == 352.1 && raw.line == 33)
        let faq = try #require(report.classes.first { $0.className == "FAQ" })
        #expect(faq.count == 300 && faq.bytes == 24_000 && faq.averageBytes == 80)
        #expect(faq.type == "Swift" && faq.binary == "AluminumWeight" && faq.label == "FAQ (Swift, AluminumWeight)")
        // Single spaces belong to the name; a name longer than its column still ends two spaces before TYPE.
        #expect(report.classes.contains { $0.className == "Class.data (class_rw_t)" && $0.type == "C" })
        let long = try #require(report.classes.first { $0.className.hasPrefix("Swift._DictionaryStorage") })
        #expect(long.className == "Swift._DictionaryStorage<Swift.String, Foundation._Locale>")
        #expect(long.type == "Swift" && long.binary == "libswiftCore.dylib")
    }

    /// `--sortBySize` orders the rows by bytes; the classes are the same.
    /// Older and smaller `heap` output: `All zones: N nodes malloced - M KB` (older macOS) is the total; a single
    /// `Zone …: N nodes (M bytes)` with no `All zones` line is the heap; a Markdown fence after the table ends it
    /// (it was "a row cut short").
    @Test func olderAndSmallerOutputGivesItsTotals() throws {
        let older = try Self.report(try Repo.bytes("heap-shapes/older-malloced-total.heap.txt"))
        #expect(older.nodes == 98_460 && older.bytes == 27_417 * 1024)
        #expect(older.classes.count == 11 && older.unreadable.isEmpty)
        let zone = try Self.report(try Repo.bytes("heap-shapes/single-zone.heap.txt"))
        #expect(zone.zones == 1)
        #expect(zone.nodes == 98_460 && zone.bytes == 28_075_313)
        let fenced = try Self.report(try Repo.bytes("heap-shapes/fenced.heap.md"))
        #expect(fenced.nodes == 98_460 && fenced.classes.count == 11)
        #expect(fenced.unreadable.isEmpty, "\(fenced.unreadable)")
        // Two zones and no total: neither is the heap.
        let two = try Self.report(
            "Zone A_0x1: 10 nodes (100 bytes)\nZone B_0x2: 20 nodes (200 bytes)\n\n   COUNT      BYTES       AVG   CLASS_NAME\n"
                + "   =====      =====       ===   ==========\n      10        100      10.0   non-object\n")
        #expect(two.nodes == nil)
    }

    @Test func sortedBySizeReadsTheSameClasses() throws {
        let sorted = try Self.report(try Repo.bytes("heap/faq-visit-3.sortBySize.heap.txt"))
        #expect(sorted.classes.map(\.bytes) == sorted.classes.map(\.bytes).sorted(by: >))
        #expect(sorted.classes.first?.className == "non-object")
        #expect(sorted.classes.first { $0.className == "FAQ" }?.count == 900)
        #expect(sorted.nodes == 100_262 && sorted.bytes == 28_401_777)
    }

    /// `-H` sizes: `25M`, `309K`, an AVG of `23K`, and the total `(27M)`.
    @Test func humanReadableSizes() throws {
        let report = try Self.report(try Repo.bytes("heap/faq-visit-4.human.heap.txt"))
        #expect(report.nodes == 101_163 && report.bytes == 27 * 1_048_576)
        #expect(report.classes[0].bytes == 25 * 1_048_576)
        let array = try #require(report.classes.first { $0.className.hasPrefix("_ContiguousArrayStorage") })
        #expect(array.bytes == 94 * 1024 && array.averageBytes == 23 * 1024)
    }

    /// `--diffFrom`: the same table, of what only the later graph holds.
    @Test func aDifferenceIsReadAsItsTable() throws {
        let report = try Self.report(try Repo.bytes("heap/faq-visit-4.diffFrom-visit-1.heap.txt"))
        #expect(report.nodes == 2703 && report.bytes == 489_696)
        #expect(
            report.classes.map(\.className) == ["non-object", "FAQ", "_ContiguousArrayStorage<AluminumWeight.FAQ>"])
        #expect(report.classes.map(\.count) == [1800, 900, 3])
    }

    static let head = """
        Process:         Demo [7]
        All zones: 3 nodes (96 bytes)

           COUNT      BYTES       AVG   CLASS_NAME                                        TYPE    BINARY
           =====      =====       ===   ==========                                        ====    ======

        """

    /// A file cut inside a row: the row is named by its line and left out; the rows before it read.
    @Test func aRowCutMidLineIsNamed() throws {
        let report = try Self.report(
            Self.head + "       2         64      32.0   Thing                 Swift   Demo\n       1     ")
        #expect(report.classes.map(\.className) == ["Thing"])
        #expect(report.unreadable == ["line 7: the file ends inside this row ('1'); not read"])
    }

    /// `nan`, a missing class name and numbers that are none: each named with its line, the rest read.
    @Test func badRowsAreNamedWithTheirLines() throws {
        let report = try Self.report(
            Self.head + "       2         64       nan   Thing                 Swift   Demo\n"
                + "       1         32      32.0\n" + "     nan         32      32.0   Other\n"
                + "       1         32      32.0   Last                  C       libc\n")
        #expect(report.classes.map(\.className) == ["Thing", "Last"])
        #expect(report.classes[0].averageBytes == nil && report.classes[0].count == 2)
        #expect(
            report.unreadable == [
                "line 6: AVG 'nan' is not a number (the row's count and bytes are read)",
                "line 7: '1         32      32.0' has no class name (a row cut short?)",
                "line 8: 'nan         32      32.0   Other': COUNT and BYTES are not numbers",
            ])
    }

    /// Cut before its table: the kind is known and the failure says what is missing.
    @Test func aReportCutBeforeItsTableFails() throws {
        let text = "Process:         Demo [7]\nAnalysis Tool:   /usr/bin/heap\n\nPhysical footprint:         1.2M\n"
        let outcome = ArtifactReader.read(Array(text.utf8))
        #expect(outcome.kind == .heap)
        guard case .failure(let error) = outcome.result else { throw Failure("read") }
        #expect(error.message.hasPrefix("a heap report without its class table"))
    }

    /// Missing fields: no header, no total; the table alone reads, and the totals stay unknown.
    @Test func aTableAloneReads() throws {
        let text = """
               COUNT      BYTES       AVG   CLASS_NAME                                        TYPE    BINARY
               =====      =====       ===   ==========                                        ====    ======
                  14   12845056  917504.0   CellArena.attributes (malloc)                             TermQ
                   4       1024     256.0   ObservationRegistrar.Storage<Any Key>             Swift   SwiftUI

            """
        let report = try Self.report(text)
        #expect(report.processName == nil && report.nodes == nil && report.bytes == nil)
        // A row without TYPE still names its BINARY.
        #expect(report.classes[0].className == "CellArena.attributes (malloc)")
        #expect(report.classes[0].type == nil && report.classes[0].binary == "TermQ")
        #expect(report.classes[1].className == "ObservationRegistrar.Storage<Any Key>")
    }

    /// Thousands of bad rows: twenty are named and the rest counted, so the diagnostics stay small.
    @Test func manyBadRowsAreCounted() throws {
        let rows = String(repeating: "       x         64      32.0   Thing\n", count: 1000)
        let report = try Self.report(Self.head + rows)
        #expect(report.unreadable.count == 21)
        #expect(report.unreadable.last == "and 980 more lines not read")
    }

    /// A second table (`heap -z` prints one per zone) is named, not mixed into the first.
    @Test func aSecondTableIsNamed() throws {
        let table = "       1         32      32.0   Thing                 Swift   Demo\n"
        let report = try Self.report(Self.head + table + "\n" + Self.head.split(separator: "\n")[2] + "\n" + table)
        #expect(report.classes.count == 1)
        #expect(report.unreadable == ["line 8: a second class table (of one zone?), not read"])
    }
    /// A table past `HeapScanner.maxRows` rows: the first are kept, the rest counted and summed, and the report says so.
    @Test func theTableIsBoundedAndWhatItLeavesOutIsCounted() throws {
        let extra = 25
        var rows = ""
        for index in 0..<(HeapScanner.maxRows + extra) {
            rows += "       2         64      32.0   Filler\(index)                 Swift   Demo\n"
        }
        let report = try Self.report(Self.head + rows)
        #expect(report.classes.count == HeapScanner.maxRows && !report.tableWhole && report.hasTable)
        #expect(report.rowsLeftOut == extra && report.countLeftOut == 2 * extra && report.bytesLeftOut == 64 * extra)
        #expect(report.classes.last?.className == "Filler\(HeapScanner.maxRows - 1)")
        #expect(
            report.unreadable == [
                "rows past the table's first \(HeapScanner.maxRows): \(extra) more rows (\(64 * extra) bytes) counted in no class"
            ])
    }

    /// `heap -addresses all` lists every block after the table: the listing is passed over, with or without a blank
    /// line before it, and the report reads as the table alone; the same bytes in small chunks read the same.
    @Test func theAddressListingAfterTheTableIsPassedOver() throws {
        let bytes = try Repo.bytes("heap/faq-visit-4.heap.txt")
        let alone = try Self.report(bytes)
        var listing = "Active blocks in all zones that match pattern '.*':\n"
        for index in 0..<2_000 {
            listing += "0x\(String(0x6000_03a0_4000 + index * 80, radix: 16)): FAQ (80 bytes)\n"
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let table = text.hasSuffix("\n\n") ? String(text.dropLast()) : text
        for joined in [text + "\n" + listing, table + listing] {
            let report = try Self.report(joined)
            #expect(report.classes == alone.classes && report.nodes == 101_163)
            #expect(report.unreadable.isEmpty, "\(report.unreadable)")
            var scanner = HeapScanner()
            let all = Array(joined.utf8)
            for start in stride(from: 0, to: all.count, by: 7) {
                all[start..<min(start + 7, all.count)].withUnsafeBytes { scanner.feed($0) }
            }
            #expect(try scanner.finish().get() == report)
        }
    }
}
