// libFuzzer target `footprint-json`: `footprint -j` and `footprint --sample` JSON, through the whole reader (the
// JSON parser, the kind hint of invalid JSON, and FootprintJSON.parse).
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
    if let value = try? JSON.parse(bytes), FootprintJSON.isFootprintJSON(value) { _ = FootprintJSON.parse(value) }
    return 0
}
