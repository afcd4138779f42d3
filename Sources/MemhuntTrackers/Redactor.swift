import Foundation
import MemhuntReports

/// Replaces device and user identifiers with stable placeholders before anything leaves the machine: the
/// same identifier gets the same placeholder for the whole run (`<user-1>` in every path of the same user).
///
/// What is an identifier, as patterns (the scanner below matches exactly these, leftmost first, and at one
/// position the first listed):
///
/// | kind | pattern (the identifier in parentheses) |
/// |---|---|
/// | `app-container` | `/Containers/(Data\|Bundle\|Shared/AppGroup)/(Application\|PluginKitPlugin)?/?(UUID)` |
/// | `user` | `/(Users\|home)/(NAME)`: up to a slash, a space, a quote, `<>\,;:!?()[]{}` or the end, without trailing dots |
/// | `email` | `(LOCAL@DOMAIN.TLD)`, the local part starting where a run of `[A-Za-z0-9._%+-]` starts |
/// | `crash-reporter-key` | `crash_?reporter[_ ]?key` SEP `([0-9A-Za-z-]{8,})`: the `.ips` key and the legacy `CrashReporter Key:` line |
/// | `incident` | `incident(_?id(entifier)?\| identifier)?` SEP `(hex{8}-[hex-]{27})` |
/// | `beta-identifier` | `beta_?identifier\|beta identifier` SEP `([0-9A-Za-z-]{8,})` |
/// | `device` | `udid\|device_?identifier\|device_?id\|serial_?number\|serial number` SEP `([0-9A-Za-z-]{8,})` |
/// | `device` | `\b(hex{8}-hex{16})\b`, and `\b(hex{40})\b` (the UDID of devices before 2018; a sha256 has 64) |
///
/// Labels are matched without regard to case; SEP is `["']?\s*[:=]\s*["']?`.
///
/// One pass over the UTF-8 bytes, linear in the length of the text. The `NSRegularExpression` rules this replaces
/// retried the e-mail pattern from every letter of a word, scanning the rest of the word each time (quadratic in the
/// word's length), and rebuilt the text once per identifier; bridged to UTF-16 once per rule, even linear patterns were
/// slow on large texts.
public final class Redactor: @unchecked Sendable {
    private var placeholders: [String: [String: String]] = [:]
    private let lock = NSLock()

    public init() {}

    /// `text` with every identifier replaced. Placeholders are numbered per kind in order of appearance.
    public func redact(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            Scanner.classes.withUnsafeBufferPointer { classes in
                let scanner = Scanner(bytes: bytes, classes: classes)
                var out: [UInt8] = []
                var copied = 0
                var index = 0
                let inWord = Scanner.local | Scanner.word
                while index < bytes.count {
                    // Inside a word only a label may start: skip the rest of the word's other letters at once.
                    if index > 0, classes[Int(bytes[index - 1])] & inWord == inWord {
                        while index < bytes.count, classes[Int(bytes[index])] & (inWord | Scanner.start) == inWord {
                            index += 1
                        }
                        guard index < bytes.count else { break }
                    }
                    guard classes[Int(bytes[index])] & Scanner.trigger != 0,
                        let (kind, value) = scanner.match(at: index)
                    else {
                        index += 1
                        continue
                    }
                    if out.isEmpty { out.reserveCapacity(bytes.count + bytes.count / 16) }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<value.lowerBound]))
                    let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[value]), as: UTF8.self)
                    out.append(contentsOf: placeholder(kind, name).utf8)
                    copied = value.upperBound
                    index = value.upperBound
                }
                guard copied > 0 else { return String(decoding: bytes, as: UTF8.self) }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
                return String(decoding: out, as: UTF8.self)
            }
        }
    }

    /// The placeholder of `value`: the same for the same value, numbered per kind in order of appearance.
    func placeholder(_ kind: String, _ value: String) -> String {
        lock.lock()
        defer { lock.unlock() }
        if let known = placeholders[kind]?[value] { return known }
        let made = "<\(kind)-\((placeholders[kind]?.count ?? 0) + 1)>"
        placeholders[kind, default: [:]][value] = made
        return made
    }

    /// The document with every identifier in its JSON text replaced (placeholders hold no quote or
    /// backslash, so the text stays valid JSON); a document that would not read back is an error, never
    /// sent unredacted.
    public func redact(_ document: FindingsDocument) throws(TrackerError) -> FindingsDocument {
        do {
            return try FindingsDocument.decode(Array(redact(document.encoded()).utf8))
        } catch {
            throw TrackerError(
                tracker: "redaction", target: "", message: "the redacted document does not read back: \(error)")
        }
    }
}

/// The identifiers of the table above, matched on UTF-8 bytes. Every match attempt is bounded by the run of
/// bytes it may take, and the runs an attempt scans start where such a run starts (e-mail) or at a fixed
/// literal, so the whole pass is linear.
private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let classes: UnsafeBufferPointer<UInt8>

    // Byte classes.
    static let hex: UInt8 = 1
    /// `[0-9A-Za-z-]`: a labelled value.
    static let value: UInt8 = 2
    /// `[A-Za-z0-9._%+-]`: an e-mail address's local part.
    static let local: UInt8 = 4
    /// `[A-Za-z0-9.-]`: its domain.
    static let domain: UInt8 = 8
    /// `\w` of `\b`: ASCII letters, digits, `_`, and every byte of a non-ASCII character.
    static let word: UInt8 = 16
    /// What ends a user name: `/`, white space, quotes, `<>\,;:!?()[]{}`.
    static let stop: UInt8 = 32
    static let space: UInt8 = 64
    /// The first letter of a label (`c`, `i`, `b`, `u`, `d`, `s`) or `/`.
    static let start: UInt8 = 128
    /// A byte where some identifier may begin.
    static let trigger: UInt8 = local | start | word

    static let classes: [UInt8] = (0..<256).map { code in
        let byte = UInt8(code)
        let isDigit = (0x30...0x39).contains(byte)
        let isLetter = (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        let isHex = isDigit || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
        var flags: UInt8 = 0
        if isHex { flags |= hex }
        if isDigit || isLetter || byte == UInt8(ascii: "-") { flags |= value }
        if isDigit || isLetter || "._%+-".utf8.contains(byte) { flags |= local }
        if isDigit || isLetter || ".-".utf8.contains(byte) { flags |= domain }
        if isDigit || isLetter || byte == UInt8(ascii: "_") || byte >= 0x80 { flags |= word }
        if " \t\n\r\u{0B}\u{0C}".utf8.contains(byte) { flags |= space | stop }
        if "/\"'<>\\,;:!?()[]{}".utf8.contains(byte) { flags |= stop }
        if "/cCiIbBuUdDsS".utf8.contains(byte) { flags |= start }
        return flags
    }

    @inline(__always) func has(_ index: Int, _ flag: UInt8) -> Bool {
        index < bytes.count && classes[Int(bytes[index])] & flag != 0
    }

    /// The end of the run of `flag` bytes from `index`.
    func run(_ index: Int, _ flag: UInt8) -> Int {
        var end = index
        while end < bytes.count, classes[Int(bytes[end])] & flag != 0 { end += 1 }
        return end
    }

    /// The end of `literal` at `index`, or nil; letters compared without regard to case when `anyCase`.
    func literal(_ literal: String, at index: Int, anyCase: Bool = false) -> Int? {
        var at = index
        for expected in literal.utf8 {
            guard at < bytes.count else { return nil }
            var byte = bytes[at]
            if anyCase, (0x41...0x5A).contains(byte) { byte += 0x20 }
            guard byte == expected else { return nil }
            at += 1
        }
        return at
    }

    /// The end of the first of `literals` at `index`.
    func first(_ literals: [String], at index: Int, anyCase: Bool = false) -> Int? {
        for candidate in literals {
            if let end = literal(candidate, at: index, anyCase: anyCase) { return end }
        }
        return nil
    }

    func optional(_ byte: String, at index: Int) -> Int { literal(byte, at: index) ?? index }

    /// `count` bytes of `flag` from `index`: their end, or nil.
    func exactly(_ count: Int, _ flag: UInt8, at index: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        for at in index..<index + count where classes[Int(bytes[at])] & flag == 0 { return nil }
        return index + count
    }

    /// `hex{8}-hex{4}-hex{4}-hex{4}-hex{12}`.
    func uuid(at index: Int) -> Int? {
        var at = index
        for (offset, count) in [8, 4, 4, 4, 12].enumerated() {
            if offset > 0 {
                guard let end = literal("-", at: at) else { return nil }
                at = end
            }
            guard let end = exactly(count, Self.hex, at: at) else { return nil }
            at = end
        }
        return at
    }

    /// `\b` before `index` (the byte at `index` being a word byte).
    func boundary(before index: Int) -> Bool { index == 0 || !has(index - 1, Self.word) }

    /// `["']?\s*[:=]\s*["']?` from `index`: its end.
    func separator(at index: Int) -> Int? {
        var at = index
        if at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") { at += 1 }
        at = run(at, Self.space)
        guard at < bytes.count, bytes[at] == UInt8(ascii: ":") || bytes[at] == UInt8(ascii: "=") else { return nil }
        at = run(at + 1, Self.space)
        if at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") { at += 1 }
        return at
    }

    /// SEP and `[0-9A-Za-z-]{8,}` after a label ending at one of `ends` (tried in order).
    func labelled(_ ends: [Int?]) -> Range<Int>? {
        for case let end? in ends {
            guard let start = separator(at: end) else { continue }
            let stop = run(start, Self.value)
            if stop - start >= 8 { return start..<stop }
        }
        return nil
    }

    func match(at index: Int) -> (kind: String, value: Range<Int>)? {
        let byte = bytes[index]
        if byte == UInt8(ascii: "/") { return path(at: index) }
        if let email = email(at: index) { return ("email", email) }
        let flags = classes[Int(byte)]
        if flags & Self.start != 0, let found = label(at: index) { return found }
        if flags & Self.hex != 0, boundary(before: index) {
            if let end = exactly(8, Self.hex, at: index), let dash = literal("-", at: end),
                let stop = exactly(16, Self.hex, at: dash), !has(stop, Self.word)
            {
                return ("device", index..<stop)
            }
            if let stop = exactly(40, Self.hex, at: index), !has(stop, Self.word) {
                return ("device", index..<stop)
            }
        }
        return nil
    }

    /// An app container's UUID, or a user's name in a home folder.
    func path(at index: Int) -> (kind: String, value: Range<Int>)? {
        if let kind = literal("/Containers/", at: index),
            let folder = first(["Data/", "Bundle/", "Shared/AppGroup/"], at: kind)
        {
            let bundle = first(["Application", "PluginKitPlugin"], at: folder) ?? folder
            let start = optional("/", at: bundle)
            if let end = uuid(at: start) { return ("app-container", start..<end) }
        }
        guard let start = first(["/Users/", "/home/"], at: index) else { return nil }
        var end = start
        while end < bytes.count, classes[Int(bytes[end])] & Self.stop == 0 { end += 1 }
        while end > start, bytes[end - 1] == UInt8(ascii: ".") { end -= 1 }
        return end > start ? ("user", start..<end) : nil
    }

    /// `LOCAL@DOMAIN.TLD` where a run of local-part bytes starts at `index`.
    func email(at index: Int) -> Range<Int>? {
        guard has(index, Self.local), index == 0 || !has(index - 1, Self.local) else { return nil }
        let at = run(index, Self.local)
        guard at < bytes.count, bytes[at] == UInt8(ascii: "@") else { return nil }
        let domainEnd = run(at + 1, Self.domain)
        // `[A-Za-z0-9.-]+\.[A-Za-z]{2,}`, greedy: the last dot with two letters after it, at least one byte in.
        var dot = domainEnd - 1
        while dot >= at + 2 {
            if bytes[dot] == UInt8(ascii: ".") {
                var end = dot + 1
                while end < domainEnd, (0x41...0x5A).contains(bytes[end] & 0xDF) { end += 1 }
                if end - dot - 1 >= 2 { return index..<end }
            }
            dot -= 1
        }
        return nil
    }

    /// A labelled identifier: crash reporter key, incident, beta identifier, device.
    func label(at index: Int) -> (kind: String, value: Range<Int>)? {
        switch bytes[index] | 0x20 {
        case UInt8(ascii: "c"):
            guard let crash = literal("crash", at: index, anyCase: true),
                let reporter = literal("reporter", at: optional("_", at: crash), anyCase: true)
            else { return nil }
            let gap = literal("_", at: reporter) ?? literal(" ", at: reporter) ?? reporter
            return labelled([literal("key", at: gap, anyCase: true)]).map { ("crash-reporter-key", $0) }
        case UInt8(ascii: "i"):
            guard let incident = literal("incident", at: index, anyCase: true) else { return nil }
            let id = literal("id", at: optional("_", at: incident), anyCase: true)
            let ends = [
                id.map { literal("entifier", at: $0, anyCase: true) ?? $0 },
                literal(" identifier", at: incident, anyCase: true), incident,
            ]
            for case let end? in ends {
                guard let start = separator(at: end), let dash = exactly(8, Self.hex, at: start),
                    literal("-", at: dash) != nil, dash + 28 <= bytes.count,
                    bytes[dash + 1..<dash + 28].allSatisfy({
                        $0 == UInt8(ascii: "-") || classes[Int($0)] & Self.hex != 0
                    })
                else { continue }
                return ("incident", start..<dash + 28)
            }
            return nil
        case UInt8(ascii: "b"):
            guard let beta = literal("beta", at: index, anyCase: true) else { return nil }
            let ends = [
                literal("identifier", at: optional("_", at: beta), anyCase: true),
                literal(" identifier", at: beta, anyCase: true),
            ]
            return labelled(ends).map { ("beta-identifier", $0) }
        case UInt8(ascii: "u"):
            return labelled([literal("udid", at: index, anyCase: true)]).map { ("device", $0) }
        case UInt8(ascii: "d"):
            guard let device = literal("device", at: index, anyCase: true) else { return nil }
            let gap = optional("_", at: device)
            let ends = [literal("identifier", at: gap, anyCase: true), literal("id", at: gap, anyCase: true)]
            return labelled(ends).map { ("device", $0) }
        case UInt8(ascii: "s"):
            guard let serial = literal("serial", at: index, anyCase: true) else { return nil }
            let ends = [
                literal("number", at: optional("_", at: serial), anyCase: true),
                literal(" number", at: serial, anyCase: true),
            ]
            return labelled(ends).map { ("device", $0) }
        default:
            return nil
        }
    }
}
