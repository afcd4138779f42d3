// libFuzzer target `gzip`: a sysdiagnose archive read from a file as memhunt reads one (`SysdiagnoseArchive.read`:
// zlib's inflate of concatenated gzip members, cut and corrupt streams, the trailer's check, the tar walk behind
// it). Each input is written to a file twice: as it is, and gzip-compressed (so the fuzzer's bytes reach the tar
// walk too), each then also cut at a point the input picks. The archive's artifact comes first, and a cut or
// corrupt stream is never called ok. Built and run by Fuzz/run.sh; a crash, trap, sanitizer report or failed
// precondition is a finding.
import Foundation
import MemhuntArtifacts
import MemhuntCore

let path = NSTemporaryDirectory() + "memhunt-fuzz-gzip-\(getpid()).tar.gz"

/// `bytes` as one gzip member (stored blocks: no compression, a valid stream with its CRC-32 and length).
func gzipStored(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
    var index = 0
    repeat {
        let count = min(65_535, bytes.count - index)
        let last: UInt8 = index + count == bytes.count ? 1 : 0
        out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
        out += bytes[index..<(index + count)]
        index += count
    } while index < bytes.count
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    crc = ~crc
    let length = UInt32(truncatingIfNeeded: bytes.count)
    for value in [crc, length] { out += (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    return out
}

func read(_ bytes: [UInt8]) -> [Artifact] {
    FileManager.default.createFile(atPath: path, contents: Data(bytes))
    defer { unlink(path) }
    return SysdiagnoseArchive.read(path: path, limits: .standard)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let cut = input.first.map { Int($0) } ?? 0
    let wrapped = gzipStored(input)
    for bytes in [input, wrapped, Array(wrapped.prefix(max(0, wrapped.count - 1 - cut % 12)))] {
        let artifacts = read(bytes)
        precondition(artifacts.first?.source == path, "the archive's artifact is not first")
        if bytes.count < wrapped.count, bytes.starts(with: wrapped.prefix(bytes.count)), bytes.count >= 10 {
            // A gzip stream cut short, even inside its trailer, is never an archive read whole.
            precondition(artifacts[0].status != .ok, "a cut gzip stream read as ok")
        }
    }
    return 0
}
