import MemhuntFormats
import MemhuntSnapshots
import Testing

/// Trees at their limits: a cycle of 10,000 nodes, a tree cut above its back reference, a forest past its bounds.
@Suite struct LeakTreeBoundsTests {
    /// `<Node0> → <Node1> → … → <NodeN-1>`, each one deeper, then the reference back to Node0.
    static func chain(_ count: Int, back: Bool) -> [LeakTreeLine] {
        var lines = (0..<count).map { index in
            LeakTreeLine(
                indent: 6 + index, count: count - index, bytes: (count - index) * 32,
                label: index == 0 ? nil : "__strong next", marker: index == 0 ? .rootCycle : nil,
                className: "Node\(index)", address: "0x\(String(4096 + index * 32, radix: 16))", size: 32,
                line: 5 + index)
        }
        if back {
            lines.append(
                LeakTreeLine(
                    indent: 6 + count, label: "__strong next", marker: .cycleBackTo, className: "Node0",
                    address: "0x1000", size: 32, line: 5 + count))
        }
        return lines
    }

    @Test func aCycleOfTenThousandNodesIsReadWholeAndNamedShort() throws {
        let forest = LeakForest(trees: [Self.chain(10_000, back: true)])
        let shapes = LeakShape.all(in: forest)
        let shape = try #require(shapes.first)
        #expect(shapes.count == 1)
        #expect(shape.nodes.count == 10_000 && shape.complete && !shape.open)
        #expect(
            shape.path == "Node0 → Node1 → Node2 → Node3 → … 9,993 more … → Node9997 → Node9998 → Node9999 → Node0")
        #expect(shape.fields.count == 10_000)
        let leak = CycleCatalog.classify(shape, process: "App")
        #expect(leak.owner == .app)
    }

    @Test func aCycleCutAboveItsBackReferenceIsOpenAndOfNoPattern() throws {
        // The ROOT CYCLE line alone: nothing shows what closes it.
        let forest = LeakForest(trees: [Array(Self.chain(3, back: false).prefix(1))])
        let shape = try #require(LeakShape.all(in: forest).first)
        #expect(shape.open && !shape.complete)
        #expect(shape.path == "Node0 → …")
        let leak = CycleCatalog.classify(shape, process: "App")
        #expect(leak.pattern == nil)
    }

    @Test func aForestKeepsAtMostItsBoundsAndCountsTheRest() {
        // 3,000 trees of 60 lines: 180,000 lines, past both the tree and the total bounds.
        var text = ""
        for tree in 0..<3_000 {
            text += "      60 (1.88K) ROOT LEAK: <Holder\(tree) 0x\(String(tree, radix: 16))> [32]\n"
            for child in 1..<60 {
                text += "         __strong item --> <Item\(child) 0x\(String(tree * 100 + child, radix: 16))> [32]\n"
            }
        }
        let forest = LeakForest.read(text.split(separator: "\n", omittingEmptySubsequences: false))
        let kept = forest.trees.reduce(0) { $0 + $1.count }
        #expect(kept <= LeakForest.maxTotalLines)
        #expect(forest.trees.count == LeakForest.maxTotalLines / 60 + 1)
        #expect(forest.trees.count + forest.treesLeftOut == 3_000)
        // The tree that reached the total is cut, and counted.
        #expect(forest.linesLeftOut == 60 - (LeakForest.maxTotalLines - (forest.trees.count - 1) * 60))
        #expect(forest.trees.allSatisfy { $0.first?.className?.hasPrefix("Holder") == true })
    }
}
