import Foundation
import MemhuntTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 13: reports and triage session files are written atomically. The built binary is killed with
/// SIGKILL, which no handler can catch, at moments spread over a whole run and right after its temporary
/// file appears (between `open` and `rename`: the write itself, ~2 ms of `write` and `fsync` here); after
/// every kill the file at the path is the previous one byte for byte or a complete new one, and what a
/// killed write leaves (its hidden temporary file) is named after it and swept by the next write.
@Suite(.enabled(if: BinaryTests.binary != nil, "needs the built binary"), .serialized)
struct KillMidWriteTests {
    /// When the process is killed.
    enum Moment {
        /// This many seconds after it started.
        case afterStart(Double)
        /// As soon as its temporary file for `name` is seen in the folder, plus this many seconds.
        case temporaryAppears(Double)
        /// As soon as the file at the path is another (inode) or changes size or time: a writer in place
        /// (`O_TRUNC`) is caught with a part written.
        case pathChanges
        /// Not killed: waited for.
        case never
    }

    struct Attempt {
        /// Died of the SIGKILL (rather than finishing first).
        var killed: Bool
        /// Its temporary file was still there after the kill: the kill landed between `open` and `rename`.
        var leftTemporary: Bool
    }

    /// The hidden temporary files of writes to `names` in `folder` (`.<name>.memhunt-<pid>-<hex>.tmp`);
    /// `nil` when something else is there besides `names` and `others`.
    static func temporaries(_ folder: String, names: [String], others: Set<String> = []) -> [String]? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let patterns = names.map {
            try! Regex("^\\.\(NSRegularExpression.escapedPattern(for: $0))\\.memhunt-[0-9]+-[0-9a-f]+\\.tmp$")
        }
        var found: [String] = []
        for entry in entries where !names.contains(entry) && !others.contains(entry) {
            guard patterns.contains(where: { entry.wholeMatch(of: $0) != nil }) else { return nil }
            found.append(entry)
        }
        return found.sorted()
    }

    /// Whether `folder` has an entry starting with `prefix` (readdir directly: this runs in a tight loop).
    static func hasEntry(_ folder: String, prefix: String) -> Bool {
        guard let stream = opendir(folder) else { return false }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(prefix) { return true }
        }
        return false
    }

    /// Inode, size and modification time of `path` (nil when missing).
    static func identity(_ path: String) -> [Int]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [
            Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec),
        ]
    }

    /// Starts the binary in `workingDirectory` with `input` on stdin, kills it at `moment` and waits for it.
    /// `name` in `folder` is the file being written. Runs on a thread of its own (it blocks).
    static func startAndKill(
        _ arguments: [String], input: String?, workingDirectory: String, folder: String, name: String,
        at moment: Moment
    ) async throws -> Attempt {
        let binary = try #require(BinaryTests.binary)
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        let process = try Tool.start(
                            binary, arguments, directory: workingDirectory, input: input)
                        let pid = process.processIdentifier
                        let prefix = ".\(name).memhunt-\(pid)-"
                        switch moment {
                        case .afterStart(let seconds):
                            // Until then, or until the run ends (not a whole sleep: a run that ends early
                            // left the thread asleep for the rest, minutes on a loaded machine).
                            let until = Date().addingTimeInterval(seconds)
                            while process.isRunning && Date() < until { usleep(1_000) }
                        case .temporaryAppears(let seconds):
                            // Polled every 0.2 ms, not spun: a spinning thread per test held a core of the
                            // two, and the suite took 503 s of a CI run instead of about a minute.
                            while process.isRunning && !hasEntry(folder, prefix: prefix) { usleep(200) }
                            if seconds > 0 { usleep(UInt32(seconds * 1e6)) }
                        case .pathChanges:
                            let initial = identity(folder + "/" + name)
                            while process.isRunning && identity(folder + "/" + name) == initial { usleep(200) }
                        case .never: process.waitUntilExit()
                        }
                        // Checked first: once the process has been reaped its pid may belong to another.
                        if process.isRunning { kill(pid, SIGKILL) }
                        process.waitUntilExit()
                        return Attempt(
                            killed: process.terminationReason == .uncaughtSignal
                                && process.terminationStatus == SIGKILL,
                            leftTemporary: hasEntry(folder, prefix: prefix))
                    })
            }
        }
    }

    /// A folder of `copies` copies of a JetsamEvent and of a crash report.
    static func artifacts(copies: Int) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        let jetsam = try Repo.bytes("formats/jetsam-16k.ips")
        let crash = try Repo.bytes("formats/crash-309-memory.ips")
        for index in 0..<copies {
            try folder.write("jetsam-\(index).ips", jetsam)
            try folder.write("crash-\(index).ips", crash)
        }
        return folder
    }

    static func json(_ data: Data?) -> [String: Any]? {
        data.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    /// The moments of the attempts: spread over a whole run of `seconds`, then right at the write.
    static func moments(overRunOf seconds: Double) -> [Moment] {
        [0, 0.1, 0.25, 0.4, 0.55, 0.7, 0.85, 0.95, 1.05].map { .afterStart($0 * seconds) }
            + [0, 0, 0, 0.0002, 0.0005, 0.001, 0.002].map { .temporaryAppears($0) } + [.pathChanges, .pathChanges]
    }

    @Test func aReportKilledMidWriteLeavesThePreviousReportOrTheWholeNewOne() async throws {
        let small = try Self.artifacts(copies: 1), big = try Self.artifacts(copies: 250)
        let out = try TemporaryDirectory(), here = try TemporaryDirectory()
        defer { for folder in [small, big, out, here] { folder.remove() } }
        let report = out.path + "/report.json"

        func complete(_ data: Data?, artifacts count: Int) -> Bool {
            (Self.json(data)?["artifacts"] as? [Any])?.count == count
        }
        let first = try await BinaryTests.execute(["run", "--format", "json", "-o", report, small.path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(complete(FileManager.default.contents(atPath: report), artifacts: 2))
        // One whole run of the big folder, elsewhere, to spread the kills over (not asserted on).
        let started = Date()
        let whole = try await BinaryTests.execute(["run", "--format", "json", "-o", out.path + "/whole.json", big.path])
        let seconds = Date().timeIntervalSince(started)
        #expect(whole.status == 0, "\(whole.stderr)")
        let wholeData = try #require(FileManager.default.contents(atPath: out.path + "/whole.json"))
        #expect(complete(wholeData, artifacts: 500))
        #expect(wholeData.count > 300_000)

        var attempts: [Attempt] = []
        for moment in Self.moments(overRunOf: seconds) {
            let before = try #require(FileManager.default.contents(atPath: report))
            let attempt = try await Self.startAndKill(
                ["run", "--format", "json", "-o", report, big.path], input: nil, workingDirectory: here.path,
                folder: out.path, name: "report.json", at: moment)
            attempts.append(attempt)
            let after = FileManager.default.contents(atPath: report)
            #expect(after == before || complete(after, artifacts: 500), "\(moment): \(after?.count ?? -1) bytes")
            // Only the report, the whole run's and the killed writes' hidden temporary files.
            #expect(Self.temporaries(out.path, names: ["report.json"], others: ["whole.json"]) != nil)
        }
        #expect(attempts.contains { $0.killed })
        // The kills that landed between open and rename (usually all of the `temporaryAppears` ones).
        #expect(attempts.contains { $0.killed && $0.leftTemporary }, "no kill landed during the write")
        // (A write that completes sweeps the leftovers of the killed ones before it: some may be gone already.)

        // A run over the folder with the leftovers does not read them (hidden), and the next write sweeps them.
        let scan = try await BinaryTests.execute(["run", "--format", "json", out.path])
        let sources = (Self.json(Data(scan.stdout.utf8))?["artifacts"] as? [[String: Any]])?.compactMap {
            $0["source"] as? String
        }
        #expect(sources?.count == 2, "\(scan.stdout.prefix(300))")
        #expect(sources?.contains { $0.contains(".memhunt-") } == false)
        let last = try await BinaryTests.execute(["run", "--format", "json", "-o", report, big.path])
        #expect(last.status == 0, "\(last.stderr)")
        #expect(complete(FileManager.default.contents(atPath: report), artifacts: 500))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == ["report.json", "whole.json"])
    }

    @Test func aTriageSessionKilledMidWriteLeavesThePreviousSessionOrTheWholeNewOne() async throws {
        let small = try Self.artifacts(copies: 1), big = try Self.artifacts(copies: 40)
        let out = try TemporaryDirectory(), here = try TemporaryDirectory()
        defer { for folder in [small, big, out, here] { folder.remove() } }
        let session = out.path + "/session.json"
        // The words, then Enter at every question: every step accepts what it proposes.
        let answers = "it was killed in the background\n" + String(repeating: "\n", count: 30)
        func arguments(_ folder: String) -> [String] {
            [
                "triage", "--session", session, "--playbook", "memory-hunt", "--app", "Heavy", "--format", "json",
                "-o", out.path + "/triage.json", folder,
            ]
        }
        func complete(_ data: Data?, operand: String) -> Bool {
            guard let state = Self.json(data) else { return false }
            // Paths relative to the session's folder (issue 26): the operands are beside `out`.
            let recorded = "../" + (operand as NSString).lastPathComponent
            return state["schema"] as? String == "memhunt.triage/2" && state["operands"] as? [String] == [recorded]
                && state["session"] is [String: Any]
        }

        let started = Date()
        let first = try await Self.startAndKill(
            arguments(small.path), input: answers, workingDirectory: here.path, folder: out.path,
            name: "session.json", at: .never)
        let seconds = Date().timeIntervalSince(started)
        #expect(!first.killed)
        #expect(complete(FileManager.default.contents(atPath: session), operand: small.path))

        var attempts: [Attempt] = []
        for moment in Self.moments(overRunOf: seconds * 4) {
            let before = try #require(FileManager.default.contents(atPath: session))
            let attempt = try await Self.startAndKill(
                arguments(big.path), input: answers, workingDirectory: here.path, folder: out.path,
                name: "session.json", at: moment)
            attempts.append(attempt)
            let after = FileManager.default.contents(atPath: session)
            #expect(
                after == before || complete(after, operand: big.path), "\(moment): \(after?.count ?? -1) bytes")
            #expect(Self.temporaries(out.path, names: ["session.json", "triage.json"]) != nil)
        }
        #expect(attempts.contains { $0.killed })
        #expect(attempts.contains { $0.killed && $0.leftTemporary }, "no kill landed during a save")

        // Resuming the last saved session works, and its saves and its report sweep what the killed ones left.
        let resumed = try await Self.startAndKill(
            ["triage", "--resume", session], input: String(repeating: "\n", count: 30),
            workingDirectory: here.path, folder: out.path, name: "session.json", at: .never)
        #expect(!resumed.killed)
        #expect(Self.json(FileManager.default.contents(atPath: session))?["finished"] as? Bool == true)
        #expect(Self.temporaries(out.path, names: ["session.json", "triage.json"]) == [])
    }
}
