import Foundation
import MemhuntCore
import MemhuntFormats

/// Step 8 when the app froze: the main thread busy in layout while the change log is silent.
struct SilentLoopCheck: MeasuringCheck {
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

    /// The sample with the most layout samples, the main thread's share in layout, and what the change logs
    /// recorded of the subject (and of other processes) meanwhile.
    struct Measurement {
        var artifact: Artifact
        var report: SampleReport
        var total: Int
        /// Whether no change log was given.
        var noLog: Bool
        var evaluations: Int
        var others: Int
        var share: Double { Double(report.layoutSamples) / Double(total) }
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        let samples = context.artifacts(of: .sample).compactMap { artifact -> (Artifact, SampleReport)? in
            guard case .repro(.sample(let report))? = artifact.content else { return nil }
            return (artifact, report)
        }
        guard let (artifact, report) = samples.max(by: { $0.1.layoutSamples < $1.1.layoutSamples }),
            let total = report.mainThreadSamples, total > 0
        else { return nil }
        let logs = context.artifacts(of: .changeLog).compactMap { artifact -> ChangeLogSummary? in
            guard case .repro(.changeLog(let summary))? = artifact.content else { return nil }
            return summary
        }
        // Logs of other apps never reach a check; a log that mixes processes counts the subject's lines and
        // those that name none.
        let evaluations = logs.reduce(0) { $0 + Self.evaluations(of: context.subject, in: $1) }
        return Measurement(
            artifact: artifact, report: report, total: total, noLog: logs.isEmpty, evaluations: evaluations,
            others: logs.reduce(0) { $0 + $1.evaluations } - evaluations)
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        let report = m.report
        output.record(Fact.mainThreadSamples, .int(m.total))
        output.record(Fact.layoutSamples, .int(report.layoutSamples))
        output.record(Fact.layoutPercent, .oneDecimal(m.share * 100))
        if let peak = report.physicalFootprintPeakBytes { output.record(Fact.peakMB, .megabytes(bytes: Double(peak))) }
        output.headline(
            Fact.layoutSamples, "layout samples",
            "\(Words.samples(m)) in layout (\(Fact.layoutPercent.format(.oneDecimal(m.share * 100))))")
        guard m.share >= context.double("min_layout_share") else { return }
        let app = context.subject.app
        if m.evaluations <= context.int("max_silent_evaluations") {
            // Without a change log, the sample alone cannot tell a layout loop from a data loop whose bodies are
            // cheap: it says where the main thread is, and the log is what settles it.
            output.emit(
                Code.layoutLoop, title: Words.layoutLoopTitle(m, app: app), detail: Words.layoutLoop(m, app: app),
                evidence: [Evidence(source: m.artifact.source)],
                next: m.noLog ? .collect(.changeLog, Words.captureTheLog) : .change(Words.bisect))
        } else {
            output.emit(
                Code.layoutWithChanges, title: Words.withChangesTitle(m, app: app), detail: Words.withChanges(m),
                evidence: [Evidence(source: m.artifact.source)], next: .change(Words.findTheProperty))
        }
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

/// Every sentence the check says.
extension SilentLoopCheck {
    enum Words {
        static let captureTheLog =
            "Capture the change log through a freeze (Self._logChanges() in the suspect views' bodies): silence puts "
            + "the loop in layout, a steady stream in data."
        static let bisect =
            "Bisect the view tree: switch off scrollTo, then swap LazyVStack for VStack, one variable at a time, until "
            + "the CPU drops to zero."
        static let findTheProperty = "Find the property that changes on every pass in the change log."

        static func samples(_ m: Measurement) -> String {
            "\(FactValue.grouped(m.report.layoutSamples)) of \(FactValue.grouped(m.total)) main-thread samples"
        }

        static func percent(_ m: Measurement) -> String { FactValue.oneDecimal(m.share * 100).description }

        /// Logs of another app may have been given (and are listed apart): none is the subject's.
        static func whose(_ app: String?) -> String { app.map { " of \($0)" } ?? "" }

        static func layoutLoopTitle(_ m: Measurement, app: String?) -> String {
            m.noLog
                ? "Main thread \(percent(m)) % in layout; no change log\(whose(app)) to tell a layout loop from a data loop"
                : "Main thread \(percent(m)) % in layout while the change log is silent: the loop is in layout, not data"
        }

        static func layoutLoop(_ m: Measurement, app: String?) -> String {
            let busy = m.report.heaviestFrames.filter { frame in
                !SampleReport.idleMarkers.contains { frame.symbol.contains($0) }
            }
            let heaviest = busy.prefix(3).map { "\($0.symbol) (\($0.count))" }
            return "\(samples(m)) are in SwiftUI/UIKit layout (\(m.report.bodySamples) in body getters). "
                + (m.noLog
                    ? "No change log\(whose(app)) was given: a data-driven loop makes _printChanges fire without pause, "
                        + "and a log that stays silent through the freeze puts the loop in layout. "
                    : "The change log recorded " + Plural.count(m.evaluations, "body evaluation")
                        + (m.others > 0
                            ? " of \(app ?? "the app") (and \(FactValue.grouped(m.others)) of other processes)" : "")
                        + ": a data-driven loop would make _printChanges fire without pause; silence puts the loop "
                        + "in layout. ")
                + SilentLoopCheck.suspects(m.report)
                + " A known shape of such a loop: ScrollView + LazyVStack + scrollTo anchoring content taller than the "
                + "screen (estimated sizes moved the anchor, which scrolled again); a shape to look for, not a finding "
                + "of this sample. A network timeout (-1001) during the freeze is a consequence when the receive loop "
                + "runs on the main thread."
                + (heaviest.isEmpty
                    ? ""
                    : " Heaviest busy frames (top of stack, all threads): " + heaviest.joined(separator: ", ") + ".")
        }

        static func withChangesTitle(_ m: Measurement, app: String?) -> String {
            "Main thread \(percent(m)) % in layout with " + Plural.count(m.evaluations, "body evaluation")
                + (m.others > 0 ? " of \(app ?? "the app")" : "") + " logged"
        }

        static func withChanges(_ m: Measurement) -> String {
            "\(samples(m)) are in layout and the change log is busy: a data-driven loop is likely. "
                + (m.others > 0
                    ? "The log holds \(Plural.count(m.others, "more evaluation")) of other processes, not counted here. "
                    : "")
                + "Read which property changes in every pass."
        }
    }
}
