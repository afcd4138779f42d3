import CMappedFile
import Foundation
import MemhuntBasics
import MemhuntFormats
import MemhuntTestSupport
import Testing

@testable import MemhuntArtifacts

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Change logs are scanned and hashed from mappings of the file: a file cut short under its mapping is named
/// and the process lives on; a file that grew after its `stat` is read to its end. Each in one part and in two
/// (`.always`: a large log's way where a probe finds it pays).
@Suite(.serialized) struct MappedFileTests {
    /// Lines of a change log, `count` of them, each 32 bytes.
    static func log(lines count: Int, from first: Int = 0) -> String {
        (first..<(first + count)).map { "View\(String(format: "%06d", $0 % 1000)): @self, _pa changed.\n" }.joined()
    }

    /// Opens `path` and reads its first 64 KiB, as `LocalArtifacts.load` does before it streams.
    static func openWithHead(_ path: String) throws -> (fd: Int32, head: [UInt8]) {
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        var head = [UInt8](repeating: 0, count: 65_536)
        let count = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        try #require(count == 65_536)
        return (fd, head)
    }

    @Test func aPageTheFileLostReadsAsZerosAndIsNoted() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let page = memhunt_page_size()
        try dir.write("three", String(repeating: "x", count: 3 * page))
        let fd = open(dir.path + "/three", O_RDONLY)
        defer { close(fd) }
        var handle: Int32 = -1
        let address = try #require(memhunt_map(fd, 0, 3 * page, &handle))
        #expect(address.load(fromByteOffset: 2 * page, as: UInt8.self) == UInt8(ascii: "x"))
        #expect(memhunt_mapped_truncated(handle) == 0)
        #expect(truncate(dir.path + "/three", off_t(page)) == 0)
        #expect(address.load(fromByteOffset: 5, as: UInt8.self) == UInt8(ascii: "x"))
        #expect(address.load(fromByteOffset: 2 * page + 5, as: UInt8.self) == 0)
        #expect(address.load(fromByteOffset: page, as: UInt8.self) == 0)
        #expect(memhunt_mapped_truncated(handle) == 1)
        memhunt_unmap(handle)
    }

    /// 8 MiB written, cut to 2 MiB after the `stat` (and after the first 64 KiB were read): the windows past
    /// 2 MiB read as zeros, and the artifact is an error that says why, not a summary of zeros.
    @Test(arguments: [LocalArtifacts.Parts.never, .always]) func aChangeLogCutShortWhileReadIsAnError(
        parts: LocalArtifacts.Parts
    ) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let text = Self.log(lines: 262_144)
        #expect(text.utf8.count == 8 << 20)
        try dir.write("cut.log", text)
        let (fd, head) = try Self.openWithHead(dir.path + "/cut.log")
        defer { close(fd) }
        #expect(ftruncate(fd, 2 << 20) == 0 || truncate(dir.path + "/cut.log", 2 << 20) == 0)
        switch LocalArtifacts.streamChangeLog(
            fd, head: head, more: true, size: text.utf8.count, hash: true, parts: parts)
        {
        case .success(let read): Issue.record("read \(read.total) bytes of a file cut to 2 MiB")
        case .failure(let failure): #expect(failure.message == "the file was truncated while it was read")
        }
    }

    /// 8 MiB at the `stat`, 1 MiB appended before the stream: the mapped part and the read rest make one
    /// digest of every byte in order and counts of every line.
    @Test(arguments: [LocalArtifacts.Parts.never, .always]) func aChangeLogThatGrewAfterItsStatIsReadToItsEnd(
        parts: LocalArtifacts.Parts
    ) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let first = Self.log(lines: 262_144)
        let more = Self.log(lines: 32_768, from: 262_144)
        try dir.write("grows.log", first)
        let (fd, head) = try Self.openWithHead(dir.path + "/grows.log")
        defer { close(fd) }
        let handle = try #require(FileHandle(forWritingAtPath: dir.path + "/grows.log"))
        handle.seekToEndOfFile()
        handle.write(Data(more.utf8))
        handle.closeFile()
        switch LocalArtifacts.streamChangeLog(
            fd, head: head, more: true, size: first.utf8.count, hash: true, parts: parts)
        {
        case .failure(let failure): Issue.record("failed: \(failure.message)")
        case .success(let read):
            #expect(read.total == 9 << 20)
            #expect(read.digest == SHA256.hex(Array((first + more).utf8)))
            #expect(read.summary.evaluations == 294_912)
            #expect(read.summary.views["View000999"] == 294)
        }
    }

    /// With every mapping slot taken (64), the log is read with `pread` from its first window on: the same
    /// digest and counts.
    @Test(arguments: [LocalArtifacts.Parts.never, .always]) func aLogIsReadWhenNoMappingIsLeft(
        parts: LocalArtifacts.Parts
    ) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let text = Self.log(lines: 262_144)
        try dir.write("log.txt", text)
        try dir.write("page", String(repeating: "p", count: memhunt_page_size()))
        let pageFD = open(dir.path + "/page", O_RDONLY)
        defer { close(pageFD) }
        var held: [Int32] = []
        defer { held.forEach(memhunt_unmap) }
        while held.count < 100 {
            var handle: Int32 = -1
            guard memhunt_map(pageFD, 0, memhunt_page_size(), &handle) != nil else { break }
            held.append(handle)
        }
        #expect(errno == EBUSY)
        #expect(held.count <= 64)
        let (fd, head) = try Self.openWithHead(dir.path + "/log.txt")
        defer { close(fd) }
        switch LocalArtifacts.streamChangeLog(
            fd, head: head, more: true, size: text.utf8.count, hash: true, parts: parts)
        {
        case .failure(let failure): Issue.record("failed: \(failure.message)")
        case .success(let read):
            #expect(read.total == 8 << 20)
            #expect(read.digest == SHA256.hex(Array(text.utf8)))
            #expect(read.summary.evaluations == 262_144)
        }
    }

    /// Read in two parts, a log gives the summary and digest it gives in one: a console log, a `--style json`
    /// log and one with a kill line after the cut (the second part absorbed), and one of 10,050 views, past the
    /// cap of 10,000 names (the second part read again by the first scanner).
    @Test(arguments: ["console", "json", "kill", "names"])
    func aLogReadInTwoPartsIsTheLogReadInOne(style: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var text: String
        switch style {
        case "json":
            text = "["
            for index in 0..<40_000 {
                text +=
                    (index == 0 ? "" : ",") + """
                        {
                          "timestamp" : "2026-08-12 14:03:\(String(format: "%02d", index / 1000 % 60)).\(String(format: "%03d", index % 1000))000+0900",
                          "processImagePath" : "/private/var/containers/Bundle/Application/X/Memo.app/Memo",
                          "eventMessage" : "View\(index % 97): _state, @self changed.",
                          "processID" : 48211
                        }
                        """
            }
            text += "]\n"
        case "names":
            text = (0..<262_144).map { "View\($0 % 10_050): @self, _pa changed.\n" }.joined()
        default:
            text = Self.log(lines: 262_144)
            if style == "kill" {
                text +=
                    "2026-08-12 14:03:06.000 Df kernel[0:1f2a] memorystatus: killing_specific_process pid 48211 "
                    + "[Memo] (per-process-limit 100 341s rf:- type:app) 2148532KB - memorystatus_available_pages: 73240\n"
                text += Self.log(lines: 1000)
            }
        }
        try dir.write("log", text)
        var results: [(summary: ChangeLogSummary, total: Int, digest: String?)] = []
        for parts in [LocalArtifacts.Parts.never, .always] {
            let (fd, head) = try Self.openWithHead(dir.path + "/log")
            defer { close(fd) }
            switch LocalArtifacts.streamChangeLog(
                fd, head: head, more: true, size: text.utf8.count, hash: true, parts: parts)
            {
            case .failure(let failure): Issue.record("failed: \(failure.message)")
            case .success(let read): results.append(read)
            }
        }
        try #require(results.count == 2)
        #expect(results[1].summary == results[0].summary)
        #expect(results[1].total == text.utf8.count)
        #expect(results[1].digest == SHA256.hex(Array(text.utf8)))
        #expect(results[0].digest == results[1].digest)
        let evaluations = ["console": 262_144, "json": 40_000, "kill": 263_144, "names": 262_144][style]
        #expect(results[1].summary.evaluations == evaluations)
        #expect(results[1].summary.kills.kills.count == (style == "kill" ? 1 : 0))
        // Cut after a line that ends a record, a `--style json` log is absorbed too; names past the cap make the
        // first scanner read the second part again.
        let (fd, head) = try Self.openWithHead(dir.path + "/log")
        defer { close(fd) }
        let read = try LocalArtifacts.streamChangeLogInParts(
            fd, head: head, size: text.utf8.count, hash: true, always: true
        ).get()
        #expect(read.way == (style == "names" ? .readAgain : .absorbed))
        #expect(read.summary == results[0].summary)
    }
}
