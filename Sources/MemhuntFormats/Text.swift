/// `text` as a `String`, or `nil` when it is missing or empty.
func nonEmpty<S: StringProtocol>(_ text: S?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return String(text)
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String { trimming([" ", "\t", "\r"]) }

    /// Without leading and trailing characters of `set`.
    func trimming(_ set: Set<Character>) -> String {
        guard let first = firstIndex(where: { !set.contains($0) }),
            let last = lastIndex(where: { !set.contains($0) })
        else { return "" }
        return String(self[first...last])
    }
}
