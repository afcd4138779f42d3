import MemhuntBasics
import Testing

/// RFC 4231 test vectors.
@Suite struct HMACTests {
    @Test func rfc4231Case1() {
        let key = [UInt8](repeating: 0x0b, count: 20)
        #expect(
            HMACSHA256.hex(key: key, message: Array("Hi There".utf8))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    @Test func rfc4231Case2() {
        #expect(
            HMACSHA256.hex(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func rfc4231Case6KeyLongerThanABlock() {
        let key = [UInt8](repeating: 0xaa, count: 131)
        let message = Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        #expect(
            HMACSHA256.hex(key: key, message: message)
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        #expect(HMACSHA256.mac(key: key, message: message).count == 32)
    }
}
