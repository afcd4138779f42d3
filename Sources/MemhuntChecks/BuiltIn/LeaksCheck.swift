import MemhuntCore
import MemhuntFormats

/// What `leaks` found in a memgraph: the leaked objects and bytes, the largest trees with their root
/// class, and, with two reports of one process, before → after.
struct LeaksCheck: MeasuringCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let count = FactDescription(
            "leaks.count", .count,
            "Leaked objects of the newest leaks report (its 'N leaks for M total leaked bytes').",
            measure: true)
        static let leakedMB = FactDescription(
            "leaks.leakedMB", .megabytes, "Total leaked bytes of the newest leaks report, in MB.", measure: true)
        static let largestRoot = FactDescription(
            "leaks.largestRoot", .text, "The root class of the largest tree among the report's top-level entries.")
        static let footprintMB = FactDescription(
            "leaks.footprintMB", .megabytes, "The report header's physical footprint of the process, in MB.")
        static let reports = FactDescription(
            "leaks.reports", .count, "Leaks reports of the subject among the artifacts.", better: .neutral)
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let found = FindingCode(
            "leaks.found", .warning, "The memgraph holds leaked objects: how many, how much, and the largest roots.",
            examples: [
                .raises(
                    "Fixtures/leaks/DemoApp-before.leaks.txt", facts: [Fact.count.key: 3120, Fact.leakedMB.key: 0.5],
                    title: "3,120 leaks for 0.5 MB; the largest tree's root is DetailViewModel"),
                .quiet("Fixtures/leaks/DemoApp-clean.leaks.txt", facts: [Fact.count.key: 0, Fact.leakedMB.key: 0]),
            ])
        static let fewer = FindingCode(
            "leaks.fewer", .info, "Two reports of one process: fewer leaks after than before.",
            examples: [
                .raises(
                    "Fixtures/leaks/DemoApp-before.leaks.txt", "Fixtures/leaks/DemoApp-after.leaks.txt",
                    facts: [Fact.count.key: 20, Fact.leakedMB.key: 0],
                    title:
                        "Fewer leaks after: DemoApp-before.leaks.txt → DemoApp-after.leaks.txt: 3,120 → 20 leaks, 0.5 MB → 0 MB"
                ),
                .quiet(
                    "Fixtures/leaks/DemoApp-before.leaks.txt", facts: [Fact.count.key: 3120, Fact.leakedMB.key: 0.5]),
            ])
        static let more = FindingCode(
            "leaks.more", .warning, "Two reports of one process: more leaked bytes after than before.",
            examples: [
                .raises(
                    "Fixtures/leaks/DemoApp-clean.leaks.txt", "Fixtures/leaks/DemoApp-later.leaks.txt",
                    facts: [Fact.count.key: 40, Fact.leakedMB.key: 0],
                    title:
                        "More leaked after: DemoApp-clean.leaks.txt → DemoApp-later.leaks.txt: 0 → 40 leaks, 0 → 16,384 bytes"
                ),
                .quiet(
                    "Fixtures/leaks/DemoApp-before.leaks.txt", "Fixtures/leaks/DemoApp-after.leaks.txt",
                    facts: [Fact.count.key: 20, Fact.leakedMB.key: 0]),
            ])
    }

    static let description = CheckDescription(
        id: "leaks",
        title: "Leaks in a memgraph",
        step: "simulator-repro",
        rationale: """
            A memgraph's leaks are memory nothing can free: a retain cycle left by a closure or a delegate \
            stays for the life of the process, and each visit of a screen can add one. The count and bytes \
            say how much; the root class of the largest trees says where to look; two reports of the same \
            gesture, before and after a change, say whether it holds.
            """,
        reads: [.leaks],
        facts: [Fact.count, Fact.leakedMB, Fact.largestRoot, Fact.footprintMB, Fact.reports],
        codes: [Code.found, Code.fewer, Code.more]
    )

    /// The reports in capture order, and the newest's top-level entries, most bytes first.
    struct Measurement {
        var reports: [(artifact: Artifact, report: LeaksReport)]
        var largest: [LeakRoot]
        var newest: (artifact: Artifact, report: LeaksReport) { reports[reports.count - 1] }
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        let reports = CaptureOrder.sorted(
            context.artifacts(of: .leaks).compactMap { artifact -> (Artifact, LeaksReport)? in
                guard case .repro(.leaks(let report))? = artifact.content else { return nil }
                return (artifact, report)
            }, date: \.date)
        guard let newest = reports.last?.1 else { return nil }
        return Measurement(
            reports: reports.map { (artifact: $0.0, report: $0.1) },
            largest: newest.roots.sorted { ($0.bytes, -$0.line) > ($1.bytes, -$1.line) })
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        let (artifact, newest) = m.newest
        output.record(Fact.reports, .int(m.reports.count))
        output.record(Fact.count, .int(newest.leaks))
        output.record(Fact.leakedMB, .megabytes(bytes: Double(newest.leakedBytes)))
        output.record(Fact.footprintMB, newest.footprintBytes.map { .megabytes(bytes: Double($0)) })
        output.record(Fact.largestRoot, m.largest.first.map { .string($0.className) })
        output.headline(
            Fact.count, "leaks",
            "\(FactValue.grouped(newest.leaks)) leaks, \(Double(newest.leakedBytes).sizeText) leaked")
        if newest.leaks > 0 {
            output.emit(
                Code.found, title: Words.foundTitle(newest, largest: m.largest.first),
                detail: Words.found(artifact, newest, largest: m.largest),
                evidence: [Evidence(source: artifact.source, line: m.largest.first?.line)],
                next: .change(Words.breakTheCycle))
        }
        output.event("leaks report of the memgraph", of: artifact)
        guard m.reports.count >= 2 else { return }
        Self.compare(m.reports[0], m.newest, to: &output)
    }

    /// The first report against the newest: their counts and bytes, and which way they went.
    static func compare(
        _ first: (artifact: Artifact, report: LeaksReport), _ newest: (artifact: Artifact, report: LeaksReport),
        to output: inout CheckOutput
    ) {
        let (before, after) = (first.report, newest.report)
        output.compare(
            Comparison(
                kind: .fix, label: "Leaked objects", unit: .count, better: .lower,
                from: .init(
                    label: first.artifact.fileName, value: Double(before.leaks), text: FactValue.grouped(before.leaks)),
                to: .init(
                    label: newest.artifact.fileName, value: Double(after.leaks), text: FactValue.grouped(after.leaks))))
        output.compare(
            Comparison(
                kind: .fix, label: "Leaked bytes", unit: .megabytes, better: .lower,
                from: .init(
                    label: first.artifact.fileName, value: Double(before.leakedBytes) / 1_048_576,
                    text: Double(before.leakedBytes).sizeText),
                to: .init(
                    label: newest.artifact.fileName, value: Double(after.leakedBytes) / 1_048_576,
                    text: Double(after.leakedBytes).sizeText)))
        let pair = Words.pair(first, newest)
        let evidence = [Evidence(source: first.artifact.source), Evidence(source: newest.artifact.source)]
        if after.leakedBytes > before.leakedBytes {
            output.emit(
                Code.more, title: "More leaked after: " + pair,
                detail: "The later report leaks more than the earlier one: " + pair + ".", evidence: evidence,
                next: .change(Words.compareRoots))
        } else if after.leaks < before.leaks {
            output.emit(
                Code.fewer, title: "Fewer leaks after: " + pair,
                detail: "The later report leaks less than the earlier one: " + pair + ". Leaks that remain are in the "
                    + "later report's trees.", evidence: evidence)
        }
    }
}

/// Every sentence the check says.
extension LeaksCheck {
    enum Words {
        static let breakTheCycle = "Break the retain cycle at the largest root: a weak capture or a weak delegate."
        static let compareRoots = "Compare the two reports' largest roots: what the later gesture left behind."

        static func foundTitle(_ report: LeaksReport, largest: LeakRoot?) -> String {
            "\(FactValue.grouped(report.leaks)) leaks for \(Double(report.leakedBytes).sizeText)"
                + (largest.map { "; the largest tree's root is \($0.className)" } ?? "")
        }

        static func found(_ artifact: Artifact, _ report: LeaksReport, largest: [LeakRoot]) -> String {
            let top = largest.prefix(3).map {
                "\($0.className) (\($0.kind == .block ? "" : $0.kind.rawValue.lowercased() + ", ")"
                    + "\(FactValue.grouped($0.count)) objects, \(Double($0.bytes).sizeText))"
            }
            return "\(artifact.source)" + (report.processName.map { " (\($0))" } ?? "")
                + ": \(FactValue.grouped(report.leaks)) leaked objects, \(FactValue.grouped(report.leakedBytes)) bytes. "
                + (top.isEmpty
                    ? "" : "The largest of the report's top-level entries: " + top.joined(separator: "; ") + ". ")
                + (report.unreadable.isEmpty ? "" : "Not read: " + report.unreadable.joined(separator: "; ") + ".")
        }

        static func pair(
            _ first: (artifact: Artifact, report: LeaksReport), _ newest: (artifact: Artifact, report: LeaksReport)
        ) -> String {
            let (before, after) = (Double(first.report.leakedBytes), Double(newest.report.leakedBytes))
            // Both in one unit: bytes when neither reaches a tenth of a MB.
            let sizes =
                max(before, after) < 0.05 * 1_048_576
                ? "\(FactValue.grouped(Int(before))) → \(FactValue.grouped(Int(after))) bytes"
                : "\(before.megabytesText) → \(after.megabytesText)"
            return
                "\(first.artifact.fileName) → \(newest.artifact.fileName): \(FactValue.grouped(first.report.leaks)) → "
                + "\(FactValue.grouped(newest.report.leaks)) leaks, " + sizes
        }
    }
}
