import MemhuntCore
import MemhuntFormats

/// What `leaks` found in a memgraph: the leaked objects and bytes, the largest trees with their root
/// class, and, with two reports of one process, before → after.
struct LeaksCheck: Check {
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
                        "More leaked after: DemoApp-clean.leaks.txt → DemoApp-later.leaks.txt: 0 → 40 leaks, 0 MB → 0 MB"
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

    func run(_ context: CheckContext) async throws -> CheckOutput {
        let reports = CaptureOrder.sorted(
            context.artifacts(of: .leaks).compactMap { artifact -> (Artifact, LeaksReport)? in
                guard case .repro(.leaks(let report))? = artifact.content else { return nil }
                return (artifact, report)
            }, date: \.date)
        guard let (artifact, newest) = reports.last else { return CheckOutput(noInput: true) }
        var output = CheckOutput()
        output.record(Fact.reports, .int(reports.count))
        output.record(Fact.count, .int(newest.leaks))
        output.record(Fact.leakedMB, .megabytes(bytes: Double(newest.leakedBytes)))
        output.record(Fact.footprintMB, newest.footprintBytes.map { .megabytes(bytes: Double($0)) })
        let largest = newest.roots.sorted { ($0.bytes, -$0.line) > ($1.bytes, -$1.line) }
        output.record(Fact.largestRoot, largest.first.map { .string($0.className) })
        output.headline(
            Fact.count, "leaks",
            "\(FactValue.grouped(newest.leaks)) leaks, \(Double(newest.leakedBytes).megabytesText) leaked")
        if newest.leaks > 0 {
            let top = largest.prefix(3).map {
                "\($0.className) (\($0.kind == .block ? "" : $0.kind.rawValue.lowercased() + ", ")"
                    + "\(FactValue.grouped($0.count)) objects, \(Double($0.bytes).megabytesText))"
            }
            output.emit(
                Code.found,
                title: "\(FactValue.grouped(newest.leaks)) leaks for \(Double(newest.leakedBytes).megabytesText)"
                    + (largest.first.map { "; the largest tree's root is \($0.className)" } ?? ""),
                detail: "\(artifact.source)"
                    + (newest.processName.map { " (\($0))" } ?? "")
                    + ": \(FactValue.grouped(newest.leaks)) leaked objects, "
                    + "\(FactValue.grouped(newest.leakedBytes)) bytes. "
                    + (top.isEmpty
                        ? "" : "The largest of the report's top-level entries: " + top.joined(separator: "; ") + ". ")
                    + (newest.unreadable.isEmpty ? "" : "Not read: " + newest.unreadable.joined(separator: "; ") + "."),
                evidence: [Evidence(source: artifact.source, line: largest.first?.line)],
                next: .change("Break the retain cycle at the largest root: a weak capture or a weak delegate."))
        }
        output.event("leaks report of the memgraph", of: artifact)
        guard reports.count >= 2 else { return output }
        let (firstArtifact, first) = reports[0]
        output.compare(
            Comparison(
                kind: .fix, label: "Leaked objects", unit: .count, better: .lower,
                from: .init(
                    label: firstArtifact.fileName, value: Double(first.leaks), text: FactValue.grouped(first.leaks)),
                to: .init(label: artifact.fileName, value: Double(newest.leaks), text: FactValue.grouped(newest.leaks)))
        )
        output.compare(
            Comparison(
                kind: .fix, label: "Leaked bytes", unit: .megabytes, better: .lower,
                from: .init(
                    label: firstArtifact.fileName, value: Double(first.leakedBytes) / 1_048_576,
                    text: Double(first.leakedBytes).megabytesText),
                to: .init(
                    label: artifact.fileName, value: Double(newest.leakedBytes) / 1_048_576,
                    text: Double(newest.leakedBytes).megabytesText)))
        let pair =
            "\(firstArtifact.fileName) → \(artifact.fileName): \(FactValue.grouped(first.leaks)) → "
            + "\(FactValue.grouped(newest.leaks)) leaks, \(Double(first.leakedBytes).megabytesText) → \(Double(newest.leakedBytes).megabytesText)"
        if newest.leakedBytes > first.leakedBytes {
            output.emit(
                Code.more, title: "More leaked after: " + pair,
                detail: "The later report leaks more than the earlier one: " + pair + ".",
                evidence: [Evidence(source: firstArtifact.source), Evidence(source: artifact.source)],
                next: .change("Compare the two reports' largest roots: what the later gesture left behind."))
        } else if newest.leaks < first.leaks {
            output.emit(
                Code.fewer, title: "Fewer leaks after: " + pair,
                detail: "The later report leaks less than the earlier one: " + pair + ". Leaks that remain are in the "
                    + "later report's trees.",
                evidence: [Evidence(source: firstArtifact.source), Evidence(source: artifact.source)])
        }
        return output
    }
}
