import Foundation
import MemhuntTestSupport
import Testing

/// `--deadline` bounds the whole download phase (issue 26, defect 11): 50 hanging manifest entries with
/// `--download-timeout 8` took 104 s.
///
/// Through the built binary: in-process, the deadline's timer waits for the test process's cooperative pool,
/// which the other suites keep busy (13.6 s in a full run, 3.2 s alone).
@Suite(.enabled(if: FaultServer.available && BinaryTests.binary != nil, "needs python3 and the built binary"))
struct DeadlineTests {
    init() { setenv("no_proxy", "127.0.0.1,localhost", 1) }

    @Test func twentyHangingDownloadsEndAtTheDeadlineAndTheRestIsKept() async throws {
        let server = try await FaultServer(root: Repo.fixture(""))
        defer { server.stop() }
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let entries =
            [["url": server.url("justsend/drawer-after.log").absoluteString]]
            + (1...20).map { ["url": server.url("hang/\($0)").absoluteString] }
        try dir.write(
            "manifest.json", Array(try JSONSerialization.data(withJSONObject: ["artifacts": entries])))
        let started = Date()
        let run = try await BinaryTests.execute(
            ["run", "--format", "json", "--download-timeout", "8", "--deadline", "3", dir.path + "/manifest.json"],
            environment: ["no_proxy": "127.0.0.1,localhost", "NO_PROXY": "127.0.0.1,localhost"])
        let seconds = Date().timeIntervalSince(started)
        // Without the deadline: 8 s each, four at a time, 40 s. The bound is half that: the test tells a deadline
        // kept from one ignored, not how fast a loaded machine is (in a full run it takes several times longer).
        #expect(seconds < 20, "took \(seconds) s")
        // The manifest was read: its entries that could not be fetched are listed, as a 404 entry is.
        #expect(run.status == 0, "\(run.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let artifacts = try #require(document["artifacts"] as? [[String: Any]])
        #expect(artifacts.count == 22)
        #expect(artifacts[1]["status"] as? String == "ok", "what finished is kept")
        let cut = artifacts.dropFirst(2)
        #expect(cut.allSatisfy { $0["status"] as? String == "error" })
        for (offset, artifact) in cut.enumerated() {
            let url = server.url("hang/\(offset + 1)").absoluteString
            #expect(
                (artifact["diagnostics"] as? [String])?.contains("\(url): not fetched: deadline of 3 s passed") == true,
                "\(artifact)")
        }
    }

    @Test func aDeadlineMustBeAWholeNumberOfSeconds() async {
        let run = await memhunt("run", "--deadline", "0", "Fixtures/justsend")
        #expect(run.status == 64)
        #expect(run.stderr.contains("The value '0' is invalid for '--deadline <seconds>': a whole number of seconds"))
    }
}
