import MemhuntTestSupport
import Testing

@testable import MemhuntFormats

/// Inputs found by the libFuzzer targets under `Fuzz/` (see `Fuzz/run.sh`), kept under `Fixtures/fuzz/`.
/// Each is parsed the way its target did; the expected values are those of the parser before the rewrite
/// that the target caught (the differential oracle in `Fuzz/Reference/`).
@Suite struct FuzzRegressionTests {
    /// `changelog`: line 56 ends in `… changed.` but is no change line, and its tail is longer than the 1 KiB
    /// the cache keeps; discarding that uncached entry dropped every cached item with it, and the next
    /// evaluation trapped on an index out of range. The target fed it in 46-byte chunks with a 1,744-byte
    /// line cap (line 61, 2,708 bytes, is skipped).
    @Test func droppedNonChangeTailKeepsTheCachedItems() throws {
        let bytes = try Repo.bytes("fuzz/changelog-dropped-non-change-tail.log")
        var scanner = ChangeLogScanner(lineCap: 1744)
        var offset = 0
        while offset < bytes.count {
            scanner.feed(bytes[offset..<min(bytes.count, offset + 46)])
            offset += 46
        }
        let summary = scanner.finish()
        var whole = ChangeLogScanner(lineCap: 1744)
        whole.feed(bytes[...])
        #expect(whole.finish() == summary)
        #expect(summary.evaluations == 12)
        #expect(summary.lines == 107)
        #expect(summary.skippedLines == 1)
        #expect(summary.bursts == 2)
        #expect(
            summary.views == [
                "StatusBar": 1, "LibraryList": 1, "ThumbnailGrid": 1, "SidebarView": 1, "LibraryRow": 7,
                "LibraryScreen": 1,
            ])
    }

    /// `changelog`: line 8, `2026-08-12 14:03:05.04n: @self changed.`, is no change line (the view's name
    /// would run into the timestamp); the line-tail cache kept its bytes after the timestamp,
    /// `n: @self changed.`, as "no change line", and line 14, those same bytes on a line of their own (view
    /// `n`), hit it and was not counted. Only a scanner whose cache was full (8 tails, as the target picked)
    /// counted it. The target's line cap was 176.
    @Test func aTailAfterATimestampIsNotALineOfItsOwn() throws {
        let bytes = try Repo.bytes("fuzz/changelog-tail-after-timestamp.log")
        for capacity in [8, 16_384] {
            var scanner = ChangeLogScanner(lineCap: 176, cacheCapacity: capacity)
            scanner.feed(bytes[...])
            let summary = scanner.finish()
            #expect(summary.evaluations == 7, "cache of \(capacity)")
            #expect(summary.views == ["RootView": 3, "StreamScreen": 3, "n": 1], "cache of \(capacity)")
            #expect(summary.lines == 14)
        }
    }

    /// `changelog`: while the caches were left alone, a line read in parts kept its bytes before the colon,
    /// `n`, from the line `n: @self changed.` (view `n`), and the line `2026-08-12 14:03:05.04n: @self
    /// changed.`, whose `n` runs into its timestamp (no change line), found them and was counted. Only a
    /// scanner with small caches (2 tails, as the target picked) read lines in parts here. Lines with and
    /// without a leading timestamp now keep their prefixes apart.
    @Test func aPrefixAfterATimestampIsNotALineOfItsOwn() throws {
        let bytes = try Repo.bytes("fuzz/changelog-prefix-after-timestamp.log")
        let cap = 16 + Int(bytes.last!) * 16
        var whole = ChangeLogScanner(lineCap: cap)
        whole.feed(bytes[...])
        let summary = whole.finish()
        for capacity in [1, 2, 4, 8, 16, 32] {
            var small = ChangeLogScanner(lineCap: cap, cacheCapacity: capacity)
            small.feed(bytes[...])
            #expect(small.finish() == summary, "caches of \(capacity)")
        }
        // The same two lines alone, after enough distinct lines that the caches step aside.
        let lines =
            (0..<40).map { "2026-08-12 14:03:04.\(100 + $0) Memo[1:2] V\($0): _x changed." }
            + ["n: @self changed.", "2026-08-12 14:03:05.04n: @self changed.", "n: @self changed."]
        let text = Array((lines.joined(separator: "\n") + "\n").utf8)
        var small = ChangeLogScanner(lineCap: 65_536, cacheCapacity: 2)
        small.feed(text[...])
        let bypassed = small.bypassed
        let log = small.finish()
        #expect(bypassed > 30)
        #expect(log.views["n"] == 2, "\(log.views)")
        #expect(log.evaluations == 42)
    }

    /// `heap`: line 25's blanks before BINARY are a space and eight tabs. Each tab counted two columns, and the
    /// field's end was found by stepping back that many characters: past its start, a range that trapped. The
    /// row now reads with its type and binary.
    @Test func aRunOfTabsEndsAColumn() throws {
        guard case .success(let report) = HeapReport.parse(try Repo.bytes("fuzz/heap-tab-run.heap.txt")) else {
            throw Failure("not read")
        }
        let row = try #require(report.classes.first { $0.line == 25 })
        #expect(row.className == "AluminumWeight.Store" && row.type == "Swift" && row.binary == "AluminumWeight")
        guard
            case .success(let tabs) = HeapReport.parse(
                Array(
                    "All zones: 1 nodes (32 bytes)\n   COUNT      BYTES       AVG   CLASS_NAME\n       1         32      32.0   A\t\tB\n"
                        .utf8))
        else {
            throw Failure("not read")
        }
        #expect(tabs.classes.map(\.className) == ["A"] && tabs.classes.first?.binary == "B")
    }

    /// `leaks`: a malloced size of 331,666,666,666,666,663 KB is more bytes than an Int holds; multiplying it by 1024
    /// trapped. The size is left unknown, and the rest of the report reads.
    @Test func aMallocedSizeTooLargeForBytesIsUnknown() throws {
        guard case .success(let report) = LeaksReport.parse(try Repo.bytes("fuzz/leaks-malloced-overflow.leaks.txt"))
        else {
            throw Failure("not read")
        }
        #expect(report.mallocedBytes == nil)
        #expect(report.nodes == 812_000)
        #expect(report.processName == "DemoApp" && report.pid == 4242)
    }
}
