import Foundation

/// One artifact listed by a manifest.
public struct ManifestEntry: Sendable, Equatable {
    /// The absolute http(s) URL of the artifact.
    public var url: URL
    /// The expected lowercase hex SHA-256 of its body, when the manifest gives one.
    public var sha256: String?

    /// An entry.
    public init(url: URL, sha256: String? = nil) {
        self.url = url
        self.sha256 = sha256
    }
}

/// A manifest that names no URLs usable as artifacts, or is not JSON of the expected shape.
public struct ManifestError: Error, Equatable, CustomStringConvertible {
    /// What is wrong; never quotes the manifest's URLs (they may carry tokens).
    public let description: String
}

/// JSON manifests: `["url", …]`, `[{"url": …, "sha256": …}, …]` or `{"artifacts": [ … ]}`.
public enum Manifest {
    /// Whether `bytes` start like a JSON manifest (a list, or an object whose first key is `artifacts`), unlike
    /// an `.ips` report whose first line is a JSON object with other keys. Looks at the first few bytes only.
    public static func looksLikeManifest<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
        let significant = bytes.prefix(256).drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        guard let first = significant.first else { return false }
        let rest = significant.dropFirst().drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        switch first {
        case UInt8(ascii: "["): return rest.first.map { "\"{]".utf8.contains($0) } ?? false
        case UInt8(ascii: "{"): return rest.starts(with: "\"artifacts\"".utf8)
        default: return false
        }
    }

    /// The entries of a JSON manifest, with relative URLs resolved against `base` (the manifest's own URL).
    public static func parse(json: [UInt8], base: URL) throws -> [ManifestEntry] {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: Data(json))
        } catch {
            throw ManifestError(description: "manifest is not valid JSON")
        }
        guard let list = (root as? [Any]) ?? ((root as? [String: Any])?["artifacts"] as? [Any]) else {
            throw ManifestError(description: "manifest is neither a list nor an object with an \"artifacts\" list")
        }
        return try list.enumerated().map { offset, item in
            let number = offset + 1
            let object = item as? [String: Any]
            guard let text = (item as? String) ?? (object?["url"] as? String) else {
                throw ManifestError(description: "manifest entry \(number): no \"url\" string")
            }
            guard let url = URL(string: text, relativeTo: base)?.absoluteURL,
                let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
            else { throw ManifestError(description: "manifest entry \(number): not an http(s) URL") }
            guard let sha256 = object?["sha256"] else { return ManifestEntry(url: url) }
            guard let hex = (sha256 as? String)?.lowercased(), hex.utf8.count == 64,
                hex.utf8.allSatisfy({ "0123456789abcdef".utf8.contains($0) })
            else { throw ManifestError(description: "manifest entry \(number): sha256 is not 64 hex digits") }
            return ManifestEntry(url: url, sha256: hex)
        }
    }
}
