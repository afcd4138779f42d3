import Foundation

/// External programs the report tests use (xmllint, python3, chromium): found on PATH, run with an argv.
public enum Tool {
    /// The full path of `name` on PATH, if it is there.
    public static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = String(directory) + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Whether `python3` can import `module` (a PyPI package `scripts/setup --tests` installs): tests that need
    /// one are enabled on it, and skipped by name without it.
    public static func pythonHas(_ module: String) -> Bool {
        guard let python = which("python3") else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", "import " + module]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Runs `executable` with `arguments` from the repository root; stdout and stderr captured.
    ///
    /// The waiting happens on dedicated threads, never on the cooperative pool: with two cores, a test
    /// blocked on Chromium for seconds would stall every other suite (and their timing assertions).
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:]
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do {
                    continuation.resume(returning: try runBlocking(executable, arguments, environment: environment))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Starts `executable` in `directory` with `input` written to its stdin and then closed (nothing on stdin
    /// when nil), stdout to `stdout` (the null device by default), stderr to the null device. The caller waits.
    public static func start(
        _ executable: String, _ arguments: [String], directory: String = Repo.root, input: String? = nil,
        stdout: Any = FileHandle.nullDevice
    ) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        return process
    }

    private final class Box: @unchecked Sendable {
        var data = Data()
    }

    private static func runBlocking(
        _ executable: String, _ arguments: [String], environment: [String: String]
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: Repo.root)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Drain stderr on its own thread so neither pipe fills while the other is read.
        let stderr = Box()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            stderr.data = err.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: stdout, as: UTF8.self),
            String(decoding: stderr.data, as: UTF8.self)
        )
    }
}
