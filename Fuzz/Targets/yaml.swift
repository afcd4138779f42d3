// libFuzzer target `yaml`: the YAML parser behind playbooks (libyaml events to YAMLNode).
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
import MemhuntYAML

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? YAMLParser.parse(String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self))
    return 0
}
