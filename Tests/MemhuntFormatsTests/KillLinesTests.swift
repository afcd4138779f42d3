import MemhuntTestSupport
import Testing

@testable import MemhuntFormats

/// The kill lines of device logs, one fixture per variant: the kernel's `memorystatus` lines in every `log show`
/// style, Console copies and idevicesyslog, ReportSystemMemory's line, and a debugger's EXC_RESOURCE stop.
@Suite struct KillLinesTests {
    /// The kill records of a fixture, as the document reader gives them.
    static func log(_ relative: String) throws -> (kind: ArtifactKind?, log: MemoryKillLog) {
        let outcome = ArtifactReader.read(try Repo.bytes(relative))
        let parsed = try outcome.result.get()
        return (outcome.kind, try #require(parsed.killLog, "\(relative) holds no kill"))
    }

    /// Memo's kill at its 2098 MB limit, as `log show` (default style) writes it: four lines, one kill.
    @Test func unifiedLogDefaultStyle() throws {
        let (kind, log) = try Self.log("kill-log/unified-log.log")
        #expect(kind == .killLog)
        #expect(log.kills.count == 1)
        #expect(log.problemCount == 0)
        let kill = try #require(log.kills.first)
        #expect(kill.process == "Memo")
        #expect(kill.pid == 48211)
        #expect(kill.killed)
        #expect(kill.reason == "per-process-limit")
        #expect(kill.limitMB == 2098)
        #expect(kill.limitKind == "ActiveHard")
        #expect(kill.band == "FOREGROUND")
        #expect(kill.priority == 100)
        #expect(kill.ageSeconds == 341)
        #expect(kill.footprintKB == 2_148_532)
        #expect(kill.availablePages == 73240)
        #expect(kill.processType == "app")
        #expect(kill.timestamp == "2026-08-12 14:03:05.104211+0900")
        #expect(kill.line == 2)
        #expect(kill.seen == [.kernel, .report])
    }

    @Test(arguments: [
        ("kill-lines/syslog-style.log", "2026-08-12 14:03:05.104211+0900", 1),
        ("kill-lines/compact.log", "2026-08-12 14:03:05.104", 2),
        ("kill-lines/ndjson.log", "2026-08-12 14:03:05.104211+0900", 1),
        ("kill-lines/json.log", "2026-08-12 14:03:05.104211+0900", 7),
        ("kill-lines/console-copy.txt", "14:03:05.104211+0900", 1),
    ])
    func everyStyleGivesTheSameKill(file: String, time: String, line: Int) throws {
        let (kind, log) = try Self.log(file)
        #expect(kind == .killLog)
        #expect(log.kills.count == 1, "\(file)")
        let kill = try #require(log.kills.first)
        #expect(kill.process == "Memo")
        #expect(kill.pid == 48211)
        #expect(kill.reason == "per-process-limit")
        #expect(kill.limitMB == (file.contains("syslog-style") ? 1450 : 2098))
        #expect(kill.limitKind == (file.contains("syslog-style") ? "InactiveHard" : "ActiveHard"))
        #expect(kill.footprintKB == (file.contains("syslog-style") ? 1_484_800 : 2_148_532))
        #expect(kill.timestamp == time, "\(file)")
        #expect(kill.line == line, "\(file)")
        #expect(kill.seen == [.kernel, .report])
    }

    /// idevicesyslog: syslog's `Aug 12 14:03:05` time, the four lines of one kill.
    @Test func idevicesyslog() throws {
        let (_, log) = try Self.log("kill-lines/idevicesyslog.log")
        #expect(log.kills.count == 1)
        let kill = try #require(log.kills.first)
        #expect(kill.process == "JustSend")
        #expect(kill.pid == 733)
        #expect(kill.limitMB == 2048)
        #expect(kill.band == "FOREGROUND")
        #expect(kill.ageSeconds == 12)
        #expect(kill.footprintKB == 2_097_400)
        #expect(kill.availablePages == 40230)
        #expect(kill.timestamp == "Aug 12 14:03:05")
    }

    /// `EXC_RESOURCE -> NAME[PID] exceeded mem limit` and a kill line after the kernel's uptime stamp.
    @Test func excResourceKernelLine() throws {
        let (_, log) = try Self.log("kill-lines/exc-resource-kernel.log")
        #expect(log.kills.count == 1)
        let kill = try #require(log.kills.first)
        #expect(kill.process == "WidgetExt")
        #expect(kill.pid == 902)
        #expect(kill.limitMB == 30)
        #expect(kill.limitKind == "ActiveHard")
        #expect(kill.footprintKB == 31120)
        #expect(kill.ageSeconds == 4)
        #expect(kill.reason == "per-process-limit")
    }

    /// The older kernel's lines: no age, no footprint; the aggressive form's unclosed parenthesis.
    @Test func olderKernelLines() throws {
        let (_, log) = try Self.log("kill-lines/older-kernel.log")
        #expect(log.kills.map(\.process) == ["Photos", "Maps"])
        #expect(log.kills.map(\.pid) == [1204, 1310])
        #expect(log.kills.map(\.reason) == ["vm-pageshortage", "vm-pageshortage"])
        #expect(log.kills.map(\.priority) == [10, 0])
        #expect(log.kills.map(\.availablePages) == [900, 950])
        #expect(log.kills.allSatisfy { $0.footprintKB == nil && $0.limitMB == nil })
        #expect(log.kills.map(\.timestamp) == ["May  1 10:11:12", "May  1 10:11:13"])
    }

    /// Kills of several processes stay apart; a non-fatal crossing is no kill.
    @Test func severalKillsAndASoftLimit() throws {
        let (_, log) = try Self.log("kill-log/killed.log")
        #expect(log.kills.map(\.process) == ["MobileSafari", "cloudd"])
        #expect(log.kills.map(\.reason) == ["vm-pageshortage", "idle-exit"])
        #expect(log.kills.map(\.footprintKB) == [412_080, 18004])
        #expect(log.kills.map(\.processType) == ["app", "daemon"])
        let (_, soft) = try Self.log("kill-log/soft-limit.log")
        let crossing = try #require(soft.kills.first)
        #expect(soft.kills.count == 1)
        #expect(!crossing.killed)
        #expect(crossing.limitMB == 350)
        #expect(crossing.limitKind == "ActiveSoft")
    }

    /// Xcode's stop banner in a console paste that also holds a change line: a change log with one kill.
    @Test func xcodeDebuggerStop() throws {
        let outcome = ArtifactReader.read(try Repo.bytes("kill-lines/xcode-debugger.txt"))
        #expect(outcome.kind == .changeLog)
        guard case .success(.repro(.changeLog(let summary))) = outcome.result else {
            Issue.record("not a change log: \(outcome)")
            return
        }
        #expect(summary.evaluations == 1)
        #expect(summary.kills.kills.count == 1)
        let stop = try #require(summary.kills.kills.first)
        #expect(stop.inDebugger)
        #expect(stop.process == nil)
        #expect(stop.limitMB == 2098)
        #expect(stop.line == 2)
    }

    /// lldb's `stop reason =`, an expression's interruption, and Xcode's "Terminated due to memory issue", which
    /// joins the stop before it.
    @Test func lldbStops() throws {
        let (_, log) = try Self.log("kill-lines/lldb-stop.txt")
        #expect(log.kills.map(\.limitMB) == [30, 15])
        #expect(log.kills.map(\.line) == [2, 4])
        #expect(log.kills.allSatisfy { $0.inDebugger })
        #expect(log.problemCount == 0)
    }

    /// One log holds change lines and kill lines: both are read.
    @Test func mixedLogHoldsBoth() throws {
        let outcome = ArtifactReader.read(try Repo.bytes("kill-lines/mixed.log"))
        #expect(outcome.kind == .changeLog)
        guard case .success(.repro(.changeLog(let summary))) = outcome.result else {
            Issue.record("not a change log: \(outcome)")
            return
        }
        #expect(summary.evaluations == 2)
        #expect(summary.processes == ["Memo": 2])
        #expect(summary.kills.kills.count == 1)
        #expect(summary.kills.kills.first?.limitMB == 2098)
        #expect(summary.kills.kills.first?.footprintKB == 2_148_532)
        #expect(summary.kills.kills.first?.line == 4)
    }

    /// Prose that quotes the words is no log.
    @Test func proseIsNoKillLog() throws {
        let outcome = ArtifactReader.read(try Repo.bytes("kill-lines/prose.md"))
        #expect(outcome.kind == nil)
    }

    /// A kill line with a pid but no name is named with its line; the rest is read.
    @Test func killLineWithoutAName() throws {
        let (_, log) = try Self.log("examples/memory-kill.unreadable/raises/no-name.log")
        #expect(log.problems == ["line 1: a kill line with pid 48212 but no process name"])
        #expect(log.problemCount == 1)
        #expect(log.kills.map(\.process) == [nil, "KeyboardSpike"])
        #expect(log.kills.last?.limitMB == 77)
        #expect(log.kills.last?.footprintKB == 78850)
    }

    /// Fed in chunks of any size, the scanner finds the same kills.
    @Test(arguments: [1, 7, 64, 4096])
    func chunksChangeNothing(size: Int) throws {
        let bytes = try Repo.bytes("kill-log/unified-log.log") + Repo.bytes("kill-log/killed.log")
        var whole = ChangeLogScanner()
        whole.feed(bytes[...])
        let expected = whole.finish()
        var pieces = ChangeLogScanner()
        var offset = 0
        while offset < bytes.count {
            pieces.feed(bytes[offset..<min(bytes.count, offset + size)])
            offset += size
        }
        #expect(pieces.finish() == expected)
        #expect(expected.kills.kills.map(\.process) == ["Memo", "MobileSafari", "cloudd"])
    }

    /// Memory stays bounded: records and problem texts past their caps are counted, not kept.
    @Test func boundedMemory() {
        var text = ""
        for pid in 0..<(MemoryKillLines.maxKills + 500) {
            text +=
                "memorystatus: killing_specific_process pid \(pid) [App\(pid)] (vm-pageshortage 0) - "
                + "memorystatus_available_pages: 1\n"
        }
        for pid in 0..<100 { text += "memorystatus: killing_specific_process pid \(pid) [] (idle-exit 0)\n" }
        var scanner = ChangeLogScanner()
        scanner.feed(Array(text.utf8)[...])
        let log = scanner.finish().kills
        #expect(log.kills.count == MemoryKillLines.maxKills)
        #expect(log.droppedKills == 500 + 100)
        #expect(log.problems.count == MemoryKillLines.maxProblems)
        #expect(log.problemCount == 100)
    }

    /// ../shared/realworld's excerpt: the per-process-limit kill of KeyboardSpike at its 77 MB limit, with 78,850
    /// KB footprint at the kill.
    @Test(.enabled(if: Repo.realworld != nil, "shared/realworld is not beside the checkout"))
    func realWorldExcerpt() throws {
        let path = try #require(Repo.realworld) + "/unified-log/unified-log-memorystatus-EXCERPT.txt"
        let outcome = ArtifactReader.read(try RealWorldTests.bytes("unified-log/unified-log-memorystatus-EXCERPT.txt"))
        #expect(outcome.kind == .killLog, "\(path)")
        let log = try #require(try outcome.result.get().killLog)
        #expect(log.kills.count == 1)
        let kill = try #require(log.kills.first)
        #expect(kill.process == "KeyboardSpike")
        #expect(kill.pid == 994)
        #expect(kill.reason == "per-process-limit")
        #expect(kill.limitMB == 77)
        #expect(kill.limitKind == "ActiveHard")
        #expect(kill.footprintKB == 78850)
        #expect(kill.band == "FOREGROUND")
        #expect(kill.availablePages == 114_015)
        #expect(kill.ageSeconds == 12)
        #expect(kill.seen == [.kernel, .report])
    }

    /// A log's second part keeps what it read as read (`journaling`), and the first part's reader replays it
    /// after its own: a kill cut from its other line joins it, problems keep their lines, shifted. Past
    /// `maxJournal` entries the journal is dropped and the replay refused, so the caller reads the part again.
    @Test func aSecondPartsKillsJoinTheFirstsOnReplay() {
        func take(_ reader: inout MemoryKillLines, _ text: String, _ number: Int) {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { reader.take($0, number: number, timestamp: nil) }
        }
        let exceeded =
            "2026-08-12 14:03:05.104 Df kernel[0:1f2a] memorystatus: Memo [48211] exceeded mem limit: "
            + "ActiveHard 2098 MB (fatal)"
        let killing =
            "2026-08-12 14:03:05.105 Df kernel[0:1f2a] memorystatus: killing_specific_process pid 48211 "
            + "[Memo] (per-process-limit 100 341s rf:- type:app) 2148532KB - memorystatus_available_pages: 73240"
        var first = MemoryKillLines()
        take(&first, exceeded, 7)
        var later = MemoryKillLines(journaling: true)
        take(&later, killing, 2)
        let replayed = first.replay(later, lineOffset: 10)
        #expect(replayed)
        #expect(first.result.kills.count == 1)
        #expect(first.result.kills.first?.limitMB == 2098)
        #expect(first.result.kills.first?.footprintKB == 2_148_532)
        #expect(first.result.kills.first?.line == 7)

        var many = MemoryKillLines(journaling: true)
        for number in 1...(MemoryKillLines.maxJournal + 1) {
            take(&many, killing.replacingOccurrences(of: "pid 48211", with: "pid \(number)"), number)
        }
        #expect(many.journal == nil)
        var other = MemoryKillLines()
        let refused = !other.replay(many, lineOffset: 0)
        #expect(refused)
        #expect(other.result.isEmpty)
    }
}

/// Evidence lines wherever they stand (Fixtures/kill-shapes): a kill line, a debugger's memory stop or an
/// `EXC_RESOURCE ->` line is read the same alone, in quotes, in a sentence, after a heading, in a list item, a
/// table cell, a blockquote or a fence, and around an author's elision; a line quoted in a code span (a document
/// or a provenance table quoting it) is no kill line. Decided by the line's shape, not by a word.
@Suite struct KillShapesTests {
    static func read(_ name: String) throws -> ReadOutcome {
        ArtifactReader.read(try Repo.bytes("kill-shapes/" + name))
    }

    @Test(arguments: [
        "alone.log", "quoted.txt", "sentence.txt", "heading.md", "list-item.md", "table-cell.md", "blockquote.md",
        "fence.md", "elided.txt",
    ])
    func aKillLineIsReadWhereverItStands(_ name: String) throws {
        let outcome = try Self.read(name)
        #expect(outcome.kind == .killLog, "\(name): \(String(describing: outcome.kind))")
        guard case .killLog(let log) = try outcome.result.get() else { throw Failure("\(name): no kill log") }
        let kill = try #require(log.kills.first)
        #expect(log.kills.count == 1)
        #expect(kill.pid == 4412 && kill.process == "Courier" && kill.reason == "per-process-limit", "\(name)")
        #expect(kill.availablePages == 12_345, "\(name)")
        if name == "elided.txt" {
            #expect(
                log.problems.contains { $0.hasSuffix("cut by an elision ('...' or '…'): what it left out is not read") }
            )
        }
    }

    @Test(arguments: ["lldb-stop.txt", "debugger-quoted.txt"])
    func aDebuggerMemoryStopIsReadWhereverItStands(_ name: String) throws {
        guard case .killLog(let log) = try Self.read(name).result.get() else { throw Failure("\(name): no kill log") }
        #expect(log.kills.first?.limitMB == 2098 && log.kills.first?.inDebugger == true, "\(name)")
    }

    @Test func anExceptionLineInABlockquote() throws {
        guard case .killLog(let log) = try Self.read("exc-resource-quote.md").result.get() else {
            throw Failure("no kill log")
        }
        #expect(log.kills.first?.pid == 4412 && log.kills.first?.limitMB == 2098)
    }

    @Test(arguments: ["not-a-log-quoted-fragments.md", "code-span.md"])
    func linesQuotedInCodeSpansAreNoKillLog(_ name: String) throws {
        let outcome = try Self.read(name)
        #expect(outcome.kind == nil && outcome.isUnrecognized, "\(name)")
        let prose = ArtifactReader.read(try Repo.bytes("kill-lines/prose.md"))
        #expect(prose.kind == nil)
    }
}
