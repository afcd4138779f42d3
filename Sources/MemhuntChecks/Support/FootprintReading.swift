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

    /// The readings of one launch of the process on one clock: its pid, and no file (a calendar date, which
    /// orders snapshots across files) or the file whose own clock (`wall_time_s`, or no time) orders them. Two
    /// launches, or two clocks, are never one series: their footprints do not continue each other, and their
    /// times do not compare.
    struct SeriesKey: Hashable {
        var pid: Int?
        var file: String?
    }

    /// The readings grouped by series, in the order first met, and the one the check speaks of: the most
    /// readings, the later of a tie (the files are read in name order).
    static func series(_ readings: [(key: SeriesKey, reading: Reading)]) -> (
        chosen: [Reading], others: [(key: SeriesKey, readings: [Reading])]
    ) {
        var order: [SeriesKey] = []
        var groups: [SeriesKey: [Reading]] = [:]
        for (key, reading) in readings {
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(reading)
        }
        var best = 0
        for (position, key) in order.enumerated() where groups[key]!.count >= groups[order[best]]!.count {
            best = position
        }
        let others = order.enumerated().filter { $0.offset != best }.map {
            (key: $0.element, readings: groups[$0.element]!)
        }
        return (order.isEmpty ? [] : groups[order[best]]!, others)
    }
}
