import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `Tests/Support/fault_server.py` running on 127.0.0.1 with a free port; `stop()` it when done.
public final class FaultServer {
    /// Whether `python3` is on the PATH (tests that need the server are enabled on it).
    public static let available: Bool = locatePython() != nil

    /// The port the server bound.
    public let port: Int
    /// `https` when started with `tls:`.
    public private(set) var scheme = "http"
    private let process: Process
    private let input: Pipe

    /// Starts the server over `root` and waits for it to report its port.
    public convenience init(root: String) async throws {
        try await self.init(script: "fault_server.py", arguments: ["--root", root])
    }

    /// Starts the server over `root` serving HTTPS: it writes a test CA to `tls/ca.pem` and a certificate it
    /// signs for `names` (subjectAltName syntax).
    public convenience init(root: String, tls: String, names: String = "IP:127.0.0.1,DNS:localhost") async throws {
        try await self.init(
            script: "fault_server.py", arguments: ["--root", root, "--tls-dir", tls, "--tls-names", names])
        scheme = "https"
    }

    /// Starts another script of `Tests/Support` that prints its port first (`drop_proxy.py`, the tracker fakes).
    public init(script: String, arguments: [String]) async throws {
        // A proxy from the environment would swallow loopback requests made by URLSession.
        setenv("no_proxy", "127.0.0.1,localhost", 1)
        setenv("NO_PROXY", "127.0.0.1,localhost", 1)
        guard let python = Self.locatePython() else { throw FaultServerError("python3 not found") }
        let process = Process()
        let output = Pipe()
        let input = Pipe()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [Repo.root + "/Tests/Support/" + script] + arguments
        process.standardOutput = output
        // The server exits when this pipe closes, so it cannot outlive a crashed test run.
        process.standardInput = input
        try process.run()
        // Reading blocks until python has started (~0.1 s); off the cooperative pool, which has one thread per core.
        let reader = output.fileHandleForReading
        let line = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var line: [UInt8] = []
                while let byte = try? reader.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {
                    line.append(byte)
                }
                continuation.resume(returning: line)
            }
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw FaultServerError("\(script) printed no port")
        }
        self.port = port
        self.process = process
        self.input = input
    }

    /// `http://127.0.0.1:<port>/<path>` (`https` when serving TLS).
    public func url(_ path: String) -> URL { URL(string: "\(scheme)://127.0.0.1:\(port)/\(path)")! }

    /// The server's request log: `(path, status)` per request, in arrival order.
    public func log() async throws -> [(path: String, status: Int)] {
        let (data, _) = try await URLSession.shared.data(from: url("__log"))
        let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return entries.map { ($0["path"] as? String ?? "", $0["status"] as? Int ?? 0) }
    }

    /// The request targets as received, in arrival order: an absolute URL where a client sent one (as to a
    /// proxy), else the path.
    public func targets() async throws -> [String] {
        let (data, _) = try await URLSession.shared.data(from: url("__log"))
        let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
        return entries.map { $0["target"] as? String ?? "" }
    }

    /// Terminates the server and waits for it to exit.
    public func stop() {
        try? input.fileHandleForWriting.close()
        // SIGKILL, not terminate(): an in-process `memhunt run` sets SIGTERM to ignored (RunCache), children
        // inherit that, and the stdin EOF can be held back by a copy of the pipe in a child spawned meanwhile;
        // waitUntilExit then held a cooperative thread for a minute (a process-timeout test measured 56 s).
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static func locatePython() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { $0 + "/python3" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }
}

/// A failure to start the fault server.
public struct FaultServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
