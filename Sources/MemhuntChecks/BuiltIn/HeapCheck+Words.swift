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
                + (report.rowsLeftOut > 0
                    ? "; its table's first \(FactValue.grouped(report.classes.count)) rows kept, "
                        + "\(FactValue.grouped(report.rowsLeftOut)) more (\(Double(report.bytesLeftOut).sizeText)) "
                        + "counted in no class, so no class's whole count is known" : "")
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
                + transient(growth) + unread(m.reports.map { ($0.artifact, $0.report) })
        }

        /// " Page rose 20 → 900 by heap 3 and fell back to 25: made and released." for the class whose count rose
        /// most by the threshold and came back within it of its first count; nothing when none did.
        static func transient(_ growth: Growth) -> String {
            let keys = Set(growth.steps.flatMap(\.keys)).subtracting([HeapCheck.nonObject])
            let risen = keys.compactMap { key -> (label: String, counts: [Int], peak: Int)? in
                let counts = growth.counts(key)
                let peak = counts.max()! - counts[0]
                guard peak >= growth.threshold, abs(counts.last! - counts[0]) < growth.threshold,
                    let label = growth.steps.lazy.compactMap({ $0[key]?.label }).first
                else { return nil }
                return (label, counts, peak)
            }.max { ($0.peak, $1.label) < ($1.peak, $0.label) }
            guard let risen else { return "" }
            let top = risen.counts.firstIndex(of: risen.counts.max()!)!
            return " \(risen.label) rose \(FactValue.grouped(risen.counts[0])) → "
                + "\(FactValue.grouped(risen.counts[top])) by heap \(top + 1) and fell back to "
                + "\(FactValue.grouped(risen.counts.last!)): made and released (transient), not kept."
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
                    + "\(FactValue.grouped(entry.tally.count)) (\(Double(entry.tally.bytes).sizeText) in the last heap)"
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

        /// " The counts climb along a line …", or nothing for fewer than three heaps.
        static func shape(_ shape: GrowthShape?, _ label: String) -> String {
            guard let shape else { return "" }
            switch shape.kind {
            case .linear:
                return " The counts climb along a line (about +\(FactValue.grouped(Int(shape.slope.rounded()))) per "
                    + "heap, R² \(format2(shape.r2))): about as many are kept between each heap and the next."
            case .step:
                return
                    " The counts rose once, after heap \(shape.stepAfter ?? 0), and then held: filled once (a cache) "
                    + "rather than kept between every two heaps."
            case .uneven, .transient, .flat:
                return " The counts climb unevenly (R² \(format2(shape.r2))): the heaps may not be equal repetitions."
            }
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

extension HeapCheck {
    /// " Not read: …" for the reports' unreadable lines, or nothing.
    static func unread(_ reports: [(Artifact, HeapReport)]) -> String {
        let lines = reports.flatMap { artifact, report in report.unreadable.map { "\(artifact.fileName) \($0)" } }
        return lines.isEmpty ? "" : " Not read: " + lines.prefix(5).joined(separator: "; ") + "."
    }
}
