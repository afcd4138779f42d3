import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// What the check declares: its facts, its codes with their examples, and its description.
extension CompressorPressureCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let compressions = FactDescription(
            "jetsam.compressions", .count,
            "memoryStatus.compressions of the JetsamEvent record: pages compressed since boot, a counter.")
        static let decompressions = FactDescription(
            "jetsam.decompressions", .count, "memoryStatus.decompressions: pages decompressed since boot.")
        static let compressorPercent = FactDescription(
            "jetsam.compressorPercent", .percent,
            "memoryStatus.compressorSize as a share of physical memory (page queues + compressor) at that moment."
        )
        static let freePercent = FactDescription(
            "jetsam.freePercent", .percent,
            "Free pages (memoryPages free less speculative, which it holds) as a share of physical memory at "
                + "that moment.")
        static let availablePercent = FactDescription(
            "jetsam.availablePercent", .percent,
            "Pages jetsam counts as available (memorystatus_available_pages: file-backed + free) as a share of "
                + "physical memory at that moment, when the record has fileBacked.", better: .higher)
        static let pressureKills = FactDescription(
            "jetsam.pressureKills", .count,
            "Processes the record shows killed for a system-wide shortage (vm-pageshortage, thrashing …).")
        static let compressionsPerMinute = FactDescription(
            "jetsam.compressionsPerMinute", .count,
            "Compressions per minute between the chosen record and the one before it, when the counter did "
                + "not go down between them (one boot).")
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let compressions = FindingCode(
            "compressor-pressure.compressions", .notice,
            "The compressor had compressed at least the threshold's count of pages since boot: a counter, "
                + "not evidence of pressure at that moment.",
            examples: [
                .raises(
                    "Fixtures/webcontent", facts: [Fact.compressions.key: 2204410, Fact.decompressions.key: 1100230],
                    title: "2,204,410 compressions since boot"),
                .quiet("Fixtures/old-device", facts: [Fact.compressions.key: 842113, Fact.decompressions.key: 500112]),
            ])
        static let atThatMoment = FindingCode(
            "compressor-pressure.at-that-moment", .warning,
            "The record shows pressure at its moment: the compressor's share of memory, few free pages or "
                + "kills for a system-wide shortage.",
            examples: [
                .raises(
                    "Fixtures/old-device", facts: [Fact.compressions.key: 842113, Fact.decompressions.key: 500112],
                    title:
                        "Memory was short when the record was taken: 1 process killed for a system-wide shortage (vm-pageshortage 1)"
                ),
                .quiet(
                    "Fixtures/webcontent", facts: [Fact.compressions.key: 2204410, Fact.decompressions.key: 1100230]),
            ])
        static let compressorPressureRate = FindingCode(
            "compressor-pressure.rate", .warning,
            "Between two records of one boot the system compressed at least the threshold's pages per minute.",
            examples: [
                .raises(
                    "Fixtures/pressure", facts: [Fact.compressions.key: 21800000, Fact.decompressions.key: 12100000],
                    title: "180,000 compressions per minute between two records of one boot"),
                .quiet(
                    "Fixtures/pressure/JetsamEvent-2026-08-11-111000.ips",
                    facts: [Fact.compressions.key: 21800000, Fact.decompressions.key: 12100000]),
            ])
        static let noRate = FindingCode(
            "compressor-pressure.no-rate", .info,
            "Several records, and no rate between them: of two devices, two boots, or without a device identity.",
            examples: [
                .raises(
                    "Fixtures/examples/compressor-pressure.no-rate/raises",
                    facts: [Fact.compressions.key: 21800000, Fact.decompressions.key: 12100000],
                    title:
                        "No compressions rate: JetsamEvent-2024-02-01-090000.ips and JetsamEvent-2026-08-11-111000.ips are of two different devices"
                ),
                .quiet(
                    "Fixtures/pressure", facts: [Fact.compressions.key: 21800000, Fact.decompressions.key: 12100000]),
            ])
        static let notACount = FindingCode(
            "compressor-pressure.not-a-count", .info,
            "The record's compressions counter holds a value no count reaches (above 2^63 - 1; UInt64.max is -1 "
                + "written unsigned): it is read as no count.",
            examples: [
                .raises(
                    "Fixtures/examples/compressor-pressure.not-a-count/raises",
                    facts: [Fact.decompressions.key: 11000000, Fact.compressorPercent.key: 5.5],
                    title: "The record's compressions counter, 18,446,744,073,709,551,615, is no count"),
                .quiet(
                    "Fixtures/webcontent", facts: [Fact.compressions.key: 2204410, Fact.decompressions.key: 1100230]),
            ])
    }

    static let description = CheckDescription(
        id: "compressor-pressure",
        title: "Compressor compressions",
        step: "compressor-pressure",
        rationale: """
            iOS compresses unused pages when memory is low, and compression uses CPU. The counter of \
            compressions runs since boot, so it says little about one moment; the compressor's share of \
            physical memory, the free pages, kills for page shortage and the rate between two records of \
            the same boot say whether the system was under pressure when the record was taken.
            """,
        reads: [.jetsamEvent],
        facts: [
            Fact.compressions,
            Fact.decompressions,
            Fact.compressorPercent,
            Fact.freePercent,
            Fact.availablePercent,
            Fact.pressureKills,
            Fact.compressionsPerMinute,
        ],
        codes: [
            Code.compressions,
            Code.atThatMoment,
            Code.compressorPressureRate,
            Code.notACount,
            Code.noRate,
        ],
        parameters: [
            CheckParameter(
                "max_compressions", default: 1_000_000, "A notice at this many cumulative compressions."),
            CheckParameter(
                "max_compressor_percent", default: 25,
                "Warn when the compressor holds this share (%) of physical memory or more."),
            CheckParameter(
                "min_available_percent", default: 15,
                "Warn when the pages jetsam counts as available are below this share (%): 15 is XNU's default "
                    + "pressure level for devices up to 6 GB."),
            CheckParameter(
                "max_compressions_per_minute", default: 60_000,
                "Warn when two records of one boot show this many compressions per minute or more."),
        ]
    )
}
