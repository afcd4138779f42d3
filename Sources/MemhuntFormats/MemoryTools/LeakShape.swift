/// What a `leaks` tree shows to be leaked by its shape: a reference cycle (the objects on it and the references
/// between them) or one object leaked alone with nothing under it. The evidence a pattern may rest on is the
/// cycle's own nodes and edges; what hangs below them is what the cycle keeps alive.
public struct LeakShape: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// A `CYCLE BACK TO` line and the nodes from its target down to it.
        case cycle
        /// A `ROOT LEAK` of one object with nothing under it.
        case lone
    }

    /// A node on the cycle, with the reference that leads to it from the one before (nil for the first).
    public struct Node: Sendable, Hashable {
        public var className: String?
        public var address: String?
        public var image: String?
        /// The reference from the node before it on the cycle (`person`, `__strong _getVerdict`).
        public var label: String?
        /// The label's field: worked out when asked, since a report's groups hold thousands of nodes.
        public var field: String? { label.map(LeakTreeLine.field(of:)) }
        public var line: Int
    }

    public var kind: Kind
    /// From the cycle's first node (the `CYCLE BACK TO` target) to the node that holds the reference back.
    public var nodes: [Node]
    /// The reference back to the first node, as written, and its line.
    public var backLabel: String?
    public var backField: String?
    public var backLine: Int?
    /// Whether the cycle is whole: its first node was found above the back reference (a fragment that starts
    /// below it names the target only by the back line), and the tree was not cut before its back reference.
    public var complete: Bool
    /// The tree it is in: its first line, objects and bytes.
    public var treeLine: Int
    public var treeCount: Int?
    public var treeBytes: Int?
    /// The classes of the tree's other nodes, most objects first (at most 5): what the cycle keeps alive.
    public var keptAlive: [(className: String, count: Int)]

    public static func == (a: LeakShape, b: LeakShape) -> Bool {
        a.kind == b.kind && a.nodes == b.nodes && a.backLine == b.backLine && a.treeLine == b.treeLine
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(nodes)
        hasher.combine(backLine)
    }

    /// The references along the cycle, the one back included.
    public var fields: [String] { nodes.dropFirst().compactMap(\.field) + [backField].compactMap { $0 } }

    /// `Apartment → Person → Apartment`, or the one class of a lone object; a class name over 48 characters
    /// keeps its name and elides its generic arguments (`Swift._DictionaryStorage<…>`). A cycle whose back
    /// reference the tree does not show ends in `…`, not in its first node (nothing shows that it closes
    /// there); a cycle of more than 8 nodes names its first 4 and last 3 around the count left out.
    public var path: String {
        var names = nodes.map { Self.short($0.className ?? "untyped") }
        if kind == .lone { return names.joined() }
        if names.count > 8 {
            names = names.prefix(4) + ["… \(Self.grouped(names.count - 7)) more …"] + names.suffix(3)
        }
        return (names + [backLine == nil ? "…" : names.first ?? "?"]).joined(separator: " → ")
    }

    /// A cycle the tree was cut above: its back reference not shown, so what closes it is not known.
    public var open: Bool { kind == .cycle && backLine == nil }

    /// "9,993".
    static func grouped(_ n: Int) -> String {
        var digits = Array(String(n))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }

    static func short(_ name: String) -> String {
        guard name.count > 48, let open = name.firstIndex(of: "<") else { return name }
        return name[..<open] + "<…>"
    }

    /// The lines it rests on.
    public var lines: [Int] { nodes.map(\.line) + [backLine].compactMap { $0 } }

    /// The cycles and lone objects of every tree of `forest`.
    public static func all(in forest: LeakForest) -> [LeakShape] {
        forest.trees.flatMap { shapes(in: $0) }
    }

    /// The cycles and lone objects of one tree of a forest.
    public static func shapes(in tree: [LeakTreeLine]) -> [LeakShape] {
        guard let first = tree.first else { return [] }
        if tree.count == 1, first.marker == .rootLeak, first.className != nil {
            return [
                LeakShape(
                    kind: .lone, nodes: [node(first, label: nil)], complete: true, treeLine: first.line,
                    treeCount: first.count, treeBytes: first.bytes, keptAlive: [])
            ]
        }
        var shapes: [LeakShape] = []
        var stack: [LeakTreeLine] = []
        // The tree's objects per class, counted once for all its back references (a count per back reference
        // was quadratic in a tree of thousands of them).
        var census: KeptCensus?
        for line in tree {
            while let last = stack.last, last.indent >= line.indent { stack.removeLast() }
            if line.marker == .cycleBackTo {
                // A back reference with nothing above it (a paste that starts on it) names only its target.
                if !stack.isEmpty {
                    if census == nil { census = KeptCensus(tree) }
                    shapes.append(cycle(back: line, ancestors: stack, tree: tree, census: census!))
                }
            } else {
                stack.append(line)
            }
        }
        // A ROOT CYCLE tree cut before any back reference: the members it shows, down the ROOT CYCLE lines.
        if shapes.isEmpty, first.marker == .rootCycle {
            var members = [first]
            for line in tree.dropFirst() where line.marker == .rootCycle && line.indent > members.last!.indent {
                members.append(line)
            }
            shapes.append(
                LeakShape(
                    kind: .cycle, nodes: members.enumerated().map { node($1, label: $0 == 0 ? nil : $1.label) },
                    complete: false, treeLine: first.line, treeCount: first.count, treeBytes: first.bytes,
                    keptAlive: []))
        }
        return shapes
    }

    /// The cycle a back reference closes: its target is the ancestor with the same address, or, where addresses
    /// are elided as `0x...`, the outermost ancestor of the same class (the longest cycle the tree can mean).
    /// The objects of a tree by class (back references aside), most first: what a cycle keeps alive is the
    /// tree's objects off the cycle's path.
    struct KeptCensus {
        let counts: [String: Int]
        /// Most objects first, then by name.
        let ranked: [(className: String, count: Int)]

        init(_ tree: [LeakTreeLine]) {
            var counts: [String: Int] = [:]
            for line in tree where line.marker != .cycleBackTo {
                if let name = line.className { counts[name, default: 0] += 1 }
            }
            self.counts = counts
            ranked = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { ($0.key, $0.value) }
        }

        /// The `limit` classes with the most objects off `path`. The path lowers the counts of at most its own
        /// classes, so they are among the first `limit` + that many of the tree's ranking.
        func keptAlive(off path: [LeakTreeLine], limit: Int) -> [(className: String, count: Int)] {
            var onPath: [String: Int] = [:]
            for line in path { if let name = line.className { onPath[name, default: 0] += 1 } }
            return ranked.prefix(limit + onPath.count)
                .map { ($0.className, $0.count - (onPath[$0.className] ?? 0)) }
                .filter { $0.1 > 0 }
                .sorted { ($0.1, $1.0) > ($1.1, $0.0) }
                .prefix(limit).map { (className: $0.0, count: $0.1) }
        }
    }

    static func cycle(back: LeakTreeLine, ancestors: [LeakTreeLine], tree: [LeakTreeLine], census: KeptCensus)
        -> LeakShape
    {
        let known = back.address.map { !$0.hasPrefix("0x...") && $0 != "0x" } ?? false
        let start =
            known
            ? ancestors.lastIndex { $0.address == back.address }
            : ancestors.firstIndex { $0.className == back.className }
        var path = Array(ancestors[(start ?? 0)...])
        var nodes = path.enumerated().map { node($1, label: $0 == 0 ? nil : $1.label) }
        if start == nil {
            // The target is above what was pasted: it is named by the back line, first.
            nodes.insert(
                Node(
                    className: back.className, address: back.address, image: nil, label: nil, line: back.line),
                at: 0)
            path = []
        }
        let keptAlive = census.keptAlive(off: path, limit: 5)
        return LeakShape(
            kind: .cycle, nodes: nodes, backLabel: back.label, backField: back.field, backLine: back.line,
            complete: start != nil, treeLine: tree[0].line, treeCount: tree[0].count, treeBytes: tree[0].bytes,
            keptAlive: Array(keptAlive))
    }

    static func node(_ line: LeakTreeLine, label: String?) -> Node {
        Node(
            className: line.className, address: line.address, image: line.image, label: label, line: line.line)
    }
}
