#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One burst of body evaluations, kept among the widest (most distinct views).
public struct FanOutStat: Sendable, Hashable {
    /// The view of the burst's first evaluation.
    public var triggerView: String
    /// That evaluation's `_prop`, `@dependencies` and key-path items: what changed.
    public var triggerItems: [String]
    /// Distinct views evaluated in the burst, in order of first evaluation, at most 20.
    public var views: [String]
    /// Distinct views evaluated in the burst (not truncated).
    public var distinctViews: Int
    /// Body evaluations in the burst.
    public var evaluations: Int
    /// 1-based line of the first evaluation.
    public var line: Int
    /// Timestamp of the first evaluation, as written.
    public var timestamp: String?

    public init(
        triggerView: String, triggerItems: [String], views: [String], distinctViews: Int, evaluations: Int, line: Int,
        timestamp: String? = nil
    ) {
        self.triggerView = triggerView
        self.triggerItems = triggerItems
        self.views = views
        self.distinctViews = distinctViews
        self.evaluations = evaluations
        self.line = line
        self.timestamp = timestamp
    }
}

/// Aggregate statistics of a SwiftUI `_printChanges()` / `_logChanges()` log.
public struct ChangeLogSummary: Sendable, Hashable {
    /// Body evaluations: every `Name: … changed.` and `Name: unchanged.` line.
    public var evaluations: Int
    /// Evaluations printed as `unchanged.`.
    public var unchangedCount: Int
    /// Evaluations per view type.
    public var views: [String: Int]
    /// Per view type, how often each item (`@self`, `_count`, `@dependencies`, …) appeared.
    public var itemCounts: [String: [String: Int]]
    /// Per view type, evaluations whose items include `@self`.
    public var selfChangedByView: [String: Int]
    /// Number of bursts (see `ChangeLogScanner`).
    public var bursts: Int
    /// The 10 bursts with the most distinct views, widest first (ties: earliest first).
    public var fanOut: [FanOutStat]
    /// Timestamp of the first evaluation, as written, when lines carry one.
    public var firstTimestamp: String?
    /// Timestamp of the last evaluation, as written, when lines carry one.
    public var lastTimestamp: String?
    /// Lines longer than the scanner's cap, counted and not parsed.
    public var skippedLines: Int
    /// Lines read.
    public var lines: Int
    /// Evaluations per process, for lines that name theirs: `Memo` from `Memo[48211:3456789]` (Xcode's
    /// console, `log show --style compact`) or `Memo(SwiftUI)[48211]` (syslog) before the view's name, or
    /// from a record's `"processImagePath"` (`--style json`, `ndjson`). Empty when no line names one.
    public var processes: [String: Int]
    /// The memory kills its other lines tell (`memorystatus` kill lines, `killed by jetsam reason`, a debugger's
    /// `EXC_RESOURCE … MEMORY` stop): a log may hold both.
    public var kills = MemoryKillLog()

    public init(
        evaluations: Int = 0, unchangedCount: Int = 0, views: [String: Int] = [:],
        itemCounts: [String: [String: Int]] = [:],
        selfChangedByView: [String: Int] = [:], bursts: Int = 0, fanOut: [FanOutStat] = [],
        firstTimestamp: String? = nil,
        lastTimestamp: String? = nil, skippedLines: Int = 0, lines: Int = 0, processes: [String: Int] = [:]
    ) {
        self.evaluations = evaluations
        self.unchangedCount = unchangedCount
        self.views = views
        self.itemCounts = itemCounts
        self.selfChangedByView = selfChangedByView
        self.bursts = bursts
        self.fanOut = fanOut
        self.firstTimestamp = firstTimestamp
        self.lastTimestamp = lastTimestamp
        self.skippedLines = skippedLines
        self.lines = lines
        self.processes = processes
    }

    /// Whether the log held a change line or a kill line: what makes a file a change log.
    public var holdsLines: Bool { evaluations > 0 || !kills.isEmpty }

    /// Evaluations of lines that name no process.
    public var unattributedEvaluations: Int { evaluations - processes.values.reduce(0, +) }

    /// `processes`, most evaluations first (ties by name): the first is the one the log is named by.
    public var processesByEvaluations: [(name: String, evaluations: Int)] {
        processes.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { ($0.key, $0.value) }
    }
}

/// Streams a change log of any size in bounded memory: console pastes, `log show` default, `--style compact`,
/// `syslog`, `ndjson` and `json` (records are found by their `"eventMessage"` and `"timestamp"` values).
///
/// A line counts when it ends in `<Type>: <items> changed.` or `<Type>: unchanged.`, where `<Type>` is the
/// last depth-0 word before the last `": "` (a user prefix `ParentView body: ` yields `ParentView`) and every
/// item starts with `@`, `_` or `\`. Items split at commas outside `<>`, `()` and `[]`.
///
/// A line names its process with the first word between its timestamp (if any) and the view's name that holds
/// `[`, then digits, then `:` or `]`: the process is that word before the `[`, less a trailing `(…)`
/// (`Memo[48211:3456789]`, `Memo(SwiftUI)[48211]` → `Memo`). A JSON record's `"processImagePath"` names the
/// process of all its lines (its last path component).
///
/// The lines that are no change line may be kill lines (`MemoryKillLines`: `memorystatus` kills, `killed by
/// jetsam reason`, a debugger's `EXC_RESOURCE … MEMORY` stop): read into `ChangeLogSummary.kills`, off the
/// change lines' path, so one log's change lines and kill lines are both read.
///
/// Bursts: when consecutive evaluations both carry a timestamp, they share a burst if they are at most
/// 50 ms apart; otherwise a blank line or any other non-change line ends the burst.
///
/// Memory is bounded by the line cap, 10,000 view types, items and processes of at most 256 characters each, 100,000
/// (view, item) pairs (more are counted under `(other)`), a cache of 16,384 parsed change tails of at most 1 KiB (a
/// repeated tail is hashed, not reparsed) and one of 16,384 line tails of at most 512 bytes (24 MiB of keys at worst);
/// when one is full, both are emptied and fill again with the tails that follow (`flushCaches`); while they do not pay,
/// both are emptied and their storage given back, and a trial fills them to half their capacity at most
/// (`releaseCaches`, which lowered the peak RSS of issue 30's realistic console log and of its 3,000-view shape, the
/// same JSON out). The lines read in parts add twice 4,096 prefixes of at most 512 bytes (4 MiB) and 4,096 short items
/// (160 KiB). A log read in two parts at once (`init(part:)`, `absorb(_:)`) has two scanners whose caches hold half as
/// many tails each. Without the pair cap, 2,000 views × 2,000 items (a 30 MB log) took far more memory than all these
/// bounds together.
///
/// A tail the caches do not hold is parsed as bytes too (`parseChange`). While the caches do not pay (a log with more
/// distinct tails than they hold: issue 30's realistic log, 200 views with 1-4 of ~30 properties in any order, about
/// 440,000 distinct line tails in 1 GiB), a line is read in parts instead (`bypassedChange`): its process column and
/// view's name through a table of their own, each item by its bytes (`ShortItemCache` for the short ones), nothing of
/// the line kept. The byte parse and then `bypassedChange` each made `memhunt inspect --format json` of
/// Benchmarks/changelog_gen.py's logs much faster, the same JSON out (Benchmarks/README.md, the `realistic`
/// row).
///
/// The per-line path touches bytes only: `memchr` finds newlines, the time of day and its fraction are read 8 bytes at
/// a time, the line after its timestamp is hashed 8 bytes at a time into an open-addressed table (compared with
/// `memcmp`; `ByteKeyTable`), counters are flat arrays indexed by ids resolved once per distinct tail, and each
/// distinct date is converted to days once. The line-tail table and the 8-byte time cut the scanner's instructions per
/// line of the benchmark's log; trying first the tail that followed the last line's tail last time (no hash when it is
/// that one) and keeping the last second's milliseconds cut more, and the whole run measured faster. The previous
/// byte-at-a-time scanner (FNV-1a per byte, a `Change` with two arrays copied per line, a dictionary per (view, item)
/// count, the timestamp re-parsed per line) measured several times slower with identical JSON; `Benchmarks/run.py`
/// compares the scanner with mawk counting the same views.
public struct ChangeLogScanner: Sendable {
    /// Longest line parsed, in bytes; longer lines are counted in `skippedLines`.
    public let lineCap: Int
    static let burstGap: Int64 = 50
    static let maxNames = 10_000
    static let maxNameLength = 256
    static let maxPairs = 100_000
    static let maxCached = 16_384
    static let maxCachedKey = 1024
    static let other = "(other)"

    private var splitter: LineSplitter
    /// Whether `finish` has run (and emptied the lookup tables: `dropLookups`).
    private var finished = false
    private var lineNumber = 0
    private var skipped = 0
    private var evaluations = 0
    private var unchanged = 0

    private var views = NameTable()
    private var processes = NameTable()
    private var processEvaluations: [Int] = []
    private var viewEvaluations: [Int] = []
    private var viewSelfChanged: [Int] = []
    private var viewBurstMark: [Int] = []
    private var items = NameTable()

    /// (view, item) counters: `pairCounts[slot]` counts item `pairItem[slot]` of view `pairView[slot]`.
    /// `PairTable` of `view << 32 | item` to the slot: one multiply and a probe, where a `[Int: Int32]`
    /// hashed each key with SipHash (the realistic log: up to four pair look-ups per line that misses the
    /// caches).
    private var pairSlotByKey = PairTable()
    private var pairView: [Int32] = []
    private var pairItem: [Int32] = []
    private var pairCounts: [Int] = []
    /// Pairs counted against `maxPairs` (those under `(other)` are not).
    private var pairs = 0
    /// The id of the item `(other)` once past `maxPairs`: looked up by its `String` on every new pair of a log
    /// of thousands of views before.
    private var otherItem: Int?

    /// A parsed `Type: items changed.` tail. Its items are `itemIDs[itemStart..<itemStart + itemCount]`, their
    /// counters `pairSlots[…]` (-1 until the first evaluation resolves them); `view == -1` marks a tail that is
    /// not a change line.
    private struct Entry {
        var view: Int32
        var isUnchanged: Bool
        var selfChanged: Bool
        var itemStart: Int32
        var itemCount: Int32
        var triggerStart: Int32
        var triggerCount: Int32
    }
    private var entries: [Entry] = []
    private var itemIDs: [Int32] = []
    private var pairSlots: [Int32] = []
    private var triggerIDs: [Int32] = []
    /// Change tails (from the view's name to the end) to the index of their entry in `entries`.
    private var changeTails: ByteKeyTable
    /// Line tails (from the end of the leading timestamp, of lines that have one) to the index of their
    /// entry: a line seen before skips the backward searches for its colon and its view's name, and the hash
    /// of a second, shorter key. Only cached entries are kept; when it is full, lines go by `changeTails`.
    private var lineTails: ByteKeyTable
    /// What a line tail resolves to, indexed by the values of `lineTails` (which are also the order its keys
    /// were added in).
    private var lineTargets: [LineTarget] = []
    /// The bytes of change lines from `tailFrom` to their colon, to their `PrefixTarget`: the lines that miss
    /// the caches resolve their view and process through them (`bypassedChange`). Lines with a leading
    /// timestamp and lines without one have a table each: the same bytes resolve differently in them (the
    /// `changelog` fuzz target found `n: @self changed.` kept from a line of its own and then counted after
    /// `2026-08-12 14:03:05.04`, where the name runs into the timestamp; a process name is read differently
    /// after a timestamp too).
    private var prefixes: PrefixTable
    private var plainPrefixes: PrefixTable
    /// Short items by view, to their ids and pair slots.
    private var itemCache = ShortItemCache()
    /// Whether the caches pay: of each `cacheWindow` change-line candidates, how many were found without a
    /// parse (`cacheHits`); when fewer than three quarters were, the next `bypassWindows * cacheWindow`
    /// candidates are read without looking them up or keeping them (`bypassLeft`), then the caches are tried
    /// again. See `tried(hit:)`.
    private let cacheWindow: Int
    private var cacheTried = 0
    private var cacheHits = 0
    private var bypassLeft = 0
    /// Whether the caches are to be emptied and their storage given back before the next candidate left past
    /// them (`releaseCaches`): set by `tried(hit:)` in the middle of a line whose entry is still in use.
    private var releasePending = false
    /// Candidates of the next trial that fill the emptied caches before its window is judged (`tried(hit:)`):
    /// lines that repeat again would fail a window that starts empty, each first sight a miss.
    private var warmLeft = 0
    /// Windows the caches are left alone for after the next window where they do not pay: 16, twice as many
    /// after each such window in a row, at most `maxBypassWindows`.
    private var bypassWindows = 16
    static let maxBypassWindows = 1024
    /// Change-line candidates parsed while the caches were left alone (for the tests).
    private(set) var bypassed = 0
    /// Tails the caches hold now (for the tests).
    var cachedTails: Int { changeTails.count + lineTails.count }
    /// The last name `processID` resolved and its id: a JSON record's lines, and lines without a timestamp,
    /// are not in `lineTargets` and name their process again on every line.
    private var lastProcess: (name: [UInt8], id: Int32)?
    /// The line target of the last line that had one, or -1.
    private var lastTarget: Int32 = -1

    /// A line tail's entry (-1: no change line), where it names its process (offsets from the tail's start;
    /// empty when it names none), that process's id once a line used it (-1 before): a name is added to the
    /// summary only with an evaluation; and the target of the line that followed it last time (-1: none yet).
    private struct LineTarget {
        var entry: Int32
        var nameStart: Int32
        var nameEnd: Int32
        var process: Int32
        var next: Int32 = -1
    }

    /// A change line's entry, where the line names its process (nil: nowhere) and its `lineTargets` index.
    private struct Found {
        var entry: Int
        var name: Range<Int>?
        var target: Int?
    }

    private struct Burst {
        var id: Int
        var triggerView: Int32
        var trigger: [Int32]
        var views: [Int32]
        var distinct: Int
        var evaluations: Int
        var line: Int
        /// The first evaluation's timestamp, when it had one (`timed`).
        var timestamp: [UInt8]
        var timed: Bool
    }
    /// The open burst, when `inBurst`. Not an optional: `burst!.evaluations += 1` copied and destroyed the whole burst
    /// (its three arrays) on every line, with `closeBurst`'s copies a large share of the work on issue 30's realistic
    /// console log.
    private var burst = Burst(
        id: -1, triggerView: -1, trigger: [], views: [], distinct: 0, evaluations: 0, line: 0, timestamp: [],
        timed: false)
    private var inBurst = false
    private var burstCount = 0
    /// Whether this scanner reads the lines that follow another's (`init(part: .rest)`), to be folded
    /// into it (`absorb(_:)`): such a scanner keeps what the join needs of its first burst.
    private let continues: Bool
    /// A continuing scanner's first burst: all its distinct views in order of first evaluation (`Burst.views`
    /// keeps 20), the burst once it closed, and what the burst rule read at its first evaluation (`separated`,
    /// the millis).
    private var firstBurstViews: [Int32] = []
    private var firstBurst: Burst?
    private var separatedBeforeFirst = false
    private var firstMillis: Int64?
    private var top: [Burst] = []
    /// The fewest distinct views among `top` once it holds 10 (a burst that comes next needs more to enter).
    private var topFloor = 0
    private var lastMillis: Int64?
    private var separated = false
    private var firstTimestamp: [UInt8]?
    private var lastTimestamp: [UInt8] = []
    /// The last timestamp while its bytes are still valid (the chunk being fed, or the line being completed);
    /// always nil between calls, so the scanner stays Sendable in fact.
    nonisolated(unsafe) private var lastTimestampBytes: UnsafeBufferPointer<UInt8>?
    /// The last `yyyy-MM-dd` seen (as 8 + 2 bytes) and its day number: a log has few distinct dates.
    private var cachedDate: (UInt64, UInt16, Int64)?
    /// The last `yyyy-MM-dd HH:mm:ss` (bytes 0-7, 8-15 and 11-18) and its milliseconds.
    private var cachedSecond: (UInt64, UInt64, UInt64, Int64)?

    /// The current record's values (nil: not seen); their buffers are kept from record to record.
    private var recordMessage = JSONValueBuffer()
    private var recordTimestamp = JSONValueBuffer()
    private var recordProcess = JSONValueBuffer()
    private var unescaper = JSONStringUnescaper()
    /// The kill lines among the lines that are no change line.
    private var killLines = MemoryKillLines()

    /// A scanner that skips lines longer than `lineCap` bytes.
    public init(lineCap: Int = 65_536) { self.init(lineCap: lineCap, cacheCapacity: Self.maxCached) }

    /// Which part of a log read in two parts a scanner reads: the first, or the rest, which `absorb(_:)` folds
    /// into the first. The rest's first line is not the file's (no byte order mark), and its scanner keeps what
    /// joining its first burst to the first part's last takes.
    public enum Part: Sendable {
        case first, rest
    }

    /// A scanner for one part of a log read in two: its caches hold half as many tails, so the two take the memory of
    /// one (two with full caches took more).
    public init(part: Part) {
        self.init(lineCap: 65_536, cacheCapacity: Self.maxCached / 2, continuing: part == .rest)
    }

    /// A scanner whose caches hold `cacheCapacity` tails each (a power of two): small ones let tests and the
    /// fuzz target reach the paths of full caches.
    init(lineCap: Int, cacheCapacity: Int, continuing: Bool = false) {
        self.lineCap = max(lineCap, 16)
        splitter = LineSplitter(cap: self.lineCap)
        continues = continuing
        killLines = MemoryKillLines(journaling: continuing)
        changeTails = ByteKeyTable(capacity: cacheCapacity)
        lineTails = ByteKeyTable(capacity: cacheCapacity)
        // A log has few process columns and views' names, up to 16,384 of each kind (2 MiB of keys at most): an
        // app of thousands of views has more than the 4,096 kept before, and the table emptied when full kept
        // hardly any (`prefixTarget`).
        prefixes = PrefixTable(capacity: min(2 * cacheCapacity, Self.maxPrefixes))
        plainPrefixes = PrefixTable(capacity: min(2 * cacheCapacity, Self.maxPrefixes))
        cacheWindow = max(2, cacheCapacity / 4)
    }

    /// Consumes the next chunk; lines may span chunks.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        precondition(!finished, "a change log fed after its summary")
        defer { keepLastTimestamp() }
        // The splitter is taken out while it calls back into this scanner, and put back after.
        var splitter = self.splitter
        self.splitter = LineSplitter(cap: lineCap)
        splitter.feed(chunk) { line, tooLong, copied in
            completeLine(line, overflow: tooLong)
            if copied { keepLastTimestamp() }
        }
        self.splitter = splitter
    }

    /// Consumes the next chunk; lines may span chunks.
    public mutating func feed(_ chunk: ArraySlice<UInt8>) {
        chunk.withUnsafeBytes { feed($0) }
    }

    /// Ends the input (a last line without newline counts) and returns the summary. Call once: the tables that
    /// only find what was seen are emptied first (`dropLookups`), so the scanner takes no more input after it.
    public mutating func finish() -> ChangeLogSummary {
        precondition(!finished, "a change log's summary taken twice")
        finished = true
        endInput()
        closeBurst()
        dropLookups()
        func name(_ id: Int32) -> String { views.names[Int(id)] }
        var summary = ChangeLogSummary(
            evaluations: evaluations, unchangedCount: unchanged, bursts: burstCount, skippedLines: skipped,
            lines: lineNumber)
        var itemCounts = [[String: Int]](repeating: [:], count: views.names.count)
        for slot in pairCounts.indices {
            itemCounts[Int(pairView[slot])][items.names[Int(pairItem[slot])]] = pairCounts[slot]
        }
        for (id, view) in views.names.enumerated() {
            summary.views[view] = viewEvaluations[id]
            if viewSelfChanged[id] > 0 { summary.selfChangedByView[view] = viewSelfChanged[id] }
            summary.itemCounts[view] = itemCounts[id]
        }
        summary.fanOut = top.sorted { Self.ranks($0, above: $1) }.map { burst in
            FanOutStat(
                triggerView: name(burst.triggerView), triggerItems: burst.trigger.map { items.names[Int($0)] },
                views: burst.views.map(name), distinctViews: burst.distinct, evaluations: burst.evaluations,
                line: burst.line, timestamp: burst.timed ? String(decoding: burst.timestamp, as: UTF8.self) : nil)
        }
        summary.firstTimestamp = firstTimestamp.map { String(decoding: $0, as: UTF8.self) }
        summary.lastTimestamp = firstTimestamp == nil ? nil : String(decoding: lastTimestamp, as: UTF8.self)
        for (id, process) in processes.names.enumerated() { summary.processes[process] = processEvaluations[id] }
        summary.kills = killLines.result
        return summary
    }

    /// Empties the tables that find names, pairs, tails and prefixes by their bytes, before the summary's
    /// dictionaries are built: their memory is given back first. A log of 3,000 views at random (57 MB, read in
    /// two parts) held about 8 MB of them when its 90,000 (view, item) counts became 4.8 MB of dictionaries.
    private mutating func dropLookups() {
        changeTails.release()
        lineTails.release()
        lineTargets = []
        prefixes.keys.release()
        prefixes.targets = []
        plainPrefixes.keys.release()
        plainPrefixes.targets = []
        itemCache = ShortItemCache()
        pairSlotByKey = PairTable()
        entries = []
        itemIDs = []
        pairSlots = []
        triggerIDs = []
        views.dropLookups()
        items.dropLookups()
        processes.dropLookups()
    }

    /// The end of the input: a last line without a newline, and a JSON record no `}` closed.
    private mutating func endInput() {
        var splitter = self.splitter
        self.splitter = LineSplitter(cap: lineCap)
        splitter.finish { line, tooLong, _ in
            completeLine(line, overflow: tooLong)
            keepLastTimestamp()
        }
        self.splitter = splitter
        flushRecord()
    }

    // MARK: - Two parts of one log

    /// Folds in `second`, a scanner of the `.rest` part fed the lines that follow this one's, so
    /// that `finish()` gives what one scanner fed both parts gives: true. Call `finish()` next, and nothing
    /// else. False, with nothing changed, where the two cannot say that exactly; the caller then feeds the
    /// second part to this scanner:
    /// - this scanner's input does not end at a line's end, or ends inside a JSON record that holds a value
    ///   it reads (the record's other lines are the second's);
    /// - `second` read more than 20,000 kill records and problems (it keeps them as read, before any join,
    ///   for this one to read after its own: `MemoryKillLines.replay`);
    /// - the two hold more names or pairs together than one scanner counts apart (past a cap, the order of
    ///   first sight decides what goes under `(other)`).
    ///
    /// Names are added in the order `second` first saw them, after this one's: one scanner's order. The
    /// burst open at this one's end goes on into `second`'s first one when the burst rule says so (the gap
    /// between their evaluations' millis, or a line between them that is no change line): all of that
    /// burst's views are kept for this. Tops join because `keep` keeps the 10 highest bursts whatever the
    /// order they come in.
    public mutating func absorb(_ second: ChangeLogScanner) -> Bool {
        precondition(!finished && !second.finished, "a finished change log absorbed or absorbing")
        var second = second
        second.endInput()
        guard !continues, second.continues, splitter.isEmpty, !recordMessage.isSet,
            !recordTimestamp.isSet,
            !recordProcess.isSet, second.killLines.journal != nil,
            views.names.count + second.views.names.count < Self.maxNames,
            items.names.count + second.items.names.count < Self.maxNames,
            processes.names.count + second.processes.names.count < Self.maxNames,
            pairs + second.pairs < Self.maxPairs
        else { return false }
        let viewMap = second.views.names.map { Int32(viewCounted(views.id($0))) }
        let itemMap = second.items.names.map { Int32(items.id($0).id) }
        let processMap = second.processes.names.map { Int32(processCounted(processes.id($0))) }
        for (id, count) in second.viewEvaluations.enumerated() { viewEvaluations[Int(viewMap[id])] += count }
        for (id, count) in second.viewSelfChanged.enumerated() { viewSelfChanged[Int(viewMap[id])] += count }
        for (id, count) in second.processEvaluations.enumerated() {
            processEvaluations[Int(processMap[id])] += count
        }
        for slot in second.pairCounts.indices {
            let mine = pairSlot(
                view: Int(viewMap[Int(second.pairView[slot])]), item: Int(itemMap[Int(second.pairItem[slot])]))
            pairCounts[mine] += second.pairCounts[slot]
        }
        let lineOffset = lineNumber
        // The second's kill records join with this one's last ones, as one reader's would.
        _ = killLines.replay(second.killLines, lineOffset: lineOffset)
        lineNumber += second.lineNumber
        skipped += second.skipped
        unchanged += second.unchanged
        evaluations += second.evaluations
        if firstTimestamp == nil { firstTimestamp = second.firstTimestamp }
        if second.firstTimestamp != nil { lastTimestamp = second.lastTimestamp }
        guard second.burstCount > 0 else {
            separated = separated || second.separated
            return true
        }
        // Whether the second's first evaluation goes on with the burst open here (`evaluated`'s rule).
        let joins: Bool
        if !inBurst {
            joins = false
        } else if let millis = second.firstMillis, let lastMillis {
            joins = abs(millis - lastMillis) <= Self.burstGap
        } else {
            joins = !(separated || second.separatedBeforeFirst)
        }
        let idOffset = burstCount - (joins ? 1 : 0)
        func mapped(_ burst: Burst) -> Burst {
            var burst = burst
            burst.id += idOffset
            burst.line += lineOffset
            burst.triggerView = viewMap[Int(burst.triggerView)]
            burst.trigger = burst.trigger.map { itemMap[Int($0)] }
            burst.views = burst.views.map { viewMap[Int($0)] }
            return burst
        }
        let secondFirst = second.inBurst && second.burst.id == 0 ? second.burst : second.firstBurst
        if joins, let secondFirst {
            burst.evaluations += secondFirst.evaluations
            for view in second.firstBurstViews.map({ Int(viewMap[Int($0)]) }) where viewBurstMark[view] != burst.id {
                viewBurstMark[view] = burst.id
                burst.distinct += 1
                if burst.views.count < 20 { burst.views.append(Int32(view)) }
            }
        }
        // The burst open here closes before the second's are kept: `closeBurst` takes it to come after all kept.
        let secondGoesOn = !(joins && second.burst.id == 0)
        if secondGoesOn { closeBurst() }
        for kept in second.top where !(joins && kept.id == 0) { keep(mapped(kept)) }
        if secondGoesOn {
            burst = mapped(second.burst)
            inBurst = second.inBurst
        }
        burstCount += second.burstCount - (joins ? 1 : 0)
        lastMillis = second.lastMillis
        separated = second.separated
        return true
    }

    /// Scans all of `bytes`; fails when no line is a change line or a kill line.
    public static func parse(_ bytes: [UInt8]) -> Result<ChangeLogSummary, FormatError> {
        var scanner = ChangeLogScanner()
        scanner.feed(bytes[...])
        let summary = scanner.finish()
        guard summary.holdsLines else {
            return .failure(FormatError("no '<Type>: … changed.' or '<Type>: unchanged.' line"))
        }
        return .success(summary)
    }

    /// Whether the complete lines of `prefix` include a change line or a kill line (`MemoryKillLines`).
    public static func matches(_ prefix: ArraySlice<UInt8>) -> Bool {
        let head = prefix.prefix(65_536)
        let end = head.count < 65_536 ? head.endIndex : (head.lastIndex(of: 10) ?? head.startIndex)
        var scanner = ChangeLogScanner()
        scanner.feed(head[..<end])
        let summary = scanner.finish()
        return summary.holdsLines
    }

    // MARK: - Lines

    private mutating func completeLine(_ line: UnsafeBufferPointer<UInt8>, overflow: Bool) {
        lineNumber += 1
        guard !overflow, line.count <= lineCap else {
            skipped += 1
            return
        }
        // A UTF-8 byte order mark (a Windows editor's save) is not part of the first line: with it, the first
        // view's name began with U+FEFF and its line was not counted.
        let bom = lineNumber == 1 && !continues && line.starts(with: [0xEF, 0xBB, 0xBF])
        handle(bom ? UnsafeBufferPointer(rebasing: line[3...]) : line, timestamp: nil, json: true)
    }

    /// One line; `process`, when given, names the process of a JSON record's lines (from `"processImagePath"`).
    private mutating func handle(
        _ raw: UnsafeBufferPointer<UInt8>, timestamp: UnsafeBufferPointer<UInt8>?, json: Bool,
        process: ArraySlice<UInt8>? = nil
    ) {
        var end = raw.count
        while end > 0, raw[end - 1] == 32 || raw[end - 1] == 13 || raw[end - 1] == 9 { end -= 1 }
        let line = UnsafeBufferPointer(rebasing: raw[0..<end])
        var first = 0
        while first < end, line[first] == 32 || line[first] == 9 { first += 1 }
        guard first < end else {
            separated = true
            return
        }
        if Self.endsLikeChange(line) {
            // The timestamp first: its end is where the line's cached tail starts.
            let stamp = timestamp == nil ? leadingTimestamp(line) : nil
            let tailFrom = stamp?.length ?? 0
            // The record's timestamp, or the line's own.
            let at = timestamp ?? stamp.map { UnsafeBufferPointer(rebasing: line[0..<$0.length]) }
            let millis = timestamp.map { leadingTimestamp($0)?.millis } ?? stamp?.millis
            let counted: Bool
            if bypassLeft > 0 {
                if releasePending { releaseCaches() }
                bypassLeft -= 1
                bypassed += 1
                lastTarget = -1
                counted = bypassedChange(line, tailFrom: tailFrom, timestamp: at, millis: millis, process: process)
            } else if let found = change(line, tailFrom: tailFrom) {
                record(
                    found.entry, process: process.map { processID($0) } ?? lineProcess(line, found), timestamp: at,
                    millis: millis)
                counted = true
            } else {
                counted = false
            }
            if counted { return }
        }
        if json, Self.opensJSON(line[first]), Self.isJSON(line, first: first) {
            // A quoted line that holds none of the record's keys may be a kill line in quotes (a paste): read as one.
            if !jsonLine(line, first: first), MemoryKillLines.mayBeKill(line) {
                killLines.take(line, number: lineNumber, timestamp: timestamp)
            }
        } else {
            // A change line cut by an elision (`MessageRow: @self, @identity, _mess…`, a console's cut): the
            // body was evaluated; it counts with the items written whole, the cut one left out.
            if let cut = Self.elidedChangeCut(line),
                counts(Array(line[0..<cut]) + Array(" changed.".utf8), timestamp: timestamp, process: process)
            {
                return
            }
            // Elisions inside the item list (`RootView: … _a, _b … changed.`, a person's cut): one evaluation,
            // counted with the items written whole.
            if let whole = Self.elidedItems(line), counts(whole, timestamp: timestamp, process: process) { return }
            separated = true
            // Off the change lines' path: a line that is none may be a kill line.
            if MemoryKillLines.mayBeKill(line) { killLines.take(line, number: lineNumber, timestamp: timestamp) }
        }
    }

    /// Handles `whole`, a line rewritten from an elided one, as a line of the log: true when it counted as an
    /// evaluation.
    private mutating func counts(
        _ whole: [UInt8], timestamp: UnsafeBufferPointer<UInt8>?, process: ArraySlice<UInt8>?
    ) -> Bool {
        let counted = evaluations
        whole.withUnsafeBufferPointer { bytes in
            handle(bytes, timestamp: timestamp, json: false, process: process)
            // These bytes go away now: keep the timestamp the record took from them, if it did (it may
            // still point into an earlier buffer, which is not this call's to read).
            if let kept = lastTimestampBytes?.baseAddress, let base = bytes.baseAddress,
                kept >= base, kept < base + bytes.count
            {
                keepLastTimestamp()
            }
        }
        return evaluations > counted
    }

    /// Whether a line starting with `byte` may be a line of `log show`'s JSON (`{`, `}`, `[`, `]` or `"`). A switch:
    /// `"{}[]\"".utf8.contains(byte)` went through `Sequence.contains` on a `String.UTF8View`, a noticeable share of a
    /// `--style json` scan, gone from the profile after, and the scan measured faster in wall time, the same JSON out.
    @inline(__always)
    private static func opensJSON(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "\""): true
        default: false
        }
    }

    /// Whether a line that `opensJSON` is one of `log show`'s JSON: one that opens with `[` is when what follows
    /// (past blanks) is nothing or `{` (`[{`, the array's start). A subsystem's line in a console paste,
    /// `[Network] request 12 finished`, or a printed Swift array or dictionary (`[1, 2]`, `["a": 1]`), was read
    /// as JSON, found no key and left the burst open: the views before and after it were counted as one burst
    /// where the scanner's rule ends it.
    private static func isJSON(_ line: UnsafeBufferPointer<UInt8>, first: Int) -> Bool {
        guard line[first] == UInt8(ascii: "[") else { return true }
        var index = first + 1
        while index < line.count, line[index] == 32 || line[index] == 9 { index += 1 }
        return index == line.count || line[index] == UInt8(ascii: "{")
    }

    /// Where to cut a line that ends in an elision (`…` or `...`) after at least one whole item: at its last
    /// `", "`; nil for any other line.
    private static func elidedChangeCut(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = line.count
        let ellipsis =
            n > 3 && line[n - 3] == 0xE2 && line[n - 2] == 0x80 && line[n - 1] == 0xA6
            || n > 3 && line[n - 3] == 46 && line[n - 2] == 46 && line[n - 1] == 46
        guard ellipsis else { return nil }
        var index = n - 4
        while index > 0, !(line[index] == 44 && line[index + 1] == 32) { index -= 1 }
        return index > 0 ? index : nil
    }

    private static let changedSuffix = Array(" changed.".utf8)

    /// A change line whose item list holds elisions (`…` or `...`): the line with the elided items and the
    /// elisions taken out (`RootView: … _a, _b … changed.` is `RootView: _a, _b changed.`, an item cut mid-word
    /// dropped); nil when it holds none, or no item is left whole.
    static func elidedItems(_ line: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        // Every line that is no change line comes here: the test of its end allocates nothing.
        let suffix = changedSuffix
        let n = line.count
        guard n > suffix.count + 2, line[(n - suffix.count)...].elementsEqual(suffix) else { return nil }
        let end = n - suffix.count
        // The item list follows the last ": " before ` changed.` (an item has no colon and space).
        var colon = end - 2
        while colon > 0, !(line[colon] == 58 && line[colon + 1] == 32) { colon -= 1 }
        guard colon > 0 else { return nil }
        let items = Array(line[(colon + 2)..<end])
        let dots = Array("...".utf8)
        let ellipsis: [UInt8] = [0xE2, 0x80, 0xA6]
        func holds(_ bytes: ArraySlice<UInt8>, _ mark: [UInt8]) -> Bool {
            bytes.count >= mark.count
                && (0...(bytes.count - mark.count)).contains { offset in
                    bytes[(bytes.startIndex + offset)..<(bytes.startIndex + offset + mark.count)].elementsEqual(mark)
                }
        }
        guard holds(items[...], ellipsis) || holds(items[...], dots) else { return nil }
        var kept: [ArraySlice<UInt8>] = []
        for var item in items.split(separator: 44).map({ $0.drop { $0 == 32 } }) {
            // `… _a`: the elision stands for items before this one; `_b …`, for items after it.
            for mark in [ellipsis, dots] where item.starts(with: mark + [32]) { item = item.dropFirst(mark.count + 1) }
            for mark in [ellipsis, dots] where item.reversed().starts(with: ([32] + mark).reversed()) {
                item = item.dropLast(mark.count + 1)
            }
            if item.isEmpty || holds(item, ellipsis) || holds(item, dots) || item.contains(32) { continue }
            kept.append(item)
        }
        guard !kept.isEmpty else { return nil }
        var whole = Array(line[0..<(colon + 2)])
        for (index, item) in kept.enumerated() {
            if index > 0 { whole += [44, 32] }
            whole += item
        }
        return whole + suffix
    }

    /// Whether `line` ends in ` changed.` or `: unchanged.` (a change line must; the rest is `change`'s).
    @inline(__always)
    private static func endsLikeChange(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = line.count
        guard n > 11, let base = line.baseAddress,
            UnsafeRawPointer(base + n - 8).loadUnaligned(as: UInt64.self) == changedWord
        else { return false }
        return line[n - 9] == 32
            || (line[n - 11] == 32 && line[n - 10] == UInt8(ascii: "u") && line[n - 9] == UInt8(ascii: "n"))
    }

    // MARK: - Change lines

    /// The entry of the `Type: items changed.` tail of a line that `endsLikeChange`, parsed on first sight and
    /// cached, or nil when the line is not a change line. When the cache is full or the tail too long to keep,
    /// the entry is parsed into the last slot of `entries` and dropped after it is recorded (`uncached`).
    ///
    /// A line with a leading timestamp ending at `tailFrom` is looked up by its bytes after it first. Which
    /// entry such a line resolves to depends on those bytes only: a view's name that would reach back before
    /// `tailFrom` takes in the timestamp's `HH:mm:ss` (no space, tab or bracket there), whose `:` no view name
    /// has, so such a line is no change line whatever its timestamp. A line without one is not looked up so:
    /// there the same bytes may start a valid name at the line's start (`n: @self changed.` after
    /// `2026-08-12 14:03:05.04` is none; on a line of its own it is view `n`), which the `changelog` fuzz
    /// target found (`Fixtures/fuzz/changelog-tail-after-timestamp.log`).
    ///
    /// On the benchmark's log, resolving a line to its entry was a large part of the scanner's work per line, much of
    /// it the backward searches for the colon and the view's name; looking the line tails up first cut it down.
    ///
    /// The line names its process (if at all) between `tailFrom` and the view's name, so a line tail also
    /// keeps where.
    private mutating func change(_ line: UnsafeBufferPointer<UInt8>, tailFrom: Int) -> Found? {
        if tailFrom > 0 { return lineTailEntry(line, tailFrom: tailFrom) }
        guard let (index, _, viewStart) = changeEntry(line), entries[index].view >= 0 else { return nil }
        return Found(entry: index, name: Self.processName(line, from: tailFrom, to: viewStart), target: nil)
    }

    // MARK: - Lines whose tails rarely repeat

    /// A change-line candidate while the caches are left alone (`tried(hit:)`): true when it was a change line
    /// and counted.
    ///
    /// Its parts are resolved apart: the bytes from `tailFrom` to its colon (the process column and the view's
    /// name; a log has few of them) through a table of prefixes, each item by its bytes (`NameTable`), each (view,
    /// item) pair through `PairTable`; nothing of the line is kept. The line and change-tail caches key the
    /// whole tail, and issue 30's realistic console log (200 views, 1-4 of ~30 properties a line, in any order)
    /// has too many of those to keep; parsing each tail into an entry that was dropped after it was recorded
    /// (the way before) searched back for the view's name, checked its bytes and hashed it again on every line.
    /// An items text with a byte that is not ASCII goes that way still (`parseChangeByCharacters`).
    private mutating func bypassedChange(
        _ line: UnsafeBufferPointer<UInt8>, tailFrom: Int, timestamp: UnsafeBufferPointer<UInt8>?,
        millis: Int64?, process: ArraySlice<UInt8>?
    ) -> Bool {
        guard let (colon, isUnchanged) = Self.changeColon(line) else { return false }
        // A colon inside the leading timestamp (a line of its items alone): the way before.
        guard colon >= tailFrom else {
            return parsedChange(line, tailFrom: tailFrom, timestamp: timestamp, millis: millis, process: process)
        }
        let from = colon + 2
        let to = isUnchanged ? from : line.count - 9
        // Items are not empty and commas part them: at most half the text's bytes, rounded up. On the stack for a line
        // of ordinary length (arrays kept from line to line cost their uniqueness checks).
        return withUnsafeTemporaryAllocation(of: SplitItem.self, capacity: (to - from) / 2 + 1) { split in
            guard let items = split.baseAddress else { return false }
            var count = 0
            if !isUnchanged {
                guard let split = Self.splitItems(line, from: from, to: to, into: items) else {
                    return parsedChange(
                        line, tailFrom: tailFrom, timestamp: timestamp, millis: millis, process: process)
                }
                count = split
                guard count > 0 else { return false }
                for index in 0..<count {
                    let head = line[Int(items[index].start)]
                    guard head == UInt8(ascii: "@") || head == UInt8(ascii: "_") || head == UInt8(ascii: "\\")
                    else { return false }
                }
            }
            // The items are valid: the view is added now, if its name is one (as `parseChange` adds it).
            let target = prefixTarget(line, tailFrom: tailFrom, colon: colon)
            guard target.view >= 0 else { return false }
            let view = Int(target.view)
            var selfChanged = false
            // The items first, then their pairs (as `parseChange` and `record` do: past the pair cap, `(other)`
            // is an item too). A short item seen with this view before is one look-up in `itemCache`.
            for index in 0..<count {
                let bytes = items[index].bytes(in: line)
                if let cached = itemCache.find(bytes, view: view) {
                    items[index].item = cached.item
                    items[index].slot = cached.slot
                    if cached.isSelf { selfChanged = true }
                } else {
                    items[index].item = Int32(self.items.id(bytes: bytes).id)
                    items[index].slot = -1
                    if Self.equals(bytes, "@self") { selfChanged = true }
                }
            }
            let processID: Int32
            if let process {
                processID = self.processID(process)
            } else if target.process >= 0 {
                processID = target.process
            } else if target.processEnd > target.processStart {
                processID = self.processID(
                    line[Int(target.processStart) + tailFrom..<Int(target.processEnd) + tailFrom])
                if let index = target.index {
                    if tailFrom > 0 {
                        prefixes.targets[index].process = processID
                    } else {
                        plainPrefixes.targets[index].process = processID
                    }
                }
            } else {
                processID = -1
            }
            for index in 0..<count {
                var slot = Int(items[index].slot)
                if slot < 0 {
                    slot = pairSlot(view: view, item: Int(items[index].item))
                    let bytes = items[index].bytes(in: line)
                    itemCache.keep(
                        bytes, view: view, item: items[index].item, slot: Int32(slot),
                        isSelf: Self.equals(bytes, "@self"))
                }
                pairCounts[slot] += 1
            }
            if evaluated(
                view: view, isUnchanged: isUnchanged, selfChanged: selfChanged, process: processID,
                timestamp: timestamp, millis: millis)
            {
                // `@dependencies` and the items that are no `@` one changed: what triggered the burst.
                for index in 0..<count {
                    let bytes = items[index].bytes(in: line)
                    if bytes[0] != UInt8(ascii: "@") || Self.equals(bytes, "@dependencies") {
                        burst.trigger.append(items[index].item)
                    }
                }
            }
            return true
        }
    }

    /// An item of a line: where it is, its id and its pair's slot (-1: not known yet).
    struct SplitItem {
        var start: Int32
        var end: Int32
        var item: Int32 = 0
        var slot: Int32 = -1

        @inline(__always)
        func bytes(in line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: line[Int(start)..<Int(end)])
        }
    }

    /// `splitItemBytes` into `items`: how many there are, or nil when a byte is not ASCII. `items` holds at
    /// least `(to - from) / 2 + 1`.
    ///
    /// Eight bytes a step: a word without a bracket or a byte that is not ASCII (most of them) is split at its commas
    /// found at once, the others byte by byte. A switch per byte was a noticeable share of issue 30's realistic console
    /// log, at many instructions a byte.
    static func splitItems(
        _ line: UnsafeBufferPointer<UInt8>, from: Int, to: Int, into items: UnsafeMutablePointer<SplitItem>
    ) -> Int? {
        guard let base = line.baseAddress else { return 0 }
        var count = 0
        var depth = 0
        var start = from
        var index = from
        @inline(__always) func add(_ end: Int) {
            var lower = start
            var upper = end
            while lower < upper, isSpace(base[lower]) { lower += 1 }
            while upper > lower, isSpace(base[upper - 1]) { upper -= 1 }
            if lower < upper {
                items[count] = SplitItem(start: Int32(lower), end: Int32(upper))
                count += 1
            }
        }
        @inline(__always) func byte(_ byte: UInt8, at position: Int) -> Bool {
            if byte >= 0x80 { return false }
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: "("), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: ">"), UInt8(ascii: ")"), UInt8(ascii: "]"): depth = max(0, depth - 1)
            case UInt8(ascii: ",") where depth == 0:
                add(position)
                start = position + 1
            default: break
            }
            return true
        }
        let raw = UnsafeRawPointer(base)
        while index + 8 <= to {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            // Any byte that is `(` or `)`, `<` or `>`, `[`, `]`, or not ASCII (may flag a byte above a match too:
            // that word goes byte by byte, which is always right).
            let rare =
                Self.zeroBytes(word & 0xFEFE_FEFE_FEFE_FEFE ^ 0x2828_2828_2828_2828)
                | Self.zeroBytes(word & 0xFDFD_FDFD_FDFD_FDFD ^ 0x3C3C_3C3C_3C3C_3C3C)
                | Self.zeroBytes(word ^ 0x5B5B_5B5B_5B5B_5B5B) | Self.zeroBytes(word ^ 0x5D5D_5D5D_5D5D_5D5D)
                | word & 0x8080_8080_8080_8080
            if rare != 0 {
                for position in index..<index + 8 where !byte(base[position], at: position) { return nil }
            } else if depth == 0 {
                // Exactly the commas: a byte XOR `,` that is zero.
                let other = word ^ 0x2C2C_2C2C_2C2C_2C2C
                var commas =
                    ~(((other & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | other) & 0x8080_8080_8080_8080
                while commas != 0 {
                    let position = index + commas.trailingZeroBitCount / 8
                    add(position)
                    start = position + 1
                    commas &= commas &- 1
                }
            }
            index += 8
        }
        while index < to {
            guard byte(base[index], at: index) else { return nil }
            index += 1
        }
        add(to)
        return count
    }

    /// The high bit of each byte of `word` that may be zero: every zero byte, and possibly a byte above one.
    @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    /// A change-line candidate parsed into an entry that is dropped after it is recorded (the caches left
    /// alone): true when it was a change line and counted.
    private mutating func parsedChange(
        _ line: UnsafeBufferPointer<UInt8>, tailFrom: Int, timestamp: UnsafeBufferPointer<UInt8>?,
        millis: Int64?, process: ArraySlice<UInt8>?
    ) -> Bool {
        guard let (index, _, viewStart) = changeEntry(line, lookUp: false), entries[index].view >= 0 else {
            return false
        }
        let found = Found(entry: index, name: Self.processName(line, from: tailFrom, to: viewStart), target: nil)
        record(
            index, process: process.map { processID($0) } ?? lineProcess(line, found),
            timestamp: timestamp, millis: millis)
        return true
    }

    /// What the bytes of a change line from `tailFrom` to its colon resolve to: the view, where the line names
    /// its process and that process's id once used. They depend on these bytes alone, unless the view's name
    /// reaches back before `tailFrom` (into a leading timestamp): such a line is worked out and not kept.
    private struct PrefixTarget {
        /// The view's id; -1: the name is no view's.
        var view: Int32
        /// The process's name, from `tailFrom` (empty: none), and its id once used (-1 before).
        var processStart: Int32 = 0
        var processEnd: Int32 = 0
        var process: Int32 = -1
        /// Its index in its table's `targets`; nil for one that is not kept.
        var index: Int?
    }

    /// Prefixes (`ByteKeyTable`, 2 MiB of keys at most) to their targets; emptied when full.
    private struct PrefixTable {
        var keys: ByteKeyTable
        var targets: [PrefixTarget] = []
        init(capacity: Int) { keys = ByteKeyTable(capacity: capacity, byteBudget: 2 << 20) }
    }

    /// Prefixes kept at most per table: the cap on views' names (10,000) with room for a few process columns.
    static let maxPrefixes = 16_384

    /// The `PrefixTarget` of `line[tailFrom..<colon]`, found in its table or worked out (and kept when it
    /// may be). Called once the line's items are valid: a view's name seen for the first time is added.
    private mutating func prefixTarget(_ line: UnsafeBufferPointer<UInt8>, tailFrom: Int, colon: Int) -> PrefixTarget {
        let key = UnsafeBufferPointer(rebasing: line[tailFrom..<colon])
        let hash = ByteKeyTable.hash(key)
        var found = tailFrom > 0 ? prefixes.keys.lookup(key, hash: hash) : plainPrefixes.keys.lookup(key, hash: hash)
        if let index = found.value {
            return tailFrom > 0 ? prefixes.targets[Int(index)] : plainPrefixes.targets[Int(index)]
        }
        let start = Self.viewStart(line, colon: colon)
        var target = PrefixTarget(view: -1)
        if let name = Self.viewName(line, start: start, colon: colon) { target.view = Int32(viewID(name, in: line)) }
        if target.view >= 0, let name = Self.processName(line, from: tailFrom, to: start) {
            target.processStart = Int32(name.lowerBound - tailFrom)
            target.processEnd = Int32(name.upperBound - tailFrom)
        }
        guard start >= tailFrom, key.count <= Self.maxLineTail else { return target }
        func keep(_ table: inout PrefixTable) {
            if !table.keys.hasRoom(for: key.count) {
                table.keys.removeAll()
                table.targets.removeAll(keepingCapacity: true)
                found = table.keys.lookup(key, hash: hash)
            }
            target.index = table.targets.count
            table.keys.insert(key, hash: hash, slot: found.slot, value: Int32(table.targets.count))
            table.targets.append(target)
        }
        if tailFrom > 0 { keep(&prefixes) } else { keep(&plainPrefixes) }
        return target
    }

    /// Counts one change-line candidate looked up in the caches, `hit` when no parse was needed. At the end of each
    /// window where fewer than three quarters were hits, the caches are left alone for the next 16 windows, twice as
    /// many after each such window in a row (at most `maxBypassWindows`): a log whose lines rarely repeat (issue 30's
    /// realistic console log: 7,218 of 13,517 change lines in a 2 MB stretch had a tail not seen earlier in it) paid
    /// for two look-ups that missed in tables of 16,384 tails and for keeping every tail, on top of the parse. Measured
    /// before and after with the same JSON out, the realistic console log and `log show --style ndjson` ran faster, and
    /// the benchmark's repeating log, whose windows are all hits, the same. Leaving the caches off for good was worse
    /// there.
    ///
    /// Three quarters and the doubling came with `bypassedChange`, which made a line past the caches cost less than a
    /// window of half misses: at "half", many change lines still went through the caches (windows that passed at
    /// 50-75 % hits), each costing more than a line past them; at three quarters, far fewer did, and the whole run cost
    /// less. The benchmark's log: every window passes, the same before and after.
    @inline(__always)
    private mutating func tried(hit: Bool) {
        if warmLeft > 0 {
            warmLeft -= 1
            return
        }
        cacheTried += 1
        if hit { cacheHits += 1 }
        guard cacheTried == cacheWindow else { return }
        if cacheHits * 4 < cacheTried * 3 {
            bypassLeft = bypassWindows * cacheWindow
            bypassWindows = min(2 * bypassWindows, Self.maxBypassWindows)
            releasePending = true
        } else {
            bypassWindows = 16
        }
        cacheTried = 0
        cacheHits = 0
    }

    /// A change line with a timestamp ending at `tailFrom`: found by its bytes after the timestamp in
    /// `lineTails`, or by its change tail (`changeEntry`) and then kept there when that entry stays.
    ///
    /// A log repeats its lines in the same order (a gesture's burst, again and again), so the line that followed the
    /// last line's tail last time is tried first, by comparing bytes: only when it differs is the line hashed and
    /// looked up. The benchmark's log: hashing and looking up were a larger share of a run's samples than the scanner's
    /// other work on a line.
    private mutating func lineTailEntry(_ line: UnsafeBufferPointer<UInt8>, tailFrom: Int) -> Found? {
        let whole = UnsafeBufferPointer(rebasing: line[tailFrom..<line.count])
        var last = Int(lastTarget)
        let guess = last >= 0 ? Int(lineTargets[last].next) : -1
        if guess >= 0, lineTails.key(guess, equals: whole) {
            lastTarget = Int32(guess)
            tried(hit: true)
            return found(lineTargets[guess], target: guess, tailFrom: tailFrom)
        }
        let wholeHash = ByteKeyTable.hash(whole)
        var seen = lineTails.lookup(whole, hash: wholeHash)
        if let value = seen.value {
            if last >= 0 { lineTargets[last].next = value }
            lastTarget = value
            tried(hit: true)
            return found(lineTargets[Int(value)], target: Int(value), tailFrom: tailFrom)
        }
        lastTarget = -1
        if lineTails.isFull || changeTails.isFull {
            flushCaches()
            last = -1
            seen = lineTails.lookup(whole, hash: wholeHash)
        }
        guard let (index, cached, viewStart) = changeEntry(line) else { return nil }
        let isChange = entries[index].view >= 0
        let name = isChange ? Self.processName(line, from: tailFrom, to: viewStart) : nil
        var target: Int?
        if cached, !lineTails.isFull, whole.count <= Self.maxLineTail {
            target = lineTargets.count
            if last >= 0 { lineTargets[last].next = Int32(lineTargets.count) }
            lastTarget = Int32(lineTargets.count)
            lineTails.insert(whole, hash: wholeHash, slot: seen.slot, value: Int32(lineTargets.count))
            lineTargets.append(
                LineTarget(
                    entry: isChange ? Int32(index) : -1, nameStart: Int32((name?.lowerBound ?? tailFrom) - tailFrom),
                    nameEnd: Int32((name?.upperBound ?? tailFrom) - tailFrom), process: -1))
        }
        return isChange ? Found(entry: index, name: name, target: target) : nil
    }

    /// The change line a line target resolves to, or nil for a tail that is no change line.
    private func found(_ target: LineTarget, target index: Int, tailFrom: Int) -> Found? {
        guard target.entry >= 0 else { return nil }
        let name = Int(target.nameStart) + tailFrom..<Int(target.nameEnd) + tailFrom
        return Found(entry: Int(target.entry), name: name.isEmpty ? nil : name, target: index)
    }

    /// The id of the process a change line names (-1: none), added on its first evaluation.
    private mutating func lineProcess(_ line: UnsafeBufferPointer<UInt8>, _ found: Found) -> Int32 {
        if let target = found.target, lineTargets[target].process >= 0 { return lineTargets[target].process }
        guard let name = found.name else { return -1 }
        let id = processID(line[name])
        if let target = found.target { lineTargets[target].process = id }
        return id
    }

    /// The id of the process named `name`, added on first sight.
    private mutating func processID(_ name: some Collection<UInt8>) -> Int32 {
        // By `memcmp` where the name is contiguous: the generic `elementsEqual` showed in an ndjson scan's profile.
        if let last = lastProcess, last.name.count == name.count,
            last.name.withUnsafeBufferPointer({ stored in
                guard let base = stored.baseAddress else { return true }
                return name.withContiguousStorageIfAvailable { ByteKeyTable.equal(base, $0) }
                    ?? stored.elementsEqual(name)
            })
        {
            return last.id
        }
        let id = processCounted(processes.id(String(decoding: name, as: UTF8.self)))
        lastProcess = (Array(name), Int32(id))
        return Int32(id)
    }

    /// A process id from `processes`, its counter added when the name is new.
    private mutating func processCounted(_ found: (id: Int, isNew: Bool)) -> Int {
        if found.isNew { processEvaluations.append(0) }
        return found.id
    }

    /// Where the process's name is in `line[from..<to]`: the first word (split at spaces and tabs) holding a
    /// `[` followed by digits and then `:` or `]`, before that `[` and less a trailing `(…)`; nil when none.
    ///
    /// After a leading timestamp (`from > 0`), one column comes before the name (`--style compact`'s type, `I`
    /// or `Df`), and a name may hold spaces (`My App`, from a target named so): when that word is not the second
    /// after the timestamp, the name starts at the second. It was the last word only (`App`), which named the
    /// log after another app and left it out of the hunt of `My App`.
    static func processName(_ line: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Range<Int>? {
        guard let name = processWord(line, from: from, to: to) else { return nil }
        guard from > 0 else { return name }
        func isBlank(_ index: Int) -> Bool { line[index] == 32 || line[index] == 9 }
        var second = from
        while second < name.lowerBound, isBlank(second) { second += 1 }
        while second < name.lowerBound, !isBlank(second) { second += 1 }
        while second < name.lowerBound, isBlank(second) { second += 1 }
        return second..<name.upperBound
    }

    /// `processName`'s word: the name's last word, without the spaces before it.
    private static func processWord(_ line: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Range<Int>? {
        var index = from
        while index < to {
            guard let bracket = (index..<to).first(where: { line[$0] == UInt8(ascii: "[") }) else { return nil }
            index = bracket + 1
            var wordStart = bracket
            while wordStart > from, line[wordStart - 1] != 32, line[wordStart - 1] != 9 { wordStart -= 1 }
            var cursor = bracket + 1
            while cursor < to, line[cursor] >= 48, line[cursor] <= 57 { cursor += 1 }
            guard wordStart < bracket, cursor > bracket + 1, cursor < to,
                line[cursor] == UInt8(ascii: ":") || line[cursor] == UInt8(ascii: "]")
            else { continue }
            var end = bracket
            if line[end - 1] == UInt8(ascii: ")"),
                let paren = (wordStart..<end).first(where: { line[$0] == UInt8(ascii: "(") }), paren > wordStart
            {
                end = paren
            }
            return wordStart..<end
        }
        return nil
    }

    /// Line tails longer than this are not kept in `lineTails` (they still resolve by their change tail).
    static let maxLineTail = 512

    /// The index of the entry of `line`'s change tail (from the view's name on), found in `changeTails` or
    /// parsed now, and whether it stays; nil when the tail has no `": "` before its items. With `lookUp` false
    /// (the caches left alone, `tried(hit:)`) it is parsed and not kept.
    private mutating func changeEntry(_ line: UnsafeBufferPointer<UInt8>, lookUp: Bool = true) -> (
        index: Int, cached: Bool, viewStart: Int
    )? {
        guard let (key, colon, start, isUnchanged) = Self.changeKey(line) else { return nil }
        var hash: UInt64 = 0
        var found: (value: Int32?, slot: Int) = (nil, 0)
        if lookUp {
            hash = ByteKeyTable.hash(key)
            found = changeTails.lookup(key, hash: hash)
            tried(hit: found.value != nil)
            if let index = found.value { return (Int(index), true, start) }
        }
        dropUncached()
        if lookUp, changeTails.isFull, key.count <= Self.maxCachedKey {
            // Only lines without a timestamp come here full (`lineTailEntry` makes room first).
            flushCaches()
            found = changeTails.lookup(key, hash: hash)
        }
        let cached = lookUp && !changeTails.isFull && key.count <= Self.maxCachedKey
        entries.append(parseChange(key, colon: colon, isUnchanged: isUnchanged))
        guard cached else {
            uncached = true
            return (entries.count - 1, false, start)
        }
        changeTails.insert(key, hash: hash, slot: found.slot, value: Int32(entries.count - 1))
        return (entries.count - 1, true, start)
    }

    /// The change tail of a line that `endsLikeChange`: from the view's name to the end, where its `": "` is in
    /// it, where it starts in the line and whether it is `: unchanged.`; nil when it has no `": "` before its
    /// items.
    private static func changeKey(_ line: UnsafeBufferPointer<UInt8>) -> (
        tail: UnsafeBufferPointer<UInt8>, colon: Int, start: Int, isUnchanged: Bool
    )? {
        guard let (colon, isUnchanged) = changeColon(line) else { return nil }
        let start = viewStart(line, colon: colon)
        return (UnsafeBufferPointer(rebasing: line[start..<line.count]), colon - start, start, isUnchanged)
    }

    /// Where the `": "` before the items of a line that `endsLikeChange` is (the last one; for `: unchanged.`,
    /// the one before it), and whether it is `: unchanged.`; nil when there is none.
    @inline(__always)
    static func changeColon(_ line: UnsafeBufferPointer<UInt8>) -> (colon: Int, isUnchanged: Bool)? {
        let n = line.count
        if line[n - 9] != 32 {
            return line[n - 12] == UInt8(ascii: ":") ? (n - 12, true) : nil
        }
        // A colon at 1...n - 11 followed by a space: 8 bytes a step back from the end, the colons in a word found
        // at once (its bytes XOR `:` that are zero).
        guard let base = line.baseAddress else { return nil }
        var end = n - 10
        while end - 8 >= 1 {
            let word =
                UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: end - 8, as: UInt64.self))
                ^ 0x3A3A_3A3A_3A3A_3A3A
            var colons = ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word) & 0x8080_8080_8080_8080
            while colons != 0 {
                let bit = 63 - colons.leadingZeroBitCount
                let colon = end - 8 + bit / 8
                if base[colon + 1] == 32 { return (colon, false) }
                colons &= ~(1 << UInt64(bit))
            }
            end -= 8
        }
        while end > 1 {
            end -= 1
            if base[end] == UInt8(ascii: ":"), base[end + 1] == 32 { return (end, false) }
        }
        return nil
    }

    /// Where the view's name of a change line whose `": "` is at `colon` starts: the word before the colon,
    /// or the one before `body` (`ParentView body: …` names ParentView).
    @inline(__always)
    static func viewStart(_ line: UnsafeBufferPointer<UInt8>, colon: Int) -> Int {
        let start = wordStart(line, before: colon)
        if colon - start == 4, matches(line, at: start, "body"), start >= 2, line[start - 1] == 32 {
            return wordStart(line, before: start - 1)
        }
        return start
    }

    /// Whether the last entry was parsed for a line that missed the cache and must not stay.
    private var uncached = false
    /// `parseChange`'s item ranges, kept from tail to tail.
    private var itemRanges: [Range<Int>] = []

    /// Empties both caches and what their values index (`entries` with their items, `lineTargets`) when one is
    /// full, so the tails of the log's next stretch are kept, whatever its shape. They stopped taking new
    /// tails once full, and a log with more distinct tails than they hold (issue 30's realistic console log:
    /// 200 views, 1-4 of ~30 properties in any order) parsed almost every line from then on. Counters, names
    /// and pair slots are not in the caches and stay.
    private mutating func flushCaches() { emptyCaches(keepingStorage: true) }

    /// Empties both caches and what their values index, keeping their storage for the tails that follow
    /// (`flushCaches`) or giving it back (`releaseCaches`).
    private mutating func emptyCaches(keepingStorage: Bool) {
        dropUncached()
        if keepingStorage {
            changeTails.removeAll()
            lineTails.removeAll()
        } else {
            changeTails.release()
            lineTails.release()
        }
        entries.removeAll(keepingCapacity: keepingStorage)
        itemIDs.removeAll(keepingCapacity: keepingStorage)
        pairSlots.removeAll(keepingCapacity: keepingStorage)
        triggerIDs.removeAll(keepingCapacity: keepingStorage)
        lineTargets.removeAll(keepingCapacity: keepingStorage)
        lastTarget = -1
    }

    /// Empties both caches, as `flushCaches` does, and gives their storage back, while they are left alone
    /// (`tried(hit:)`): a log whose tails rarely repeat kept them full, of tails it did not look up, for the rest of
    /// its reading (up to twice 8,192 tails of a log read in two parts). The next trial fills them for a window
    /// (`warmLeft`) and is judged on the window after it: two windows of tails at most, half the caches' capacity,
    /// before the next decision.
    private mutating func releaseCaches() {
        releasePending = false
        warmLeft = cacheWindow
        emptyCaches(keepingStorage: false)
    }

    /// Copies the last timestamp out of bytes that are about to go away.
    private mutating func keepLastTimestamp() {
        guard let bytes = lastTimestampBytes else { return }
        lastTimestampBytes = nil
        lastTimestamp.removeAll(keepingCapacity: true)
        lastTimestamp.append(contentsOf: bytes)
    }

    /// Removes the uncached entry left by the previous line, if any, with its items.
    private mutating func dropUncached() {
        guard uncached, let entry = entries.popLast() else { return }
        uncached = false
        itemIDs.removeLast(itemIDs.count - Int(entry.itemStart))
        pairSlots.removeLast(pairSlots.count - Int(entry.itemStart))
        triggerIDs.removeLast(triggerIDs.count - Int(entry.triggerStart))
    }

    /// `"changed."` as a little-endian word, compared in one load.
    /// A literal: a computed `static let` cost a `swift_once` check per line.
    private static let changedWord = UInt64(littleEndian: 0x2E64_6567_6E61_6863)

    /// Parses a tail not seen before (or not kept): validates the type name and items and appends the items
    /// to the flat arrays. Bytes only: the name's characters by a table of the ASCII bytes a name may hold,
    /// the items split at depth-0 commas and trimmed in place, names and items interned by their bytes
    /// (`NameTable.id(bytes:)`). An items text with a non-ASCII byte goes by `Character`s
    /// (`splitItems`), as all of them did: there a comma or bracket may carry a combining mark.
    ///
    /// Issue 30's realistic console log (200 views, 1-4 of ~30 properties a line, 220,000 distinct tails, so the caches
    /// are full at once and most lines come here): this parse by `String`, `Character` and Unicode properties was most
    /// of the samples, and the scan measured several times slower than mawk reading the same log.
    private mutating func parseChange(_ key: UnsafeBufferPointer<UInt8>, colon: Int, isUnchanged: Bool) -> Entry {
        // Items and triggers of a non-change tail are an empty range at the end, so dropping it drops nothing else.
        let notAChange = Entry(
            view: -1, isUnchanged: false, selfChanged: false, itemStart: Int32(itemIDs.count), itemCount: 0,
            triggerStart: Int32(triggerIDs.count), triggerCount: 0)
        guard let name = Self.viewName(key, start: 0, colon: colon) else { return notAChange }
        var ranges: [Range<Int>] = []
        swap(&ranges, &itemRanges)
        defer { swap(&ranges, &itemRanges) }
        ranges.removeAll(keepingCapacity: true)
        if !isUnchanged {
            guard Self.splitItemBytes(key, from: colon + 2, to: key.count - 9, into: &ranges) else {
                return parseChangeByCharacters(key, name: name, colon: colon)
            }
            guard !ranges.isEmpty else { return notAChange }
            for range in ranges {
                let head = key[range.lowerBound]
                guard head == UInt8(ascii: "@") || head == UInt8(ascii: "_") || head == UInt8(ascii: "\\") else {
                    return notAChange
                }
            }
        }
        let view = viewID(name, in: key)
        var entry = Entry(
            view: Int32(view), isUnchanged: isUnchanged, selfChanged: false, itemStart: Int32(itemIDs.count),
            itemCount: Int32(ranges.count), triggerStart: Int32(triggerIDs.count), triggerCount: 0)
        for range in ranges {
            let bytes = UnsafeBufferPointer(rebasing: key[range])
            let id = Int32(items.id(bytes: bytes).id)
            itemIDs.append(id)
            pairSlots.append(-1)
            let isSelf = Self.equals(bytes, "@self")
            if isSelf { entry.selfChanged = true }
            if bytes[0] != UInt8(ascii: "@") || Self.equals(bytes, "@dependencies") {
                triggerIDs.append(id)
                entry.triggerCount += 1
            }
        }
        return entry
    }

    /// A change line's view name, as `viewName` reads it: bytes of the line as written, or the normalized name.
    enum ViewName {
        case written(Range<Int>)
        case normalized([UInt8])
    }

    /// The view's name in `bytes[start..<colon]` (the word before a change line's colon), less a ` body` before
    /// the colon; nil when it is no view's name. A name of the ASCII bytes a type's name holds is read in place.
    /// Any other (a mangled symbol such as `$s7Courier11ContentViewV`, generic arguments elided as `‹…›`, a
    /// non-ASCII letter) goes by `ViewTypeName`, which demangles plain nominal types and keeps the rest as
    /// written (issue 28). `parseChange` and the lines read in parts (`prefixTarget`) both read names so.
    static func viewName(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, colon: Int) -> ViewName? {
        var nameEnd = colon
        if colon - start >= 5, bytes[colon - 5] == 32, matches(bytes, at: colon - 4, "body") {
            // The last space before the colon is the one before `body` (a name holds no `body` after a space
            // but this one: the old `lastIndex(of: 32)` found it too).
            nameEnd = colon - 5
        }
        guard nameEnd > start else { return nil }
        if isNameHead(bytes[start]), !(start + 1..<nameEnd).contains(where: { !isNameByte(bytes[$0]) }) {
            return .written(start..<nameEnd)
        }
        return ViewTypeName.normalized(UnsafeBufferPointer(rebasing: bytes[start..<nameEnd])).map {
            .normalized(Array($0.utf8))
        }
    }

    /// The id of the view `name` names (a range of `bytes`, or its normalized bytes).
    private mutating func viewID(_ name: ViewName, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        switch name {
        case .written(let range): viewID(UnsafeBufferPointer(rebasing: bytes[range]))
        case .normalized(let normalized): normalized.withUnsafeBufferPointer { viewID($0) }
        }
    }

    /// The id of the view named by `bytes`, added with its counters on first sight.
    private mutating func viewID(_ bytes: UnsafeBufferPointer<UInt8>) -> Int { viewCounted(views.id(bytes: bytes)) }

    /// A view id from `views`, its counters added when the name is new (a line's bytes, or a name `absorb`
    /// takes from another scanner).
    private mutating func viewCounted(_ found: (id: Int, isNew: Bool)) -> Int {
        if found.isNew {
            viewEvaluations.append(0)
            viewSelfChanged.append(0)
            viewBurstMark.append(-1)
        }
        return found.id
    }

    /// `parseChange` for an items text that is not all ASCII (the name is valid): split by `Character`s.
    private mutating func parseChangeByCharacters(
        _ key: UnsafeBufferPointer<UInt8>, name: ViewName, colon: Int
    ) -> Entry {
        let notAChange = Entry(
            view: -1, isUnchanged: false, selfChanged: false, itemStart: Int32(itemIDs.count), itemCount: 0,
            triggerStart: Int32(triggerIDs.count), triggerCount: 0)
        let text = String(decoding: key[(colon + 2)..<(key.count - 9)], as: UTF8.self)
        let itemTexts = Self.splitItems(text)
        guard !itemTexts.isEmpty, itemTexts.allSatisfy({ ["@", "_", "\\"].contains($0.first) }) else {
            return notAChange
        }
        let view = viewID(name, in: key)
        var entry = Entry(
            view: Int32(view), isUnchanged: false, selfChanged: itemTexts.contains("@self"),
            itemStart: Int32(itemIDs.count), itemCount: Int32(itemTexts.count), triggerStart: Int32(triggerIDs.count),
            triggerCount: 0)
        for text in itemTexts {
            let id = Int32(items.id(text).id)
            itemIDs.append(id)
            pairSlots.append(-1)
            if text == "@dependencies" || !text.hasPrefix("@") {
                triggerIDs.append(id)
                entry.triggerCount += 1
            }
        }
        return entry
    }

    /// The items of `key[from..<to]` split at commas outside `<>`, `()` and `[]`, each trimmed of spaces, tabs
    /// and `\r`, empty ones left out (`splitItems` on bytes), appended to `ranges`; false when a byte is not
    /// ASCII.
    static func splitItemBytes(
        _ key: UnsafeBufferPointer<UInt8>, from: Int, to: Int, into ranges: inout [Range<Int>]
    ) -> Bool {
        var depth = 0
        var start = from
        var index = from
        func add(_ start: Int, _ end: Int) {
            var lower = start
            var upper = end
            while lower < upper, isSpace(key[lower]) { lower += 1 }
            while upper > lower, isSpace(key[upper - 1]) { upper -= 1 }
            if lower < upper { ranges.append(lower..<upper) }
        }
        while index < to {
            let byte = key[index]
            if byte >= 0x80 { return false }
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: "("), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: ">"), UInt8(ascii: ")"), UInt8(ascii: "]"): depth = max(0, depth - 1)
            case UInt8(ascii: ",") where depth == 0:
                add(start, index)
                start = index + 1
            default: break
            }
            index += 1
        }
        add(start, to)
        return true
    }

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 13 }

    /// Whether `bytes` are exactly `text`.
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount && matches(bytes, at: 0, text)
    }

    /// Whether a view's name may start with `byte` (`_`, an ASCII letter) and hold it (also digits and `.<>()[], ?`):
    /// the ASCII scalars the `Character` check accepted (alphabetic, numeric, those punctuation marks). Bit masks of
    /// bytes 0-63 and 64-127, literals: a table in a `static let` cost a `swift_once` check per byte, which showed in
    /// the profile.
    @inline(__always)
    static func isNameHead(_ byte: UInt8) -> Bool {
        byte >= 64 && byte < 128 && (0x07FF_FFFE_87FF_FFFE as UInt64) >> (byte - 64) & 1 == 1
    }

    @inline(__always)
    static func isNameByte(_ byte: UInt8) -> Bool {
        byte < 64
            ? (0xD3FF_5301_0000_0000 as UInt64) >> byte & 1 == 1
            : byte < 128 && (0x07FF_FFFE_AFFF_FFFE as UInt64) >> (byte - 64) & 1 == 1
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

    private mutating func record(
        _ index: Int, process: Int32, timestamp: UnsafeBufferPointer<UInt8>?, millis: Int64?
    ) {
        let entry = entries[index]
        let view = Int(entry.view)
        for position in Int(entry.itemStart)..<Int(entry.itemStart + entry.itemCount) {
            var slot = Int(pairSlots[position])
            if slot < 0 {
                slot = pairSlot(view: view, item: Int(itemIDs[position]))
                pairSlots[position] = Int32(slot)
            }
            pairCounts[slot] += 1
        }
        if evaluated(
            view: view, isUnchanged: entry.isUnchanged, selfChanged: entry.selfChanged, process: process,
            timestamp: timestamp, millis: millis)
        {
            let trigger = Int(entry.triggerStart)..<Int(entry.triggerStart + entry.triggerCount)
            burst.trigger.append(contentsOf: triggerIDs[trigger])
        }
        if uncached { dropUncached() }
    }

    /// Counts an evaluation of `view` (its items counted by the caller); true when it started a burst, whose
    /// trigger the caller then sets.
    private mutating func evaluated(
        view: Int, isUnchanged: Bool, selfChanged: Bool, process: Int32, timestamp: UnsafeBufferPointer<UInt8>?,
        millis: Int64?
    ) -> Bool {
        evaluations += 1
        if continues && evaluations == 1 {
            separatedBeforeFirst = separated
            firstMillis = millis
        }
        if process >= 0 { processEvaluations[Int(process)] += 1 }
        if isUnchanged { unchanged += 1 }
        viewEvaluations[view] += 1
        if selfChanged { viewSelfChanged[view] += 1 }

        let startsBurst: Bool
        if let millis, let lastMillis {
            startsBurst = abs(millis - lastMillis) > Self.burstGap
        } else {
            startsBurst = separated
        }
        let started = !inBurst || startsBurst
        if started {
            closeBurst()
            // The next burst in the same arrays, emptied in place (an array a kept burst still holds is copied): three
            // allocations a burst, and most bursts are not kept. Issue 30's realistic console log starts a burst every
            // 10 evaluations; emptying in place, with `closeBurst`'s check against `topFloor`, cut the run's
            // instructions.
            burst.id = burstCount
            burst.triggerView = Int32(view)
            burst.trigger.removeAll(keepingCapacity: true)
            burst.views.removeAll(keepingCapacity: true)
            burst.distinct = 0
            burst.evaluations = 0
            burst.line = lineNumber
            burst.timestamp.removeAll(keepingCapacity: true)
            if let timestamp { burst.timestamp.append(contentsOf: timestamp) }
            burst.timed = timestamp != nil
            inBurst = true
            burstCount += 1
        }
        burst.evaluations += 1
        if viewBurstMark[view] != burst.id {
            viewBurstMark[view] = burst.id
            burst.distinct += 1
            if burst.views.count < 20 { burst.views.append(Int32(view)) }
            if continues && burst.id == 0 { firstBurstViews.append(Int32(view)) }
        }
        lastMillis = millis
        separated = false
        if let timestamp {
            if firstTimestamp == nil { firstTimestamp = Array(timestamp) }
            // Copied when the bytes go away (`keepLastTimestamp`), not per line: the per-line copy showed in a scan's
            // profile.
            lastTimestampBytes = timestamp
        }
        return started
    }

    /// The counter of (`view`, `item`), created on first use; past `maxPairs` new pairs count under `(other)`
    /// of their view. Once resolved, a slot never changes (pairs are never removed and the cap never
    /// lifts), so entries keep it.
    private mutating func pairSlot(view: Int, item: Int) -> Int {
        var key = view << 32 | item
        if let slot = pairSlotByKey.slot(key) { return Int(slot) }
        if pairs >= Self.maxPairs {
            let other = otherItem ?? items.id(Self.other).id
            otherItem = other
            key = view << 32 | other
            if let slot = pairSlotByKey.slot(key) { return Int(slot) }
        } else {
            pairs += 1
        }
        pairSlotByKey.insert(key, slot: Int32(pairCounts.count))
        pairView.append(Int32(view))
        pairItem.append(Int32(key & 0xFFFF_FFFF))
        pairCounts.append(0)
        return pairCounts.count - 1
    }

    private mutating func closeBurst() {
        guard inBurst else { return }
        inBurst = false
        if continues && burst.id == 0 { firstBurst = burst }
        // In order, a burst comes after all kept ones: it enters a full top only with more distinct views than the
        // weakest (`keep` says so too, after a loop over the top).
        if top.count == 10 && burst.distinct <= topFloor { return }
        keep(burst)
    }

    /// Keeps `candidate` among the 10 bursts that rank highest (`ranks`), whatever the order they come in: the
    /// kept ones are the 10 highest of all bursts, which is what lets `absorb(_:)` join two scanners' tops.
    /// Fed in order, a burst comes after all kept ones and enters when it has more distinct views than the
    /// weakest.
    private mutating func keep(_ candidate: Burst) {
        if top.count < 10 {
            top.append(candidate)
        } else {
            var weakest = 0
            for index in 1..<top.count where Self.ranks(top[weakest], above: top[index]) { weakest = index }
            guard Self.ranks(candidate, above: top[weakest]) else { return }
            top[weakest] = candidate
        }
        if top.count == 10 { topFloor = top.lazy.map(\.distinct).min() ?? 0 }
    }

    /// The order of `ChangeLogSummary.fanOut`: more distinct views first, then the earlier line, then the
    /// earlier burst (the bursts of one JSON record share its line).
    private static func ranks(_ burst: Burst, above other: Burst) -> Bool {
        (burst.distinct, -burst.line, -burst.id) > (other.distinct, -other.line, -other.id)
    }

    // MARK: - log show --style json / ndjson

    /// Collects `"eventMessage"`, `"timestamp"` and `"processImagePath"` string values. A record ends on a line
    /// that starts with `}` (`--style json`: `},{`, `}]`) or that is a whole `{…}` object (`--style ndjson`).
    ///
    /// Each key's value is read at its first occurrence on the line, found by `memchr` to the key's rarest byte
    /// (`ReproText.firstIndex`: `M`, `I`, `p`) and `memcmp`. Issue 30's `log show --style ndjson` log: the three
    /// byte-by-byte searches and the byte-at-a-time unescaping were most of the samples, and the scan measured several
    /// times slower than mawk reading the same log; a pass from quote to quote (`memchr` per quote) still showed in the
    /// profile.
    /// Whether the line was JSON of the records: a member, a record's key, or a line that opens or ends one.
    @discardableResult
    private mutating func jsonLine(_ line: UnsafeBufferPointer<UInt8>, first: Int) -> Bool {
        var read = line[first] != UInt8(ascii: "\"")
        if line[first] != UInt8(ascii: "\"") || !jsonMember(line, first: first) {
            if let at = ReproText.firstIndex(of: "\"eventMessage\"", in: line, anchor: Self.jsonAnchors.message) {
                Self.jsonValue(line, after: at + 14, unescaper: &unescaper, into: &recordMessage)
                read = true
            }
            if let at = ReproText.firstIndex(of: "\"timestamp\"", in: line, anchor: Self.jsonAnchors.timestamp) {
                Self.jsonValue(line, after: at + 11, unescaper: &unescaper, into: &recordTimestamp)
                read = true
            }
            if let at = ReproText.firstIndex(
                of: "\"processImagePath\"", in: line, anchor: Self.jsonAnchors.process)
            {
                Self.jsonValue(line, after: at + 18, unescaper: &unescaper, into: &recordProcess)
                read = true
            }
        } else {
            read = true
        }
        if line[first] == UInt8(ascii: "}")
            || line[first] == UInt8(ascii: "{") && line[line.count - 1] == UInt8(ascii: "}")
        {
            flushRecord()
        }
        return read
    }

    /// `--style json` writes one member a line (`  "eventMessage" : "…",`). When the line at `first` is one
    /// member, `"key" : value` with no backslash in the key, and nothing after the value holds a quote, the
    /// three searches come to the key at `first` alone, so the value is read when the key is one of the three
    /// and the line is done (true). Why no other key can match with a value: a match is a quote, letters and a
    /// quote, so it starts at the member's key (that key itself) or inside its value, where its closing quote
    /// (after a letter that no `\u` escape can take) ends the string as `JSONStringUnescaper` reads it; a
    /// value after it would need a `:` and a quote after the string, which the line does not have. Anything
    /// else returns false for the searches (the `changelog` fuzz target holds both to the reference).
    private mutating func jsonMember(_ line: UnsafeBufferPointer<UInt8>, first: Int) -> Bool {
        guard let base = line.baseAddress else { return false }
        let count = line.count
        let keyEnd = JSONStringUnescaper.special(base, from: first + 1, count: count)
        guard keyEnd < count, base[keyEnd] == 0x22 else { return false }
        var cursor = keyEnd + 1
        while cursor < count, base[cursor] == 32 || base[cursor] == 9 { cursor += 1 }
        guard cursor < count, base[cursor] == UInt8(ascii: ":") else { return false }
        cursor += 1
        while cursor < count, base[cursor] == 32 || base[cursor] == 9 { cursor += 1 }
        let key = UnsafeBufferPointer(rebasing: line[first...keyEnd])
        let which: Int? =
            switch key.count {
            case 14 where Self.equals(key, "\"eventMessage\""): 0
            case 11 where Self.equals(key, "\"timestamp\""): 1
            case 18 where Self.equals(key, "\"processImagePath\""): 2
            default: nil
            }
        guard cursor < count, base[cursor] == 0x22 else {
            // Not a string: no value to read, and no quote may follow.
            return cursor >= count || memchr(base + cursor, 0x22, count - cursor) == nil
        }
        let end: Int?
        if which != nil {
            end = unescaper.decode(line, from: cursor + 1)
        } else {
            end = JSONStringUnescaper.end(line, from: cursor + 1)
        }
        guard let end, end + 1 >= count || memchr(base + end + 1, 0x22, count - end - 1) == nil else { return false }
        switch which {
        case 0: Self.take(&unescaper, into: &recordMessage)
        case 1: Self.take(&unescaper, into: &recordTimestamp)
        case 2: Self.take(&unescaper, into: &recordProcess)
        default: break
        }
        return true
    }

    /// The string `unescaper` decoded, into `buffer`.
    private static func take(_ unescaper: inout JSONStringUnescaper, into buffer: inout JSONValueBuffer) {
        swap(&buffer.bytes, &unescaper.output)
        buffer.isSet = true
    }

    /// The offsets of the keys' rarest bytes, worked out once.
    static let jsonAnchors = (
        message: ReproText.anchor("\"eventMessage\""), timestamp: ReproText.anchor("\"timestamp\""),
        process: ReproText.anchor("\"processImagePath\"")
    )

    private mutating func flushRecord() {
        guard recordMessage.isSet else {
            recordTimestamp.isSet = false
            recordProcess.isSet = false
            return
        }
        // The buffers are taken out while their lines are handled (`handle` mutates the scanner) and put back.
        var message: [UInt8] = []
        var stamp: [UInt8] = []
        var path: [UInt8] = []
        swap(&message, &recordMessage.bytes)
        swap(&stamp, &recordTimestamp.bytes)
        swap(&path, &recordProcess.bytes)
        let hasStamp = recordTimestamp.isSet
        let hasPath = recordProcess.isSet
        recordMessage.isSet = false
        recordTimestamp.isSet = false
        recordProcess.isSet = false
        // `/Applications/Memo.app/Memo` → `Memo`.
        let name = hasPath ? path[(path.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0)...] : []
        message.withUnsafeBufferPointer { text in
            stamp.withUnsafeBufferPointer { stampBytes in
                let timestamp = hasStamp ? stampBytes : nil
                var start = 0
                while true {
                    let end =
                        text.baseAddress.flatMap { LineSplitter.newline(in: $0 + start, count: text.count - start) }
                        .map { start + $0 } ?? text.count
                    handle(
                        UnsafeBufferPointer(rebasing: text[start..<end]), timestamp: timestamp, json: false,
                        process: name.isEmpty ? nil : name)
                    guard end < text.count else { break }
                    start = end + 1
                }
                keepLastTimestamp()
            }
        }
        swap(&message, &recordMessage.bytes)
        swap(&stamp, &recordTimestamp.bytes)
        swap(&path, &recordProcess.bytes)
    }

    /// The unescaped string after a key that ends before `at`, past blanks, `:` and blanks, into `buffer`
    /// (left as it was when there is none or it does not end on the line).
    private static func jsonValue(
        _ line: UnsafeBufferPointer<UInt8>, after at: Int, unescaper: inout JSONStringUnescaper,
        into buffer: inout JSONValueBuffer
    ) {
        var cursor = at
        while cursor < line.count, line[cursor] == 32 || line[cursor] == 9 { cursor += 1 }
        guard cursor < line.count, line[cursor] == UInt8(ascii: ":") else { return }
        cursor += 1
        while cursor < line.count, line[cursor] == 32 || line[cursor] == 9 { cursor += 1 }
        guard cursor < line.count, line[cursor] == UInt8(ascii: "\"") else { return }
        guard unescaper.decode(line, from: cursor + 1) != nil else { return }
        take(&unescaper, into: &buffer)
    }

    // MARK: - Byte helpers

    static func matches(_ line: UnsafeBufferPointer<UInt8>, at index: Int, _ text: some Collection<UInt8>) -> Bool {
        index >= 0 && index + text.count <= line.count && line[index..<(index + text.count)].elementsEqual(text)
    }

    /// `memcmp`: the generic `elementsEqual` of the other, comparing each member's key, showed in a `--style json`
    /// scan's profile.
    static func matches(_ line: UnsafeBufferPointer<UInt8>, at index: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index >= 0, index + count <= line.count else { return false }
        guard count > 0, let base = line.baseAddress else { return true }
        return memcmp(base + index, text.utf8Start, count) == 0
    }

    /// Start of the word ending before `end`: back to a space outside `<>`, `()`, `[]`.
    static func wordStart(_ line: UnsafeBufferPointer<UInt8>, before end: Int) -> Int {
        // The common word has no brackets: stop at the first space, or count depth from `end` on the first bracket.
        var index = end
        while index > 0 {
            switch line[index - 1] {
            case 32, 9: return index
            case UInt8(ascii: ">"), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "<"), UInt8(ascii: "("),
                UInt8(ascii: "["):
                return bracketedWordStart(line, before: end)
            default: index -= 1
            }
        }
        return 0
    }

    private static func bracketedWordStart(_ line: UnsafeBufferPointer<UInt8>, before end: Int) -> Int {
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
    mutating func leadingTimestamp(_ line: UnsafeBufferPointer<UInt8>) -> (millis: Int64, length: Int)? {
        var millis: Int64
        var at: Int
        // A log writes many lines within one second: the last `yyyy-MM-dd HH:mm:ss` is kept as its 19 bytes (three
        // overlapping loads) and its milliseconds, and the fraction and zone are read after it.
        if line.count >= 19, let base = line.baseAddress, let cached = cachedSecond,
            cached.0 == UnsafeRawPointer(base).loadUnaligned(as: UInt64.self),
            cached.1 == UnsafeRawPointer(base).loadUnaligned(fromByteOffset: 8, as: UInt64.self),
            cached.2 == UnsafeRawPointer(base).loadUnaligned(fromByteOffset: 11, as: UInt64.self)
        {
            millis = cached.3
            at = 19
        } else {
            guard let (second, end) = leadingSecond(line) else { return nil }
            millis = second
            at = end
            if end == 19, let base = line.baseAddress {
                let raw = UnsafeRawPointer(base)
                cachedSecond = (
                    raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                    raw.loadUnaligned(fromByteOffset: 11, as: UInt64.self), second
                )
            }
        }
        return fraction(line, millis: millis, at: at)
    }

    /// `yyyy-MM-dd[ T]HH:mm:ss` or `HH:mm:ss` at the start of `line`: its milliseconds and where it ends.
    private mutating func leadingSecond(_ line: UnsafeBufferPointer<UInt8>) -> (millis: Int64, end: Int)? {
        var days: Int64 = 0
        var at = 0
        if line.count > 10, line[10] == 32 || line[10] == UInt8(ascii: "T"), let base = line.baseAddress {
            // A log has few distinct dates: the day number of the last one is kept with its 10 bytes.
            let raw = UnsafeRawPointer(base)
            let head = raw.loadUnaligned(as: UInt64.self)
            let tail = raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
            if let cached = cachedDate, cached.0 == head, cached.1 == tail {
                days = cached.2
                at = 11
            } else if let century = Self.twoDigits(line, 0), let years = Self.twoDigits(line, 2),
                line[4] == UInt8(ascii: "-"), let month = Self.twoDigits(line, 5), line[7] == UInt8(ascii: "-"),
                let day = Self.twoDigits(line, 8)
            {
                // Days from civil (Howard Hinnant's algorithm), so bursts may span midnight and month ends.
                let year = century * 100 + years
                let y = month <= 2 ? year - 1 : year
                let era = y / 400
                let yoe = y - era * 400
                let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
                days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy
                at = 11
                cachedDate = (head, tail, days)
            }
        }
        guard line.count >= at + 8, let base = line.baseAddress else { return nil }
        // `HH:mm:ss` in one load: each byte XOR its pattern byte ('0' or ':') is 0...9 for a digit and 0 for the colon
        // (a byte loop before, with the fraction's loop below, cost many instructions per line).
        let clock =
            UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: at, as: UInt64.self))
            ^ 0x3030_3A30_303A_3030
        guard Self.digitBytes(clock) == 8, clock & 0x0000_FF00_00FF_0000 == 0 else { return nil }
        func digit(_ index: UInt64) -> Int64 { Int64(truncatingIfNeeded: clock >> (8 * index) & 0xFF) }
        let hour = digit(0) * 10 + digit(1)
        let minute = digit(3) * 10 + digit(4)
        let second = digit(6) * 10 + digit(7)
        return (((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000, at + 8)
    }

    /// The fraction (`.fff…`, milliseconds from its first three digits) and zone (`Z`, `±hh[:]mm`) after the
    /// second that ends at `at`: the timestamp's milliseconds and length.
    private func fraction(_ line: UnsafeBufferPointer<UInt8>, millis: Int64, at: Int) -> (millis: Int64, length: Int) {
        var millis = millis
        var at = at
        guard let base = line.baseAddress else { return (millis, at) }
        if at < line.count, line[at] == UInt8(ascii: ".") {
            at += 1
            // Milliseconds from the first three digits; the rest only extend the text.
            var digits = 0
            let wide = at + 8 <= line.count
            if wide {
                let fraction =
                    UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: at, as: UInt64.self))
                    ^ 0x3030_3030_3030_3030
                digits = Self.digitBytes(fraction)
                let first = Int64(truncatingIfNeeded: fraction & 0xFF)
                let second = Int64(truncatingIfNeeded: fraction >> 8 & 0xFF)
                let third = Int64(truncatingIfNeeded: fraction >> 16 & 0xFF)
                switch digits {
                case 0: break
                case 1: millis += first * 100
                case 2: millis += first * 100 + second * 10
                default: millis += first * 100 + second * 10 + third
                }
                at += digits
            }
            if !wide || digits == 8 {
                while at < line.count, line[at] >= 48, line[at] <= 57 {
                    if digits < 3 { millis += Int64(line[at] - 48) * (digits == 0 ? 100 : digits == 1 ? 10 : 1) }
                    digits += 1
                    at += 1
                }
            }
        }
        if at < line.count, line[at] == UInt8(ascii: "Z") {
            at += 1
        } else if at < line.count, line[at] == UInt8(ascii: "+") || line[at] == UInt8(ascii: "-"),
            Self.twoDigits(line, at + 1) != nil
        {
            at += 3
            if at < line.count, line[at] == UInt8(ascii: ":") { at += 1 }
            if Self.twoDigits(line, at) != nil { at += 2 }
        }
        return (millis, at)
    }

    /// How many of the low-order bytes of `word` (a little-endian load XOR `'0'` per byte) are digits, 0...8.
    @inline(__always)
    static func digitBytes(_ word: UInt64) -> Int {
        // A byte above 9 sets its top bit: either it is 0x80 or more, or adding 0x76 to its low 7 bits carries
        // into bit 7 (which no byte can carry out of).
        let notDigit = (word | ((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676)) & 0x8080_8080_8080_8080
        return notDigit.trailingZeroBitCount / 8
    }

    /// The two decimal digits at `at`, or nil.
    @inline(__always)
    static func twoDigits(_ line: UnsafeBufferPointer<UInt8>, _ at: Int) -> Int64? {
        guard at + 2 <= line.count else { return nil }
        let tens = line[at] &- 48
        let ones = line[at + 1] &- 48
        guard tens < 10, ones < 10 else { return nil }
        return Int64(tens) * 10 + Int64(ones)
    }
}

/// Interned names with stable ids; past `ChangeLogScanner.maxNames` new names share the id of `(other)`.
///
/// Names are found by their bytes first (`id(bytes:)`): a `ByteKeyTable` of the bytes of every name seen (at
/// most `maxNameLength` bytes, so never cut) to its id, so a line's names cost a hash and a `memcmp`, not a
/// `String` and a dictionary of `String`s.
struct NameTable {
    private(set) var names: [String] = []
    private var ids: [String: Int] = [:]
    /// Name bytes to ids; bytes that decode to the same `String` (invalid UTF-8) share the id.
    private var byBytes = ByteKeyTable(capacity: 16_384)
    /// Once `byBytes` is full, the bytes met since, emptied when full: an id never changes once given (names
    /// are never removed, and past the cap a new name is `(other)` for good), so any id kept stays true. Past
    /// 16,384 distinct names (10,000 and the ones counted under `(other)`), every line of one of the others
    /// made a `String` and looked it up twice in `ids` (in a log of 30,000 views, 13,616 of them).
    private var recent = ByteKeyTable(capacity: 16_384, byteBudget: 1 << 20)

    /// The id of `name`, and whether it was added now.
    mutating func id(_ name: String) -> (id: Int, isNew: Bool) {
        let name =
            name.count > ChangeLogScanner.maxNameLength
            ? String(name.prefix(ChangeLogScanner.maxNameLength)) + "…" : name
        let key = ids[name] != nil || names.count < ChangeLogScanner.maxNames ? name : ChangeLogScanner.other
        if let id = ids[key] { return (id, false) }
        ids[key] = names.count
        names.append(key)
        return (names.count - 1, true)
    }

    /// Empties what finds a name's id (a finished scanner's), keeping the names.
    mutating func dropLookups() {
        ids = [:]
        byBytes.release()
        recent.release()
    }

    /// The id of the name whose UTF-8 is `bytes` (`id(_:)` of its decoding, found without one once seen).
    mutating func id(bytes: UnsafeBufferPointer<UInt8>) -> (id: Int, isNew: Bool) {
        let hash = ByteKeyTable.hash(bytes)
        let found = byBytes.lookup(bytes, hash: hash)
        if let id = found.value { return (Int(id), false) }
        guard byBytes.isFull else {
            let result = id(String(decoding: bytes, as: UTF8.self))
            if bytes.count <= ChangeLogScanner.maxNameLength {
                byBytes.insert(bytes, hash: hash, slot: found.slot, value: Int32(result.id))
            }
            return result
        }
        var seen = recent.lookup(bytes, hash: hash)
        if let id = seen.value { return (Int(id), false) }
        let result = id(String(decoding: bytes, as: UTF8.self))
        if bytes.count <= ChangeLogScanner.maxNameLength {
            if !recent.hasRoom(for: bytes.count) {
                recent.removeAll()
                seen = recent.lookup(bytes, hash: hash)
            }
            recent.insert(bytes, hash: hash, slot: seen.slot, value: Int32(result.id))
        }
        return result
    }
}

/// A JSON record's value: its bytes, kept from record to record, and whether the record has it.
struct JSONValueBuffer {
    var bytes: [UInt8] = []
    var isSet = false
}

/// `view << 32 | item` keys to `Int32` slots: open addressing (linear probing) in a table kept at most half
/// full, each key and its slot packed in one word (view and item below 2^20 each, the slot below 2^24: the caps
/// keep them far below). A key and its slot in two arrays took two cache misses a probe once the table outgrew
/// the caches (a log of 3,000 views has 90,000 pairs). Keys are never removed.
struct PairTable {
    /// `view << 44 | item << 24 | slot + 1`; 0 is empty.
    private var entries: [UInt64] = []
    private var count = 0

    /// The slot stored for `key`, or nil.
    func slot(_ key: Int) -> Int32? {
        guard !entries.isEmpty else { return nil }
        let packed = Self.packed(key)
        let mask = entries.count - 1
        var position = Self.position(packed, mask: mask)
        while true {
            let entry = entries[position]
            if entry == 0 { return nil }
            if entry >> 24 == packed { return Int32(truncatingIfNeeded: entry & 0xFF_FFFF) - 1 }
            position = (position + 1) & mask
        }
    }

    /// Adds `key` (not in the table) with `slot`.
    mutating func insert(_ key: Int, slot: Int32) {
        precondition(slot >= 0 && slot < 0xFF_FFFF, "a pair's slot past 2^24")
        if 2 * (count + 1) > entries.count { grow() }
        let packed = Self.packed(key)
        let mask = entries.count - 1
        var position = Self.position(packed, mask: mask)
        while entries[position] != 0 { position = (position + 1) & mask }
        entries[position] = packed << 24 | UInt64(slot + 1)
        count += 1
    }

    private mutating func grow() {
        let old = entries
        entries = [UInt64](repeating: 0, count: max(1024, entries.count * 2))
        let mask = entries.count - 1
        for entry in old where entry != 0 {
            var position = Self.position(entry >> 24, mask: mask)
            while entries[position] != 0 { position = (position + 1) & mask }
            entries[position] = entry
        }
    }

    /// `view << 20 | item` of `view << 32 | item`.
    @inline(__always)
    private static func packed(_ key: Int) -> UInt64 {
        let view = UInt64(truncatingIfNeeded: key >> 32)
        let item = UInt64(truncatingIfNeeded: key & 0xFFFF_FFFF)
        precondition(view < 1 << 20 && item < 1 << 20, "a view or item id past 2^20")
        return view << 20 | item
    }

    @inline(__always)
    private static func position(_ packed: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: (packed &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }
}

/// An item of at most 16 bytes and a view, to the item's id and the pair's slot: direct-mapped, keyed by the
/// item's bytes as two words (the first 8 and the last 8, overlapping when shorter), its length and the view,
/// so a hit compares three words and needs no hash of the bytes and no `memcmp`. Ids and slots never change
/// once given (names and pairs are never removed), so an entry stays true; a newer key takes its place.
///
/// Issue 30's realistic console log (1-4 items a line, most of them short) looked each item up in `NameTable`
/// and each pair in `PairTable`: two hashes, two probes and a `memcmp`.
struct ShortItemCache {
    /// 32 bytes: two to a cache line.
    private struct Entry {
        var first: UInt64 = 0
        var last: UInt64 = 0
        /// Length (low 8 bits, 0: empty) and view (above them).
        var tag: UInt64 = 0
        /// The item's id (low 31 bits), whether it is `@self` (bit 31) and the pair's slot (high 32 bits).
        var payload: UInt64 = 0
    }
    private static let size = 4096
    private var entries: [Entry] = []

    /// The key of `bytes` (1...16 of them, followed in memory by 8 bytes of the line: an item ends before
    /// ` changed.`) and `view`, or nil for a longer item.
    @inline(__always)
    private static func key(_ bytes: UnsafeBufferPointer<UInt8>, view: Int) -> (UInt64, UInt64, UInt64, Int)? {
        let count = bytes.count
        guard count > 0, count <= 16, let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        var first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        var last: UInt64 = 0
        if count < 8 {
            first &= (1 << UInt64(8 * count)) - 1
        } else {
            last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        }
        let tag = UInt64(truncatingIfNeeded: view) << 8 | UInt64(count)
        let mixed = (first ^ last &* 0x9E37_79B9_7F4A_7C15 ^ tag) &* 0xBF58_476D_1CE4_E5B9
        return (first, last, tag, Int(truncatingIfNeeded: mixed >> 40) & (size - 1))
    }

    /// The item's id, the pair's slot and whether the item is `@self`, when kept.
    @inline(__always)
    func find(_ bytes: UnsafeBufferPointer<UInt8>, view: Int) -> (item: Int32, slot: Int32, isSelf: Bool)? {
        guard !entries.isEmpty, let (first, last, tag, index) = Self.key(bytes, view: view) else { return nil }
        let entry = entries[index]
        guard entry.tag == tag, entry.first == first, entry.last == last else { return nil }
        return (
            Int32(truncatingIfNeeded: entry.payload & 0x7FFF_FFFF), Int32(truncatingIfNeeded: entry.payload >> 32),
            entry.payload & 0x8000_0000 != 0
        )
    }

    /// Keeps what `bytes` with `view` resolved to (a longer item is not kept).
    mutating func keep(_ bytes: UnsafeBufferPointer<UInt8>, view: Int, item: Int32, slot: Int32, isSelf: Bool) {
        guard let (first, last, tag, index) = Self.key(bytes, view: view) else { return }
        if entries.isEmpty { entries = Array(repeating: Entry(), count: Self.size) }
        let payload =
            UInt64(UInt32(truncatingIfNeeded: slot)) << 32 | UInt64(UInt32(truncatingIfNeeded: item) & 0x7FFF_FFFF)
            | (isSelf ? 0x8000_0000 : 0)
        entries[index] = Entry(first: first, last: last, tag: tag, payload: payload)
    }
}

extension ChangeLogScanner: ReproFormat {
    public static let kind = ArtifactKind.changeLog
    public static let fixtures = ["Fixtures/formats/repro/changelog-variants.log"]
    public static func recognises(_ sniff: FormatSniff) -> Bool { matches(sniff.head) }
    public static func artifact(_ value: ChangeLogSummary) -> ReproArtifact { .changeLog(value) }
}
