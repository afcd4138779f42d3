// libFuzzer target `tar`: the tar reader and the sysdiagnose member router (`TarScanner`, `SysdiagnoseWalk`).
// Each input is read three times: as it is, with the checksum of every block where a header is expected made right
// (so the fuzzer's bytes reach the size, name, pax and GNU long-name paths instead of stopping at the first
// checksum), and with its first size made a base-256 number near `Int.max`. Each stream is fed whole and in chunks whose sizes the input picks; the events must be the same
// (the reader is chunk-invariant), and the walk's counts must add up. Built and run by Fuzz/run.sh; a crash, trap,
// sanitizer report or failed precondition is a finding.
@testable import MemhuntFormats

/// The events of `bytes` fed in chunks of `sizes` (cycled), data runs joined.
func scan(_ bytes: [UInt8], sizes: [Int]) -> (events: [String], state: TarScanner.State, cut: FormatError?) {
    var scanner = TarScanner()
    var events: [String] = []
    var data: [UInt8] = []
    var index = 0
    var turn = 0
    while index < bytes.count {
        let end = min(bytes.count, index + sizes[turn % sizes.count])
        turn += 1
        bytes[index..<end].withUnsafeBytes { part in
            scanner.feed(part) { event in
                switch event {
                case .member(let member):
                    events.append("member \(member.name) \(member.kind) \(member.size) \(member.offset)")
                case .data(let bytes):
                    precondition(!bytes.isEmpty, "an empty data event")
                    data += bytes
                case .memberEnd:
                    events.append("end \(data.count) \(data.hashValue)")
                    data = []
                }
            }
        }
        index = end
    }
    return (events, scanner.state, scanner.truncation())
}

/// `bytes` with the checksum of each block where a header is expected made right.
func withChecksums(_ input: [UInt8]) -> [UInt8] {
    var bytes = input
    var offset = 0
    while offset + 512 <= bytes.count {
        var sum = 0
        for position in offset..<(offset + 512) {
            sum += (offset + 148..<offset + 156).contains(position) ? 0x20 : Int(bytes[position])
        }
        let digits = Array(String(sum, radix: 8).utf8)
        for i in 0..<8 { bytes[offset + 148 + i] = i < digits.count ? digits[i] : (i == digits.count ? 0 : 0x20) }
        guard let size = TarScanner.number(bytes[(offset + 124)..<(offset + 136)]), size < bytes.count else { break }
        offset += 512 + size + TarScanner.padding(size)
    }
    return bytes
}

/// `bytes` with the first header's size field made a GNU base-256 number near `Int.max` (its low bytes from
/// the input), then its checksum made right: the sums of offsets and sizes must not overflow.
func withHugeSize(_ input: [UInt8]) -> [UInt8] {
    guard input.count >= 512 else { return input }
    var bytes = input
    bytes[124] = 0x80
    for i in 125..<128 { bytes[i] = 0 }
    bytes[128] = 0x7F
    for i in 129..<136 { bytes[i] = 0xF0 | (input[i] & 0x0F) }
    return withChecksums(bytes)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let sizes = input.prefix(4).map { Int($0) + 1 }
    for bytes in [input, withChecksums(input), withHugeSize(input)] {
        let whole = scan(bytes, sizes: [max(1, bytes.count)])
        let chunked = scan(bytes, sizes: sizes.isEmpty ? [1] : sizes)
        precondition(whole.events == chunked.events, "the events depend on the chunks")
        precondition(whole.state == chunked.state, "the state depends on the chunks")
        precondition(whole.cut == chunked.cut, "the truncation depends on the chunks")

        // The walk, within small limits so that each is met by some input.
        var walk = SysdiagnoseWalk(
            limits: ArchiveLimits(
                members: 8, documentBytes: 1000, expandedBytes: 8192, documents: 3, documentTotalBytes: 1500))
        var open = false
        var document = false
        var handed = 0
        func handle(_ event: SysdiagnoseWalk.Event) {
            switch event {
            case .begin(let entry):
                precondition(!open, "a member begun inside another")
                precondition(entry.role != .skipped, "a skipped member handed over")
                precondition(!entry.path.split(separator: "/").contains(".."), "a '..' path handed over")
                open = true
                document = entry.role == .document
                precondition(!document || entry.size <= 1000, "a document over the limit handed over")
                handed = 0
            case .data(let bytes):
                precondition(open, "bytes outside a member")
                handed += bytes.count
                precondition(!document || handed <= 1000, "more bytes of a document than its limit")
            case .end, .abandon:
                precondition(open, "the end of no member")
                open = false
            case .refused: precondition(!open, "a refusal inside a member")
            }
        }
        var index = 0
        var turn = 0
        while index < bytes.count, walk.wantsMore {
            let end = min(bytes.count, index + (sizes.isEmpty ? 1 : sizes[turn % sizes.count]))
            turn += 1
            bytes[index..<end].withUnsafeBytes { walk.feed($0, handle) }
            index = end
        }
        let summary = walk.finish(handle)
        precondition(!open, "a member left open")
        let accounted =
            summary.folders + summary.documents + summary.named + summary.refused + summary.skipped
            + summary.overLimit + summary.logArchives.reduce(0) { $0 + $1.members }
        precondition(accounted == summary.members, "the counts do not add up to the members")
        precondition(summary.members <= 8, "the member limit was passed")
        precondition(summary.documents + summary.named <= 3, "the read members' limit was passed")
        precondition(summary.readBytes <= 1500, "the read bytes' limit was passed")
        _ = summary.sentences
    }
    return 0
}
