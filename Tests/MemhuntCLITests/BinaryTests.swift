import Foundation
import MemhuntTestSupport
import Testing

/// Bytes handed from a reading thread.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value } }
    func get() -> Data { lock.withLock { data } }
}

/// The built `memhunt` executable, run as a separate process: signals and exit codes are real here.
@Suite struct BinaryTests {
    static var binary: String? {
        let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [dir, dir.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("memhunt").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Runs the binary on a thread of its own: blocking the cooperative pool (two threads on two cores) here
    /// stalled every async test for as long as the binary ran (process-check timeouts measured 30 s).
    /// `stdin` and `stdout`: paths to open as the binary's standard input (such as `/dev/zero`) or output (such
    /// as `/dev/full`) instead of the pipes; what goes to a path is not captured.
    static func execute(
        _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil, stdout: String? = nil
    ) async throws -> (
        reason: Process.TerminationReason, status: Int32, stdout: String, stderr: String
    ) {
        let binary = try #require(binary)
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        try executeBlocking(
                            binary, arguments, environment: environment, stdin: stdin, stdout: stdout)
                    })
            }
        }
    }

    private static func executeBlocking(
        _ binary: String, _ arguments: [String], environment: [String: String], stdin: String?, stdout: String?
    ) throws -> (reason: Process.TerminationReason, status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: Repo.root)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let out = Pipe(), err = Pipe()
        let input = try stdin.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) }
        let output = try stdout.map { try FileHandle(forWritingTo: URL(fileURLWithPath: $0)) }
        defer {
            try? input?.close()
            try? output?.close()
        }
        if let input { process.standardInput = input }
        process.standardOutput = output ?? out
        process.standardError = err
        try process.run()
        // Drain stderr on its own thread so neither pipe fills while the other is read.
        let stderrData = LockedData()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            stderrData.set(err.fileHandleForReading.readDataToEndOfFile())
            done.signal()
        }
        let stdout = output == nil ? out.fileHandleForReading.readDataToEndOfFile() : Data()
        done.wait()
        let stderr = stderrData.get()
        process.waitUntilExit()
        return (
            process.terminationReason, process.terminationStatus, String(decoding: stdout, as: UTF8.self),
            String(decoding: stderr, as: UTF8.self)
        )
    }

    @Test(
        .enabled(
            if: binary != nil && Repo.realworld != nil, "the binary or shared/realworld beside the checkout is missing")
    )
    func inspectEveryRealWorldFileWithoutASignal() async throws {
        let root = try #require(Repo.realworld)
        let files = try FileManager.default.subpathsOfDirectory(atPath: root)
            .filter { !$0.hasSuffix(".md") }.map { root + "/" + $0 }
            .filter {
                var d: ObjCBool = false;
                return FileManager.default.fileExists(atPath: $0, isDirectory: &d) && !d.boolValue
            }
        #expect(files.count >= 35)
        let run = try await Self.execute(["inspect"] + files)
        #expect(run.reason == .exit)
        #expect(run.status == 0)
        #expect(run.stdout.components(separatedBy: "   kind: ").count - 1 == files.count)
        let json = try await Self.execute(["inspect", "--format", "json", root])
        #expect(json.reason == .exit)
        #expect(json.status == 0)
    }

    @Test(.enabled(if: binary != nil))
    func exitStatusesOfTheRealBinary() async throws {
        #expect(try await Self.execute(["run", "--app", "JustSend", "Fixtures/justsend"]).status == 0)
        #expect(
            try await Self.execute(["run", "--app", "JustSend", "--fail-on", "warning", "Fixtures/justsend"]).status
                == 1)
        #expect(try await Self.execute(["validate", "Fixtures/playbooks/invalid/misspelled-key.yaml"]).status == 2)
        #expect(try await Self.execute(["run", "--bogus"]).status == 64)
        // Bad input never crashes the binary; operands that cannot be used are exit 2 after the report.
        let random = try await Self.execute(["run", "Fixtures/bad", "/dev/null"])
        #expect(random.reason == .exit)
        #expect(random.status == 2)
    }

    /// HTTPS end to end through the binary (libcurl, loaded on first use), and the binary that does not link
    /// libcurl, so that a run without a URL never loads it.
    @Test(.enabled(if: binary != nil && FaultServer.available))
    func httpsArtifactsThroughTheBinaryTrustOnlyTheGivenCA() async throws {
        #if os(Linux)
            let libraries = try await Tool.run("/usr/bin/ldd", [try #require(Self.binary)])
            #expect(libraries.status == 0)
            #expect(!libraries.stdout.contains("libcurl"))
            #expect(libraries.stdout.contains("libcrypto"))
        #endif
        let tls = try TemporaryDirectory()
        defer { tls.remove() }
        let server = try await FaultServer(root: Repo.fixture("justsend"), tls: tls.path)
        defer { server.stop() }
        let url = server.url("JetsamEvent-2026-08-11-112056.ips").absoluteString
        let trusted = try await Self.execute(
            ["run", "--app", "JustSend", "--format", "json", url], environment: ["SSL_CERT_FILE": tls.path + "/ca.pem"])
        #expect(trusted.status == 0, "\(trusted.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(trusted.stdout.utf8)) as? [String: Any])
        let facts = try #require(document["facts"] as? [String: Any])
        #expect(facts["jetsam.app.peakMB"] as? Double == 725)
        #expect(facts["jetsam.app.rank"] as? Int == 7)

        let untrusted = try await Self.execute(["run", "--app", "JustSend", url], environment: ["SSL_CERT_FILE": ""])
        #expect(untrusted.status == 2)
        #expect(
            untrusted.stderr.contains(
                "\(url): TLS failure (CURLcode 60: the server's certificate is not trusted or not for this host)"))
    }
}
