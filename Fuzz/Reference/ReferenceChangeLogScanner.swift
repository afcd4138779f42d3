// The change-log scanner as it was before the byte-level rewrite (commit 6fdedff), kept verbatim
// (renamed) as the oracle of the differential fuzz target `changelog`: the rewrite must produce the
// same summary for every input.
@testable import MemhuntFormats

/// Streams a change log of any size in bounded memory: console pastes, `log show` default, `--style compact`,
/// `syslog`, `ndjson` and `json` (records are found by their `"eventMessage"` and `"timestamp"` values).
///
/// A line counts when it ends in `<Type>: <items> changed.` or `<Type>: unchanged.`, where `<Type>` is the
/// last depth-0 word before the last `": "` (a user prefix `ParentView body: ` yields `ParentView`) and every
/// item starts with `@`, `_` or `\`. Items split at commas outside `<>`, `()` and `[]`.
///
/// Bursts: when consecutive evaluations both carry a timestamp, they share a burst if they are at most
/// 50 ms apart; otherwise a blank line or any other non-change line ends the burst.
///
/// Memory is bounded by the line cap, 10,000 view types and items of at most 256 characters each,
/// 100,000 (view, item) pairs (more are counted under `(other)`), and a cache of 16,384 parsed line
/// tails of at most 1 KiB (a repeated tail is hashed, not reparsed). Without the pair cap, 2,000 views ×
/// 2,000 items (a 30 MB log) peaked at 354 MB RSS. Release build on this
/// 2-core x86_64 Linux box: 150–230 MB/s across runs (about 5 s per GB), 26 MB peak RSS for 256 MB fed in
/// 1 MiB chunks (`ReproChangeLogBenchmark`).
struct ReferenceChangeLogScanner: Sendable {
    /// Longest line parsed, in bytes; longer lines are counted in `skippedLines`.
    public let lineCap: Int
    static let burstGap: Int64 = 50
    static let maxNames = 10_000
    static let maxNameLength = 256
    static let maxPairs = 100_000
    static let maxCached = 16_384
    static let other = "(other)"

    private var pending: [UInt8] = []
    private var pendingOverflow = false
    private var lineNumber = 0
    private var skipped = 0
    private var evaluations = 0
    private var unchanged = 0

    private var views = ReferenceNameTable()
    /// Processes named by change lines (added with the attribution of lines to processes, in both).
    private var processes = ReferenceNameTable()
    private var processCounts: [Int] = []
    /// Where `change` found the view's name in the line.
    private var viewStart = 0
    private var viewEvaluations: [Int] = []
    private var viewSelfChanged: [Int] = []
    private var viewItemCounts: [[Int: Int]] = []
    private var pairs = 0
    private var viewBurstMark: [Int] = []
    private var items = ReferenceNameTable()

    /// A parsed `Type: items changed.` tail; `nil` in the cache marks a tail that is not a change line.
    private struct Change {
        var view: Int
        var items: [Int]
        var isUnchanged: Bool
        var selfChanged: Bool
        var trigger: [Int]
    }
    /// Parsed tails by FNV-1a hash of their bytes: `cacheFirst` heads a chain through `cacheNext`.
    private var cacheFirst: [UInt64: Int] = [:]
    private var cacheNext: [Int] = []
    private var cacheKeys: [[UInt8]] = []
    private var cacheChanges: [Change?] = []
    /// The tail parsed last when the cache was full or the tail too long to keep (index -1).
    private var uncached: Change?

    private struct Burst {
        var id: Int
        var trigger: Change
        var views: [Int]
        var distinct: Int
        var evaluations: Int
        var line: Int
        var timestamp: [UInt8]?
    }
    private var burst: Burst?
    private var burstCount = 0
    private var top: [Burst] = []
    private var lastMillis: Int64?
    private var separated = false
    private var firstTimestamp: [UInt8]?
    private var lastTimestamp: [UInt8] = []

    private var recordMessage: [UInt8]?
    private var recordTimestamp: [UInt8]?
    private var recordProcess: [UInt8]?
    private var unescaper = JSONStringUnescaper()

    /// A scanner that skips lines longer than `lineCap` bytes.
    public init(lineCap: Int = 65_536) { self.lineCap = max(lineCap, 16) }

    /// Consumes the next chunk; lines may span chunks.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        let bytes = chunk.bindMemory(to: UInt8.self)
        var start = 0
        while start < bytes.count {
            guard let newline = bytes[start...].firstIndex(of: 10) else {
                if pendingOverflow || pending.count + bytes.count - start > lineCap {
                    pendingOverflow = true
                    pending.removeAll(keepingCapacity: true)
                } else {
                    pending.append(contentsOf: bytes[start...])
                }
                return
            }
            if pending.isEmpty && !pendingOverflow {
                completeLine(UnsafeBufferPointer(rebasing: bytes[start..<newline]), overflow: false)
            } else {
                let overflow = pendingOverflow || pending.count + newline - start > lineCap
                if !overflow { pending.append(contentsOf: bytes[start..<newline]) }
                flushPending(overflow: overflow)
            }
            start = newline + 1
        }
    }

    /// Consumes the next chunk; lines may span chunks.
    public mutating func feed(_ chunk: ArraySlice<UInt8>) {
        chunk.withUnsafeBytes { feed($0) }
    }

    /// Ends the input (a last line without newline counts) and returns the summary. Call once.
    public mutating func finish() -> ChangeLogSummary {
        if !pending.isEmpty || pendingOverflow { flushPending(overflow: pendingOverflow) }
        flushRecord()
        closeBurst()
        func name(_ id: Int) -> String { views.names[id] }
        var summary = ChangeLogSummary(
            evaluations: evaluations, unchangedCount: unchanged, bursts: burstCount, skippedLines: skipped,
            lines: lineNumber)
        for (id, view) in views.names.enumerated() {
            summary.views[view] = viewEvaluations[id]
            if viewSelfChanged[id] > 0 { summary.selfChangedByView[view] = viewSelfChanged[id] }
            summary.itemCounts[view] = Dictionary(
                uniqueKeysWithValues: viewItemCounts[id].map { (items.names[$0.key], $0.value) })
        }
        // Ties of distinct views and line (the bursts of one JSON record): the earlier burst first.
        summary.fanOut = top.sorted { ($1.distinct, $0.line, $0.id) < ($0.distinct, $1.line, $1.id) }.map { burst in
            FanOutStat(
                triggerView: name(burst.trigger.view), triggerItems: burst.trigger.trigger.map { items.names[$0] },
                views: burst.views.map(name), distinctViews: burst.distinct, evaluations: burst.evaluations,
                line: burst.line, timestamp: burst.timestamp.map { String(decoding: $0, as: UTF8.self) })
        }
        for (id, process) in processes.names.enumerated() { summary.processes[process] = processCounts[id] }
        summary.firstTimestamp = firstTimestamp.map { String(decoding: $0, as: UTF8.self) }
        summary.lastTimestamp = firstTimestamp == nil ? nil : String(decoding: lastTimestamp, as: UTF8.self)
        return summary
    }

    /// Scans all of `bytes`; fails when no line is a change line.
    public static func parse(_ bytes: [UInt8]) -> Result<ChangeLogSummary, FormatError> {
        var scanner = ReferenceChangeLogScanner()
        scanner.feed(bytes[...])
        let summary = scanner.finish()
        guard summary.evaluations > 0 else {
            return .failure(FormatError("no '<Type>: … changed.' or '<Type>: unchanged.' line"))
        }
        return .success(summary)
    }

    /// Whether the complete lines of `prefix` include a change line.
    public static func matches(_ prefix: ArraySlice<UInt8>) -> Bool {
        let head = prefix.prefix(65_536)
        let end = head.count < 65_536 ? head.endIndex : (head.lastIndex(of: 10) ?? head.startIndex)
        var scanner = ReferenceChangeLogScanner()
        scanner.feed(head[..<end])
        return scanner.finish().evaluations > 0
    }

    // MARK: - Lines

    private mutating func flushPending(overflow: Bool) {
        var line: [UInt8] = []
        swap(&line, &pending)
        line.withUnsafeBufferPointer { completeLine($0, overflow: overflow) }
        line.removeAll(keepingCapacity: true)
        swap(&line, &pending)
        pendingOverflow = false
    }

    private mutating func completeLine(_ line: UnsafeBufferPointer<UInt8>, overflow: Bool) {
        lineNumber += 1
        guard !overflow, line.count <= lineCap else {
            skipped += 1
            return
        }
        // The byte order mark as the scanner drops it (a behaviour added after the rewrite, in both).
        let bom = lineNumber == 1 && line.starts(with: [0xEF, 0xBB, 0xBF])
        handle(bom ? UnsafeBufferPointer(rebasing: line[3...]) : line, timestamp: nil, json: true)
    }

    private mutating func handle(
        _ raw: UnsafeBufferPointer<UInt8>, timestamp: UnsafeBufferPointer<UInt8>?, json: Bool, process: String? = nil
    ) {
        var end = raw.count
        while end > 0, raw[end - 1] == 32 || raw[end - 1] == 13 || raw[end - 1] == 9 { end -= 1 }
        let line = UnsafeBufferPointer(rebasing: raw[0..<end])
        guard let first = line.firstIndex(where: { $0 != 32 && $0 != 9 }) else {
            separated = true
            return
        }
        if let index = change(line), let change = index < 0 ? uncached : cacheChanges[index] {
            let stamp =
                timestamp.map { (Self.leadingTimestamp($0), $0) }
                ?? Self.leadingTimestamp(line).map {
                    ($0, UnsafeBufferPointer(rebasing: line[0..<$0.length]))
                }
            let from = timestamp == nil ? stamp?.0?.length ?? 0 : 0
            let words = from < viewStart ? Array(line[from..<viewStart]) : []
            if let name = process ?? Self.processName(words, timestamped: from > 0) {
                let (id, isNew) = processes.id(name)
                if isNew { processCounts.append(0) }
                processCounts[id] += 1
            }
            record(change, timestamp: stamp?.1, millis: stamp?.0?.millis)
        } else if json, "{}[]\"".utf8.contains(line[first]),
            line[first] != UInt8(ascii: "[")
                || line[(first + 1)...].first(where: { $0 != 32 && $0 != 9 }).map { $0 == UInt8(ascii: "{") } ?? true
        {
            // `[{` opens `--style json`; `[Network] request …` and a printed `["a": 1]` are console lines.
            jsonLine(line, first: first)
        } else {
            // A change line cut by an elision counts with its whole items (issue 28): cut at the last `", "`.
            let text = Array(line)
            let ellipsis =
                text.count > 3 && (text.suffix(3) == [0xE2, 0x80, 0xA6] || text.suffix(3) == Array("...".utf8))
            if ellipsis, let comma = (1..<(text.count - 3)).last(where: { text[$0] == 44 && text[$0 + 1] == 32 }) {
                let whole = Array(text[0..<comma]) + Array(" changed.".utf8)
                let before = evaluations
                whole.withUnsafeBufferPointer { handle($0, timestamp: timestamp, json: false, process: process) }
                if evaluations > before { return }
            }
            separated = true
        }
    }

    // MARK: - Change lines

    /// Parses the `Type: items changed.` tail of `line` into `cacheChanges`, returning its index there
    /// or -1 for `uncached` (the entry is nil when the tail is not a change line); known tails are not reparsed.
    private mutating func change(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = line.count
        guard n > 11, line[n - 8] == UInt8(ascii: "c"), Self.endsWith(line, "changed.") else { return nil }
        let isUnchanged = Self.endsWith(line, " unchanged.")
        guard isUnchanged || line[n - 9] == 32 else { return nil }
        let tail = isUnchanged ? n - 11 : n - 9
        var colon = isUnchanged ? tail - 1 : tail - 2
        if isUnchanged {
            guard line[colon] == UInt8(ascii: ":") else { return nil }
        } else {
            while colon > 0, !(line[colon] == UInt8(ascii: ":") && line[colon + 1] == 32) { colon -= 1 }
            guard colon > 0 else { return nil }
        }
        var start = Self.wordStart(line, before: colon)
        if colon - start == 4, Self.matches(line, at: start, "body"), start >= 2, line[start - 1] == 32 {
            start = Self.wordStart(line, before: start - 1)  // `ParentView body: …` names ParentView
        }
        viewStart = start
        let key = UnsafeBufferPointer(rebasing: line[start..<n])
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        var entry = cacheFirst[hash] ?? -1
        while entry >= 0 {
            if Self.equal(cacheKeys[entry], key) { return entry }
            entry = cacheNext[entry]
        }
        let parsed = parseChange(key, colon: colon - start, isUnchanged: isUnchanged)
        guard cacheKeys.count < Self.maxCached, key.count <= 1024 else {
            uncached = parsed
            return -1
        }
        cacheNext.append(cacheFirst[hash] ?? -1)
        cacheFirst[hash] = cacheKeys.count
        cacheKeys.append(Array(key))
        cacheChanges.append(parsed)
        return cacheKeys.count - 1
    }

    static func equal(_ stored: [UInt8], _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        stored.count == key.count
            && stored.withUnsafeBufferPointer { stored in
                for index in 0..<key.count where stored[index] != key[index] { return false }
                return true
            }
    }

    /// The slow path: decodes and validates the type name and items of a tail not seen before.
    private mutating func parseChange(_ key: UnsafeBufferPointer<UInt8>, colon: Int, isUnchanged: Bool) -> Change? {
        var nameBytes = key[0..<colon]
        if let space = nameBytes.lastIndex(of: 32), Self.matches(key, at: space + 1, "body"), space + 5 == colon {
            nameBytes = key[0..<space]
        }
        // Names as the scanner takes them since issue 28 (mangled, `‹…›`): one rule, `ViewTypeName`.
        guard let name = ViewTypeName.normalized(nameBytes) else { return nil }
        var itemTexts: [String] = []
        if !isUnchanged {
            let text = String(decoding: key[(colon + 2)..<(key.count - 9)], as: UTF8.self)
            itemTexts = Self.splitItems(text)
            guard !itemTexts.isEmpty, itemTexts.allSatisfy({ ["@", "_", "\\"].contains($0.first) }) else { return nil }
        }
        let (view, isNew) = views.id(name)
        if isNew {
            viewEvaluations.append(0)
            viewSelfChanged.append(0)
            viewItemCounts.append([:])
            viewBurstMark.append(-1)
        }
        let ids = itemTexts.map { self.items.id($0).id }
        let trigger = zip(itemTexts, ids).filter { $0.0 == "@dependencies" || !$0.0.hasPrefix("@") }.map(\.1)
        return Change(
            view: view, items: ids, isUnchanged: isUnchanged, selfChanged: itemTexts.contains("@self"), trigger: trigger
        )
    }

    /// Items split at commas outside `<>`, `()` and `[]`, trimmed.
    public static func splitItems(_ text: String) -> [String] {
        var items: [String] = []
        var depth = 0
        var current = ""
        for character in text {
            switch character {
            case "<", "(", "[": depth += 1
            case ">", ")", "]": depth = max(0, depth - 1)
            case "," where depth == 0:
                items.append(String(ReproText.trimmed(current)))
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        items.append(String(ReproText.trimmed(current)))
        return items.filter { !$0.isEmpty }
    }

    private mutating func record(_ change: Change, timestamp: UnsafeBufferPointer<UInt8>?, millis: Int64?) {
        evaluations += 1
        if change.isUnchanged { unchanged += 1 }
        viewEvaluations[change.view] += 1
        if change.selfChanged { viewSelfChanged[change.view] += 1 }
        for item in change.items {
            var key = item
            if viewItemCounts[change.view][item] == nil {
                if pairs >= Self.maxPairs { key = items.id(Self.other).id } else { pairs += 1 }
            }
            viewItemCounts[change.view][key, default: 0] += 1
        }

        let startsBurst: Bool
        if let millis, let lastMillis {
            startsBurst = abs(millis - lastMillis) > Self.burstGap
        } else {
            startsBurst = separated
        }
        if burst == nil || startsBurst {
            closeBurst()
            burst = Burst(
                id: burstCount, trigger: change, views: [], distinct: 0, evaluations: 0, line: lineNumber,
                timestamp: timestamp.map(Array.init))
            burstCount += 1
        }
        burst!.evaluations += 1
        if viewBurstMark[change.view] != burst!.id {
            viewBurstMark[change.view] = burst!.id
            burst!.distinct += 1
            if burst!.views.count < 20 { burst!.views.append(change.view) }
        }
        lastMillis = millis
        separated = false
        if let timestamp {
            if firstTimestamp == nil { firstTimestamp = Array(timestamp) }
            lastTimestamp.removeAll(keepingCapacity: true)
            lastTimestamp.append(contentsOf: timestamp)
        }
    }

    private mutating func closeBurst() {
        guard let burst else { return }
        self.burst = nil
        if top.count < 10 {
            top.append(burst)
        } else if let weakest = top.indices.min(by: {
            (top[$0].distinct, -top[$0].line, -top[$0].id) < (top[$1].distinct, -top[$1].line, -top[$1].id)
        }),
            burst.distinct > top[weakest].distinct
        {
            top[weakest] = burst
        }
    }

    // MARK: - log show --style json / ndjson

    /// Collects `"eventMessage"` and `"timestamp"` string values. A record ends on a line that starts with `}`
    /// (`--style json`: `},{`, `}]`) or that is a whole `{…}` object (`--style ndjson`).
    private mutating func jsonLine(_ line: UnsafeBufferPointer<UInt8>, first: Int) {
        if let value = jsonString(line, key: "\"eventMessage\"") { recordMessage = value }
        if let value = jsonString(line, key: "\"timestamp\"") { recordTimestamp = value }
        if let value = jsonString(line, key: "\"processImagePath\"") { recordProcess = value }
        if line[first] == UInt8(ascii: "}")
            || line[first] == UInt8(ascii: "{") && line[line.count - 1] == UInt8(ascii: "}")
        {
            flushRecord()
        }
    }

    private mutating func flushRecord() {
        guard let message = recordMessage else {
            recordTimestamp = nil
            recordProcess = nil
            return
        }
        let stamp = recordTimestamp
        var process: String?
        if let path = recordProcess {
            let last = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).last ?? []
            process = last.isEmpty ? nil : String(decoding: last, as: UTF8.self)
        }
        recordMessage = nil
        recordTimestamp = nil
        recordProcess = nil
        message.withUnsafeBufferPointer { text in
            stamp.referenceWithUnsafeBufferPointerOrNil { timestamp in
                for part in text.split(separator: 10, omittingEmptySubsequences: false) {
                    handle(UnsafeBufferPointer(rebasing: part), timestamp: timestamp, json: false, process: process)
                }
            }
        }
    }

    /// The process named by the first word holding `[`, digits, then `:` or `]`: the word before that `[`,
    /// less a trailing `(…)`. After a timestamp (`timestamped`), the words from the second on up to that one
    /// (the first is compact's type column): a name with spaces.
    static func processName(_ bytes: [UInt8], timestamped: Bool = false) -> String? {
        // Each word's range in `bytes`.
        var words: [Range<Int>] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 32 || bytes[index] == 9 {
                index += 1
                continue
            }
            let start = index
            while index < bytes.count, bytes[index] != 32, bytes[index] != 9 { index += 1 }
            words.append(start..<index)
        }
        for (number, range) in words.enumerated() {
            let word = Array(bytes[range])
            for (index, byte) in word.enumerated() where byte == UInt8(ascii: "[") && index > 0 {
                let digits = word[(index + 1)...].prefix(while: { $0 >= 48 && $0 <= 57 })
                let after = word.dropFirst(index + 1 + digits.count).first
                guard !digits.isEmpty, after == UInt8(ascii: ":") || after == UInt8(ascii: "]") else { continue }
                var name = Array(word[..<index])
                if name.last == UInt8(ascii: ")"), let paren = name.firstIndex(of: UInt8(ascii: "(")), paren > 0 {
                    name = Array(name[..<paren])
                }
                if timestamped, number >= 2 {
                    name = Array(bytes[words[1].lowerBound..<range.lowerBound]) + name
                }
                return String(decoding: name, as: UTF8.self)
            }
        }
        return nil
    }

    /// The unescaped string after `key` `:` on `line`, or nil.
    private mutating func jsonString(_ line: UnsafeBufferPointer<UInt8>, key: String) -> [UInt8]? {
        let needle = Array(key.utf8)
        guard line.count > needle.count else { return nil }
        var index = 0
        while index + needle.count <= line.count {
            if Self.matches(line, at: index, needle) {
                var cursor = index + needle.count
                while cursor < line.count, line[cursor] == 32 || line[cursor] == 9 { cursor += 1 }
                guard cursor < line.count, line[cursor] == UInt8(ascii: ":") else { return nil }
                cursor += 1
                while cursor < line.count, line[cursor] == 32 || line[cursor] == 9 { cursor += 1 }
                guard cursor < line.count, line[cursor] == UInt8(ascii: "\"") else { return nil }
                unescaper.reset()
                for byte in line[(cursor + 1)...] {
                    if case .done = unescaper.feed(byte) { return unescaper.output }
                }
                return nil
            }
            index += 1
        }
        return nil
    }

    // MARK: - Byte helpers

    static func endsWith(_ line: UnsafeBufferPointer<UInt8>, _ suffix: StaticString) -> Bool {
        let count = suffix.utf8CodeUnitCount
        guard line.count >= count else { return false }
        return suffix.withUTF8Buffer { line[(line.count - count)...].elementsEqual($0) }
    }

    static func matches(_ line: UnsafeBufferPointer<UInt8>, at index: Int, _ text: some Collection<UInt8>) -> Bool {
        index >= 0 && index + text.count <= line.count && line[index..<(index + text.count)].elementsEqual(text)
    }

    static func matches(_ line: UnsafeBufferPointer<UInt8>, at index: Int, _ text: StaticString) -> Bool {
        text.withUTF8Buffer { matches(line, at: index, $0) }
    }

    /// Start of the word ending before `end`: back to a space outside `<>`, `()`, `[]`.
    static func wordStart(_ line: UnsafeBufferPointer<UInt8>, before end: Int) -> Int {
        var depth = 0
        var index = end
        while index > 0 {
            let byte = line[index - 1]
            switch byte {
            case UInt8(ascii: ">"), UInt8(ascii: ")"), UInt8(ascii: "]"): depth += 1
            case UInt8(ascii: "<"), UInt8(ascii: "("), UInt8(ascii: "["):
                if depth == 0 { return index }
                depth -= 1
            case 32 where depth == 0, 9 where depth == 0: return index
            default: break
            }
            index -= 1
        }
        return 0
    }

    /// `yyyy-MM-dd[ T]HH:mm:ss[.fff…][zone]` or `HH:mm:ss[.fff…]` at the start of `line`: milliseconds on a
    /// proleptic Gregorian scale (zone ignored) and the length of the timestamp text.
    static func leadingTimestamp(_ line: UnsafeBufferPointer<UInt8>) -> (millis: Int64, length: Int)? {
        func number(_ at: Int, _ digits: Int) -> Int64? {
            guard at + digits <= line.count else { return nil }
            var value: Int64 = 0
            for byte in line[at..<(at + digits)] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        var days: Int64 = 0
        var at = 0
        if let year = number(0, 4), line.count > 10, line[4] == UInt8(ascii: "-"), let month = number(5, 2),
            line[7] == UInt8(ascii: "-"), let day = number(8, 2), line[10] == 32 || line[10] == UInt8(ascii: "T")
        {
            // Days from civil (Howard Hinnant's algorithm), so bursts may span midnight and month ends.
            let y = month <= 2 ? year - 1 : year
            let era = y / 400
            let yoe = y - era * 400
            let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
            days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy
            at = 11
        }
        guard let hour = number(at, 2), matches(line, at: at + 2, ":"), let minute = number(at + 3, 2),
            matches(line, at: at + 5, ":"), let second = number(at + 6, 2)
        else { return nil }
        var millis = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000
        at += 8
        if matches(line, at: at, ".") {
            at += 1
            var scale: Int64 = 100
            while at < line.count, line[at] >= 48, line[at] <= 57 {
                millis += Int64(line[at] - 48) * scale
                scale /= 10
                at += 1
            }
        }
        if matches(line, at: at, "Z") {
            at += 1
        } else if at < line.count, line[at] == UInt8(ascii: "+") || line[at] == UInt8(ascii: "-"),
            number(at + 1, 2) != nil
        {
            at += 3
            if matches(line, at: at, ":") { at += 1 }
            if number(at, 2) != nil { at += 2 }
        }
        return (millis, at)
    }
}

/// Interned names with stable ids; past `ReferenceChangeLogScanner.maxNames` new names share the id of `(other)`.
struct ReferenceNameTable {
    private(set) var names: [String] = []
    private var ids: [String: Int] = [:]

    /// The id of `name`, and whether it was added now.
    mutating func id(_ name: String) -> (id: Int, isNew: Bool) {
        let name =
            name.count > ReferenceChangeLogScanner.maxNameLength
            ? String(name.prefix(ReferenceChangeLogScanner.maxNameLength)) + "…" : name
        let key =
            ids[name] != nil || names.count < ReferenceChangeLogScanner.maxNames
            ? name : ReferenceChangeLogScanner.other
        if let id = ids[key] { return (id, false) }
        ids[key] = names.count
        names.append(key)
        return (names.count - 1, true)
    }
}

extension Optional where Wrapped == [UInt8] {
    /// Calls `body` with a buffer of the bytes, or with nil.
    fileprivate func referenceWithUnsafeBufferPointerOrNil<R>(_ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        switch self {
        case .some(let bytes): bytes.withUnsafeBufferPointer { body($0) }
        case .none: body(nil)
        }
    }
}
