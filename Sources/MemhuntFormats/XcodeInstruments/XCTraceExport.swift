/// What `xcrun xctrace export` wrote: its table of contents (`--toc`) or the tables of an `--xpath` query.
///
/// Shapes, and where each came from (the fixtures under `Fixtures/xctrace/` say the same):
/// - `<trace-query-result><node xpath=…><schema name=…><col><mnemonic>…` then `<row>`s whose children are the
///   columns in order, a value given once with `id` and referred to later with `ref`, `<sentinel/>` for an empty
///   cell: the real exports in ../shared/realworld/xctrace (`virtual-memory`, `device-thermal-state-intervals`,
///   `potential-hangs`).
/// - A track's detail table (`…/tracks/track[@name="Allocations"]/details/detail[@name="Statistics"]`): a `node`
///   of `<row …/>` elements with attributes and no schema, as public scripts that read real exports show it:
///   Allocations Statistics (`category`, `persistent-bytes`, `count-persistent`, `total-bytes`,
///   `transient-bytes`, `count-events`, `count-transient`, `count-total`), Allocations List (`address`,
///   `category`, `live`, `size`, `responsible-caller`, `responsible-library`), Leaks (`leaked-object`, `size`,
///   `count`, `responsible-frame`, `responsible-library`, `address`), VM Tracker's Regions Map (`type`,
///   `virtual-size`, `resident-size`, `dirty-size`, `swapped-size`).
/// - `swiftui-updates`: a schema table whose columns `view-name`, `update-type`, `duration` public scripts read;
///   no real export of it was available.
/// - `<trace-toc><run number=…><info><target><device …/><process name= pid=…/></target><summary>` with
///   `template-name`, `duration`, `start-date`, `end-date`, `end-reason`, then `<data><table schema=…/>` and
///   `<tracks><track name=…><details><detail name=…/>`, as public scripts read it.
public struct XCTraceExport: Sendable, Hashable {
    public enum Document: String, Sendable, Hashable {
        case toc = "trace-toc"
        case queryResult = "trace-query-result"
    }

    public var document: Document
    /// The runs of a table of contents.
    public var runs: [XCTraceRun] = []
    /// The tables of a query result, in file order.
    public var tables: [XCTraceTable] = []
    /// What could not be read as written, one sentence each with its line (a `ref` to an id no element
    /// defines, a cycle of refs, a row that could not be counted): at most `XCTraceExport.diagnosticLimit`, then
    /// a count of the rest, and last, when the intern table's bound cut resolution short, how many refs it did.
    public var diagnostics: [String] = []
    /// Values the intern table no longer held when a `ref` asked for them (its bound was passed).
    public var droppedRefs = 0

    public static let diagnosticLimit = 20

    public init(document: Document) { self.document = document }

    /// The schema names (or detail shapes) the export holds, in file order, each once.
    public var schemaNames: [String] {
        var seen: [String] = []
        let names = document == .toc ? runs.flatMap(\.schemas) : tables.map(\.name)
        for name in names where !seen.contains(name) { seen.append(name) }
        return seen
    }

    /// The app the export is of, when it names one: the target process of a table of contents' runs, or the one
    /// process of its tables' `process` columns (an export that lists several processes names none).
    public var processNames: [String] {
        var names: [String] = []
        let given = document == .toc ? runs.compactMap(\.processName) : tables.flatMap(\.processes.keys).sorted()
        for name in given where !name.isEmpty && !names.contains(name) { names.append(name) }
        return document == .toc || names.count == 1 ? names : []
    }

    /// Whether `prefix` (the first bytes of a file) starts like an xctrace export: after an XML declaration,
    /// comments and whitespace, the root element is `<trace-query-result>` or `<trace-toc>`.
    public static func matches(_ prefix: ArraySlice<UInt8>) -> Bool {
        var index = prefix.startIndex
        if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
        func skipSpace() {
            while index < prefix.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(prefix[index]) { index += 1 }
        }
        func skip(past end: [UInt8]) -> Bool {
            guard let found = prefix[index...].firstRange(of: end) else { return false }
            index = found.upperBound
            return true
        }
        while true {
            skipSpace()
            let rest = prefix[index...]
            if rest.starts(with: "<?".utf8) {
                guard skip(past: Array("?>".utf8)) else { return false }
            } else if rest.starts(with: "<!--".utf8) {
                guard skip(past: Array("-->".utf8)) else { return false }
            } else {
                break
            }
        }
        for root in ["<trace-query-result", "<trace-toc"] {
            let rest = prefix[index...]
            guard rest.starts(with: root.utf8) else { continue }
            let after = rest.dropFirst(root.utf8.count).first
            return after == nil || [0x3E, 0x2F, 0x20, 0x09, 0x0A, 0x0D].contains(after!)
        }
        return false
    }

    /// Reads a whole export held in memory (what `XCTraceScanner` does chunk by chunk).
    public static func parse(_ bytes: [UInt8]) -> Result<XCTraceExport, FormatError> {
        var scanner = XCTraceScanner()
        bytes.withUnsafeBytes { scanner.feed($0) }
        return scanner.finish()
    }
}

/// One run of a table of contents.
public struct XCTraceRun: Sendable, Hashable {
    public var number: Int?
    public var templateName: String?
    /// The target process (`info/target/process`).
    public var processName: String?
    public var pid: Int?
    public var deviceName: String?
    public var deviceModel: String?
    public var platform: String?
    public var osVersion: String?
    /// `summary/duration`, seconds as written.
    public var duration: String?
    public var startDate: String?
    public var endDate: String?
    public var endReason: String?
    /// The schemas of `data/table`, in file order.
    public var schemas: [String] = []
    /// The tracks with the names of their detail tables.
    public var tracks: [XCTraceTrack] = []

    public init(number: Int? = nil) { self.number = number }
}

public struct XCTraceTrack: Sendable, Hashable {
    public var name: String
    public var details: [String] = []
}

/// One operation of a `virtual-memory` table: its rows and the bytes of their sizes.
public struct XCTraceVMOperation: Sendable, Hashable {
    public var name: String
    public var count: Int
    public var bytes: Int

    public init(name: String, count: Int, bytes: Int) {
        self.name = name
        self.count = count
        self.bytes = bytes
    }
}

/// One region type of VM Tracker's Regions Map: the rows of that type and their sizes summed.
public struct XCTraceRegionType: Sendable, Hashable {
    public var type: String
    public var regions: Int
    public var virtualBytes: Int
    public var residentBytes: Int
    public var dirtyBytes: Int
    public var swappedBytes: Int
}

/// One row of Allocations Statistics.
public struct XCTraceAllocationCategory: Sendable, Hashable {
    public var category: String
    public var persistentBytes: Int?
    public var persistentCount: Int?
    public var totalBytes: Int?
    public var transientBytes: Int?
    public var totalCount: Int?
    public var line: Int
}

/// One row of the Leaks detail.
public struct XCTraceLeak: Sendable, Hashable {
    public var object: String
    public var bytes: Int
    public var count: Int
    public var line: Int
}

/// One table of a query result, with what memhunt read of it.
public struct XCTraceTable: Sendable, Hashable {
    /// What the table is, from its schema name or, for a detail table without one, its rows' attributes.
    public enum Shape: String, Sendable, Hashable {
        case virtualMemory = "virtual-memory"
        case vmRegions = "vm-tracker-regions"
        case allocationsStatistics = "allocations-statistics"
        case allocationsList = "allocations-list"
        case leaks = "leaks"
        case swiftUIUpdates = "swiftui-updates"
        /// A schema or detail memhunt does not read: named, rows counted, nothing more.
        case unread
    }

    /// The node's `xpath` attribute as written.
    public var xpath: String?
    /// `<schema name=…>`; nil for a detail table.
    public var schema: String?
    public var shape: Shape = .unread
    /// The columns' mnemonics of a schema table.
    public var columns: [String] = []
    /// The attribute names of a detail table's first row.
    public var attributes: [String] = []
    /// Row elements in the table.
    public var rows = 0
    /// Rows not counted in the sums below (a value not resolved or not a number), each named in the diagnostics.
    public var skippedRows = 0
    /// The line of the `node`.
    public var line: Int
    /// The processes of the `process` column, with their rows (at most 256 names).
    public var processes: [String: Int] = [:]
    public var operations: [XCTraceVMOperation] = []
    public var regionTypes: [XCTraceRegionType] = []
    /// Allocations Statistics: the rows whose category starts with "All " (the summary rows) and the 20 with
    /// the most persistent bytes; `categories` counts them all.
    public var categories: [XCTraceAllocationCategory] = []
    public var categoryCount = 0
    /// Allocations List: live allocations and all listed ones.
    public var liveCount = 0
    public var liveBytes = 0
    public var listedBytes = 0
    /// Leaks: the leaked objects (the rows' `count`s) and bytes, and the 10 largest rows.
    public var leakCount = 0
    public var leakedBytes = 0
    public var largestLeaks: [XCTraceLeak] = []
    /// SwiftUI updates per view (at most 4,096 views; updates of the others in `otherViewUpdates`).
    public var viewUpdates: [String: Int] = [:]
    public var otherViewUpdates = 0

    public init(line: Int) { self.line = line }

    /// The schema's name, or for a detail table its shape's (`allocations-statistics`), or `detail(a, b, …)`
    /// naming the attributes of a detail memhunt does not read.
    public var name: String {
        if let schema { return schema }
        if shape != .unread { return shape.rawValue }
        return attributes.isEmpty ? "detail (no rows)" : "detail (" + attributes.prefix(6).joined(separator: ", ") + ")"
    }

    /// The row of Allocations Statistics named `category`.
    public func category(_ name: String) -> XCTraceAllocationCategory? { categories.first { $0.category == name } }
}

/// Reads an xctrace export chunk by chunk in one pass (`XMLTokenizer` underneath), in bounded memory.
///
/// `id`/`ref` interning: each element with an `id` is kept (its text, or its `fmt` when it has no text, up to
/// 1,024 bytes) in an intern table (`XCTraceIntern`) of two tiers, each of two generations: when the newer
/// generation is full the older one is emptied, and a value found in the older one moves to the newer. Values of
/// an element name that rows seldom refer to (a time stamp, an address: `XCTraceNameStats`) go to the transient
/// tier (12,288 ids a generation), all others to the durable one (49,152 ids), so that values referred to again
/// and again (a process, an operation, a size), or seldom but still, stay. The table holds at most 122,880
/// values in under 4 MiB. A `ref` to a value the table no longer holds is counted (`droppedRefs`), named in the
/// diagnostics with its line, and its row is left out of the sums, never guessed; the last diagnostic then says
/// how many refs the bound cut short. Backtraces are not read: their frames and binaries are not kept.
public struct XCTraceScanner {
    private var tokenizer = XMLTokenizer()
    private var reader = XCTraceReader()

    public init() {}

    /// A smaller intern table (ids per generation), for tests of its bound.
    init(internCapacity: Int) {
        reader.intern = XCTraceIntern(capacity: internCapacity, transient: max(1, internCapacity / 2))
    }

    public mutating func feed(_ chunk: UnsafeRawBufferPointer) {
        guard reader.fatal == nil else { return }
        tokenizer.feed(chunk, into: &reader)
    }

    public mutating func feed(_ chunk: ArraySlice<UInt8>) {
        chunk.withUnsafeBytes { feed($0) }
    }

    public mutating func finish() -> Result<XCTraceExport, FormatError> {
        if let fatal = reader.fatal { return .failure(fatal) }
        if let error = tokenizer.finish() { return .failure(error) }
        guard var export = reader.export else { return .failure(FormatError("no xctrace export root element")) }
        if reader.extraDiagnostics > 0 {
            export.diagnostics.append("and \(reader.extraDiagnostics) more of the same kinds")
        }
        export.droppedRefs = reader.intern.dropped
        if export.droppedRefs > 0 {
            export.diagnostics.append(
                "the intern table's bound (\(reader.intern.capacity) ids) cut resolution short: "
                    + "\(export.droppedRefs) ref(s) to ids it no longer held (or never held) were not resolved")
        }
        return .success(export)
    }
}

/// The handler under `XCTraceScanner`.
struct XCTraceReader: XMLHandler {
    var export: XCTraceExport?
    var fatal: FormatError?
    var intern = XCTraceIntern()
    /// Which element names' values are seldom referred to (kept in the intern table's transient tier).
    private var nameStats = XCTraceNameStats()
    var extraDiagnostics = 0
    private var depth = 0
    private var table: XCTraceTable? {
        didSet { schemaColumns = table?.schema != nil ? table?.columns.count ?? -1 : -1 }
    }
    /// The current table's columns when it has a schema, else -1: what a row's cells are held against, kept apart
    /// so that the hot path never copies the table (which retains each of its arrays).
    private var schemaColumns = -1
    private var run: XCTraceRun?
    /// The toc: names of the open elements under the root.
    private var path: [String] = []
    private var text: [UInt8] = []
    /// Under a row: the open elements from the cell down, and their bytes (`RowBytes`, `used` of them).
    private var frames: [Frame] = []
    private var bytes = RowBytes()
    private var used = 0
    /// The role of each column of a schema table, by its index; the current row's value per role (`cellSet`:
    /// the roles that have one).
    private var roleColumns: [Role?] = []
    private var cellValues: [[UInt8]] = Array(repeating: [], count: Role.allCases.count)
    private var cellSet = 0
    /// The process each process column's bytes name (`DemoApp (12345)` → `DemoApp`), for at most 256 of them.
    private var processNames: [[UInt8]: String] = [:]
    private var rowProblem: String?
    private var cellIndex = 0
    private var inRow = false
    private var rowLine = 0
    private var inMnemonic = false

    enum Role: Int, CaseIterable { case operation, size, process, viewName }

    struct Frame {
        /// The `id` to keep the element's value under, and its name's entry in `nameStats`.
        var id: Int?
        var nameSlot: Int?
        /// Inside a backtrace: not read.
        var skip: Bool
        var role: Role?
        var line: Int
        /// Where the frame's bytes start in `bytes`: its `fmt` (`fmtCount` bytes), then its resolved value, then
        /// its text.
        var start: Int
        var fmtCount = 0
        /// The value came from a `ref` (or is missing: 0 bytes), so the element's text is not its value; -1 when
        /// it did not.
        var resolvedCount = -1
        var textCount = 0
    }

    /// The bytes of the open frames, back to back. A child's bytes follow its parent's and are given back when it
    /// ends, so a parent's text stays one run; at most `fmt`, a value and text of `XCTraceIntern.valueLimit`
    /// bytes for each element that can be open.
    final class RowBytes {
        static let capacity = (XMLTokenizer.maxDepth + 1) * 3 * XCTraceIntern.valueLimit
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        deinit { base.deallocate() }
    }

    private mutating func note(_ message: String) {
        guard export != nil else { return }
        if export!.diagnostics.count < XCTraceExport.diagnosticLimit {
            export!.diagnostics.append(message)
        } else {
            extraDiagnostics += 1
        }
    }

    static func number(_ bytes: some Collection<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte &- 0x30 < 10 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// An `id` as a key: its number, or for an id that is no number a hash of its bytes (above every number).
    static func key(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        if let number = number(bytes) { return number }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash | (1 << 62)) & Int.max
    }

    static func string(_ bytes: some Collection<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    static func trimmed(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return [] }
        return bytes[first...last]
    }

    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end, XMLTokenizer.isSpace(bytes[start]) { start += 1 }
        while end > start, XMLTokenizer.isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// `DemoApp (12345)` → `DemoApp`.
    static func processName(_ text: String) -> String {
        guard text.hasSuffix(")"), let open = text.lastIndex(of: "("),
            number(text[text.index(after: open)..<text.index(before: text.endIndex)].utf8) != nil
        else { return text }
        return String(text[..<open]).trimmingSpaces
    }

    mutating func startElement(_ tag: XMLTag) {
        depth += 1
        if !text.isEmpty { text.removeAll(keepingCapacity: true) }
        if depth == 1 {
            if tag.named("trace-toc") {
                export = XCTraceExport(document: .toc)
            } else if tag.named("trace-query-result") {
                export = XCTraceExport(document: .queryResult)
            } else {
                fatal = FormatError(
                    "the root element <\(Self.string(tag.name.prefix(64)))> is no xctrace export's",
                    line: tag.position.line, offset: tag.position.offset)
            }
            return
        }
        guard let document = export?.document else { return }
        if document == .toc {
            startTOC(tag)
        } else {
            startQuery(tag)
        }
    }

    mutating func endElement(at position: XMLPosition) {
        defer { depth -= 1 }
        guard let document = export?.document, depth > 1 else { return }
        if document == .toc {
            endTOC()
        } else {
            endQuery(position)
        }
    }

    mutating func text(_ piece: UnsafeBufferPointer<UInt8>) {
        if !frames.isEmpty {
            let top = frames.count - 1
            guard !frames[top].skip else { return }
            let taken = min(piece.count, XCTraceIntern.valueLimit - frames[top].textCount)
            guard taken > 0, let from = piece.baseAddress else { return }
            (bytes.base + used).update(from: from, count: taken)
            used += taken
            frames[top].textCount += taken
        } else if text.count < 4096 {
            text.append(contentsOf: piece.prefix(4096 - text.count))
        }
    }

    // MARK: The table of contents

    private mutating func startTOC(_ tag: XMLTag) {
        let name = Self.string(tag.name)
        path.append(name)
        func attribute(_ key: StaticString) -> String? { tag.attribute(key).map(Self.string) }
        switch path {
        case ["run"]: run = XCTraceRun(number: attribute("number").flatMap { Int($0) })
        case ["run", "info", "target", "device"]:
            run?.deviceName = attribute("name")
            run?.deviceModel = attribute("model")
            run?.platform = attribute("platform")
            run?.osVersion = attribute("os-version")
        case ["run", "info", "target", "process"]:
            run?.processName = attribute("name")
            run?.pid = attribute("pid").flatMap { Int($0) }
        case ["run", "data", "table"]:
            if let schema = attribute("schema"), (run?.schemas.count ?? 0) < 4096 { run?.schemas.append(schema) }
        case ["run", "tracks", "track"]:
            if (run?.tracks.count ?? 0) < 4096 { run?.tracks.append(XCTraceTrack(name: attribute("name") ?? "")) }
        case ["run", "tracks", "track", "details", "detail"]:
            if let detail = attribute("name"), let last = run?.tracks.indices.last,
                run!.tracks[last].details.count < 256
            {
                run?.tracks[last].details.append(detail)
            }
        default: break
        }
    }

    private mutating func endTOC() {
        let value = Self.string(text).trimmingSpaces
        if path.count == 4, path.starts(with: ["run", "info", "summary"]) {
            switch path[3] {
            case "template-name": run?.templateName = value
            case "duration": run?.duration = value
            case "start-date": run?.startDate = value
            case "end-date": run?.endDate = value
            case "end-reason": run?.endReason = value
            default: break
            }
        }
        if path == ["run"], let run { export?.runs.append(run) }
        path.removeLast()
        if !text.isEmpty { text.removeAll(keepingCapacity: true) }
    }

    // MARK: Query results

    private mutating func startQuery(_ tag: XMLTag) {
        if inRow {
            startCell(tag)
            return
        }
        switch depth {
        case 2 where tag.named("node"):
            var table = XCTraceTable(line: tag.position.line)
            table.xpath = tag.attribute("xpath").map(Self.string)
            self.table = table
            roleColumns = []
        case 5 where tag.named("mnemonic"):
            inMnemonic = true
        case 3 where tag.named("schema"):
            table?.schema = tag.attribute("name").map(Self.string)
        case 3 where tag.named("row"):
            table?.rows += 1
            guard table?.rows != nil else { return }
            rowLine = tag.position.line
            if tag.attributeCount > 0 {
                attributeRow(tag)
            } else {
                inRow = true
                cellIndex = 0
                cellSet = 0
                rowProblem = nil
            }
        default: break
        }
    }

    private mutating func endQuery(_ position: XMLPosition) {
        if inRow {
            if depth == 3 {
                inRow = false
                finishRow()
            } else {
                endCell()
            }
            return
        }
        switch depth {
        case 5 where inMnemonic:
            // `<schema><col><mnemonic>`
            inMnemonic = false
            if table?.schema != nil, table!.columns.count < 1024 {
                table!.columns.append(Self.string(Self.trimmed(text)))
            }
        case 3 where table?.rows == 0 && table?.shape == .unread && table?.schema != nil:
            classifySchema()
        case 2:
            if var table {
                if table.schema != nil, table.rows == 0 { Self.classify(&table) }
                export?.tables.append(table)
            }
            table = nil
        default: break
        }
        if !text.isEmpty { text.removeAll(keepingCapacity: true) }
    }

    private mutating func classifySchema() {
        guard var table else { return }
        Self.classify(&table)
        roleColumns = Array(repeating: nil, count: table.columns.count)
        func column(_ mnemonic: String) -> Int? { table.columns.firstIndex(of: mnemonic) }
        switch table.shape {
        case .virtualMemory:
            if let index = column("operation") { roleColumns[index] = .operation }
            if let index = column("size") { roleColumns[index] = .size }
            if let index = column("process") { roleColumns[index] = .process }
        case .swiftUIUpdates:
            if let index = column("view-name") { roleColumns[index] = .viewName }
            if let index = column("process") { roleColumns[index] = .process }
        default: break
        }
        self.table = table
    }

    static func classify(_ table: inout XCTraceTable) {
        switch table.schema {
        case "virtual-memory"?: table.shape = .virtualMemory
        case "swiftui-updates"?: table.shape = .swiftUIUpdates
        default: table.shape = .unread
        }
    }

    private mutating func startCell(_ tag: XMLTag) {
        let parentSkips = frames.last?.skip ?? false
        let isCell = frames.isEmpty
        var role: Role?
        if isCell {
            // A copy of the reader has its own bytes (none are in use between cells).
            if !isKnownUniquelyReferenced(&bytes) { bytes = RowBytes() }
            role = cellIndex < roleColumns.count ? roleColumns[cellIndex] : nil
            cellIndex += 1
            if schemaColumns >= 0, cellIndex == schemaColumns + 1, let table {
                note(
                    "line \(tag.position.line): a row of \(table.name) has more cells than its \(table.columns.count) columns"
                )
            }
        }
        let name = tag.name
        var frame = Frame(
            id: nil, skip: parentSkips || Self.isUnread(name), role: role, line: tag.position.line, start: used)
        if !frame.skip {
            var ref: UnsafeBufferPointer<UInt8>?
            for index in 0..<tag.attributeCount {
                let attribute = tag.attributeName(index)
                if XMLTag.equal(attribute, "id") {
                    frame.id = Self.key(tag.attributeValue(index))
                    frame.nameSlot = nameStats.slot(name)
                } else if XMLTag.equal(attribute, "fmt") {
                    let fmt = tag.attributeValue(index)
                    frame.fmtCount = min(fmt.count, XCTraceIntern.valueLimit)
                    if let from = fmt.baseAddress { (bytes.base + used).update(from: from, count: frame.fmtCount) }
                    used += frame.fmtCount
                } else if XMLTag.equal(attribute, "ref") {
                    ref = tag.attributeValue(index)
                }
            }
            if let ref {
                if let slot = nameStats.slot(name) { nameStats.refer(slot) }
                frame.resolvedCount = resolve(ref, at: tag.position.line, name: name) ?? 0
                // A value of a column the table is read for, or inside one, that is not resolved: the row is
                // not counted.
                if (isCell ? role : frames.first?.role) != nil, frame.resolvedCount == 0,
                    intern.definedLine(Self.key(ref)) == nil
                {
                    rowProblem = rowProblem ?? "ref=\"\(Self.string(ref.prefix(24)))\""
                }
            } else if isCell, XMLTag.equal(name, "sentinel") {
                frame.resolvedCount = 0
            }
        }
        frames.append(frame)
    }

    /// Backtraces, their frames and binaries, and text addresses: not read.
    static func isUnread(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        XMLTag.equal(name, "frame") || XMLTag.equal(name, "binary") || XMLTag.equal(name, "text-addresses")
            || (name.count >= 9 && XMLTag.equal(UnsafeBufferPointer(rebasing: name.suffix(9)), "backtrace"))
            || (name.count >= 3 && XMLTag.equal(UnsafeBufferPointer(rebasing: name.suffix(3)), "-bt"))
    }

    /// Copies the value of `ref` to the frame bytes and returns its length; nil (and a diagnostic) when no element
    /// defines it, it is the element that contains the ref, or the table dropped it.
    private mutating func resolve(_ ref: UnsafeBufferPointer<UInt8>, at line: Int, name: UnsafeBufferPointer<UInt8>)
        -> Int?
    {
        let key = Self.key(ref)
        var shown: String { "<\(Self.string(name.prefix(40))) ref=\"\(Self.string(ref.prefix(24)))\">" }
        if let open = frames.first(where: { $0.id == key }) {
            note(
                "line \(line): \(shown) is inside the element that defines id \(Self.string(ref.prefix(24))) "
                    + "(line \(open.line)): a cycle of refs, not resolved")
            return nil
        }
        if let value = intern.value(key) {
            if let from = value.baseAddress { (bytes.base + used).update(from: from, count: value.count) }
            used += value.count
            return value.count
        }
        if intern.rotated {
            intern.dropped += 1
            note(
                "line \(line): \(shown): id \(Self.string(ref.prefix(24))) is not held (never defined, or dropped "
                    + "from the intern table of \(intern.capacity) ids)")
        } else {
            note(
                "line \(line): \(shown) refers to id \(Self.string(ref.prefix(24))), which no element before it defines"
            )
        }
        return nil
    }

    private mutating func endCell() {
        let frame = frames.removeLast()
        defer { used = frame.start }
        guard !frame.skip else { return }
        let base = bytes.base + frame.start
        let fmt = UnsafeBufferPointer(start: base, count: frame.fmtCount)
        let value: UnsafeBufferPointer<UInt8>
        if frame.resolvedCount >= 0 {
            value = UnsafeBufferPointer(start: base + frame.fmtCount, count: frame.resolvedCount)
        } else {
            let text = Self.trimmed(UnsafeBufferPointer(start: base + frame.fmtCount, count: frame.textCount))
            value = text.isEmpty ? fmt : text
        }
        if let id = frame.id,
            let line = intern.define(
                id, value, line: frame.line, durable: frame.nameSlot.map { nameStats.define($0) } ?? true)
        {
            note("line \(frame.line): id \(id) is defined again (first at line \(line)); the later value is kept")
        }
        if frames.isEmpty, let role = frame.role {
            // A process column names the process by its `fmt` ("DemoApp (12345)"), not its pid text.
            let chosen = role == .process && frame.resolvedCount < 0 && frame.fmtCount > 0 ? fmt : value
            cellValues[role.rawValue].removeAll(keepingCapacity: true)
            cellValues[role.rawValue].append(contentsOf: chosen)
            cellSet |= 1 << role.rawValue
        }
    }

    /// The table, moved out (not copied: its arrays stay uniquely referenced while it changes); nil in its place.
    private mutating func takeTable() -> XCTraceTable? {
        var taken: XCTraceTable?
        swap(&taken, &table)
        return taken
    }

    /// The current row's value of `role`, nil when it has none.
    private func cellValue(_ role: Role) -> [UInt8]? {
        cellSet & 1 << role.rawValue != 0 ? cellValues[role.rawValue] : nil
    }

    private mutating func finishRow() {
        frames.removeAll(keepingCapacity: true)
        used = 0
        // Taken out while it changes, so that its arrays are not copied.
        guard var table = takeTable() else { return }
        defer { self.table = table }
        if let problem = rowProblem {
            table.skippedRows += 1
            note("line \(rowLine): a row of \(table.name) is not counted: its \(problem) is not resolved")
            return
        }
        if let process = cellValue(.process), !process.isEmpty {
            var name = processNames[process] ?? ""
            if name.isEmpty {
                name = Self.processName(Self.string(process))
                if processNames.count < 256 { processNames[process] = name }
            }
            if let index = table.processes.index(forKey: name) {
                table.processes.values[index] += 1
            } else if table.processes.count < 256 {
                table.processes[name] = 1
            }
        }
        switch table.shape {
        case .virtualMemory:
            let operation = cellValue(.operation).map(Self.string) ?? ""
            // An empty size (`<sentinel/>`) is no bytes; a size that is no number is not counted.
            let sizeText = cellValue(.size) ?? []
            guard let size = sizeText.isEmpty ? 0 : Self.number(sizeText) else {
                table.skippedRows += 1
                note("line \(rowLine): a row of virtual-memory is not counted: its size is not a number")
                return
            }
            if let index = table.operations.firstIndex(where: { $0.name == operation }) {
                table.operations[index].count += 1
                table.operations[index].bytes += size
            } else if table.operations.count < 256 {
                table.operations.append(XCTraceVMOperation(name: operation, count: 1, bytes: size))
            }
        case .swiftUIUpdates:
            let view = cellValue(.viewName).map(Self.string) ?? ""
            if table.viewUpdates[view] != nil || table.viewUpdates.count < 4096 {
                table.viewUpdates[view, default: 0] += 1
            } else {
                table.otherViewUpdates += 1
            }
        default: break
        }
    }

    /// A detail table's row: its shape is decided by the first row's attributes.
    private mutating func attributeRow(_ tag: XMLTag) {
        guard var table = takeTable() else { return }
        defer { self.table = table }
        func has(_ name: StaticString) -> Bool { tag.attribute(name) != nil }
        if table.rows == 1 {
            table.attributes = (0..<min(tag.attributeCount, 32)).map { Self.string(tag.attributeName($0)) }
            if has("category"), has("persistent-bytes") {
                table.shape = .allocationsStatistics
            } else if has("leaked-object") {
                table.shape = .leaks
            } else if has("type"), has("resident-size") {
                table.shape = .vmRegions
            } else if has("size"), has("live") {
                table.shape = .allocationsList
            }
        }
        let line = tag.position.line
        func number(_ name: StaticString) -> Int?? {
            guard let value = tag.attribute(name) else { return .some(nil) }
            guard let number = Self.number(value) else { return nil }
            return .some(number)
        }
        func skip(_ what: String) {
            table.skippedRows += 1
            note("line \(line): a row of \(table.name) is not counted: \(what)")
        }
        switch table.shape {
        case .allocationsStatistics:
            guard let category = tag.attribute("category").map(Self.string),
                let persistent = number("persistent-bytes"),
                let count = number("count-persistent"), let total = number("total-bytes"),
                let transient = number("transient-bytes"), let events = number("count-total")
            else { return skip("its category or a byte count is missing or not a number") }
            table.categoryCount += 1
            let row = XCTraceAllocationCategory(
                category: category, persistentBytes: persistent, persistentCount: count, totalBytes: total,
                transientBytes: transient, totalCount: events, line: line)
            if category.hasPrefix("All ") {
                if table.categories.filter({ $0.category.hasPrefix("All ") }).count < 16 {
                    table.categories.append(row)
                }
            } else {
                table.categories.append(row)
                let others = table.categories.filter { !$0.category.hasPrefix("All ") }
                if others.count > 20,
                    let smallest = others.min(by: { ($0.persistentBytes ?? 0) < ($1.persistentBytes ?? 0) }),
                    let index = table.categories.firstIndex(of: smallest)
                {
                    table.categories.remove(at: index)
                }
            }
        case .leaks:
            guard let size = number("size"), let size, let count = number("count") else {
                return skip("its size or count is missing or not a number")
            }
            let object = tag.attribute("leaked-object").map(Self.string) ?? ""
            table.leakCount += count ?? 1
            table.leakedBytes += size
            table.largestLeaks.append(XCTraceLeak(object: object, bytes: size, count: count ?? 1, line: line))
            table.largestLeaks.sort { ($0.bytes, -$0.line) > ($1.bytes, -$1.line) }
            if table.largestLeaks.count > 10 { table.largestLeaks.removeLast() }
        case .vmRegions:
            guard let virtual = number("virtual-size"), let resident = number("resident-size"),
                let dirty = number("dirty-size"), let swapped = number("swapped-size")
            else { return skip("a size is not a number") }
            let type = tag.attribute("type").map(Self.string) ?? ""
            if let index = table.regionTypes.firstIndex(where: { $0.type == type }) {
                table.regionTypes[index].regions += 1
                table.regionTypes[index].virtualBytes += virtual ?? 0
                table.regionTypes[index].residentBytes += resident ?? 0
                table.regionTypes[index].dirtyBytes += dirty ?? 0
                table.regionTypes[index].swappedBytes += swapped ?? 0
            } else if table.regionTypes.count < 1024 {
                table.regionTypes.append(
                    XCTraceRegionType(
                        type: type, regions: 1, virtualBytes: virtual ?? 0, residentBytes: resident ?? 0,
                        dirtyBytes: dirty ?? 0, swappedBytes: swapped ?? 0))
            }
        case .allocationsList:
            guard let size = number("size"), let size else { return skip("its size is missing or not a number") }
            table.listedBytes += size
            if tag.attribute("live")?.elementsEqual("true".utf8) == true {
                table.liveCount += 1
                table.liveBytes += size
            }
        default: break
        }
    }
}

extension XCTraceExport: ReproFormat {
    public static let kind = ArtifactKind.xctraceExport
    public static let fixtures = ["Fixtures/xctrace/toc.xml"]
    public static func recognises(_ sniff: FormatSniff) -> Bool { matches(sniff.head) }
    public static func artifact(_ value: XCTraceExport) -> ReproArtifact { .xctraceExport(value) }
}
