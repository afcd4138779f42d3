/// One member of a tar stream as its header gives it, after the pax or GNU long-name records before it.
public struct TarMember: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A regular file (type `0`, NUL or `7`): its bytes follow.
        case file
        case directory
        case symbolicLink
        case hardLink
        /// Any other type flag (devices, FIFOs, GNU sparse or volume headers); its declared bytes follow.
        case other(UInt8)
    }

    /// As written: the pax `path`, else the GNU long name, else the ustar prefix and name.
    public var name: String
    public var kind: Kind
    /// The bytes that follow the header (0 for folders and links, whatever their size field says).
    public var size: Int
    /// A link's target, as written (never followed).
    public var linkName: String
    /// The offset of its header block in the tar stream.
    public var offset: Int
}

/// What a tar stream gives as it is read.
public enum TarEvent {
    /// A member's header (pax and GNU long-name records are applied, not handed over).
    case member(TarMember)
    /// The next bytes of the member last announced; valid only during the call.
    case data(UnsafeRawBufferPointer)
    /// The member last announced is complete.
    case memberEnd
}

/// A tar stream (ustar, pax, GNU) read as it arrives, in bounded memory: `feed` hands each member's header and
/// bytes to a closure; nothing is extracted. Sizes are octal or GNU base-256; every header's checksum is
/// checked (unsigned or signed sums, as tar writes either). Pax and GNU long-name records are kept up to
/// `metaLimit` bytes each. The archive ends at a zero block (tar writes two; one then the end of the input
/// is accepted).
public struct TarScanner: Sendable {
    /// Pax and GNU long-name records longer than this are refused (a path is at most a few KB).
    public static let metaLimit = 1 << 20

    public enum State: Sendable, Hashable {
        /// Reading headers and members.
        case reading
        /// The end-of-archive block was read; the rest of the input is not looked at.
        case ended
        /// The stream is not a tar stream from `offset` on (a broken header or record); nothing after it is read.
        case failed(FormatError)
    }

    public private(set) var state: State = .reading
    /// Bytes of the tar stream consumed.
    public private(set) var offset = 0

    private enum Phase: Sendable {
        case header
        /// A member's bytes, then its padding to the block.
        case data(remaining: Int, padding: Int)
        /// A pax (`x`, `g`) or GNU (`L`, `K`) record's bytes, then padding.
        case meta(type: UInt8, remaining: Int, padding: Int)
        /// Padding after a member or record.
        case padding(Int)
    }

    private var phase = Phase.header
    private var block: [UInt8] = []
    private var meta: [UInt8] = []
    private var zeroBlocks = 0
    /// Applied to the next member only: a GNU long name and link, a pax path, link path and size.
    private var longName: String?
    private var longLink: String?
    private var paxPath: String?
    private var paxLink: String?
    private var paxSize: Int?
    /// The member being read, for `truncation`.
    private var current: TarMember?

    public init() {}

    /// Reads `bytes`, the next part of the stream, handing `handle` every event they complete.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (TarEvent) -> Void) {
        var index = 0
        while index < bytes.count, state == .reading {
            switch phase {
            case .header:
                let take = min(512 - block.count, bytes.count - index)
                block.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))
                index += take
                offset += take
                guard block.count == 512 else { continue }
                let header = block
                block.removeAll(keepingCapacity: true)
                readHeader(header, at: offset - 512, handle)
            case .data(let remaining, let padding):
                let take = min(remaining, bytes.count - index)
                if take > 0 { handle(.data(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))) }
                index += take
                offset += take
                if take == remaining {
                    handle(.memberEnd)
                    current = nil
                    phase = padding > 0 ? .padding(padding) : .header
                } else {
                    phase = .data(remaining: remaining - take, padding: padding)
                }
            case .meta(let type, let remaining, let padding):
                let take = min(remaining, bytes.count - index)
                meta.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + take)]))
                index += take
                offset += take
                if take == remaining {
                    phase = padding > 0 ? .padding(padding) : .header
                    applyMeta(type, at: offset - meta.count)
                    meta.removeAll(keepingCapacity: false)
                } else {
                    phase = .meta(type: type, remaining: remaining - take, padding: padding)
                }
            case .padding(let remaining):
                let take = min(remaining, bytes.count - index)
                index += take
                offset += take
                phase = take == remaining ? .header : .padding(remaining - take)
            }
        }
    }

    /// Why the stream ended before the archive did, once the input is over: nil when it ended at its end
    /// block (or at a block boundary after one zero block, or before the first byte). The member it cut is
    /// named, with how many of its bytes arrived.
    public func truncation() -> FormatError? {
        guard state == .reading else { return nil }
        switch phase {
        case .header:
            if block.isEmpty && (zeroBlocks > 0 || offset == 0) { return nil }
            if block.isEmpty {
                return FormatError("the tar stream ends without its end-of-archive block", offset: offset)
            }
            return FormatError(
                "the tar stream ends inside a header (\(block.count) of its 512 bytes)", offset: offset - block.count)
        case .data(let remaining, _):
            let name = current?.name ?? "?"
            let size = current?.size ?? remaining
            return FormatError(
                "the tar stream ends inside member \(name): \(size - remaining) of its \(size) bytes", offset: offset)
        case .meta(_, let remaining, _):
            return FormatError(
                "the tar stream ends inside an extended header record (\(remaining) bytes missing)", offset: offset)
        case .padding:
            // The member is whole; only its padding is cut.
            return FormatError("the tar stream ends inside a member's padding", offset: offset)
        }
    }

    private mutating func fail(_ message: String, at offset: Int) {
        state = .failed(FormatError(message, offset: offset))
    }

    private mutating func readHeader(_ header: [UInt8], at start: Int, _ handle: (TarEvent) -> Void) {
        if header.allSatisfy({ $0 == 0 }) {
            zeroBlocks += 1
            if zeroBlocks == 2 { state = .ended }
            return
        }
        zeroBlocks = 0
        guard let stored = Self.octal(header[148..<156]) else {
            fail(start == 0 ? "not a tar archive" : "not a tar header: its checksum field is not octal", at: start)
            return
        }
        // The sums with the checksum field read as eight spaces.
        var (unsigned, signed) = header.withUnsafeBufferPointer { block in
            var unsigned = 0
            var signed = 0
            for byte in block {
                unsigned &+= Int(byte)
                signed &+= Int(Int8(bitPattern: byte))
            }
            for byte in block[148..<156] {
                unsigned &-= Int(byte)
                signed &-= Int(Int8(bitPattern: byte))
            }
            return (unsigned, signed)
        }
        unsigned += 8 * 0x20
        signed += 8 * 0x20
        guard stored == unsigned || stored == signed else {
            fail(
                start == 0
                    ? "not a tar archive"
                    : "not a tar header: its checksum is \(stored), its bytes sum to \(unsigned)", at: start)
            return
        }
        let type = header[156]
        guard var size = Self.number(header[124..<136]) else {
            fail("the size field is neither octal nor base-256", at: start + 124)
            return
        }
        switch type {
        case UInt8(ascii: "x"), UInt8(ascii: "g"), UInt8(ascii: "L"), UInt8(ascii: "K"):
            guard size <= Self.metaLimit else {
                fail("an extended header record of \(size) bytes, over the \(Self.metaLimit)-byte limit", at: start)
                return
            }
            phase = size > 0 ? .meta(type: type, remaining: size, padding: Self.padding(size)) : .header
            if size == 0 { applyMeta(type, at: start + 512) }
            return
        default: break
        }
        let kind: TarMember.Kind
        switch type {
        case 0, UInt8(ascii: "0"), UInt8(ascii: "7"): kind = .file
        case UInt8(ascii: "1"): kind = .hardLink
        case UInt8(ascii: "2"): kind = .symbolicLink
        case UInt8(ascii: "5"): kind = .directory
        default: kind = .other(type)
        }
        if let paxSize { size = paxSize }
        switch type {
        // No bytes follow links, devices, folders and FIFOs, whatever their size field says (POSIX).
        case UInt8(ascii: "1"), UInt8(ascii: "2"), UInt8(ascii: "3"), UInt8(ascii: "4"), UInt8(ascii: "5"),
            UInt8(ascii: "6"):
            size = 0
        default: break
        }
        let posix = header[257..<263].elementsEqual("ustar\0".utf8)
        var name = Self.string(header[0..<100])
        if posix {
            let prefix = Self.string(header[345..<500])
            if !prefix.isEmpty { name = prefix + "/" + name }
        }
        let member = TarMember(
            name: paxPath ?? longName ?? name, kind: kind, size: size,
            linkName: paxLink ?? longLink ?? Self.string(header[157..<257]), offset: start)
        (longName, longLink, paxPath, paxLink, paxSize) = (nil, nil, nil, nil, nil)
        current = member
        handle(.member(member))
        phase = .data(remaining: size, padding: Self.padding(size))
        if size == 0 {
            handle(.memberEnd)
            current = nil
            phase = .header
        }
    }

    /// Applies a complete pax or GNU record to the next member.
    private mutating func applyMeta(_ type: UInt8, at start: Int) {
        switch type {
        case UInt8(ascii: "L"): longName = Self.string(meta[...])
        case UInt8(ascii: "K"): longLink = Self.string(meta[...])
        case UInt8(ascii: "x"), UInt8(ascii: "g"):
            guard let records = Self.paxRecords(meta) else {
                fail("a malformed pax extended header record", at: start)
                return
            }
            // Global records (`g`) hold defaults for every member; memhunt reads none of their keys.
            guard type == UInt8(ascii: "x") else { return }
            for (key, value) in records {
                switch key {
                case "path": paxPath = value
                case "linkpath": paxLink = value
                case "size":
                    guard let number = Self.decimal(value) else {
                        fail("the pax size '\(value.prefix(40))' is not a decimal number", at: start)
                        return
                    }
                    paxSize = number
                default: break
                }
            }
        default: break
        }
    }

    /// `length key=value\n` records; nil when one is malformed.
    static func paxRecords(_ bytes: [UInt8]) -> [(String, String)]? {
        var records: [(String, String)] = []
        var index = 0
        while index < bytes.count {
            // Trailing NUL padding inside the record's size is tolerated.
            if bytes[index] == 0, bytes[index...].allSatisfy({ $0 == 0 }) { break }
            var length = 0
            var cursor = index
            while cursor < bytes.count, (0x30...0x39).contains(bytes[cursor]) {
                guard length < Int.max / 10 - 10 else { return nil }
                length = length * 10 + Int(bytes[cursor] - 0x30)
                cursor += 1
            }
            guard cursor > index, cursor < bytes.count, bytes[cursor] == 0x20, length > cursor - index + 1,
                length <= bytes.count - index, bytes[index + length - 1] == 0x0A
            else { return nil }
            let record = bytes[(cursor + 1)..<(index + length - 1)]
            guard let equals = record.firstIndex(of: UInt8(ascii: "=")) else { return nil }
            records.append(
                (
                    String(decoding: record[..<equals], as: UTF8.self),
                    String(decoding: record[(equals + 1)...], as: UTF8.self)
                ))
            index += length
        }
        return records
    }

    /// The bytes up to the first NUL, as UTF-8 (invalid sequences become U+FFFD).
    static func string(_ field: ArraySlice<UInt8>) -> String {
        let end = field.firstIndex(of: 0) ?? field.endIndex
        return String(decoding: field[..<end], as: UTF8.self)
    }

    /// The padding after `size` bytes to the next 512-byte block.
    static func padding(_ size: Int) -> Int { (512 - size % 512) % 512 }

    /// A numeric field: octal digits after optional spaces, ended by a space, a NUL or the field's end (all
    /// spaces or NULs: 0); or, when its first byte has the high bit, GNU base-256 (a positive big-endian number
    /// in the rest). Nil when neither, negative, or beyond `Int`.
    static func number(_ field: ArraySlice<UInt8>) -> Int? {
        guard let first = field.first else { return nil }
        guard first & 0x80 != 0 else { return octal(field) }
        // 0xFF starts a negative number, which no size is.
        guard first == 0x80 else { return nil }
        var value = 0
        for byte in field.dropFirst() {
            guard value <= (Int.max >> 8) else { return nil }
            value = value << 8 | Int(byte)
        }
        return value
    }

    static func octal(_ field: ArraySlice<UInt8>) -> Int? {
        var index = field.startIndex
        while index < field.endIndex, field[index] == 0x20 { index += 1 }
        var value = 0
        var digits = 0
        while index < field.endIndex, (0x30...0x37).contains(field[index]) {
            guard value <= (Int.max >> 3) else { return nil }
            value = value << 3 | Int(field[index] - 0x30)
            digits += 1
            index += 1
        }
        // What ends the digits: the field's end, or a space or NUL followed by nothing but spaces and NULs.
        guard field[index...].allSatisfy({ $0 == 0 || $0 == 0x20 }) else { return nil }
        return value
    }

    static func decimal(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }
}
