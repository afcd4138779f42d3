// libFuzzer target `reader`: the whole reader as a file meets it: the route taken from the first bytes, then
// sniffing in order and every parser behind it, given the route's detection as `LocalArtifacts` gives it.
// The route's detection, when it made one, must be the reader's own on the same bytes (inputs are under the
// 64 KiB window); content of no known kind then goes where `LocalArtifacts` sends it
// (`mayBeChangeLogPastHead`). Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let routed = ArtifactSniffer.routeAndDetect(bytes)
    let detected = ReproReader.detect(bytes)
    if case .some(let kind) = routed.detected {
        precondition(
            kind == detected,
            "the route detected \(String(describing: kind)), the reader \(String(describing: detected))")
    }
    let outcome = ArtifactReader.read(bytes, detected: routed.detected)
    // What `LocalArtifacts` asks next of content of no known kind: whether it may be a change log whose first
    // change line is past its first 64 KiB (the scanner then reads it whole). Inputs are under 64 KiB, so
    // the question is asked of every unrecognized one here.
    if outcome.isUnrecognized, ArtifactSniffer.mayBeChangeLogPastHead(bytes) {
        _ = ChangeLogScanner.parse(bytes)
    }
    return 0
}
