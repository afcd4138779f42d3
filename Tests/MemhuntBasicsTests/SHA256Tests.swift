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
    /// 3 MiB of a fixed pattern; the digests below are Python's hashlib over the same bytes.
    static let pattern = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ ($0 >> 11)) }

    @Test func largeUpdatesInterleavedWithSmallAndRawOnesKeepTheirOrder() {
        let bytes = Self.pattern
        var hasher = SHA256()
        hasher.update(bytes[0..<(1 << 20)])  // background
        hasher.update(bytes[(1 << 20)..<((1 << 20) + 5)])  // small: after the queue drains
        bytes[((1 << 20) + 5)..<(2 << 20)].withUnsafeBytes { hasher.update($0) }  // raw: on this thread
        hasher.update(Array(bytes[(2 << 20)...]))  // background again
        #expect(hasher.finalizeHex() == "c76ad6093b09df18d3c426b8d89a534fb06a63f451ca8255c9b0c3c804106277")
    }

    @Test func copiesAreIndependent() {
        let bytes = Self.pattern
        var first = SHA256()
        first.update(bytes[0..<(2 << 20)])
        var second = first
        first.update(bytes[(2 << 20)...])
        second.update(bytes[(2 << 20)...])
        let whole = "c76ad6093b09df18d3c426b8d89a534fb06a63f451ca8255c9b0c3c804106277"
        #expect(first.finalizeHex() == whole)
        #expect(second.finalizeHex() == whole)
        var third = SHA256()
        third.update(bytes[0..<(2 << 20)])
        let fourth = third
        _ = fourth
        #expect(third.finalizeHex() == "95d78aafb8784a84cbff6599972c4703e39040ee00ed3cf3e068cac7e1761b8a")
    }
}
