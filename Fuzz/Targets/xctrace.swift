// libFuzzer target `xctrace`: xctrace export XML (the streaming tokenizer and the id/ref reader), read whole and
// fed in chunks of a size the input's first byte picks; both must agree.
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = XCTraceExport.matches(bytes[...])
    _ = XCTraceExport.parse(bytes)
    // The same small intern table both ways, so that values are dropped at the same places.
    var one = XCTraceScanner(internCapacity: 4)
    one.feed(bytes[...])
    let whole = one.finish()
    var scanner = XCTraceScanner(internCapacity: 4)
    let step = max(1, Int(bytes.first ?? 1) % 17)
    var start = 0
    while start < bytes.count {
        scanner.feed(bytes[start..<min(bytes.count, start + step)])
        start += step
    }
    let chunked = scanner.finish()
    if case .success(let a) = whole, case .success(let b) = chunked, a != b {
        fatalError("chunked read differs from the whole read")
    }
    if case .success = whole, case .failure = chunked { fatalError("chunked read failed where the whole read did not") }
    return 0
}
