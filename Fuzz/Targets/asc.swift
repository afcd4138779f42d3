// libFuzzer target `asc`: App Store Connect perfPowerMetrics JSON, alone and through the reader.
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let value = try? JSON.parse(bytes) {
        let metrics = ASCMetrics.parse(value)
        precondition(metrics.unreadable.count <= ASCMetrics.maxProblems)
        precondition(metrics.memory.count <= ASCMetrics.maxPoints)
        for point in metrics.memory { precondition(point.value.isFinite && point.category == "MEMORY") }
        _ = metrics.versions
    }
    _ = ArtifactReader.read(bytes)
    return 0
}
