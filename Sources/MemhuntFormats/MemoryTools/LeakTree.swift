/// One line of a `leaks` tree: `<count> (<size>) <label> --> ROOT CYCLE: <Class 0xADDR> [n]  <image>  <symbol>`,
/// or `<label> --> CYCLE BACK TO <Class 0xADDR> [n]`, with every part but the node optional.
public struct LeakTreeLine: Sendable, Hashable {
    public enum Marker: String, Sendable, Hashable {
        case rootCycle = "ROOT CYCLE"
        case rootLeak = "ROOT LEAK"
        case cycleBackTo = "CYCLE BACK TO"
    }

    /// Leading spaces: a child is indented further than its parent.
    public var indent: Int
    /// Objects and bytes of the node's tree, where the line gives them (a `CYCLE BACK TO` line does not).
    public var count: Int?
    public var bytes: Int?
    /// The reference from the parent, as written before `-->` (`__strong delegate`, `_node + 64`,
    /// `__strong [capture]`); nil for a node printed without one.
    public var label: String?
    public var marker: Marker?
    /// The class (`Person`, `Closure context`, `__NSMallocBlock__`, `Swift._DictionaryStorage<…>`); nil for an
    /// untyped block (`ROOT CYCLE: 0x88d07cfc0 [32]`).
    public var className: String?
    /// The address as written: `0x600001c6a760`, or `0x...` where the author elided it.
    public var address: String?
    /// The node's own bytes, the `[n]` after it, where the line gives them.
    public var size: Int? = nil
    /// For a block: the binary image its code is in (`NetworkExtension`, `CFNetwork`), where the line names it.
    public var image: String?
    /// 1-based line in the text.
    public var line: Int

    public init(
        indent: Int, count: Int? = nil, bytes: Int? = nil, label: String? = nil, marker: Marker? = nil,
        className: String? = nil, address: String? = nil, size: Int? = nil, image: String? = nil, line: Int
    ) {
        self.indent = indent
        self.count = count
        self.bytes = bytes
        self.label = label
        self.marker = marker
        self.className = className
        self.address = address
        self.size = size
        self.image = image
        self.line = line
    }

    /// The label without `__strong`/`__weak`/`__unsafe_unretained` and without a ` + N` offset: `delegate`,
    /// `_node`, `[capture]`.
    public var field: String? { label.map(Self.field(of:)) }

    /// `label`'s field.
    static func field(of label: String) -> String {
        var text = label
        for qualifier in ["__strong ", "__weak ", "__unsafe_unretained ", "__autoreleasing "]
        where text.hasPrefix(qualifier) {
            text = String(text.dropFirst(qualifier.count))
        }
        if let plus = text.firstRange(of: " + ") { text = String(text[..<plus.lowerBound]) }
        return text
    }

    /// The label says the reference is weak (`__weak`): no edge of a cycle.
    public var isWeak: Bool { label?.hasPrefix("__weak ") == true }
}

/// The `leaks` trees of a text, each top-level entry with the lines under it, and their shapes folded as each
/// tree closes (`LeakShapeTally`). A report's trees follow its `<< TOTAL >>` line; a fragment pasted alone (no
/// header, no summary) is read from its first tree line. Bounded: at most `maxTrees` trees, `maxLines` lines each
/// and `maxTotalLines` lines in all are kept, `maxShapes` distinct shapes are named, and what was left out is
/// counted. A streamed report keeps only the
/// tree being read and the tally; `read` keeps the trees' lines too.
public struct LeakForest: Sendable, Hashable {
    public static let maxTrees = 2_000
    /// Enough for a cycle of 10,000 nodes and what hangs below it.
    public static let maxLines = 20_000
    public static let maxTotalLines = 100_000
    /// Distinct cycles and lone objects named (`LeakShapeTally`): the findings name ten and list a hundred.
    public static let maxShapes = 1_000

    /// Each top-level entry: its lines, the first being the entry itself (empty where the trees were folded
    /// only).
    public var trees: [[LeakTreeLine]]
    /// The kept trees' shapes, bytes and classes.
    public var shapes = LeakShapeTally()
    /// Trees and lines not kept.
    public var treesLeftOut: Int
    public var linesLeftOut: Int

    public init(trees: [[LeakTreeLine]] = [], treesLeftOut: Int = 0, linesLeftOut: Int = 0) {
        self.trees = trees
        for tree in trees { shapes.add(tree: tree) }
        self.treesLeftOut = treesLeftOut
        self.linesLeftOut = linesLeftOut
    }

    /// The trees of `lines`, with their lines.
    public static func read(_ lines: some Sequence<Substring>, firstLine: Int = 1) -> LeakForest {
        var builder = Builder(firstLine: firstLine, keepingLines: true)
        for line in lines { builder.add(line) }
        return builder.finish()
    }

    /// How much of a forest is kept: trees, lines of one tree, lines in all, distinct shapes named.
    struct Bounds: Sendable, Hashable {
        var trees = maxTrees
        var lines = maxLines
        var total = maxTotalLines
        var shapes = maxShapes
    }

    /// The forest built one line at a time, as a streamed report is read.
    public struct Builder: Sendable {
        private var forest = LeakForest()
        let bounds: Bounds
        /// Whether `passOver` may pass lines over (the fuzz target compares a read without it).
        let fast: Bool
        /// Whether the trees' lines are kept beside their tally.
        let keepingLines: Bool
        private var number: Int
        private var current: [LeakTreeLine] = []
        // Lines seen of the current tree, its first line's indent, whether it is kept, and the lines kept so far.
        private var seen = 0
        private var rootIndent = 0
        private var keeping = true
        private var kept = 0
        private var interned: [String: String] = [:]
        static let maxInterned = 50_000

        public init(firstLine: Int = 1, keepingLines: Bool = false) {
            self.init(firstLine: firstLine, bounds: Bounds(), fast: true, keepingLines: keepingLines)
        }

        init(firstLine: Int, bounds: Bounds, fast: Bool, keepingLines: Bool = false) {
            number = firstLine - 1
            forest.shapes = LeakShapeTally(maxGroups: bounds.shapes)
            self.bounds = bounds
            self.fast = fast
            self.keepingLines = keepingLines
        }

        /// Whether a tree line with a marker (`ROOT CYCLE`, `ROOT LEAK`, `CYCLE BACK TO`) was read.
        public private(set) var sawMarker = false

        public mutating func add(_ raw: Substring) {
            number += 1
            let text = raw.hasSuffix("\r") ? raw.dropLast() : raw
            // A blank line, a total or a `STACK OF` title (`leaks` with MallocStackLogging) ends a tree; other
            // lines that are no tree lines (a header, a stack frame, a string's preview) end nothing.
            if text.allSatisfy(\.isWhitespace) || (Self.mayHold(text, "<< TOTAL >>") && text.contains("<< TOTAL >>"))
                || text.hasPrefix("STACK OF ")
            {
                close()
                return
            }
            guard let node = LeakTreeLine.parse(text, line: number) else { return }
            take(node)
        }

        /// `add` of an ASCII line, read from its bytes.
        mutating func add(ascii line: LeakLineBytes) {
            number += 1
            let bytes = line.bytes
            if bytes.allSatisfy(LeakLineBytes.isWhitespace) || line.holdsTotal
                || line.hasPrefix("STACK OF ", at: 0)
            {
                close()
                return
            }
            guard let node = LeakTreeLine.parse(ascii: line, line: number) else { return }
            take(node)
        }

        /// A tree line read: it starts a tree, or is the current tree's next.
        private mutating func take(_ node: LeakTreeLine) {
            sawMarker = sawMarker || node.marker != nil
            // An entry is a line with its count no deeper than the tree's first; a fragment pasted from the middle
            // of a tree starts a tree with whatever line comes first.
            if seen > 0, node.count != nil, node.indent <= rootIndent { close() }
            if seen == 0 {
                keeping = forest.shapes.trees < bounds.trees && kept < bounds.total
                rootIndent = node.indent
            }
            seen += 1
            guard keeping else { return }
            if current.count < bounds.lines, kept + current.count < bounds.total {
                var node = node
                node.className = node.className.map { intern($0) }
                node.label = node.label.map { intern($0) }
                node.image = node.image.map { intern($0) }
                current.append(node)
            } else {
                forest.linesLeftOut += 1
            }
        }

        /// `text`, or the same text kept before: a report's classes, references and images repeat from line to
        /// line, and each line's own copy was a third of the forest. Texts that fit in a string's own bytes (15)
        /// take no storage and are not kept; past `maxInterned` texts, new ones are not kept either.
        private mutating func intern(_ text: String) -> String {
            guard text.utf8.count > 15 else { return text }
            if let known = interned[text] { return known }
            if interned.count < Self.maxInterned { interned[text] = text }
            return text
        }

        /// Whether `text`'s bytes hold `needle`'s (an ASCII text): where they do not, no `Character` search can
        /// find it, and that search built a searcher per line (most of a large report's reading).
        static func mayHold(_ text: Substring, _ needle: StaticString) -> Bool {
            text.utf8.withContiguousStorageIfAvailable { ReproText.containsBytes($0, needle) } ?? true
        }

        /// Counts a line that was not given (too long to read) so later lines keep their numbers.
        public mutating func skip() { number += 1 }

        /// Counts an ASCII line whose first `indent` bytes are spaces and returns true, where its bytes alone show
        /// that `add` would change nothing: the tree it is in has begun and is not kept, a marker was seen, and the
        /// line is not blank, holds no `<< TOTAL >>`, is no `STACK OF` title and cannot start an entry. Past the
        /// bounds this is nearly every line of a large report, and it spares each a parse.
        mutating func passOver(_ line: LeakLineBytes, indent: Int) -> Bool {
            guard fast, !keeping, seen > 0, sawMarker, indent < line.count else { return false }
            let first = line[indent]
            // Printable, not a space: the line is not blank.
            guard first > 0x20, first < 0x7F else { return false }
            if LeakLineBytes.isDigit(first), indent <= rootIndent { return false }
            if indent == 0, line.hasPrefix("STACK OF ", at: 0) { return false }
            guard !line.holdsTotal else { return false }
            number += 1
            return true
        }

        private mutating func close() {
            guard seen > 0 else { return }
            if keeping {
                forest.shapes.add(tree: current)
                // A copy at its exact size: the lines gathered in `current` grew by doubling.
                if keepingLines { forest.trees.append(current.withUnsafeBufferPointer { Array($0) }) }
                kept += current.count
            } else {
                forest.treesLeftOut += 1
            }
            current.removeAll(keepingCapacity: true)
            seen = 0
        }

        public mutating func finish() -> LeakForest {
            close()
            forest.shapes.finish()
            return forest
        }
    }
}

extension LeakTreeLine {
    /// The line as a tree line, or nil when it is none.
    public static func parse(_ text: Substring, line: Int) -> LeakTreeLine? {
        let indent = text.prefix { $0 == " " }.count
        var rest = text.dropFirst(indent)
        var count: Int?
        var bytes: Int?
        // `12 (704 bytes) …`
        if let first = rest.first, first.isNumber, let open = rest.firstIndex(of: "("),
            let close = rest[open...].firstIndex(of: ")"), let number = Int(rest[..<open].trimmingSpaces)
        {
            count = number
            bytes = LeaksReport.size(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...].drop { $0 == " " }
        }
        var label: String?
        if LeakForest.Builder.mayHold(rest, " --> "), let arrow = rest.firstRange(of: " --> ") {
            let written = rest[..<arrow.lowerBound].trimmingSpaces
            label = written.isEmpty ? nil : String(written)
            rest = rest[arrow.upperBound...]
        } else if rest.hasPrefix("--> ") {
            rest = rest.dropFirst(4)
        }
        var marker: Marker?
        for candidate in [Marker.rootCycle, .rootLeak] where rest.hasPrefix(candidate.rawValue + ":") {
            marker = candidate
            rest = rest.dropFirst(candidate.rawValue.count + 1).drop { $0 == " " }
        }
        if rest.hasPrefix(Marker.cycleBackTo.rawValue + " ") {
            marker = .cycleBackTo
            rest = rest.dropFirst(Marker.cycleBackTo.rawValue.count + 1)
        }
        guard let node = Self.node(rest) else { return nil }
        // A node needs its count, or a marker, or a label: `<NSString 0x…>` alone in a stack or a preview is no
        // tree line.
        guard count != nil || marker != nil || label != nil else { return nil }
        return LeakTreeLine(
            indent: indent, count: count, bytes: bytes, label: label, marker: marker, className: node.className,
            address: node.address, size: node.size, image: node.image, line: line)
    }

    /// `<Class 0xADDR> [n]  image  symbol` or `0xADDR [n]`.
    private static func node(
        _ text: Substring
    ) -> (className: String?, address: String?, size: Int?, image: String?)? {
        if text.hasPrefix("0x") {
            let address = text.prefix { !$0.isWhitespace }
            return (nil, String(address), size(text.dropFirst(address.count)), nil)
        }
        guard text.first == "<" else { return nil }
        // The class may hold `<…>` of its own (generics, `SwiftUI.WeakBox<…>`): the node ends where they close.
        var depth = 0
        var end: Substring.Index?
        for index in text.indices {
            if text[index] == "<" { depth += 1 }
            if text[index] == ">" {
                depth -= 1
                if depth == 0 {
                    end = index
                    break
                }
            }
        }
        // Brackets that do not balance (a name cut or odd): the node ends at the last `>` before its `[size]`.
        let sized = LeakForest.Builder.mayHold(text, "> [") ? text.firstRange(of: "> [")?.upperBound : nil
        guard let end = end ?? text[..<(sized ?? text.endIndex)].lastIndex(of: ">")
        else { return nil }
        let inner = text[text.index(after: text.startIndex)..<end]
        var className = Substring(inner)
        var address: String?
        if let space = inner.lastIndex(of: " "), inner[inner.index(after: space)...].hasPrefix("0x") {
            address = String(inner[inner.index(after: space)...])
            className = inner[..<space]
        }
        // `[48]  NetworkExtension  __92-[NEFilter…`: a block's image, two spaces after the size.
        var image: String?
        let after = text[text.index(after: end)...]
        if LeakForest.Builder.mayHold(after, "]  "), let size = after.firstRange(of: "]  ") {
            let tail = after[size.upperBound...]
            let name = tail.prefix { !$0.isWhitespace }
            if !name.isEmpty, !name.hasPrefix("\""), tail.dropFirst(name.count).hasPrefix("  ") {
                image = String(name)
            }
        }
        return (className.isEmpty ? nil : String(className), address, size(after), image)
    }

    /// `N` of ` [N]` at the start of `text`.
    private static func size(_ text: Substring) -> Int? {
        let rest = text.drop { $0 == " " }
        guard rest.first == "[", let close = rest.firstIndex(of: "]") else { return nil }
        return Int(rest[rest.index(after: rest.startIndex)..<close])
    }
}
