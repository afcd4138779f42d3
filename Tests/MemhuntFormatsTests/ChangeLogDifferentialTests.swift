import Foundation
import MemhuntTestSupport
import Testing

@testable import MemhuntFormats

/// The change-log scanner against a reference counter written apart from it (Benchmarks/changelog_gen.py:
/// Python's `json`, `re` and `datetime` on the scanner's documented grammar), on logs shaped like real ones
/// (issue 30): 200 long and generic views, 1-4 of ~30 properties a line in any order, other subsystems' lines,
/// bursts and gaps, several threads and processes, a few malformed lines. Small generated inputs (256 KiB a
/// style); `Benchmarks/run.py` compares the same counts on 1 GiB.
@Suite(.enabled(if: Tool.which("python3") != nil, "needs python3")) struct ChangeLogDifferentialTests {
    static let generator = Repo.root + "/Benchmarks/changelog_gen.py"

    /// The reference counter's figures and the scanner's, for a fresh log of `style`.
    func compare(_ style: String, seed: Int) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "memhunt-changelog-diff-\(ProcessInfo.processInfo.processIdentifier)-\(style)-\(seed)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("log").path
        let write = try await Tool.run(
            "/usr/bin/env",
            ["python3", Self.generator, "write", path, "--style", style, "--size-mb", "0.25", "--seed", "\(seed)"])
        #expect(write.status == 0, "\(write.stderr)")
        let count = try await Tool.run("/usr/bin/env", ["python3", Self.generator, "count", path, "--style", style])
        #expect(count.status == 0, "\(count.stderr)")
        let reference = try #require(
            try JSONSerialization.jsonObject(with: Data(count.stdout.utf8)) as? [String: Any])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))

        // Whole, in 4 KiB chunks, and with caches of 64 tails (emptied again and again): the same summary.
        var whole = ChangeLogScanner()
        whole.feed(bytes[...])
        let summary = whole.finish()
        var chunked = ChangeLogScanner(lineCap: 65_536, cacheCapacity: 64)
        var offset = 0
        while offset < bytes.count {
            chunked.feed(bytes[offset..<min(bytes.count, offset + 4096)])
            offset += 4096
        }
        #expect(chunked.finish() == summary, "\(style): small caches and chunks change the summary")
        // The lines of a log like a real one rarely repeat: with caches of 64 tails (windows of 16 lines) the
        // scanner leaves them alone for stretches, and counts the same; the whole scan's caches (windows of
        // 4,096 lines) stay on in a log this small.
        #expect(chunked.bypassed > 100, "\(style): \(chunked.bypassed) lines parsed past the caches")
        #expect(whole.bypassed == 0)
        // Read in two parts (a large log's way), cut after a line at a quarter, half and three quarters: the same
        // summary, the second part absorbed or (inside a `--style json` record) read again by the first.
        for quarter in 1...3 {
            let cut = try #require(bytes[(bytes.count * quarter / 4)...].firstIndex(of: 10)) + 1
            var first = ChangeLogScanner(part: .first)
            first.feed(bytes[..<cut])
            var second = ChangeLogScanner(part: .rest)
            second.feed(bytes[cut...])
            if !first.absorb(second) { first.feed(bytes[cut...]) }
            let parts = first.finish()
            #expect(parts == summary, "\(style): cut after byte \(cut)")
        }

        #expect(summary.evaluations == reference["evaluations"] as? Int, "\(style)")
        #expect(summary.evaluations > 200, "\(style): the log holds change lines")
        #expect(summary.unchangedCount == reference["unchanged"] as? Int, "\(style)")
        #expect(summary.bursts == reference["bursts"] as? Int, "\(style)")
        #expect(summary.views == reference["views"] as? [String: Int], "\(style)")
        #expect(summary.itemCounts == reference["items"] as? [String: [String: Int]], "\(style)")
        #expect(summary.selfChangedByView == reference["selfChanged"] as? [String: Int], "\(style)")
        #expect(summary.processes == reference["processes"] as? [String: Int], "\(style)")
    }

    @Test func consoleLogAgreesWithTheReference() async throws { try await compare("console", seed: 30) }
    @Test func ndjsonLogAgreesWithTheReference() async throws { try await compare("ndjson", seed: 31) }
    @Test func jsonLogAgreesWithTheReference() async throws { try await compare("json", seed: 32) }
}
