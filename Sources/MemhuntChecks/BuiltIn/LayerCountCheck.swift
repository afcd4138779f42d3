import MemhuntCore
import MemhuntFormats

/// Step 6: CoreAnimation memory and the number of layers: is rendering structure the problem?
struct LayerCountCheck: Check {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let coreAnimationMB = FactDescription(
            "layers.coreAnimationMB", .megabytes,
            "CoreAnimation's memory in the reproduction: vmmap's row, footprint's category, or a measurement.",
            measure: true, repeatedAs: .coreAnimation)
        static let count = FactDescription(
            "layers.count", .count, "The largest layer count of a view dump or measurement.", measure: true,
            repeatedAs: .layers)
        static let countOf = FactDescription(
            "layers.countOf", .text,
            "The file layers.count is from (a view dump or measurements), when several artifacts count layers.")
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let structure = FindingCode(
            "layer-count.structure", .warning,
            "Layers or CoreAnimation's share of the footprint reached the threshold: rendering structure holds memory.",
            examples: [
                .raises(
                    "Fixtures/justsend/measurements-detail.csv",
                    facts: [Fact.coreAnimationMB.key: 346, Fact.count.key: 3573],
                    title:
                        "Rendering structure holds the memory: 3,573 layers for 2,500 lines: a layer for every line; CoreAnimation 346 MB is 57 % of the 611 MB footprint"
                ),
                .raises(
                    "Fixtures/justsend/pviews-detail.txt", facts: [Fact.count.key: 3573],
                    title: "Rendering structure: 3,573 layers"),
                .quiet("Fixtures/justsend-fixed/measurements-detail.csv", facts: [Fact.count.key: 48]),
            ])
    }

    static let description = CheckDescription(
        id: "layer-count",
        title: "CoreAnimation memory and layer count",
        step: "coreanimation-layers",
        rationale: """
            Thousands of layers for thousands of lines means a view was materialized for every line: \
            laziness ended somewhere. CoreAnimation's share of the footprint says whether rendering \
            structure, not data, holds the memory.
            """,
        reads: [.vmmapSummary, .footprint, .measurements, .viewHierarchy],
        facts: [
            Fact.coreAnimationMB,
            Fact.count,
            Fact.countOf,
        ],
        codes: [
            Code.structure
        ],
        parameters: [
            CheckParameter("max_layers", default: 1000, "Warn at this many layers."),
            CheckParameter(
                "max_share", default: 0.3, "Warn when CoreAnimation is at least this share of the footprint."),
        ]
    )

    func run(_ context: CheckContext) async throws -> CheckOutput {
        let samples = ReproSample.all(in: context)
        // The reproduction (rows without a variant) speaks for the screen; variation rows are the variation's.
        let withCA = samples.filter { $0.coreAnimationMB != nil }.min { a, b in
            (a.variant == nil ? 0 : 1, -a.coreAnimationMB!) < (b.variant == nil ? 0 : 1, -b.coreAnimationMB!)
        }
        var layerSource: (count: Int, evidence: Evidence, lines: Int?)?
        var counts = 0
        for artifact in context.artifacts(of: .viewHierarchy) {
            guard case .repro(.viewHierarchy(let dump))? = artifact.content else { continue }
            counts += 1
            if dump.layers > (layerSource?.count ?? -1) {
                layerSource = (dump.layers, Evidence(source: artifact.source), nil)
            }
        }
        for sample in samples where sample.layers != nil { counts += 1 }
        for sample in samples {
            if let layers = sample.layers, layers > (layerSource?.count ?? -1) {
                layerSource = (layers, sample.evidence, sample.inputLines)
            }
        }
        guard withCA != nil || layerSource != nil else { return CheckOutput(noInput: true) }
        var output = CheckOutput()
        output.record(Fact.coreAnimationMB, withCA?.coreAnimationMB.map(FactValue.oneDecimal))
        output.record(Fact.count, layerSource.map { .int($0.count) })
        // One count of several is said with where it is from.
        if counts > 1 {
            output.record(Fact.countOf, layerSource.map { .string(Artifact.fileName(of: $0.evidence.source)) })
        }
        let lines = layerSource?.lines ?? samples.compactMap(\.inputLines).max()
        output.headline(Fact.coreAnimationMB, "CoreAnimation")
        output.headline(
            Fact.count, "layers",
            layerSource.map {
                "\(FactValue.grouped($0.count)) layers"
                    + (counts > 1
                        ? " (the largest of \(counts) counts: \(Artifact.fileName(of: $0.evidence.source)))" : "")
            })

        var reasons: [String] = []
        var evidence: [Evidence] = []
        if let layerSource, layerSource.count >= context.int("max_layers") {
            var reason = "\(FactValue.grouped(layerSource.count)) layers"
            if let lines, lines > 0 {
                reason += " for \(FactValue.grouped(lines)) lines"
                if layerSource.count >= lines { reason += ": a layer for every line" }
            }
            reasons.append(reason)
            evidence.append(layerSource.evidence)
        }
        let share = context.double("max_share")
        // Memory is said to be held only when CoreAnimation's share of the footprint shows it; a layer count alone
        // is structure, not memory.
        var holdsMemory = false
        if let withCA, let ca = withCA.coreAnimationMB, withCA.footprintMB > 0, ca / withCA.footprintMB >= share {
            holdsMemory = true
            reasons.append(
                "CoreAnimation \(ca.oneDecimalText) MB is \(Int(saturating: 100 * ca / withCA.footprintMB)) % of the "
                    + "\(withCA.footprintMB.oneDecimalText) MB footprint")
            evidence.append(withCA.evidence)
        }
        let backing = context.artifacts(of: .vmmapSummary).flatMap { artifact -> [String] in
            guard case .repro(.vmmap(let summary))? = artifact.content else { return [] }
            return summary.layerMemoryRegions.filter { $0.name != "CoreAnimation" }.compactMap { region in
                (region.footprintBytes ?? region.virtualBytes).map { "\(region.name) \(Double($0).megabytesText)" }
            }
        }
        if !reasons.isEmpty {
            output.emit(
                Code.structure,
                title: (holdsMemory ? "Rendering structure holds the memory: " : "Rendering structure: ")
                    + reasons.joined(separator: "; "),
                detail: reasons.joined(separator: "; ") + " (thresholds: \(context.int("max_layers")) "
                    + "layers, \(Int(saturating: share * 100)) % of the footprint). Lazy containers are lazy only "
                    + "at their own boundary: an ordinary VStack inside one materializes every child."
                    + (backing.isEmpty
                        ? ""
                        : " Layer backing stores outside the CoreAnimation row: " + backing.joined(separator: ", ")
                            + "."),
                evidence: evidence,
                next: .step(
                    "structure-variation",
                    "Change only the structure for the same input to find which variable matters."))
        }
        return output
    }
}
