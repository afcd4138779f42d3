import MemhuntCore
import MemhuntFormats

/// What the check declares: its facts, its codes with their examples, and its description.
extension StructureVariationCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let variants = FactDescription(
            "variation.variants", .list,
            "The labels of the variants compared, in file order (past \(StructureVariationCheck.shownRows), the first "
                + "\(StructureVariationCheck.shownRows - 2) and the largest and smallest).")
        static let minMB = FactDescription(
            "variation.minMB", .megabytes, "The smallest variant's footprint.", measure: true)
        static let maxMB = FactDescription(
            "variation.maxMB", .megabytes, "The largest variant's footprint.", measure: true)
        static let ratio = FactDescription(
            "variation.ratio", .ratio, "The largest variant's footprint divided by the smallest's.")
        static let sameInput = FactDescription(
            "variation.sameInput", .flag, "Whether every variant measured the same input size.")
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let structure = FindingCode(
            "structure-variation.structure", .warning,
            "Same input, different structure: the footprint differs by the threshold's multiple.",
            examples: [
                .raises(
                    "Fixtures/justsend/measurements-variation.json",
                    facts: [Fact.minMB.key: 103, Fact.maxMB.key: 623],
                    title: "Structure is the variable: one-block 623 MB vs 2500-blocks 103 MB"),
                .quiet(
                    "Fixtures/justsend-fixed/measurements-variation.json",
                    facts: [Fact.minMB.key: 102, Fact.maxMB.key: 103]),
            ])
        static let inputsDiffer = FindingCode(
            "structure-variation.inputs-differ", .notice, "The variants differ, but so do their inputs.",
            examples: [
                .raises(
                    "Fixtures/examples/structure-variation.inputs-differ/raises",
                    facts: [Fact.minMB.key: 150, Fact.maxMB.key: 623],
                    title: "one-block 623 MB vs 2500-blocks 150 MB, but the inputs differ"),
                .quiet(
                    "Fixtures/justsend/measurements-variation.json",
                    facts: [Fact.minMB.key: 103, Fact.maxMB.key: 623]),
            ])
        static let fixHolds = FindingCode(
            "structure-variation.fix-holds", .info, "The fix measures within tolerance of the best variant.",
            examples: [
                .raises(
                    "Fixtures/justsend/measurements-variation.json",
                    facts: [Fact.minMB.key: 103, Fact.maxMB.key: 623],
                    title: "The fix holds: one-block-after-fix 102 MB vs 2500-blocks 103 MB"),
                .quiet(
                    "Fixtures/examples/structure-variation.fix-short/raises",
                    facts: [Fact.minMB.key: 103, Fact.maxMB.key: 623]),
            ])
        static let fixShort = FindingCode(
            "structure-variation.fix-short", .warning, "The fix does not reach the best variant.",
            examples: [
                .raises(
                    "Fixtures/examples/structure-variation.fix-short/raises",
                    facts: [Fact.minMB.key: 103, Fact.maxMB.key: 623],
                    title: "The fix does not reach the best variant: one-block-after-fix 310 MB vs 2500-blocks 103 MB"),
                .quiet(
                    "Fixtures/justsend/measurements-variation.json",
                    facts: [Fact.minMB.key: 103, Fact.maxMB.key: 623]),
            ])
    }

    static let description = CheckDescription(
        id: "structure-variation",
        title: "Structure-only variation",
        step: "structure-variation",
        rationale: """
            Measure the same input with only the structure changed. When the footprint differs several-fold \
            at the same size, structure is the variable; a row labelled "after"/"fix" that lands next to the \
            best variant proves the fix.
            """,
        reads: [.measurements],
        facts: [
            Fact.variants,
            Fact.minMB,
            Fact.maxMB,
            Fact.ratio,
            Fact.sameInput,
        ],
        codes: [
            Code.structure,
            Code.inputsDiffer,
            Code.fixHolds,
            Code.fixShort,
        ],
        parameters: [
            CheckParameter("min_ratio", default: 2.0, "Warn when the largest variant is this many times the smallest."),
            CheckParameter("fix_tolerance", default: 0.1, "A fix holds within this fraction of the best variant."),
        ]
    )
}
