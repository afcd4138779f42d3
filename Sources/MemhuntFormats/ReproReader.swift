/// A parsed artifact of the reproduction half of the hunt (steps 5 to 8).
public enum ReproArtifact: Sendable, Hashable {
    case vmmap(VMMapSummary)
    case footprint(FootprintReport)
    case measurements(MeasurementSet)
    case viewHierarchy(ViewHierarchyDump)
    case changeLog(ChangeLogSummary)
    case sample(SampleReport)
    case image(ImageInfo)
    case xctestMetrics(XCTestMetrics)
    case leaks(LeaksReport)
    case heap(HeapReport)
    case footprintJSON(FootprintJSON)
    case xctraceExport(XCTraceExport)

    /// The artifact's kind.
    public var kind: ArtifactKind {
        switch self {
        case .vmmap: .vmmapSummary
        case .footprint: .footprint
        case .measurements: .measurements
        case .viewHierarchy: .viewHierarchy
        case .changeLog: .changeLog
        case .sample: .sample
        case .image: .image
        case .xctestMetrics: .xctestMetrics
        case .leaks: .leaks
        case .heap: .heap
        case .footprintJSON: .footprintJSON
        case .xctraceExport: .xctraceExport
        }
    }
}

/// Sniffs and parses the reproduction-side kinds. Run it after the crash, JetsamEvent and MetricKit
/// sniffers: a crash report can embed a vmmap table or a stack that looks like a sample.
public enum ReproReader {
    /// The kind of `prefix` (the first ≤ 64 KiB) when it is one of the reproduction kinds, from content only, in
    /// `FormatRegistry.sniffed`'s order. A log of kill lines and no change line is detected as a change log too (it
    /// streams the same way); the reader names it `kill-log` once it has scanned it (`ParsedArtifact.log`).
    public static func detect(_ prefix: [UInt8]) -> ArtifactKind? {
        let sniff = FormatSniff(prefix.prefix(65_536))
        return FormatRegistry.sniffed.first { $0.recognises(sniff) }?.kind
    }

    /// Detects and parses `bytes`; nil when they are none of the reproduction kinds.
    public static func read(_ bytes: [UInt8]) -> Result<ReproArtifact, FormatError>? { readWithKind(bytes)?.result }

    /// Detects once and parses: the kind is known even when parsing fails.
    public static func readWithKind(_ bytes: [UInt8]) -> (
        kind: ArtifactKind, result: Result<ReproArtifact, FormatError>
    )? {
        guard let kind = detect(bytes) else { return nil }
        return readWithKind(bytes, as: kind)
    }

    /// Parses `bytes` as `kind`, which `detect` found on them already.
    public static func readWithKind(_ bytes: [UInt8], as kind: ArtifactKind) -> (
        kind: ArtifactKind, result: Result<ReproArtifact, FormatError>
    )? {
        guard let result = parse(bytes, as: kind) else { return nil }
        return (kind, result)
    }

    private static func parse(_ bytes: [UInt8], as kind: ArtifactKind) -> Result<ReproArtifact, FormatError>? {
        FormatRegistry.format(of: kind)?.read(bytes)
    }
}
