import MemhuntTestSupport
import Testing

@testable import MemhuntFormats

@Suite struct ReproChangeLogTests {
    func summary(_ name: String) throws -> ChangeLogSummary {
        guard case .changeLog(let summary) = try ReproFixture.read(name) else { throw FormatError("not a change log") }
        return summary
    }

    func scan(_ text: String) -> ChangeLogSummary {
        var scanner = ChangeLogScanner()
        scanner.feed(Array(text.utf8)[...])
        return scanner.finish()
    }

    /// Names and lines seen in real logs (issue 28, item 5): mangled names of plain nominal types are demangled
    /// to what SwiftUI writes (`ContentView`, `ContentView.Row`) and counted with it; a mangled name with a word
    /// substitution is kept as written; `‹…›` generic arguments and a Previews registry name are names; a line
    /// cut by `…` counts with its whole items.
    @Test func realWorldNameAndLineVariants() throws {
        let log = try summary("changelog-variants.log")
        #expect(log.evaluations == 10)
        #expect(
            log.views == [
                "ContentView": 3, "ContentView.Row": 1, "$s7Courier0A4ViewV": 1,
                "_ContentView_Previews.PreviewRegistry_f3a1c2": 1, "ListView<‹…›>": 2, "MessageRow": 2,
            ])
        #expect(log.itemCounts["MessageRow"] == ["@self": 1, "@identity": 1, "_message": 1])
        #expect(log.itemCounts["ListView<‹…›>"] == ["@self": 1, "\\Inbox.messages": 1])
        #expect(log.processes == ["Courier": 10])
        #expect(log.lastTimestamp == "2026-11-30 10:00:00.144")
        #expect(scan("View: waiting, please wait...\n").evaluations == 0)
        #expect(scan("MessageRow: _mess…\n").evaluations == 0)
        // Elisions inside the item list: one evaluation, with the items written whole.
        let elided = scan("Memo[1:2] RootView: … _a, _b … changed.\nMemo[1:2] RootView: _drag changed.\n")
        #expect(elided.evaluations == 2)
        #expect(elided.views == ["RootView": 2])
        #expect(elided.itemCounts["RootView"] == ["_a": 1, "_b": 1, "_drag": 1])
        #expect(scan("RootView: ... _a, _par... changed.\n").itemCounts["RootView"] == ["_a": 1])
        #expect(scan("RootView: … changed.\n").evaluations == 0)
        #expect(scan("ListView<‹…›>: @self changed.\n").views == ["ListView<‹…›>": 1])
    }

    @Test func drawerGestureBeforeAndAfter() throws {
        let before = try summary("drawer-before.log")
        #expect(before.views == ["RootView": 11, "StreamScreen": 11])
        #expect(before.itemCounts["RootView"] == ["_dragProgress": 11, "_isDrawerOpen": 1])
        #expect(before.selfChangedByView == ["StreamScreen": 11])
        #expect(before.bursts == 1)  // frames 16 ms apart are one gesture
        #expect(before.fanOut.first?.evaluations == 22)
        #expect(before.fanOut.first?.triggerItems == ["_dragProgress", "_isDrawerOpen"])
        #expect(before.firstTimestamp == "2026-08-12 14:03:05.000000+0900")
        #expect(before.lastTimestamp == "2026-08-12 14:03:05.162000+0900")
        let after = try summary("drawer-after.log")
        #expect(after.views == ["RootView": 1, "StreamScreen": 1])
        #expect(after.evaluations == 2)
    }

    @Test func thumbnailStoreFansOutToFourViews() throws {
        let log = try summary("thumbnail-fanout.log")
        #expect(log.bursts == 3)
        let widest = try #require(log.fanOut.first)
        #expect(widest.triggerView == "LibraryScreen")
        #expect(widest.triggerItems == ["_thumbnailStore"])
        #expect(widest.views == ["LibraryScreen", "ThumbnailGrid", "SidebarView", "StatusBar"])
        #expect(widest.distinctViews == 4)
        #expect(widest.evaluations == 5)
        #expect(widest.line == 2)
        #expect(widest.timestamp == "2026-08-12 14:03:20.000000+0900")
        #expect(log.fanOut.map(\.distinctViews) == [4, 2, 1])
        #expect(log.fanOut[1].triggerView == "LibraryList")
        #expect(log.fanOut[1].triggerItems == [])
        #expect(log.selfChangedByView == ["LibraryList": 1, "LibraryRow": 8])
        #expect(log.unchangedCount == 1)
        #expect(log.itemCounts["ThumbnailGrid"]?["\\ThumbnailStore.<computed> (Dictionary<String, Int>)"] == 1)
        #expect(log.itemCounts["SidebarView"] == ["@dependencies": 1])
    }

    @Test func itemsSplitOnlyAtDepthZero() {
        #expect(
            ChangeLogScanner.splitItems("@self, \\Store.<computed> (Dictionary<String, Int>), _map, @3")
                == ["@self", "\\Store.<computed> (Dictionary<String, Int>)", "_map", "@3"])
        let log = scan("Grid<Int, String>: \\Store.<computed> (Dictionary<String, [Int]>), @self changed.\n")
        #expect(
            log.itemCounts == ["Grid<Int, String>": ["\\Store.<computed> (Dictionary<String, [Int]>)": 1, "@self": 1]])
    }

    @Test func prefixesAndNonChangeLines() {
        let log = scan(
            """
            ParentView init
            ParentView body: @self, @identity, _env1 changed.
            [com.apple.SwiftUI:Changed Body Properties] ChangedBodyPropertyTests.ContentView: @self changed.
            ContentModel: unchanged.
            The build changed.
            Status: everything changed.
            Foo: unchanged. trailing
            """)
        #expect(log.views == ["ParentView": 1, "ChangedBodyPropertyTests.ContentView": 1, "ContentModel": 1])
        #expect(log.evaluations == 3)
        #expect(log.unchangedCount == 1)
        #expect(log.bursts == 1)  // a non-change line before the first evaluation starts nothing
        #expect(log.lines == 7)
    }

    @Test func logShowStyles() throws {
        for name in ["logshow-ndjson.log", "logshow-compact.log"] {
            let log = try summary(name)
            #expect(log.evaluations == 3, "\(name)")
            #expect(log.views == ["ContentView": 2, "ChildView": 1], "\(name)")
            #expect(log.itemCounts["ChildView"] == ["@dependencies": 1, "@self": 1], "\(name)")
            #expect(log.bursts == 2, "\(name)")  // 24.184 and 24.190 together, 25.402 alone
            #expect(log.firstTimestamp?.hasPrefix("2026-09-02 19:02:24.184") == true, "\(name)")
        }
    }

    /// A log in `--style ndjson` or `json` takes the streaming route, as the text styles do: it was read whole as
    /// a document, and refused above the 64 MB document limit. JSON without `"eventMessage"`, an `.ips` file and a
    /// JetsamEvent body that holds one are still documents.
    @Test func jsonStylesOfLogAreStreamedLikeTheTextStyles() throws {
        let ndjson = try ReproFixture.bytes("logshow-ndjson.log")
        #expect(ArtifactSniffer.routeAndDetect(ndjson).route == .changeLog)
        // `--style json`: one array, each record pretty-printed over several lines.
        let array = Array(
            #"""
            [{
              "traceID" : 1,
              "eventMessage" : "ContentView: @self, @identity, _model changed.",
              "processImagePath" : "\/Applications\/Memo.app\/Memo",
              "timestamp" : "2026-09-02 19:02:24.184510+0900"
            },{
              "traceID" : 2,
              "eventMessage" : "ChildView: @dependencies, @self changed.",
              "processImagePath" : "\/Applications\/Memo.app\/Memo",
              "timestamp" : "2026-09-02 19:02:24.190022+0900"
            }]
            """#.utf8)
        let routed = ArtifactSniffer.routeAndDetect(array)
        #expect(routed.route == .changeLog)
        #expect(routed.detected == .some(.changeLog))
        #expect(scan(String(decoding: array, as: UTF8.self)).views == ["ContentView": 1, "ChildView": 1])
        // A JetsamEvent body whose process list happens to hold the key stays a document.
        let jetsam = Array(
            #"{"memoryStatus":{},"processes":[{"name":"x","eventMessage":"ContentView: @self changed."}]}"#.utf8)
        #expect(ArtifactSniffer.routeAndDetect(jetsam).route == .document)
        #expect(ArtifactSniffer.routeAndDetect(Array(#"{"eventMessage":"no change here"}"#.utf8)).route == .document)
        #expect(ArtifactSniffer.routeAndDetect(try Repo.bytes("formats/jetsam-16k.ips")).route == .document)
    }

    /// Lines name their process before the view: `App[pid:tid]` (compact, Xcode's console), `App(Lib)[pid]`
    /// (syslog), a JSON record's `processImagePath`; a bare `_printChanges` line names none.
    @Test func linesNameTheirProcess() throws {
        #expect(try summary("logshow-compact.log").processes == ["Memo": 3])
        #expect(try summary("logshow-ndjson.log").processes == ["Memo": 3])
        let syslog = scan(
            """
            Aug 12 14:03:05 iPhone Memo(SwiftUI)[48211] <Notice>: RootView: _dragProgress changed.
            Aug 12 14:03:05 iPhone Memo(SwiftUI)[48211] <Notice>: StreamScreen: @self changed.
            """)
        #expect(syslog.processes == ["Memo": 2])
        let bare = scan("RootView: _dragProgress changed.\nStreamScreen: @self changed.\n")
        #expect(bare.processes.isEmpty)
        #expect(bare.unattributedEvaluations == 2)
    }

    /// A process whose name holds spaces (an app target named `My App`): after a timestamp and compact's type
    /// column, the name runs to its `[`. It was `App`, the name of another app. A name right after the timestamp
    /// is one word, as before; so is a name on a line without a timestamp, where nothing says where it starts.
    @Test func aProcessNameMayHoldSpaces() {
        let compact = scan(
            """
            2026-09-02 19:02:24.184 I  My App[8931:28be9a] [com.apple.SwiftUI:Changed Body Properties] ContentView: @self changed.
            2026-09-02 19:02:24.190 Df My App[8931:28be9a] [com.apple.SwiftUI:Changed Body Properties] ChildView: @self changed.
            2026-09-02 19:02:24.195 I  Memo[8932:28be9b] [com.apple.SwiftUI:Changed Body Properties] RootView: @self changed.
            2026-09-02 19:02:24.201 Memo Lite[8933:1] ContentView: @self changed.
            Memo Lite[8933:1] ContentView: @self changed.
            """)
        #expect(compact.processes == ["My App": 2, "Memo": 1, "Lite": 2])
        #expect(compact.evaluations == 5)
    }

    /// A capture of the whole subsystem mixes apps: evaluations are counted per process, lines that name none
    /// apart, and a non-change line never adds a process.
    @Test func aMixedLogCountsEachProcess() {
        let lines = [
            "2026-08-12 14:03:05.000 I  Chat[51873:1] [com.apple.SwiftUI:Changed Body Properties] Bubble: @self changed.",
            "2026-08-12 14:03:05.001 I  MobileMail[412:9] [com.apple.SwiftUI:Changed Body Properties] Row: _unread changed.",
            "2026-08-12 14:03:05.002 I  Chat[51873:1] [com.apple.SwiftUI:Changed Body Properties] Bubble: @self changed.",
            "2026-08-12 14:03:05.003 Df Widget[77:2] [com.example:net] request: done",
            "2026-08-12 14:03:05.004 I  [x] Toolbar: unchanged.",
            "Status[1x] Bubble: @self changed.",
        ]
        for capacity in [1, 16_384] {
            var scanner = ChangeLogScanner(lineCap: 65_536, cacheCapacity: capacity)
            scanner.feed(Array((lines + lines).joined(separator: "\n").utf8)[...])
            let log = scanner.finish()
            #expect(log.processes == ["Chat": 4, "MobileMail": 2], "cache of \(capacity)")
            #expect(log.evaluations == 10)
            #expect(log.unattributedEvaluations == 4)
        }
    }

    /// Two shortcuts skip work on repeated bytes: the milliseconds of the last `yyyy-MM-dd HH:mm:ss` (a line of
    /// the same second reads only its fraction and zone) and the tail that followed the last line's tail last
    /// time (compared before any hash). Neither changes what a line counts as or when it was.
    @Test func repeatedSecondsAndTailsCountAsParsed() {
        let lines = [
            "2026-08-12 14:03:05.000 Memo[1:2] A: _x changed.",
            "2026-08-12 14:03:05.020 Memo[1:2] B: _y changed.",  // the same second, 20 ms on: one burst
            "2026-08-12 14:03:05.100 Memo[1:2] A: _x changed.",  // 80 ms on: a new burst
            "2026-08-12 14:03:05.120 Memo[1:2] B: _y changed.",  // the tail that followed A last time
            "2026-08-12 14:03:05.200 Memo[1:2] A: _x changed.",
            "2026-08-12 14:03:05.220 Memo[1:2] B: _z changed.",  // not the tail that followed A last time
            "2026-08-12 14:03:06Z Memo[1:2] A: _x changed.",
            "2026-08-12 14:03:06.500+0900 Other[3:4] A: _x changed.",  // the second of the line before, 500 ms on
        ]
        let log = scan(lines.joined(separator: "\n") + "\n")
        #expect(log.views == ["A": 5, "B": 3])
        #expect(log.itemCounts["B"] == ["_y": 2, "_z": 1])
        #expect(log.bursts == 5)
        #expect(log.fanOut.map(\.evaluations).sorted() == [1, 1, 2, 2, 2])
        #expect(log.processes == ["Memo": 7, "Other": 1])
        #expect(log.lastTimestamp == "2026-08-12 14:03:06.500+0900")
    }

    /// While fewer than half of a window's lines are found in the caches, the next 16 windows (twice as many
    /// after each such window in a row) are parsed without them; when lines repeat again the caches come back. Either way a line counts the same.
    @Test func cachesAreLeftAloneWhileLinesDoNotRepeat() {
        var scanner = ChangeLogScanner(lineCap: 65_536, cacheCapacity: 8)  // windows of 2 candidates
        let distinct = (0..<200).map { "2026-08-12 14:03:05.000 Memo[1:2] V\($0): _x changed.\n" }.joined()
        scanner.feed(Array(distinct.utf8)[...])
        let bypassed = scanner.bypassed
        #expect(bypassed > 150, "\(bypassed) of 200 distinct lines parsed past the caches")
        // Left alone, they hold nothing: they kept up to their capacity of tails they did not look up.
        #expect(scanner.cachedTails == 0)
        let repeated = String(repeating: "2026-08-12 14:03:05.000 Memo[1:2] V0: _x changed.\n", count: 200)
        scanner.feed(Array(repeated.utf8)[...])
        // At most the rest of one span goes past the caches once the lines repeat: spans of 16, 32 and 64
        // windows of 2 follow the windows that did not pay, and the third is what 200 lines reach.
        #expect(scanner.bypassed - bypassed <= 128)
        #expect(scanner.cachedTails > 0)
        let log = scanner.finish()
        #expect(log.evaluations == 400)
        #expect(log.views.count == 200)
        #expect(log.views["V0"] == 201)
        #expect(log.itemCounts["V0"] == ["_x": 201])
        #expect(log.processes == ["Memo": 400])
    }

    /// Lines read in parts while the caches are left alone (`bypassedChange`: the process column and view's name
    /// through a table of their own, short items by their bytes) count as the caches count them: `body`, a
    /// mangled name, a process name with a space, long and non-ASCII items, lines that are no change line.
    @Test func linesReadInPartsCountAsTheCachesCountThem() {
        let tricky = [
            "2026-08-12 14:03:05.000 Memo[1:2] ParentView body: @self, _x changed.",
            "2026-08-12 14:03:05.010 Memo[1:2] ParentView body: Child: @dependencies changed.",
            "2026-08-12 14:03:05.020 My App[1:2] ListView: \\ThumbnailStore.<computed> (Dictionary<String, Int>), _count changed.",
            "2026-08-12 14:03:05.030 Memo[1:2] $s7Courier11ContentViewV: @self changed.",
            "2026-08-12 14:03:05.040 Memo[1:2] Row: _naïve, @self changed.",
            "2026-08-12 14:03:05.050 Memo[1:2] Row: , changed.",
            "2026-08-12 14:03:05.060 Memo[1:2] Row: plain changed.",
            "2026-08-12 14:03:05.070 Memo[1:2] Row: unchanged.",
            "14:03:05.080: unchanged.",
            "2026-08-12 14:03:05.090 Memo[1:2] ForEach<Array<Item>, UUID, Row>: _a, _a, @3 changed.",
        ]
        var lines = (0..<50).map { "2026-08-12 14:03:04.\(100 + $0) Memo[1:2] V\($0): _x changed." }
        for _ in 0..<20 { lines += tricky }
        let text = Array((lines.joined(separator: "\n") + "\n").utf8)
        var whole = ChangeLogScanner()
        whole.feed(text[...])
        let log = whole.finish()
        #expect(whole.bypassed == 0)
        #expect(log.views["ParentView"] == 20 && log.views["Child"] == 20 && log.views["ListView"] == 20)
        #expect(log.views["Row"] == 40)
        #expect(log.itemCounts["ListView"]?["\\ThumbnailStore.<computed> (Dictionary<String, Int>)"] == 20)
        #expect(log.itemCounts["ForEach<Array<Item>, UUID, Row>"] == ["_a": 40, "@3": 20])
        #expect(log.selfChangedByView["Row"] == 20)
        for capacity in [1, 2, 8, 32] {
            var small = ChangeLogScanner(lineCap: 65_536, cacheCapacity: capacity)
            small.feed(text[...])
            #expect(small.bypassed > 50, "\(capacity): \(small.bypassed) lines read in parts")
            #expect(small.finish() == log, "\(capacity)")
        }
    }

    /// `splitItems` (eight bytes a step) splits as `splitItemBytes` (a byte a step) on any text: 20,000 random ones
    /// of the bytes that matter, letters and a byte that is not ASCII, each followed by ` changed.` as in a line.
    @Test func itemsSplitEightBytesAStepAsByteByByte() {
        let alphabet = Array("ab_@\\,,, <>()[]\t\r".utf8) + [0xC3]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20_000 {
            let length = Int.random(in: 0...40, using: &generator)
            let text = (0..<length).map { _ in alphabet.randomElement(using: &generator)! } + Array(" changed.".utf8)
            text.withUnsafeBufferPointer { line in
                var expected: [Range<Int>] = []
                let ascii = ChangeLogScanner.splitItemBytes(line, from: 0, to: length, into: &expected)
                withUnsafeTemporaryAllocation(of: ChangeLogScanner.SplitItem.self, capacity: length / 2 + 1) { items in
                    let count = ChangeLogScanner.splitItems(line, from: 0, to: length, into: items.baseAddress!)
                    #expect((count != nil) == ascii, "round \(round): \(text)")
                    if let count, ascii {
                        let ranges = (0..<count).map { Int(items[$0].start)..<Int(items[$0].end) }
                        #expect(ranges == expected, "round \(round): \(text)")
                    }
                }
            }
        }
    }

    /// A record's `processImagePath` names the process of its message's lines, whatever they say.
    @Test func aRecordsImagePathNamesItsLines() {
        let json = """
            {"eventMessage":"Other[1:2] RootView: _dragProgress changed.","processImagePath":"\\/Applications\\/Memo.app\\/Memo","timestamp":"2026-09-02 19:02:24.184510+0900"}
            {"eventMessage":"Other[1:2] RootView: _dragProgress changed.","processImagePath":"\\/","timestamp":"2026-09-02 19:02:24.185510+0900"}
            """
        let log = scan(json)
        #expect(log.processes == ["Memo": 1, "Other": 1])
    }

    @Test func logShowJSONArray() {
        let json = """
            [{
              "traceID" : 1,
              "eventMessage" : "RootView: _dragProgress changed.",
              "subsystem" : "com.apple.SwiftUI",
              "timestamp" : "2026-09-02 19:02:24.184510+0900"
            },{
              "eventMessage" : "Note: \\"quoted\\" {braces},",
              "timestamp" : "2026-09-02 19:02:24.190000+0900"
            },{
              "timestamp" : "2026-09-02 19:02:24.200000+0900",
              "eventMessage" : "StreamScreen: @self changed.\\u000aStreamScreen: unchanged."
            }]
            """
        #expect(ReproReader.detect(Array(json.utf8)) == .changeLog)
        let log = scan(json)
        #expect(log.views == ["RootView": 1, "StreamScreen": 2])
        #expect(log.bursts == 1)
        #expect(log.lastTimestamp == "2026-09-02 19:02:24.200000+0900")
    }

    /// Member lines read from the key at the line's start, and the lines where another key follows: a second
    /// member after the first, a key spelled inside a value that ends right before `: "…"`, a `\u` escape cut
    /// short that takes the quote after it (the string goes on), a value that is not a string.
    @Test func memberLinesReadTheirKeyAndWhatFollowsIt() {
        let json = #"""
            [{
              "senderImagePath" : "x", "timestamp" : "2026-09-02 19:02:24.100000+0900",
              "eventMessage" : "RootView: _dragProgress changed.",
              "processImagePath" : "\/Applications\/Memo.app\/Memo"
            },{
              "subsystem" : "a \"processImagePath" : "\/Other",
              "eventMessage" : "RootView: @self changed.",
              "timestamp" : "2026-09-02 19:02:24.200000+0900"
            },{
              "category" : "\u"timestamp" : "2026-09-02 19:02:24.250000+0900"",
              "traceID" : 7, "eventMessage" : "StreamScreen: @self changed.",
              "processImagePath" : "\/Applications\/Memo.app\/Memo"
            }]
            """#
        let log = scan(json)
        #expect(log.views == ["RootView": 2, "StreamScreen": 1])
        #expect(log.processes == ["Memo": 2, "Other": 1])
        #expect(log.firstTimestamp == "2026-09-02 19:02:24.100000+0900")
        // `\u"` is an escape cut short that takes the quote: the value ends after `timestamp`, and the key's
        // first spelling on the line is there, followed by its own value.
        #expect(log.lastTimestamp == "2026-09-02 19:02:24.250000+0900")
    }

    @Test func burstsWithoutTimestampsSplitAtBlankLines() {
        let log = scan("A: _x changed.\nB: @self changed.\n\nC: _y changed.\n")
        #expect(log.bursts == 2)
        #expect(log.fanOut.map(\.views) == [["A", "B"], ["C"]])
    }

    @Test func burstsSpanMidnightAndMonthEnd() {
        let log = scan(
            "2026-04-30 23:59:59.990 A: _x changed.\n2026-05-01 00:00:00.010 B: @self changed.\n")
        #expect(log.bursts == 1)
    }

    @Test(arguments: [1, 7, 4096])
    func chunkingDoesNotChangeTheSummary(size: Int) throws {
        for name in ["drawer-before.log", "thumbnail-fanout.log", "logshow-ndjson.log", "logshow-compact.log"] {
            let bytes = try ReproFixture.bytes(name)
            var scanner = ChangeLogScanner()
            var offset = 0
            while offset < bytes.count {
                scanner.feed(bytes[offset..<min(bytes.count, offset + size)])
                offset += size
            }
            #expect(scanner.finish() == (try summary(name)), "\(name) in chunks of \(size)")
        }
    }

    @Test func overlongLinesAreSkipped() {
        var scanner = ChangeLogScanner(lineCap: 64)
        let long = String(repeating: "x", count: 500) + " A: @self changed.\n"
        for size in [1, 7, 4096] {
            let bytes = Array(("B: _y changed.\n" + long + "C: _z changed.\n" + long.dropLast()).utf8)
            var offset = 0
            while offset < bytes.count {
                scanner.feed(bytes[offset..<min(bytes.count, offset + size)])
                offset += size
            }
            let log = scanner.finish()
            #expect(log.skippedLines == 2)
            #expect(log.views == ["B": 1, "C": 1])
            scanner = ChangeLogScanner(lineCap: 64)
        }
    }

    /// Past 16,384 distinct tails the cache is full and every new tail is parsed and dropped per line; past
    /// 10,000 views new ones count under `(other)`. Same figures as the scanner before the byte-level rewrite
    /// (checked with the differential fuzz target on this input).
    @Test func fullCacheAndViewCap() {
        var lines = (0..<20_000).map { "V\($0): _x changed." }
        lines += ["V0: _x changed.", "V19999: _x changed.", "V17000: @self, _y changed."]
        let log = scan(lines.joined(separator: "\n") + "\n")
        #expect(log.evaluations == 20_003)
        #expect(log.views.count == 10_001)
        #expect(log.views["V0"] == 2)
        #expect(log.views["V9999"] == 1)
        #expect(log.views["V10000"] == nil)
        #expect(log.views["(other)"] == 10_002)
        #expect(log.itemCounts["(other)"] == ["_x": 10_001, "@self": 1, "_y": 1])
        #expect(log.selfChangedByView == ["(other)": 1])
        #expect(log.bursts == 1)
    }

    /// Past 16,384 distinct names the table of names' bytes is full, and the names met since are kept in a
    /// second table: 20,000 views, twice each, count as the first 10,000 and `(other)`. On the second pass the
    /// last 3,616 are found in that table, and a view cycling past its 16,384 entries is worked out again.
    @Test(arguments: [20_000, 40_000])
    func namesPastTheFullTableOfBytes(views: Int) {
        let pass = (0..<views).map { "V\($0): _x changed." }
        let log = scan((pass + pass).joined(separator: "\n") + "\n")
        #expect(log.evaluations == 2 * views)
        #expect(log.views.count == 10_001)
        #expect(log.views["V0"] == 2)
        #expect(log.views["V1"] == 2)
        #expect(log.views["V9999"] == 2)
        #expect(log.views["V10000"] == nil)
        #expect(log.views["(other)"] == 2 * (views - 10_000))
        #expect(log.itemCounts["(other)"] == ["_x": 2 * (views - 10_000)])
    }

    /// Past 100,000 (view, item) pairs a new pair counts under its view's `(other)`: 10,000 views of 12 items
    /// each, twice. The first 100,000 pairs are views 0 to 8,332 and four items of view 8,333.
    @Test func pairsPastTheCap() {
        var pass: [String] = []
        for view in 0..<10_000 { for item in 0..<12 { pass.append("V\(view): _p\(item) changed.") } }
        let log = scan((pass + pass).joined(separator: "\n") + "\n")
        #expect(log.evaluations == 240_000)
        #expect(log.itemCounts["V0"]?.count == 12)
        #expect(log.itemCounts["V0"]?["_p11"] == 2)
        #expect(log.itemCounts["V8332"]?["_p11"] == 2)
        #expect(log.itemCounts["V8333"] == ["_p0": 2, "_p1": 2, "_p2": 2, "_p3": 2, "(other)": 16])
        #expect(log.itemCounts["V9999"] == ["(other)": 24])
        #expect(log.itemCounts.values.reduce(0) { $0 + $1.values.reduce(0, +) } == 240_000)
    }

    /// A line is looked up by its bytes after its timestamp: the same tail under another time or date is the
    /// same entry, and a view's name that would reach back into the timestamp (none may hold its `:`) is no
    /// change line whatever the time. Caches of one and two tails (always full) give the same summary.
    @Test func lineTailsStartAfterTheTimestamp() {
        var lines = [
            "2026-08-12 14:00:00.000 body: @self changed.",
            "2026-08-12T14:00:00.123456Foo: @self changed.",
            "2026-08-12 14:00:00+09: @self changed.",
            "2026-08-12 14:00:01.000 Foo: @self changed.",
            "2026-08-12 14:00:02.000 Foo: @self changed.",
            "14:00:03.5 Baz: unchanged.",
            "2026-08-13 14:00:00 Foo: @self changed.",
        ]
        lines += (0..<5).map { "Aug 12 14:00:0\($0) host Memo[1]: Bar: _x changed." }
        let text = lines.joined(separator: "\n") + "\n"
        let log = scan(text)
        #expect(log.views == ["Foo": 3, "Baz": 1, "Bar": 5])
        #expect(log.evaluations == 9)
        #expect(log.unchangedCount == 1)
        #expect(log.firstTimestamp == "2026-08-12 14:00:01.000")
        #expect(log.lastTimestamp == "2026-08-13 14:00:00")
        for capacity in [1, 2] {
            var small = ChangeLogScanner(lineCap: 65_536, cacheCapacity: capacity)
            small.feed(Array(text.utf8)[...])
            #expect(small.finish() == log, "\(capacity)")
        }
    }
}
