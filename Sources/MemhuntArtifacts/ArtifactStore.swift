import Foundation
import MemhuntCore
import MemhuntFormats
import MemhuntHTTP

/// Turns operands into artifacts: local files and directories, http(s) URLs, and manifests of either.
///
/// One `HTTPClient` (one URL session, its connections reused) serves the whole run; `close()` ends it and
/// removes the run's cache. Downloads stream to the cache (never held whole in memory) a few at a time;
/// every failure becomes an artifact error naming the URL without credentials, and the rest goes on.
///
/// Credentials belong to the origin the user named: an operand URL's own origin, kept for the entries of a
/// manifest it serves (even when a redirect moved the manifest to another host); the `http` entries of a
/// local manifest get none.
public struct ArtifactStore: Sendable {
    public let http: HTTPConfiguration
    public let client: HTTPClient
    public let cache: RunCache
    /// Entries a manifest may list; a longer manifest is an artifact error and none of its entries are read.
    public var maxManifestEntries: Int
    public var onDownload: @Sendable (DownloadEvent) -> Void
    /// Called before and after a local file is read: its path, its size in bytes, and whether the read is
    /// done (for progress on large files).
    public var onLocalRead: @Sendable (_ path: String, _ bytes: Int, _ done: Bool) -> Void = { _, _, _ in }
    /// Seconds the downloads of one `collect` may take in all, both rounds (`--deadline`); nil: no bound but
    /// each download's own time limit. Downloads still running when it passes are cancelled, and each of them
    /// and of those not started is an artifact error "not fetched: deadline of N s passed".
    public var downloadDeadline: TimeInterval?
    /// Why this store makes no request at all (`MEMHUNT_NO_NETWORK`; `memhunt mcp` without `--allow-network`),
    /// or nil. Each URL, and each entry of a manifest that is one, is then an artifact error saying so, and a
    /// remote playbook is not fetched.
    public var networkRefusal: String?

    public static let defaultMaxManifestEntries = 1000

    /// A store whose downloads go to `cache` (by default a fresh `RunCache` in the temporary directory).
    public init(
        http: HTTPConfiguration = HTTPConfiguration(), cache: RunCache = RunCache(),
        maxManifestEntries: Int = defaultMaxManifestEntries,
        onDownload: @escaping @Sendable (DownloadEvent) -> Void = { _ in }
    ) {
        self.http = http
        self.client = HTTPClient(configuration: http)
        self.cache = cache
        self.maxManifestEntries = maxManifestEntries
        self.onDownload = onDownload
    }

    /// A store whose downloads go to an existing directory (tests).
    public init(
        http: HTTPConfiguration = HTTPConfiguration(), cacheDirectory: String,
        maxManifestEntries: Int = defaultMaxManifestEntries,
        onDownload: @escaping @Sendable (DownloadEvent) -> Void = { _ in }
    ) {
        self.init(
            http: http, cache: RunCache(path: cacheDirectory), maxManifestEntries: maxManifestEntries,
            onDownload: onDownload)
    }

    /// Ends the run's HTTP session and removes its cache.
    public func close() {
        client.close()
        cache.remove()
    }

    /// Reads one local file, telling `onLocalRead` before and after: its artifact, or a sysdiagnose archive's.
    private func load(_ path: String) -> [Artifact] {
        let size = LocalArtifacts.regularFileSize(path) ?? 0
        onLocalRead(path, size, false)
        defer { onLocalRead(path, size, true) }
        return Self.expandingArchive(LocalArtifacts.load(path: path))
    }

    /// `artifact`, or when `LocalArtifacts.load` found a sysdiagnose archive (kind `sysdiagnose`, not read yet),
    /// the archive's artifacts: itself, then its members, named `SOURCE!/path/inside`; or a page's records
    /// (`PageRecords`): itself, then each other whole record on it, named `SOURCE#L<line>`.
    static func expandingArchive(_ artifact: Artifact) -> [Artifact] {
        guard artifact.kind == .sysdiagnose, artifact.content == nil, artifact.status == .ok,
            let path = artifact.localPath
        else { return PageRecords.expanding(artifact) }
        var artifacts = SysdiagnoseArchive.read(path: path, source: artifact.source)
        if let first = artifacts.first, first.kind == .sysdiagnose {
            artifacts[0].finalURL = artifact.finalURL
            artifacts[0].httpStatus = artifact.httpStatus
            // A download's archive is in the run cache: the artifact names the URL, not the cache file.
            if artifact.finalURL != nil { artifacts[0].localPath = nil }
        }
        return artifacts
    }

    /// Whether an operand is an http(s) URL rather than a path.
    public static func isURL(_ operand: String) -> Bool {
        let lower = operand.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// A place in the output: an artifact already made, or the result of a download of either round.
    private enum Slot {
        case done(Artifact)
        /// Index into the first round: operands and the entries of local manifests.
        case first(Int)
        /// Index into the second round: the entries of downloaded manifests.
        case second(Int)
    }

    /// Every artifact the operands name, in operand order; a manifest is listed, then its entries.
    public func collect(_ operands: [String]) async -> [Artifact] {
        let deadline = downloadDeadline.map { Date().addingTimeInterval($0) }
        var slots: [Slot] = []
        var first: [DownloadRequest] = []
        // The slots of each operand, so every artifact can name the operand it came from.
        var ranges: [Range<Int>] = []
        for operand in operands {
            let start = slots.count
            defer { ranges.append(start..<slots.count) }
            if Self.isURL(operand) {
                guard let url = URL(string: operand), HTTPOrigin(url) != nil else {
                    let shown = Redact.invalidURL(operand)
                    slots.append(.done(Artifact(source: shown, status: .error, error: "\(shown): not a valid URL")))
                    continue
                }
                first.append(DownloadRequest(url: url))
                slots.append(.first(first.count - 1))
                continue
            }
            if LocalArtifacts.regularFileSize(operand) != nil {
                let loaded = load(operand)
                guard loaded.count == 1, let artifact = loaded.first, artifact.kind == .manifest, artifact.status == .ok
                else {
                    slots += loaded.map { .done($0) }
                    continue
                }
                let (manifest, entries) = localEntries(artifact, path: operand)
                slots.append(.done(manifest))
                for entry in entries {
                    switch entry {
                    case .done(let artifacts): slots += artifacts.map { .done($0) }
                    case .remote(let request):
                        first.append(request)
                        slots.append(.first(first.count - 1))
                    }
                }
                continue
            }
            // In a directory walk a manifest is listed, not followed: its entries sit beside it.
            slots += LocalArtifacts.expand([operand]).flatMap { load($0).map { .done($0) } }
        }
        let firstResults = await download(first, deadline: deadline)

        // Downloaded manifests expand into a second round, resolved against their final URL, with the
        // credentials of the operand that named them.
        var second: [DownloadRequest] = []
        var expanded: [Int: [Slot]] = [:]
        for (index, result) in firstResults.enumerated() {
            var artifact = Self.artifact(from: result)
            guard artifact.kind == .manifest, artifact.status == .ok, let path = result.localPath else {
                expanded[index] = Self.expandingArchive(artifact).map { .done($0) }
                continue
            }
            var entrySlots: [Slot] = []
            do throws(ManifestError) {
                let entries = try entries(of: path)
                let base = URL(string: result.finalURL) ?? first[index].url
                for (offset, read) in entries.enumerated() {
                    do throws(ManifestError) {
                        let entry = try read.get()
                        let url = try Manifest.resolve(entry, against: base, number: offset + 1)
                        second.append(
                            DownloadRequest(
                                url: url, expectedSHA256: entry.sha256,
                                credentialOrigin: first[index].credentialOrigin))
                        entrySlots.append(.second(second.count - 1))
                    } catch {
                        entrySlots.append(
                            .done(Artifact(source: artifact.source, status: .error, error: error.description)))
                    }
                }
            } catch {
                artifact.status = .error
                artifact.error = error.description
            }
            expanded[index] = [.done(artifact)] + entrySlots
        }
        let secondResults = await download(second, deadline: deadline)

        func resolve(_ slot: Slot) -> [Artifact] {
            switch slot {
            case .done(let artifact): [artifact]
            case .first(let index): (expanded[index] ?? []).flatMap(resolve)
            case .second(let index): Self.expandingArchive(Self.artifact(from: secondResults[index]))
            }
        }
        return ranges.enumerated().flatMap { index, range in
            Self.mark(range.flatMap { resolve(slots[$0]) }, operand: operands[index])
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
        let walked = !isURL(operand) && LocalArtifacts.isDirectory(operand)
        let shown = shown(operand: operand)
        return artifacts.enumerated().map { offset, artifact in
            var artifact = artifact
            artifact.operand = shown
            artifact.isOperand = offset == 0 && !walked
            return artifact
        }
    }

    /// Downloads into the run's cache, created (0700) on first use; a run without URLs creates nothing.
    private func download(_ requests: [DownloadRequest], deadline: Date?) async -> [DownloadResult] {
        guard !requests.isEmpty else { return [] }
        if let why = networkRefusal ?? cache.create() {
            return requests.map {
                let shown = Redact.url($0.url)
                return DownloadResult(requestedURL: shown, finalURL: shown, error: "\(shown): \(why)", attempts: 0)
            }
        }
        return await Downloader(client: client, cacheDirectory: cache.path, onEvent: onDownload).download(
            requests, deadline: deadline, seconds: downloadDeadline)
    }

    /// The entries of a manifest file already recognized, within the entry limit: each an entry or why it is
    /// not one.
    private func entries(of path: String) throws(ManifestError) -> [Result<ManifestEntry, ManifestError>] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ManifestError("manifest could not be read back")
        }
        let entries = try Manifest.read([UInt8](data))
        guard entries.count <= maxManifestEntries else {
            throw ManifestError(
                "manifest lists \(entries.count) entries, more than the limit of \(maxManifestEntries)"
                    + " (--max-manifest-entries)")
        }
        return entries
    }

    private enum LocalEntry {
        /// The entry's artifact, or a sysdiagnose archive's artifacts.
        case done([Artifact])
        case remote(DownloadRequest)
    }

    /// A local manifest and its entries. Paths resolve inside the manifest's folder: absolute paths, `..`,
    /// hidden names and symbolic links that lead out are refused (a manifest from elsewhere must not be able
    /// to read `~/.git-credentials`); URLs are fetched without credentials.
    private func localEntries(_ manifest: Artifact, path: String) -> (Artifact, [LocalEntry]) {
        var manifest = manifest
        let entries: [Result<ManifestEntry, ManifestError>]
        do {
            entries = try self.entries(of: path)
        } catch {
            manifest.status = .error
            manifest.error = error.description
            return (manifest, [])
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let realDirectory = Self.realPath(directory)
        return (
            manifest,
            entries.enumerated().map { offset, read in
                let number = offset + 1
                func refused(_ why: String) -> LocalEntry {
                    .done([Artifact(source: path, status: .error, error: "manifest entry \(number): \(why)")])
                }
                let entry: ManifestEntry
                switch read {
                case .success(let read): entry = read
                case .failure(let error):
                    return .done([Artifact(source: path, status: .error, error: error.description)])
                }
                if Self.isURL(entry.reference) {
                    guard let url = URL(string: entry.reference), HTTPOrigin(url) != nil else {
                        return refused("not a valid URL")
                    }
                    return .remote(DownloadRequest(url: url, expectedSHA256: entry.sha256, credentialOrigin: nil))
                }
                let reference = entry.reference
                // The system would read the path up to its NUL: `a.ips\0…` named another file than the entry.
                if reference.utf8.contains(0) { return refused(LocalArtifacts.nulInPath) }
                if reference.hasPrefix("/") || reference.hasPrefix("~") {
                    return refused("an absolute path; entries are relative to the manifest's folder")
                }
                let components = reference.split(separator: "/")
                if components.contains("..") { return refused("leaves the manifest's folder ('..')") }
                if components.contains(where: { $0.hasPrefix(".") && $0 != "." }) {
                    return refused("names a hidden file or folder")
                }
                let resolved = directory == "." ? reference : directory + "/" + reference
                if let realDirectory, let real = Self.realPath(resolved),
                    !(real + "/").hasPrefix(realDirectory == "/" ? "/" : realDirectory + "/")
                {
                    return refused("a symbolic link that leads out of the manifest's folder")
                }
                var artifacts = Self.expandingArchive(LocalArtifacts.load(path: resolved))
                if let sha256 = entry.sha256, let actual = artifacts[0].sha256, actual != sha256 {
                    // Not the file the manifest names: none of it is read (an archive's members neither).
                    var artifact = artifacts[0]
                    artifact.status = .error
                    artifact.content = nil
                    artifact.error = "sha256 mismatch: the manifest expects \(sha256), the file has \(actual)"
                    artifacts = [artifact]
                }
                return .done(artifacts)
            }
        )
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The artifact of one download: an error naming the URL, or the cached file read like a local one.
    static func artifact(from result: DownloadResult) -> Artifact {
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

    /// A text (a playbook) over HTTP with the run's settings: the body and the redacted URL.
    public func fetchText(_ operand: String) async throws(FetchError) -> (text: String, source: String) {
        guard let url = URL(string: operand), HTTPOrigin(url) != nil else {
            throw FetchError("not a valid URL: \(Redact.invalidURL(operand))")
        }
        if let networkRefusal { throw FetchError("\(Redact.url(url)): \(networkRefusal)") }
        let response: HTTPResponse
        do {
            response = try await client.send(HTTPRequest(url: url))
        } catch {
            throw FetchError("could not fetch the playbook: \(error)")
        }
        guard (200..<300).contains(response.status) else {
            throw FetchError(
                "could not fetch the playbook: \(HTTPError(url: Redact.url(url), failure: .http(response.status), attempts: 1, finalURL: Redact.url(url)))"
            )
        }
        return (String(decoding: response.body, as: UTF8.self), Redact.url(url))
    }
}

/// A text that could not be fetched; the description quotes no secret.
public struct FetchError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
