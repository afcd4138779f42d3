import MemhuntCore
import MemhuntFormats

extension FootprintJSONCheck {
    /// One snapshot of the process read.
    struct Reading {
        /// The artifact and its report, shared by its readings: a copy in each (and of its process) made the
        /// readings of a long `--sample` file tens of megabytes.
        final class Source: Sendable {
            let artifact: Artifact
            let report: FootprintJSON
            init(_ artifact: Artifact, _ report: FootprintJSON) {
                self.artifact = artifact
                self.report = report
            }
        }
        let source: Source
        var artifact: Artifact { source.artifact }
        /// The snapshot's index in the report, and the process's in the snapshot.
        var index: Int
        var place: Int
        var time: Double?
        var bytes: Int
        var process: FootprintJSONProcess { source.report.snapshots[index].processes[place] }
    }

    /// The readings of one process (one launch of it) on one clock: its pid, and no file (a calendar date, which
    /// orders snapshots across files) or the file, by its place, whose own clock (`wall_time_s`, or no time)
    /// orders them. Two processes, two launches or two clocks are never one series: their footprints do not
    /// continue each other, and their times do not compare.
    struct SeriesKey: Hashable {
        var pid: Int?
        var file: Int?
    }

    /// The readings grouped by series, in the order first met.
    struct ReadingSeries {
        private var order: [SeriesKey] = []
        private var groups: [SeriesKey: [Reading]] = [:]

        mutating func add(_ reading: Reading, key: SeriesKey) {
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(reading)
        }

        /// The series the check speaks of, the most readings (the later of a tie: the files are read in name
        /// order), and the others.
        func split() -> (chosen: [Reading], others: [[Reading]]) {
            guard var best = order.first else { return ([], []) }
            for key in order where groups[key]!.count >= groups[best]!.count { best = key }
            return (groups[best]!, order.filter { $0 != best }.map { groups[$0]! })
        }
    }
}
