import MemhuntCore
import MemhuntFormats

/// Step 6: CoreAnimation memory and the number of layers: is rendering structure the problem?
struct LayerCountCheck: MeasuringCheck {
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

    /// The reading with CoreAnimation's share, the largest layer count and where it is from, how many counts there
    /// are, the input's lines, and the layer backing stores vmmap shows outside the CoreAnimation row.
    struct Measurement {
        var withCA: ReproSample?
        var layers: (count: Int, evidence: Evidence, lines: Int?)?
        var counts: Int
        var lines: Int?
        var backing: [String]
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        let samples = ReproSample.all(in: context)
        // The reproduction (rows without a variant) speaks for the screen; variation rows are the variation's.
        let withCA = samples.filter { $0.coreAnimationMB != nil }.min { a, b in
            (a.variant == nil ? 0 : 1, -a.coreAnimationMB!) < (b.variant == nil ? 0 : 1, -b.coreAnimationMB!)
        }
        var layers: (count: Int, evidence: Evidence, lines: Int?)?
        var counts = 0
        for artifact in context.artifacts(of: .viewHierarchy) {
            guard case .repro(.viewHierarchy(let dump))? = artifact.content else { continue }
            counts += 1
            if dump.layers > (layers?.count ?? -1) { layers = (dump.layers, Evidence(source: artifact.source), nil) }
        }
        for sample in samples where sample.layers != nil { counts += 1 }
        for sample in samples {
            if let count = sample.layers, count > (layers?.count ?? -1) {
                layers = (count, sample.evidence, sample.inputLines)
            }
        }
        guard withCA != nil || layers != nil else { return nil }
        let backing = context.artifacts(of: .vmmapSummary).flatMap { artifact -> [String] in
            guard case .repro(.vmmap(let summary))? = artifact.content else { return [] }
            return summary.layerMemoryRegions.filter { $0.name != "CoreAnimation" }.compactMap { region in
                (region.footprintBytes ?? region.virtualBytes).map { "\(region.name) \(Double($0).megabytesText)" }
            }
        }
        return Measurement(
            withCA: withCA, layers: layers, counts: counts,
            lines: layers?.lines ?? samples.compactMap(\.inputLines).max(), backing: backing)
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        output.record(Fact.coreAnimationMB, m.withCA?.coreAnimationMB.map(FactValue.oneDecimal))
        output.record(Fact.count, m.layers.map { .int($0.count) })
        // One count of several is said with where it is from.
        if m.counts > 1 {
            output.record(Fact.countOf, m.layers.map { .string(Artifact.fileName(of: $0.evidence.source)) })
        }
        output.headline(Fact.coreAnimationMB, "CoreAnimation")
        output.headline(Fact.count, "layers", m.layers.map { Words.layers($0.count, $0.evidence, counts: m.counts) })
        var reasons: [String] = []
        var evidence: [Evidence] = []
        let maxLayers = context.int("max_layers")
        if let layers = m.layers, layers.count >= maxLayers {
            reasons.append(Words.layerReason(layers.count, lines: m.lines))
            evidence.append(layers.evidence)
        }
        let share = context.double("max_share")
        // Memory is said to be held only when CoreAnimation's share of the footprint shows it; a layer count alone
        // is structure, not memory.
        var holdsMemory = false
        if let withCA = m.withCA, let ca = withCA.coreAnimationMB, withCA.footprintMB > 0,
            ca / withCA.footprintMB >= share
        {
            holdsMemory = true
            reasons.append(Words.shareReason(ca, footprint: withCA.footprintMB))
            evidence.append(withCA.evidence)
        }
        guard !reasons.isEmpty else { return }
        output.emit(
            Code.structure,
            title: (holdsMemory ? "Rendering structure holds the memory: " : "Rendering structure: ")
                + reasons.joined(separator: "; "),
            detail: Words.structure(reasons, maxLayers: maxLayers, share: share, backing: m.backing),
            evidence: evidence,
            next: .step("structure-variation", Words.changeOnlyTheStructure))
    }
}

/// Every sentence the check says.
extension LayerCountCheck {
    enum Words {
        static let changeOnlyTheStructure =
            "Change only the structure for the same input to find which variable matters."

        static func layers(_ count: Int, _ evidence: Evidence, counts: Int) -> String {
            "\(FactValue.grouped(count)) layers"
                + (counts > 1 ? " (the largest of \(counts) counts: \(Artifact.fileName(of: evidence.source)))" : "")
        }

        static func layerReason(_ count: Int, lines: Int?) -> String {
            var reason = "\(FactValue.grouped(count)) layers"
            if let lines, lines > 0 {
                reason += " for \(FactValue.grouped(lines)) lines"
                if count >= lines { reason += ": a layer for every line" }
            }
            return reason
        }

        static func shareReason(_ ca: Double, footprint: Double) -> String {
            "CoreAnimation \(ca.oneDecimalText) MB is \(Int(saturating: 100 * ca / footprint)) % of the "
                + "\(footprint.oneDecimalText) MB footprint"
        }

        static func structure(_ reasons: [String], maxLayers: Int, share: Double, backing: [String]) -> String {
            reasons.joined(separator: "; ")
                + " (thresholds: \(maxLayers) layers, \(Int(saturating: share * 100)) % of the "
                + "footprint). Lazy containers are lazy only at their own boundary: an ordinary VStack inside one "
                + "materializes every child."
                + (backing.isEmpty
                    ? ""
                    : " Layer backing stores outside the CoreAnimation row: " + backing.joined(separator: ", ") + ".")
        }
    }
}
