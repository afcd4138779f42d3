/// How a file is to be read, decided once from its first bytes.
public enum ArtifactRoute: Sendable, Hashable {
    /// Read whole (up to the document limit) and parsed by `ArtifactReader.read`.
    case document
    /// A list of artifacts (JSON or YAML): parsed as a manifest, else read as a document.
    case manifest
    /// A change log: streamed through `ChangeLogScanner` in bounded memory, whatever its size.
    case changeLog
    /// An `xcodebuild test` log: streamed through `XCTestLogScanner` in bounded memory, whatever its size.
    case xctestLog
    /// An xctrace export: streamed through `XCTraceScanner` in bounded memory, whatever its size.
    case xctraceExport
    /// A `leaks` report: streamed through `LeaksScanner` in bounded memory, whatever its size.
    case leaksReport
    /// A `heap` report: streamed through `HeapScanner` in bounded memory, whatever its size.
    case heapReport
    /// `footprint -j` JSON of megabytes (the sniffer routes it as a document; the file's reader, which knows its
    /// size, routes it here): streamed through `FootprintScanner`, a sample at a time.
    case footprintJSON
}

/// The ONE order in which kinds are detected, on bytes: the `.ips` header and JSON first, then crash text, a
/// YAML manifest, and the text sniffers (change logs last, the loosest). `ArtifactReader.read` then tells the
/// document kinds apart in the same order.
public enum ArtifactSniffer {
    /// The route of a file from its first ≤ 64 KiB.
    public static func route(_ prefix: [UInt8]) -> ArtifactRoute { routeAndDetect(prefix).route }

    /// The route, and `ReproReader.detect`'s answer on the same ≤ 64 KiB when the route had to ask it (nil when it did
    /// not): `ArtifactReader.read(_:detected:)` takes it instead of detecting again (each detection showed in the
    /// profile of `memhunt run` on Fixtures/justsend).
    public static func routeAndDetect(_ prefix: [UInt8]) -> (route: ArtifactRoute, detected: ArtifactKind??) {
        let (head, start) = window(prefix)
        if opensJSON(head, at: start) {
            // A change log of `log show --style ndjson` or `json` streams like the text styles: it was read whole
            // as a document, and refused above the document limit. Only `log show`'s JSON (`mayBeLogShowJSON`) is
            // asked, which is where the document reader, after its JSON kinds, would come to the same change log.
            if mayBeLogShowJSON(head), ReproReader.detect(head) == .changeLog {
                return (.changeLog, .some(.changeLog))
            }
            // An `.ips` header is a document even when it looks like a manifest. Its header line is parsed only then
            // (the reader parses it again, and parsing it for every input showed in a fleet scan's profile); it starts
            // with `{` where this `start` is, so no other input can have one.
            guard looksLikeManifest(head) else { return (.document, nil) }
            return (ArtifactReader.sniffIPSHeader(head) != nil ? .document : .manifest, nil)
        }
        if CrashParser.isCrashText(head[start...]) { return (.document, nil) }
        if looksLikeManifest(head) { return (.manifest, nil) }
        let detected = ReproReader.detect(head)
        switch detected {
        case .changeLog?: return (.changeLog, .some(detected))
        case .xctestMetrics?: return (.xctestLog, .some(detected))
        case .xctraceExport?: return (.xctraceExport, .some(detected))
        case .leaks?: return (.leaksReport, .some(detected))
        case .heap?: return (.heapReport, .some(detected))
        default: return (.document, .some(detected))
        }
    }

    /// Whether a file the document reader found of no known kind, or refused as too large, may still be a change
    /// log whose first change or kill line comes after its first 64 KiB (`head`): text that is no crash report,
    /// manifest or other text kind, or `log show`'s JSON (an `"eventMessage"` key, no `.ips` header, no
    /// JetsamEvent or MetricKit keys). A device's console holds megabytes of other subsystems' lines before
    /// SwiftUI prints its first change: such a log was "unrecognized content", and over 64 MB refused as a
    /// document too large, while the change lines were in it. Only the scanner, over the whole file, can say.
    ///
    /// `prefix` is the file's first bytes; more may follow them, so a UTF-8 sequence cut at the end of the window
    /// is text (a late change log whose 65,536th byte fell inside an `é` was unrecognized).
    public static func mayBeChangeLogPastHead(_ prefix: [UInt8]) -> Bool {
        let (head, start) = window(prefix)
        guard start < head.count else { return false }
        if opensJSON(head, at: start) { return mayBeLogShowJSON(head) }
        return ArtifactReader.isText(head[...], complete: false) && !CrashParser.isCrashText(head[start...])
            && !looksLikeManifest(head) && ReproReader.detect(head) == nil
    }

    /// The first 64 KiB of `prefix` (the sniffers' window) and where its content starts, past a byte order mark
    /// and whitespace.
    private static func window(_ prefix: [UInt8]) -> (head: [UInt8], start: Int) {
        let head = Array(prefix.prefix(65_536))
        return (head, JSON.skipWhitespace(head, from: head.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0))
    }

    private static func opensJSON(_ head: [UInt8], at start: Int) -> Bool {
        start < head.count && (head[start] == UInt8(ascii: "{") || head[start] == UInt8(ascii: "["))
    }

    /// Whether a head that opens JSON may be `log show`'s: an `"eventMessage"` key (the scanner's records have
    /// one), no `.ips` header line and no JetsamEvent or MetricKit keys.
    private static func mayBeLogShowJSON(_ head: [UInt8]) -> Bool {
        ReproText.containsBytes(head[...], "\"eventMessage\"") && ArtifactReader.sniffIPSHeader(head) == nil
            && ArtifactReader.jsonKindHint(head) == nil
    }

    /// Whether the bytes start like a manifest: a JSON list of strings or objects, a JSON object whose first
    /// key is `artifacts` (unlike an `.ips` header line), or a YAML list or `artifacts:` mapping, after blank
    /// and `#` comment lines. Looks at the first 512 bytes only.
    public static func looksLikeManifest(_ bytes: [UInt8]) -> Bool {
        let window = Array(bytes.prefix(512))
        var index = window.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        // Skip blank lines and comment lines.
        while index < window.count {
            while index < window.count, isBlank(window[index]) { index += 1 }
            guard index < window.count, window[index] == UInt8(ascii: "#") else { break }
            while index < window.count, window[index] != 0x0A { index += 1 }
        }
        guard index < window.count else { return false }
        func rest(after offset: Int) -> ArraySlice<UInt8> {
            var next = offset
            while next < window.count, isBlank(window[next]) { next += 1 }
            return window[next...]
        }
        switch window[index] {
        case UInt8(ascii: "["):
            guard let first = rest(after: index + 1).first else { return false }
            return first == UInt8(ascii: "\"") || first == UInt8(ascii: "{") || first == UInt8(ascii: "]")
        case UInt8(ascii: "{"):
            return rest(after: index + 1).starts(with: Array("\"artifacts\"".utf8))
        default:
            let line = window[index...]
            return line.starts(with: Array("- ".utf8)) || line.starts(with: Array("artifacts:".utf8))
        }
    }
}
