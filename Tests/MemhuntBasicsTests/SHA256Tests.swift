import MemhuntBasics
import Testing

@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ])
    func knownVectors(input: String, digest: String) {
        #expect(SHA256.hex(Array(input.utf8)) == digest)
    }

    @Test func streamingEqualsOneShot() {
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var hasher = SHA256()
        var offset = 0
        for size in [1, 63, 64, 65, 127, 1000, 3] where offset < bytes.count {
            let end = min(bytes.count, offset + size)
            hasher.update(bytes[offset..<end])
            offset = end
        }
        hasher.update(bytes[offset...])
        #expect(hasher.finalizeHex() == SHA256.hex(bytes))
    }

    @Test func millionAs() {
        var hasher = SHA256()
        let chunk = [UInt8](repeating: 0x61, count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        #expect(hasher.finalizeHex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}

@Suite struct SHA256BackgroundTests {
    /// Three 96 KiB chunks (over the 64 KiB background threshold) of a fixed pattern; the digests below are
    /// Python's hashlib over the same bytes.
    static let chunk = 96 << 10
    static let pattern = (0..<(3 * chunk)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ ($0 >> 11)) }

    @Test func largeUpdatesInterleavedWithSmallAndRawOnesKeepTheirOrder() {
        let bytes = Self.pattern
        var hasher = SHA256()
        hasher.update(bytes[0..<Self.chunk])  // background
        hasher.update(bytes[Self.chunk..<(Self.chunk + 5)])  // small: after the queue drains
        bytes[(Self.chunk + 5)..<2 * Self.chunk].withUnsafeBytes { hasher.update($0) }  // raw: on this thread
        hasher.update(Array(bytes[(2 * Self.chunk)...]))  // background again
        #expect(hasher.finalizeHex() == "bff3748ef50dc03d16ded269d462257b09024793b3dcd96afbf60c65709d5ec9")
    }

    @Test func copiesAreIndependent() {
        let bytes = Self.pattern
        var first = SHA256()
        first.update(bytes[0..<2 * Self.chunk])
        var second = first
        first.update(bytes[(2 * Self.chunk)...])
        second.update(bytes[(2 * Self.chunk)...])
        let whole = "bff3748ef50dc03d16ded269d462257b09024793b3dcd96afbf60c65709d5ec9"
        #expect(first.finalizeHex() == whole)
        #expect(second.finalizeHex() == whole)
        var third = SHA256()
        third.update(bytes[0..<2 * Self.chunk])
        let fourth = third
        _ = fourth
        #expect(third.finalizeHex() == "d4dc6de573913b83a55cc7ab5cde9d959df53f5286422b1625fe45747c4bb952")
    }
}
