/// HMAC-SHA256 (RFC 2104) over `SHA256`'s public API only, so it is untouched by changes to its internals.
public enum HMACSHA256 {
    /// The 32-byte MAC of `message` under `key`.
    public static func mac<Key: Collection, Message: Collection>(key: Key, message: Message) -> [UInt8]
    where Key.Element == UInt8, Message.Element == UInt8 {
        var block = Array(key)
        if block.count > 64 { block = digest(block) }
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(bytes(hex: inner.finalizeHex()))
        return bytes(hex: outer.finalizeHex())
    }

    /// The MAC as 64 lowercase hex characters.
    public static func hex<Key: Collection, Message: Collection>(key: Key, message: Message) -> String
    where Key.Element == UInt8, Message.Element == UInt8 {
        let digits = Array("0123456789abcdef")
        return String(mac(key: key, message: message).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] })
    }

    /// The raw SHA-256 digest of `bytes`.
    static func digest(_ bytes: [UInt8]) -> [UInt8] { Self.bytes(hex: SHA256.hex(bytes)) }

    /// Lowercase hex (as `finalizeHex` writes it) back to bytes.
    static func bytes(hex: String) -> [UInt8] {
        func nibble(_ c: UInt8) -> UInt8 { c >= 0x61 ? c - 0x61 + 10 : c - 0x30 }
        let utf8 = Array(hex.utf8)
        return stride(from: 0, to: utf8.count - 1, by: 2).map { nibble(utf8[$0]) << 4 | nibble(utf8[$0 + 1]) }
    }
}
