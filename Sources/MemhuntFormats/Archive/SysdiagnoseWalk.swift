/// What memhunt does with one member of a sysdiagnose archive, decided from its place in the archive.
public enum SysdiagnoseRole: Sendable, Hashable {
    /// Read like a file given alone: its kind is detected from its content (`crashes_and_spins/` reports,
    /// `logs/` text).
    case document
    /// A sysdiagnose file whose numbers no check reads yet (`ps.txt`, `taskinfo.txt`, `vm_stat`,
    /// `memory_pressure`): named with the kind its place gives it, hashed, not parsed.
    case named(ArtifactKind)
    /// A file inside a `.logarchive` bundle (the path of the bundle): the bundle is one unified log, read by
    /// `log show`, never its files.
    case logArchive(String)
    /// Anything else: counted, not listed.
    case skipped

    /// The role of a member from its path components (without `.`, empty and `..` components).
    public static func of(_ components: [Substring]) -> SysdiagnoseRole {
        if let bundle = components.firstIndex(where: { $0.hasSuffix(".logarchive") }) {
            return .logArchive(components[...bundle].joined(separator: "/"))
        }
        guard let name = components.last else { return .skipped }
        if components.dropLast().contains("crashes_and_spins"),
            name.hasSuffix(".ips") || name.contains(".ips.") || name.hasSuffix(".crash")
        {
            return .document
        }
        // The top-level command outputs, in the archive's folder (or at its root).
        if components.count <= 2 {
            switch name {
            case "ps.txt", "ps_thread.txt": return .named(.processList)
            case "taskinfo.txt": return .named(.taskInfo)
            case "vm_stat.txt": return .named(.vmStat)
            case "memory_pressure.txt": return .named(.memoryPressure)
            default: break
            }
        }
        if components.dropLast().contains("logs"), name.hasSuffix(".txt") || name.contains(".log") {
            return .document
        }
        return .skipped
    }
}

/// How far an archive may expand before memhunt stops reading it.
public struct ArchiveLimits: Sendable, Hashable {
    /// Members (every header: files, folders, links, extended records); the rest of a longer archive is not read.
    public var members: Int
    /// A member read as a document is held whole up to this size; a larger one is refused from its declared
    /// size and its bytes are passed over.
    public var documentBytes: Int
    /// The tar stream's length (headers, members, padding); a member whose declared size would take the stream
    /// past it is refused at its header, and nothing after it is read.
    public var expandedBytes: Int

    /// Members read as documents or named, at most: each is an artifact the run keeps, so their number bounds the run's
    /// memory (many tiny members outgrew it). The rest are counted, not read.
    public var documents: Int
    /// The bytes of the members read, at most, in all: a parsed record stays in memory for the checks (parsed
    /// JetsamEvents take many times their size). A member that would take the sum past it is counted, not read.
    public var documentTotalBytes: Int

    /// 100,000 members; 64 MB documents (the limit of a file given alone); 8 GiB expanded; 10,000 members and
    /// 128 MB read in all.
    public static let standard = ArchiveLimits(
        members: 100_000, documentBytes: 64 << 20, expandedBytes: 8 << 30, documents: 10_000,
        documentTotalBytes: 128 << 20)

    public init(
        members: Int, documentBytes: Int, expandedBytes: Int, documents: Int = 10_000,
        documentTotalBytes: Int = 128 << 20
    ) {
        self.members = members
        self.documentBytes = documentBytes
        self.expandedBytes = expandedBytes
        self.documents = documents
        self.documentTotalBytes = documentTotalBytes
    }
}

/// What reading a sysdiagnose archive found, member by member, in counts.
public struct ArchiveSummary: Sendable, Hashable {
    /// A `.logarchive` bundle inside the archive: its path, the files in it, their bytes.
    public struct LogArchive: Sendable, Hashable {
        public var path: String
        public var members: Int
        public var bytes: Int

        public init(path: String, members: Int, bytes: Int) {
            self.path = path
            self.members = members
            self.bytes = bytes
        }
    }

    /// Headers read (every file, folder and link).
    public var members = 0
    public var folders = 0
    /// Members handed over whole as documents.
    public var documents = 0
    /// Members named with their kind, not parsed.
    public var named = 0
    /// Members refused (a name that leaves the archive, a link, a document over the limit, cut short).
    public var refused = 0
    /// Members that would have been read, left unread because the archive's read members met a limit
    /// (`ArchiveLimits.documents`, `documentTotalBytes`), and their declared bytes.
    public var overLimit = 0
    public var overLimitBytes = 0
    /// The bytes of the members read (documents and named ones).
    public var readBytes = 0
    /// Files memhunt does not read, and their declared bytes.
    public var skipped = 0
    public var skippedBytes = 0
    public var logArchives: [LogArchive] = []
    /// Bytes of the tar stream read.
    public var expandedBytes = 0
    /// Why the rest of the archive was not read (a limit, a broken header, the end of the input inside it); nil
    /// when it was read to its end.
    public var failure: FormatError?

    public init() {}

    /// The counts in words, for the archive's diagnostics.
    public var sentences: [String] {
        func count(_ number: Int, _ word: String) -> String {
            "\(Self.grouped(number)) \(word)\(number == 1 ? "" : "s")"
        }
        var parts = [
            "\(count(members, "member")) (\(Self.grouped(expandedBytes)) bytes expanded): \(documents) read as artifacts"
        ]
        if named > 0 { parts.append("\(named) named and not parsed (no check reads their numbers)") }
        if refused > 0 { parts.append("\(refused) refused") }
        if overLimit > 0 {
            parts.append(
                "\(Self.grouped(overLimit)) not read (\(Self.grouped(overLimitBytes)) bytes): the members read already "
                    + "met memhunt's limit for one archive")
        }
        if !logArchives.isEmpty { parts.append(count(logArchives.count, "unified log archive")) }
        parts.append(
            "\(Self.grouped(skipped)) skipped (\(Self.grouped(skippedBytes)) bytes): memhunt does not read them")
        if folders > 0 { parts.append(count(folders, "folder")) }
        return [parts.joined(separator: "; ")]
    }

    /// A count with thousands separators: 1,234,567.
    public static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (number < 0 ? "-" : "") + out
    }
}

/// A sysdiagnose tar stream read member by member (`TarScanner`), each member routed by its place
/// (`SysdiagnoseRole`), within `ArchiveLimits`. Pure: the caller inflates and feeds the bytes, and turns the
/// events into artifacts.
///
/// Member names are checked before anything else: an absolute name or one with a `..` component is refused
/// (named, never resolved); links are never followed (a link where a document would be is refused).
public struct SysdiagnoseWalk: Sendable {
    /// A member handed over: its name as written, its path without `./` and empty components, its role
    /// (`.document` or `.named`), its declared size.
    public struct Entry: Sendable, Hashable {
        public var name: String
        public var path: String
        public var role: SysdiagnoseRole
        public var size: Int
    }

    public enum Event {
        /// A member whose bytes follow.
        case begin(Entry)
        /// The next bytes of the member begun; valid only during the call.
        case data(UnsafeRawBufferPointer)
        /// The member begun is whole.
        case end
        /// The member begun could not be read whole (why, with its place).
        case abandon(FormatError)
        /// A member not read, with its name as written and why.
        case refused(name: String, FormatError)
    }

    public let limits: ArchiveLimits
    public private(set) var summary = ArchiveSummary()
    private var scanner = TarScanner()
    /// Whether the member the scanner is in was begun (its bytes are handed over).
    private var open = false
    private var openRole = SysdiagnoseRole.skipped
    private var logArchiveIndex: [String: Int] = [:]
    private var stop: FormatError?
    /// Where a limit stopped the walk: the bytes read then (the scanner reads on to the end of the chunk fed).
    private var expandedAtStop: Int?
    /// The log archive the current member belongs to, to count its bytes.
    private var inLogArchive: Int?

    public init(limits: ArchiveLimits = .standard) {
        self.limits = limits
    }

    /// Whether more input is wanted: false once the archive ended, broke or met a limit.
    public var wantsMore: Bool { stop == nil && scanner.state == .reading }

    /// Whether the archive was read to its end-of-archive block, nothing stopping it before.
    public var reachedEnd: Bool { stop == nil && scanner.state == .ended }

    /// Reads the next bytes of the tar stream.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (Event) -> Void) {
        guard wantsMore else { return }
        var local = scanner
        // The scanner runs on a copy so its events can change `self`.
        local.feed(bytes) { event in
            guard stop == nil else { return }
            switch event {
            case .member(let member): self.begin(member, handle)
            case .data(let data):
                if open { handle(.data(data)) }
            case .memberEnd:
                if open { handle(.end) }
                open = false
                inLogArchive = nil
            }
        }
        scanner = local
        summary.expandedBytes = expandedAtStop ?? scanner.offset
        if case .failed(let error) = scanner.state, stop == nil {
            let placed = Self.placed(error)
            abandonOpen(placed, handle)
            stop = placed
        }
        summary.failure = stop
    }

    /// The input could not be read on (a corrupt or cut compressed stream, a read error): the member begun is
    /// abandoned with `error`, and nothing more is read. A walk that already stopped keeps its first reason.
    public mutating func fail(_ error: FormatError, _ handle: (Event) -> Void) {
        guard wantsMore else { return }
        abandonOpen(error, handle)
        stop = error
        summary.failure = error
    }

    /// The input is over: names the member it cut, if any. Returns the summary.
    public mutating func finish(_ handle: (Event) -> Void) -> ArchiveSummary {
        if stop == nil, let cut = scanner.truncation() {
            let placed = Self.placed(cut)
            abandonOpen(placed, handle)
            stop = placed
        }
        summary.failure = stop
        summary.expandedBytes = expandedAtStop ?? scanner.offset
        return summary
    }

    /// A scanner error with its offset in words: "at byte N of the tar stream, …".
    static func placed(_ error: FormatError) -> FormatError {
        guard let offset = error.offset else { return error }
        return FormatError("at byte \(ArchiveSummary.grouped(offset)) of the tar stream, " + error.message)
    }

    private mutating func abandonOpen(_ error: FormatError, _ handle: (Event) -> Void) {
        if open {
            handle(.abandon(error))
            if openRole == .document { summary.documents -= 1 } else { summary.named -= 1 }
            summary.refused += 1
        }
        open = false
    }

    private mutating func halt(_ message: String, at offset: Int) {
        expandedAtStop = offset
        stop = FormatError("at byte \(ArchiveSummary.grouped(offset)) of the tar stream, " + message)
    }

    private mutating func begin(_ member: TarMember, _ handle: (Event) -> Void) {
        summary.members += 1
        guard summary.members <= limits.members else {
            halt(
                "more than \(ArchiveSummary.grouped(limits.members)) members: the rest of the archive, from member "
                    + "\(Self.shown(member.name)), is not read", at: member.offset)
            summary.members -= 1
            return
        }
        // A declared size near `Int.max` (a pax `size` record, a GNU base-256 field) would overflow the sum: it is
        // compared with what is left under the limit instead, so it is refused like any size over the limit.
        let room = limits.expandedBytes - member.offset - 512
        guard member.size <= room - TarScanner.padding(member.size) else {
            halt(
                "member \(Self.shown(member.name)) declares \(ArchiveSummary.grouped(member.size)) bytes: the archive would expand "
                    + "past the limit of \(ArchiveSummary.grouped(limits.expandedBytes)) bytes; it and the members "
                    + "after it are not read", at: member.offset)
            summary.refused += 1
            return
        }
        let name = Self.shown(member.name)
        if name.hasPrefix("/") {
            refuse(name, "an absolute path: member names are relative to the archive", member, handle)
            return
        }
        let components = member.name.split(separator: "/").filter { $0 != "." }
        if components.contains("..") {
            refuse(name, "the name leaves the archive ('..'): refused, never resolved", member, handle)
            return
        }
        let role = SysdiagnoseRole.of(components)
        if case .directory = member.kind {
            summary.folders += 1
            return
        }
        if case .logArchive(let whole) = role {
            let path = Self.shown(whole)
            let index =
                logArchiveIndex[path]
                ?? {
                    summary.logArchives.append(ArchiveSummary.LogArchive(path: path, members: 0, bytes: 0))
                    logArchiveIndex[path] = summary.logArchives.count - 1
                    return summary.logArchives.count - 1
                }()
            summary.logArchives[index].members += 1
            summary.logArchives[index].bytes += member.size
            return
        }
        guard role != .skipped else {
            summary.skipped += 1
            summary.skippedBytes += member.size
            return
        }
        switch member.kind {
        case .symbolicLink:
            refuse(
                name, "a symbolic link (to \(member.linkName)): links inside an archive are not followed", member,
                handle)
            return
        case .hardLink:
            refuse(
                name, "a hard link (to \(member.linkName)): links inside an archive are not followed", member, handle)
            return
        case .other(let type):
            let flag = String(decoding: [type], as: UTF8.self)
            refuse(name, "not a regular file (tar type '\(flag)')", member, handle)
            return
        case .file, .directory: break
        }
        if role == .document, member.size > limits.documentBytes {
            refuse(
                name,
                "declares \(ArchiveSummary.grouped(member.size)) bytes, over the "
                    + "\(ArchiveSummary.grouped(limits.documentBytes))-byte limit for documents: not read",
                member, handle)
            return
        }
        // What the run keeps of an archive is bounded: past the limits, members are counted, not read.
        if summary.documents + summary.named >= limits.documents
            || member.size > limits.documentTotalBytes - summary.readBytes
        {
            summary.overLimit += 1
            summary.overLimitBytes += member.size
            return
        }
        summary.readBytes += member.size
        if role == .document { summary.documents += 1 } else { summary.named += 1 }
        open = true
        openRole = role
        handle(.begin(Entry(name: name, path: components.joined(separator: "/"), role: role, size: member.size)))
    }

    /// The longest member name shown whole, in bytes; a pax path may hold up to `TarScanner.metaLimit`.
    public static let nameLimit = 1024

    /// `name` as messages and artifacts show it: whole up to `nameLimit` bytes, else its first 512 and last 256
    /// bytes (cut between characters) around how long it is, so a refused member's name never costs more
    /// than about a kilobyte however long the archive declares it.
    public static func shown(_ name: String) -> String {
        let bytes = Array(name.utf8)
        guard bytes.count > nameLimit else { return name }
        var head = 512
        while head > 0, UTF8.isContinuation(bytes[head]) { head -= 1 }
        var tail = bytes.count - 256
        while tail < bytes.count, UTF8.isContinuation(bytes[tail]) { tail += 1 }
        return String(decoding: bytes[..<head], as: UTF8.self)
            + "…[a name of \(ArchiveSummary.grouped(bytes.count)) bytes, cut]…"
            + String(decoding: bytes[tail...], as: UTF8.self)
    }

    private mutating func refuse(_ name: String, _ why: String, _ member: TarMember, _ handle: (Event) -> Void) {
        summary.refused += 1
        handle(.refused(name: name, FormatError(why)))
    }
}
