import MemhuntCore
import MemhuntFormats

/// One footprint reading, whatever carried it: a measurements row, a `vmmap --summary`, a `footprint` output.
struct ReproSample {
    var label: String
    var footprintMB: Double
    var coreAnimationMB: Double?
    var layers: Int?
    var inputBytes: Int?
    var inputLines: Int?
    var variant: String?
    var scenario: String?
    /// Capture time in seconds since 1970, when the file says.
    var time: Double?
    /// The file, and the row of a measurements file: the evidence is made when asked for (a file may hold
    /// 100,000 rows, and a pointer string each was a tenth of a sample's memory).
    var source: String
    var row: Int? = nil

    var evidence: Evidence { Evidence(source: source, pointer: row.map { "/measurements/\($0)" }) }

    /// The most readings a list fact, a chart or a sentence names: a file may hold 100,000 rows, and a list of
    /// every one made a findings document of 14 MB for 8 MB of rows.
    static let shownRows = 100

    /// "one-block 623 MB".
    var text: String { "\(label) \(FactValue.oneDecimal(footprintMB)) MB" }

    /// The input size in words: "285 KB" or "2,500 lines".
    var inputText: String? {
        if let inputBytes { return "\(FactValue.oneDecimal(Double(inputBytes) / 1024)) KB" }
        return inputLines.map { "\(FactValue.grouped($0)) lines" }
    }

    /// Every sample of a context in time order: by capture time when every sample has one, else by
    /// file name and then row order (the measurement format's rule, applied across files).
    static func all(in context: CheckContext) -> [ReproSample] {
        var samples: [ReproSample] = []
        let artifacts = context.artifacts.sorted { $0.source < $1.source }
        // Sized once: doubling past 100,000 rows left up to half the array unused.
        samples.reserveCapacity(
            artifacts.reduce(0) { count, artifact in
                guard case .repro(let repro)? = artifact.content else { return count }
                if case .measurements(let set) = repro { return count + set.measurements.count }
                return count + 1
            })
        for artifact in artifacts {
            guard case .repro(let repro)? = artifact.content else { continue }
            switch repro {
            case .measurements(let set):
                for (index, row) in set.measurements.enumerated() {
                    samples.append(
                        ReproSample(
                            label: row.label, footprintMB: row.footprintMB, coreAnimationMB: row.coreAnimationMB,
                            layers: row.layers, inputBytes: row.inputBytes, inputLines: row.inputLines,
                            variant: row.variant, scenario: row.scenario, time: row.time.flatMap(AppleDate.parse),
                            source: artifact.source, row: index))
                }
            case .vmmap(let summary):
                guard let bytes = summary.physicalFootprintBytes else { continue }
                samples.append(
                    ReproSample(
                        label: fileLabel(artifact.source), footprintMB: Double(bytes) / 1_048_576,
                        coreAnimationMB: summary.coreAnimationBytes.map { Double($0) / 1_048_576 },
                        time: summary.dateTime.flatMap(AppleDate.parse), source: artifact.source))
            case .footprint(let report):
                guard let bytes = report.physFootprintBytes ?? report.footprintBytes else { continue }
                samples.append(
                    ReproSample(
                        label: fileLabel(artifact.source), footprintMB: Double(bytes) / 1_048_576,
                        coreAnimationMB: report.coreAnimationDirtyBytes.map { Double($0) / 1_048_576 },
                        source: artifact.source))
            default:
                continue
            }
        }
        guard samples.allSatisfy({ $0.time != nil }) else { return samples }
        // Indices are sorted, not (offset, sample) pairs: one array of Ints beside the samples.
        let order = samples.indices.sorted { (samples[$0].time!, $0) < (samples[$1].time!, $1) }
        return order.map { samples[$0] }
    }

    /// The file name without directories and extension: `drawer-before` for `logs/drawer-before.log`.
    static func fileLabel(_ source: String) -> String {
        let name = Artifact.fileName(of: source)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}

extension Double {
    /// "13.6" from 13.5777.
    var oneDecimalText: String { FactValue.oneDecimal(self).description }
    /// "611 MB" from 611.04: a value already in MB, one decimal, as every renderer prints it.
    var megabytesValueText: String { FactUnit.megabytes.format(.oneDecimal(self)) }
}

extension CheckOutput {
    /// "First measurement" at the time of each artifact the samples came from, once per artifact.
    mutating func measurementEvents(_ samples: [ReproSample], in context: CheckContext) {
        var seen = Set<String>()
        for sample in samples where seen.insert(sample.evidence.source).inserted {
            if let artifact = context.artifacts.first(where: { $0.source == sample.evidence.source }) {
                event("First measurement", of: artifact)
            }
        }
    }
}
