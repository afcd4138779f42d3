// libFuzzer target `metrickit`: MetricKit payloads (MXMetricPayload / MXDiagnosticPayload JSON).
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let value = try? JSON.parse(bytes), let (payload, _) = MetricKitParser.payload(in: value) else { return 0 }
    _ = MetricKitParser.metrics(payload)
    _ = MetricKitParser.diagnostics(payload)
    _ = MeasurementText.bytes(String(decoding: bytes, as: UTF8.self))
    return 0
}
