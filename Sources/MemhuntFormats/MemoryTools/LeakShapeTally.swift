/// The cycles and lone objects of a forest's kept trees, folded as each tree closes: one group per distinct
/// shape (its first instance, how many, the trees it is in), each kept tree's bytes, and the kept lines' objects
/// per class. A streamed report lets each tree go once folded. What the groups keep is bounded: each node of a
/// kept shape is a kept line, and past `maxGroups` distinct shapes a new one is counted in `unnamed`, not kept.
public struct LeakShapeTally: Sendable, Hashable {
    /// Shapes alike in all but where they are: kind, classes, images, references, and how the cycle closes.
    public struct Group: Sendable, Hashable {
        /// The first instance, as read.
        public var shape: LeakShape
        public var instances: Int
        /// The kept trees it is in, each once, in order: their indexes in `treeBytes`.
        public var trees: [Int]
    }

    /// Objects of one class on the kept lines, and their own bytes (the `[n]` after each).
    public struct ClassCount: Sendable, Hashable {
        public var count: Int
        public var bytes: Int

        public init(count: Int = 0, bytes: Int = 0) {
            self.count = count
            self.bytes = bytes
        }
    }

    /// In the order of their first instances.
    public private(set) var groups: [Group] = []
    /// Each kept tree's bytes, from its first line (0 where it gives none).
    public private(set) var treeBytes: [Int] = []
    /// The kept lines' objects per class, back references aside ("untyped block" for a node of no class).
    public private(set) var classes: [String: ClassCount] = [:]
    /// Instances of shapes alike none of the groups, read once the groups numbered `maxGroups`: counted, not
    /// named. A report of thousands of distinct cycles (random class paths) held them all, the largest part of
    /// its reading's memory; a real report repeats a few shapes.
    public private(set) var unnamed = 0
    /// Distinct shapes named at most.
    public let maxGroups: Int
    /// Groups by the hash of their structure; a hash names candidates, `alike` decides.
    private var index: [Int: [Int]] = [:]

    public init(maxGroups: Int = LeakForest.maxShapes) {
        self.maxGroups = maxGroups
    }

    /// How many trees were folded.
    public var trees: Int { treeBytes.count }

    /// Folds one tree: its bytes, its lines' classes and its shapes.
    public mutating func add(tree: [LeakTreeLine]) {
        guard let first = tree.first else { return }
        let number = treeBytes.count
        treeBytes.append(first.bytes ?? 0)
        for line in tree where line.marker != .cycleBackTo {
            let name = line.className ?? "untyped block"
            classes[name, default: ClassCount()].count += 1
            classes[name]!.bytes += line.size ?? 0
        }
        for shape in LeakShape.shapes(in: tree) {
            let key = Self.structure(shape)
            if let at = index[key]?.first(where: { Self.alike(groups[$0].shape, shape) }) {
                groups[at].instances += 1
                if groups[at].trees.last != number { groups[at].trees.append(number) }
            } else if groups.count >= maxGroups {
                unnamed += 1
            } else {
                index[key, default: []].append(groups.count)
                // Kept at their exact sizes: a shape's lists grew by appending, and a report's groups keep some
                // thousands of them.
                var shape = shape
                shape.nodes = shape.nodes.withUnsafeBufferPointer { Array($0) }
                shape.keptAlive = shape.keptAlive.withUnsafeBufferPointer { Array($0) }
                groups.append(Group(shape: shape, instances: 1, trees: [number]))
            }
        }
    }

    /// Whether two shapes differ only in where they are (lines, addresses, their trees): what names a shape
    /// (its path, references, owner and pattern) reads nothing else.
    public static func alike(_ a: LeakShape, _ b: LeakShape) -> Bool {
        a.kind == b.kind && a.complete == b.complete && a.backLabel == b.backLabel && a.backField == b.backField
            && (a.backLine == nil) == (b.backLine == nil) && a.nodes.count == b.nodes.count
            && zip(a.nodes, b.nodes).allSatisfy {
                $0.className == $1.className && $0.image == $1.image && $0.label == $1.label
            }
    }

    /// The groups and trees' bytes at their exact sizes, and the hash index let go: nothing is added once the
    /// forest is read.
    mutating func finish() {
        groups = groups.withUnsafeBufferPointer { Array($0) }
        treeBytes = treeBytes.withUnsafeBufferPointer { Array($0) }
        index = [:]
    }

    static func structure(_ shape: LeakShape) -> Int {
        var hasher = Hasher()
        hasher.combine(shape.kind)
        hasher.combine(shape.complete)
        hasher.combine(shape.backLabel)
        hasher.combine(shape.backLine == nil)
        for node in shape.nodes {
            hasher.combine(node.className)
            hasher.combine(node.image)
            hasher.combine(node.label)
        }
        return hasher.finalize()
    }

    public static func == (a: LeakShapeTally, b: LeakShapeTally) -> Bool {
        a.groups == b.groups && a.treeBytes == b.treeBytes && a.classes == b.classes && a.unnamed == b.unnamed
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(groups)
        hasher.combine(treeBytes)
        hasher.combine(unnamed)
    }
}
