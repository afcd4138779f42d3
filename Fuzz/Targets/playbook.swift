// libFuzzer target `playbook`: the playbook loader (YAML, then the decoder and its diagnostics), with the
// built-in checks' descriptions as the CLI has them. Built and run by Fuzz/run.sh; a crash, trap or
// sanitizer report is a finding.
import MemhuntChecks
import MemhuntCore

let loader = PlaybookLoader(knownChecks: builtInChecks.map { $0.description })

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    switch loader.load(text: text, origin: "fuzz.yaml", directory: "/nonexistent", isRemote: size % 2 == 0) {
    case .success(let playbook): _ = playbook.steps.count
    case .failure(let error): _ = error.description
    }
    return 0
}
