/// `text` as a `String`, or `nil` when it is missing or empty.
func nonEmpty<S: StringProtocol>(_ text: S?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return String(text)
}

/// Spaces, tabs and the `\r` of CRLF text: what every text parser trims.
let spaceCharacters: Set<Character> = [" ", "\t", "\r"]

extension StringProtocol {
    /// Without leading and trailing spaces, tabs and `\r`.
    var trimmingSpaces: String { String(trimmedSlice(spaceCharacters)) }

    /// Without leading and trailing characters of `set`.
    func trimming(_ set: Set<Character>) -> String { String(trimmedSlice(set)) }

    /// The part between leading and trailing characters of `set`, without copying.
    func trimmedSlice(_ set: Set<Character>) -> SubSequence {
        guard let first = firstIndex(where: { !set.contains($0) }),
            let last = lastIndex(where: { !set.contains($0) })
        else { return self[endIndex...] }
        return self[first...last]
    }
}
