// libFuzzer target `sample`: sample(1) call-tree reports.
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = SampleReport.matches(bytes[...])
    if case .success(let report) = SampleReport.parse(bytes) { _ = report.mainThreadSamples(matching: ["layout"]) }
    return 0
}
