// libFuzzer target `heap`: heap reports (class tables) of processes and memgraphs.
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = HeapReport.matches(lines: ReproText.sniffLines(bytes[...]))
    if case .success(let report) = HeapReport.parse(bytes) {
        // Bounded diagnostics whatever the input: twenty named lines and one count.
        precondition(report.unreadable.count <= HeapReport.namedLimit + 1)
    }
    return 0
}
