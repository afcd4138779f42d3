import Foundation
import MemhuntArtifacts
import MemhuntBasics
import MemhuntCore
import MemhuntTestSupport
import Testing

enum SHA256Hex {
    /// `head -c 3145728 /dev/zero | tr '\\0' ' ' | sha256sum`
    static let spaces3MB = "6a3cfdf3ce3887c663d9474e0833b92190a4285f45b3358068cbdfd1f91a8ec7"
}

/// The local store on inputs that must neither hang nor loop.
@Suite struct LocalArtifactsTests {
    let jetsam = "justsend/JetsamEvent-2026-08-11-112056.ips"

    @Test func directoryLinkToAParentIsNotFollowed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("a/record.ips", try Repo.bytes(jetsam))
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/a/up", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(
            atPath: dir.path + "/linked.ips", withDestinationPath: Repo.fixture(jetsam))
        let paths = LocalArtifacts.expand([dir.path])
        #expect(paths == [dir.path + "/a/record.ips", dir.path + "/linked.ips"])
        let linked = LocalArtifacts.load(path: dir.path + "/linked.ips")
        #expect(linked.status == .ok)
        #expect(linked.kind == .jetsamEvent)
    }

    @Test func devicesAndPipesAreNamedErrorsNotHangs() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let fifo = dir.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Also when a folder listed the entry as a regular file (a fleet scan's walk) and it was swapped since:
        // opened without waiting, found not to be one, closed unread.
        for listedRegular in [false, true] {
            for path in [fifo, "/dev/zero", "/dev/null"] where FileManager.default.fileExists(atPath: path) {
                let artifact = LocalArtifacts.load(path: path, listedRegular: listedRegular)
                #expect(artifact.status == .error, "\(path)")
                #expect(artifact.error == "not a regular file", "\(path)")
            }
            let missing = LocalArtifacts.load(path: dir.path + "/missing", listedRegular: listedRegular)
            #expect(missing.error == "no such file or directory")
            #expect(LocalArtifacts.load(path: dir.path, listedRegular: listedRegular).status == .error)
        }
    }

    @Test func aWalkSaysWhichFilesItsFoldersListedAsRegular() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("a/record.ips", try Repo.bytes(jetsam))
        try FileManager.default.createSymbolicLink(
            atPath: dir.path + "/linked.ips", withDestinationPath: Repo.fixture(jetsam))
        let walk = FileWalk([dir.path])
        var entries: [String: Bool] = [:]
        while let entry = walk.nextEntry() { entries[entry.path] = entry.listedRegular }
        // A link is followed by `stat` as before; only a regular file's entry is opened first.
        #expect(entries == [dir.path + "/a/record.ips": true, dir.path + "/linked.ips": false])
        let opened = LocalArtifacts.load(path: dir.path + "/a/record.ips", hash: true, listedRegular: true)
        let stated = LocalArtifacts.load(path: dir.path + "/a/record.ips", hash: true)
        #expect(opened.status == .ok)
        #expect(opened.kind == .jetsamEvent)
        #expect(opened == stated)
        // The size comes from `fstat` then: a document over the limit is still refused unread.
        let refused = LocalArtifacts.load(path: dir.path + "/a/record.ips", documentLimit: 1024, listedRegular: true)
        #expect(refused.status == .error)
        #expect(refused.sha256 == nil)
        #expect(refused.error?.hasPrefix("larger than the ") == true)
        #expect(refused.error?.hasSuffix("limit for documents (\(try Repo.bytes(jetsam).count) bytes)") == true)
    }

    @Test func largeDocumentsAreRefusedFromTheirSizeWithoutBeingRead() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/huge.json"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        let chunk = Data(repeating: UInt8(ascii: " "), count: 1 << 20)
        for _ in 0..<3 { handle.write(chunk) }
        try handle.close()
        // The default limit is 64 MB; a 1 MB limit walks the same path in a fraction of the time. Before, a
        // 2 GB file was read (and hashed) whole before its size was refused; now stat decides.
        let artifact = LocalArtifacts.load(path: path, documentLimit: 1 << 20)
        #expect(artifact.status == .error)
        #expect(artifact.size == 3 << 20)
        #expect(artifact.sha256 == nil)
        #expect(artifact.error == "larger than the 1 MB limit for documents (3145728 bytes)")
    }

    @Test func aSymbolicLinkLoopIsNamed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/a", withDestinationPath: dir.path + "/b")
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/b", withDestinationPath: dir.path + "/a")
        #expect(LocalArtifacts.load(path: dir.path + "/a").error == "symbolic link loop")
        // In a walk, the looping links are listed with the reason rather than dropped.
        #expect(LocalArtifacts.expand([dir.path]) == [dir.path + "/a", dir.path + "/b"])
    }

    @Test func aChangeLogIsStreamedWhateverItsSize() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let line = "RootView: @self changed.\n"
        try dir.write("big.log", String(repeating: line, count: 100_000))
        let artifact = LocalArtifacts.load(path: dir.path + "/big.log", documentLimit: 1 << 20)
        #expect(artifact.status == .ok)
        #expect(artifact.kind == .changeLog)
        #expect(artifact.size == line.utf8.count * 100_000)
    }

    /// `log show --style ndjson` above the document limit: streamed and counted whole, not refused for its size.
    @Test func anNDJSONChangeLogIsStreamedWhateverItsSize() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let record =
            #"{"eventMessage":"RootView: @self changed.","processImagePath":"\/Applications\/Chat.app\/Chat","#
            + #""timestamp":"2026-09-02 19:02:24.184510+0900","processID":8931}"# + "\n"
        try dir.write("big.ndjson", String(repeating: record, count: 20_000))
        let artifact = LocalArtifacts.load(path: dir.path + "/big.ndjson", documentLimit: 1 << 20)
        #expect(artifact.status == .ok, "\(artifact.error ?? "")")
        #expect(artifact.size == record.utf8.count * 20_000)
        guard case .repro(.changeLog(let summary))? = artifact.content else {
            Issue.record("not a change log: \(String(describing: artifact.kind))")
            return
        }
        #expect(summary.evaluations == 20_000)
        #expect(summary.processes == ["Chat": 20_000])
    }

    /// A device's console holds other subsystems' lines before SwiftUI prints its first change: a log whose first
    /// change line is past its first 64 KiB is a change log all the same, read whole under the document limit
    /// and streamed over it. It was "unrecognized content" (and over 64 MB "larger than the limit").
    @Test func aChangeLogWhoseFirstChangeLineIsLateIsOne() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let noise =
            "2026-08-12 14:03:05.045743+0900 Memo[48211:3456791] [Network] request 1973763 GET "
            + "https://api.example.com/v1/items?page=12 finished in 1042 ms\n"
        let changes =
            "2026-08-12 14:03:06.001000+0900 Memo[48211:3456789] RootView: @self, _count changed.\n"
            + "2026-08-12 14:03:06.002000+0900 Memo[48211:3456789] TimelineRow: @self changed.\n"
            + "2026-08-12 14:03:06.003000+0900 Memo[48211:3456789] SettingsSheet: unchanged.\n"
        let text = String(repeating: noise, count: 1_000) + changes + noise
        #expect(text.utf8.count > 128 << 10)
        try dir.write("late.log", text)
        for limit in [LocalArtifacts.documentLimit, 100 << 10] {
            let artifact = LocalArtifacts.load(path: dir.path + "/late.log", documentLimit: limit)
            #expect(artifact.status == .ok, "\(limit): \(artifact.error ?? "")")
            #expect(artifact.kind == .changeLog)
            #expect(artifact.size == text.utf8.count)
            #expect(artifact.sha256 == SHA256.hex(Array(text.utf8)))
            guard case .repro(.changeLog(let summary))? = artifact.content else {
                Issue.record("\(limit): not a change log: \(String(describing: artifact.kind))")
                continue
            }
            #expect(summary.evaluations == 3)
            #expect(summary.unchangedCount == 1)
            #expect(summary.views == ["RootView": 1, "TimelineRow": 1, "SettingsSheet": 1])
            #expect(summary.processes == ["Memo": 3])
            #expect(summary.lines == 1_004)
        }
        // `log show --style ndjson`: the same, its first change record past 64 KiB of other records.
        let other =
            #"{"eventMessage":"[Network] request 12 finished in 40 ms","processImagePath":"\/Applications\/Chat.app\/Chat","#
            + #""timestamp":"2026-09-02 19:02:24.184510+0900","processID":8931}"# + "\n"
        let change = other.replacingOccurrences(
            of: "[Network] request 12 finished in 40 ms", with: "RootView: @self changed.")
        let records = String(repeating: other, count: 1_000) + change + change
        try dir.write("late.ndjson", records)
        for limit in [LocalArtifacts.documentLimit, 100 << 10] {
            let artifact = LocalArtifacts.load(path: dir.path + "/late.ndjson", documentLimit: limit)
            guard case .repro(.changeLog(let summary))? = artifact.content else {
                Issue.record("\(limit): not a change log: \(artifact.error ?? "")")
                continue
            }
            #expect(summary.evaluations == 2)
            #expect(summary.processes == ["Chat": 2])
        }
        // The 65,536th byte inside an `é`: the window's cut sequence is still text.
        var straddling = String(repeating: noise, count: 65_536 / noise.utf8.count)
        straddling += String(repeating: "x", count: 65_535 - straddling.utf8.count - 1) + " é\n"
        #expect(Array(straddling.utf8)[65_535] == 0xC3)
        try dir.write("straddling.log", straddling + String(repeating: noise, count: 100) + changes)
        for limit in [LocalArtifacts.documentLimit, 64 << 10] {
            let artifact = LocalArtifacts.load(path: dir.path + "/straddling.log", documentLimit: limit)
            #expect(artifact.kind == .changeLog, "\(limit): \(artifact.error ?? "")")
        }
        // Text with no change or kill line anywhere is what it was: of no known kind, or refused for its size.
        try dir.write("noise.log", String(repeating: noise, count: 1_000))
        let unknown = LocalArtifacts.load(path: dir.path + "/noise.log")
        #expect(unknown.status == .unrecognized)
        #expect(unknown.error?.hasPrefix("unrecognized content (text of no known kind") == true)
        let refused = LocalArtifacts.load(path: dir.path + "/noise.log", documentLimit: 100 << 10)
        #expect(refused.status == .error)
        #expect(refused.error?.hasPrefix("larger than the ") == true)
    }

    /// An `xcodebuild test` log over the document limit is one artifact, streamed: its build output is skipped,
    /// its test cases counted and its metric line read with its line number, and it is hashed whole.
    @Test func anXcodebuildLogIsStreamedWhateverItsSize() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var text = "Command line invocation:\n    /Applications/Xcode.app/Contents/Developer/usr/bin/xcodebuild test "
        text += "-scheme App -destination 'platform=iOS Simulator,name=iPhone 16'\n\n"
        let noise =
            "CompileSwift normal arm64 /Users/dev/App/Sources/Feature\(0).swift (in target 'App' from project 'App')\n"
        for index in 0..<20_000 { text += noise.replacingOccurrences(of: "Feature0", with: "Feature\(index)") }
        text += "Test Case '-[AppTests.WidgetTests testTimelineMemory]' started.\n"
        let metric =
            "Test Case '-[AppTests.WidgetTests testTimelineMemory]' measured [Memory Peak Physical, kB] average: "
            + "31250.000, relative standard deviation: 1.000%, values: [31000.000000, 31500.000000], "
            + "performanceMetricID:com.apple.dt.XCTMetric_Memory.physical_peak, baselineName: \"\", baselineAverage: , "
            + "polarity: prefers smaller, maxPercentRegression: 10.000%\r\n"
        text += metric
        try dir.write("xcodebuild.log", text)
        let artifact = LocalArtifacts.load(path: dir.path + "/xcodebuild.log", documentLimit: 1 << 20)
        #expect(artifact.status == .ok, "\(artifact.error ?? "")")
        #expect(artifact.kind == .xctestMetrics)
        #expect(artifact.size == text.utf8.count)
        #expect(artifact.sha256 == SHA256.hex(Array(text.utf8)))
        guard case .repro(.xctestMetrics(let metrics))? = artifact.content else {
            Issue.record("not XCTest metrics: \(String(describing: artifact.kind))")
            return
        }
        #expect(metrics.testsStarted == 1)
        #expect(metrics.metrics.map(\.test) == ["-[AppTests.WidgetTests testTimelineMemory]"])
        #expect(metrics.metrics.first?.values == [31000, 31500])
        #expect(metrics.metrics.first?.line == 20_005)
        #expect(metrics.unreadable.isEmpty)
    }

    /// A log of several MiB goes round the reader's three buffers: the digest is of every byte in order,
    /// and the counts are those of the whole file.
    @Test func aStreamedChangeLogIsHashedAndCountedWhole() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var text = ""
        for index in 0..<200_000 { text += index % 3 == 0 ? "A\(index % 7): @self changed.\n" : "B: _x changed.\n" }
        try dir.write("log.txt", text)
        let artifact = LocalArtifacts.load(path: dir.path + "/log.txt")
        #expect(artifact.size == text.utf8.count)
        #expect(artifact.sha256 == SHA256.hex(Array(text.utf8)))
        guard case .repro(.changeLog(let summary))? = artifact.content else {
            Issue.record("not a change log: \(String(describing: artifact.kind))")
            return
        }
        #expect(summary.evaluations == 200_000)
        #expect(summary.views["B"] == 200_000 - 66_667)
        #expect(LocalArtifacts.load(path: dir.path + "/log.txt", hash: false).sha256 == nil)
    }

    /// Small documents are read in one array sized from `stat`; `hash: false` (a fleet scan) skips the digest.
    @Test func documentsAreReadWholeWithOrWithoutTheirDigest() throws {
        let bytes = try Repo.bytes(jetsam)
        let path = Repo.fixture(jetsam)
        let hashed = LocalArtifacts.load(path: path)
        #expect(hashed.kind == .jetsamEvent && hashed.size == bytes.count)
        #expect(hashed.sha256 == SHA256.hex(bytes))
        let unhashed = LocalArtifacts.load(path: path, hash: false)
        #expect(unhashed.sha256 == nil && unhashed.kind == .jetsamEvent && unhashed.content == hashed.content)
    }
}

/// Manifests on disk read only inside their folder, and nothing of an unknown file is echoed (defect 7).
@Suite struct LocalManifestTests {
    static let secret = "ghp_never-printed-9921"

    @Test func entriesResolveInsideTheManifestFolder() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        try home.write(".git-credentials", "https://user:\(Self.secret)@github.com\n")
        try home.write("outside.txt", "\(Self.secret)\n")
        try home.write("case/inside.ips", try Repo.bytes("justsend/JetsamEvent-2026-08-11-112056.ips"))
        try home.write("case/.hidden", "\(Self.secret)\n")
        try FileManager.default.createSymbolicLink(
            atPath: home.path + "/case/link.txt", withDestinationPath: home.path + "/outside.txt")
        try home.write(
            "case/m.json",
            """
            ["inside.ips", "../.git-credentials", "\(home.path)/outside.txt", ".hidden", "link.txt",
             "sub/../../outside.txt"]
            """)
        let store = ArtifactStore(cacheDirectory: home.path + "/cache")
        let artifacts = await store.collect([home.path + "/case/m.json"])
        #expect(artifacts.map(\.status) == [.ok, .ok, .error, .error, .error, .error, .error])
        #expect(artifacts[1].kind == .jetsamEvent)
        #expect(
            artifacts.dropFirst(2).map(\.error) == [
                "manifest entry 2: leaves the manifest's folder ('..')",
                "manifest entry 3: an absolute path; entries are relative to the manifest's folder",
                "manifest entry 4: names a hidden file or folder",
                "manifest entry 5: a symbolic link that leads out of the manifest's folder",
                "manifest entry 6: leaves the manifest's folder ('..')",
            ])
        #expect(!"\(artifacts)".contains(Self.secret))
    }

    @Test func anUnrecognizedFileIsNeverQuoted() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("creds", "https://user:\(Self.secret)@github.com\n")
        let artifact = LocalArtifacts.load(path: dir.path + "/creds")
        #expect(artifact.status == .unrecognized)
        #expect(artifact.error == "unrecognized content (text of no known kind, 47 bytes)")
    }

    @Test func theCommandLineMayNameAnyFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("elsewhere/j.ips", try Repo.bytes("justsend/JetsamEvent-2026-08-11-112056.ips"))
        #expect(LocalArtifacts.load(path: dir.path + "/elsewhere/../elsewhere/j.ips").kind == .jetsamEvent)
    }

    @Test func aManifestOverTheEntryLimitReadsNone() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("m.json", "[" + (0..<11).map { "\"f\($0).ips\"" }.joined(separator: ",") + "]")
        let artifacts = await ArtifactStore(cacheDirectory: dir.path + "/cache", maxManifestEntries: 10)
            .collect([dir.path + "/m.json"])
        #expect(artifacts.count == 1)
        #expect(artifacts[0].status == .error)
        #expect(
            artifacts[0].error
                == "manifest lists 11 entries, more than the limit of 10 (--max-manifest-entries)")
    }

    /// A manifest whose list is too long to build is a manifest over the limit, not "JSON of no known kind"
    /// read with exit 0 (100,000 entries were, where 95,000 met the entry limit).
    @Test func aManifestTooLongToBuildIsNamedAsOne() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("m.json", "[" + (0..<100_000).map { "\"f\($0).ips\"" }.joined(separator: ",") + "]")
        let artifacts = await ArtifactStore(cacheDirectory: dir.path + "/cache").collect([dir.path + "/m.json"])
        #expect(artifacts.count == 1)
        #expect(artifacts[0].kind == .manifest)
        #expect(artifacts[0].status == .error)
        #expect(
            artifacts[0].error?.hasPrefix("manifest is too long to read: more than 100000 values in ") == true,
            "\(artifacts[0].error ?? "")")
    }

    /// A NUL byte in a path cut it short where the system read it: `a.ips\0../x` opened a.ips.
    @Test func aPathWithANULByteIsRefusedWhole() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("a.ips", try Repo.bytes("justsend/JetsamEvent-2026-08-11-112056.ips"))
        try dir.write("m.json", #"["a.ips\u0000.txt"]"#)
        let artifacts = await ArtifactStore(cacheDirectory: dir.path + "/cache").collect([dir.path + "/m.json"])
        #expect(artifacts.map(\.status) == [.ok, .error])
        #expect(artifacts.last?.error == "manifest entry 1: the path holds a NUL byte, which no file name can")
        let direct = LocalArtifacts.load(path: dir.path + "/a.ips\u{0}.txt")
        #expect(direct.status == .error)
        #expect(direct.error == "the path holds a NUL byte, which no file name can")
    }

    /// One malformed entry is named with its number and index, and the rest of the manifest is read (it dropped
    /// the whole manifest as "JSON of no known kind"). Defect 9.
    @Test func aMalformedManifestEntryIsNamedAndTheRestIsRead() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("a.ips", try Repo.bytes("justsend/JetsamEvent-2026-08-11-112056.ips"))
        try dir.write("c.csv", try Repo.bytes("justsend/measurements-detail.csv"))
        try dir.write(
            "m.json", #"[{"url": "a.ips"}, {"url": "b.ips", "sha256": "zz"}, null, 7, {"sha256": "00"}, "c.csv"]"#)
        let artifacts = await ArtifactStore(cacheDirectory: dir.path + "/cache").collect([dir.path + "/m.json"])
        #expect(artifacts.map(\.status) == [.ok, .ok, .error, .error, .error, .error, .ok])
        #expect(artifacts.first?.kind == .manifest)
        #expect(artifacts[1].kind == .jetsamEvent)
        #expect(
            artifacts[2...5].map(\.error) == [
                "manifest entry 2 (index 1, b.ips): sha256 is not 64 hex digits",
                "manifest entry 3 (index 2): null, not a path or URL string nor an object with a \"url\" string",
                "manifest entry 4 (index 3): a number, not a path or URL string nor an object with a \"url\" string",
                "manifest entry 5 (index 4): no \"url\" string",
            ])
        #expect(artifacts[6].kind == .measurements)
    }
}
