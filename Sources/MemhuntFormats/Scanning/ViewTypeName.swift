/// The name of a view type as a change log writes it, checked and made readable.
///
/// SwiftUI writes the type's name (`ContentView`, `ListView<Array<Item>>`); under Xcode Previews, where the
/// runtime has no readable name, it may write the mangled symbol (`$s7Courier11ContentViewV`), and the
/// generic arguments it elides as `‹…›`. A mangled name made only of nominal types (struct `V`, class `C`,
/// enum `O`, each a length and an identifier, after the module) is demangled to the type's path without the
/// module (`ContentView`, `ContentView.Row`), as SwiftUI writes it; any other (word substitutions, generics,
/// operators) is kept as written and counted under that name.
enum ViewTypeName {
    /// The name to count `bytes` under, or nil when they are no type's name (a space, a control character,
    /// a first character that starts no Swift identifier).
    static func normalized(_ bytes: some Collection<UInt8>) -> String? {
        guard let head = bytes.first else { return nil }
        // ASCII heads as before: a letter or `_`; `$` for a mangled symbol; a non-ASCII letter is let through
        // (its bytes are checked as text below).
        guard head == UInt8(ascii: "_") || head == UInt8(ascii: "$") || isLetter(head) || head >= 0x80 else {
            return nil
        }
        for byte in bytes where byte < 0x80 {
            guard isLetter(byte) || isDigit(byte) || allowedPunctuation.contains(byte) else { return nil }
        }
        let name = String(decoding: bytes, as: UTF8.self)
        // Replacement characters (invalid UTF-8) and non-ASCII controls or spaces are no type's name.
        guard
            !name.unicodeScalars.contains(where: {
                $0 == "\u{FFFD}"
                    || (!$0.isASCII && ($0.properties.isWhitespace || $0.properties.generalCategory == .control))
            })
        else { return nil }
        if head == UInt8(ascii: "$") { return demangled(Array(bytes)) ?? name }
        return name
    }

    private static let allowedPunctuation: Set<UInt8> = Set("_.<>()[], ?$".utf8)

    /// `$s` (or `$S`, `_$s`) + module + nominal types, optionally ending in `D` (a type's mangling): the types'
    /// path without the module; nil for anything else.
    static func demangled(_ bytes: [UInt8]) -> String? {
        var index = 0
        if bytes.starts(with: Array("_$s".utf8)) || bytes.starts(with: Array("_$S".utf8)) {
            index = 3
        } else if bytes.starts(with: Array("$s".utf8)) || bytes.starts(with: Array("$S".utf8)) {
            index = 2
        } else {
            return nil
        }
        func identifier() -> String? {
            var length = 0
            let start = index
            while index < bytes.count, isDigit(bytes[index]), index - start < 4 {
                length = length * 10 + Int(bytes[index] - 48)
                index += 1
            }
            // A length starting with 0 is a word substitution: not demangled here.
            guard index > start, bytes[start] != UInt8(ascii: "0"), length > 0, index + length <= bytes.count else {
                return nil
            }
            let word = bytes[index..<(index + length)]
            guard word.allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }) else { return nil }
            index += length
            return String(decoding: word, as: UTF8.self)
        }
        guard identifier() != nil else { return nil }  // the module
        var path: [String] = []
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "D"), index == bytes.count - 1, !path.isEmpty { break }
            guard let name = identifier(), index < bytes.count,
                [UInt8(ascii: "V"), UInt8(ascii: "C"), UInt8(ascii: "O")].contains(bytes[index])
            else { return nil }
            index += 1
            path.append(name)
        }
        return path.isEmpty ? nil : path.joined(separator: ".")
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 97 && (byte | 0x20) <= 122 }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
}
