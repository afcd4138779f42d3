/// What an artifact is, decided from its content (never its file name). The one exception is the members of a
/// sysdiagnose archive that memhunt names and does not parse (`ps`, `taskinfo`, `vm-stat`, `memory-pressure`,
/// `log-archive`): their kind is their place in the archive's fixed layout (`SysdiagnoseRole`).
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
    /// A `.logarchive` bundle (a sysdiagnose's `system_logs.logarchive`): a unified log of tracev3 files, which
    /// `log show` reads on a Mac. Named with that command, never read as bytes.
    case logArchive = "log-archive"
    /// A list of artifacts to fetch (JSON or YAML), expanded when given as an operand.
    case manifest
    /// memhunt's own measurement format (CSV or JSON): numbers read off Xcode's gauge or Instruments.
    case measurements
    /// A sysdiagnose's `memory_pressure.txt`: named from its place in the archive, not parsed.
    case memoryPressure = "memory-pressure"
    /// MetricKit `MXMetricPayload` (peak memory, average suspended memory, exit counts).
    case metricPayload = "metrickit-metrics"
    /// A sysdiagnose's `ps.txt` or `ps_thread.txt` (every process with its resident size): named from its
    /// place in the archive, not parsed.
    case processList = "ps"
    /// Microstackshot resource reports: bug_type 202 (`cpu_resource`), 145 (`diskwrites_resource`).
    case resourceReport = "resource-report"
    /// `sample` or spindump call-graph text.
    case sample
    /// A crash-reporting SDK's export (Sentry, SentryCrash, KSCrash, Bugsnag, Embrace, Datadog, Crashlytics): its
    /// events' claims of how a run ended (out of memory, watchdog, crash), to be graded against the OS records.
    case sdkExport = "sdk-export"
    /// bug_type 188 stackshot text.
    case stackshot
    /// A sysdiagnose archive (`sysdiagnose_*.tar.gz`, or a plain tar): its members are artifacts of their own.
    case sysdiagnose
    /// A sysdiagnose's `taskinfo.txt`: named from its place in the archive, not parsed.
    case taskInfo = "taskinfo"
    /// UIKit `recursiveDescription` / Chisel `pviews` dump.
    case viewHierarchy = "view-hierarchy"
    /// A sysdiagnose's `vm_stat.txt`: named from its place in the archive, not parsed.
    case vmStat = "vm-stat"
    /// `vmmap --summary` text.
    case vmmapSummary = "vmmap"
    /// `xcrun xctrace export` XML: a table of contents (`--toc`) or the tables of an `--xpath` query; streamed.
    case xctraceExport = "xctrace-export"
    /// XCTest performance metrics: an `xcodebuild test` log's `measured [...]` lines, or
    /// `xcrun xcresulttool get test-results metrics` JSON.
    case xctestMetrics = "xctest-metrics"

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
