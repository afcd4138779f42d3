import Foundation

/// Paths of the repository, resolved from this file's location.
public enum Repo {
    /// The package root.
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `Fixtures/<relative>`.
    public static func fixture(_ relative: String) -> String { root + "/Fixtures/" + relative }

    /// `../shared/realworld`, when present beside the checkout (CI lays it there).
    public static var realworld: String? {
        let candidates = [root + "/../shared/realworld", root + "/../../shared/realworld"]
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// `../shared/research`, when present beside the checkout (the official schemas and API descriptions).
    public static var research: String? {
        let candidates = [root + "/../shared/research", root + "/../../shared/research"]
        return candidates.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// The bytes of a fixture file.
    public static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: fixture(relative))))
    }
}

/// A fresh temporary directory, removed by the caller with `remove()`.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init() throws {
        path = NSTemporaryDirectory() + "memhunt-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public func write(_ name: String, _ bytes: [UInt8]) throws {
        let full = path + "/" + name
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
    }

    public func write(_ name: String, _ text: String) throws { try write(name, Array(text.utf8)) }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
