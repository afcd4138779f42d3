// libFuzzer target `heap`: heap reports (class tables) of processes and memgraphs, streamed line by line.
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = HeapReport.matches(lines: ReproText.sniffLines(bytes[...]))
    let whole = HeapReport.parse(bytes)
    // The same bytes in three chunks read as one.
    var scanner = HeapScanner()
    bytes.withUnsafeBytes { all in
        let (third, twoThirds) = (all.count / 3, 2 * all.count / 3)
        scanner.feed(UnsafeRawBufferPointer(rebasing: all[..<third]))
        scanner.feed(UnsafeRawBufferPointer(rebasing: all[third..<twoThirds]))
        scanner.feed(UnsafeRawBufferPointer(rebasing: all[twoThirds...]))
    }
    let chunked = scanner.finish()
    switch (whole, chunked) {
    case (.success(let report), .success(let other)):
        guard report == other else { fatalError("chunked read differs") }
        // Bounded diagnostics and rows whatever the input: twenty named lines and one count.
        precondition(report.unreadable.count <= HeapReport.namedLimit + 1)
        precondition(report.classes.count <= HeapScanner.maxRows)
    case (.failure(let error), .failure(let other)):
        guard error == other else { fatalError("chunked read fails otherwise") }
    default: fatalError("chunked read differs")
    }
    return 0
}
