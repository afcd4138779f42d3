/// Entry point of the leaf: bytes in, kind and typed value out. No I/O.
public enum ArtifactReader {
    /// Detects the kind from content and parses it.
    ///
    /// Empty input, binary input and unknown text are errors with `kind == nil`; a known kind whose
    /// body is truncated or invalid keeps its kind and carries the error.
    ///
    /// `detected` is `ReproReader.detect`'s answer on `bytes.prefix(65_536)` when the caller already has it
    /// (`ArtifactSniffer.routeAndDetect`); nil detects here.
    public static func read(_ bytes: [UInt8], detected: ArtifactKind?? = nil) -> ReadOutcome {
        // Excel's "CSV UTF-8" and some editors start text with a UTF-8 byte order mark: read past it.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return read(Array(bytes.dropFirst(3))) }
        // UTF-16 with its byte order mark (Windows PowerShell's `>`, Notepad's "Unicode"): the same text, read
        // as UTF-8. It was "binary content" before.
        if let text = utf8(fromUTF16: bytes) { return namingUTF16Flaw(of: bytes, in: read(text)) }
        var outcome = readField(bytes)
        // A record as people paste it (prose, a fence or quote, a wrapped or missing header, an elision): asked
        // only when the plain read failed, or read legacy text that does not start as a crash report does.
        if mayBePasted(outcome, bytes), let recovered = PastedRecord.recover(bytes).flatMap(readRecovered) {
            outcome = recovered
        }
        // A `log` capture whose predicate matched nothing: a change log with zero evaluations.
        if outcome.kind == nil, let empty = EmptyLogCapture.read(bytes) {
            return ReadOutcome(kind: .changeLog, result: .success(.repro(.changeLog(empty))))
        }
        // The reproduction kinds come second: a crash report can embed a vmmap table or a stack that
        // looks like a sample. Images are binary, so they must be tried before the text check rejects them.
        guard outcome.kind == nil, !bytes.isEmpty else { return outcome }
        let found =
            if let detected { detected.flatMap { ReproReader.readWithKind(bytes, as: $0) } } else {
                ReproReader.readWithKind(bytes)
            }
        guard let repro = found else { return outcome }
        // A log of kill lines and no change line is a kill log.
        if case .success(.changeLog(let summary)) = repro.result {
            let parsed = ParsedArtifact.log(summary)
            return ReadOutcome(kind: parsed.kind, result: .success(parsed))
        }
        return ReadOutcome(kind: repro.kind, result: repro.result.map(ParsedArtifact.repro))
    }

    /// `bytes` as UTF-8 when they are UTF-16 after a byte order mark (`FF FE` little-endian, `FE FF`
    /// big-endian); nil otherwise. Unpaired surrogates and an odd last byte become U+FFFD.
    public static func utf8(fromUTF16 bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 2 else { return nil }
        let little: Bool
        switch (bytes[0], bytes[1]) {
        case (0xFF, 0xFE): little = true
        case (0xFE, 0xFF): little = false
        default: return nil
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = 2
        while index + 1 < bytes.count {
            let (low, high) = little ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
            units.append(UInt16(high) << 8 | UInt16(low))
            index += 2
        }
        if index < bytes.count { units.append(0xFFFD) }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    /// The first flaw of UTF-16 `bytes` (after their byte order mark) that `utf8(fromUTF16:)` replaces with
    /// U+FFFD: an unpaired surrogate or an odd last byte, at its byte offset in the file and on its line. Nil
    /// when the bytes are well-formed UTF-16, or not UTF-16.
    public static func utf16Flaw(_ bytes: [UInt8]) -> FormatError? {
        guard bytes.count >= 2 else { return nil }
        let little: Bool
        switch (bytes[0], bytes[1]) {
        case (0xFF, 0xFE): little = true
        case (0xFE, 0xFF): little = false
        default: return nil
        }
        func unit(_ index: Int) -> UInt16 {
            let (low, high) = little ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
            return UInt16(high) << 8 | UInt16(low)
        }
        var line = 1
        var index = 2
        while index + 1 < bytes.count {
            let value = unit(index)
            if value == 0x000A { line += 1 }
            if (0xD800...0xDBFF).contains(value) {
                if index + 3 < bytes.count, (0xDC00...0xDFFF).contains(unit(index + 2)) {
                    index += 4
                    continue
                }
            }
            if (0xD800...0xDFFF).contains(value) {
                let hex = String(value, radix: 16, uppercase: true)
                return FormatError(
                    "not valid UTF-16: an unpaired surrogate (0x\(hex)) at byte offset \(index) of the file", line: line
                )
            }
            index += 2
        }
        guard index < bytes.count else { return nil }
        return FormatError("not valid UTF-16: an odd last byte at byte offset \(index) of the file", line: line)
    }

    /// `outcome`, the reading of the text `utf8(fromUTF16:)` made of `bytes`, with a failure told in the file's
    /// terms when the UTF-16 has a flaw: the converted text's words cite U+FFFD's bytes (0xEF 0xBF 0xBD), which
    /// the file does not hold, at offsets of the converted text. A broken document of a known kind fails with
    /// the flaw; text of no known kind says the flaw after its own words.
    public static func namingUTF16Flaw(of bytes: [UInt8], in outcome: ReadOutcome) -> ReadOutcome {
        guard case .failure(let error) = outcome.result, let flaw = utf16Flaw(bytes) else { return outcome }
        if outcome.isUnrecognized {
            return ReadOutcome(
                kind: outcome.kind, result: .failure(FormatError(error.message + "; " + flaw.description)),
                isUnrecognized: true)
        }
        return ReadOutcome(kind: outcome.kind, result: .failure(flaw))
    }

    /// Whether `bytes`, read as `outcome`, may be a pasted record: the read failed (no kind, or a broken
    /// JetsamEvent or crash report) and a record's marks are in them, or legacy crash text was read that has
    /// prose before it or an elision in it.
    private static func mayBePasted(_ outcome: ReadOutcome, _ bytes: [UInt8]) -> Bool {
        switch outcome.result {
        case .success(.crashReport(let report)):
            return report.format != .ipsJSON && PastedRecord.textNeedsRecovery(bytes)
        case .success: return false
        case .failure:
            guard outcome.kind == nil || outcome.kind == .jetsamEvent || outcome.kind == .crashReport else {
                return false
            }
            let all = bytes[...]
            return ReproText.containsBytes(all, "bug_type") || ReproText.containsBytes(all, "\"rpages\"")
                || ReproText.containsBytes(all, "\"memoryStatus\"") || ReproText.containsBytes(all, "\"procName\"")
                || ReproText.containsBytes(all, "Incident Identifier:")
                || ReproText.containsBytes(all, "Exception Type:")
                || ReproText.containsBytes(all, "Translated Report")
        }
    }

    /// The reading of a recovered record, with its recovery; nil when it is no JetsamEvent or crash report.
    private static func readRecovered(_ recovered: PastedRecord.Recovered) -> ReadOutcome? {
        let outcome: ReadOutcome
        switch recovered.found {
        case .processes(let processes):
            var event = JetsamEvent(pageSize: 0, processes: processes)
            event.recovery = recovered.recovery
            for process in processes where !process.unreadable.isEmpty {
                event.diagnostics.append(
                    "processes[\(process.index)] (\(process.name)): " + process.unreadable.joined(separator: ", ")
                        + " is no page count, left out")
            }
            return success(.jetsamEvent(event))
        case .bytes(let bytes): outcome = readField(bytes)
        }
        switch outcome.result {
        case .success(.jetsamEvent(var event)):
            event.recovery = recovered.recovery
            return success(.jetsamEvent(event))
        case .success(.crashReport(var report)):
            report.recovery = recovered.recovery
            return success(.crashReport(report))
        case .failure(let error) where outcome.kind == .jetsamEvent || outcome.kind == .crashReport:
            // The place in the pasted text, not in the recovered bytes.
            let line = error.line.map { recovered.lineMap.indices.contains($0 - 1) ? recovered.lineMap[$0 - 1] : $0 }
            let message = error.message + " (" + recovered.recovery.note + ")"
            return ReadOutcome(kind: outcome.kind, result: .failure(FormatError(message, line: line)))
        default: return nil
        }
    }

    /// The device-side kinds: `.ips` containers, crash text, MetricKit and JetsamEvent JSON.
    private static func readField(_ bytes: [UInt8]) -> ReadOutcome {
        guard !bytes.isEmpty else { return unreadable(FormatError("empty file")) }
        guard isText(bytes.prefix(4096), complete: bytes.count <= 4096) else {
            return unreadable(FormatError("binary content, not a text artifact"))
        }
        let start = JSON.skipWhitespace(bytes, from: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
        if let (header, bodyOffset) = sniffIPSHeader(bytes) { return readIPS(bytes, header: header, body: bodyOffset) }
        if start < bytes.count, bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") {
            return readJSON(bytes)
        }
        if CrashParser.isCrashText(bytes[start...]) {
            return success(.crashReport(CrashParser.parse(text: bytes[start...], header: nil)))
        }
        if let kind = jsonKindHint(bytes) {
            do {
                _ = try JSON.parse(bytes)
            } catch {
                return invalidJSON(kind, error)
            }
        }
        // An SDK export pasted after comment or prose lines, perhaps cut.
        if SDKReader.mayBeExport(bytes), let export = SDKReader.read(text: bytes) { return success(.sdkExport(export)) }
        return unrecognized(bytes)
    }

    /// The one-line JSON header of an `.ips` file (an object with `bug_type` that ends its line) and the
    /// offset of the body after it.
    public static func sniffIPSHeader(_ bytes: [UInt8]) -> (header: IPSHeader, bodyOffset: Int)? {
        let start = JSON.skipWhitespace(bytes, from: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
        // Parse the first line only: a pretty-printed JSON document would otherwise be parsed whole
        // here just to be rejected for spanning lines.
        // An `.ips` header line is well under 1 KB: a longer first line (a one-line JSON document) is not one, and was
        // copied and parsed whole here only to be rejected, which raised the run's peak memory.
        let window = bytes[start..<min(bytes.count, start + 65_536)]
        guard
            let lineEnd = window.firstIndex(of: UInt8(ascii: "\n"))
                ?? (window.endIndex == bytes.count ? bytes.count : nil)
        else { return nil }
        // The first member of each name, as `value[key]` finds it; keys compared as bytes, which for these
        // ASCII names without `K`, `;` or `` ` `` is what `String`'s `==` decides.
        var header = IPSHeader()
        var seen: UInt8 = 0  // bit n: field n (as below) was met; bit 0 is bug_type
        func take(_ key: UnsafeBufferPointer<UInt8>, _ value: JSONRawValue) {
            func first(_ name: StaticString, _ field: UInt8) -> Bool {
                guard key.equals(name), seen & (1 << field) == 0 else { return false }
                seen |= 1 << field
                return true
            }
            switch key.count {
            case 4: if first("name", 4) { header.name = value.string }
            case 8:
                if first("bug_type", 0) {
                    header.bugType = value.string ?? value.int.map(String.init)
                } else if first("app_name", 3) {
                    header.appName = value.string
                } else if first("bundleID", 5) {
                    header.bundleID = value.string
                }
            case 9: if first("timestamp", 1) { header.timestamp = value.string }
            case 10: if first("os_version", 2) { header.osVersion = value.string }
            case 11: if first("incident_id", 6) { header.incidentID = value.string }
            default: break
            }
        }
        guard let (_, end) = try? JSON.visitPrefix(Array(bytes[..<lineEnd]), from: start, members: take),
            seen & 1 != 0
        else { return nil }
        var cursor = end
        while cursor < bytes.count, bytes[cursor] == 0x20 || bytes[cursor] == 0x09 || bytes[cursor] == 0x0D {
            cursor += 1
        }
        guard cursor == bytes.count || bytes[cursor] == UInt8(ascii: "\n") else { return nil }
        return (header, min(cursor + 1, bytes.count))
    }

    private static func readIPS(_ bytes: [UInt8], header: IPSHeader, body: Int) -> ReadOutcome {
        let bodyStart = JSON.skipWhitespace(bytes, from: body)
        let first = bodyStart < bytes.count ? bytes[bodyStart] : nil
        let jsonBody = first == UInt8(ascii: "{")
        switch header.bugType ?? "" {
        case "298":
            // The processes are read as the parser meets them, never built as a tree.
            let reader = ProcessReader()
            return readBody(bytes, from: bodyStart, kind: .jetsamEvent, header: header, visitor: reader) {
                body, visited throws(FormatError) in
                .jetsamEvent(
                    try JetsamParser.parse(body: body, header: header, processes: visited ? reader.processes : nil))
            }
        case "309" where jsonBody || first == nil:
            return readBody(bytes, from: bodyStart, kind: .crashReport, header: header) {
                body, _ throws(FormatError) in
                .crashReport(try CrashParser.parse(jsonBody: body, header: header))
            }
        case "211": return success(.recognized(.analyticsLog))
        case "202", "145": return success(.recognized(.resourceReport))
        case "188": return success(.recognized(.stackshot))
        case let bugType:
            if !jsonBody, CrashParser.isCrashText(bytes[bodyStart...]) {
                return success(.crashReport(CrashParser.parse(text: bytes[bodyStart...], header: header)))
            }
            if ["109", "185", "309"].contains(bugType) {
                let what = first == nil ? "the body is missing" : "the body is not a crash report"
                return ReadOutcome(
                    kind: .crashReport,
                    result: .failure(FormatError("crash report (bug_type \(bugType)): \(what)", line: 2, offset: body)))
            }
            return unrecognized(FormatError("unrecognized content (.ips bug_type \(bugType))"))
        }
    }

    /// `visitor`, when given, takes the body's `processes` array (`JSON.parsePrefix(_:from:visitingElementsOf:with:)`);
    /// `parse` is told whether it did.
    private static func readBody(
        _ bytes: [UInt8], from start: Int, kind: ArtifactKind, header: IPSHeader, visitor: ProcessReader? = nil,
        parse: (JSONValue, Bool) throws(FormatError) -> ParsedArtifact
    ) -> ReadOutcome {
        let what = kind == .jetsamEvent ? "JetsamEvent" : "crash report"
        guard start < bytes.count else {
            return ReadOutcome(
                kind: kind, result: .failure(FormatError("\(what) has only its header line: the body is missing")))
        }
        let body: JSONValue
        var visited = false
        do throws(FormatError) {
            let (value, end): (JSONValue, Int)
            if let visitor {
                (value, visited, end) = try JSON.parsePrefix(
                    bytes, from: start, visitingElementsOf: "processes", with: visitor)
            } else {
                (value, end) = try JSON.parsePrefix(bytes, from: start)
            }
            // Apple appends nothing after the body; tolerate trailing whitespace only.
            let after = JSON.skipWhitespace(bytes, from: end)
            if after < bytes.count {
                let line = JSON.line(of: after, in: bytes)
                throw FormatError(
                    "unexpected \(JSON.describe(bytes[after])) after the JSON body", line: line, offset: after)
            }
            body = value
        } catch {
            // Past the value limit the JSON may well be valid: said as too large, not as broken.
            let message =
                JSON.isValueLimit(error)
                ? "\(what) body is too large to read: \(error.message)"
                : "\(what) body is not valid JSON: \(error.message)"
            return ReadOutcome(
                kind: kind, result: .failure(FormatError(message, line: error.line, offset: error.offset)))
        }
        do throws(FormatError) {
            return ReadOutcome(kind: kind, result: .success(try parse(body, visited)))
        } catch {
            return ReadOutcome(kind: kind, result: .failure(error))
        }
    }

    /// A header-less JSON document: a pasted JetsamEvent body or a MetricKit payload.
    private static func readJSON(_ bytes: [UInt8]) -> ReadOutcome {
        let value: JSONValue
        do {
            value = try JSON.parse(bytes)
        } catch {
            // JSON lines (a Crashlytics `.clsrecord`, a Sentry envelope) or an SDK export cut short.
            if let export = SDKReader.read(text: bytes) { return success(.sdkExport(export)) }
            guard let kind = jsonKindHint(bytes) else { return unrecognized(bytes) }
            return invalidJSON(kind, error)
        }
        if JetsamParser.isJetsamBody(value) {
            do throws(FormatError) {
                return success(.jetsamEvent(try JetsamParser.parse(body: value, header: nil)))
            } catch {
                return ReadOutcome(kind: .jetsamEvent, result: .failure(error))
            }
        }
        if ASCMetrics.isPerfPowerMetrics(value) { return success(.ascMetrics(ASCMetrics.parse(value))) }
        if XCTestMetrics.isResultMetrics(value) {
            return success(.repro(.xctestMetrics(XCTestMetrics.parse(resultMetrics: value))))
        }
        if FootprintJSON.isFootprintJSON(value) {
            return ReadOutcome(
                kind: .footprintJSON, result: FootprintJSON.parse(value).map { .repro(.footprintJSON($0)) })
        }
        switch MetricKitParser.payload(in: value) {
        case (let payload, .metrics)?: return success(.metricPayload(MetricKitParser.metrics(payload)))
        case (let payload, .diagnostics)?: return success(.diagnosticPayload(MetricKitParser.diagnostics(payload)))
        case nil:
            if let export = SDKReader.read(value) { return success(.sdkExport(export)) }
            return unrecognized(bytes)
        }
    }

    /// The kind that invalid JSON text most likely meant, from the quoted keys it contains.
    ///
    /// The keys are looked for as bytes first: `String.contains` searches by `Character` and was a large share of
    /// `memhunt run` on Fixtures/justsend (every text file that is no known kind comes here). A byte match whose
    /// neighbours are ASCII (or the window's ends) is a `Character` match too (the keys are ASCII, and only non-ASCII
    /// scalars join a grapheme with ASCII or stand canonically for `K`, `;` and `` ` ``, which no key has); no byte
    /// match means no match; only a match beside a non-ASCII byte asks `String.contains`, so the answer is the same as
    /// before.
    public static func jsonKindHint(_ bytes: [UInt8]) -> ArtifactKind? {
        let window = bytes.prefix(65536)
        var text: String?
        func has(_ key: String) -> Bool {
            switch window.withUnsafeBufferPointer({ find(Array(key.utf8), in: $0) }) {
            case .absent: return false
            case .present: return true
            case .uncertain:
                if text == nil { text = String(decoding: window, as: UTF8.self) }
                return text!.contains(key)
            }
        }
        if has("\"memoryStatus\""), has("\"processes\"") { return .jetsamEvent }
        if has("\"productData\""), has("\"metricCategories\"") { return .ascMetrics }
        if has("Diagnostics\"") && has("\"callStackTree\"") { return .diagnosticPayload }
        if has("\"memoryMetrics\"") || has("\"applicationExitMetrics\"") { return .metricPayload }
        if has("\"bytes per unit\"") || has("\"total footprint\"")
            || (has("\"phys_footprint\"") && has("\"processes\""))
        {
            return .footprintJSON
        }
        return nil
    }

    private enum Found { case absent, present, uncertain }

    /// Whether the ASCII `needle` occurs in `haystack` between ASCII bytes (or the ends): `present`; occurs only
    /// beside non-ASCII bytes: `uncertain`; does not occur: `absent`.
    private static func find(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Found {
        guard let first = needle.first, haystack.count >= needle.count else { return .absent }
        var found = Found.absent
        var start = 0
        while start + needle.count <= haystack.count {
            guard let hit = haystack[start...(haystack.count - needle.count)].firstIndex(of: first) else { break }
            if haystack[hit..<(hit + needle.count)].elementsEqual(needle) {
                let before = hit == 0 || haystack[hit - 1] < 0x80
                let after = hit + needle.count == haystack.count || haystack[hit + needle.count] < 0x80
                if before && after { return .present }
                found = .uncertain
            }
            start = hit + 1
        }
        return found
    }

    private static func name(of kind: ArtifactKind) -> String {
        switch kind {
        case .ascMetrics: "App Store Connect perfPowerMetrics"
        case .jetsamEvent: "JetsamEvent"
        case .metricPayload: "MetricKit metric payload"
        case .diagnosticPayload: "MetricKit diagnostic payload"
        case .footprintJSON: "footprint JSON"
        default: kind.rawValue
        }
    }

    private static func invalidJSON(_ kind: ArtifactKind, _ error: FormatError) -> ReadOutcome {
        // Past the value limit the JSON may well be valid: said as too large, not as broken.
        let message =
            JSON.isValueLimit(error)
            ? "\(name(of: kind)) is too large to read: \(error.message)"
            : "\(name(of: kind)) is not valid JSON: \(error.message)"
        return ReadOutcome(kind: kind, result: .failure(FormatError(message, line: error.line, offset: error.offset)))
    }

    private static func success(_ artifact: ParsedArtifact) -> ReadOutcome {
        ReadOutcome(kind: artifact.kind, result: .success(artifact))
    }

    /// No kind, and no reading: an empty or binary file.
    private static func unreadable(_ error: FormatError) -> ReadOutcome {
        ReadOutcome(kind: nil, result: .failure(error))
    }

    /// No kind: content of none that memhunt reads.
    private static func unrecognized(_ error: FormatError) -> ReadOutcome {
        ReadOutcome(kind: nil, result: .failure(error), isUnrecognized: true)
    }

    /// Never quotes the content: a manifest entry or an operand may point at a private file (a
    /// `.git-credentials` used to have its token printed here); only a guess at its shape and its size.
    private static func unrecognized(_ bytes: [UInt8]) -> ReadOutcome {
        let start = JSON.skipWhitespace(bytes, from: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
        let json = start < bytes.count && "{[\"".utf8.contains(bytes[start])
        // A fragment is named for what it is, not as content of no known kind. One with the kind of what it is a
        // piece of is an artifact of that kind that could not be read; one without stays unrecognized.
        if let (shape, kind) = knownFragment(bytes[...], json: json) {
            let error = FormatError("\(shape) (\(bytes.count) bytes)")
            return kind.map { ReadOutcome(kind: $0, result: .failure(error)) } ?? unrecognized(error)
        }
        return unrecognized(
            FormatError("unrecognized content (\(json ? "JSON" : "text") of no known kind, \(bytes.count) bytes)"))
    }

    /// What a file of no readable kind is, when it is a known fragment that memhunt does not read: said
    /// instead of "no known kind", so the person knows what the file lacks; with the kind of what it is a piece
    /// of, when that is known. A call-stack tree is a piece of a MetricKit diagnostic, not of a crash report, so
    /// a crash report's absence is not left unknown for it; a backtrace may be a crash report's (no kind).
    static func knownFragment(_ bytes: ArraySlice<UInt8>, json: Bool) -> (shape: String, kind: ArtifactKind?)? {
        if json {
            if ReproText.containsBytes(bytes, "\"callStackRootFrames\""),
                ReproText.containsBytes(bytes, "\"callStacks\"")
            {
                return (
                    "a MetricKit call-stack tree (MXCallStackTree JSON) without its diagnostic: frames of binaries, "
                        + "not read",
                    .diagnosticPayload
                )
            }
            return nil
        }
        // `Thread 0 Crashed:` or `Thread 0:` then frame lines `0   AttributeGraph   0x… symbol + 112`: one
        // thread's backtrace, cut out of a crash or hang report.
        guard ReproText.containsBytes(bytes, "Thread "), !ReproText.containsBytes(bytes, "Exception Type:") else {
            return nil
        }
        var sawThread = false
        var frames = 0
        for line in ReproText.lines(Array(bytes.prefix(65_536))) {
            let words = ReproText.tokens(ReproText.trimmed(line))
            // `Thread 0:`, `Thread 0 Crashed:`, `Thread 0 name:`: a number, and a colon ending the line.
            if words.count >= 2, words[0] == "Thread", Int(words[1].filter { $0 != ":" }) != nil,
                words.last?.last == ":"
            {
                sawThread = true
            } else if sawThread, words.count >= 4, Int(words[0]) != nil, words[2].hasPrefix("0x") {
                frames += 1
            }
        }
        guard sawThread, frames > 0 else { return nil }
        return (
            "a thread backtrace of \(frames) \(frames == 1 ? "frame" : "frames") without a crash report's header: "
                + "no process, exception or termination in it", nil
        )
    }

    /// No NUL bytes and valid UTF-8 (a sniffer: overlong forms are not checked); a sequence cut by the end
    /// of an incomplete window is allowed.
    static func isText(_ window: ArraySlice<UInt8>, complete: Bool) -> Bool {
        // ASCII without NUL (nearly every artifact) is text: one pass over the bytes, where the byte-by-byte decoder
        // below cost many instructions a byte and showed in a fleet scan's profile.
        let plainASCII = window.withUnsafeBufferPointer { buffer in
            var low: UInt8 = 0xFF
            var high: UInt8 = 0
            for byte in buffer {
                low = min(low, byte)
                high = max(high, byte)
            }
            return low > 0 && high < 0x80
        }
        if plainASCII { return true }
        var index = window.startIndex
        while index < window.endIndex {
            let lead = window[index]
            let width: Int
            switch lead {
            case 0x00: return false
            case 0x01...0x7F: width = 1
            case 0xC2...0xDF: width = 2
            case 0xE0...0xEF: width = 3
            case 0xF0...0xF4: width = 4
            default: return false
            }
            let end = index + width
            let continuation = window[(index + 1)..<min(end, window.endIndex)]
            guard continuation.allSatisfy({ $0 & 0xC0 == 0x80 }) else { return false }
            if end > window.endIndex { return !complete }
            index = end
        }
        return true
    }
}
