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
