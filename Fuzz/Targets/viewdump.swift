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
    for line in ReproText.lines(bytes) {
        let (depth, body) = ViewHierarchyDump.stripDepth(line)
        let expected = ReferenceViewHierarchyDump.stripDepth(line)
        precondition(
            depth == expected.depth
                && body.startIndex.utf16Offset(in: line) == expected.body.startIndex.utf16Offset(in: line),
            "stripDepth differs from the reference on \(line.debugDescription)")
    }
    return 0
}
