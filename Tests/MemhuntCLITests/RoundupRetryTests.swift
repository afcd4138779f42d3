import Foundation
import MemhuntTestSupport
import Testing

/// The retry policy against a real server's own rate limit: Roundup (PyPI `roundup`, `scripts/setup --tests`
/// installs it) on 127.0.0.1, its REST API limited to a few calls per interval, serving artifacts attached to
/// the tracker as files (`Tests/Support/roundup_server.py`). Roundup answers a call past the limit with 429
/// and its own `Retry-After`; memhunt waits that long and reads the file, or, when the wait asked for is longer
/// than it waits, names the artifact with the 429 and the wait and goes on with the rest.
@Suite(.enabled(if: FaultServer.available && Tool.pythonHas("roundup"), "needs python3 with roundup"))
struct RoundupRetryTests {
    static let password = "rt-pass-5d1e93"

    init() { setenv("no_proxy", "127.0.0.1,localhost", 1) }

    /// A tracker home (`home/tracker`, made by the script) holding `files` as file items 1, 2, …
    func start(_ home: TemporaryDirectory, calls: Int, interval: Int, files: [String]) async throws -> FaultServer {
        try await FaultServer(
            script: "roundup_server.py",
            arguments: [
                "--home", home.path + "/tracker", "--password", Self.password, "--calls", String(calls),
                "--interval", String(interval),
            ] + files.flatMap { ["--file", Repo.fixture($0)] })
    }

    /// A file item's raw bytes, with the admin's credentials in the URL (sent as Basic auth, never printed).
    func url(_ server: FaultServer, _ item: Int) -> String {
        "http://admin:\(Self.password)@127.0.0.1:\(server.port)/rest/data/file/\(item)/binary_content"
    }

    /// The access log's statuses per path, in order.
    func statuses(_ home: TemporaryDirectory) throws -> [String: [Int]] {
        let log = try String(contentsOfFile: home.path + "/tracker/access.log", encoding: .utf8)
        var statuses: [String: [Int]] = [:]
        for line in log.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 3, let status = Int(parts[2]) else { continue }
            statuses[String(parts[1]), default: []].append(status)
        }
        return statuses
    }

    func document(_ json: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    /// Three files, two calls per 24 s (a call's slot comes back 12 s after it): the third download is refused
    /// with 429 and a `Retry-After` of up to 12 s, waited on, and read; the hunt has JustSend's jetsam facts as
    /// from local files. Two calls per 6 s was not enough on a clean clone's CI: its starved test pool spread
    /// the three downloads more than 3 s apart, and none was refused.
    @Test func aRateLimitedDownloadIsWaitedOnAndRead() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let files = [
            "justsend/JetsamEvent-2026-08-11-112056.ips", "justsend/drawer-before.log", "justsend/drawer-after.log",
        ]
        let server = try await start(home, calls: 2, interval: 24, files: files)
        defer { server.stop() }
        let started = Date()
        let run = await memhunt(
            "run", "--app", "JustSend", "--format", "json", url(server, 1), url(server, 2), url(server, 3))
        let seconds = Date().timeIntervalSince(started)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains(Self.password) && !run.stderr.contains(Self.password))
        let document = try document(run.stdout)
        let facts = try #require(document["facts"] as? [String: Any])
        #expect(facts["jetsam.app.peakMB"] as? Double == 725)
        #expect(facts["jetsam.app.rank"] as? Double == 7)
        let artifacts = try #require(document["artifacts"] as? [[String: Any]])
        #expect(artifacts.map { $0["status"] as? String } == ["ok", "ok", "ok"])
        #expect(artifacts.map { $0["kind"] as? String } == ["jetsam-event", "change-log", "change-log"])
        // Roundup refused at least one call with 429 and served every file in the end.
        let statuses = try statuses(home)
        let refused = statuses.values.reduce(0) { $0 + $1.filter { $0 == 429 }.count }
        #expect(refused >= 1, "\(statuses)")
        for item in 1...3 {
            #expect(statuses["rest/data/file/\(item)/binary_content"]?.last == 200, "\(statuses)")
        }
        // The wait Roundup asked for was made: the third call came back no sooner than its slot did.
        #expect(seconds >= 5, "\(seconds) s")
    }

    /// One call per hour: the second download gets `Retry-After` near 3600 s, more than memhunt's 30 s cap. It
    /// is not tried again (one 429 in the log), the artifact is named with the status and the wait, and the
    /// rest of the run goes on with the file that was read; the exit status says the hunt was not done as asked.
    @Test func aWaitLongerThanTheCapIsNamedNotRetried() async throws {
        let home = try TemporaryDirectory()
        defer { home.remove() }
        let server = try await start(
            home, calls: 1, interval: 3600,
            files: ["justsend/JetsamEvent-2026-08-11-112056.ips", "justsend/drawer-before.log"])
        defer { server.stop() }
        let run = await memhunt("run", "--app", "JustSend", "--format", "json", url(server, 1), url(server, 2))
        // An operand that could not be read: the hunt was not done as asked (2), and stderr says why.
        #expect(run.status == 2)
        #expect(run.stderr.contains("binary_content: HTTP 429 Too Many Requests; the server asked for a wait of"))
        #expect(!run.stdout.contains(Self.password) && !run.stderr.contains(Self.password))
        // Not tried again: one 429 in Roundup's log (retries would have added a 429 each, 30 s apart).
        let statuses = try statuses(home)
        #expect(statuses.values.flatMap { $0 }.sorted() == [200, 429], "\(statuses)")
        let document = try document(run.stdout)
        let artifacts = try #require(document["artifacts"] as? [[String: Any]])
        let refused = try #require(artifacts.first { $0["status"] as? String != "ok" }, "\(artifacts)")
        let error = try #require((refused["diagnostics"] as? [String])?.first)
        #expect(refused["httpStatus"] as? Int == 429)
        #expect(error.contains("HTTP 429 Too Many Requests"), "\(error)")
        #expect(
            error.contains("(Retry-After), longer than the 30 s memhunt waits, so it did not try again"), "\(error)")
        #expect(error.contains("a wait of 3600 s") || error.contains("a wait of 3599 s"), "\(error)")
        #expect(artifacts.filter { $0["status"] as? String == "ok" }.count == 1)
    }
}
