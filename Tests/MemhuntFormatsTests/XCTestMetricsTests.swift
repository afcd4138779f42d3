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

    /// Impossible values are named unreadable, as `nan` is: `1e308` became `inf MB`, `-32984.8` −31.5 MB, the
    /// thousands-separated `32,984.8` 0.9 MB, and `0x1p20` was accepted.
    @Test(arguments: [
        ("values: [1e308, 24000]", "value '1e308'"), ("values: [-32984.8, 24000]", "value '-32984.8'"),
        ("values: [32,984.8, 24000]", "value '32,984.8'"), ("values: [0x1p20, 24000]", "value '0x1p20'"),
        ("values: [24000, 24000]", "average '-1.0'"),
    ])
    func anImpossibleValueIsNamedUnreadable(_ values: String, _ named: String) throws {
        let average = named.hasPrefix("average") ? "-1.0" : "24000.0"
        let line =
            "Test Case '-[A b]' measured [Memory Peak Physical, kB] average: \(average), relative standard deviation: "
            + "0.1%, \(values), performanceMetricID:com.apple.dt.XCTMetric_Memory.physical_peak, baselineName: \"\", "
            + "baselineAverage: , polarity: prefers smaller, maxPercentRegression: 10.000%, maxStandardDeviation: 10.000%, "
            + "maxRegression: 0.000, maxStandardDeviation: 0.000\n"
        let set = try Self.metrics(Array(("Test Case '-[A b]' started.\n" + line).utf8))
        #expect(set.metrics.isEmpty)
        #expect(set.unreadable == ["line 2: Memory Peak Physical: \(named) is not a number"], "\(set.unreadable)")
        // A delta (`Memory Physical`) may be negative; a thousands separator after the average is still read as one.
        let delta = line.replacingOccurrences(of: "physical_peak", with: "physical")
            .replacingOccurrences(of: values, with: "values: [-12.5, 3.5]")
            .replacingOccurrences(of: "average: \(average)", with: "average: -4.5")
        let read = try Self.metrics(Array(("Test Case '-[A b]' started.\n" + delta).utf8))
        #expect(read.metrics.first?.values == [-12.5, 3.5])
        #expect(read.metrics.first?.average == -4.5)
    }

    /// The log streams through `XCTestLogScanner`: fed in chunks of any size, even one byte, it reads the same.
    @Test func aLogFedInChunksReadsAsWhole() throws {
        let bytes = try Repo.bytes("xctest/xcodebuild-baseline-regressed.log")
        let whole = try XCTestMetrics.parse(bytes).get()
        for size in [1, 7, 64, 4096] {
            var scanner = XCTestLogScanner()
            var start = 0
            while start < bytes.count {
                scanner.feed(bytes[start..<min(start + size, bytes.count)])
                start += size
            }
            #expect(try scanner.finish().get() == whole, "chunks of \(size)")
        }
    }

    /// Bounded whatever the log: metrics past the limit and over-long lines are counted and said, never kept.
    @Test func aLogPastTheLimitsSaysWhatItLeftOut() throws {
        let line =
            "Test Case '-[A b]' measured [Memory Physical, kB] average: 1.0, values: [1.0], "
            + "performanceMetricID:com.apple.dt.XCTMetric_Memory.physical\n"
        var scanner = XCTestLogScanner()
        for _ in 0..<(XCTestLogScanner.metricLimit + 5) { scanner.feed(Array(line.utf8)[...]) }
        scanner.feed(Array(repeating: UInt8(ascii: "x"), count: XCTestLogScanner.lineCap + 10)[...])
        scanner.feed(Array("\nTest Case '-[A c]' started.\n".utf8)[...])
        let set = try scanner.finish().get()
        #expect(set.metrics.count == XCTestLogScanner.metricLimit)
        #expect(set.testsStarted == 1)
        #expect(
            set.unreadable == [
                "5 lines with a metric past the first 10000 not read",
                "1 line longer than 1048576 bytes skipped unread",
            ])
    }

    /// An `xcodebuild test` log whose first 64 KiB are all build output is known by xcodebuild's banner.
    @Test func anXcodebuildBannerNamesALogBeforeItsTests() {
        let head = "Command line invocation:\n    /usr/bin/xcodebuild test -scheme App\n\nCompileSwift normal arm64\n"
        #expect(ArtifactSniffer.routeAndDetect(Array(head.utf8)).route == .xctestLog)
        let build = "Command line invocation:\n    /usr/bin/xcodebuild build -scheme App\n"
        #expect(ArtifactSniffer.routeAndDetect(Array(build.utf8)).route == .document)
        guard case .failure(let error) = XCTestMetrics.parse(Array(head.utf8)) else {
            Issue.record("a log with no test read as metrics")
            return
        }
        #expect(error.message == "an XCTest log with no test case and no measured metric")
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

    @Test(.enabled(if: Repo.realworld != nil, "shared/realworld is not beside the checkout"))
    func theRealXcodebuildAndXcresultSamplesRead() throws {
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
