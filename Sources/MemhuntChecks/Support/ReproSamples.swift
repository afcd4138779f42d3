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
    var evidence: Evidence

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
                            evidence: Evidence(source: artifact.source, pointer: "/measurements/\(index)")))
                }
            case .vmmap(let summary):
                guard let bytes = summary.physicalFootprintBytes else { continue }
                samples.append(
                    ReproSample(
                        label: fileLabel(artifact.source), footprintMB: Double(bytes) / 1_048_576,
                        coreAnimationMB: summary.coreAnimationBytes.map { Double($0) / 1_048_576 },
                        time: summary.dateTime.flatMap(AppleDate.parse), evidence: Evidence(source: artifact.source)))
            case .footprint(let report):
                guard let bytes = report.physFootprintBytes ?? report.footprintBytes else { continue }
                samples.append(
                    ReproSample(
                        label: fileLabel(artifact.source), footprintMB: Double(bytes) / 1_048_576,
                        coreAnimationMB: report.coreAnimationDirtyBytes.map { Double($0) / 1_048_576 },
                        evidence: Evidence(source: artifact.source)))
            default:
                continue
            }
        }
        guard samples.allSatisfy({ $0.time != nil }) else { return samples }
        return samples.enumerated().sorted { ($0.element.time!, $0.offset) < ($1.element.time!, $1.offset) }.map(
            \.element)
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
