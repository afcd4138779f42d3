import Foundation
import MemhuntCore
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// Every sentence true on real files, round three: what a file says, counted once.
@Suite struct TruthRoundThreeTests {
    /// A limit and its default are a check's settings, never facts of a measurements file.
    @Test func inspectShowsWhatTheFileSaysNotTheSettings() async throws {
        let run = await memhunt("inspect", "Fixtures/widget/measurements-widget.csv")
        #expect(run.status == 0)
        #expect(run.stdout.contains("budget.footprintMB = 26.4 MB"))
        #expect(!run.stdout.contains("budget.limitMB"))
        #expect(!run.stdout.contains("budget.ceilingMB"))
        // In a run they are context the findings compare against, and stay.
        let hunt = await memhunt("run", "--playbook", "widget-budget", "Fixtures/widget")
        #expect(hunt.stdout.contains("budget.limitMB = 30 MB"))
    }

    /// The same bytes given twice (a folder and a file in it) are one piece of evidence, and the second
    /// mention says so.
    @Test func theSameFileTwiceIsCountedOnce() async throws {
        let jetsam = "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips"
        let run = await memhunt("run", "--app", "JustSend", "--format", "json", "Fixtures/justsend", jetsam)
        let document = try FindingsDocument.decode(Array(run.stdout.utf8))
        #expect(document.facts["jetsam.records"] == 1)
        let copies = document.artifacts.filter { $0.source == jetsam }
        #expect(copies.count == 2)
        #expect(copies.filter { $0.duplicateOf != nil }.count == 1)
        #expect(
            copies.last?.diagnostics == ["the same bytes as \(jetsam) (sha256): counted once, as that one"])
        let once = await memhunt("run", "--app", "JustSend", "--format", "json", "Fixtures/justsend")
        let single = try FindingsDocument.decode(Array(once.stdout.utf8))
        #expect(document.verdict == single.verdict)
        #expect(document.findings.map(\.title) == single.findings.map(\.title))
    }
}

extension TruthRoundThreeTests {
    /// `--app` that matches nothing read, while a file that could not be read names it: said, and not exit 2.
    @Test func anAppNamedOnlyInAnUnreadFileIsNotAFailure() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(
            "issue-paste.txt", "From the issue: ShareExtension crashed right after launch, see the log below.\n")
        try directory.write("JetsamEvent.ips", try Repo.bytes("justsend/JetsamEvent-2026-08-11-112056.ips"))
        let named = await memhunt("run", "--app", "ShareExtension", directory.path)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdout.contains("1 file given could not be read, so what it holds is not known: issue-paste.txt"))
        // Without a JetsamEvent (which lists every living process) an app no artifact names is a usage error.
        try FileManager.default.removeItem(atPath: directory.path + "/JetsamEvent.ips")
        try directory.write("JustSend.ips", try Repo.bytes("watchdog/JustSend-2026-08-13-224107.ips"))
        let nowhere = await memhunt("run", "--app", "Nowhere", directory.path)
        #expect(nowhere.status == 2)
        #expect(nowhere.stderr.contains("--app Nowhere matches nothing in any artifact read"))
        #expect(nowhere.stderr.contains("(1 file could not be read)"))
    }
}
