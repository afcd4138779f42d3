#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A process's end at its memory limit, or its crossing of one, as device log lines tell it: the kernel's
/// `memorystatus` lines, ReportSystemMemory's (or osanalyticshelper's) `killed by jetsam reason …`, and
/// Xcode's debugger stop `EXC_RESOURCE RESOURCE_TYPE_MEMORY (limit=N MB, …)`. The lines one kill writes
/// (the limit crossed, the kill in its band, the kill with its footprint, the report) are one record.
public struct MemoryKill: Sendable, Hashable {
    /// Which kind of line told it.
    public enum Seen: String, Sendable, Hashable, CaseIterable {
        /// A kernel line: `memorystatus: …` or `EXC_RESOURCE -> NAME[PID] exceeded mem limit: …`.
        case kernel
        /// `Process NAME [PID] killed by jetsam reason REASON` (ReportSystemMemory, osanalyticshelper).
        case report
        /// Xcode's or lldb's stop at `EXC_RESOURCE … MEMORY (limit=N MB …)`: the debugged process, unnamed.
        case debugger
    }

    /// The process's name as the line writes it (the kernel cuts it at 32 characters); nil when the line
    /// names none (a debugger stop names no process).
    public var process: String?
    public var pid: Int?
    /// False only for a limit crossed `(non-fatal)` (a soft limit, a warning): the process lived on.
    public var killed: Bool
    /// The kill cause: `per-process-limit`, `vm-pageshortage`, `vnode-limit`, … as written.
    public var reason: String?
    /// The memory limit crossed, in MB as the kernel writes it (MiB).
    public var limitMB: Int?
    /// Which limit: `ActiveHard`, `InactiveHard`, `ActiveSoft`, `InactiveSoft`.
    public var limitKind: String?
    /// The priority band's name at the kill (`FOREGROUND`), from `killing process … in high band`.
    public var band: String?
    /// The jetsam priority at the kill (`100`).
    public var priority: Int?
    /// The process's age at the kill in seconds (`12s`).
    public var ageSeconds: Int?
    /// The footprint at the kill, in KB (KiB) as the kernel writes it (`78850KB`).
    public var footprintKB: UInt64?
    /// `memorystatus_available_pages` at the kill: pages available to jetsam then.
    public var availablePages: UInt64?
    /// `type:app`, `type:daemon`, … as written.
    public var processType: String?
    /// The line's own timestamp, as written: the unified log's `2024-05-01 10:11:12.345678+0200`, syslog's
    /// `May  1 10:11:12`, a JSON record's `"timestamp"`.
    public var timestamp: String?
    /// 1-based line of its first line in the file.
    public var line: Int
    /// Which kinds of line told it, in the order met.
    public var seen: [Seen]

    public init(
        process: String? = nil, pid: Int? = nil, killed: Bool = true, reason: String? = nil, limitMB: Int? = nil,
        limitKind: String? = nil, band: String? = nil, priority: Int? = nil, ageSeconds: Int? = nil,
        footprintKB: UInt64? = nil, availablePages: UInt64? = nil, processType: String? = nil,
        timestamp: String? = nil, line: Int, seen: [Seen]
    ) {
        self.process = process
        self.pid = pid
        self.killed = killed
        self.reason = reason
        self.limitMB = limitMB
        self.limitKind = limitKind
        self.band = band
        self.priority = priority
        self.ageSeconds = ageSeconds
        self.footprintKB = footprintKB
        self.availablePages = availablePages
        self.processType = processType
        self.timestamp = timestamp
        self.line = line
        self.seen = seen
    }

    /// Whether a debugger stop told it (and no kernel or report line): the process is the one debugged.
    public var inDebugger: Bool { seen == [.debugger] }
}

/// The kill records of one log, and what of its kill lines could not be read.
public struct MemoryKillLog: Sendable, Hashable {
    /// In file order, at most `MemoryKillLines.maxKills`.
    public var kills: [MemoryKill]
    /// Kill records past the cap: counted, not kept.
    public var droppedKills: Int
    /// Kill lines that could not be read whole, each with its line (`line 3: a kill line with pid 994 but no
    /// process name`): at most `MemoryKillLines.maxProblems`.
    public var problems: [String]
    /// All such lines, also those past the cap.
    public var problemCount: Int

    public init(kills: [MemoryKill] = [], droppedKills: Int = 0, problems: [String] = [], problemCount: Int = 0) {
        self.kills = kills
        self.droppedKills = droppedKills
        self.problems = problems
        self.problemCount = problemCount
    }

    /// No kill record and no unreadable kill line.
    public var isEmpty: Bool { kills.isEmpty && droppedKills == 0 && problemCount == 0 }

    /// The time of its first record that has one, as written.
    public var firstTimestamp: String? { kills.lazy.compactMap(\.timestamp).first }

    /// The names of the processes killed or crossing a limit, in order of first record, unique.
    public var processNames: [String] {
        var names: [String] = []
        for case let name? in kills.map(\.process) where !names.contains(name) { names.append(name) }
        return names
    }
}

/// Reads kill lines, one at a time, into `MemoryKillLog` records: the change-log scanner hands it the lines
/// that are no change line (`ChangeLogScanner`), so one log's change lines and kill lines are both read.
///
/// A line is looked at only when it holds `memorystatus: `, `EXC_RESOURCE`, ` by jetsam reason ` or `due to
/// memory issue` (Xcode's `Terminated due to memory issue`) (`memmem`,
/// or a byte search without the C library); other lines cost those searches and nothing else. The lines of
/// one kill (same pid, among the last 8 records, none of whose facts it would overwrite) join one record;
/// a `(non-fatal)` crossing is a record of its own, never joined with a kill.
///
/// Memory: at most `maxKills` records (names of at most 256 bytes) and `maxProblems` problem texts; a
/// journaling reader (a log's second part) also keeps up to `maxJournal` records and problems as read.
public struct MemoryKillLines: Sendable {
    static let maxKills = 10_000
    static let maxProblems = 20
    static let joinWindow = 8
    static let maxName = 256

    private(set) var log = MemoryKillLog()

    /// What was read, in order and before any join, when kept (`journaling`): the reader of a log's second part
    /// keeps it so the first part's reader can read the same after its own (`replay`). Nil once it would hold
    /// more than `maxJournal` entries.
    private(set) var journal: [Entry]?
    static let maxJournal = 20_000

    /// A record or a problem as read, with its line.
    enum Entry: Sendable {
        case record(MemoryKill)
        case problem(line: Int, text: String)
    }

    public init() {}

    /// A reader that keeps its journal (see `journal`).
    init(journaling: Bool) { journal = journaling ? [] : nil }

    /// The records so far.
    public var result: MemoryKillLog { log }

    /// The phrases a kill line holds one of, with the offset of each one's rarest byte (`ReproText.anchor`),
    /// worked out once: `mayBeKill` runs on every line that is no change line.
    static let phrases: [(StaticString, Int)] = {
        let phrases: [StaticString] = ["memorystatus: ", "EXC_RESOURCE", " by jetsam reason ", "due to memory issue"]
        return phrases.map { ($0, ReproText.anchor($0)) }
    }()

    /// The contents of a line's Markdown code spans (between single backticks), or nil when it has none.
    static func codeSpans(_ line: [UInt8]) -> [[UInt8]]? {
        guard line.contains(UInt8(ascii: "`")) else { return nil }
        var spans: [[UInt8]] = []
        var open: Int?
        for (index, byte) in line.enumerated() where byte == UInt8(ascii: "`") {
            if let start = open {
                spans.append(Array(line[(start + 1)..<index]))
                open = nil
            } else {
                open = index
            }
        }
        return spans.isEmpty ? nil : spans
    }

    /// `mayBeKill` of bytes.
    static func mayBeKill(bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer { mayBeKill($0) } }

    /// Whether `line` may be a kill line: the cheap test before `take`.
    @inline(__always)
    static func mayBeKill(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard line.count >= 16 else { return false }
        for (phrase, anchor) in phrases where ReproText.containsBytes(line, phrase, anchor: anchor) { return true }
        return false
    }

    /// Reads `line` (number `number`, 1-based) when it is a kill line; `timestamp` is its JSON record's
    /// `"timestamp"` (nil: the line's own leading one, if any).
    public mutating func take(_ line: UnsafeBufferPointer<UInt8>, number: Int, timestamp: UnsafeBufferPointer<UInt8>?) {
        guard Self.mayBeKill(line) else { return }
        let bytes = Array(line)
        let stamp = timestamp.map { String(decoding: $0, as: UTF8.self) } ?? Self.leadingTimestamp(bytes)
        // Decided by the line's shape, not by a word: a kill phrase inside a Markdown code span is a quotation
        // (documentation, a provenance table quoting `… killed by jetsam reason per-process-limit`), no kill line;
        // a line in a fence, a quote, a list item or a table cell is one.
        if let spans = Self.codeSpans(bytes), spans.contains(where: { Self.mayBeKill(bytes: $0) }) { return }
        let parsed = Self.parse(bytes)
        switch parsed {
        case nil: return
        case .problem(let text)?: note(line: number, text)
        case .record(var kill, let problem)?:
            if let problem { note(line: number, problem) }
            // An author's elision inside the line: the fields around it are read, what it cut is said to be cut.
            if Self.find(bytes, " ... ") != nil || Self.find(bytes, "…") != nil {
                note(line: number, "the line is cut by an elision ('...' or '…'): what it left out is not read")
            }
            kill.line = number
            kill.timestamp = stamp
            add(kill)
        }
    }

    /// Reads what `later` read, its lines `lineOffset` further on, as if this reader had read them after its
    /// own: records join with this one's last ones. False, with nothing read, when `later` kept no journal
    /// (it was not made `journaling`, or read more than `maxJournal` records and problems).
    mutating func replay(_ later: MemoryKillLines, lineOffset: Int) -> Bool {
        guard let entries = later.journal else { return false }
        for entry in entries {
            switch entry {
            case .problem(let line, let text): note(line: line + lineOffset, text)
            case .record(var kill):
                kill.line += lineOffset
                add(kill)
            }
        }
        return true
    }

    private mutating func note(line: Int, _ text: String) {
        if journal != nil { keep(.problem(line: line, text: text)) }
        log.problemCount += 1
        if log.problems.count < Self.maxProblems { log.problems.append("line \(line): " + text) }
    }

    private mutating func keep(_ entry: Entry) {
        if journal!.count < Self.maxJournal { journal!.append(entry) } else { journal = nil }
    }

    /// Joins `kill` to the record of the same kill among the last few, or appends it.
    private mutating func add(_ kill: MemoryKill) {
        if journal != nil { keep(.record(kill)) }
        if kill.killed, kill.pid != nil || kill.inDebugger {
            let lower = max(0, log.kills.count - Self.joinWindow)
            for index in stride(from: log.kills.count - 1, through: lower, by: -1) {
                if let joined = Self.join(log.kills[index], kill) {
                    log.kills[index] = joined
                    return
                }
            }
        }
        guard log.kills.count < Self.maxKills else {
            log.droppedKills += 1
            return
        }
        log.kills.append(kill)
    }

    /// `earlier` and `later` as one record, or nil when they are not one kill: another pid, a name that
    /// differs, a fact both give differently, or one of them no kill.
    static func join(_ earlier: MemoryKill, _ later: MemoryKill) -> MemoryKill? {
        guard earlier.killed, later.killed, earlier.pid == later.pid, earlier.inDebugger == later.inDebugger else {
            return nil
        }
        if let a = earlier.process, let b = later.process, a != b { return nil }
        var merged = earlier
        func take<T: Equatable>(_ path: WritableKeyPath<MemoryKill, T?>) -> Bool {
            guard let value = later[keyPath: path] else { return true }
            if let old = merged[keyPath: path] { return old == value }
            merged[keyPath: path] = value
            return true
        }
        guard take(\.process), take(\.reason), take(\.limitMB), take(\.limitKind), take(\.band), take(\.priority),
            take(\.ageSeconds), take(\.footprintKB), take(\.processType)
        else { return nil }
        // The kernel writes the pages available on each of a kill's lines, a moment apart: the last is kept.
        if let pages = later.availablePages { merged.availablePages = pages }
        if merged.timestamp == nil { merged.timestamp = later.timestamp }
        for kind in later.seen where !merged.seen.contains(kind) { merged.seen.append(kind) }
        return merged
    }

    // MARK: - One line

    enum Parsed: Equatable {
        /// What the line says, and what of it could not be read.
        case record(MemoryKill, problem: String?)
        /// A kill line of which nothing could be kept.
        case problem(String)
    }

    /// What `line` says, or nil when it is no kill line.
    static func parse(_ line: [UInt8]) -> Parsed? {
        if let at = find(line, "memorystatus: ") {
            let rest = Array(line[(at + 14)...])
            if let kill = exceeded(rest, form: .memorystatus) { return kill }
            if let kill = killing(rest) { return kill }
            return nil
        }
        if let at = find(line, "EXC_RESOURCE -> ") {
            return exceeded(Array(line[(at + 16)...]), form: .exception)
        }
        if let at = find(line, "EXC_RESOURCE"), isStop(Array(line[..<at])) {
            return debuggerStop(Array(line[at...]))
        }
        if find(line, "Terminated due to memory issue") != nil {
            // Xcode's console when jetsam ends the debugged app: no limit, no name.
            return .record(MemoryKill(line: 0, seen: [.debugger]), problem: nil)
        }
        if let at = find(line, " killed by jetsam reason ") { return report(line, at: at) }
        return nil
    }

    enum ExceededForm { case memorystatus, exception }

    /// `NAME [PID] exceeded mem limit: ActiveHard 77 MB (fatal)` after `memorystatus: `, or
    /// `NAME[PID] exceeded mem limit: …` after `EXC_RESOURCE -> `.
    static func exceeded(_ text: [UInt8], form: ExceededForm) -> Parsed? {
        guard let at = find(text, " exceeded mem limit: ") else { return nil }
        let head = Array(text[..<at])
        let (name, pid) = nameAndBracketPID(head)
        var kill = MemoryKill(line: 0, seen: [.kernel])
        kill.pid = pid
        let limit = Array(text[(at + 21)...])
        var words = limit.split(separator: 32, omittingEmptySubsequences: true).map(Array.init)
        if let last = words.last, let close = last.lastIndex(of: UInt8(ascii: ")")) {
            words[words.count - 1] = Array(last[..<close])
        }
        // ActiveHard 77 MB (fatal)
        guard words.count >= 4, let mb = int(words[1]), words[2] == Array("MB".utf8),
            words[3].first == UInt8(ascii: "(")
        else {
            return .problem("a memory-limit line whose limit is not 'KIND N MB (fatal|non-fatal)'")
        }
        let kind = String(decoding: words[0], as: UTF8.self)
        let fatality = String(decoding: words[3].dropFirst(), as: UTF8.self)
        guard ["ActiveHard", "InactiveHard", "ActiveSoft", "InactiveSoft"].contains(kind),
            fatality == "fatal" || fatality == "non-fatal"
        else {
            return .problem("a memory-limit line whose limit is not 'KIND N MB (fatal|non-fatal)'")
        }
        kill.limitMB = mb
        kill.limitKind = kind
        kill.killed = fatality == "fatal"
        return named(kill, name: name, form == .memorystatus ? "a memory-limit line" : "an EXC_RESOURCE line")
    }

    /// `killing_specific_process pid 994 [KeyboardSpike] (per-process-limit 100 12s rf:- type:app) 78850KB -
    /// memorystatus_available_pages: 114015` (and the older forms without age, `rf:`, `type:` or KB, the
    /// `killing_top_process…`, `killing_idle_process…` words), or `killing process 994 [KeyboardSpike] in high
    /// band FOREGROUND (100) - memorystatus_available_pages: 113991`.
    static func killing(_ text: [UInt8]) -> Parsed? {
        guard text.starts(with: Array("killing".utf8)) else { return nil }
        var kill = MemoryKill(line: 0, seen: [.kernel])
        kill.availablePages = find(text, "memorystatus_available_pages: ").flatMap {
            uint(digits(text, from: $0 + 30))
        }
        if text.starts(with: Array("killing process ".utf8)) {
            // killing process PID [NAME] in high band BAND (N)
            guard let band = find(text, "] in high band ") else { return nil }
            let (name, pid) = nameAndBracketPID(Array(text[16...band]), pidFirst: true)
            kill.pid = pid
            let after = Array(text[(band + 15)...])
            let words = after.split(separator: 32).map(Array.init)
            if let first = words.first { kill.band = String(decoding: first, as: UTF8.self) }
            if words.count > 1, words[1].first == UInt8(ascii: "(") {
                kill.priority = int(Array(words[1].dropFirst().prefix { $0 != UInt8(ascii: ")") }))
            }
            return named(kill, name: name, "a kill line")
        }
        guard let pidAt = find(text, " pid ") else { return nil }
        let open = text[(pidAt + 5)...].firstIndex(of: UInt8(ascii: "["))
        let pidEnd = open ?? text[(pidAt + 5)...].firstIndex(of: 32) ?? text.endIndex
        kill.pid = int(Array(text[(pidAt + 5)..<pidEnd]).filter { $0 != 32 })
        var name: [UInt8]? = nil
        var causeAt: Int? = nil
        if let open, let close = find(text, "] (", from: open) {
            name = Array(text[(open + 1)..<close])
            causeAt = close + 3
        } else if let open, let close = text[open...].firstIndex(of: UInt8(ascii: "]")) {
            name = Array(text[(open + 1)..<close])
        }
        if let causeAt {
            // (REASON PRIORITY [AGEs] [rf:X] [type:Y]) or an unclosed one before ` - `.
            let end =
                text[causeAt...].firstIndex(of: UInt8(ascii: ")")) ?? find(text, " - ", from: causeAt)
                ?? text.endIndex
            let words = text[causeAt..<end].split(separator: 32).map(Array.init)
            if let reason = words.first { kill.reason = String(decoding: reason.prefix(maxName), as: UTF8.self) }
            if words.count > 1 { kill.priority = int(words[1]) }
            for word in words.dropFirst(2) {
                if word.last == UInt8(ascii: "s"), let age = int(Array(word.dropLast())) {
                    kill.ageSeconds = age
                } else if word.starts(with: Array("type:".utf8)) {
                    kill.processType = String(decoding: word.dropFirst(5).prefix(maxName), as: UTF8.self)
                }
            }
            // ) 78850KB - memorystatus_available_pages
            if end < text.endIndex {
                let after = text[(end + 1)...].drop { $0 == 32 }
                let number = Array(after.prefix { $0 >= 48 && $0 <= 57 })
                if !number.isEmpty, after.dropFirst(number.count).starts(with: Array("KB".utf8)) {
                    kill.footprintKB = uint(number)
                }
            }
        }
        guard kill.pid != nil else {
            return .problem("a kill line without a pid")
        }
        return named(kill, name: name, "a kill line")
    }

    /// `Process KeyboardSpike [994] killed by jetsam reason per-process-limit`.
    static func report(_ line: [UInt8], at: Int) -> Parsed? {
        let head = Array(line[..<at])
        var kill = MemoryKill(line: 0, seen: [.report])
        let reason = line[(at + 25)...].prefix { $0 != 32 && $0 != 9 && $0 != 13 }
        if !reason.isEmpty { kill.reason = String(decoding: reason.prefix(maxName), as: UTF8.self) }
        // The name runs from after `Process ` to the ` [PID]` that ends the head.
        var name: [UInt8]? = nil
        if let open = head.lastIndex(of: UInt8(ascii: "[")), head.last == UInt8(ascii: "]") {
            kill.pid = int(Array(head[(open + 1)..<(head.count - 1)]))
            let before = Array(head[..<open])
            let start = findLast(before, "Process ").map { $0 + 8 }
            if let start {
                var end = before.count
                while end > start, before[end - 1] == 32 { end -= 1 }
                name = Array(before[start..<end])
            }
        }
        guard kill.pid != nil else { return .problem("a 'killed by jetsam reason' line without '[PID]'") }
        return named(kill, name: name, "a 'killed by jetsam reason' line")
    }

    /// Whether the text before `EXC_RESOURCE` is a debugger's: nothing (after a timestamp or blanks), `Thread N:`,
    /// lldb's `stop reason =` or `reason:` (`error: Execution was interrupted, reason: …`). Prose that quotes
    /// the words is no stop.
    static func isStop(_ before: [UInt8]) -> Bool {
        var end = before.count
        while end > 0, before[end - 1] == 32 || before[end - 1] == 9 { end -= 1 }
        let head = Array(before[..<end])
        if head.isEmpty || leadingTimestamp(head).map({ $0.utf8.count >= head.count - 1 }) == true { return true }
        if head.last == UInt8(ascii: "=") { return findLast(head, "stop reason =") != nil }
        guard head.last == UInt8(ascii: ":") else { return false }
        if findLast(head, "reason:") == head.count - 7 { return true }
        // `Thread 1:` (Xcode's stop banner), at the line's start or after a timestamp.
        guard let thread = findLast(head, "Thread ") else { return false }
        let number = head[(thread + 7)..<(head.count - 1)]
        return !number.isEmpty && number.allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    /// `EXC_RESOURCE RESOURCE_TYPE_MEMORY (limit=77 MB, unused=0x0)`, after `Thread 1: `, lldb's
    /// `stop reason = ` or `Execution was interrupted, reason: `; nil for another resource (CPU, wakeups).
    static func debuggerStop(_ text: [UInt8]) -> Parsed? {
        guard let memory = find(text, "MEMORY"), memory < 80 else { return nil }
        var kill = MemoryKill(line: 0, seen: [.debugger])
        if let at = find(text, "limit=", from: memory) {
            let number = Array(text[(at + 6)...].prefix { $0 >= 48 && $0 <= 57 })
            let unit = text[(at + 6 + number.count)...].drop { $0 == 32 }
            if let mb = int(number), unit.starts(with: Array("MB".utf8)) {
                kill.limitMB = mb
                return .record(kill, problem: nil)
            }
        }
        return .record(kill, problem: "an EXC_RESOURCE memory stop without 'limit=N MB': its limit is not known")
    }

    /// `kill` with `name` as its process; a missing, empty or `unknown` name is named as the line's problem.
    private static func named(_ kill: MemoryKill, name: [UInt8]?, _ what: String) -> Parsed {
        var kill = kill
        let trimmed = (name ?? []).drop { $0 == 32 }
        if trimmed.isEmpty || trimmed.elementsEqual("unknown".utf8) {
            let pid = kill.pid.map { " with pid \($0)" } ?? ""
            return .record(kill, problem: "\(what)\(pid) but no process name")
        }
        var text = String(decoding: trimmed.prefix(maxName), as: UTF8.self)
        if trimmed.count > maxName { text += "…" }
        kill.process = text
        return .record(kill, problem: nil)
    }

    /// `NAME [PID]` or `NAME[PID]` (`pidFirst`: `PID [NAME]`): the name (nil when empty) and the pid.
    static func nameAndBracketPID(_ text: [UInt8], pidFirst: Bool = false) -> (name: [UInt8]?, pid: Int?) {
        if pidFirst {
            guard let open = text.firstIndex(of: UInt8(ascii: "[")) else { return (nil, int(text)) }
            let pid = int(Array(text[..<open]).filter { $0 != 32 })
            let close = text[open...].lastIndex(of: UInt8(ascii: "]")) ?? text.endIndex
            let name = Array(text[(open + 1)..<close])
            return (name.isEmpty ? nil : name, pid)
        }
        guard text.last == UInt8(ascii: "]"), let open = text.lastIndex(of: UInt8(ascii: "[")) else {
            return (text.isEmpty ? nil : text, nil)
        }
        let pid = int(Array(text[(open + 1)..<(text.count - 1)]))
        var end = open
        while end > 0, text[end - 1] == 32 { end -= 1 }
        return (end == 0 ? nil : Array(text[..<end]), pid)
    }

    // MARK: - Timestamps

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The line's leading timestamp as written: `yyyy-MM-dd[ T]HH:mm:ss[.f…][zone]` (the unified log, compact,
    /// a console), syslog's `MMM d HH:mm:ss` (`May  1 10:11:12`, idevicesyslog), or a Console copy's
    /// `HH:mm:ss.f…±zzzz` after its type column; nil when it has none.
    static func leadingTimestamp(_ line: [UInt8]) -> String? {
        var start = 0
        while start < line.count, line[start] == 32 || line[start] == 9 { start += 1 }
        // A Console copy: `default<TAB>14:03:05.104211+0900<TAB>kernel<TAB>…` (the type column first).
        if let tab = line[start...].prefix(8).firstIndex(of: 9),
            ["default", "info", "debug", "error", "fault"].contains(String(decoding: line[start..<tab], as: UTF8.self))
        {
            start = tab + 1
        }
        let text = line[start...]
        func isDigit(_ index: Int) -> Bool { index < line.count && line[index] >= 48 && line[index] <= 57 }
        func clock(at index: Int) -> Bool {
            isDigit(index) && isDigit(index + 1) && index + 7 < line.count && line[index + 2] == 58
                && isDigit(index + 3) && isDigit(index + 4) && line[index + 5] == 58 && isDigit(index + 6)
                && isDigit(index + 7)
        }
        var end: Int
        if isDigit(start), start + 19 <= line.count, line[start + 4] == UInt8(ascii: "-"),
            line[start + 7] == UInt8(ascii: "-"), line[start + 10] == 32 || line[start + 10] == UInt8(ascii: "T"),
            clock(at: start + 11)
        {
            end = start + 19
            if end < line.count, line[end] == UInt8(ascii: ".") {
                end += 1
                while isDigit(end) { end += 1 }
            }
            if end < line.count, line[end] == UInt8(ascii: "Z") {
                end += 1
            } else if end < line.count, line[end] == UInt8(ascii: "+") || line[end] == UInt8(ascii: "-"),
                isDigit(end + 1)
            {
                end += 1
                while end < line.count, isDigit(end) || line[end] == UInt8(ascii: ":") { end += 1 }
            }
        } else if clock(at: start) {
            // `HH:mm:ss[.f…][zone]` alone (a Console copy, Xcode's console).
            end = start + 8
            if end < line.count, line[end] == UInt8(ascii: ".") {
                end += 1
                while isDigit(end) { end += 1 }
            }
            if end < line.count, line[end] == UInt8(ascii: "+") || line[end] == UInt8(ascii: "-"), isDigit(end + 1) {
                end += 1
                while isDigit(end) { end += 1 }
            }
        } else if text.count >= 15, months.contains(String(decoding: text.prefix(3), as: UTF8.self)),
            line[start + 3] == 32
        {
            var at = start + 4
            if at < line.count, line[at] == 32 { at += 1 }
            guard isDigit(at) else { return nil }
            at += isDigit(at + 1) ? 2 : 1
            guard at < line.count, line[at] == 32, clock(at: at + 1) else { return nil }
            end = at + 9
        } else {
            return nil
        }
        return String(decoding: line[start..<end], as: UTF8.self)
    }

    // MARK: - Bytes

    static func int(_ bytes: [UInt8]) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18, bytes.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 48) }
    }

    static func uint(_ bytes: [UInt8]) -> UInt64? {
        guard !bytes.isEmpty, bytes.count <= 19, bytes.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + UInt64($1 - 48) }
    }

    static func digits(_ text: [UInt8], from: Int) -> [UInt8] {
        guard from < text.count else { return [] }
        return Array(text[from...].prefix { $0 >= 48 && $0 <= 57 })
    }

    /// The first offset of `needle` in `text` at or after `from`.
    static func find(_ text: [UInt8], _ needle: StaticString, from: Int = 0) -> Int? {
        needle.withUTF8Buffer { pattern in
            guard let first = pattern.first, text.count >= pattern.count else { return nil }
            var index = from
            while index + pattern.count <= text.count {
                guard let hit = text[index...(text.count - pattern.count)].firstIndex(of: first) else { return nil }
                if text[hit..<(hit + pattern.count)].elementsEqual(pattern) { return hit }
                index = hit + 1
            }
            return nil
        }
    }

    /// The last offset of `needle` in `text`.
    static func findLast(_ text: [UInt8], _ needle: StaticString) -> Int? {
        needle.withUTF8Buffer { pattern in
            guard text.count >= pattern.count else { return nil }
            var index = text.count - pattern.count
            while index >= 0 {
                if text[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
                index -= 1
            }
            return nil
        }
    }

    /// Whether `needle` occurs in `line` (`ReproText.containsBytes`: `memchr` to each first byte, then `memcmp`).
    @inline(__always)
    static func contains(_ line: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool {
        ReproText.containsBytes(line, needle)
    }
}
