// libFuzzer target `xctest`: xcodebuild test logs and xcresulttool metrics JSON. Differential: the recogniser's
// byte gate turns no match away.
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let sniff = FormatSniff(bytes[...])
    precondition(
        XCTestMetrics.recognises(sniff) == XCTestMetrics.matches(lines: sniff.lines),
        "the byte gate turned a match away")
    _ = XCTestMetrics.parse(bytes)
    if let value = try? JSON.parse(bytes), XCTestMetrics.isResultMetrics(value) {
        _ = XCTestMetrics.parse(resultMetrics: value)
    }
    return 0
}
