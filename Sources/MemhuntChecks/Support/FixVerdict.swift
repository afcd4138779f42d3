import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// The verdict of a fix over two `leaks` reports of one gesture: per pattern of the app's cycles (a cycle of
/// no known pattern by its path) PASS when it is gone, PARTIAL when fewer remain, FAIL when as many or more,
/// REGRESSED when new after; the overall verdict is the worst. A framework's cycle is listed, not judged (the
/// app cannot fix it); a group whose classes are all declared expected alive (singletons) is listed and not
/// judged either, so it cannot flip it. With no cycle of the app on either side, the leak counts decide; so they do
/// when either report's cycles were not all read and named (past the reader's bounds), its rows listed and not
/// judged: a pattern's count in what was read is not the report's.
struct FixVerdict {
    typealias Grade = FixGrade

    struct Row {
        var key: String
        var before: Int
        var after: Int
        var grade: Grade
        var expectedAlive: Bool
    }

    var rows: [Row]
    var overall: Grade
    /// Whether the leak counts decided (no cycle of the app on either side, or a report not read whole).
    var byCounts: Bool
    /// Which reports' cycles were not all read and named (`LeaksReport.shapesNamedWhole`).
    var unread: (before: Bool, after: Bool)
    var leaks: (before: Int, after: Int)
    var bytes: (before: Int, after: Int)

    /// `before` and `after` with their cycles as `LeaksCheck.groups` names them.
    init(
        before: (report: LeaksReport, cycles: [LeaksCheck.CycleGroup]),
        after: (report: LeaksReport, cycles: [LeaksCheck.CycleGroup]), expectedAlive: Set<String>
    ) {
        func counts(_ cycles: [LeaksCheck.CycleGroup]) -> [String: (count: Int, classes: Set<String>)] {
            var counts: [String: (count: Int, classes: Set<String>)] = [:]
            for group in cycles where group.leak.owner != .framework {
                let key = group.leak.pattern?.id ?? ("no known pattern: " + group.leak.shape.path)
                let classes = Set(group.leak.shape.nodes.compactMap(\.className))
                counts[key, default: (0, classes)].count += group.instances
            }
            return counts
        }
        let (first, last) = (counts(before.cycles), counts(after.cycles))
        rows = Set(first.keys).union(last.keys).sorted().map { key in
            let (was, now) = (first[key]?.count ?? 0, last[key]?.count ?? 0)
            let classes = first[key]?.classes ?? last[key]?.classes ?? []
            return Row(
                key: key, before: was, after: now, grade: Grade(before: was, after: now),
                expectedAlive: !classes.isEmpty && classes.isSubset(of: expectedAlive))
        }
        leaks = (before.report.leaks, after.report.leaks)
        bytes = (before.report.leakedBytes, after.report.leakedBytes)
        let judged = rows.filter { !$0.expectedAlive }
        unread = (!before.report.shapesNamedWhole, !after.report.shapesNamedWhole)
        byCounts = rows.isEmpty || unread.before || unread.after
        overall =
            byCounts
            ? Grade(before: leaks.before, after: leaks.after) : judged.map(\.grade).max() ?? .pass
    }

    /// The severity the verdict is said at: a pass is information, a partial fix a notice, the rest warnings.
    var severity: Severity { overall.severity }
}
