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

    /// Text that did not parse as a URL, cut before anything that may be a secret: user info (everything up
    /// to the LAST `@`, since a password may hold `?`, `#` or `/`), then the query and the fragment.
    /// `https://user:pass@ho st/x?token=t` becomes `https://…@ho st/x`; `http://u:PA?SS#WD@bad host/x`
    /// becomes `http://…@bad host/x` (before: `http://u:PA`, part of the password).
    public static func invalidURL(_ text: String) -> String {
        var rest = Substring(text)
        let schemeEnd = rest.range(of: "://")?.upperBound ?? rest.startIndex
        var prefix = String(rest[..<schemeEnd])
        if let at = rest[schemeEnd...].lastIndex(of: "@") {
            prefix += "…@"
            rest = rest[rest.index(after: at)...]
        } else {
            rest = rest[schemeEnd...]
        }
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        return prefix + rest
    }
}
