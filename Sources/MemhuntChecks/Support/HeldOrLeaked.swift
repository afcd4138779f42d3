import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// Whether the instances of a class that grows across heaps are leaked or still reachable, from a `leaks`
/// report of the same process: `leaks` lists only unreachable memory, so a class it never names, in a report
/// that read every tree, is reachable (memory abandoned, not leaked).
struct HeldOrLeaked {
    enum Kind: String { case leaked, reachable, partly }

    var kind: Kind
    /// Nodes of the class in the report's trees.
    var leaked: Int
    var report: Artifact

    /// The newest readable `leaks` report of the heaps' process (by name; any, when neither names one), judged
    /// for `className` against the `added` instances the heaps gained.
    static func judge(
        className: String, added: Int, process: String?, in context: CheckContext
    ) -> HeldOrLeaked? {
        let reports = CaptureOrder.sorted(
            context.artifacts(of: .leaks).compactMap { artifact -> (Artifact, LeaksReport)? in
                guard case .repro(.leaks(let report))? = artifact.content else { return nil }
                guard process == nil || report.processName == nil || report.processName == process else { return nil }
                return (artifact, report)
            }, date: \.date)
        guard let (artifact, report) = reports.last else { return nil }
        let leaked = Self.leaked(className, in: report)
        if leaked == 0 {
            // A tree left out may hold the class: "reachable" only from a report read whole.
            guard report.treesReadWhole, report.summaryKnown else { return nil }
            return HeldOrLeaked(kind: .reachable, leaked: 0, report: artifact)
        }
        return HeldOrLeaked(kind: leaked * 10 >= added * 9 ? .leaked : .partly, leaked: leaked, report: artifact)
    }

    /// The leaked objects of `className` in the report's trees, each once (the per-class count of a capture
    /// diff: a `CYCLE BACK TO` line names an object already counted).
    static func leaked(_ className: String, in report: LeaksReport) -> Int {
        CaptureDiff.classes(report).reduce(0) { sum, entry in sum + (same(entry.key, className) ? entry.value.count : 0)
        }
    }

    /// One class named by two tools: equal, or one the other's name qualified by a module ("Shop.Cart", "Cart").
    static func same(_ a: String, _ b: String) -> Bool {
        a == b || a.hasSuffix("." + b) || b.hasSuffix("." + a)
    }

    /// The sentence for the class's finding.
    func sentence(_ label: String, added: Int) -> String {
        switch kind {
        case .reachable:
            return " \(report.fileName) lists no \(label) among its leaks: the instances are still reachable "
                + "(memory abandoned, not leaked), so something keeps them (a cache, a registry, an observer list)."
        case .leaked:
            return " \(report.fileName) lists \(FactValue.grouped(leaked)) \(label) in its leaked trees: the growth is "
                + "a leak (unreachable), and its cycle is there."
        case .partly:
            return " \(report.fileName) lists \(FactValue.grouped(leaked)) \(label) in its leaked trees, fewer than "
                + "the \(FactValue.grouped(added)) gained: some are leaked, the rest still reachable."
        }
    }
}
