import MemhuntCore
import MemhuntFormats
import MemhuntReports
import MemhuntSnapshots

/// `memhunt diff BEFORE AFTER` over two captures instead of two findings documents: two `heap` reports, two
/// `leaks` reports or two Allocations exports, compared per class (`CaptureDiff`).
enum CaptureDiffRun {
    /// One operand read as a capture: its kind, its classes and what its reader left out.
    struct Capture {
        var kind: CaptureDiff.Kind
        var classes: [String: CaptureDiff.Tally]
        var caveats: [String]
        var name: String
    }

    /// The operand as a capture, or why it is none.
    static func read(_ operand: String, console: Console, command: ParsedCommand) async throws -> Result<
        Capture, CommandError
    > {
        let collector = try ArtifactCollector(console: console, command: command)
        defer { collector.removeCache() }
        let artifacts = await collector.collect([operand])
        guard artifacts.count == 1, let artifact = artifacts.first else {
            return .failure(CommandError("\(operand): one file is compared, not a folder of \(artifacts.count)"))
        }
        let name = artifact.fileName
        switch artifact.content {
        case .repro(.heap(let report))?:
            guard report.hasTable else {
                return .failure(CommandError("\(operand): a heap report without its class table: no class to compare"))
            }
            let caveats = [CaptureDiff.leftOut(report, name: name)].compactMap { $0 }
            return .success(Capture(kind: .heap, classes: CaptureDiff.classes(report), caveats: caveats, name: name))
        case .repro(.leaks(let report))?:
            let caveats = [CaptureDiff.leftOut(report, name: name)].compactMap { $0 }
            return .success(Capture(kind: .leaks, classes: CaptureDiff.classes(report), caveats: caveats, name: name))
        case .repro(.xctraceExport(let export))? where export.tables.contains(where: { !$0.categories.isEmpty }):
            return .success(Capture(kind: .allocations, classes: CaptureDiff.classes(export), caveats: [], name: name))
        default:
            let kind = artifact.kind?.rawValue ?? "no kind memhunt reads"
            return .failure(
                CommandError(
                    "\(operand): \(artifact.error ?? kind): neither a findings document nor a heap report, leaks report or "
                        + "Allocations export"))
        }
    }
}
