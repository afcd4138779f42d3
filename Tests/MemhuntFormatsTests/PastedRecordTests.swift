import MemhuntTestSupport
import Testing

@testable import MemhuntFormats

/// Records as people paste them (Fixtures/pasted): found by their body, read, and marked `recovered`,
/// `elided` or `partial` with what was skipped.
@Suite struct PastedRecordTests {
    func jetsam(_ path: String) throws -> JetsamEvent {
        let outcome = ArtifactReader.read(try Repo.bytes("pasted/" + path))
        guard case .success(.jetsamEvent(let event)) = outcome.result else {
            throw Failure("\(path): \(outcome)")
        }
        return event
    }

    func crash(_ path: String) throws -> CrashReport {
        let outcome = ArtifactReader.read(try Repo.bytes("pasted/" + path))
        guard case .success(.crashReport(let report)) = outcome.result else {
            throw Failure("\(path): \(outcome)")
        }
        return report
    }

    /// The whole record of the fixtures: five processes, Courier 46,400 pages at its peak.
    func expectWhole(_ event: JetsamEvent) {
        #expect(event.processes.map(\.name) == ["kernel_task", "SpringBoard", "Courier", "MobileMail", "Weather"])
        #expect(event.processes[2].lifetimeMax == 46_400)
        #expect(event.pageSize == 16_384)
        #expect(event.date == "2026-08-14 10:15:02.41 +0200")
        #expect(event.compressions == 1_200_000)
    }

    @Test func fencedWithProseAndWindowsLineEnds() throws {
        let event = try jetsam("jetsam-fenced-crlf.md")
        expectWhole(event)
        #expect(event.header?.incidentID == "7A1B2C3D-4E5F-4061-8273-94A5B6C7D8E9")
        #expect(
            event.recovery
                == Recovery(
                    state: .recovered,
                    notes: [
                        "lines 1, 3, 74, 76 (text and Markdown fence around the record) skipped"
                    ]))
    }

    @Test func nestedQuoteWithProse() throws {
        let event = try jetsam("jetsam-quoted.txt")
        expectWhole(event)
        #expect(
            event.recovery?.notes == [
                "lines 1–2, 74, 76 (text around the record) skipped", "the quote marks (>) of lines 4–73 removed",
            ])
        #expect(event.recovery?.state == .recovered)
    }

    @Test func headerWrappedOverThreeLines() throws {
        let event = try jetsam("jetsam-wrapped-header.txt")
        expectWhole(event)
        #expect(event.header?.osVersion == "iPhone OS 26.0 (23A341)")
        #expect(event.header?.incidentID == "7A1B2C3D-4E5F-4061-8273-94A5B6C7D8E9")
        #expect(
            event.recovery?.notes == [
                "lines 1–2 (text around the record) skipped",
                "the .ips header line was split over lines 4–6: rejoined",
            ])
    }

    @Test func damagedHeaderGivesItsBugType() throws {
        let event = try jetsam("jetsam-damaged-header.txt")
        expectWhole(event)
        #expect(event.header?.bugType == "298")
        #expect(event.header?.timestamp == nil)
        #expect(
            event.recovery?.notes == [
                "line 1 is a damaged .ips header (not valid JSON): bug_type 298 read from it, its other fields not"
            ])
    }

    /// A header damaged inside its bug_type (`"bug_type":"30` of a 309): no record's type, so the body's keys
    /// decide, and the whole body is read.
    @Test func aHeaderDamagedInItsBugTypeLetsTheBodyDecide() throws {
        let report = try crash("crash-309-damaged-header.ips")
        #expect(report.format == .ipsJSON)
        #expect(report.appName == "JustSend")
        #expect(report.terminationCode == 0x8bad_f00d)
        #expect(report.kind == .watchdog)
        #expect(
            report.recovery?.notes == [
                "line 1 is a damaged .ips header (not valid JSON): its bug_type reads '30', no record's; the kind is "
                    + "read from the body",
                "no .ips header line: read as a crash report (bug_type 309) by its body's keys",
            ])
    }

    /// A watchdog report pasted into a Markdown issue, heading, prose and fence around it: read whole.
    @Test func aWatchdogReportInAMarkdownIssueIsReadWhole() throws {
        let report = try crash("crash-309-watchdog-issue.md")
        #expect(report.kind == .watchdog)
        #expect(report.terminationCode == 0x8bad_f00d)
        #expect(report.appName == "JustSend")
        #expect(report.recovery?.notes.count == 1)
        #expect(report.recovery?.notes.first?.contains("text and Markdown fence around the record") == true)
    }

    @Test func twoHeadersAreNamedAndTheFirstIsRead() throws {
        let event = try jetsam("jetsam-two-headers.ips")
        expectWhole(event)
        #expect(event.header?.timestamp == "2026-08-14 10:15:02.00 +0200")
        #expect(
            event.recovery?.notes == [
                "a second .ips header at line 2 (bug_type 298): skipped, the first header is read"
            ])
    }

    @Test func aProcessRecordAloneIsAPartialJetsamEvent() throws {
        let event = try jetsam("jetsam-process-alone.txt")
        #expect(event.pageSize == 0)
        #expect(event.processes.count == 1)
        #expect(event.processes[0].name == "Courier")
        #expect(event.processes[0].pid == 412)
        #expect(event.processes[0].rpages == 38_000)
        #expect(event.processes[0].lifetimeMax == 46_400)
        #expect(event.processes[0].reason == "per-process-limit")
        #expect(event.processes[0].states == ["frontmost"])
        #expect(event.memoryPages.isEmpty)
        #expect(
            event.recovery
                == Recovery(
                    state: .partial,
                    notes: [
                        "lines 1, 14 (text around the record) skipped",
                        "a single process record (Courier) without its JetsamEvent: no page size, no other process "
                            + "and no memoryStatus, so no size in bytes, no rank and no system figures",
                    ]))
        #expect(event.recovery?.isComplete == false)
    }

    /// Read up to the elision, and the whole process records after it: still elided (what the `...` cut is
    /// unknown), so never ranked.
    @Test func elidedBetweenProcessesIsReadUpToTheElisionAndAfterIt() throws {
        let event = try jetsam("jetsam-elided.ips")
        #expect(event.processes.map(\.name) == ["kernel_task", "SpringBoard", "Courier", "MobileMail", "Weather"])
        #expect(event.processes.map(\.lifetimeMax) == [20_000, 15_000, 46_400, 9_000, 4_500])
        #expect(event.pageSize == 16_384)
        #expect(event.recovery?.state == .elided)
        #expect(
            event.recovery?.notes == [
                "elided at line 51 (...): read up to it and the 2 whole process records after it (lines 52–60, "
                    + "61–69), lines 51, 70–71 not"
            ])
    }

    /// An elision inside a process record leaves it out, and the records after the elision take its place: the
    /// note says which index each has here, since evidence points by the index in what was read.
    @Test func recordsAfterACutRecordTakeItsPlace() throws {
        var text = String(decoding: try Repo.bytes("pasted/jetsam-elided.ips"), as: UTF8.self)
        let whole = "\"lifetimeMax\" : 46400,\n      \"states\" : [\n        \"frontmost\"\n      ]\n    },\n    ...\n"
        #expect(text.contains(whole))
        text = text.replacingOccurrences(of: whole, with: "\"lifetimeMax\" : 46400,\n    ...\n")
        let outcome = ArtifactReader.read(Array(text.utf8))
        guard case .success(.jetsamEvent(let event)) = outcome.result else { throw Failure("\(outcome)") }
        #expect(event.processes.map(\.name) == ["kernel_task", "SpringBoard", "MobileMail", "Weather"])
        let note = try #require(event.recovery?.notes.first)
        #expect(
            note.hasSuffix(
                "; processes[2] as pasted was cut by the elision and left out; the 2 whole records after it are "
                    + "processes[2]–[3] here"), "\(note)")
    }

    @Test func truncatedInsideAProcessWithoutHeader() throws {
        let event = try jetsam("jetsam-truncated-no-header.md")
        #expect(event.header == nil)
        #expect(event.processes.map(\.name) == ["kernel_task", "SpringBoard", "Courier"])
        #expect(event.recovery?.state == .elided)
        #expect(
            event.recovery?.notes == [
                "lines 1, 3 (text and Markdown fence around the record) skipped",
                "no .ips header line: read as a JetsamEvent by its body's keys",
                "elided at line 55 ([truncated 1,204 lin…): read up to it, lines 55–56 not; processes[3] was cut by "
                    + "the elision and left out",
            ])
    }

    @Test func crashBodyWithoutHeaderInATildeFence() throws {
        let report = try crash("crash-309-no-header.md")
        #expect(report.format == .ipsJSON)
        #expect(report.kind == .memoryLimit)
        #expect(report.appName == "Heavy")
        #expect(report.header?.bugType == "309")
        #expect(
            report.recovery?.notes == [
                "lines 1, 3, 11, 13 (text and Markdown fence around the record) skipped",
                "no .ips header line: read as a crash report (bug_type 309) by its body's keys",
            ])
    }

    @Test func quotedLegacyCrashAfterAByteOrderMark() throws {
        let report = try crash("crash-legacy-quoted.txt")
        #expect(report.format == .text)
        #expect(report.kind == .crash)
        #expect(report.signal == "SIGSEGV")
        #expect(report.processName == "Segfaulter")
        #expect(report.frames == ["Segfaulter main"])
        #expect(
            report.recovery?.notes == [
                "lines 1, 31 (text around the record) skipped", "the quote marks (>) of lines 3–29 removed",
            ])
    }

    @Test func legacyCrashAfterProse() throws {
        let report = try crash("crash-legacy-prose.txt")
        #expect(report.kind == .crash)
        #expect(report.bundleID == "dev.memhunt.segfaulter")
        #expect(
            report.recovery?.notes == ["line 1 (text around the record) skipped"])
    }

    @Test func legacyCrashElided() throws {
        let report = try crash("crash-legacy-truncated.crash")
        #expect(report.kind == .crash)
        #expect(report.frames == ["Segfaulter main"])
        #expect(report.recovery?.state == .elided)
        #expect(report.recovery?.notes == ["elided at line 26 ([... 212 lines trunc…): read up to it, line 26 not"])
    }

    @Test func crashJSONElidedInline() throws {
        let report = try crash("crash-309-elided.ips")
        #expect(report.kind == .memoryLimit)
        #expect(report.terminationNamespace == "JETSAM")
        #expect(report.frames.isEmpty)
        #expect(report.recovery?.notes == ["elided at line 9 (…): read up to it, lines 9–11 not"])
    }

    /// A clean file is never recovered: the same value as before, no recovery.
    @Test func cleanFilesAreNotRecovered() throws {
        for path in ["formats/jetsam-16k.ips", "formats/crash-legacy-sigsegv.crash", "formats/crash-309-memory.ips"] {
            let outcome = ArtifactReader.read(try Repo.bytes(path))
            switch outcome.result {
            case .success(.jetsamEvent(let event)): #expect(event.recovery == nil, "\(path)")
            case .success(.crashReport(let report)): #expect(report.recovery == nil, "\(path)")
            default: Issue.record("\(path): \(outcome)")
            }
        }
    }

    /// Prose that names a record's keys is no record: it stays what it was.
    @Test func proseIsNoRecord() {
        let text = "We looked for \"rpages\" and bug_type in the logs.\n{ not json }\n"
        #expect(ArtifactReader.read(Array(text.utf8)).kind == nil)
    }
}

/// Pages that hold more than one record (Fixtures/pasted-pages): a record ends at its closing fence or where
/// prose starts, and the most complete record is read, the others named.
@Suite struct PastedPagesTests {
    func read(_ path: String) throws -> ParsedArtifact {
        try ArtifactReader.read(try Repo.bytes("pasted-pages/" + path)).result.get()
    }

    /// An elided JetsamEvent in a fence, then prose and another phone's process record: that record was read
    /// into today's event (Weather at 99,999 pages).
    @Test func aProcessRecordAfterTheFenceAndProseIsAnotherRecords() throws {
        guard case .jetsamEvent(let event) = try read("jetsam-elided-then-another-record.md") else {
            throw Failure("not a JetsamEvent")
        }
        #expect(event.processes.map(\.name) == ["kernel_task", "SpringBoard", "Courier"])
        #expect(!event.processes.contains { $0.rpages == 99_999 })
        #expect(event.recovery?.state == .elided)
        #expect(
            event.recovery?.notes.last
                == "lines 60–69 hold another record (an incomplete record): not read, the more complete one is")
    }

    /// A header-less body of the day before, then today's record with its header: today's is read (it was
    /// skipped as "text around the record" and the older body read in its place).
    @Test func theWholeRecordIsPreferredToAnEarlierHeaderlessBody() throws {
        guard case .jetsamEvent(let event) = try read("jetsam-fragment-then-whole.md") else {
            throw Failure("not a JetsamEvent")
        }
        #expect(event.date == "2026-08-12 09:02:11.00 +0900")
        #expect(event.header?.timestamp != nil)
        #expect(event.recovery?.state == .recovered)
        #expect(
            event.recovery?.notes.last
                == "lines 4–455 hold another record (a record without its .ips header): a record of its own, not "
                + "read into this one")
    }

    /// A JetsamEvent pasted with both ends cut (no header, the last string cut mid-way) keeps what it holds: the
    /// memoryStatus, the page size, largestProcess and the 7 whole process records; it said "7 process records
    /// without its JetsamEvent: … no memoryStatus" of a file that holds one.
    @Test func aPasteCutAtBothEndsKeepsWhatItHolds() throws {
        guard case .jetsamEvent(let event) = try read("jetsam-cut-both-ends.md") else {
            throw Failure("not a JetsamEvent")
        }
        #expect(event.pageSize == 16_384)
        #expect(event.compressions == 15_734_833)
        #expect(event.largestProcess == "kernel_task")
        #expect(event.processes.count == 7)
        #expect(event.recovery?.state == .elided)
        #expect(
            event.recovery?.notes.last
                == "the paste ends inside the record at line 244: read up to its last whole value, processes[7] (cut) "
                + "left out")
        #expect(!(event.recovery?.notes.joined().contains("no memoryStatus") ?? true))
    }

    /// A JetsamEvent annotated with `//` comments in a blog: the comments are taken off and named, the record read
    /// whole (it was "not valid JSON: unexpected '/'"); a `//` inside a string (a URL) stays.
    @Test func commentsInAPastedRecordAreTakenOff() throws {
        guard case .jetsamEvent(let event) = try read("jetsam-annotated.md") else { throw Failure("not a JetsamEvent") }
        #expect(event.pageSize == 16_384 && event.processes.count == 16 && event.largestProcess == "kernel_task")
        #expect(event.recovery?.notes.last == "the // comments of lines 22, 37 removed")
        let (kept, lines) = PastedRecord.stripComments(Array(#"{"url" : "https://x//y", // note"#.utf8))
        #expect(String(decoding: kept, as: UTF8.self) == #"{"url" : "https://x//y","#)
        #expect(lines == [1])
    }

    /// One page, two reports: the first is read, never one report made of both (the second's exception codes were
    /// read into the first), and the second is named.
    @Test func twoReportsOnOnePageAreNeverOne() throws {
        guard case .crashReport(let report) = try read("two-crash-reports.txt") else { throw Failure("not a crash") }
        #expect(report.processName == "Segfaulter" && report.device == "iPhone12,8")
        #expect(report.osVersion == "iPhone OS 14.4 (18D52)")
        #expect(report.exceptionCodes == nil)
        #expect(
            report.recovery?.notes == [
                "line 31 starts another report (Incident Identifier: 5E6F7A8B-0000-4000-8000-000000000CC0): a "
                    + "record of its own, not read into this one"
            ])
    }

    /// An elided legacy crash of another app, then Heavy's whole report: Heavy's is read (`--app Heavy` matched
    /// nothing beside it).
    @Test func aWholeCrashReportIsPreferredToAnEarlierElidedOne() throws {
        guard case .crashReport(let report) = try read("crash-fragment-then-whole.md") else {
            throw Failure("not a crash report")
        }
        #expect(report.appName == "Heavy")
        #expect(report.kind == .memoryLimit)
        #expect(report.incidentID == "12345678-1234-1234-1234-123456789ABC")
        #expect(
            report.recovery?.notes.last
                == "lines 4–22 hold another record (an incomplete record): not read, the more complete one is")
    }

    /// The records of a page, each from its first line to the next one's: a low-memory report and then an
    /// `EXC_RESOURCE` crash report (as Apple's technical notes print them), two legacy reports; a page of one
    /// record, or of one record and an elided copy, is no page of several.
    @Test func aPageOfSeveralRecordsIsSplitWhereEachStarts() throws {
        let page = try Repo.bytes("pasted-pages/jetsam-then-exc-resource.md")
        let records = PastedRecord.records(page)
        #expect(records.map(\.line) == [6, 27])
        guard case .jetsamEvent(let event) = try ArtifactReader.read(Array(records[0].bytes)).result.get() else {
            throw Failure("the first part is not a JetsamEvent")
        }
        #expect(event.product == "iPhone17,3" && event.processes.count == 3 && event.largestProcess == "Lumen")
        guard case .crashReport(let crash) = try ArtifactReader.read(Array(records[1].bytes)).result.get() else {
            throw Failure("the second part is not a crash report")
        }
        #expect(crash.kind == .memoryLimit && crash.exceptionType == "EXC_RESOURCE")
        #expect(crash.device == "iPhone17,3" && crash.processName == "Lumen" && crash.appVersion == "3.4 (412)")
        #expect(crash.date == "2026-09-02 14:31:47.5120 +0200")
        #expect(PastedRecord.records(try Repo.bytes("pasted-pages/two-crash-reports.txt")).map(\.line) == [1, 31])
        #expect(PastedRecord.records(try Repo.bytes("pasted/jetsam-fenced-crlf.md")).isEmpty)
        #expect(PastedRecord.records(try Repo.bytes("formats/crash-legacy-sigsegv.crash")).isEmpty)
    }
}
