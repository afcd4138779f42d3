// libFuzzer target `leaks`: leaks reports of memgraphs, streamed line by line, and what memhunt says of their
// trees (each cycle's shape, pattern and owner; the per-class comparison of two captures).
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
import MemhuntSnapshots
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = LeaksReport.matches(lines: ReproText.sniffLines(bytes[...]))
    guard case .success(let report) = LeaksReport.parse(bytes) else { return 0 }
    // The same bytes in two chunks read as one.
    var scanner = LeaksScanner()
    bytes.withUnsafeBytes { whole in
        let half = whole.count / 2
        scanner.feed(UnsafeRawBufferPointer(rebasing: whole[..<half]))
        scanner.feed(UnsafeRawBufferPointer(rebasing: whole[half...]))
    }
    guard case .success(let chunked) = scanner.finish(), chunked == report else { fatalError("chunked read differs") }
    for shape in LeakShape.all(in: report.forest) {
        let leak = CycleCatalog.classify(shape, process: report.processName)
        _ = (leak.shape.path, leak.evidence)
    }
    let classes = CaptureDiff.classes(report)
    _ = CaptureDiff(kind: .leaks, before: classes, after: [:]).rows.count
    return 0
}
