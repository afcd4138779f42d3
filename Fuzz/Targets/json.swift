// libFuzzer target `json`: the JSON parser, whole documents and prefixes.
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? JSON.parse(bytes)
    if let first = bytes.first { _ = try? JSON.parsePrefix(bytes, from: Int(first) % (bytes.count + 1)) }
    return 0
}
