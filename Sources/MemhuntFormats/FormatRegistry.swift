/// A format read from its own bytes: its kind, how it is recognised from the first ≤ 64 KiB, how it is parsed,
/// and the fixtures that show it. Adding one is a type conforming to this protocol, its kind in `ArtifactKind`,
/// its case in `ReproArtifact`, and one line in `FormatRegistry.sniffed`; `FormatRegistryTests` names whichever
/// is missing.
public protocol ReproFormat {
    associatedtype Value
    /// The kind it reads.
    static var kind: ArtifactKind { get }
    /// Fixtures (paths from the repository's root) that are read as this kind; the registry's tests read each.
    static var fixtures: [String] { get }
    /// Whether the first ≤ 64 KiB are this format's, from content only.
    static func recognises(_ sniff: FormatSniff) -> Bool
    /// The whole artifact parsed; a failure keeps the kind and says what is wrong.
    static func parse(_ bytes: [UInt8]) -> Result<Value, FormatError>
    /// The parsed value as the findings' artifacts hold it.
    static func artifact(_ value: Value) -> ReproArtifact
}

extension ReproFormat {
    /// `parse`, held as a `ReproArtifact`.
    static func read(_ bytes: [UInt8]) -> Result<ReproArtifact, FormatError> { parse(bytes).map(artifact) }
}

/// What a format's recogniser sees: the first ≤ 64 KiB, and its lines (split once, when a recogniser first asks).
public struct FormatSniff {
    public let head: ArraySlice<UInt8>
    private let split: Lines

    public init(_ head: ArraySlice<UInt8>) {
        self.head = head
        split = Lines(head)
    }

    /// The head's lines, for formats recognised by a banner or a line shape.
    public var lines: [String] { split.lines }

    /// False only where no line can hold any of `needles` (ASCII, without `\r` or `\n`) as `Character`s: the
    /// lines' bytes are all ASCII, where each byte is a `Character` of its own and a line that holds a needle holds
    /// its bytes, and they hold none of them. A recogniser that needs one of them says no without reading lines;
    /// where the head is not all ASCII (`K` equals `U+212A`, a combining mark joins the byte before it) the lines
    /// are read as before.
    public func mayHold(anyOf needles: StaticString...) -> Bool {
        guard split.ascii else { return true }
        let bytes = split.head.prefix(ReproText.sniffLimit)
        return needles.contains { ReproText.containsBytes(bytes, $0) }
    }

    private final class Lines {
        let head: ArraySlice<UInt8>
        lazy var lines: [String] = ReproText.sniffLines(head)
        /// Whether the bytes the lines are read from are all ASCII.
        lazy var ascii: Bool = head.prefix(ReproText.sniffLimit).withUnsafeBufferPointer { bytes in
            var bits: UInt8 = 0
            for byte in bytes { bits |= byte }
            return bits < 0x80
        }
        init(_ head: ArraySlice<UInt8>) { self.head = head }
    }
}

/// Every artifact kind has one place here: a format sniffed from its bytes (`sniffed`), a record or export read
/// first from its own header or keys (`records`, by `ArtifactReader`), or a kind that is named and not parsed
/// (`named`). `FormatRegistryTests` fails, naming this file, for a kind in none of them or in two.
public enum FormatRegistry {
    /// The reproduction formats, tried in this order after the records: magic bytes, memhunt's own format, tool
    /// banners, view dumps, then change logs (the loosest). A crash report can embed a vmmap table or a stack that
    /// looks like a sample, so these come after the records.
    public static let sniffed: [any ReproFormat.Type] = [
        ImageInfo.self,
        XCTraceExport.self,
        MeasurementSet.self,
        LeaksReport.self,
        HeapReport.self,
        VMMapSummary.self,
        FootprintReport.self,
        SampleReport.self,
        ViewHierarchyDump.self,
        XCTestMetrics.self,
        ChangeLogScanner.self,
    ]

    /// Kinds `ArtifactReader` reads before the sniffed formats (an `.ips` header, JSON keys, the log scan's kill
    /// lines, a tar's header) or `ArtifactSniffer` routes (a manifest's shape), sorted by id, each with fixtures
    /// read as that kind. The sysdiagnose archive's fixtures are built by its tests.
    public static let records: [(kind: ArtifactKind, fixtures: [String])] = [
        (.ascMetrics, ["Fixtures/asc/perfPowerMetrics-memory.json"]),
        (.crashReport, ["Fixtures/formats/crash-309-memory.ips", "Fixtures/formats/crash-legacy-sigsegv.crash"]),
        (.footprintJSON, ["Fixtures/footprint-json/faq-visit-4.footprint.json"]),
        (.jetsamEvent, ["Fixtures/formats/jetsam-16k.ips", "Fixtures/formats/jetsam-4k-ios10.crash"]),
        (.killLog, ["Fixtures/kill-log/killed.log"]),
        (.manifest, ["Fixtures/justsend/manifest.json"]),
        (.diagnosticPayload, ["Fixtures/formats/diagnostics.json"]),
        (.metricPayload, ["Fixtures/formats/metrics-en-US.json"]),
        (.sdkExport, ["Fixtures/sdk/debugger/bugsnag-oom-event.json"]),
        (.sysdiagnose, []),
    ]

    /// Kinds that are recognised and named, not parsed: `.ips` bug types memhunt names (211, 202 and 145, 188),
    /// and the members of a sysdiagnose archive that its fixed layout names (`SysdiagnoseRole`).
    public static let named: [ArtifactKind] = [
        .analyticsLog, .logArchive, .memoryPressure, .processList, .resourceReport, .stackshot, .taskInfo, .vmStat,
    ]

    /// The sniffed format of `kind`.
    static func format(of kind: ArtifactKind) -> (any ReproFormat.Type)? { sniffed.first { $0.kind == kind } }
}
