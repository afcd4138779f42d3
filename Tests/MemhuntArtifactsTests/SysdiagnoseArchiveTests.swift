import Foundation
import MemhuntArtifacts
import MemhuntBasics
import MemhuntChecks
import MemhuntCore
import MemhuntFormats
import MemhuntTestSupport
import Testing

@Suite(.enabled(if: Tool.which("python3") != nil, "needs python3")) struct SysdiagnoseArchiveTests {
    let jetsam = "justsend/JetsamEvent-2026-08-11-112056.ips"
    let top = SysdiagnoseFixture.top

    @Test func aMemberIsTheArtifactTheFileAloneIsUnderItsArchiveName() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try await SysdiagnoseFixture.python(SysdiagnoseFixture.justSend, in: dir.path)
        let archive = dir.path + "/sysdiagnose.tar.gz"
        let store = ArtifactStore(cacheDirectory: dir.path + "/cache")
        let artifacts = await store.collect([archive])
        #expect(
            artifacts.map(\.source) == [
                archive, archive + "!/\(top)/crashes_and_spins/JetsamEvent-2026-08-11-112056.ips",
                archive + "!/\(top)/ps.txt", archive + "!/\(top)/system_logs.logarchive",
            ])
        let alone = LocalArtifacts.load(path: Repo.fixture(jetsam))
        let member = artifacts[1]
        #expect(member.kind == .jetsamEvent)
        #expect(member.status == .ok)
        #expect(member.sha256 == alone.sha256)
        #expect(member.size == alone.size)
        #expect(member.content == alone.content)
        #expect(member.fileName == "sysdiagnose.tar.gz!/\(top)/crashes_and_spins/JetsamEvent-2026-08-11-112056.ips")

        #expect(artifacts[0].kind == .sysdiagnose)
        #expect(artifacts[0].status == .ok)
        #expect(artifacts[0].isOperand)
        let file = try Data(contentsOf: URL(fileURLWithPath: archive))
        #expect(artifacts[0].sha256 == SHA256.hex([UInt8](file)))
        #expect(artifacts[0].size == file.count)
        #expect(artifacts[0].notes.count == 1)
        #expect(artifacts[0].notes[0].hasPrefix("5 members ("))
        #expect(
            artifacts[0].notes[0].hasSuffix(
                "1 read as artifacts; 1 named and not parsed (no check reads their numbers); 1 unified log archive; "
                    + "1 skipped (3 bytes): memhunt does not read them"))

        #expect(artifacts[2].kind == .processList)
        #expect(artifacts[2].status == .ok)
        #expect(artifacts[2].sha256 == SHA256.hex(Array("USER PID RSS\nmobile 1 100\n".utf8)))
        #expect(artifacts[2].content == .recognized(.processList))

        #expect(artifacts[3].kind == .logArchive)
        #expect(artifacts[3].status == .error)
        #expect(artifacts[3].size == 1008)
        #expect(
            artifacts[3].error
                == "a unified log archive (2 files of tracev3 and metadata): read by `log show` on a Mac, not by "
                + "memhunt. Extract it from the archive and export the kernel's memorystatus lines with `log show "
                + "--archive system_logs.logarchive --predicate 'process == \"kernel\" AND eventMessage CONTAINS "
                + "\"memorystatus\"' --style ndjson > memorystatus.ndjson` and give that file")
    }

    /// A log among the archive's `logs/` whose first change line is past its first 64 KiB is read as the change
    /// log it is, as the file alone is (`LocalArtifacts.lateChangeLog`).
    @Test func aLogMemberWhoseFirstChangeLineIsLateIsAChangeLog() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try await SysdiagnoseFixture.python(
            """
            import io, sys, tarfile
            noise = b"2026-08-12 14:03:05.045743+0900 Memo[48211:3456791] [Network] request 12 finished in 40 ms\\n"
            data = noise * 1000 + b"2026-08-12 14:03:06.001000+0900 Memo[48211:3456789] RootView: @self changed.\\n"
            with tarfile.open(sys.argv[1] + "/sysdiagnose.tar.gz", "w:gz") as t:
                info = tarfile.TarInfo("\(top)/logs/Memo/console.log")
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
            """, in: dir.path)
        let archive = dir.path + "/sysdiagnose.tar.gz"
        let artifacts = await ArtifactStore(cacheDirectory: dir.path + "/cache").collect([archive])
        let member = try #require(artifacts.first { $0.source.hasSuffix("/logs/Memo/console.log") })
        #expect(member.status == .ok, "\(member.error ?? "")")
        #expect(member.kind == .changeLog)
        guard case .repro(.changeLog(let summary))? = member.content else {
            Issue.record("not a change log: \(member.error ?? "")")
            return
        }
        #expect(summary.evaluations == 1)
        #expect(summary.views == ["RootView": 1])
        #expect(summary.lines == 1_001)
    }

    /// The acceptance of issue 28 item 1: the same step 1-4 facts as the JetsamEvent given alone.
    @Test func theArchiveGivesTheSameStepOneToFourFactsAsTheFileAlone() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try await SysdiagnoseFixture.python(SysdiagnoseFixture.justSend, in: dir.path)
        let store = ArtifactStore(cacheDirectory: dir.path + "/cache")
        let engine = StepEngine(checks: builtInChecks, external: ProcessCheckRunner(), toolVersion: "test")
        let playbook = try Hunt.playbook()
        let archived = await engine.run(
            playbook: playbook, artifacts: await store.collect([dir.path + "/sysdiagnose.tar.gz"]), app: "JustSend")
        let alone = await engine.run(
            playbook: playbook, artifacts: await store.collect([Repo.fixture(jetsam)]), app: "JustSend")
        for index in 0..<4 {
            #expect(archived.steps[index].facts == alone.steps[index].facts, "step \(index + 1)")
            #expect(archived.steps[index].status == alone.steps[index].status, "step \(index + 1)")
            #expect(
                archived.steps[index].findings.map(\.code) == alone.steps[index].findings.map(\.code),
                "step \(index + 1)")
        }
        #expect(archived.steps[1].facts["jetsam.app.rank"] == .int(7))
    }

    @Test func aTruncatedArchiveNamesTheMemberItCutAndKeepsTheOnesBefore() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try await SysdiagnoseFixture.python(
            """
            import gzip, io, random, sys, tarfile
            raw = io.BytesIO()
            with tarfile.open(fileobj=raw, mode="w") as t:
                t.add(sys.argv[2] + "/Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", arcname="s/crashes_and_spins/a.ips")
                info = tarfile.TarInfo("s/crashes_and_spins/b.ips"); info.size = 100000
                t.addfile(info, io.BytesIO(random.Random(2).randbytes(100000)))
            data = gzip.compress(raw.getvalue())
            open(sys.argv[1] + "/cut.tar.gz", "wb").write(data[: len(data) // 2])
            """, in: dir.path)
        let path = dir.path + "/cut.tar.gz"
        let artifacts = SysdiagnoseArchive.read(path: path)
        #expect(
            artifacts.map(\.source) == [
                path, path + "!/s/crashes_and_spins/a.ips", path + "!/s/crashes_and_spins/b.ips",
            ])
        #expect(artifacts[0].status == .error)
        let error = try #require(artifacts[0].error)
        #expect(error.contains("the tar stream ends inside member s/crashes_and_spins/b.ips: "))
        #expect(error.contains(" of its 100000 bytes; the gzip stream is cut short: the file ends at byte "))
        #expect(artifacts[1].kind == .jetsamEvent)
        #expect(artifacts[1].status == .ok)
        #expect(artifacts[2].status == .error)
        #expect(artifacts[2].size == 100_000)
        #expect(artifacts[2].error?.contains("ends inside member s/crashes_and_spins/b.ips") == true)
        // The archive's digest is of the file as it is.
        #expect(artifacts[0].sha256 == SHA256.hex([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))))
    }

    /// Cut inside the gzip trailer: every member arrived, but the CRC-32 and length that would tell a changed byte
    /// are missing, so the archive is not called whole (it was read as ok, with no word).
    @Test(arguments: [4, 8]) func anArchiveCutInsideItsGzipTrailerSaysItsCheckIsMissing(_ cut: Int) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try await SysdiagnoseFixture.python(
            """
            import gzip, io, sys, tarfile
            raw = io.BytesIO()
            with tarfile.open(fileobj=raw, mode="w") as t:
                t.add(sys.argv[2] + "/Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", arcname="s/crashes_and_spins/a.ips")
            data = gzip.compress(raw.getvalue())
            open(sys.argv[1] + "/cut.tar.gz", "wb").write(data[: len(data) - \(cut)])
            """, in: dir.path)
        let path = dir.path + "/cut.tar.gz"
        let artifacts = SysdiagnoseArchive.read(path: path)
        #expect(artifacts.map(\.source) == [path, path + "!/s/crashes_and_spins/a.ips"])
        #expect(artifacts[0].status == .error)
        let error = try #require(artifacts[0].error)
        #expect(error.hasPrefix("the gzip stream ends at byte "), "\(error)")
        #expect(
            error.hasSuffix(
                " of the file, before its integrity check (CRC-32 and length): the members' bytes could not be verified"
            ))
        #expect(artifacts[1].kind == .jetsamEvent)
    }

    @Test func aCorruptGzipStreamIsNamedWithItsByte() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try await SysdiagnoseFixture.python(
            """
            import gzip, io, sys, tarfile, random
            raw = io.BytesIO()
            with tarfile.open(fileobj=raw, mode="w") as t:
                info = tarfile.TarInfo("s/logs/a.log"); data = random.Random(1).randbytes(200000)
                info.size = len(data); t.addfile(info, io.BytesIO(data))
            data = bytearray(gzip.compress(raw.getvalue()))
            for i in range(1000, 1100): data[i] ^= 0xFF
            open(sys.argv[1] + "/bad.tar.gz", "wb").write(bytes(data))
            """, in: dir.path)
        let artifacts = SysdiagnoseArchive.read(path: dir.path + "/bad.tar.gz")
        #expect(artifacts.count == 2)
        // The flipped bytes sit in a stored block: only the stream's CRC-32, checked after the tar's end, tells.
        let error = try #require(artifacts[0].error)
        #expect(error.hasPrefix("the gzip stream is corrupt at byte "))
        #expect(error.hasSuffix(" of the file: incorrect data check"))
        #expect(artifacts[1].source.hasSuffix("!/s/logs/a.log"))
        #expect(artifacts[1].status == .error)
        #expect(artifacts[1].content == nil)
        #expect(
            artifacts[1].error
                == "the archive's gzip check failed (\(error)): these bytes may not be the member's, so they are not read"
        )
    }

    /// A gzip bomb: 1 GiB of zeros in about 1 MB, behind a member that declares 20 GB. Refused at the header, with
    /// the figure; the zeros are never inflated.
    @Test func aGzipBombIsRefusedAtItsDeclaredSize() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try await SysdiagnoseFixture.python(
            """
            import gzip, sys, tarfile, zlib
            info = tarfile.TarInfo("s/crashes_and_spins/bomb.ips"); info.size = 20 * 10**9
            header = info.tobuf(format=tarfile.GNU_FORMAT)
            zeros = gzip.compress(b"\\0" * (64 << 20), compresslevel=9)
            with open(sys.argv[1] + "/bomb.tar.gz", "wb") as out:
                out.write(gzip.compress(header))
                for _ in range(16): out.write(zeros)
            """, in: dir.path)
        let start = Date()
        let artifacts = SysdiagnoseArchive.read(path: dir.path + "/bomb.tar.gz")
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(artifacts.count == 1)
        #expect(
            artifacts[0].error
                == "at byte 0 of the tar stream, member s/crashes_and_spins/bomb.ips declares 20,000,000,000 bytes: "
                + "the archive would expand past the limit of 8,589,934,592 bytes; it and the members after it are "
                + "not read")
    }

    @Test func aPlainTarAndAGzipOfNoTarAreToldApart() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try await SysdiagnoseFixture.python(
            """
            import gzip, sys, tarfile
            with tarfile.open(sys.argv[1] + "/plain.tar", "w") as t:
                t.add(sys.argv[2] + "/Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", arcname="x/crashes_and_spins/J.ips")
            open(sys.argv[1] + "/text.gz", "wb").write(gzip.compress(b"hello " * 200))
            """, in: dir.path)
        let plain = SysdiagnoseArchive.read(path: dir.path + "/plain.tar")
        #expect(plain.map(\.kind) == [.sysdiagnose, .jetsamEvent])
        #expect(plain[0].status == .ok)
        let text = SysdiagnoseArchive.read(path: dir.path + "/text.gz")
        #expect(text.count == 1)
        #expect(text[0].status == .error)
        #expect(
            text[0].error
                == "a gzip stream that holds no tar archive: memhunt reads sysdiagnose archives (.tar.gz); "
                + "decompress a single file with gunzip and give it")
    }

    /// The unpacked folder: its `.logarchive` is one artifact named with the command, never walked.
    @Test func anUnpackedSysdiagnoseNamesItsLogArchive() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("\(top)/crashes_and_spins/J.ips", try Repo.bytes(jetsam))
        try dir.write("\(top)/system_logs.logarchive/Persist/0000000000000001.tracev3", [0, 1, 2])
        try dir.write("\(top)/system_logs.logarchive/Info.plist", "<plist/>")
        let paths = LocalArtifacts.expand([dir.path])
        #expect(paths == [dir.path + "/\(top)/crashes_and_spins/J.ips", dir.path + "/\(top)/system_logs.logarchive"])
        let bundle = LocalArtifacts.load(path: paths[1])
        #expect(bundle.kind == .logArchive)
        #expect(bundle.status == .error)
        #expect(
            bundle.error?.hasPrefix(
                "a unified log archive: read by `log show` on a Mac, not by memhunt. Export the kernel's memorystatus lines with `log show --archive system_logs.logarchive "
            ) == true)
    }
}
