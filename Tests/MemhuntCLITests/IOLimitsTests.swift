import Foundation
import MemhuntHTTP
import MemhuntTestSupport
import Testing

/// The I/O layer through the real binary: file descriptors, memory, signals and the run cache (issue 8).
@Suite(.enabled(if: FaultServer.available && BinaryTests.binary != nil, "needs python3 and the built binary"))
struct IOLimitsTests {
    /// Runs the binary through `sh -c` (for `ulimit`, `/usr/bin/time`), with `TMPDIR` pointing at `tmp`.
    static func shell(_ script: String, _ arguments: [String], tmp: String) async throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let binary = try #require(BinaryTests.binary)
        // On a thread of its own: waiting on the cooperative pool (two threads on two cores) starved the
        // timing tests that run beside this one.
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try shellBlocking(script, [binary] + arguments, tmp: tmp) })
            }
        }
    }

    private static func shellBlocking(_ script: String, _ arguments: [String], tmp: String) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: Repo.root)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = tmp
        environment["no_proxy"] = "127.0.0.1,localhost"
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let group = DispatchGroup()
        let stdout = Locked(Data()), stderr = Locked(Data())
        for (pipe, sink) in [(out, stdout), (err, stderr)] {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                sink.withLock { $0 = data }
                group.leave()
            }
        }
        group.wait()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: stdout.withLock { $0 }, as: UTF8.self),
            String(decoding: stderr.withLock { $0 }, as: UTF8.self)
        )
    }

    static func runCaches(_ tmp: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []).filter { $0.hasPrefix("memhunt-run-") }
    }

    @Test func fiveThousandDownloadsUnderAFileLimitOf256() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        try root.write("a.txt", "not an artifact\n")
        let entries = (0..<5000).map { "\"a.txt?n=\($0)\"" }.joined(separator: ",")
        try root.write("m.json", "[\(entries)]")
        let server = try await FaultServer(root: root.path)
        defer { server.stop() }
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        // Before: one URL session per download, never closed: 4,307 sockets for 4,300 downloads, and a
        // 500-entry manifest died under `ulimit -n 1024` (SIGILL, exit 132).
        let run = try await Self.shell(
            "ulimit -n 256; exec \"$0\" \"$@\"",
            ["run", "--format", "json", "--max-manifest-entries", "5000", server.url("m.json").absoluteString],
            tmp: tmp.path)
        #expect(run.status == 0, "\(run.stderr.suffix(500))")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let artifacts = try #require(document["artifacts"] as? [[String: Any]])
        #expect(artifacts.count == 5001)
        #expect(artifacts.dropFirst().allSatisfy { $0["httpStatus"] as? Int == 200 })
        #expect(artifacts.dropFirst().allSatisfy { $0["status"] as? String == "unrecognized" })
        #expect(Self.runCaches(tmp.path) == [])
    }

    @Test func aGzipBombIsRefusedInBoundedMemory() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        let server = try await FaultServer(root: root.path)
        defer { server.stop() }
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        // 1,000 MB of zeros in ~1 MB of gzip. Before: decoded bytes were counted against the compressed
        // Content-Length and queued without backpressure: a 2 MB bomb took 2.0 GB of memory.
        let run = try await Self.shell(
            "exec /usr/bin/time -v \"$0\" \"$@\"",
            ["run", "--format", "json", "--max-artifact-size", "10", server.url("gzip-bomb/1000").absoluteString],
            tmp: tmp.path)
        // The one operand could not be read: the report is written, then exit 2.
        #expect(run.status == 2, "\(run.stderr.suffix(500))")
        #expect(run.stdout.contains("refused a body with Content-Encoding 'gzip'"))
        let line = try #require(run.stderr.split(separator: "\n").first { $0.contains("Maximum resident set size") })
        let kilobytes = try #require(Int(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)))
        // Nothing of the body is read: the socket transport refuses the head. Measured: 40.7 MB (debug build,
        // `run` with its playbook loaded). With libcurl, which decoded whatever arrived before the refusal took
        // effect: 45 MB alone, 115 MB with four test suites sharing the two cores. Before the refusal at the
        // head: 366 MB for a 300 MB bomb.
        #expect(kilobytes < 100 * 1024, "peak RSS \(kilobytes) KB")
    }

    @Test func a120MBBodyOverLoopbackCostsWithin10MBOfReadingItLocally() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        #expect(FileManager.default.createFile(atPath: root.path + "/big.txt", contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: root.path + "/big.txt"))
        let line = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        for _ in 0..<120 { try handle.write(contentsOf: line) }
        try handle.close()
        let server = try await FaultServer(root: root.path)
        defer { server.stop() }
        // Not an artifact and over the 64 MB document limit: read locally, it is refused from its size alone,
        // so the local peak is the process at rest and the difference is all the download's. Measured
        // (debug build): 32.5 MB local, 36.3 MB over loopback. Before (URLSession, which reads the socket as
        // fast as it can and queues the chunks): 302 MB against 30 MB; with a bounded queue still +14 MB.
        // A 120 MB change log parsed both ways peaked at 34.6 and 38.9 MB (debug; 23 s each, so not here).
        let local = try await Self.peakKilobytes(["inspect", root.path + "/big.txt"], tmp: root.path)
        let run = try await Self.shell(
            "exec /usr/bin/time -v \"$0\" \"$@\"", ["inspect", server.url("big.txt").absoluteString], tmp: root.path)
        #expect(run.stdout.contains("size: 125,829,120 bytes"), "\(run.stdout.prefix(400))")
        #expect(run.stdout.contains("larger than the 64 MB limit for documents"))
        let peakLine = try #require(
            run.stderr.split(separator: "\n").first { $0.contains("Maximum resident set size") })
        let remote = try #require(Int(peakLine.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)))
        #expect(remote < local + 10 * 1024, "over loopback \(remote) KB, local \(local) KB")
    }

    @Test func sigintDuringADownloadLeavesNoCache() async throws {
        let root = try TemporaryDirectory()
        defer { root.remove() }
        try root.write("x.ips", [UInt8](repeating: UInt8(ascii: "a"), count: 6400))
        let server = try await FaultServer(root: root.path)
        defer { server.stop() }
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(BinaryTests.binary))
        process.arguments = ["run", server.url("slow/x.ips").absoluteString]
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = tmp.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait for the body to start arriving in the cache (20 s of trickle at 64 bytes per 0.2 s).
        var part: String?
        for _ in 0..<600 where part == nil {  // up to 60 s: a loaded 2-core machine starts the binary slowly
            try await Task.sleep(for: .milliseconds(100))
            for cache in Self.runCaches(tmp.path) {
                let files = (try? FileManager.default.contentsOfDirectory(atPath: tmp.path + "/" + cache)) ?? []
                part = files.first.map { tmp.path + "/" + cache + "/" + $0 }
            }
        }
        let file = try #require(part, "no download started")
        let directory = (file as NSString).deletingLastPathComponent
        let permissions = { (path: String) in
            (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
        }
        #expect(permissions(directory) == 0o700)
        #expect(permissions(file) == 0o600)
        process.interrupt()
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                process.waitUntilExit()
                continuation.resume()
            }
        }
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 130)
        #expect(Self.runCaches(tmp.path) == [])
    }

    @Test func cachesOfDeadRunsAreSweptAndLiveOnesKept() async throws {
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        // 4,194,304 is above Linux's largest pid_max: no process has it.
        let dead = tmp.path + "/memhunt-run-4194304-0D5A"
        let live = tmp.path + "/memhunt-run-\(getpid())-11FE"
        for path in [dead, live] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            #expect(FileManager.default.createFile(atPath: path + "/1-abc", contents: Data("x".utf8)))
        }
        // A run of local files creates no cache, and does not read the temporary directory.
        let local = try await Self.shell(
            "exec \"$0\" \"$@\"", ["run", "--app", "JustSend", "Fixtures/justsend"], tmp: tmp.path)
        #expect(local.status == 0)
        #expect(Set(Self.runCaches(tmp.path)) == ["memhunt-run-4194304-0D5A", "memhunt-run-\(getpid())-11FE"])
        // A run that downloads sweeps the dead run's cache, keeps the live one's, and removes its own.
        let server = try await FaultServer(root: Repo.fixture(""))
        defer { server.stop() }
        let download = try await Self.shell(
            "exec \"$0\" \"$@\"",
            ["run", "--app", "JustSend", server.url("justsend/JetsamEvent-2026-08-11-112056.ips").absoluteString],
            tmp: tmp.path)
        #expect(download.status == 0)
        #expect(download.stdout.contains("725 MB"))
        #expect(Self.runCaches(tmp.path) == ["memhunt-run-\(getpid())-11FE"])
    }

    @Test func aMissingTMPDIRIsNotCreatedAndLeftBehind() async throws {
        let server = try await FaultServer(root: Repo.fixture(""))
        defer { server.stop() }
        let tmp = try TemporaryDirectory()
        defer { tmp.remove() }
        let run = try await Self.shell(
            "exec \"$0\" \"$@\"", ["run", server.url("justsend/JetsamEvent-2026-08-11-112056.ips").absoluteString],
            tmp: tmp.path + "/missing/deeper")
        #expect(run.status == 2, "the operand could not be fetched")
        #expect(run.stdout.contains("cannot create the download cache in \(tmp.path)/missing/deeper"))
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/missing"))
    }
}

extension IOLimitsTests {
    @Test func aLargeJSONDocumentPeaksUnderFourTimesItsSize() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        // 16 MB: 8 M one-digit numbers. Before: ~56 bytes a value (a 60 MB array peaked at 1.73 GB).
        var bytes = Data("[".utf8)
        bytes.append(Data(repeating: 0, count: 16 << 20))
        bytes.withUnsafeMutableBytes { buffer in
            for index in stride(from: 1, to: buffer.count, by: 2) {
                buffer[index] = UInt8(ascii: "1")
                buffer[index + 1] = UInt8(ascii: ",")
            }
        }
        bytes[bytes.count - 1] = UInt8(ascii: "]")
        try bytes.write(to: URL(fileURLWithPath: dir.path + "/n.json"))
        let rest = try await Self.peakKilobytes(["inspect", Repo.fixture("justsend/drawer-before.log")], tmp: dir.path)
        let peak = try await Self.peakKilobytes(["inspect", dir.path + "/n.json"], tmp: dir.path)
        #expect(peak < rest + 4 * (16 << 10), "peak \(peak) KB, at rest \(rest) KB")
    }

    static func peakKilobytes(_ arguments: [String], tmp: String) async throws -> Int {
        let run = try await shell("exec /usr/bin/time -v \"$0\" \"$@\"", arguments, tmp: tmp)
        let line = try #require(run.stderr.split(separator: "\n").first { $0.contains("Maximum resident set size") })
        return try #require(Int(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)))
    }
}

extension IOLimitsTests {
    /// Root reads every folder: as root the binary runs as `nobody` (setpriv), otherwise as this user.
    static let asNobody =
        getuid() == 0 ? "exec setpriv --reuid=65534 --regid=65534 --clear-groups \"$0\" \"$@\"" : "exec \"$0\" \"$@\""

    @Test(.enabled(if: getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func anUnreadableFolderIsAnArtifactErrorNotDropped() async throws {
        let dir = try TemporaryDirectory()
        defer {
            chmod(dir.path + "/locked", 0o755)
            dir.remove()
        }
        try FileManager.default.createDirectory(atPath: dir.path + "/locked", withIntermediateDirectories: false)
        #expect(chmod(dir.path, 0o755) == 0)
        #expect(chmod(dir.path + "/locked", 0) == 0)
        let run = try await Self.shell(Self.asNobody, ["inspect", dir.path + "/locked"], tmp: dir.path)
        #expect(run.status == 0)
        #expect(run.stdout.contains("\(dir.path)/locked\n   kind: -  status: error"))
        #expect(run.stdout.contains("error: cannot read the folder: permission denied"))
    }
}
