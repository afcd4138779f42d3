import MemhuntCore
import MemhuntFormats

/// What the check declares: its facts, its codes with their examples, and its description.
extension FootprintJSONCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let process = FactDescription(
            "footprint.process", .text, "The process read (name and pid) of the footprint JSON.")
        static let footprintMB = FactDescription(
            "footprint.footprintMB", .megabytes, "The process's footprint in the last snapshot, in MB.", measure: true)
        static let peakMB = FactDescription(
            "footprint.peakMB", .megabytes,
            "The process's highest footprint: the kernel's lifetime peak (phys_footprint_peak) when given, else the "
                + "largest snapshot.")
        static let largestCategory = FactDescription(
            "footprint.largestCategory", .text, "The category with the most dirty bytes in the last snapshot.")
        static let largestCategoryMB = FactDescription(
            "footprint.largestCategoryMB", .megabytes, "The dirty bytes of that category, in MB.")
        static let samples = FactDescription(
            "footprint.samples", .count, "Snapshots of the process, over every footprint JSON of the subject.",
            better: .neutral)
        static let firstMB = FactDescription(
            "footprint.firstMB", .megabytes, "The process's footprint in the first snapshot, in MB.")
        static let growthMB = FactDescription(
            "footprint.growthMB", .megabytes, "Last snapshot's footprint minus the first's, in MB.", measure: true)
        static let slopeMB = FactDescription(
            "footprint.slopeMBPerMinute", .megabytes,
            "The fitted growth of the footprint per minute of the samples' times (MB per minute).")
        static let r2 = FactDescription(
            "footprint.r2", .ratio, "How well a line over time fits the samples (R², 0–1).", better: .neutral)
        static let shape = FactDescription(
            "footprint.shape", .text,
            "With three samples or more, their shape by position: linear, step (one rise, then held), transient "
                + "(back to the first sample's level), flat or uneven.")
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let growing = FindingCode(
            "footprint-json.growing", .warning, "footprint samples of the process grow along a line over time.",
            examples: [
                .raises(
                    "Fixtures/footprint-json/faq-visits.samples.footprint.json",
                    facts: [Fact.process.key: "AluminumWeight [5120]", Fact.footprintMB.key: 123.9],
                    title: "AluminumWeight [5120] grew 41.5 MB in 8 samples over 70 s (39.5 MB per minute)"),
                .quiet(
                    "Fixtures/footprint-json/faq-fixed.samples.footprint.json",
                    facts: [Fact.process.key: "AluminumWeight [5120]", Fact.footprintMB.key: 82.5]),
            ])
        static let steady = FindingCode(
            "footprint-json.steady", .info, "footprint samples of the process do not grow by the threshold.",
            examples: [
                .raises(
                    "Fixtures/footprint-json/faq-fixed.samples.footprint.json",
                    facts: [Fact.process.key: "AluminumWeight [5120]", Fact.footprintMB.key: 82.5],
                    title: "AluminumWeight [5120]: 82.4 MB → 82.5 MB over 8 samples over 70 s"),
                .quiet(
                    "Fixtures/footprint-json/faq-visits.samples.footprint.json",
                    facts: [Fact.process.key: "AluminumWeight [5120]", Fact.footprintMB.key: 123.9]),
            ])
    }

    static let description = CheckDescription(
        id: "footprint-json",
        title: "footprint JSON: categories and samples over time",
        step: "simulator-repro",
        rationale: """
            `footprint` reads the kernel's own footprint of a process and splits it into categories (malloc \
            zones, CoreAnimation, IOSurface, mapped files): the largest category says where the memory is. \
            Sampled over a reproduction, a footprint that climbs along a line and does not come back says memory \
            is kept, and when. One series is one launch of the process on one clock: snapshots dated by the \
            calendar join across files, a `--sample` file's samples (timed on the tool's own clock) only with \
            each other, and a series that is not judged is named.
            """,
        reads: [.footprintJSON],
        facts: [
            Fact.process, Fact.footprintMB, Fact.peakMB, Fact.largestCategory, Fact.largestCategoryMB, Fact.samples,
            Fact.firstMB, Fact.growthMB, Fact.slopeMB, Fact.r2, Fact.shape,
        ],
        codes: [Code.growing, Code.steady],
        parameters: [
            CheckParameter("min_samples", default: 3, "Samples needed before judging growth."),
            CheckParameter("min_growth_mb", default: 10.0, "Warn when the footprint grows at least this many MB …"),
            CheckParameter("min_r2", default: 0.8, "… along a line at least this good (R²)."),
        ]
    )
}
