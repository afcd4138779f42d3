/// The SGR styles memhunt uses; the only place escape codes live.
public enum ANSIStyle: String, Sendable, CaseIterable {
    case bold = "1"
    case dim = "2"
    case red = "31"
    case green = "32"
    case yellow = "33"
    case magenta = "35"
    case cyan = "36"
}

extension String {
    /// This string wrapped in the SGR codes of `styles` and a reset, or unchanged when `enabled` is false.
    public func styled(_ styles: ANSIStyle..., enabled: Bool) -> String {
        guard enabled, !styles.isEmpty else { return self }
        return "\u{1B}[\(styles.map(\.rawValue).joined(separator: ";"))m\(self)\u{1B}[0m"
    }
}
