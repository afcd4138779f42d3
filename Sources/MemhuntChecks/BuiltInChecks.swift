import MemhuntCore

/// The built-in checks, sorted by id. A test guards the order and completeness.
public let builtInChecks: [any Check.Type] = [
    ASCMemoryCheck.self,
    ChangeLogCheck.self,
    CompressorPressureCheck.self,
    CrashReportCheck.self,
    FootprintJSONCheck.self,
    HeapCheck.self,
    JetsamRankCheck.self,
    LayerCountCheck.self,
    LeaksCheck.self,
    MemoryKillCheck.self,
    MetricKitMemoryCheck.self,
    NavigationGrowthCheck.self,
    ReproFootprintCheck.self,
    SDKClaimCheck.self,
    SilentLoopCheck.self,
    StructureVariationCheck.self,
    SuspendedFootprintCheck.self,
    WidgetBudgetCheck.self,
    XCTestMemoryCheck.self,
    XCTraceMemoryCheck.self,
]
