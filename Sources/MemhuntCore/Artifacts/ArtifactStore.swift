import Foundation
import MemhuntFormats
import MemhuntHTTP

/// Turns operands into artifacts: local files and directories, http(s) URLs, and manifests of either.
///
/// Downloads stream to `cacheDirectory` (never held whole in memory) and run concurrently; every
/// failure becomes an artifact error naming the URL without credentials, and the rest goes on.
public struct ArtifactStore: Sendable {
    public var http: HTTPConfiguration
    public var cacheDirectory: String
    public var onDownload: @Sendable (DownloadEvent) -> Void

    public init(
        http: HTTPConfiguration = HTTPConfiguration(), cacheDirectory: String,
        onDownload: @escaping @Sendable (DownloadEvent) -> Void = { _ in }
    ) {
        self.http = http
        self.cacheDirectory = cacheDirectory
        self.onDownload = onDownload
    }

    /// Whether an operand is an http(s) URL rather than a path.
    public static func isURL(_ operand: String) -> Bool {
        let lower = operand.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// Every artifact the operands name, in operand order; a manifest is listed, then its entries.
    public func collect(_ operands: [String]) async -> [Artifact] {
        var groups: [[Slot]] = []
        var downloads: [(group: Int, request: DownloadRequest)] = []
        for operand in operands {
            groups.append([])
            let group = groups.count - 1
            if Self.isURL(operand) {
                guard let url = URL(string: operand), url.host != nil else {
                    let shown = Redact.invalidURL(operand)
                    groups[group].append(
                        .done(Artifact(source: shown, status: .error, error: "\(shown): not a valid URL")))
                    continue
                }
                downloads.append((group, DownloadRequest(url: url)))
                groups[group].append(.first(downloads.count - 1))
                continue
            }
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: operand, isDirectory: &isDirectory)
            if exists, !isDirectory.boolValue, let manifest = localManifest(operand) {
                groups[group].append(.done(manifest.artifact))
                for entry in manifest.entries {
                    switch entry {
                    case .local(let path, let sha256): groups[group].append(.done(load(path, expecting: sha256)))
                    case .remote(let request):
                        downloads.append((group, request))
                        groups[group].append(.first(downloads.count - 1))
                    case .invalid(let artifact): groups[group].append(.done(artifact))
                    }
                }
                continue
            }
            // In a directory walk a manifest is listed, not followed: its entries sit beside it.
            groups[group] += LocalArtifacts.expand([operand]).map { .done(LocalArtifacts.load(path: $0)) }
        }
        // A run without URLs starts no URL session.
        let downloader = Downloader(configuration: http, cacheDirectory: cacheDirectory, onEvent: onDownload)
        let results = downloads.isEmpty ? [] : await downloader.download(downloads.map(\.request))

        // Downloaded manifests expand into a second round of downloads, resolved against their final URL.
        var second: [(slot: Int, request: DownloadRequest)] = []
        var expanded: [Int: [Slot]] = [:]
        for (index, result) in results.enumerated() {
            var artifact = Self.artifact(from: result, request: downloads[index].request)
            guard artifact.status == .ok || artifact.status == .unrecognized, let path = result.localPath,
                let bytes = FileManager.default.contents(atPath: path).map([UInt8].init),
                Manifest.looksLikeManifest(bytes)
            else {
                expanded[index] = [.done(artifact)]
                continue
            }
            artifact.kind = .manifest
            artifact.content = .recognized(.manifest)
            var slots: [Slot] = []
            do {
                let base = URL(string: result.finalURL) ?? downloads[index].request.url
                for (offset, entry) in try Manifest.parse(bytes).enumerated() {
                    do {
                        let url = try Manifest.resolve(entry, against: base, number: offset + 1)
                        let request = DownloadRequest(
                            url: url, expectedSHA256: entry.sha256,
                            sendsCredentials: DownloadRequest.sameOrigin(url, base))
                        second.append((index, request))
                        slots.append(.second(second.count - 1))
                    } catch {
                        slots.append(.done(Artifact(source: artifact.source, status: .error, error: error.description)))
                    }
                }
                artifact.status = .ok
                artifact.error = nil
            } catch {
                artifact.status = .error
                artifact.error = error.description
            }
            expanded[index] = [.done(artifact)] + slots
        }
        let secondResults = second.isEmpty ? [] : await downloader.download(second.map(\.request))

        func resolve(_ slot: Slot) -> [Artifact] {
            switch slot {
            case .done(let artifact): [artifact]
            case .first(let index): (expanded[index] ?? []).flatMap(resolve)
            case .second(let index): [Self.artifact(from: secondResults[index], request: second[index].request)]
            }
        }
        return groups.enumerated().flatMap { index, slots in
            Self.mark(slots.flatMap(resolve), operand: operands[index])
        }
    }

    /// An operand as reports show it: a URL without credentials or query values, a path as given.
    public static func shown(operand: String) -> String {
        guard isURL(operand) else { return operand }
        return URL(string: operand).map(Redact.url) ?? Redact.invalidURL(operand)
    }

    /// Records the operand each artifact came from; the first artifact of an operand that is not a local
    /// directory is the operand itself (the file, the URL, or the manifest).
    static func mark(_ artifacts: [Artifact], operand: String) -> [Artifact] {
        var isDirectory: ObjCBool = false
        let walked =
            !isURL(operand) && FileManager.default.fileExists(atPath: operand, isDirectory: &isDirectory)
            && isDirectory.boolValue
        let shown = shown(operand: operand)
        return artifacts.enumerated().map { offset, artifact in
            var artifact = artifact
            artifact.operand = shown
            artifact.isOperand = offset == 0 && !walked
            return artifact
        }
    }

    /// A place in the output: an artifact already made, or the result of a download of either round.
    private enum Slot {
        case done(Artifact)
        /// Index into the first round: operands and the entries of local manifests.
        case first(Int)
        /// Index into the second round: the entries of downloaded manifests.
        case second(Int)
    }

    private enum LocalEntry {
        case local(String, sha256: String?)
        case remote(DownloadRequest)
        case invalid(Artifact)
    }

    /// A local file that is a manifest: its own artifact and its entries, relative to its folder.
    private func localManifest(_ path: String) -> (artifact: Artifact, entries: [LocalEntry])? {
        guard let bytes = Self.prefix(path), Manifest.looksLikeManifest(bytes) else { return nil }
        var artifact = LocalArtifacts.load(path: path)
        artifact.kind = .manifest
        artifact.content = .recognized(.manifest)
        let entries: [ManifestEntry]
        do {
            entries = try Manifest.parse(bytes)
        } catch {
            artifact.status = .error
            artifact.error = error.description
            return (artifact, [])
        }
        artifact.status = .ok
        artifact.error = nil
        let directory = (path as NSString).deletingLastPathComponent
        return (
            artifact,
            entries.map { entry in
                if Self.isURL(entry.reference) {
                    guard let url = URL(string: entry.reference) else {
                        return .invalid(
                            Artifact(source: path, status: .error, error: "manifest entry: not a valid URL"))
                    }
                    return .remote(DownloadRequest(url: url, expectedSHA256: entry.sha256))
                }
                let resolved =
                    entry.reference.hasPrefix("/")
                    ? entry.reference : (directory.isEmpty ? entry.reference : directory + "/" + entry.reference)
                return .local(resolved, sha256: entry.sha256)
            }
        )
    }

    /// A manifest is small: the bytes of a regular file under 4 MB, else nil (without reading a larger one).
    static func prefix(_ path: String) -> [UInt8]? {
        guard let size = LocalArtifacts.regularFileSize(path), size < 4 << 20,
            let data = FileManager.default.contents(atPath: path)
        else { return nil }
        return [UInt8](data)
    }

    /// A local file named by a manifest, checked against the sha256 the manifest gives.
    private func load(_ path: String, expecting sha256: String?) -> Artifact {
        var artifact = LocalArtifacts.load(path: path)
        if let sha256, let actual = artifact.sha256, actual != sha256 {
            artifact.status = .error
            artifact.content = nil
            artifact.error = "sha256 mismatch: the manifest expects \(sha256), the file has \(actual)"
        }
        return artifact
    }

    /// The artifact of one download: an error naming the URL, or the cached file read like a local one.
    static func artifact(from result: DownloadResult, request: DownloadRequest) -> Artifact {
        guard result.error == nil, let path = result.localPath else {
            return Artifact(
                source: result.requestedURL, sha256: result.sha256, size: result.size, status: .error,
                error: result.error ?? "\(result.requestedURL): download failed", finalURL: result.finalURL,
                httpStatus: result.status)
        }
        var artifact = LocalArtifacts.load(path: path, source: result.requestedURL)
        artifact.finalURL = result.finalURL
        artifact.httpStatus = result.status
        return artifact
    }
}
