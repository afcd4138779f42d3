// libFuzzer target `reader`: the whole reader as a file meets it: the route taken from the first bytes, then
// sniffing in order and every parser behind it, given the route's detection as `LocalArtifacts` gives it.
// The route's detection, when it made one, must be the reader's own on the same bytes (inputs are under the
// 64 KiB window). Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
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
    _ = ArtifactReader.read(bytes, detected: routed.detected)
    return 0
}
