import MemhuntCore
import MemhuntFormats

/// Every sentence the check says.
extension HeapCheck {
    enum Words {
        static func heap(nodes: Int, bytes: Int, largest: Tally?) -> String {
            "\(FactValue.grouped(nodes)) nodes, \(Double(bytes).megabytesText)"
                + (largest.map { "; most bytes: \($0.label) (\(FactValue.grouped($0.count)))" } ?? "")
        }

        static func event(_ report: HeapReport) -> String {
            "heap report: \(report.nodes.map { FactValue.grouped($0) + " nodes" } ?? "its class table")"
        }

        static func pair(_ m: Measurement) -> String {
            "\(m.reports[0].artifact.fileName) → \(m.reports[m.reports.count - 1].artifact.fileName)"
        }

        static func path(_ counts: [Int]) -> String { counts.map { FactValue.grouped($0) }.joined(separator: " → ") }

        static func flatTitle(_ threshold: Int, heaps: Int) -> String {
            "No class gained \(FactValue.grouped(threshold)) instances over \(heaps) heaps"
        }

        static func flat(_ m: Measurement, _ growth: Growth) -> String {
            "\(pair(m)): no class's instance count rose by \(FactValue.grouped(growth.threshold)) or more "
                + "without falling between two heaps" + (growth.grown.isEmpty ? "." : " (non-object blocks aside).")
                + unread(m.reports.map { ($0.artifact, $0.report) })
        }

        static func perVisit(_ each: Double, exact: Bool) -> String {
            (exact ? "+" : "about +") + FactValue.grouped(Int(each.rounded())) + " per visit"
        }

        static func grewMost(_ label: String, _ counts: [Int], perVisit: String?) -> String {
            "\(label): \(path(counts)) over \(counts.count) heaps" + (perVisit.map { " (\($0))" } ?? "")
        }

        static func grewTitle(_ top: (key: String, tally: Tally, added: Int), heaps: Int, perVisit: String?) -> String {
            "\(top.tally.label) gained \(FactValue.grouped(top.added)) instances over \(heaps) heaps"
                + (perVisit.map { " (\($0))" } ?? "") + " and kept them"
        }

        static func grew(
            _ m: Measurement, _ growth: Growth, top: (key: String, tally: Tally, added: Int), visits: Int,
            perVisit: String?
        ) -> String {
            let classes = growth.classes
            let listed = classes.prefix(3).map { entry in
                "\(entry.tally.label) \(FactValue.grouped(growth.counts(entry.key)[0])) → "
                    + "\(FactValue.grouped(entry.tally.count)) (\(Double(entry.tally.bytes).megabytesText) in the last heap)"
            }
            let raw = growth.grown.first { $0.key == HeapCheck.nonObject }.map {
                " Non-object blocks (allocations of no class) gained \(FactValue.grouped($0.added)) as well."
            }
            return "\(pair(m)), \(m.reports.count) heaps in time order: "
                + "\(FactValue.grouped(classes.count)) \(classes.count == 1 ? "class" : "classes") gained "
                + "\(FactValue.grouped(growth.threshold)) or more instances and lost none from one heap to the next: "
                + listed.joined(separator: "; ") + "." + (raw ?? "")
                + (perVisit.map {
                    " The heaps are \(visits) \(visits == 1 ? "visit" : "visits") apart: \(top.tally.label) \($0)."
                } ?? "") + unread(m.reports.map { ($0.artifact, $0.report) })
        }

        static func findWhatHolds(_ label: String) -> String {
            "Find what holds the \(label) instances (the memory graph's paths to one of them): load the data once "
                + "into a store that outlives the screen instead of on every appearance."
        }

        static let releasePerCall =
            "Find the call that makes one of each (the memory graph's paths to one instance) and release or "
            + "invalidate what it makes (an NSXPCConnection's invalidate(), a cache's limit)."

        static func familyTitle(_ family: [HeapCheck.Tally]) -> String {
            let names = family.prefix(3).map(\.label).joined(separator: ", ") + (family.count > 3 ? ", …" : "")
            let counts = family.map(\.count)
            return "\(family.count) classes in step at \(FactValue.grouped(counts.min() ?? 0))–"
                + "\(FactValue.grouped(counts.max() ?? 0)) instances each: " + names
        }

        static func family(_ family: [HeapCheck.Tally], _ artifact: Artifact) -> String {
            let rows = family.prefix(12).map { "\($0.label) \(FactValue.grouped($0.count))" }
            let bytes = Double(family.reduce(0) { $0 + $1.bytes })
            return "\(artifact.source) holds " + rows.joined(separator: "; ") + (family.count > 12 ? "; …" : "")
                + ": \(bytes.sizeText) together. Counts this close are objects made together, one of each per call of "
                + "something that ran that many times, and kept. One heap shows how many, not that they grow: "
                + "heaps of repeated visits, or `leaks`, tell abandoned from leaked."
        }
    }
}
