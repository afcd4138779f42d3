import Foundation
import MemhuntCore
import MemhuntFormats
import MemhuntYAML

/// One artifact a manifest lists: a URL or a path, relative to the manifest, and its expected sha256.
public struct ManifestEntry: Sendable, Hashable {
    public var reference: String
    /// Lowercase hex, when the manifest gives one.
    public var sha256: String?

    public init(_ reference: String, sha256: String? = nil) {
        self.reference = reference
        self.sha256 = sha256
    }
}

/// Why a manifest could not be read. Never quotes the manifest's URLs: they may carry tokens.
public struct ManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}

/// A list of artifacts to fetch, so a CI job can publish one link for a whole incident.
///
/// JSON: `["a.ips", …]`, `[{"url": "a.ips", "sha256": "…"}, …]` or `{"artifacts": [ … ]}`.
/// YAML: the same shapes (`- a.ips`, or `artifacts:` with `- url: … sha256: …`).
public enum Manifest {
    /// Whether the bytes start like a manifest (the one sniffer, `ArtifactSniffer.looksLikeManifest`).
    public static func looksLikeManifest(_ bytes: [UInt8]) -> Bool { ArtifactSniffer.looksLikeManifest(bytes) }

    /// The entries of a JSON or YAML manifest.
    public static func parse(_ bytes: [UInt8]) throws(ManifestError) -> [ManifestEntry] {
        // UTF-16 after its byte order mark is read as the same text, as every artifact is.
        let bytes = ArtifactReader.utf8(fromUTF16: bytes) ?? bytes
        let items: [Item]
        if let json = try? JSON.parse(bytes) {
            items = try Item.list(json)
        } else {
            let node: YAMLNode
            do {
                node = try YAMLParser.parse(String(decoding: bytes, as: UTF8.self))
            } catch {
                throw ManifestError("manifest is neither valid JSON nor valid YAML (line \(error.mark.line))")
            }
            items = try Item.list(node)
        }
        return try items.enumerated().map { offset, item throws(ManifestError) in
            let number = offset + 1
            guard let reference = item.reference, !reference.isEmpty else {
                throw ManifestError("manifest entry \(number): no \"url\" string")
            }
            guard let sha = item.sha256 else { return ManifestEntry(reference) }
            let hex = sha.lowercased()
            guard hex.utf8.count == 64, hex.utf8.allSatisfy({ "0123456789abcdef".utf8.contains($0) }) else {
                throw ManifestError("manifest entry \(number): sha256 is not 64 hex digits")
            }
            return ManifestEntry(reference, sha256: hex)
        }
    }

    /// An entry resolved against the manifest's own URL: http(s) only.
    public static func resolve(_ entry: ManifestEntry, against base: URL, number: Int) throws(ManifestError) -> URL {
        guard let url = URL(string: entry.reference, relativeTo: base)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { throw ManifestError("manifest entry \(number): not an http(s) URL") }
        return url
    }

    /// One list item, from JSON or YAML.
    private struct Item {
        var reference: String?
        var sha256: String?

        static let shapeError = ManifestError(
            "manifest is neither a list nor an object with an \"artifacts\" list")

        static func list(_ value: JSONValue) throws(ManifestError) -> [Item] {
            guard let elements = value.elements ?? value["artifacts"]?.elements else { throw shapeError }
            return elements.map { Item(reference: $0.string ?? $0["url"]?.string, sha256: $0["sha256"]?.string) }
        }

        static func list(_ node: YAMLNode) throws(ManifestError) -> [Item] {
            var sequence: [YAMLNode]?
            if case .sequence(let items, _) = node { sequence = items }
            if case .mapping(let pairs, _) = node, let artifacts = pairs.first(where: { $0.key == "artifacts" }),
                case .sequence(let items, _) = artifacts.value
            {
                sequence = items
            }
            guard let sequence else { throw shapeError }
            return sequence.map { item in
                switch item {
                case .scalar(let text, _, _): return Item(reference: text)
                case .mapping(let pairs, _):
                    func value(_ key: String) -> String? {
                        if case .scalar(let text, _, _)? = pairs.first(where: { $0.key == key })?.value { return text }
                        return nil
                    }
                    return Item(reference: value("url"), sha256: value("sha256"))
                case .sequence: return Item()
                }
            }
        }
    }
}
