// libFuzzer target `xctest`: xcodebuild test logs and xcresulttool metrics JSON.
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = XCTestMetrics.matches(lines: ReproText.sniffLines(bytes[...]))
    _ = XCTestMetrics.parse(bytes)
    if let value = try? JSON.parse(bytes), XCTestMetrics.isResultMetrics(value) {
        _ = XCTestMetrics.parse(resultMetrics: value)
    }
    return 0
}
