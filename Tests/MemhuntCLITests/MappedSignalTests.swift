import Foundation
import MemhuntTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Change logs are read through mappings whose lost pages a SIGBUS handler fills with zeros
/// (`CMappedFile`). That handler takes faults on those pages only: a SIGBUS sent by `kill` while a log is
/// mapped ends memhunt as it did before there was a handler (by default: a release build has no other).
/// Linux only: the test waits for the mapping in `/proc/<pid>/maps`.
#if os(Linux)
    @Suite(.enabled(if: BinaryTests.binary != nil, "needs the built binary"))
    struct MappedSignalTests {
        @Test func aSIGBUSSentWhileALogIsMappedEndsTheProcess() throws {
            let binary = try #require(BinaryTests.binary)
            let dir = try TemporaryDirectory()
            defer { dir.remove() }
            // 100 KB of change lines, then a hole to 1 GiB: read as zeros, about a second of hashing.
            try dir.write("sparse.log", String(repeating: "RootView: @self changed.\n", count: 4_000))
            let path = dir.path + "/sparse.log"
            try #require(truncate(path, 1 << 30) == 0)
            // Without the Swift runtime's backtracer, whose handler (a debug build's disposition before ours)
            // prints "Program crashed" for a sent signal and returns, and the run goes on.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["inspect", "--format", "json", path]
            process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) {
                _, new in new
            }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let pid = process.processIdentifier
            // The signal goes once the log is mapped (its name in /proc/<pid>/maps), when the handler is in.
            var mapped = false
            let until = Date().addingTimeInterval(60)
            while process.isRunning && Date() < until && !mapped {
                mapped =
                    (try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8))?.contains("sparse.log") ?? false
                if !mapped { usleep(500) }
            }
            if process.isRunning { kill(pid, SIGBUS) }
            process.waitUntilExit()
            #expect(mapped, "the log was never seen mapped")
            #expect(process.terminationReason == .uncaughtSignal)
            #expect(process.terminationStatus == SIGBUS)
        }
    }
#endif
