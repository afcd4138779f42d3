// libFuzzer target `viewdump`: UIKit recursiveDescription / pviews dumps, differential against the pre-rewrite parser.
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = ViewHierarchyDump.matches(bytes[...])
    let new = ViewHierarchyDump.parse(bytes)
    let old = ReferenceViewHierarchyDump.parse(bytes)
    precondition(new == old, "ViewHierarchyDump.parse differs from the reference: \(new) vs \(old)")
    return 0
}
