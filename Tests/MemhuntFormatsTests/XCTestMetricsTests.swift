import Foundation
import MemhuntFormats
import MemhuntTestSupport
import Testing

/// XCTest performance metrics from the tools' own output: an `xcodebuild test` log and
/// `xcresulttool get test-results metrics` JSON.
@Suite struct XCTestMetricsTests {
    static func metrics(_ bytes: [UInt8]) throws -> XCTestMetrics {
        let outcome = ArtifactReader.read(bytes)
        #expect(outcome.kind == .xctestMetrics)
        guard case .repro(.xctestMetrics(let set)) = try outcome.result.get() else {
            throw Failure("not XCTest metrics")
        }
        return set
    }

    @Test func anXcodebuildLogGivesEachMetricLine() throws {
        let set = try Self.metrics(try Repo.bytes("xctest/xcodebuild-baseline-regressed.log"))
        #expect(set.source == .xcodebuildLog)
        #expect(set.testsStarted == 1)
        let metric = try #require(set.metrics.first)
        #expect(metric.test == "-[JustSendWidgetTests.TimelineMemoryTests testSystemMediumTimeline]")
        #expect(metric.identifier == "com.apple.dt.XCTMetric_Memory-dev.memhunt.JustSend.JustSendWidget.physical_peak")
        #expect(metric.displayName == "Memory Peak Physical" && metric.unit == "kB")
        #expect(metric.values == [24000, 24102, 23988, 24010, 24050])
        #expect(metric.average == 24030 && metric.baselineAverage == 20000 && metric.baselineName == "Local Baseline")
        #expect(metric.maxPercentRegression == 10 && metric.polarity == "prefers smaller" && metric.line == 7)
        #expect(metric.isMemory && metric.bytesPerUnit == 1000)
    }

    /// `nan` and a cut line are named with their line, never read as a number.
    @Test func aBrokenMetricLineIsNamed() throws {
        let set = try Self.metrics(try Repo.bytes("xctest/xcodebuild-broken-metric.log"))
        #expect(set.metrics.isEmpty)
        #expect(set.unreadable == ["line 3: Memory Peak Physical: value 'nan' is not a number"])
        let cut = Array(
            "Test Case '-[A b]' measured [Memory Physical, kB] average: 1.0, values: [1.0".utf8)
        let partial = try Self.metrics(cut)
        #expect(partial.unreadable.first?.hasPrefix("line 1: Memory Physical: no performanceMetricID") == true)
    }

    @Test func resultMetricsJSONGivesEveryRunAndDevice() throws {
        let set = try Self.metrics(try Repo.bytes("xctest/xcresult-metrics-memory.json"))
        #expect(set.source == .resultMetrics)
        #expect(set.metrics.count == 2)
        let memory = try #require(set.metrics.first { $0.isMemory })
        #expect(memory.test == "TimelineMemoryTests/testSystemLargeTimeline()" && memory.device == "iPhone 16")
        #expect(memory.values.max() == 27680 && memory.baselineAverage == nil)
        #expect(!set.metrics[1].isMemory && set.metrics[1].unit == "s")
    }

    @Test(.enabled(if: Repo.realworld != nil)) func theRealXcodebuildAndXcresultSamplesRead() throws {
        let base = try #require(Repo.realworld) + "/xcode-tests/"
        let log = try Self.metrics(
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: base + "xcodebuild-measured-EXCERPT.log"))))
        let metric = try #require(log.metrics.first)
        #expect(
            metric.test == "-[SpecificationKitTests.AnySpecificationPerformanceTests testWrappedSpecificationOverhead]")
        #expect(metric.values == [23085.728, 23102.112, 23102.112, 23151.264, 23200.416])
        #expect(metric.average == 23128.326 && metric.baselineAverage == nil && metric.maxPercentRegression == 10)
        #expect(metric.identifier == "com.apple.dt.XCTMetric_Memory.physical_peak")
        let json = try Self.metrics(
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: base + "xcresulttool-metrics-EXCERPT.json"))))
        let launch = try #require(json.metrics.first)
        #expect(launch.identifier == "com.apple.dt.XCTMetric_ApplicationLaunch-AppLaunch.duration")
        #expect(launch.device == "iPhone 16e" && launch.unit == "s" && launch.values.count == 5 && !launch.isMemory)
    }
}
