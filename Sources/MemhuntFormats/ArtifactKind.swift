/// What an artifact is, decided from its content (never its file name).
///
/// Raw values are the stable, user-facing kind ids: they appear in playbooks (`reads:`),
/// in the findings document and in `memhunt inspect`.
public enum ArtifactKind: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    /// bug_type 211: JSON lines of `JetsamAggregationV2/V3` counts. Not a JetsamEvent.
    case analyticsLog = "analytics-log"
    /// App Store Connect `perfPowerMetrics` JSON: Apple's aggregates per app version, device class and percentile.
    case ascMetrics = "asc-metrics"
    /// SwiftUI `_printChanges` / `_logChanges` output (console paste or `log show`).
    case changeLog = "change-log"
    /// A crash report: `.ips` 309 JSON, `.ips` header + legacy text (109, 185), or a header-less `.crash`.
    case crashReport = "crash-report"
    /// MetricKit `MXDiagnosticPayload` (crash, hang, CPU, disk diagnostics).
    case diagnosticPayload = "metrickit-diagnostics"
    /// `footprint` tool text output.
    case footprint
    /// `footprint -j` JSON (one snapshot) or `footprint --sample` JSON (a series): footprint and categories per process.
    case footprintJSON = "footprint-json"
    /// `heap` text of a process or a memgraph (`--sortBySize`, `--diffFrom`): objects and bytes per class.
    case heap
    /// A PNG, JPEG or HEIC image: pixel dimensions from its header only.
    case image
    /// Memory kills in log text of no change line: the kernel's `memorystatus` lines, `killed by jetsam reason`,
    /// a debugger's `EXC_RESOURCE … MEMORY` stop (`log show`, its styles, Console, `idevicesyslog`, Xcode). A
    /// change log holds kill lines too (`ChangeLogSummary.kills`): both are read.
    case killLog = "kill-log"
    /// bug_type 298 JetsamEvent: the memory of every process at one moment.
    case jetsamEvent = "jetsam-event"
    /// `leaks` text of a process or a memgraph: the leak count, leaked bytes and the roots of the trees.
    case leaks
    /// A list of artifacts to fetch (JSON or YAML), expanded when given as an operand.
    case manifest
    /// memhunt's own measurement format (CSV or JSON): numbers read off Xcode's gauge or Instruments.
    case measurements
    /// MetricKit `MXMetricPayload` (peak memory, average suspended memory, exit counts).
    case metricPayload = "metrickit-metrics"
    /// Microstackshot resource reports: bug_type 202 (`cpu_resource`), 145 (`diskwrites_resource`).
    case resourceReport = "resource-report"
    /// `sample` or spindump call-graph text.
    case sample
    /// bug_type 188 stackshot text.
    case stackshot
    /// UIKit `recursiveDescription` / Chisel `pviews` dump.
    case viewHierarchy = "view-hierarchy"
    /// `vmmap --summary` text.
    case vmmapSummary = "vmmap"
    /// XCTest performance metrics: an `xcodebuild test` log's `measured [...]` lines, or
    /// `xcrun xcresulttool get test-results metrics` JSON.
    case xctestMetrics = "xctest-metrics"

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
