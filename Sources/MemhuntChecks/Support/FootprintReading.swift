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
}
