import MemhuntCore
import MemhuntFormats

/// Step 4: the compressor's cumulative compressions, the pressure on the whole system.
struct CompressorPressureCheck: Check {
    static let description = CheckDescription(
        id: "compressor-pressure",
        title: "Compressor compressions",
        step: "compressor-pressure",
        rationale: """
            iOS compresses unused pages when memory is low, and compression uses CPU. A high cumulative \
            count explains "the whole system is slow": an app held memory, so the system kept compressing.
            """,
        reads: [.jetsamEvent],
        facts: [
            FactDescription(
                "jetsam.compressions", .count,
                "memoryStatus.compressions of the JetsamEvent record: pages compressed since boot, a counter.")
        ],
        codes: [
            FindingCode(
                "compressor-pressure.compressions", .warning,
                "The compressor had compressed at least the threshold's count of pages since boot.")
        ],
        parameters: [
            CheckParameter("max_compressions", default: 1_000_000, "Warn at this many cumulative compressions.")
        ]
    )

    func run(_ context: CheckContext) async throws -> CheckOutput {
        var output = CheckOutput()
        guard let record = JetsamRecord.chosen(in: context), let compressions = record.event.compressions else {
            return CheckOutput(noInput: true)
        }
        output.record("jetsam.compressions", .int(Int(clamping: compressions)))
        let limit = context.int("max_compressions")
        if compressions >= UInt64(max(0, limit)) {
            let count = FactValue.grouped(Int(clamping: compressions))
            output.emit(
                Finding(
                    code: "compressor-pressure.compressions",
                    severity: .warning,
                    title: "\(count) compressions: the system was under memory pressure",
                    detail: "memoryStatus.compressions counts pages compressed since boot: \(count) "
                        + "(threshold \(FactValue.grouped(limit))). Compression uses CPU, so the whole system slows.",
                    evidence: [Evidence(source: record.artifact.source, pointer: "/memoryStatus/compressions")],
                    next: .collect(
                        .jetsamEvent, "Compare with a second record of the same boot: a counter, not a size.")
                ))
        }
        return output
    }
}
