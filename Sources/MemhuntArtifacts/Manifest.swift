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
    /// Whether the document is a manifest too long to build (over the JSON value limit), not no manifest.
    public var isTooLong = false

    public init(_ description: String, isTooLong: Bool = false) {
        self.description = description
        self.isTooLong = isTooLong
    }
}

/// A list of artifacts to fetch, so a CI job can publish one link for a whole incident.
///
/// JSON: `["a.ips", …]`, `[{"url": "a.ips", "sha256": "…"}, …]` or `{"artifacts": [ … ]}`.
/// YAML: the same shapes (`- a.ips`, or `artifacts:` with `- url: … sha256: …`).
public enum Manifest {
    /// Whether the bytes start like a manifest (the one sniffer, `ArtifactSniffer.looksLikeManifest`).
    public static func looksLikeManifest(_ bytes: [UInt8]) -> Bool { ArtifactSniffer.looksLikeManifest(bytes) }

    /// The entries of a JSON or YAML manifest; the first malformed entry throws (see `read` for all of them).
    public static func parse(_ bytes: [UInt8]) throws(ManifestError) -> [ManifestEntry] {
        try read(bytes).map { result throws(ManifestError) in
            switch result {
            case .success(let entry): return entry
            case .failure(let error): throw error
            }
        }
    }

    /// Every entry of a JSON or YAML manifest, each an entry or why it is not one (naming its number, its index
    /// in the list and, when it has one, its reference without query or credentials): one malformed entry
    /// does not hide the others. Throws when the document is no manifest: not a list (or an `artifacts`
    /// list), or a list none of whose items is a string or an object with a `url` member.
    public static func read(_ bytes: [UInt8]) throws(ManifestError) -> [Result<ManifestEntry, ManifestError>] {
        // UTF-16 after its byte order mark is read as the same text, as every artifact is.
        let bytes = ArtifactReader.utf8(fromUTF16: bytes) ?? bytes
        let items: [Item]
        var parsed: JSONValue?
        do {
            parsed = try JSON.parse(bytes)
        } catch {
            // A list too long to build is a manifest over the limit, not YAML nor a document of no known kind
            // (100,000 entries were "JSON of no known kind", exit 0, where 95,000 met the entry limit).
            if JSON.isValueLimit(error), ArtifactSniffer.looksLikeManifest(bytes) {
                throw ManifestError("manifest is too long to read: " + error.message, isTooLong: true)
            }
        }
        if let json = parsed {
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
        // A list of objects none of which has a `url` is some other JSON (xcresulttool's metrics), not a manifest.
        guard items.isEmpty || items.contains(where: \.namesAnArtifact) else { throw Item.shapeError }
        return items.enumerated().map { offset, item in
            func failure(_ why: String) -> Result<ManifestEntry, ManifestError> {
                let named = item.reference.map { ", " + shown(reference: $0) } ?? ""
                return .failure(ManifestError("manifest entry \(offset + 1) (index \(offset)\(named)): \(why)"))
            }
            if let shape = item.shape {
                return failure("\(shape), not a path or URL string nor an object with a \"url\" string")
            }
            guard let reference = item.reference, !reference.isEmpty else { return failure("no \"url\" string") }
            guard item.hasSHA256 else { return .success(ManifestEntry(reference)) }
            guard let hex = item.sha256?.lowercased(), hex.utf8.count == 64,
                hex.utf8.allSatisfy({ "0123456789abcdef".utf8.contains($0) })
            else { return failure("sha256 is not 64 hex digits") }
            return .success(ManifestEntry(reference, sha256: hex))
        }
    }

    /// An entry's reference as a message may quote it: without credentials, query or fragment (they may carry
    /// tokens), at most 80 characters.
    static func shown(reference: String) -> String {
        var text = Substring(reference)
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<cut] }
        if let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@"),
            !text[scheme.upperBound..<at].contains("/")
        {
            text = text[..<scheme.upperBound] + text[text.index(after: at)...]
        }
        return text.count > 80 ? String(text.prefix(79)) + "…" : String(text)
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
        /// Whether the item has a `sha256` member (which must then be 64 hex digits).
        var hasSHA256 = false
        /// What the item is when it is neither a string nor an object (`null`, a number, a list), in words.
        var shape: String?
        /// A string, or an object with a `url` member (of any type): an item meant as an entry.
        var namesAnArtifact = false

        static let shapeError = ManifestError(
            "manifest is neither a list nor an object with an \"artifacts\" list")

        static func list(_ value: JSONValue) throws(ManifestError) -> [Item] {
            guard let elements = value.elements ?? value["artifacts"]?.elements else { throw shapeError }
            return elements.map { element in
                if let text = element.string { return Item(reference: text, namesAnArtifact: true) }
                switch element {
                case .object:
                    return Item(
                        reference: element["url"]?.string, sha256: element["sha256"]?.string,
                        hasSHA256: element["sha256"].map { $0 != .null } ?? false,
                        namesAnArtifact: element["url"] != nil)
                case .null: return Item(shape: "null")
                case .bool: return Item(shape: "a boolean")
                case .number: return Item(shape: "a number")
                default: return Item(shape: "a list")
                }
            }
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
                case .scalar(let text, _, _): return Item(reference: text, namesAnArtifact: true)
                case .mapping(let pairs, _):
                    func value(_ key: String) -> String? {
                        if case .scalar(let text, _, _)? = pairs.first(where: { $0.key == key })?.value { return text }
                        return nil
                    }
                    return Item(
                        reference: value("url"), sha256: value("sha256"),
                        hasSHA256: pairs.contains { $0.key == "sha256" },
                        namesAnArtifact: pairs.contains { $0.key == "url" })
                case .sequence: return Item(shape: "a list")
                }
            }
        }
    }
}
