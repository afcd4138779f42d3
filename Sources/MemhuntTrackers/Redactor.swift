import Foundation
import MemhuntReports

/// Replaces device and user identifiers with stable placeholders before anything leaves the machine: the
/// same identifier gets the same placeholder for the whole run (`<user-1>` in every path of the same user).
public final class Redactor: @unchecked Sendable {
    /// One kind of identifier: a pattern whose capture group 1 is the identifier, and the placeholder's stem.
    struct Rule {
        var kind: String
        var expression: NSRegularExpression

        init(_ kind: String, _ pattern: String) {
            self.kind = kind
            // The patterns are constants; a typo is a programming error caught by every test.
            expression = try! NSRegularExpression(pattern: pattern, options: [])
        }
    }

    private static let key = #"["']?\s*[:=]\s*["']?"#
    static let rules: [Rule] = [
        Rule(
            "app-container",
            #"/(?:Containers/(?:Data|Bundle|Shared/AppGroup)/(?:Application|PluginKitPlugin)?/?)([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})"#
        ),
        Rule("user", #"/(?:Users|home)/([^/\s"'<>]+)/"#),
        Rule("email", #"([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})"#),
        Rule("crash-reporter-key", #"(?i:crash_?reporter_?key)"# + key + #"([0-9A-Za-z-]{8,})"#),
        Rule(
            "incident",
            #"(?i:incident(?:_?id(?:entifier)?| identifier)?)"# + key + #"([0-9A-Fa-f]{8}-[0-9A-Fa-f-]{27})"#),
        Rule("beta-identifier", #"(?i:beta_?identifier|beta identifier)"# + key + #"([0-9A-Za-z-]{8,})"#),
        Rule(
            "device",
            #"(?i:udid|device_?identifier|device_?id|serial_?number|serial number)"# + key + #"([0-9A-Za-z-]{8,})"#),
        Rule("device", #"\b([0-9A-Fa-f]{8}-[0-9A-Fa-f]{16})\b"#),
    ]

    private var placeholders: [String: [String: String]] = [:]
    private let lock = NSLock()

    public init() {}

    /// `text` with every identifier replaced.
    public func redact(_ text: String) -> String {
        var text = text
        for rule in Self.rules {
            let ns = text as NSString
            let matches = rule.expression.matches(in: text, range: NSRange(location: 0, length: ns.length))
            guard !matches.isEmpty else { continue }
            // Numbered in order of appearance, replaced from the end so the ranges stay valid.
            let replacements = matches.compactMap { match -> (NSRange, String)? in
                let range = match.range(at: 1)
                guard range.location != NSNotFound else { return nil }
                let value = ns.substring(with: range)
                return value.hasPrefix("<") ? nil : (range, placeholder(rule.kind, value))
            }
            let result = NSMutableString(string: text)
            for (range, placeholder) in replacements.reversed() {
                result.replaceCharacters(in: range, with: placeholder)
            }
            text = result as String
        }
        return text
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
