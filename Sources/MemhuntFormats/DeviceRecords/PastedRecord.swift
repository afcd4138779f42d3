/// A crash report or JetsamEvent as people paste it: prose before or after it, inside a Markdown fence or a
/// quote (`> `, nested), with Windows line ends, its one-line `.ips` header wrapped over lines, damaged or
/// missing, a header given twice, the record cut by an elision (`...`, `…`, `[truncated]`), or one process
/// record of a JetsamEvent alone.
///
/// A pure byte step: it finds the record by its body (the `.ips` header, a JSON object with a JetsamEvent's
/// or crash report's keys, the first line of a legacy crash report), takes it out of its wrapping, and hands
/// back the bytes a clean file would hold, with one sentence for each thing it did (what was skipped, by line
/// numbers of the pasted text). `ArtifactReader.read` asks it only when the normal read failed or the head is
/// no clean record, so a clean file never comes here.
public enum PastedRecord {
    /// What recovery found.
    public enum Found: Sendable, Hashable {
        /// The bytes of a clean record (header line and body, or legacy text), to be read as a file.
        case bytes([UInt8])
        /// Process records of a JetsamEvent without the event around them.
        case processes([JetsamProcess])
    }

    /// The record taken out of its paste, the notes on how, and whether it was cut by an elision.
    public struct Recovered: Sendable, Hashable {
        public var found: Found
        public var recovery: Recovery
        /// The original line of each line of `found`'s bytes (1-based; index 0 is line 1 of the bytes).
        public var lineMap: [Int]
        /// The lines of the paste the record was read from (0-based, the first to past the last).
        var extent: Range<Int> = 0..<0
    }

    /// The record in `bytes`, when they hold one that a plain read could not take as it is; nil when nothing
    /// is found or nothing would change.
    public static func recover(_ bytes: [UInt8]) -> Recovered? {
        // Bounded work: a paste is read in its first 16 MiB (a record beyond that is no paste).
        let pasted = bytes.count > 16 << 20 ? Array(bytes.prefix(16 << 20)) : bytes
        // A record annotated with `//` comments (a blog's): the comments are taken off, line by line.
        let (uncommented, commented) = stripComments(pasted)
        let lines = Cleaned(uncommented)
        // A page may hold an older fragment before the record it is about (a header-less body, an elided copy):
        // the most complete record is read, the earliest of equals, and the others are named. At most 8 records
        // are looked at.
        var best: (recovered: Recovered, score: Int, start: Cleaned.Start)?
        var others: [(start: Cleaned.Start, extent: Range<Int>, score: Int)] = []
        var from = 0
        for _ in 0..<8 {
            guard let start = lines.firstRecordLine(from: from) else { break }
            let found: Recovered?
            switch start.kind {
            case .header, .json: found = json(lines, from: start)
            case .text: found = text(lines, from: start.line, header: nil)
            }
            guard let found else { break }
            let score = Self.completeness(found)
            if let current = best {
                if score > current.score {
                    others.append((current.start, current.recovered.extent, current.score))
                    best = (found, score, start)
                } else {
                    others.append((start, found.extent, score))
                }
            } else {
                best = (found, score, start)
            }
            if score == 2 { break }
            from = max(found.extent.upperBound, start.line + 1)
        }
        guard var chosen = best?.recovered else { return nil }
        if !commented.isEmpty {
            chosen.recovery.notes.append(
                "the // comments of " + (commented.count == 1 ? "line " : "lines ") + ranges(commented) + " removed")
        }
        for other in others.sorted(by: { $0.extent.lowerBound < $1.extent.lowerBound }) {
            let what = other.score == 0 ? "an incomplete record" : "a record without its .ips header"
            chosen.recovery.notes.append(
                "\(other.extent.count == 1 ? "line" : "lines") \(lines.range(other.extent.lowerBound, other.extent.upperBound - 1)) "
                    + "hold another record (\(what)): "
                    + (other.score == 0
                        ? "not read, the more complete one is" : "a record of its own, not read into this one"))
        }
        return chosen
    }

    /// The records of a page that holds more than one (two crash reports one after the other; a low-memory report
    /// and then an `EXC_RESOURCE` crash report, as Apple's technical notes print them): each one's first line
    /// (1-based) and the page's bytes from that line to the next record's. Empty when the page holds fewer than
    /// two starts. A start is an `.ips` header, a record's JSON body, or a legacy report's first line; the caller
    /// reads each part and keeps the whole records (an elided or partial one is named by the page's own reading).
    ///
    /// Bounded work: the first 16 MiB, at most 32 starts.
    public static func records(_ bytes: [UInt8]) -> [(line: Int, bytes: ArraySlice<UInt8>)] {
        let pasted = bytes.count > 16 << 20 ? bytes[..<(16 << 20)] : bytes[...]
        // Comments are taken off in place of nothing: the lines keep their numbers.
        let lines = Cleaned(stripComments(Array(pasted)).bytes)
        var starts: [Int] = []
        var from = 0
        while starts.count < 32, let start = lines.firstRecordLine(from: from) {
            starts.append(start.line)
            switch start.kind {
            case .header, .json:
                // Past the object (its process records start lines too); a cut or elided one ends nowhere.
                let body = start.kind == .header ? lines.bodyLine(after: start.line) : start.line
                guard let body, let brace = lines.line(body).firstIndex(of: UInt8(ascii: "{")),
                    let end = Scan(lines.text, from: brace).end
                else {
                    from = start.line + 1
                    continue
                }
                from = max(start.line + 1, lines.index(ofOffset: end - 1) + 1)
            case .text:
                // A translated report's full report is the same crash: the page holds one record from here on.
                if lines.trimmed(start.line).starts(with: "Translated Report".utf8) { from = lines.count }
                // The report's own lines (`Process:`, `Hardware Model:`) start nothing: the next record is a second
                // report's opening field, or an object.
                let rest = lines.text[lines.offset(of: start.line)...]
                let second = CrashParser.secondReport(in: rest).map {
                    lines.index(ofOffset: rest.startIndex + $0.offset)
                }
                let object = lines.firstObjectLine(from: start.line + 1)
                guard let next = [second, object].compactMap({ $0 }).min() else {
                    from = lines.count
                    continue
                }
                // The next start is found again from there.
                from = next
            }
        }
        guard starts.count >= 2 else { return [] }
        // Line starts in the page's own bytes: cleaning keeps one line per line.
        var lineStarts = [pasted.startIndex]
        for index in pasted.indices where pasted[index] == 0x0A { lineStarts.append(index + 1) }
        return starts.indices.compactMap { index in
            guard starts[index] < lineStarts.count else { return nil }
            let end =
                index + 1 < starts.count && starts[index + 1] < lineStarts.count
                ? lineStarts[starts[index + 1]] : pasted.endIndex
            return (starts[index] + 1, pasted[lineStarts[starts[index]]..<end])
        }
    }

    /// `bytes` with each `// comment` after a JSON value on its line taken off (outside strings: a URL in a
    /// string stays), and the numbers of the lines that had one. Only a `//` after a space, a tab or a value's end
    /// (`,`, `"`, a digit, `}`, `]`, `{`, `[`) starts a comment.
    static func stripComments(_ bytes: [UInt8]) -> (bytes: [UInt8], lines: [Int]) {
        guard bytes.count > 1, ReproText.containsBytes(bytes[...], "//") else { return (bytes, []) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var lines: [Int] = []
        var line = 1
        var inString = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                inString = false
                line += 1
                out.append(byte)
                index += 1
                continue
            }
            if inString {
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] != 0x0A {
                    out.append(byte)
                    out.append(bytes[index + 1])
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                out.append(byte)
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") { inString = true }
            if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/"), index > 0,
                [0x20, 0x09, 0x2C, 0x22, 0x7D, 0x5D, 0x7B, 0x5B].contains(bytes[index - 1])
                    || (0x30...0x39).contains(bytes[index - 1])
            {
                // Only where the line so far holds JSON: a brace, a bracket, a quote or a digit before it.
                let start = out.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
                if out[start...].contains(where: {
                    [0x7B, 0x7D, 0x5B, 0x5D, 0x22].contains($0) || (0x30...0x39).contains($0)
                }) {
                    while let last = out.last, last == 0x20 || last == 0x09 { out.removeLast() }
                    while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                    lines.append(line)
                    continue
                }
            }
            out.append(byte)
            index += 1
        }
        return (out, lines)
    }

    /// 2 for a record read whole with its header (or a legacy crash report read whole), 1 for a whole body
    /// without its `.ips` header, 0 for an elided or partial one.
    private static func completeness(_ found: Recovered) -> Int {
        guard found.recovery.isComplete else { return 0 }
        return found.recovery.notes.contains { $0.hasPrefix("no .ips header line") } ? 1 : 2
    }

    /// Whether a crash report read as legacy text needs recovery: its first non-blank line is not one a crash
    /// report starts with (prose before it), or a line of it is an elision. One pass over the bytes.
    public static func textNeedsRecovery(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index < bytes.count, JSON.isWhitespace(bytes[index]) { index += 1 }
        let firstEnd = bytes[index...].firstIndex(of: 0x0A) ?? bytes.count
        if !Cleaned.isCrashFirstLine(bytes[index..<firstEnd]), !Cleaned.isHeaderLike(bytes[index..<firstEnd]) {
            return true
        }
        var lineStart = firstEnd + 1
        while lineStart < bytes.count {
            let end = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.count
            var first = lineStart
            while first < end, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
            if first < end, [0x2E, 0x5B, 0x28, 0x3C, 0xE2].contains(bytes[first]),
                Cleaned.isElisionLine(bytes[first..<end])
            {
                return true
            }
            lineStart = end + 1
        }
        return false
    }

    // MARK: - JSON records

    /// A record of JSON from its start: the header (read, rejoined or damaged), then the body (whole, elided or cut),
    /// then what the body is by its keys.
    private static func json(_ lines: Cleaned, from start: Cleaned.Start) -> Recovered? {
        let read: HeaderRead
        switch jsonHeader(lines, from: start) {
        case .body(let found): read = found
        case .done(let recovered): return recovered
        }
        var notes = read.notes
        var header = read.header
        let cursor = read.cursor
        guard cursor < lines.count, lines.trimmed(cursor).first == UInt8(ascii: "{") else {
            // A header and no body: read as such (the reader says the body is missing).
            guard let header else { return nil }
            return finish(lines, Found.bytes(header + [0x0A]), notes: notes, used: read.used, elided: nil, map: [])
        }
        let text = lines.text
        let bodyStart = lines.offset(of: cursor)
        let found = jsonBody(lines, from: cursor, used: read.used, headerRead: header != nil)
        let body = found.body
        let used = found.used
        let elided = found.elided
        // What the body is, by its keys; a body that parses as none of them is left to the reader.
        let value = try? JSON.parse(body)
        if header == nil {
            if let value, value.members != nil, value["memoryStatus"] == nil, isProcessRecord(value) {
                return processes(lines, text, from: bodyStart, first: value, notes: notes, used: used)
            }
            if let value, JetsamParser.isJetsamBody(value) {
                notes.append("no .ips header line: read as a JetsamEvent by its body's keys")
            } else if let value, isCrashBody(value) {
                header = Array("{\"bug_type\":\"309\"}".utf8)
                notes.append("no .ips header line: read as a crash report (bug_type 309) by its body's keys")
            } else if elided == nil {
                return nil
            }
        }
        notes += bodyNotes(lines, found)
        let bytes = (header.map { $0 + [0x0A] } ?? []) + body
        // The line of each line of the bytes: the header's first, then the body's own lines.
        var map = header == nil ? [] : [lines.number(used.first ?? cursor)]
        var line = cursor
        for byte in [UInt8(ascii: "\n")] + body where byte == 0x0A {
            map.append(lines.number(min(line, lines.count - 1)))
            line += 1
        }
        var recovered = finish(lines, .bytes(bytes), notes: notes, used: used, elided: elided?.line, map: map)
        // Cut at its end: incomplete, as an elided record is (its process list is not all).
        if found.cutAtEnd != nil { recovered?.recovery.state = .elided }
        return recovered
    }

    /// What was read before a JSON record's body: its header, the notes on it, the lines it took and where the body
    /// may start.
    private struct HeaderRead {
        var header: [UInt8]?
        var notes: [String]
        var used: [Int]
        var cursor: Int
    }

    private enum HeaderOutcome {
        /// The body is to be read from `cursor`.
        case body(HeaderRead)
        /// Read already (a header before legacy crash text), or nothing to read.
        case done(Recovered?)
    }

    /// The `.ips` header at `start` (rejoined when split, a second one skipped), or a damaged header line just
    /// before a body that starts there.
    private static func jsonHeader(_ lines: Cleaned, from start: Cleaned.Start) -> HeaderOutcome {
        var notes: [String] = []
        var used: [Int] = []  // indices of lines read
        var header: [UInt8]?
        var cursor = start.line
        if start.kind == .header {
            let (joined, count) = lines.header(at: start.line)!
            header = joined
            used += Array(start.line..<(start.line + count))
            if count > 1 {
                notes.append(
                    "the .ips header line was split over lines \(lines.range(start.line, start.line + count - 1)): "
                        + "rejoined")
            }
            cursor = start.line + count
            // The body: the next line that starts with `{` (or legacy crash text); a second header is named.
            while cursor < lines.count {
                let line = lines.trimmed(cursor)
                if line.isEmpty || lines.isFence(cursor) {
                    cursor += 1
                    continue
                }
                if line.first == UInt8(ascii: "{") {
                    if let (again, count) = lines.header(at: cursor), !lines.isBody(at: cursor) {
                        notes.append(
                            "a second .ips header at line \(lines.range(cursor, cursor + count - 1))"
                                + (headerBugType(again).map { " (bug_type \($0))" } ?? "")
                                + ": skipped, the first header is read")
                        used += Array(cursor..<(cursor + count))
                        cursor += count
                        continue
                    }
                    break
                }
                if Cleaned.isCrashFirstLine(line) {
                    guard var text = text(lines, from: cursor, header: (joined, used)) else { return .done(nil) }
                    text.recovery.notes = notes + text.recovery.notes
                    return .done(text)
                }
                cursor += 1
            }
        } else if let damaged = lines.damagedHeader(before: start.line) {
            used.append(damaged.line)
            if let bugType = damaged.bugType, Cleaned.recordBugTypes.contains(bugType) {
                header = Array("{\"bug_type\":\"\(bugType)\"}".utf8)
                notes.append(
                    "line \(lines.number(damaged.line)) is a damaged .ips header (not valid JSON): bug_type \(bugType) "
                        + "read from it, its other fields not")
            } else if let bugType = damaged.bugType {
                // The damage may have cut the number itself (`"bug_type":"30` of a 309): the body's keys decide.
                notes.append(
                    "line \(lines.number(damaged.line)) is a damaged .ips header (not valid JSON): its bug_type reads "
                        + "'\(bugType)', no record's; the kind is read from the body")
            } else {
                notes.append("line \(lines.number(damaged.line)) is a damaged .ips header (not valid JSON): skipped")
            }
        }
        return .body(HeaderRead(header: header, notes: notes, used: used, cursor: cursor))
    }

    /// A JSON record's body as read: whole, up to an elision (with whole process records after it), or up to a cut.
    private struct BodyRead {
        var body: [UInt8]
        var used: [Int]
        var elided: (line: Int, marker: String)?
        var cutElement: String?
        var cutAtEnd: (line: Int, dropped: String?)?
        var afterElision: String?
    }

    /// The body starting at line `cursor`; `headerRead` says whether a header came before it (a cut paste without
    /// one is read for what is whole).
    private static func jsonBody(_ lines: Cleaned, from cursor: Int, used: [Int], headerRead: Bool) -> BodyRead {
        var used = used
        let text = lines.text
        let bodyStart = lines.offset(of: cursor)
        let scan = Scan(text, from: bodyStart)
        var body: [UInt8]
        var elided: (line: Int, marker: String)?
        var cutElement: String?
        var cutAtEnd: (line: Int, dropped: String?)?
        var afterElision: String?
        if let end = scan.end {
            body = Array(text[bodyStart..<end])
            used += Array(cursor...lines.index(ofOffset: max(bodyStart, end - 1)))
        } else if let elision = scan.elision {
            let line = lines.index(ofOffset: elision.offset)
            // Whole process records after the elision (a JetsamEvent shortened to `...` around the one process
            // that matters) are read too, into the array the elision cut.
            let after = processRecords(lines, text, after: line)
            let (closed, dropped, placed) = scan.closedPrefix(
                text, from: bodyStart, appending: after.map { text[$0.start..<$0.end] })
            body = closed
            // The records after the elision take the cut element's place: its index as pasted is another
            // record's in what is read (and in the evidence that points into it).
            cutElement = dropped.map { dropped in
                guard let placed else { return dropped + " was cut by the elision and left out" }
                return dropped + " as pasted was cut by the elision and left out; "
                    + (after.count == 1
                        ? "the whole record after it is \(placed) here"
                        : "the \(after.count) whole records after it are \(placed) here")
            }
            elided = (line, elision.marker)
            used += Array(cursor..<line)
            if !after.isEmpty {
                let recordLines = after.map { lines.index(ofOffset: $0.start)...lines.index(ofOffset: $0.end - 1) }
                let read = Set(recordLines.flatMap { Array($0) })
                used += read.sorted()
                let unread = (line..<lines.count).filter { !read.contains($0) }.map(lines.number)
                afterElision =
                    "elided at line \(lines.number(line)) (\(elision.marker)): read up to it and "
                    + (after.count == 1 ? "the whole process record" : "the \(after.count) whole process records")
                    + " after it (\(after.count == 1 && recordLines[0].count == 1 ? "line" : "lines") "
                    + recordLines.map { lines.range($0.lowerBound, $0.upperBound) }.joined(separator: ", ")
                    + "), \(unread.count == 1 ? "line" : "lines") \(ranges(unread)) not"
            }
        } else if !headerRead, scan.cut != nil {
            // A paste cut at its end, its header gone too: what is whole before the cut is read (the memoryStatus,
            // the whole process records), the element the cut fell in left out, and the record named incomplete.
            let (closed, dropped, _) = scan.closedPrefix(text, from: bodyStart)
            body = closed
            let line = lines.index(ofOffset: max(bodyStart, text.count - 1))
            used += Array(cursor...line)
            cutAtEnd = (line, dropped)
        } else {
            // Cut without a marker: a truncated record, read as it is (the reader names where it ends).
            body = Array(text[bodyStart...])
            used += Array(cursor..<lines.count)
        }
        return BodyRead(
            body: body, used: used, elided: elided, cutElement: cutElement, cutAtEnd: cutAtEnd,
            afterElision: afterElision)
    }

    /// The notes on a body cut at its end or elided.
    private static func bodyNotes(_ lines: Cleaned, _ found: BodyRead) -> [String] {
        var notes: [String] = []
        if let cutAtEnd = found.cutAtEnd {
            notes.append(
                "the paste ends inside the record at line \(lines.number(cutAtEnd.line)): read up to its last whole "
                    + "value" + (cutAtEnd.dropped.map { ", \($0) (cut) left out" } ?? ""))
        }
        if let elided = found.elided {
            notes.append(
                (found.afterElision
                    ?? "elided at line \(lines.number(elided.line)) (\(elided.marker)): read up to it, "
                    + "\(lines.count - elided.line == 1 ? "line" : "lines") "
                    + "\(lines.range(elided.line, lines.count - 1)) not")
                    + (found.cutElement.map { "; " + $0 } ?? ""))
        }
        return notes
    }

    /// One or more process records of a JetsamEvent, pasted without the event: `{"pid":…,"rpages":…}`, maybe
    /// followed by more, separated by commas.
    private static func processes(
        _ lines: Cleaned, _ text: [UInt8], from start: Int, first: JSONValue, notes: [String], used: [Int]
    ) -> Recovered? {
        var records = [JetsamParser.process(index: 0, first)]
        var used = used
        var cursor = Scan(text, from: start).end ?? text.count
        while records.count < 10_000 {
            var next = JSON.skipWhitespace(text, from: cursor)
            if next < text.count, text[next] == UInt8(ascii: ",") { next = JSON.skipWhitespace(text, from: next + 1) }
            guard next < text.count, text[next] == UInt8(ascii: "{"), let end = Scan(text, from: next).end,
                let value = try? JSON.parse(Array(text[next..<end])), isProcessRecord(value)
            else { break }
            records.append(JetsamParser.process(index: records.count, value))
            used += Array(lines.index(ofOffset: next)...lines.index(ofOffset: end - 1))
            cursor = end
        }
        let what =
            records.count == 1
            ? "a single process record (\(records[0].name))" : "\(records.count) process records"
        let notes =
            notes + [
                what + " without its JetsamEvent: no page size, no other process and no memoryStatus, so no size in "
                    + "bytes, no rank and no system figures"
            ]
        var recovered = finish(lines, .processes(records), notes: notes, used: used, elided: nil, map: [])
        recovered?.recovery.state = .partial
        return recovered
    }

    /// The whole process records (`{"pid":…,"rpages":…}` objects, each starting a line) after line `elision`,
    /// at most 10,000; an object that is cut, or holds an elision itself, is not one.
    private static func processRecords(_ lines: Cleaned, _ text: [UInt8], after elision: Int) -> [(
        start: Int, end: Int
    )] {
        var found: [(start: Int, end: Int)] = []
        var index = elision + 1
        while index < lines.count, found.count < 10_000 {
            // The record ends at its closing fence, or where prose starts: a process record after them is of
            // another record ("last week on another phone Weather was killed like this:").
            if lines.isFence(index) || lines.isProse(index) { break }
            guard lines.trimmed(index).first == UInt8(ascii: "{") else {
                index += 1
                continue
            }
            let start = JSON.skipWhitespace(text, from: lines.offset(of: index))
            let scan = Scan(text, from: start)
            guard let end = scan.end, scan.elision == nil else {
                index += 1
                continue
            }
            if let value = try? JSON.parse(Array(text[start..<end])), value.members != nil, isProcessRecord(value) {
                found.append((start, end))
            }
            index = lines.index(ofOffset: end - 1) + 1
        }
        return found
    }

    static func isProcessRecord(_ value: JSONValue) -> Bool {
        value["rpages"] != nil && (value["pid"] != nil || value["name"] != nil)
    }

    static func isCrashBody(_ value: JSONValue) -> Bool {
        value.members != nil
            && (value["procName"] != nil || value["exception"] != nil || value["termination"] != nil
                || (value["threads"] != nil && value["usedImages"] != nil))
    }

    private static func headerBugType(_ header: [UInt8]) -> String? {
        guard let value = try? JSON.parse(header) else { return nil }
        return value["bug_type"]?.string ?? value["bug_type"]?.int.map(String.init)
    }

    // MARK: - Legacy crash text

    private static func text(_ lines: Cleaned, from start: Int, header: (bytes: [UInt8], used: [Int])?) -> Recovered? {
        var end = lines.count
        let quoted = lines.isQuoted(start)
        var elided: Int?
        var index = start
        while index < lines.count {
            if lines.isFence(index) || (quoted && !lines.isQuoted(index) && !lines.trimmed(index).isEmpty) {
                end = index
                break
            }
            if Cleaned.isElisionLine(lines.trimmed(index)) {
                elided = index
                end = index
                break
            }
            index += 1
        }
        let indent = (start..<end).filter { !lines.trimmed($0).isEmpty }.map { lines.indent($0) }.min() ?? 0
        var bytes = header.map { $0.bytes + [0x0A] } ?? []
        var map = header.map { [lines.number($0.used.first ?? start)] } ?? []
        for index in start..<end {
            let line = lines.line(index)
            bytes += line.dropFirst(min(indent, lines.indent(index)))
            bytes.append(0x0A)
            map.append(lines.number(index))
        }
        guard CrashParser.isCrashText(bytes[(header.map { $0.bytes.count + 1 } ?? 0)...]) else { return nil }
        var notes: [String] = []
        if let elided {
            notes.append(
                "elided at line \(lines.number(elided)) (\(lines.marker(elided))): read up to it, "
                    + "\(lines.count - elided == 1 ? "line" : "lines") \(lines.range(elided, lines.count - 1)) not")
        }
        let used = (header?.used ?? []) + Array(start..<end)
        return finish(lines, .bytes(bytes), notes: notes, used: used, elided: elided, map: map)
    }

    // MARK: - Notes

    /// The recovery with what was skipped, the quote marks and line ends; nil when nothing changed.
    private static func finish(
        _ lines: Cleaned, _ found: Found, notes: [String], used: [Int], elided: Int?, map: [Int]
    ) -> Recovered? {
        let usedSet = Set(used)
        let skipped = (0..<(elided ?? lines.count)).filter { !usedSet.contains($0) && !lines.isBlank($0) }
        var all: [String] = []
        if !skipped.isEmpty {
            let fences = skipped.filter { lines.isFence($0) }
            all.append(
                (skipped.count == 1 ? "line " : "lines ") + ranges(skipped.map { lines.number($0) })
                    + (fences.isEmpty
                        ? " (text around the record) skipped"
                        : " (text and Markdown fence around the record) skipped"))
        }
        let quoted = used.filter { lines.isQuoted($0) }
        if !quoted.isEmpty {
            all.append(
                "the quote marks (>) of " + (quoted.count == 1 ? "line " : "lines ")
                    + ranges(quoted.map { lines.number($0) }) + " removed")
        }
        all += notes
        guard !all.isEmpty || elided != nil else { return nil }
        // CRLF line ends are read as LF everywhere (a file saved either way reads the same): no note.
        let state: Recovery.State = elided != nil ? .elided : .recovered
        let extent = (used.min() ?? 0)..<(max(elided ?? 0, used.max() ?? 0) + 1)
        return Recovered(found: found, recovery: Recovery(state: state, notes: all), lineMap: map, extent: extent)
    }

    /// `1–3, 7, 9–12` of sorted line numbers.
    static func ranges(_ numbers: [Int]) -> String {
        var parts: [String] = []
        var index = 0
        while index < numbers.count {
            var last = index
            while last + 1 < numbers.count, numbers[last + 1] == numbers[last] + 1 { last += 1 }
            parts.append(last == index ? "\(numbers[index])" : "\(numbers[index])–\(numbers[last])")
            index = last + 1
        }
        if parts.count > 6 { return parts.prefix(6).joined(separator: ", ") + ", …" }
        return parts.joined(separator: ", ")
    }
}

/// How a record was taken out of what was pasted around it.
public struct Recovery: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        /// Read whole, out of its wrapping.
        case recovered
        /// Read up to an elision: the record is incomplete.
        case elided
        /// Only part of a record (process records without their JetsamEvent): incomplete.
        case partial
    }

    public var state: State
    /// One sentence each: what was skipped (line numbers of the pasted text), rejoined, removed.
    public var notes: [String]

    /// Whether the record is whole: a recovered one is, an elided or partial one is not.
    public var isComplete: Bool { state == .recovered }

    public init(state: State, notes: [String]) {
        self.state = state
        self.notes = notes
    }

    /// The artifact's note: `recovered: …; …`.
    public var note: String { state.rawValue + ": " + notes.joined(separator: "; ") }
}

// MARK: - The pasted text, line by line

/// The lines of a paste with their quote marks, `\r` and a byte order mark taken off, joined again with `\n`.
struct Cleaned {
    /// The cleaned text: each line's content and `\n`.
    private(set) var text: [UInt8] = []
    /// Offset in `text` of each line.
    private var starts: [Int] = []
    /// Per line: quoted (it had `>` marks), a fence line (``` or ~~~), blank.
    private var quoted: [Bool] = []
    private(set) var crlf = false

    var count: Int { starts.count }

    init(_ bytes: [UInt8]) {
        text.reserveCapacity(bytes.count)
        var start = 0
        while start <= bytes.count {
            let newline = start < bytes.count ? (bytes[start...].firstIndex(of: 0x0A) ?? bytes.count) : bytes.count
            var end = newline
            if end > start, bytes[end - 1] == 0x0D {
                end -= 1
                crlf = true
            }
            var first = start
            var depth = 0
            // Quote marks: `>` after up to 3 spaces, each with one optional space; nested `> >` and `>>`.
            while true {
                var probe = first
                while probe < end, probe - first < 3, bytes[probe] == 0x20 { probe += 1 }
                guard probe < end, bytes[probe] == UInt8(ascii: ">") else { break }
                probe += 1
                if probe < end, bytes[probe] == 0x20 { probe += 1 }
                first = probe
                depth += 1
            }
            if end - first >= 3, bytes[first] == 0xEF, bytes[first + 1] == 0xBB, bytes[first + 2] == 0xBF { first += 3 }
            starts.append(text.count)
            quoted.append(depth > 0)
            text += bytes[first..<end]
            text.append(0x0A)
            if newline >= bytes.count { break }
            start = newline + 1
        }
        // A paste that ends with a newline has no last empty line.
        if count > 1, starts[count - 1] == text.count - 1 {
            starts.removeLast()
            quoted.removeLast()
            text.removeLast()
        }
    }

    func line(_ index: Int) -> ArraySlice<UInt8> {
        text[starts[index]..<((index + 1 < count ? starts[index + 1] : text.count) - 1)]
    }

    func offset(of index: Int) -> Int { starts[index] }

    /// The line of a byte offset of `text`.
    func index(ofOffset offset: Int) -> Int {
        var low = 0
        var high = count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The 1-based line number in the paste.
    func number(_ index: Int) -> Int { index + 1 }

    func range(_ first: Int, _ last: Int) -> String { first == last ? "\(first + 1)" : "\(first + 1)–\(last + 1)" }

    func trimmed(_ index: Int) -> ArraySlice<UInt8> {
        let line = self.line(index)
        guard let first = line.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return line[line.endIndex...] }
        let last = line.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })!
        return line[first...last]
    }

    func indent(_ index: Int) -> Int { line(index).prefix { $0 == 0x20 || $0 == 0x09 }.count }
    func isBlank(_ index: Int) -> Bool { trimmed(index).isEmpty }
    func isQuoted(_ index: Int) -> Bool { quoted[index] }

    /// Whether line `index` is a sentence, not a line of a JSON record: it starts with a letter and holds a space
    /// (JSON's own lines start with a quote, a brace, a bracket, a digit or `true`/`false`/`null`).
    func isProse(_ index: Int) -> Bool {
        let line = trimmed(index)
        guard let first = line.first, (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first) else {
            return false
        }
        return line.contains(0x20) && !["true", "false", "null"].contains { line.starts(with: $0.utf8) }
    }

    func isFence(_ index: Int) -> Bool {
        let line = trimmed(index)
        return line.starts(with: "```".utf8) || line.starts(with: "~~~".utf8)
    }

    /// The elision marker of a line, as written (cut to 20 characters).
    func marker(_ index: Int) -> String {
        let text = String(decoding: trimmed(index), as: UTF8.self)
        return text.count > 20 ? String(text.prefix(20)) + "…" : text
    }

    enum Kind { case header, json, text }
    struct Start {
        var line: Int
        var kind: Kind
    }

    /// The first line a record starts on: an `.ips` header (maybe wrapped), a JSON object, or the first line
    /// of a legacy crash report. Objects are tried in order, at most 64, by their known keys.
    func firstRecordLine(from: Int = 0) -> Start? {
        var tried = 0
        for index in from..<max(from, count) {
            let line = trimmed(index)
            guard let first = line.first else { continue }
            if first == UInt8(ascii: "{") {
                if header(at: index) != nil, !isBody(at: index) { return Start(line: index, kind: .header) }
                tried += 1
                if tried > 64 { return nil }
                if isBody(at: index) { return Start(line: index, kind: .json) }
            } else if Self.isCrashFirstLine(line), CrashParser.isCrashText(text[offset(of: index)...]) {
                return Start(line: index, kind: .text)
            }
        }
        return nil
    }

    /// The first line at or after `from` that starts an `.ips` header or a record's JSON body (legacy text lines
    /// aside); at most 64 objects are tried.
    func firstObjectLine(from: Int) -> Int? {
        var tried = 0
        for index in from..<max(from, count) where trimmed(index).first == UInt8(ascii: "{") {
            if header(at: index) != nil || isBody(at: index) { return index }
            tried += 1
            if tried > 64 { return nil }
        }
        return nil
    }

    /// The line of the JSON body that follows the `.ips` header starting at line `index` (the header may be
    /// wrapped over up to 3 lines): the first line after it that opens an object.
    func bodyLine(after index: Int) -> Int? {
        let after = index + (header(at: index)?.lines ?? 1)
        return (after..<min(count, after + 64)).first { trimmed($0).first == UInt8(ascii: "{") }
    }

    /// Whether the object at line `index` is a record's body (a JetsamEvent, a crash report, a process record),
    /// or is cut by an elision (then its keys decide after the cut).
    func isBody(at index: Int) -> Bool {
        guard let start = line(index).firstIndex(of: UInt8(ascii: "{")) else { return false }
        let scan = Scan(text, from: start)
        let bytes: [UInt8]
        if let end = scan.end {
            bytes = Array(text[start..<end])
        } else if scan.elision != nil || scan.cut != nil {
            bytes = scan.closedPrefix(text, from: start).bytes
        } else {
            return false
        }
        guard let value = try? JSON.parse(bytes), value.members != nil else { return false }
        return JetsamParser.isJetsamBody(value) || PastedRecord.isCrashBody(value)
            || PastedRecord.isProcessRecord(value)
            || (scan.end == nil && (value["memoryStatus"] != nil || value["processes"] != nil))
    }

    /// The `.ips` header that starts at line `index`, joined from up to 3 lines, and how many lines it took.
    func header(at index: Int) -> (bytes: [UInt8], lines: Int)? {
        var joined: [UInt8] = []
        let indent = self.indent(index)
        for taken in 1...3 {
            guard index + taken - 1 < count else { return nil }
            let at = index + taken - 1
            // A continuation keeps its spaces (a hard wrap cut a string there, a flowed one kept the space at the
            // end of the line before) but for the paste's own indentation, the first line's.
            let next = line(at).dropFirst(min(indent, self.indent(at)))
            if taken > 1, trimmed(at).isEmpty || trimmed(at).first == UInt8(ascii: "{") || isFence(at) {
                return nil
            }
            // A wrap that ate a space, or one that kept it: both joins are tried, the plain one first.
            do {
                let candidate = joined + next
                if let (_, body) = ArtifactReader.sniffIPSHeader(candidate), body == candidate.count {
                    return (candidate, taken)
                }
            }
            // Only a line that opens an object and does not close it on the same line can be wrapped.
            if taken == 1, next.contains(UInt8(ascii: "}")) || !Self.isHeaderLike(next) { return nil }
            joined += next
            guard joined.count < 4096 else { return nil }
        }
        return nil
    }

    /// A line before `index` (the first record line) that looks like an `.ips` header and is not valid: a
    /// `bug_type` and a closing brace on one line.
    func damagedHeader(before index: Int) -> (line: Int, bugType: String?)? {
        for candidate in stride(from: index - 1, through: max(0, index - 3), by: -1) {
            let line = trimmed(candidate)
            guard !line.isEmpty else { continue }
            guard Self.isHeaderLike(line), line.last == UInt8(ascii: "}") else { return nil }
            // `"bug_type":"298"` or `bug_type":298`: the digits after the name.
            let name = Array("bug_type".utf8)
            var bugType: String?
            let plain = Array(line)
            if let at = (0...(max(0, plain.count - name.count))).first(where: {
                plain.count >= name.count && plain[$0..<($0 + name.count)].elementsEqual(name)
            }) {
                let rest = plain[(at + name.count)...]
                let digits = rest.drop { !(0x30...0x39).contains($0) }.prefix { (0x30...0x39).contains($0) }
                let between = rest.prefix { !(0x30...0x39).contains($0) }
                if !digits.isEmpty, between.allSatisfy({ " \":".utf8.contains($0) }) {
                    bugType = String(decoding: digits, as: UTF8.self)
                }
            }
            return (candidate, bugType)
        }
        return nil
    }

    /// The `bug_type`s of the records a paste is read for: a JetsamEvent's and a crash report's.
    static let recordBugTypes: Set<String> = ["109", "185", "298", "309"]

    /// A line that names `bug_type` (an `.ips` header, whole or damaged).
    static func isHeaderLike(_ line: ArraySlice<UInt8>) -> Bool {
        line.count < 4096 && ReproText.containsBytes(line, "bug_type")
    }

    /// A line a legacy crash report starts with (or a fragment of one).
    static func isCrashFirstLine(_ line: ArraySlice<UInt8>) -> Bool {
        let keys = [
            "Incident Identifier:", "Translated Report", "Process:", "Exception Type:", "CrashReporter Key:",
            "Hardware Model:", "-----",
        ]
        return keys.contains { line.starts(with: $0.utf8) }
    }

    /// A line that stands for lines left out: `...`, `…`, `[truncated]`, `(truncated …)`, `<snip>`.
    static func isElisionLine(_ line: ArraySlice<UInt8>) -> Bool {
        var trimmed = line
        while let first = trimmed.first, first == 0x20 || first == 0x09 { trimmed = trimmed.dropFirst() }
        if trimmed.starts(with: "...".utf8) || trimmed.starts(with: "…".utf8) { return true }
        guard let open = trimmed.first, "[(<".utf8.contains(open) else { return false }
        let word = String(decoding: trimmed.dropFirst().prefix(12), as: UTF8.self).lowercased()
        return ["truncated", "snip", "elided", "omitted", "...", "…"].contains { word.hasPrefix($0) }
    }
}

// MARK: - Balanced JSON, or where an elision cuts it

/// A bracket scan of the JSON value at `start`: where it ends (balanced), or the elision marker that cuts it
/// outside a string, with the containers open there.
struct Scan {
    struct Open {
        var byte: UInt8
        var offset: Int
        var inArray: Bool
        /// The index of this element in its array (when `inArray`).
        var element: Int
    }

    var end: Int?
    var elision: (offset: Int, marker: String)?
    /// Where the text ran out with containers still open and no elision: the offset after the last comma or
    /// opening outside a string (the last whole value ends before it), for a paste cut at its end.
    var cut: Int?
    var open: [Open] = []

    init(_ text: [UInt8], from start: Int) {
        var index = start
        var inString = false
        var elements: [Int] = []  // per open container: the count of commas met (an array's element index)
        var boundary = start
        defer { if end == nil, elision == nil, !open.isEmpty { cut = boundary } }
        while index < text.count {
            let byte = text[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if byte == UInt8(ascii: "["), Cleaned.isElisionLine(text[index...].prefix(16)),
                    !open.isEmpty
                {
                    elision = (index, Self.marker(text, at: index))
                    return
                }
                let inArray = open.last?.byte == UInt8(ascii: "[")
                open.append(Open(byte: byte, offset: index, inArray: inArray, element: elements.last ?? 0))
                elements.append(0)
                boundary = index + 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard !open.isEmpty else {
                    end = index
                    return
                }
                open.removeLast()
                elements.removeLast()
                if open.isEmpty {
                    end = index + 1
                    return
                }
                boundary = index + 1
            case UInt8(ascii: ","):
                if !elements.isEmpty { elements[elements.count - 1] += 1 }
                boundary = index
            case UInt8(ascii: "."), 0xE2, UInt8(ascii: "("), UInt8(ascii: "<"):
                if !open.isEmpty, Cleaned.isElisionLine(text[index...].prefix(16)) {
                    elision = (index, Self.marker(text, at: index))
                    return
                }
            default: break
            }
            index += 1
        }
    }

    private static func marker(_ text: [UInt8], at index: Int) -> String {
        let line = text[index...].prefix { $0 != 0x0A }
        let written = String(decoding: line.prefix(24), as: UTF8.self)
        return written.count > 20 ? String(written.prefix(20)) + "…" : written
    }

    /// The value up to the elision, closed: an array element open at the cut (a process record, a thread) is
    /// left out whole, a dangling key or comma dropped, the containers still open closed. Returns what was left
    /// out (`processes[3]`), if anything.
    /// The text from `start` up to the elision, closed: the element the elision cut is left out, then `appended`
    /// (whole elements found after the elision) is added to the array that held it, then every open container
    /// is closed.
    /// `placed` says where `appended` went when it names the cut element's array (`processes[0]`, or
    /// `processes[0]–[1]`): they take the cut element's place, so an index in the result is not its index as
    /// pasted.
    func closedPrefix(_ text: [UInt8], from start: Int, appending appended: [ArraySlice<UInt8>] = []) -> (
        bytes: [UInt8], dropped: String?, placed: String?
    ) {
        guard let point = elision?.offset ?? self.cut else { return ([], nil, nil) }
        var stack = open
        var cut = point
        var dropped: (name: String, index: Int)?
        if let element = stack.indices.dropFirst().first(where: { stack[$0].inArray }) {
            cut = stack[element].offset
            dropped = (Self.name(of: stack, element, in: text), stack[element].element)
            stack.removeSubrange(element...)
        }
        var bytes = Array(text[start..<cut])
        func trim() { while let last = bytes.last, JSON.isWhitespace(last) { bytes.removeLast() } }
        trim()
        while let last = bytes.last {
            if last == UInt8(ascii: ",") {
                bytes.removeLast()
            } else if last == UInt8(ascii: ":") {
                bytes.removeLast()
                trim()
                dropKey(&bytes)
            } else if last == UInt8(ascii: "\""), stack.last?.byte == UInt8(ascii: "{"), endsWithKey(bytes) {
                dropKey(&bytes)
            } else {
                break
            }
            trim()
        }
        var placed: String?
        if !appended.isEmpty, stack.last?.byte == UInt8(ascii: "[") {
            for element in appended {
                if bytes.last != UInt8(ascii: "[") { bytes.append(UInt8(ascii: ",")) }
                bytes += element
            }
            placed = dropped.map {
                "\($0.name)[\($0.index)]" + (appended.count == 1 ? "" : "–[\($0.index + appended.count - 1)]")
            }
        }
        for container in stack.reversed() {
            bytes.append(container.byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
        return (bytes, dropped.map { "\($0.name)[\($0.index)]" }, placed)
    }

    /// The key of the array that holds the element at `index` of `stack`: `processes`, `threads`.
    private static func name(of stack: [Open], _ index: Int, in text: [UInt8]) -> String {
        var before = stack[index - 1].offset
        while before > 0, JSON.isWhitespace(text[before - 1]) { before -= 1 }
        guard before > 0, text[before - 1] == UInt8(ascii: ":") else { return "an element" }
        var close = before - 1
        while close > 0, JSON.isWhitespace(text[close - 1]) { close -= 1 }
        guard close > 0, text[close - 1] == UInt8(ascii: "\"") else { return "an element" }
        let end = close - 1
        var open = end
        while open > 0, text[open - 1] != UInt8(ascii: "\"") { open -= 1 }
        return String(decoding: text[open..<end], as: UTF8.self)
    }

    /// Whether `bytes` end with a string that is an object's key (after `{` or `,`).
    private func endsWithKey(_ bytes: [UInt8]) -> Bool {
        guard let open = stringStart(bytes) else { return false }
        var before = open
        while before > 0, JSON.isWhitespace(bytes[before - 1]) { before -= 1 }
        return before > 0 && (bytes[before - 1] == UInt8(ascii: "{") || bytes[before - 1] == UInt8(ascii: ","))
    }

    private func dropKey(_ bytes: inout [UInt8]) {
        guard bytes.last == UInt8(ascii: "\""), let open = stringStart(bytes) else { return }
        bytes.removeSubrange(open...)
    }

    /// The offset of the opening quote of the string that ends `bytes`.
    private func stringStart(_ bytes: [UInt8]) -> Int? {
        var index = bytes.count - 2
        while index >= 0 {
            if bytes[index] == UInt8(ascii: "\"") {
                var slashes = 0
                while index - slashes - 1 >= 0, bytes[index - slashes - 1] == UInt8(ascii: "\\") { slashes += 1 }
                if slashes % 2 == 0 { return index }
            }
            index -= 1
        }
        return nil
    }
}
