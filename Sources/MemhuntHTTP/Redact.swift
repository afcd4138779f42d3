import Foundation

/// Renders URLs for messages without the secrets they may carry.
public enum Redact {
    /// `url` without user info and fragment, with every query value replaced by `…`: `https://host/x?token=…`.
    public static func url(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return "<unparseable URL>"
        }
        let query = components.percentEncodedQuery
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        var text = components.string ?? "<unparseable URL>"
        if let query, !query.isEmpty {
            let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item in
                item.firstIndex(of: "=").map { item[..<$0] + "=…" } ?? "…"
            }
            text += "?" + items.joined(separator: "&")
        }
        return text
    }
}
