import Foundation
import MemhuntTestSupport
import Testing

/// Sysdiagnose archives through the built binary (issue 28, item 1): the member's facts, hostile archives named
/// member by member, and the peak memory of an archive of 100,001 members.
extension IOLimitsTests {
    /// The steps' facts of a findings document, by step number.
    static func stepFacts(_ json: String) throws -> [Int: NSDictionary] {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let steps = try #require(document["steps"] as? [[String: Any]])
        var facts: [Int: NSDictionary] = [:]
        for step in steps {
            facts[try #require(step["number"] as? Int)] = (step["facts"] as? NSDictionary) ?? [:]
        }
        return facts
    }

    @Test func aSysdiagnoseGivesTheStepOneToFourFactsOfItsJetsamEvent() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try await SysdiagnoseFixture.python(SysdiagnoseFixture.justSend, in: dir.path)
        let archived = try await BinaryTests.execute(
            ["run", "--app", "JustSend", "--format", "json", dir.path + "/sysdiagnose.tar.gz"])
        let alone = try await BinaryTests.execute(
            ["run", "--app", "JustSend", "--format", "json", "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips"])
        #expect(archived.status == alone.status, "\(archived.stderr)")
        let archivedFacts = try Self.stepFacts(archived.stdout)
        let aloneFacts = try Self.stepFacts(alone.stdout)
        for step in 1...4 { #expect(archivedFacts[step] == aloneFacts[step], "step \(step)") }
        #expect(archivedFacts[2]?["jetsam.app.peakMB"] as? Double == 725)
        let text = try await BinaryTests.execute(["run", "--app", "JustSend", dir.path + "/sysdiagnose.tar.gz"])
        #expect(
            text.stdout.contains(
                "sysdiagnose.tar.gz!/\(SysdiagnoseFixture.top)/crashes_and_spins/JetsamEvent-2026-08-11-112056.ips#/processes/4/lifetimeMax"
            ))
        #expect(text.stdout.contains("1 skipped (3 bytes): memhunt does not read them"))
    }

    /// Each hostile member is named with the archive and its path; the rest is read; the 10 GB member stops the
    /// archive at its header, with the figure.
    @Test func aHostileArchiveIsNamedMemberByMemberAndTheRestIsRead() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try await SysdiagnoseFixture.python(
            """
            import io, sys, tarfile
            with tarfile.open(sys.argv[1] + "/hostile.tar.gz", "w:gz", format=tarfile.GNU_FORMAT) as t:
                info = tarfile.TarInfo("../../etc/passwd"); info.size = 4
                t.addfile(info, io.BytesIO(b"root"))
                info = tarfile.TarInfo("s/crashes_and_spins/link.ips"); info.type = tarfile.SYMTYPE; info.linkname = "/etc/passwd"
                t.addfile(info)
                t.add(sys.argv[2] + "/Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", arcname="s/crashes_and_spins/J.ips")
                big = tarfile.TarInfo("s/logs/huge.log"); big.size = 10 * 10**9
                t.fileobj.write(big.tobuf(format=tarfile.GNU_FORMAT))
            """, in: dir.path)
        let archive = dir.path + "/hostile.tar.gz"
        let run = try await BinaryTests.execute(["inspect", archive])
        #expect(run.reason == .exit)
        #expect(
            run.stdout.contains(
                archive
                    + "!/../../etc/passwd\n   kind: -  status: error\n   error: the name leaves the archive ('..'): refused, never resolved"
            ))
        #expect(
            run.stdout.contains(
                archive
                    + "!/s/crashes_and_spins/link.ips\n   kind: -  status: error\n   error: a symbolic link (to /etc/passwd): links inside an archive are not followed"
            ))
        #expect(run.stdout.contains(archive + "!/s/crashes_and_spins/J.ips\n   kind: jetsam-event  status: ok"))
        #expect(
            run.stdout.contains(
                "member s/logs/huge.log declares 10,000,000,000 bytes: the archive would expand past the limit of 8,589,934,592 bytes"
            ))
    }

    /// 100,001 empty members: the first 100,000 are counted, the rest refused with the figure; the peak (measured
    /// 27 MB and 2.3 s, debug build) stays under 100 MB.
    @Test func anArchiveOfAHundredThousandMembersIsReadInBoundedMemory() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try await SysdiagnoseFixture.python(
            """
            import gzip, sys, tarfile
            with open(sys.argv[1] + "/many.tar.gz", "wb") as out, gzip.GzipFile(fileobj=out, mode="wb", compresslevel=1) as z:
                for i in range(100001):
                    info = tarfile.TarInfo("s/summaries/%06d" % i)
                    z.write(info.tobuf(format=tarfile.USTAR_FORMAT))
                z.write(b"\\0" * 1024)
            """, in: dir.path)
        let run = try await Self.inspectPeak(dir.path + "/many.tar.gz", tmp: dir.path)
        #expect(run.status == 0)
        #expect(
            run.stdout.contains(
                "error: at byte 51,200,000 of the tar stream, more than 100,000 members: the rest of the archive, from member s/summaries/100000, is not read"
            ))
        #expect(
            run.stdout.contains(
                "note: 100,000 members (51,200,000 bytes expanded): 0 read as artifacts; 100,000 skipped (0 bytes)"))
        #expect(run.kilobytes < 100 << 10, "peak \(run.kilobytes) KB")
    }
}
