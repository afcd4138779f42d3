import Foundation
import MemhuntTestSupport
import Testing

/// App Store Connect `perfPowerMetrics` through the built binary: `scan` keeps Apple's aggregates apart from the
/// records, and `run` gives them as the jetsam-record and suspended-footprint steps' context.
@Suite struct ASCMetricsCLITests {
    @Test func scanListsTheAggregatesApartFromTheRecords() async throws {
        let run = await memhunt("scan", "--format", "json", "Fixtures/asc")
        #expect(run.status == 0, "\(run.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(document["records"] as? Int == 0)
        #expect((document["apps"] as? [Any])?.isEmpty == true)
        let responses = try #require(document["appStoreConnect"] as? [[String: Any]])
        #expect(
            responses.map { ($0["file"] as? String) ?? "" } == [
                "Fixtures/asc/perfPowerMetrics-broken.json", "Fixtures/asc/perfPowerMetrics-memory.json",
            ])
        #expect(responses[0]["unreadable"] as? Int == 8)
        let points = try #require(responses[1]["points"] as? [[String: Any]])
        #expect(points.count == 6)
        #expect(points[1]["metric"] as? String == "peakMemory" && points[1]["version"] as? String == "4.2")
        #expect(points[1]["percentile"] as? String == "p50" && points[1]["value"] as? Double == 418.9)
        #expect(points[1]["device"] as? String == "all_iphones" && points[1]["unit"] as? String == "megabytes")
        #expect(responses[1]["platforms"] as? [String] == ["iOS"])
        let text = await memhunt("scan", "Fixtures/asc/perfPowerMetrics-memory.json")
        #expect(text.stdout.hasPrefix("Records: 0, rejected: 0\n"))
        #expect(
            text.stdout.contains(
                "App Store Connect  Fixtures/asc/perfPowerMetrics-memory.json  (Apple's aggregates per version, "
                    + "device class and percentile; the response names no app)\n"))
        #expect(text.stdout.contains("   peakMemory  4.2  All iPhones  p50  418.9 ± 3.1 megabytes\n"))
        #expect(text.stdout.contains("   averageSuspendedMemory  4.1  All iPhones  p50  48.2 megabytes\n"))
    }

    @Test func runGivesTheVersionGrowthAsContext() async throws {
        let run = await memhunt("run", "--format", "json", "Fixtures/asc/perfPowerMetrics-memory.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let steps = try #require(document["steps"] as? [[String: Any]])
        let record = try #require(steps.first { $0["id"] as? String == "jetsam-record" })
        let facts = try #require(record["facts"] as? [String: Any])
        #expect(facts["asc.version"] as? String == "4.2")
        #expect(facts["asc.peak.p50MB"] as? Double == 418.9)
        #expect(facts["asc.peak.p90MB"] as? Double == 736.6)
        #expect(facts["asc.peak.growthPercent"] as? Double == 39)
        let findings = try #require(record["findings"] as? [[String: Any]])
        let growth = try #require(findings.first { $0["code"] as? String == "asc-memory.growth" })
        #expect(
            growth["title"] as? String == "App Store Connect p50 peak memory grew 39 % from 4.1 to 4.2 (All iPhones)")
        let suspended = try #require(steps.first { $0["id"] as? String == "suspended-footprint" })
        let suspendedFacts = try #require(suspended["facts"] as? [String: Any])
        #expect(suspendedFacts["asc.suspended.p50MB"] as? Double == 51.7)
        #expect(suspendedFacts["asc.suspended.growthPercent"] as? Double == 7.3)
        #expect(
            (suspended["findings"] as? [[String: Any]] ?? []).allSatisfy {
                $0["code"] as? String != "asc-memory.growth"
            })
    }
}
