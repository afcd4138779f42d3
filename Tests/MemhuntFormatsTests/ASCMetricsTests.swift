import Foundation
import MemhuntFormats
import MemhuntTestSupport
import Testing

/// App Store Connect `perfPowerMetrics` JSON: the memory category's points, per version, device class and
/// percentile; what cannot be read is named by its JSON pointer.
@Suite struct ASCMetricsTests {
    static func metrics(_ bytes: [UInt8]) throws -> ASCMetrics {
        let outcome = ArtifactReader.read(bytes)
        #expect(outcome.kind == .ascMetrics)
        guard case .ascMetrics(let metrics) = try outcome.result.get() else { throw Failure("not asc-metrics") }
        return metrics
    }

    @Test func theMemoryCategoryGivesEachPoint() throws {
        let metrics = try Self.metrics(try Repo.bytes("asc/perfPowerMetrics-memory.json"))
        #expect(metrics.version == "1.0.0")
        #expect(metrics.categories == ["LAUNCH", "MEMORY"])
        #expect(metrics.unreadable.isEmpty && metrics.problemCount == 0)
        #expect(metrics.memory.count == 6)
        #expect(metrics.versions == ["4.1", "4.2"])
        let first = metrics.memory[0]
        #expect(first.platform == "iOS" && first.category == "MEMORY" && first.metric == "peakMemory")
        #expect(first.unit == "megabytes" && first.unitName == "MB" && first.megabytes == 301.4)
        #expect(first.device == "all_iphones" && first.deviceName == "All iPhones")
        #expect(first.percentile == "percentile.fifty" && first.percentileLabel == "p50")
        #expect(first.version == "4.1" && first.errorMargin == 2.5)
        #expect(first.pointer == "/productData/0/metricCategories/1/metrics/0/datasets/0/points/0")
        #expect(metrics.memory[3].percentileLabel == "p90" && metrics.memory[3].value == 736.6)
        #expect(metrics.memory[3].errorMargin == nil)
        #expect(metrics.memory.map(\.metric).filter { $0 == "averageSuspendedMemory" }.count == 2)
        #expect(metrics.memory[5].value == 51.7 && metrics.memory[5].version == "4.2")
    }

    /// Missing fields, nulls, a point without a value and a value that is no number: each named by its pointer;
    /// the readable point is read.
    @Test func brokenPointsAreNamedByPointer() throws {
        let metrics = try Self.metrics(try Repo.bytes("asc/perfPowerMetrics-broken.json"))
        #expect(metrics.memory.map(\.value) == [200.5])
        #expect(metrics.memory.first?.deviceName == nil)
        let at = "/productData/0/metricCategories/0/metrics/0/datasets/0/points"
        #expect(
            metrics.unreadable == [
                "\(at)/1/value is missing",
                "\(at)/2/value is null",
                "\(at)/3/value is 'lots', not a number",
                "\(at)/4/version is missing, not text: the point is skipped",
                "/productData/0/metricCategories/0/metrics/0/datasets/1/points is missing or not an array",
                "/productData/0/metricCategories/0/metrics/1/identifier is missing or not text: the metric is skipped",
                "/productData/0/metricCategories/1/identifier is missing or not text: the category is skipped",
                "/productData/1/metricCategories is null, not an array",
            ])
        #expect(metrics.problemCount == 8)
    }

    /// Recognized by content: `productData` with `metricCategories`; invalid JSON with both keys is named as one.
    @Test func recognizedByContentAndInvalidJSONNamed() throws {
        let outcome = ArtifactReader.read(Array(#"{"productData":[{"metricCategories":[{"identifier":"MEMORY""#.utf8))
        #expect(outcome.kind == .ascMetrics)
        guard case .failure(let error) = outcome.result else { throw Failure("read") }
        #expect(error.message.hasPrefix("App Store Connect perfPowerMetrics is not valid JSON: "))
        let other = ArtifactReader.read(Array(#"{"productData":[{"platform":"iOS"}]}"#.utf8))
        #expect(other.kind == nil)
        #expect(ArtifactSniffer.route(try Repo.bytes("asc/perfPowerMetrics-memory.json")) == .document)
    }

    /// Apple's example body holds the LAUNCH category only: read, with no memory point.
    @Test(.enabled(if: Repo.realworld != nil, "shared/realworld is not beside the checkout"))
    func theRealASCSampleReads() throws {
        let path = try #require(Repo.realworld) + "/asc/asc-perfPowerMetrics-EXCERPT.json"
        let metrics = try Self.metrics([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(metrics.version == "1.0.0")
        #expect(metrics.categories == ["LAUNCH"])
        #expect(metrics.memory.isEmpty && metrics.unreadable.isEmpty)
    }
}
