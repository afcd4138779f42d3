// libFuzzer target `footprint-json`: `footprint -j` and `footprint --sample` JSON, through the whole reader (the
// JSON parser, the kind hint of invalid JSON, and FootprintJSON.parse), and streamed a sample at a time
// (FootprintScanner, over JSONObjectStream) against the whole document.
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let outcome = ArtifactReader.read(bytes)
    if case .success(.repro(.footprintJSON(let report))) = outcome.result {
        precondition(report.unreadable.count <= FootprintJSON.namedLimit + 1)
    }
    // The parser on its own, for documents the reader would take as another kind first.
    var whole: FootprintJSON?
    if let value = try? JSON.parse(bytes), FootprintJSON.isFootprintJSON(value) {
        whole = try? FootprintJSON.parse(value).get()
    }
    // Streamed in three chunks: never a trap, and a valid document reads as it does whole. Sizes before a later
    // `bytes per unit` are whole units times it (the whole document rounds after multiplying), so those are
    // compared in bytes of one unit only.
    var scanner = FootprintScanner()
    bytes.withUnsafeBytes { all in
        let (third, twoThirds) = (all.count / 3, 2 * all.count / 3)
        scanner.feed(UnsafeRawBufferPointer(rebasing: all[..<third]))
        scanner.feed(UnsafeRawBufferPointer(rebasing: all[third..<twoThirds]))
        scanner.feed(UnsafeRawBufferPointer(rebasing: all[twoThirds...]))
    }
    let streamed = scanner.finish()
    if let whole, whole.bytesPerUnit == 1 {
        guard case .success(let report) = streamed, report == whole else { fatalError("streamed read differs") }
    }
    if case .success(let report) = streamed {
        precondition(report.unreadable.count <= FootprintJSON.namedLimit + 1)
        precondition(report.snapshots.count <= FootprintScanner.maxSnapshots + 1)
    }
    return 0
}
