// libFuzzer target `crash-ips`: JSON (.ips, bug_type 309) crash reports.
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let body = ArtifactReader.sniffIPSHeader(bytes)
    guard let value = try? JSON.parse(Array(bytes[(body?.bodyOffset ?? 0)...])) else { return 0 }
    if let report = try? CrashParser.parse(jsonBody: value, header: body?.header) { _ = CrashParser.classify(report) }
    return 0
}
