// libFuzzer target `reader`: the whole reader: the route a file takes, sniffing order and every parser behind it.
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = ArtifactSniffer.routeAndDetect(bytes)
    _ = ArtifactReader.read(bytes)
    _ = ReproReader.detect(bytes)
    return 0
}
