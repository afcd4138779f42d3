// libFuzzer target `leaks`: leaks reports of memgraphs.
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = LeaksReport.matches(lines: ReproText.sniffLines(bytes[...]))
    _ = LeaksReport.parse(bytes)
    return 0
}
