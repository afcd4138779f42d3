// libFuzzer target `manifest`: the manifest reader (JSON or YAML lists of artifacts) and the resolution
// of every entry against a base URL. Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is
// a finding.
import Foundation
import MemhuntArtifacts

let base = URL(string: "https://example.com/incidents/42/manifest.json")!

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = Manifest.looksLikeManifest(bytes)
    guard let entries = try? Manifest.parse(bytes) else { return 0 }
    for (offset, entry) in entries.enumerated() {
        _ = try? Manifest.resolve(entry, against: base, number: offset + 1)
    }
    return 0
}
