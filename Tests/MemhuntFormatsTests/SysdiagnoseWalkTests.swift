import MemhuntFormats
import MemhuntTestSupport
import Testing

/// What a walk handed over, as a test compares it.
enum Walked: Equatable {
    case begin(String, SysdiagnoseRole, Int)
    case bytes([UInt8])
    case end
    case abandon(String)
    case refused(String, String)
}

extension SysdiagnoseWalk {
    static func run(_ bytes: [UInt8], limits: ArchiveLimits = .standard, chunk: Int = 4096) -> (
        [Walked], ArchiveSummary
    ) {
        var walk = SysdiagnoseWalk(limits: limits)
        var seen: [Walked] = []
        func handle(_ event: Event) {
            switch event {
            case .begin(let entry): seen.append(.begin(entry.name, entry.role, entry.size))
            case .data(let data):
                if case .bytes(let earlier)? = seen.last {
                    seen[seen.count - 1] = .bytes(earlier + Array(data))
                } else {
                    seen.append(.bytes(Array(data)))
                }
            case .end: seen.append(.end)
            case .abandon(let error): seen.append(.abandon(error.message))
            case .refused(let name, let error): seen.append(.refused(name, error.message))
            }
        }
        var index = 0
        while index < bytes.count, walk.wantsMore {
            let end = min(bytes.count, index + chunk)
            bytes[index..<end].withUnsafeBytes { walk.feed($0, handle) }
            index = end
        }
        let summary = walk.finish(handle)
        return (seen, summary)
    }
}

@Suite struct SysdiagnoseWalkTests {
    let top = "sysdiagnose_2026.08.11_11-20-56+0900_iPhone-OS_iPhone_23A341/"

    @Test func membersAreRoutedByTheirPlace() {
        func role(_ path: String) -> SysdiagnoseRole { .of(path.split(separator: "/")) }
        #expect(role(top + "crashes_and_spins/JetsamEvent-2026-08-11-112056.ips") == .document)
        #expect(role(top + "crashes_and_spins/Retired/App-2026.ips.synced") == .document)
        #expect(role(top + "crashes_and_spins/old.crash") == .document)
        #expect(role(top + "crashes_and_spins/stacks.plist") == .skipped)
        #expect(role(top + "ps.txt") == .named(.processList))
        #expect(role(top + "ps_thread.txt") == .named(.processList))
        #expect(role(top + "taskinfo.txt") == .named(.taskInfo))
        #expect(role(top + "vm_stat.txt") == .named(.vmStat))
        #expect(role(top + "memory_pressure.txt") == .named(.memoryPressure))
        #expect(role(top + "deep/er/ps.txt") == .skipped)
        #expect(role(top + "logs/MobileContainerManager/containermanagerd.log.0") == .document)
        #expect(role(top + "logs/powerlogs/powerlog.PLSQL") == .skipped)
        #expect(
            role(top + "system_logs.logarchive/Persist/0000000000000001.tracev3")
                == .logArchive(top + "system_logs.logarchive"))
        #expect(role(top + "summaries/foo.plist") == .skipped)
    }

    @Test func aSysdiagnoseIsReadAsItsMembersAndCountsTheRest() {
        let ips = Array("{\"bug_type\":\"298\"}\n{}".utf8)
        let stream =
            TarBytes.header(top, type: "5") + TarBytes.member(top + "crashes_and_spins/JetsamEvent.ips", ips)
            + TarBytes.member(top + "ps.txt", Array("PID RSS\n".utf8))
            + TarBytes.member(top + "summaries/a.plist", [UInt8](repeating: 1, count: 700))
            + TarBytes.member(top + "system_logs.logarchive/Info.plist", [UInt8](repeating: 2, count: 10))
            + TarBytes.member(top + "system_logs.logarchive/Persist/1.tracev3", [UInt8](repeating: 3, count: 20))
            + TarBytes.end
        for chunk in [1, 100, 4096] {
            let (events, summary) = SysdiagnoseWalk.run(stream, chunk: chunk)
            #expect(
                events == [
                    .begin(top + "crashes_and_spins/JetsamEvent.ips", .document, ips.count), .bytes(ips), .end,
                    .begin(top + "ps.txt", .named(.processList), 8), .bytes(Array("PID RSS\n".utf8)), .end,
                ], "chunk \(chunk)")
            #expect(summary.members == 6)
            #expect(summary.folders == 1)
            #expect(summary.documents == 1)
            #expect(summary.named == 1)
            #expect(summary.skipped == 1)
            #expect(summary.skippedBytes == 700)
            #expect(summary.logArchives == [.init(path: top + "system_logs.logarchive", members: 2, bytes: 30)])
            #expect(summary.failure == nil)
            #expect(summary.expandedBytes == stream.count)
        }
        let (_, summary) = SysdiagnoseWalk.run(stream)
        #expect(
            summary.sentences == [
                "6 members (\(ArchiveSummary.grouped(stream.count)) bytes expanded): 1 read as artifacts; 1 named and not parsed (no check reads their numbers); 1 unified log archive; 1 skipped (700 bytes): memhunt does not read them; 1 folder"
            ])
    }

    @Test func traversalAbsoluteNamesAndLinksAreRefusedByNameAndTheRestIsRead() {
        let stream =
            TarBytes.member("../../etc/passwd", Array("root".utf8)) + TarBytes.member("/etc/shadow", [1])
            + TarBytes.header(top + "crashes_and_spins/a.ips", type: "2", link: "/etc/passwd")
            + TarBytes.header(top + "ps.txt", type: "1", link: top + "other")
            + TarBytes.header(top + "taskinfo.txt", type: "6")
            + TarBytes.header(top + "summaries/skipped-link", type: "2", link: "/")
            + TarBytes.member(top + "crashes_and_spins/b.ips", [0x7B, 0x7D]) + TarBytes.end
        let (events, summary) = SysdiagnoseWalk.run(stream)
        #expect(
            events == [
                .refused("../../etc/passwd", "the name leaves the archive ('..'): refused, never resolved"),
                .refused("/etc/shadow", "an absolute path: member names are relative to the archive"),
                .refused(
                    top + "crashes_and_spins/a.ips",
                    "a symbolic link (to /etc/passwd): links inside an archive are not followed"),
                .refused(top + "ps.txt", "a hard link (to \(top)other): links inside an archive are not followed"),
                .refused(top + "taskinfo.txt", "not a regular file (tar type '6')"),
                .begin(top + "crashes_and_spins/b.ips", .document, 2), .bytes([0x7B, 0x7D]), .end,
            ])
        #expect(summary.refused == 5)
        #expect(summary.skipped == 1)
        #expect(summary.failure == nil)
    }

    @Test func aMemberDeclaringTenGigabytesIsRefusedAtItsHeaderWithTheFigure() {
        var field: [UInt8] = [0x80] + [UInt8](repeating: 0, count: 11)
        let tenGB = 10 << 30
        for i in 0..<8 { field[11 - i] = UInt8(truncatingIfNeeded: tenGB >> (8 * i)) }
        // Only the header: the 10 GB never follow, and nothing waits for them.
        let stream = TarBytes.member(top + "ps.txt", [1]) + TarBytes.header(top + "logs/huge.log", sizeField: field)
        let (events, summary) = SysdiagnoseWalk.run(stream)
        #expect(events == [.begin(top + "ps.txt", .named(.processList), 1), .bytes([1]), .end])
        #expect(
            summary.failure?.message
                == "at byte 1,024 of the tar stream, member \(top)logs/huge.log declares 10,737,418,240 bytes: the "
                + "archive would expand past the limit of 8,589,934,592 bytes; it and the members after it are not read"
        )
        #expect(summary.refused == 1)
    }

    /// A size near `Int.max`, from a pax record or a GNU base-256 field, is refused as any size over the limit
    /// is (it overflowed the end's sum: a trap, exit 132, in `inspect`, `run` and the MCP server).
    @Test(arguments: ["pax", "base-256"]) func aSizeNearIntMaxIsRefusedWithoutOverflow(_ how: String) {
        let member: [UInt8]
        if how == "pax" {
            member = TarBytes.pax([("size", String(Int.max))]) + TarBytes.header(top + "logs/huge.log")
        } else {
            member = TarBytes.header(
                top + "logs/huge.log", sizeField: [0x80, 0, 0, 0, 0x7F] + [UInt8](repeating: 0xFF, count: 7))
        }
        let stream = TarBytes.member(top + "ps.txt", [1]) + member
        let (events, summary) = SysdiagnoseWalk.run(stream)
        #expect(events == [.begin(top + "ps.txt", .named(.processList), 1), .bytes([1]), .end])
        let offset = how == "pax" ? "2,048" : "1,024"
        #expect(
            summary.failure?.message
                == "at byte \(offset) of the tar stream, member \(top)logs/huge.log declares 9,223,372,036,854,775,807 "
                + "bytes: the archive would expand past the limit of 8,589,934,592 bytes; it and the members after it "
                + "are not read")
        #expect(summary.refused == 1)
    }

    /// A refused member's name is shown in about a kilobyte, however long its pax path: 500 members of 1 MB paths
    /// peaked at 1.5 GB and printed 500 MB.
    @Test func aLongRefusedNameIsCutToItsEnds() {
        let long = String(repeating: "../", count: 200_000) + "é" + String(repeating: "x", count: 300) + "end.ips"
        let stream = TarBytes.pax([("path", long)]) + TarBytes.member("ignored", [1, 2]) + TarBytes.end
        let (events, summary) = SysdiagnoseWalk.run(stream)
        guard case .refused(let name, let why)? = events.first, events.count == 1 else {
            Issue.record("\(events.count) events")
            return
        }
        #expect(why == "the name leaves the archive ('..'): refused, never resolved")
        #expect(name.utf8.count < 1_100)
        #expect(name.hasPrefix("../../"))
        #expect(name.contains("…[a name of 600,309 bytes, cut]…"))
        #expect(name.hasSuffix("xxxend.ips"))
        #expect(summary.refused == 1)
        #expect(SysdiagnoseWalk.shown("short/name.ips") == "short/name.ips")
    }

    @Test func aDocumentOverItsLimitIsRefusedAndPassedOver() {
        let limits = ArchiveLimits(members: 100, documentBytes: 1000, expandedBytes: 1 << 20)
        let stream =
            TarBytes.member(top + "crashes_and_spins/big.ips", [UInt8](repeating: 0x20, count: 1001))
            + TarBytes.member(top + "crashes_and_spins/small.ips", [0x20]) + TarBytes.end
        let (events, summary) = SysdiagnoseWalk.run(stream, limits: limits)
        #expect(
            events == [
                .refused(
                    top + "crashes_and_spins/big.ips",
                    "declares 1,001 bytes, over the 1,000-byte limit for documents: not read"),
                .begin(top + "crashes_and_spins/small.ips", .document, 1), .bytes([0x20]), .end,
            ])
        #expect(summary.failure == nil)
    }

    /// What a run keeps of one archive is bounded: past `documents` members read, or `documentTotalBytes` bytes
    /// read in all, members are counted and said, not read (100,000 tiny members peaked at 1.1 GB, 40
    /// JetsamEvents of 34 MB at 1 GB). The walk goes on: named members past the limit are counted too.
    @Test func membersPastTheArchivesReadLimitsAreCountedNotRead() {
        let byCount = ArchiveLimits(
            members: 100, documentBytes: 1000, expandedBytes: 1 << 20, documents: 2, documentTotalBytes: 1 << 20)
        let stream =
            (0..<4).flatMap { TarBytes.member(top + "crashes_and_spins/\($0).ips", [1]) }
            + TarBytes.member(top + "ps.txt", [2])
            + TarBytes.end
        let (events, summary) = SysdiagnoseWalk.run(stream, limits: byCount)
        #expect(events.filter { if case .begin = $0 { true } else { false } }.count == 2)
        #expect(summary.documents == 2 && summary.overLimit == 3 && summary.overLimitBytes == 3)
        #expect(summary.failure == nil)
        #expect(
            summary.sentences.first?.contains(
                "3 not read (3 bytes): the members read already met memhunt's limit for one archive") == true)
        let byBytes = ArchiveLimits(
            members: 100, documentBytes: 1000, expandedBytes: 1 << 20, documents: 100, documentTotalBytes: 700)
        let big =
            (0..<3).flatMap {
                TarBytes.member(top + "crashes_and_spins/\($0).ips", [UInt8](repeating: 0x20, count: 300))
            }
            + TarBytes.end
        let (_, bytes) = SysdiagnoseWalk.run(big, limits: byBytes)
        #expect(bytes.documents == 2 && bytes.readBytes == 600 && bytes.overLimit == 1 && bytes.overLimitBytes == 300)
    }

    @Test func theMemberLimitStopsTheArchiveAndNamesWhereItStopped() {
        let limits = ArchiveLimits(members: 3, documentBytes: 1000, expandedBytes: 1 << 20)
        let stream = (0..<5).flatMap { TarBytes.member(top + "summaries/\($0)", [1]) } + TarBytes.end
        let (_, summary) = SysdiagnoseWalk.run(stream, limits: limits)
        #expect(summary.members == 3)
        #expect(summary.skipped == 3)
        #expect(
            summary.failure?.message
                == "at byte 3,072 of the tar stream, more than 3 members: the rest of the archive, from member \(top)summaries/3, is not read"
        )
    }

    @Test func aTruncatedArchiveAbandonsTheMemberItCutAndKeepsTheOnesBefore() {
        let whole =
            TarBytes.member(top + "crashes_and_spins/a.ips", [1, 2])
            + TarBytes.member(top + "crashes_and_spins/b.ips", [UInt8](repeating: 9, count: 600))
            + TarBytes.end
        let (events, summary) = SysdiagnoseWalk.run(Array(whole[..<(1024 + 512 + 100)]))
        #expect(
            events == [
                .begin(top + "crashes_and_spins/a.ips", .document, 2), .bytes([1, 2]), .end,
                .begin(top + "crashes_and_spins/b.ips", .document, 600), .bytes([UInt8](repeating: 9, count: 100)),
                .abandon(
                    "at byte 1,636 of the tar stream, the tar stream ends inside member \(top)crashes_and_spins/b.ips: 100 of its 600 bytes"
                ),
            ])
        #expect(summary.documents == 1)
        #expect(summary.refused == 1)
        #expect(summary.failure?.message.hasSuffix("100 of its 600 bytes") == true)
    }
}
