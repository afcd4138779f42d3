import Foundation
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// Seed 002's CI gate straight from the test run: `memhunt run --playbook widget-budget` on the `xcodebuild
/// test` log of an XCTMemoryMetric test.
@Suite struct XCTestGateTests {
    @Test func aMemoryMetricOverTheCeilingFailsTheGateWithTheTestAndTheNumber() async throws {
        let over = await memhunt(
            "run", "--playbook", "widget-budget", "--fail-on", "warning",
            "Fixtures/xctest/xcodebuild-widget-ceiling.log")
        #expect(over.status == 1)
        #expect(
            over.stdout.contains(
                "-[JustSendWidgetTests.TimelineMemoryTests testSystemLargeTimeline] is over its 24 MB ceiling: 26.4 MB, "
                    + "3.6 MB under the 30 MB limit"))
        let under = await memhunt(
            "run", "--playbook", "widget-budget", "--fail-on", "warning", "Fixtures/xctest/xcodebuild-widget-under.log")
        #expect(under.status == 0, "\(under.stderr)")
        #expect(under.stdout.contains("xctest.memoryPeakMB = 14.3 MB"))
    }

    /// Its own baseline: over maxPercentRegression is a regression, laid out as before → after.
    @Test func aBaselineRegressionIsAComparison() async throws {
        let run = await memhunt(
            "run", "--format", "markdown", "--playbook", "widget-budget",
            "Fixtures/xctest/xcodebuild-baseline-regressed.log")
        #expect(run.stdout.contains("19.1 MB → 22.9 MB against its baseline (+20.2 %, allowed 10 %)"))
        #expect(run.stdout.contains("| fix | 19.1 MB (Local Baseline) | 22.9 MB (this run (average)) | 20.2 % |"))
    }

    /// `inspect` shows what the file says, not the gate's settings.
    @Test func inspectShowsTheMetricNotTheCeiling() async throws {
        let run = await memhunt("inspect", "Fixtures/xctest/xcresult-metrics-memory.json")
        #expect(run.stdout.contains("kind: xctest-metrics"))
        #expect(run.stdout.contains("xctest.memoryPeakMB = 26.4 MB"))
        #expect(!run.stdout.contains("xctest.ceilingMB"))
    }

    /// A result bundle is one artifact that says which command exports what memhunt reads, never its
    /// database files as artifacts of no known kind.
    @Test func aResultBundleSaysHowToExportIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try FileManager.default.createDirectory(
            atPath: directory.path + "/Tests.xcresult/Data", withIntermediateDirectories: true)
        try directory.write("Tests.xcresult/Info.plist", "<plist/>")
        try directory.write("Tests.xcresult/Data/data.0~abc", "database")
        let run = await memhunt("run", "--playbook", "widget-budget", "--format", "json", directory.path)
        let document = try FindingsDocument.decode(Array(run.stdout.utf8))
        #expect(document.artifacts.count == 1)
        let bundle = try #require(document.artifacts.first)
        #expect(bundle.kind == .xctestMetrics && bundle.status == .error)
        #expect(
            bundle.diagnostics.first?.contains(
                "xcrun xcresulttool get test-results metrics --path Tests.xcresult > metrics.json") == true)
    }
}
