// libFuzzer target `jetsam`: JetsamEvent bodies, behind an .ips header or bare.
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let body = ArtifactReader.sniffIPSHeader(bytes)
    guard let value = try? JSON.parse(Array(bytes[(body?.bodyOffset ?? 0)...])) else { return 0 }
    _ = JetsamParser.isJetsamBody(value)
    _ = try? JetsamParser.parse(body: value, header: body?.header)
    return 0
}
