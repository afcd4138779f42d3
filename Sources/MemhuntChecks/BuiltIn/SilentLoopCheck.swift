import Foundation
import MemhuntCore
import MemhuntFormats

/// Step 8 when the app froze: the main thread busy in layout while the change log is silent.
struct SilentLoopCheck: Check {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let mainThreadSamples = FactDescription(
            "sample.mainThreadSamples", .count, "Samples of the main thread in the sample report.", better: .neutral)
        static let layoutSamples = FactDescription(
            "sample.layoutSamples", .count, "Main-thread samples inside layout frames.")
        static let layoutPercent = FactDescription(
            "sample.layoutPercent", .percent, "Layout samples as a share of main-thread samples.")
        static let peakMB = FactDescription(
            "sample.peakMB", .megabytes,
            "The sampled process's peak physical footprint, as the report's header gives it (of the report chosen).")
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let layoutLoop = FindingCode(
            "silent-loop.layout-loop", .warning, "The main thread is busy in layout while the change log is silent.",
            examples: [
                .raises(
                    "Fixtures/layout-freeze", facts: [Fact.mainThreadSamples.key: 2000, Fact.layoutSamples.key: 1991],
                    title: "Main thread 99.6 % in layout; no change log of Chat to tell a layout loop from a data loop"),
                .raises(
                    "Fixtures/layout-freeze", "Fixtures/formats/repro/logstream-empty.log",
                    facts: [Fact.mainThreadSamples.key: 2000, Fact.layoutSamples.key: 1991],
                    title:
                        "Main thread 99.6 % in layout while the change log is silent: the loop is in layout, not data"),
                .quiet(
                    "Fixtures/layout-freeze", "Fixtures/examples/silent-loop.layout-with-changes/raises",
                    facts: [Fact.mainThreadSamples.key: 2000, Fact.layoutSamples.key: 1991]),
            ])
        static let layoutWithChanges = FindingCode(
            "silent-loop.layout-with-changes", .notice,
            "The main thread is busy in layout and bodies are re-evaluated.",
            examples: [
                .raises(
                    "Fixtures/layout-freeze", "Fixtures/examples/silent-loop.layout-with-changes/raises",
                    facts: [Fact.mainThreadSamples.key: 2000, Fact.layoutSamples.key: 1991],
                    title: "Main thread 99.6 % in layout with 4 body evaluations logged"),
                .quiet(
                    "Fixtures/layout-freeze", facts: [Fact.mainThreadSamples.key: 2000, Fact.layoutSamples.key: 1991]),
            ])
    }

    static let description = CheckDescription(
        id: "silent-loop",
        title: "Silent loop: main thread in layout, change log silent",
        step: "change-logging",
        rationale: """
            A data-driven re-evaluation loop makes _printChanges fire without pause. A main thread at 100 % in \
            SwiftUI/UIKit layout while the change log stays silent means the loop is in layout, not data: \
            watching @State leads nowhere; only bisecting the view tree does.
            """,
        reads: [.sample, .changeLog],
        facts: [
            Fact.mainThreadSamples,
            Fact.layoutSamples,
            Fact.layoutPercent,
            Fact.peakMB,
        ],
        codes: [
            Code.layoutLoop,
            Code.layoutWithChanges,
        ],
        parameters: [
            CheckParameter(
                "min_layout_share", default: 0.5, "Share of main-thread samples in layout that counts as stuck."),
            CheckParameter(
                "max_silent_evaluations", default: 0, "A change log with at most this many evaluations is silent."),
        ]
    )

    func run(_ context: CheckContext) async throws -> CheckOutput {
        let samples = context.artifacts(of: .sample).compactMap { artifact -> (Artifact, SampleReport)? in
            guard case .repro(.sample(let report))? = artifact.content else { return nil }
            return (artifact, report)
        }
        guard let (artifact, report) = samples.max(by: { $0.1.layoutSamples < $1.1.layoutSamples }),
            let total = report.mainThreadSamples, total > 0
        else { return CheckOutput(noInput: true) }
        var output = CheckOutput()
        let share = Double(report.layoutSamples) / Double(total)
        output.record(Fact.mainThreadSamples, .int(total))
        output.record(Fact.layoutSamples, .int(report.layoutSamples))
        output.record(Fact.layoutPercent, .oneDecimal(share * 100))
        if let peak = report.physicalFootprintPeakBytes { output.record(Fact.peakMB, .megabytes(bytes: Double(peak))) }
        output.headline(
            Fact.layoutSamples, "layout samples",
            "\(FactValue.grouped(report.layoutSamples)) of \(FactValue.grouped(total)) main-thread samples in layout "
                + "(\(Fact.layoutPercent.format(.oneDecimal(share * 100))))")
        guard share >= context.double("min_layout_share") else { return output }

        let logs = context.artifacts(of: .changeLog).compactMap { artifact -> ChangeLogSummary? in
            guard case .repro(.changeLog(let summary))? = artifact.content else { return nil }
            return summary
        }
        // Logs of other apps never reach a check; a log that mixes processes counts the subject's lines and
        // those that name none.
        let evaluations = logs.reduce(0) { $0 + Self.evaluations(of: context.subject, in: $1) }
        let others = logs.reduce(0) { $0 + $1.evaluations } - evaluations
        let percent = FactValue.oneDecimal(share * 100).description
        let where_ = "\(FactValue.grouped(report.layoutSamples)) of \(FactValue.grouped(total)) main-thread samples"
        let busy = report.heaviestFrames.filter { frame in
            !SampleReport.idleMarkers.contains { frame.symbol.contains($0) }
        }
        let heaviest = busy.prefix(3).map { "\($0.symbol) (\($0.count))" }
        let heaviestText =
            heaviest.isEmpty
            ? "" : " Heaviest busy frames (top of stack, all threads): " + heaviest.joined(separator: ", ") + "."
        if evaluations <= context.int("max_silent_evaluations") {
            // Without a change log, the sample alone cannot tell a layout loop from a data loop whose bodies are
            // cheap: it says where the main thread is, and the log is what settles it.
            let absent = logs.isEmpty
            // Logs of another app may have been given (and are listed apart): none is the subject's.
            let whose = context.subject.app.map { " of \($0)" } ?? ""
            output.emit(
                Code.layoutLoop,
                title: absent
                    ? "Main thread \(percent) % in layout; no change log\(whose) to tell a layout loop from a data "
                        + "loop"
                    : "Main thread \(percent) % in layout while the change log is silent: the loop is in layout, "
                        + "not data",
                detail: "\(where_) are in SwiftUI/UIKit layout (\(report.bodySamples) in body getters). "
                    + (absent
                        ? "No change log\(whose) was given: a data-driven loop makes _printChanges fire without pause, "
                            + "and a log that stays silent through the freeze puts the loop in layout. "
                        : "The change log recorded " + Plural.count(evaluations, "body evaluation")
                            + (others > 0
                                ? " of \(context.subject.app ?? "the app") (and \(FactValue.grouped(others)) of "
                                    + "other processes)" : "") + ": a "
                            + "data-driven loop would make _printChanges fire without pause; silence puts the loop "
                            + "in layout. ")
                    + Self.suspects(report)
                    + " A known shape of such a loop: ScrollView + LazyVStack + scrollTo anchoring content taller "
                    + "than the screen (estimated sizes moved the anchor, which scrolled again); a shape to look "
                    + "for, not a finding of this sample. A network timeout (-1001) during the freeze is a "
                    + "consequence when the receive loop runs on the main thread."
                    + heaviestText,
                evidence: [Evidence(source: artifact.source)],
                next: absent
                    ? .collect(
                        .changeLog,
                        "Capture the change log through a freeze (Self._logChanges() in the suspect views' "
                            + "bodies): silence puts the loop in layout, a steady stream in data.")
                    : .change(
                        "Bisect the view tree: switch off scrollTo, then swap LazyVStack for VStack, one variable "
                            + "at a time, until the CPU drops to zero."))
        } else {
            output.emit(
                Code.layoutWithChanges,
                title: "Main thread \(percent) % in layout with " + Plural.count(evaluations, "body evaluation")
                    + (others > 0 ? " of \(context.subject.app ?? "the app")" : "") + " logged",
                detail: "\(where_) are in layout and the change log is busy: a data-driven loop is likely. "
                    + (others > 0
                        ? "The log holds \(Plural.count(others, "more evaluation")) of other processes, not "
                            + "counted here. " : "")
                    + "Read which property changes in every pass.",
                evidence: [Evidence(source: artifact.source)],
                next: .change("Find the property that changes on every pass in the change log."))
        }
        return output
    }

    /// The evaluations of a log that may be the subject's: all of them, unless the log names processes and
    /// there is a subject; then those of the subject's process and of lines that name none.
    static func evaluations(of subject: Subject, in log: ChangeLogSummary) -> Int {
        guard subject.app != nil, !log.processes.isEmpty else { return log.evaluations }
        return log.unattributedEvaluations + log.processes.filter { subject.matches($0.key) }.values.reduce(0, +)
    }

    /// Layout and scrolling frames of the main thread, named from the sample itself, with their samples.
    static func suspects(_ report: SampleReport) -> String {
        // Containers and scrolling, not the host frames every SwiftUI layout passes through.
        let markers = ["Lazy", "ScrollView", "scrollTo", "Geometry", "ForEach", "sizeThatFits", "Stack", "Grid"]
        var seen: [String] = []
        var listed: [String] = []
        for frame in report.mainThreadFrames where markers.contains(where: { frame.symbol.contains($0) }) {
            // `LazyStackLayout.placeSubviews(…)  (in SwiftUI) + 904  [0x…]` → the symbol alone.
            let name =
                frame.symbol.components(separatedBy: " (in ").first?.trimmingCharacters(in: .whitespaces)
                ?? frame.symbol
            guard !seen.contains(name), !name.hasPrefix("AG::") else { continue }
            seen.append(name)
            listed.append("\(name) (\(FactValue.grouped(frame.count)) samples)")
            if listed.count == 4 { break }
        }
        return listed.isEmpty
            ? "The sample names no layout or scrolling frame of the main thread to suspect."
            : "Suspects from the sample's main thread: " + listed.joined(separator: ", ") + "."
    }
}
