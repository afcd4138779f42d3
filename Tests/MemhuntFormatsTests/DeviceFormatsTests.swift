import MemhuntFormats
import MemhuntTestSupport
import Testing

/// Files as real devices and tools write them: a byte order mark, Xcode's CgBI PNGs, an empty `log`
/// capture, localized and unknown MetricKit units.
@Suite struct DeviceFormatsTests {
    @Test func aByteOrderMarkIsReadPast() throws {
        let csv = ArtifactReader.read(try Repo.bytes("formats/repro/measurements-bom.csv"))
        guard case .success(.repro(.measurements(let set))) = csv.result else {
            Issue.record("not measurements: \(csv)")
            return
        }
        #expect(set.measurements.map(\.label) == ["before-detail", "after-detail"])
        let json = ArtifactReader.read(try Repo.bytes("formats/metrics-bom.json"))
        guard case .success(.metricPayload(let payload)) = json.result else {
            Issue.record("not a metric payload: \(json)")
            return
        }
        #expect(payload.peakMemoryBytes == 512_000_000)
    }

    @Test func xcodeCompressedPNGHasItsSizeAfterTheCgBIChunk() throws {
        let outcome = ArtifactReader.read(try Repo.bytes("formats/repro/icon-180-cgbi.png"))
        guard case .success(.repro(.image(let image))) = outcome.result else {
            Issue.record("not an image: \(outcome)")
            return
        }
        #expect(image.width == 180)
        #expect(image.height == 180)
    }

    @Test(arguments: ["formats/repro/logstream-empty.log", "formats/repro/logshow-empty.log"])
    func aCaptureThatMatchedNothingIsASilentChangeLog(path: String) throws {
        let outcome = ArtifactReader.read(try Repo.bytes(path))
        #expect(outcome.kind == .changeLog)
        guard case .success(.repro(.changeLog(let summary))) = outcome.result else {
            Issue.record("not a change log: \(outcome)")
            return
        }
        #expect(summary.evaluations == 0)
    }

    @Test func proseIsStillNotAChangeLog() {
        #expect(EmptyLogCapture.read(Array("Timestamp of the freeze: 10:02\nThe user said it froze.\n".utf8)) == nil)
    }

    @Test func anUnknownUnitIsNamedNotDropped() throws {
        let outcome = ArtifactReader.read(try Repo.bytes("formats/metrics-unknown-unit.json"))
        guard case .success(.metricPayload(let payload)) = outcome.result else {
            Issue.record("not a metric payload: \(outcome)")
            return
        }
        #expect(payload.peakMemoryBytes == nil)
        #expect(
            payload.unreadable == [
                "/memoryMetrics/peakMemoryUsage is '742,400 كيلوبايت': the unit 'كيلوبايت' is not one memhunt knows"
            ])
    }

    @Test func localizedUnits() {
        #expect(MeasurementText.bytes("742 400 КБ") == 742_400_000)
        #expect(MeasurementText.bytes("1,024 千位元組") == 1_024_000)
    }
}
