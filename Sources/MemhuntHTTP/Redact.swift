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

    /// Text that did not parse as a URL, cut before anything that may be a secret: user info (`…@`),
    /// the query and the fragment. `https://user:pass@ho st/x?token=t` becomes `https://…@ho st/x`.
    public static func invalidURL(_ text: String) -> String {
        var rest = Substring(text)
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        let schemeEnd = rest.range(of: "://")?.upperBound ?? rest.startIndex
        if let at = rest[schemeEnd...].lastIndex(of: "@") {
            return String(rest[..<schemeEnd]) + "…@" + rest[rest.index(after: at)...]
        }
        return String(rest)
    }
}
