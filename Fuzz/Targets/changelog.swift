// libFuzzer target `changelog`: the change-log scanner, differential: chunked feeding, small caches, a log read
// in two parts by two scanners and the pre-rewrite scanner must agree.
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // The first byte picks a chunk size (1...256) and a line cap (16...4111) so splits and caps vary.
    let chunk = Int(bytes.first ?? 0) + 1
    let cap = 16 + Int(bytes.last ?? 0) * 16
    var whole = ChangeLogScanner(lineCap: cap)
    whole.feed(bytes[...])
    let summary = whole.finish()
    var pieces = ChangeLogScanner(lineCap: cap)
    var offset = 0
    while offset < bytes.count {
        pieces.feed(bytes[offset..<min(bytes.count, offset + chunk)])
        offset += chunk
    }
    precondition(pieces.finish() == summary, "chunks of \(chunk) change the summary")
    // Caches of 1 to 32 tails (the second byte picks) are full at once: those paths give the same summary.
    let capacity = 1 << (Int(bytes.dropFirst().first ?? 0) % 6)
    var small = ChangeLogScanner(lineCap: cap, cacheCapacity: capacity)
    small.feed(bytes[...])
    precondition(small.finish() == summary, "caches of \(capacity) change the summary")
    // Cut after a line (the third byte picks where): a second scanner reads the rest and the first absorbs it,
    // or, when it cannot, reads the rest itself. Either way the summary is the whole's.
    let near = bytes.count * Int(bytes.dropFirst(2).first ?? 0) / 256
    if let newline = bytes[near...].firstIndex(of: 10) {
        let cut = newline + 1
        var head = ChangeLogScanner(lineCap: cap)
        head.feed(bytes[..<cut])
        var rest = ChangeLogScanner(lineCap: cap, cacheCapacity: capacity, continuing: true)
        rest.feed(bytes[cut...])
        if !head.absorb(rest) { head.feed(bytes[cut...]) }
        precondition(head.finish() == summary, "a cut after byte \(cut) changes the summary")
    }
    var reference = ReferenceChangeLogScanner(lineCap: cap)
    reference.feed(bytes[...])
    let expected = reference.finish()
    // The reference predates the kill lines: the change lines' summary must agree, kills aside.
    var changes = summary
    changes.kills = MemoryKillLog()
    precondition(changes == expected, "differs from the reference scanner: \(changes) vs \(expected)")
    _ = ChangeLogScanner.matches(bytes[...])
    return 0
}
