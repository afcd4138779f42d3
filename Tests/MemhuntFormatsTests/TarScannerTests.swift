import MemhuntTestSupport
import Testing

@testable import MemhuntFormats

/// Tar streams written byte by byte here, so every field is the test's own.
enum TarBytes {
    /// One 512-byte header. `size` is written in octal unless `sizeField` gives the 12 bytes; `magic` is POSIX
    /// ustar by default (`"ustar  \0"` for GNU); `checksumDelta` spoils the checksum.
    static func header(
        _ name: String, size: Int = 0, type: Character = "0", link: String = "", prefix: String = "",
        magic: [UInt8] = Array("ustar\u{0}00".utf8), sizeField: [UInt8]? = nil, checksumDelta: Int = 0
    ) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        func put(_ bytes: [UInt8], at offset: Int) { for (i, b) in bytes.enumerated() { block[offset + i] = b } }
        put(Array(name.utf8.prefix(100)), at: 0)
        put(Array("0000644\u{0}".utf8), at: 100)
        put(
            sizeField
                ?? Array(
                    (String(repeating: "0", count: max(0, 11 - String(size, radix: 8).count)) + String(size, radix: 8)
                        + "\u{0}").utf8), at: 124)
        put(Array("00000000000\u{0}".utf8), at: 136)
        block[156] = type.asciiValue!
        put(Array(link.utf8.prefix(100)), at: 157)
        put(magic, at: 257)
        put(Array(prefix.utf8.prefix(155)), at: 345)
        put(Array("        ".utf8), at: 148)
        let sum = block.reduce(0) { $0 + Int($1) } + checksumDelta
        let digits = String(sum, radix: 8)
        put(Array((String(repeating: "0", count: 6 - digits.count) + digits + "\u{0} ").utf8), at: 148)
        return block
    }

    /// A header, the bytes, the padding.
    static func member(_ name: String, _ data: [UInt8], type: Character = "0", prefix: String = "") -> [UInt8] {
        header(name, size: data.count, type: type, prefix: prefix) + data
            + [UInt8](repeating: 0, count: (512 - data.count % 512) % 512)
    }

    /// A pax `x` record set for the next member.
    static func pax(_ records: [(String, String)]) -> [UInt8] {
        var body: [UInt8] = []
        for (key, value) in records {
            let rest = " \(key)=\(value)\n"
            var length = rest.utf8.count + 1
            while String(length).count + rest.utf8.count != length { length += 1 }
            body += Array((String(length) + rest).utf8)
        }
        return member("././@PaxHeader", body, type: "x")
    }

    static let end = [UInt8](repeating: 0, count: 1024)
}

/// One event as a test compares it.
enum Seen: Equatable {
    case member(String, Int)
    case bytes([UInt8])
    case end
}

extension TarScanner {
    /// Every event of `bytes` fed `chunk` bytes at a time, data runs joined.
    static func events(_ bytes: [UInt8], chunk: Int = .max) -> (events: [Seen], scanner: TarScanner) {
        var scanner = TarScanner()
        var seen: [Seen] = []
        var index = 0
        repeat {
            let end = min(bytes.count, index + max(1, min(chunk, bytes.count)))
            bytes[index..<end].withUnsafeBytes { part in
                scanner.feed(part) { event in
                    switch event {
                    case .member(let member): seen.append(.member(member.name, member.size))
                    case .data(let data):
                        if case .bytes(let earlier)? = seen.last {
                            seen[seen.count - 1] = .bytes(earlier + Array(data))
                        } else {
                            seen.append(.bytes(Array(data)))
                        }
                    case .memberEnd: seen.append(.end)
                    }
                }
            }
            index = end
        } while index < bytes.count
        return (seen, scanner)
    }
}

@Suite struct TarScannerTests {
    @Test func ustarMembersWithPrefixAreReadWholeInAnyChunking() {
        let stream =
            TarBytes.member("a.txt", Array("hello".utf8))
            + TarBytes.member("crashes_and_spins/JetsamEvent.ips", Array("{}".utf8), prefix: "sysdiagnose_x")
            + TarBytes.member("empty", []) + TarBytes.end
        let expected: [Seen] = [
            .member("a.txt", 5), .bytes(Array("hello".utf8)), .end,
            .member("sysdiagnose_x/crashes_and_spins/JetsamEvent.ips", 2), .bytes(Array("{}".utf8)), .end,
            .member("empty", 0), .end,
        ]
        for chunk in [1, 7, 511, 512, 513, 4096, Int.max] {
            let (events, scanner) = TarScanner.events(stream, chunk: chunk)
            #expect(events == expected, "chunk \(chunk)")
            #expect(scanner.state == .ended)
            #expect(scanner.truncation() == nil)
        }
    }

    @Test func paxPathAndSizeAndGNULongNamesApplyToTheNextMemberOnly() {
        let long = String(repeating: "d/", count: 80) + "ps.txt"
        let stream =
            TarBytes.pax([("path", long), ("size", "3")]) + TarBytes.header("short", size: 0) + Array("abc".utf8)
            + [UInt8](repeating: 0, count: 509)
            + TarBytes.member("././@LongLink", Array((long + "2").utf8) + [0], type: "L")
            + TarBytes.member("cut", Array("x".utf8)) + TarBytes.member("plain", []) + TarBytes.end
        let (events, scanner) = TarScanner.events(stream, chunk: 100)
        #expect(
            events == [
                .member(long, 3), .bytes(Array("abc".utf8)), .end, .member(long + "2", 1), .bytes(Array("x".utf8)),
                .end, .member("plain", 0), .end,
            ])
        #expect(scanner.state == .ended)
    }

    @Test func sizesAreOctalOrBase256AndNothingElse() {
        #expect(TarScanner.number(Array("00000001750\u{0}".utf8)[...]) == 1000)
        #expect(TarScanner.number(Array("     1750 \u{0}\u{0}".utf8)[...]) == 1000)
        #expect(TarScanner.number([UInt8](repeating: 0, count: 12)[...]) == 0)
        // 10 GB in GNU base-256: 0x80, then big-endian.
        let tenGB = 10_000_000_000
        var field: [UInt8] = [0x80] + [UInt8](repeating: 0, count: 11)
        for i in 0..<8 { field[11 - i] = UInt8(truncatingIfNeeded: tenGB >> (8 * i)) }
        #expect(TarScanner.number(field[...]) == tenGB)
        #expect(TarScanner.number(([0xFF] + [UInt8](repeating: 0xFF, count: 11))[...]) == nil)  // negative
        #expect(TarScanner.number(([0x80] + [UInt8](repeating: 0xFF, count: 11))[...]) == nil)  // beyond Int
        #expect(TarScanner.number(Array("00000001789\u{0}".utf8)[...]) == nil)
        #expect(TarScanner.number(Array("0000 001750\u{0}".utf8)[...]) == nil)
    }

    @Test func aBadChecksumStopsTheStreamAtItsHeader() {
        let stream = TarBytes.member("a", [1]) + TarBytes.header("b", size: 1, checksumDelta: 1) + [2] + TarBytes.end
        let (events, scanner) = TarScanner.events(stream)
        #expect(events == [.member("a", 1), .bytes([1]), .end])
        guard case .failed(let error) = scanner.state else {
            Issue.record("not failed: \(scanner.state)")
            return
        }
        #expect(error.offset == 1024)
        #expect(error.message.hasPrefix("not a tar header: its checksum is "))
        let first = TarScanner.events(Array("not a tar at all".utf8) + [UInt8](repeating: 0x41, count: 600)).scanner
        #expect(first.state == .failed(FormatError("not a tar archive", offset: 0)))
    }

    @Test func theEndOfTheInputInsideAMemberNamesItAndItsBytes() {
        let whole = TarBytes.member("logs/big.log", [UInt8](repeating: 0x61, count: 1000)) + TarBytes.end
        let scanner = TarScanner.events(Array(whole[..<(512 + 300)])).scanner
        #expect(
            scanner.truncation()
                == FormatError("the tar stream ends inside member logs/big.log: 300 of its 1000 bytes", offset: 812))
        #expect(
            TarScanner.events(Array(whole[..<100])).scanner.truncation()?.message
                == "the tar stream ends inside a header (100 of its 512 bytes)")
        #expect(
            TarScanner.events(Array(whole[..<1536])).scanner.truncation()?.message
                == "the tar stream ends without its end-of-archive block")
        #expect(TarScanner.events([]).scanner.truncation() == nil)
    }

    @Test func foldersAndLinksCarryNoBytesWhateverTheirSizeField() {
        let stream =
            TarBytes.header("dir/", size: 4096, type: "5")
            + TarBytes.header("l", size: 99, type: "2", link: "/etc/passwd")
            + TarBytes.member("after", [7]) + TarBytes.end
        let (events, scanner) = TarScanner.events(stream)
        #expect(events == [.member("dir/", 0), .end, .member("l", 0), .end, .member("after", 1), .bytes([7]), .end])
        #expect(scanner.state == .ended)
    }

    @Test func malformedPaxRecordsAreRefused() {
        #expect(TarScanner.paxRecords(Array("12 path=abc\n".utf8))?.first?.1 == "abc")
        #expect(TarScanner.paxRecords(Array("99 path=abc\n".utf8)) == nil)
        #expect(TarScanner.paxRecords(Array("3 p\n".utf8)) == nil)
        #expect(TarScanner.paxRecords(Array("12 pathXabc\n".utf8)) == nil)
        let stream = TarBytes.member("h", Array("5 x\n\n".utf8), type: "x") + TarBytes.member("a", []) + TarBytes.end
        guard case .failed(let error) = TarScanner.events(stream).scanner.state else {
            Issue.record("a malformed pax record was accepted")
            return
        }
        #expect(error.message == "a malformed pax extended header record")
    }
}
