import MemhuntCore

/// The built-in checks, sorted by id. A test guards the order and completeness.
public let builtInChecks: [any Check.Type] = [
    CompressorPressureCheck.self,
    CrashReportCheck.self,
    JetsamRankCheck.self,
    MetricKitMemoryCheck.self,
    SuspendedFootprintCheck.self,
]
