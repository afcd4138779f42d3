import MemhuntCore
import MemhuntFormats

/// The XCTest memory metric of each test as a gate: the heaviest run of a memory metric under a ceiling
/// with headroom, straight from the test run, and against its own baseline when the log or the result
/// bundle carries one.
struct XCTestMemoryCheck: MeasuringCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let tests = FactDescription(
            "xctest.memoryTests", .count, "Tests with an XCTest memory metric (XCTMetric_Memory).")
        static let peakMB = FactDescription(
            "xctest.memoryPeakMB", .megabytes,
            "The largest value of any memory metric of any test, in MB (XCTest's kB are 1,000 bytes).",
            measure: true, repeatedAs: .xctestMemory)
        static let heaviestTest = FactDescription(
            "xctest.heaviestTest", .text, "The test whose memory metric is the largest.")
        static let perTest = FactDescription(
            "xctest.perTest", .list,
            "Each test's heaviest memory metric: {test, metric, peakMB}, by test (at most 100).",
            verifies: .testPeaks)
        static let ceilingMB = FactDescription(
            "xctest.ceilingMB", .megabytes, "The limit less the headroom, when a limit is set.", better: .neutral,
            setting: true, verifies: .testCeiling)
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let overLimit = FindingCode(
            "xctest-memory.over-limit", .critical, "A test's memory metric is over the limit.",
            examples: [
                .raises(
                    "Fixtures/xctest/xcodebuild-widget-over.log", with: ["limit_mb": 30],
                    facts: [Fact.tests.key: 1, Fact.peakMB.key: 31.5],
                    title:
                        "-[JustSendWidgetTests.TimelineMemoryTests testSystemLargeTimeline] is over the 30 MB limit: 31.5 MB"
                ),
                .quiet(
                    "Fixtures/xctest/xcodebuild-widget-under.log", with: ["limit_mb": 30],
                    facts: [Fact.tests.key: 1, Fact.peakMB.key: 14.3]),
            ])
        static let overCeiling = FindingCode(
            "xctest-memory.over-ceiling", .warning, "A test's memory metric is inside the limit but over the ceiling.",
            examples: [
                .raises(
                    "Fixtures/xctest/xcodebuild-widget-ceiling.log", with: ["limit_mb": 30],
                    facts: [Fact.tests.key: 1, Fact.peakMB.key: 26.4],
                    title:
                        "-[JustSendWidgetTests.TimelineMemoryTests testSystemLargeTimeline] is over its 24 MB ceiling: 26.4 MB, 3.6 MB under the 30 MB limit"
                ),
                .quiet(
                    "Fixtures/xctest/xcodebuild-widget-under.log", with: ["limit_mb": 30],
                    facts: [Fact.tests.key: 1, Fact.peakMB.key: 14.3]),
            ])
        static let regression = FindingCode(
            "xctest-memory.regression", .warning,
            "A test's memory metric is above its own baseline by more than its maxPercentRegression.",
            examples: [
                .raises(
                    "Fixtures/xctest/xcodebuild-baseline-regressed.log",
                    facts: [Fact.tests.key: 1, Fact.peakMB.key: 23],
                    title:
                        "-[JustSendWidgetTests.TimelineMemoryTests testSystemMediumTimeline]: 19.1 MB → 22.9 MB against its baseline (+20.2 %, allowed 10 %)"
                ),
                .quiet(
                    "Fixtures/xctest/xcodebuild-widget-under.log",
                    facts: [Fact.tests.key: 1, Fact.peakMB.key: 14.3]),
            ])
        static let unreadable = FindingCode(
            "xctest-memory.unreadable", .notice, "A metric line of the log could not be read: named, not guessed.",
            examples: [
                .raises(
                    "Fixtures/xctest/xcodebuild-broken-metric.log", "Fixtures/xctest/xcodebuild-widget-under.log",
                    facts: [Fact.tests.key: 1, Fact.peakMB.key: 14.3],
                    title:
                        "xcodebuild-broken-metric.log: a metric could not be read: line 3: Memory Peak Physical: value 'nan' is not a number"
                ),
                .quiet(
                    "Fixtures/xctest/xcodebuild-widget-under.log",
                    facts: [Fact.tests.key: 1, Fact.peakMB.key: 14.3]),
            ])
    }

    static let description = CheckDescription(
        id: "xctest-memory",
        title: "XCTest memory metric: a gate per test",
        step: "simulator-repro",
        rationale: """
            XCTMemoryMetric measures a test's physical memory (peak or at the end) on every run. Its heaviest \
            run under a ceiling with headroom is the gate a CI can hold, and its own baseline says whether a \
            change made it heavier, without typing numbers by hand.
            """,
        reads: [.xctestMetrics],
        facts: [Fact.tests, Fact.peakMB, Fact.heaviestTest, Fact.perTest, Fact.ceilingMB],
        codes: [Code.overLimit, Code.overCeiling, Code.regression, Code.unreadable],
        parameters: [
            CheckParameter("limit_mb", default: 0.0, "The memory limit in MB a test must stay under (0 = no limit)."),
            CheckParameter(
                "headroom", default: 0.2, "Fraction of the limit kept free: the ceiling is limit × (1 − headroom)."),
        ]
    )

    struct Measured {
        var artifact: Artifact
        var metric: XCTestMetric
        var peakMB: Double
        var averageMB: Double?
        var baselineMB: Double?
    }

    /// The memory metrics of the logs and result exports, in megabytes, and the metric lines that could not be read.
    struct Measurement {
        var problems: [(artifact: Artifact, problem: String)]
        var measured: [Measured]
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        var measurement = Measurement(problems: [], measured: [])
        for artifact in context.artifacts(of: .xctestMetrics) {
            guard case .repro(.xctestMetrics(let set))? = artifact.content else { continue }
            measurement.problems += set.unreadable.map { (artifact, $0) }
            for metric in set.metrics where metric.isMemory {
                guard let perUnit = metric.bytesPerUnit,
                    let peak = (metric.values + [metric.average].compactMap { $0 }).max()
                else { continue }
                let mb = { (value: Double) in value * perUnit / 1_048_576 }
                measurement.measured.append(
                    Measured(
                        artifact: artifact, metric: metric, peakMB: mb(peak), averageMB: metric.average.map(mb),
                        baselineMB: metric.baselineAverage.map(mb)))
            }
        }
        return measurement.problems.isEmpty && measurement.measured.isEmpty ? nil : measurement
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        for (artifact, problem) in m.problems {
            output.emit(
                Code.unreadable, title: "\(artifact.fileName): a metric could not be read: \(problem)",
                detail: "\(artifact.source): \(problem). The metric is left out rather than guessed.",
                evidence: [Evidence(source: artifact.source)])
        }
        guard let heaviest = m.measured.max(by: { $0.peakMB < $1.peakMB }) else { return }
        output.record(Fact.tests, .int(Set(m.measured.map(\.metric.test)).count))
        output.record(Fact.peakMB, .oneDecimal(heaviest.peakMB))
        output.record(Fact.heaviestTest, .string(heaviest.metric.test))
        var perTest: [String: Measured] = [:]
        for entry in m.measured where entry.peakMB > perTest[entry.metric.test]?.peakMB ?? -1 {
            perTest[entry.metric.test] = entry
        }
        output.record(
            Fact.perTest.key,
            .array(
                perTest.sorted { $0.key < $1.key }.prefix(100).map { test, entry in
                    [
                        "test": .string(test), "metric": .string(entry.metric.displayName),
                        "peakMB": .oneDecimal(entry.peakMB),
                    ]
                }))
        let limit = context.double("limit_mb")
        let ceiling = limit * (1 - context.double("headroom"))
        if limit > 0 { output.record(Fact.ceilingMB, .oneDecimal(ceiling)) }
        output.headline(Fact.peakMB, "heaviest test", Words.heaviest(heaviest, limit: limit, ceiling: ceiling))
        output.chart(
            Series(
                id: "xctest-memory", title: "XCTest memory metric per test, heaviest run",
                caption: Words.chartCaption(limit: limit, ceiling: ceiling), axis: "memory (MB)", unit: .megabytes,
                points: m.measured.map {
                    Series.Point(
                        label: $0.metric.test + ($0.metric.device.map { " (\($0))" } ?? ""), value: $0.peakMB,
                        text: $0.peakMB.megabytesValueText, role: limit > 0 && $0.peakMB > ceiling ? .subject : .plain)
                }))
        for entry in m.measured { Self.say(entry, limit: limit, ceiling: ceiling, to: &output) }
    }

    /// One test's metric against the ceiling, and its average against its baseline.
    static func say(_ entry: Measured, limit: Double, ceiling: Double, to output: inout CheckOutput) {
        let place =
            entry.metric.line.map { Evidence(source: entry.artifact.source, line: $0) }
            ?? Evidence(source: entry.artifact.source)
        if limit > 0, entry.peakMB > ceiling {
            let over = entry.peakMB > limit
            output.emit(
                over ? Code.overLimit : Code.overCeiling,
                title: Words.overTitle(entry, over: over, limit: limit, ceiling: ceiling),
                detail: Words.over(entry, limit: limit, ceiling: ceiling), evidence: [place],
                next: .change(Words.bringUnder))
        }
        guard let baseline = entry.baselineMB, let average = entry.averageMB, baseline > 0 else { return }
        let name = "\(entry.metric.test) \(entry.metric.displayName)"
        output.compare(
            Comparison(
                kind: .fix, label: name + " against its baseline", unit: .megabytes, better: .lower,
                from: .init(
                    label: entry.metric.baselineName ?? "baseline", value: baseline, text: baseline.megabytesValueText),
                to: .init(label: "this run (average)", value: average, text: average.megabytesValueText),
                change: FactValue.oneDecimal((average - baseline) / baseline * 100).description + " %"))
        let allowed = entry.metric.maxPercentRegression ?? 10
        let percent = (average - baseline) / baseline * 100
        guard percent > allowed else { return }
        output.emit(
            Code.regression, title: Words.regressionTitle(entry, baseline, average, percent: percent, allowed: allowed),
            detail: Words.regression(entry, baseline, average, percent: percent, allowed: allowed), evidence: [place],
            next: .change(Words.keepTheBaseline))
    }
}
