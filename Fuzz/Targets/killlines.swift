// libFuzzer target `killlines`: the kill-line reader (`MemoryKillLines`) line by line, and through the change-log
// scanner. Its records stay within their caps, cite lines that exist and keep names within their length, read
// alone or through the scanner.
// Built and run by Fuzz/run.sh; a crash, trap or sanitizer report is a finding.
@testable import MemhuntFormats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var reader = MemoryKillLines()
    var number = 0
    for line in bytes.split(separator: 10, omittingEmptySubsequences: false) {
        number += 1
        var text = Array(line)
        while let last = text.last, last == 32 || last == 13 || last == 9 { text.removeLast() }
        text.withUnsafeBufferPointer { reader.take($0, number: number, timestamp: nil) }
        _ = MemoryKillLines.parse(text)
        _ = MemoryKillLines.leadingTimestamp(text)
    }
    let log = reader.result
    precondition(log.kills.count <= MemoryKillLines.maxKills && log.problems.count <= MemoryKillLines.maxProblems)
    precondition(log.problems.count <= log.problemCount)
    for kill in log.kills {
        precondition(kill.line >= 1 && kill.line <= number, "line \(kill.line) of \(number)")
        precondition((kill.process?.count ?? 0) <= MemoryKillLines.maxName + 1, "a name past the cap")
        precondition(!kill.seen.isEmpty)
    }
    var scanner = ChangeLogScanner(lineCap: 1 << 20)
    scanner.feed(bytes[...])
    let scanned = scanner.finish().kills
    precondition(scanned.kills.count <= MemoryKillLines.maxKills && scanned.problems.count <= MemoryKillLines.maxProblems)
    return 0
}
