import MemhuntFormats

/// Whether an artifact could be read.
public enum ArtifactStatus: String, Sendable, Hashable, Codable {
    /// Its kind was detected and it parsed.
    case ok
    /// Its content matches no kind memhunt knows.
    case unrecognized
    /// It could not be read, or its kind was detected but the content is broken (truncated, invalid).
    case error
}

/// One input file (or download) and what memhunt made of it.
public struct Artifact: Sendable, Hashable {
    /// As given or found: a path (relative to the operand) or a URL.
    public var source: String
    /// Where the bytes are on disk now (the same path for local files, a cache file for downloads).
    public var localPath: String?
    public var kind: ArtifactKind?
    /// Hex sha256 of the bytes, when they could be read.
    public var sha256: String?
    public var size: Int?
    public var status: ArtifactStatus
    /// Why it is `unrecognized` or `error`.
    public var error: String?
    /// The parsed content, for `ok` artifacts.
    public var content: ParsedArtifact?
    /// For downloads: the URL after redirects, and the HTTP status.
    public var finalURL: String?
    public var httpStatus: Int?
    /// The operand (a path or URL as given) this artifact was collected from, when collected from one.
    public var operand: String?
    /// Whether this artifact is the operand itself (a file or URL named as given, or a manifest), not a file
    /// found by walking a directory or listed by a manifest. An operand that cannot be read means the hunt
    /// could not be done as asked.
    public var isOperand: Bool = false
    /// The source of an earlier artifact with the same bytes (sha256): this one is listed and counted once,
    /// as that one.
    public var duplicateOf: String?
    /// When `duplicateOf` is the same record in other bytes, not the same bytes: the identity they share.
    public var duplicateRecord: String?

    public init(
        source: String, localPath: String? = nil, kind: ArtifactKind? = nil, sha256: String? = nil,
        size: Int? = nil, status: ArtifactStatus, error: String? = nil, content: ParsedArtifact? = nil,
        finalURL: String? = nil, httpStatus: Int? = nil
    ) {
        self.source = source
        self.localPath = localPath
        self.kind = kind
        self.sha256 = sha256
        self.size = size
        self.status = status
        self.error = error
        self.content = content
        self.finalURL = finalURL
        self.httpStatus = httpStatus
    }
}

extension Artifact {
    /// Whether an artifact of this status and size was given and not read: evidence of unknown content, so
    /// nothing may be said of an absence while it is here. An empty file holds nothing: it is no such evidence.
    public static func holdsUnknownContent(status: ArtifactStatus, size: Int?) -> Bool { status != .ok && size != 0 }

    /// `holdsUnknownContent(status:size:)` of this artifact.
    public var holdsUnknownContent: Bool { Self.holdsUnknownContent(status: status, size: size) }

    /// `artifacts` with every later copy of the same bytes marked as a duplicate of the first: the same file
    /// given twice, reached through two operands, or listed twice, is one piece of evidence. So is the same
    /// record in other bytes (a CRLF copy, the UTF-16 copy, a fenced paste, the JSON re-serialised): two records
    /// with one `recordIdentity` are one, the complete one kept where the other is a fragment.
    public static func markingDuplicates(_ artifacts: [Artifact]) -> [Artifact] {
        var result = artifacts
        var first: [String: Int] = [:]
        // The first record of each identity in words, and each whole record by its full key.
        var firstRecord: [String: Int] = [:]
        var wholeRecord: [String: Int] = [:]
        for index in result.indices {
            let artifact = result[index]
            guard artifact.status == .ok, artifact.duplicateOf == nil, let sha = artifact.sha256 else { continue }
            if let earlier = first[sha] {
                result[index].duplicateOf = result[earlier].source
                continue
            }
            first[sha] = index
            guard let identity = artifact.recordIdentity else { continue }
            func mark(_ dropped: Int, as kept: Int) {
                result[dropped].duplicateOf = result[kept].source
                result[dropped].duplicateRecord = identity.description
            }
            let earlier = firstRecord[identity.description]
            if artifact.isCompleteRecord {
                if let same = wholeRecord[identity.key] {
                    mark(index, as: same)
                    continue
                }
                wholeRecord[identity.key] = index
                // A fragment of this record read first gives way to the whole record.
                if let earlier, !result[earlier].isCompleteRecord, result[earlier].duplicateOf == nil {
                    mark(earlier, as: index)
                    firstRecord[identity.description] = index
                }
                if earlier == nil { firstRecord[identity.description] = index }
            } else if let earlier {
                mark(index, as: earlier)
            } else {
                firstRecord[identity.description] = index
            }
        }
        return result
    }

    /// What identifies the record this artifact holds whatever its bytes, and those words for people: a crash
    /// report's incident identifier with its process and date; a JetsamEvent's device (`crashReporterKey`) and
    /// date, else its incident identifier, with its processes (their names, pids, pages and reasons, so an
    /// edited copy is another record). Nil for other kinds, and when the record carries no such identity. A fragment (a
    /// partial or elided paste) holds less than the whole: its processes are not compared.
    public var recordIdentity: (key: String, description: String)? {
        switch content {
        case .crashReport(let report)?:
            guard let incident = report.incidentID else { return nil }
            let description = "crash report incident \(incident.uppercased())"
            return (description + "|" + (report.processName ?? "") + "|" + (report.date ?? ""), description)
        case .jetsamEvent(let event)?:
            let description: String
            if let key = event.deviceKey, let date = event.date {
                description = "JetsamEvent of device \(key) at \(date)"
            } else if let incident = event.header?.incidentID {
                description = "JetsamEvent incident \(incident.uppercased())"
            } else {
                return nil
            }
            guard event.recovery?.isComplete ?? true else { return (description, description) }
            // FNV-1a over each process's `name#pid,rpages,lifetimeMax,reason;`, fed byte by byte: a string made per
            // process showed in a fleet scan's profile.
            var hasher = 0xcbf2_9ce4_8422_2325 as UInt64
            func feed(_ byte: UInt8) { hasher = (hasher ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            func feed(_ text: String) { for byte in text.utf8 { feed(byte) } }
            func feed(_ number: Int) {
                if number < 0 { feed(UInt8(ascii: "-")) }
                feed(UInt64(number.magnitude))
            }
            func feed(_ number: UInt64) {
                var digits: (UInt64, Int) = (1, 1)
                while number / digits.0 >= 10 { digits = (digits.0 * 10, digits.1 + 1) }
                var rest = number
                for _ in 0..<digits.1 {
                    feed(UInt8(ascii: "0") + UInt8(rest / digits.0))
                    rest %= digits.0
                    digits.0 /= 10
                }
            }
            for process in event.processes {
                feed(process.name)
                feed(UInt8(ascii: "#"))
                feed(process.pid ?? -1)
                feed(UInt8(ascii: ","))
                feed(process.rpages)
                feed(UInt8(ascii: ","))
                feed(process.lifetimeMax ?? 0)
                feed(UInt8(ascii: ","))
                feed(process.reason ?? "")
                feed(UInt8(ascii: ";"))
            }
            return (description + "|\(event.processes.count)|\(hasher)", description)
        default:
            return nil
        }
    }

    /// Whether the record is whole: not an elided or partial paste.
    public var isCompleteRecord: Bool {
        switch content {
        case .crashReport(let report)?: report.recovery?.isComplete ?? true
        case .jetsamEvent(let event)?: event.recovery?.isComplete ?? true
        default: true
        }
    }

    /// When the incident it records happened, as the artifact writes it: a crash report's or JetsamEvent's
    /// date, the end of a MetricKit payload's window, a measurement set's first reading (file order), a
    /// change log's first evaluation, a heap report's date, a footprint JSON's first dated snapshot.
    public var incidentTime: String? {
        switch content {
        case .crashReport(let report)?: report.date
        case .jetsamEvent(let event)?: event.date
        case .metricPayload(let payload)?: payload.timeStampEnd
        case .diagnosticPayload(let payload)?: payload.timeStampEnd
        case .repro(.measurements(let set))?: set.measurements.lazy.compactMap(\.time).first
        case .repro(.changeLog(let summary))?: summary.firstTimestamp
        case .repro(.heap(let report))?: report.date
        case .repro(.footprintJSON(let report))?:
            report.snapshots.lazy.compactMap {
                $0.time != nil && $0.timeText?.contains("-") == true ? $0.timeText : nil
            }
            .first
        case .killLog(let log)?: log.firstTimestamp
        case .sdkExport(let export)?: export.events.lazy.compactMap { $0.time?.utc != nil ? $0.time?.text : nil }.first
        default: nil
        }
    }

    /// What the parsed content could not read as written (a number out of range, a key given twice), or what an
    /// archive held (its members in counts): the artifact's diagnostics beside its status.
    public var notes: [String] {
        switch content {
        case .ascMetrics(let metrics)?:
            metrics.unreadable
                + (metrics.problemCount > metrics.unreadable.count
                    ? ["\(metrics.problemCount - metrics.unreadable.count) more unreadable values"] : [])
                + (metrics.droppedPoints > 0 ? ["\(metrics.droppedPoints) memory points past the cap, not kept"] : [])
        case .jetsamEvent(let event)?: (event.recovery.map { [$0.note] } ?? []) + event.diagnostics
        case .crashReport(let report)?: report.recovery.map { [$0.note] } ?? []
        case .repro(.heap(let report))?: report.unreadable
        case .repro(.footprintJSON(let report))?: report.unreadable
        case .repro(.xctraceExport(let export))?: export.diagnostics
        case .archive(let summary)?: summary.sentences
        case .sdkExport(let export)?: (export.cut.map { ["cut: " + $0] } ?? []) + export.diagnostics
        default: []
        }
    }

    /// The kill records it holds (a kill log's, or a change log's other lines'), when it was read and holds any.
    public var killLog: MemoryKillLog? { status == .ok ? content?.killLog : nil }

    /// Whether it holds records of `kind`: its own kind, and `kill-log` for a change log that holds kill lines
    /// (one log may hold both: each step reads what it reads of it).
    public func holds(_ kind: ArtifactKind) -> Bool {
        self.kind == kind || (kind == .killLog && killLog != nil)
    }

    /// The last path component of its source; for a member of an archive (`…/archive.tar.gz!/path/inside`), the
    /// archive's file name and the member's whole path (`archive.tar.gz!/path/inside`).
    public var fileName: String { Self.fileName(of: source) }

    /// `fileName` of a source.
    public static func fileName(of source: String) -> String {
        func last(_ path: Substring) -> String { path.split(separator: "/").last.map(String.init) ?? String(path) }
        guard let bang = source.range(of: "!/") else { return last(source[...]) }
        return last(source[..<bang.lowerBound]) + "!/" + source[bang.upperBound...]
    }
}
