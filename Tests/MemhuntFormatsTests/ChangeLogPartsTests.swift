import Foundation
import MemhuntTestSupport
import Testing

@testable import MemhuntFormats

/// A log read in two parts by two scanners, the first absorbing the second (`ChangeLogScanner.absorb`), as
/// `LocalArtifacts` reads a large one on two cores: the summary is the one scanner's, at every cut.
@Suite struct ChangeLogPartsTests {
    /// Cuts `bytes` after every line; the first scanner absorbs the second or, when it refuses, reads the rest
    /// itself. Returns the cuts absorbed and refused.
    func everyCut(
        _ bytes: [UInt8], cacheCapacity: Int = ChangeLogScanner.maxCached, _ comment: Comment? = nil
    ) -> (absorbed: Int, refused: Int) {
        var whole = ChangeLogScanner()
        whole.feed(bytes[...])
        let summary = whole.finish()
        var absorbed = 0
        var refused = 0
        for (index, byte) in bytes.enumerated() where byte == 10 {
            let cut = index + 1
            var first = ChangeLogScanner(lineCap: 65_536, cacheCapacity: cacheCapacity)
            first.feed(bytes[..<cut])
            var second = ChangeLogScanner(lineCap: 65_536, cacheCapacity: cacheCapacity, continuing: true)
            second.feed(bytes[cut...])
            if first.absorb(second) {
                absorbed += 1
            } else {
                refused += 1
                first.feed(bytes[cut...])
            }
            let parts = first.finish()
            #expect(parts == summary, "cut after byte \(cut) \(comment.map { "(\($0))" } ?? "")")
            if parts != summary { break }
        }
        return (absorbed, refused)
    }

    static let lines = [
        "2026-08-12 14:03:05.000 Memo[48211:3456789] LibraryScreen: @self, _items changed.",
        "2026-08-12 14:03:05.010 Memo[48211:3456789] LibraryRow: _thumbnail changed.",
        "2026-08-12 14:03:05.020 Memo[48211:3456789] LibraryRow: _thumbnail changed.",
        "2026-08-12 14:03:05.030 Memo[48211:3456789] StatusBar: @dependencies changed.",
        "2026-08-12 14:03:05.500 Memo[48211:3456789] LibraryScreen: _query changed.",
        "2026-08-12 14:03:05.510 Memo[48211:3456789] SidebarView: unchanged.",
        "",
        "LibraryRow: @self changed.",
        "LibraryRow: _isSelected changed.",
        "[Network] request 12 finished in 80 ms",
        "LibraryScreen: @self changed.",
        "[\"selection\": 3]",
        "LibraryScreen: @self changed.",
        "SidebarView: @self, _selection changed.",
        "2026-08-12 14:03:06.000 MemoWidget[48212:1] WidgetView: _entry changed.",
        "2026-08-12 14:03:06.020 Memo[48211:3456789] ThumbnailGrid: \\Model.items, _count changed.",
        "2026-08-12 14:03:06.030 Memo[48211:3456789] ThumbnailCell: _image changed.",
        "2026-08-12 14:03:06.040 Memo[48211:3456789] ThumbnailCell: _image changed.",
        "2026-08-12 14:03:06.045 Memo[48211:3456789] LibraryRow: _thumbnail changed.",
    ]

    /// Bursts that go on across the cut (50 ms apart or closer) and ones a line or a gap ends (a blank line, a
    /// subsystem's `[Network] …` line), lines with and without a timestamp, two processes, an `unchanged.`:
    /// every cut gives the whole's summary, and every cut is absorbed.
    @Test func burstsJoinAcrossTheCutAsOneScannerJoinsThem() {
        let bytes = Array((Self.lines.joined(separator: "\n") + "\n").utf8)
        var whole = ChangeLogScanner()
        whole.feed(bytes[...])
        let summary = whole.finish()
        #expect(summary.evaluations == 16)
        #expect(summary.bursts == 5)
        #expect(summary.fanOut.map(\.distinctViews) == [6, 3, 2, 1, 1])
        let result = everyCut(bytes)
        #expect(result.absorbed == Self.lines.count)
        #expect(result.refused == 0)
        // Caches of 2 tails: the second scanner reads its lines in parts too.
        #expect(everyCut(bytes, cacheCapacity: 2).refused == 0)
    }

    /// More than 10 bursts, so the top is full on both sides of every cut and the join picks among them.
    @Test func theTopTenJoinAsOneScannerKeepsThem() {
        var lines: [String] = []
        for burst in 0..<14 {
            // Bursts of 1 to 5 distinct views (some equal), each line 10 ms after the last, 1 s between bursts.
            for view in 0...(burst * 7 % 5) {
                lines.append(
                    "2026-08-12 14:03:\(String(format: "%02d", 10 + burst)).\(String(format: "%03d", view * 10)) "
                        + "Memo[1:2] View\(view + burst % 3): _state changed.")
            }
        }
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        var whole = ChangeLogScanner()
        whole.feed(bytes[...])
        let summary = whole.finish()
        #expect(summary.bursts == 14)
        #expect(summary.fanOut.count == 10)
        #expect(everyCut(bytes).refused == 0)
    }

    /// A cut inside a `--style json` record after one of its values: the first scanner refuses, and reads the
    /// rest itself. A cut between records is absorbed.
    @Test func aCutInsideAJSONRecordIsRefused() {
        var records: [String] = []
        for (index, message) in ["LibraryScreen: @self changed.", "LibraryRow: _thumbnail changed.", "done"]
            .enumerated()
        {
            records.append(
                """
                {
                  "timestamp" : "2026-08-12 14:03:05.0\(index)0000+0900",
                  "processImagePath" : "/private/var/containers/Bundle/Application/X/Memo.app/Memo",
                  "eventMessage" : "\(message)",
                  "processID" : 48211
                }
                """)
        }
        let bytes = Array(("[" + records.joined(separator: ",") + "]\n").utf8)
        var whole = ChangeLogScanner()
        whole.feed(bytes[...])
        let summary = whole.finish()
        #expect(summary.evaluations == 2)
        #expect(summary.processes == ["Memo": 2])
        let result = everyCut(bytes)
        // After `[{`, each `},{` and `}]`: absorbed; after a member line (a value read): refused.
        #expect(result.absorbed == 4)
        #expect(result.refused == 12)
    }

    /// Kill lines on both sides of the cut: the second part's records are read after the first's, joining with
    /// them (a kill's `exceeded` line and its `killing` line, cut apart, are one record), and every cut is
    /// absorbed.
    @Test func killLinesAfterTheCutJoinTheOnesBefore() {
        let lines = [
            "2026-08-12 14:03:05.000 Memo[1:2] LibraryScreen: @self changed.",
            "2026-08-12 14:03:05.104 Df kernel[0:1f2a] memorystatus: Memo [48211] exceeded mem limit: ActiveHard "
                + "2098 MB (fatal)",
            "2026-08-12 14:03:05.110 Memo[1:2] LibraryRow: _thumbnail changed.",
            "2026-08-12 14:03:06.000 Df kernel[0:1f2a] memorystatus: killing_specific_process pid 48211 [Memo] "
                + "(per-process-limit 100 341s rf:- type:app) 2148532KB - memorystatus_available_pages: 73240",
            "2026-08-12 14:03:06.100 Df kernel[0:1f2a] memorystatus: killing_specific_process pid 994 "
                + "(per-process-limit 100 341s rf:- type:app) 2148532KB - memorystatus_available_pages: 73240",
            "2026-08-12 14:03:07.000 Memo[1:2] LibraryRow: _thumbnail changed.",
        ]
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        var whole = ChangeLogScanner()
        whole.feed(bytes[...])
        let summary = whole.finish()
        #expect(summary.kills.kills.count == 2)
        #expect(summary.kills.kills.last?.pid == 994)
        #expect(summary.kills.kills.first?.limitMB == 2098)
        #expect(summary.kills.kills.first?.footprintKB == 2_148_532)
        #expect(summary.kills.problemCount == 1)
        let result = everyCut(bytes)
        #expect(result.refused == 0)
        #expect(result.absorbed == lines.count)
    }

    /// The fixtures' change logs, kill logs and fuzz findings, cut after every line.
    @Test(arguments: [
        "justsend/thumbnail-fanout.log", "justsend/drawer-before.log", "kill-lines/mixed.log", "kill-lines/json.log",
        "kill-lines/ndjson.log", "formats/repro/changelog-variants.log", "formats/repro/logshow-ndjson.log",
        "formats/repro/logshow-compact.log", "fuzz/changelog-prefix-after-timestamp.log",
        "fuzz/changelog-tail-after-timestamp.log", "fuzz/changelog-dropped-non-change-tail.log",
        "examples/change-log.several-processes/raises/swiftui-stream.log",
    ])
    func fixturesCutAfterEveryLine(_ path: String) throws {
        let bytes = try Repo.bytes(path)
        let result = everyCut(bytes, Comment(rawValue: path))
        #expect(result.absorbed + result.refused >= 3, "\(path)")
        let small = everyCut(bytes, cacheCapacity: 4, Comment(rawValue: path + ", caches of 4"))
        #expect(small.absorbed == result.absorbed, "\(path)")
    }

    /// Names past the cap (10,050 views, 10,000 kept): refused, since the order of first sight decides what goes
    /// under `(other)`; the rest is read by the first scanner and the summary is the whole's.
    @Test func namesPastTheCapAreRefused() {
        var text = ""
        for view in 0..<10_050 { text += "View\(view): @self changed.\n" }
        let bytes = Array(text.utf8)
        var whole = ChangeLogScanner()
        whole.feed(bytes[...])
        let summary = whole.finish()
        #expect(summary.views.count == 10_001)
        #expect(summary.views["(other)"] == 50)
        let cut = bytes.count / 2 + 1 + bytes[(bytes.count / 2)...].firstIndex(of: 10)! - bytes.count / 2
        var first = ChangeLogScanner(part: .first)
        first.feed(bytes[..<cut])
        var second = ChangeLogScanner(part: .rest)
        second.feed(bytes[cut...])
        let absorbed = first.absorb(second)
        #expect(!absorbed)
        first.feed(bytes[cut...])
        let parts = first.finish()
        #expect(parts == summary)
    }
}
