import Foundation
import MemhuntCore
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// The JUnit report validates against the schema Jenkins and GitLab read, for every fixture folder.
@Suite(.serialized) struct JUnitReportTests {
    @Test(arguments: FindingsModelTests.folders.map(\.folder))
    func reportValidatesAgainstTheSchema(_ folder: String) async throws {
        let entry = try #require(FindingsModelTests.folders.first { $0.folder == folder })
        var arguments = ["run", "--playbook", entry.playbook, "--format", "junit", "Fixtures/" + folder]
        if let app = entry.app { arguments += ["--app", app] }
        let run = await memhunt(arguments)
        try await validate(run.stdout)
    }

    @Test func findingsAtTheGateAreFailuresAndTheRestIsOutput() async throws {
        let run = await memhunt("run", "--app", "JustSend", "--format", "junit", "Fixtures/justsend")
        let xml = run.stdout
        try await validate(xml)
        #expect(xml.contains(#"<testsuites name="memhunt: The eight-step memory hunt (JustSend)" tests="#))
        #expect(xml.contains(#"failures="7" errors="0">"#), "7 warnings at the default threshold")
        #expect(
            xml.contains(#"<testcase name="jetsam-record/jetsam-rank" classname="memhunt.memory-hunt.jetsam-record">"#))
        #expect(
            xml.contains(
                #"<failure type="jetsam-rank.high-rank" message="warning: JustSend ranked 7 of 16 processes by lifetime peak (725 MB)">"#
            ))
        #expect(xml.contains("evidence: Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips#/processes/4/lifetimeMax"))
        #expect(xml.contains("[notice] JustSend 725 MB vs ChatGPT 362 MB"))
        #expect(xml.contains(#"<property name="jetsam.compressions" value="15,734,833"/>"#))
        // --fail-on critical: nothing fails; --fail-on notice: the notices too.
        let critical = await memhunt(
            "run", "--app", "JustSend", "--format", "junit", "--fail-on", "critical", "Fixtures/justsend")
        #expect(critical.stdout.contains(#"failures="0" errors="0">"#))
        let notice = await memhunt(
            "run", "--app", "JustSend", "--format", "junit", "--fail-on", "notice", "Fixtures/justsend")
        #expect(notice.stdout.contains(#"failures="11" errors="0">"#))
        try await validate(notice.stdout)
    }

    /// Runs Tests/Support/validate_junit.py (xmllint with the schema, unique names, counts).
    func validate(_ xml: String) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("report.xml", xml)
        let python = try #require(Tool.which("python3"), "python3 is needed: run scripts/setup")
        let result = try await Tool.run(python, ["Tests/Support/validate_junit.py", dir.path + "/report.xml"])
        #expect(result.status == 0, "\(result.stderr)\n\(xml.prefix(3000))")
    }
}
