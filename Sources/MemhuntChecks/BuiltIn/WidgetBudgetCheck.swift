import MemhuntCore
import MemhuntFormats

/// Seed 002: a widget extension under a ~30 MB budget, where decoded images are the budget.
struct WidgetBudgetCheck: Check {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let footprintMB = FactDescription(
            "budget.footprintMB", .megabytes, "The heaviest measured footprint of the extension.")
        static let limitMB = FactDescription(
            "budget.limitMB", .megabytes,
            "The extension's documented memory limit (30 MB unless the playbook says otherwise).", better: .neutral,
            setting: true)
        static let ceilingMB = FactDescription(
            "budget.ceilingMB", .megabytes, "The limit less the headroom: what a measurement must stay under.",
            better: .neutral, setting: true)
        static let images = FactDescription("budget.images", .count, "Images among the artifacts.", better: .neutral)
        static let imageMB = FactDescription(
            "budget.imageMB", .megabytes, "The largest decoded size of an image (width × height × 4 bytes).")
        static let heaviestImage = FactDescription(
            "budget.heaviestImage", .text, "The image with the largest decoded size.")
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let overLimit = FindingCode(
            "widget-budget.over-limit", .critical, "The extension measured over its memory limit.",
            examples: [
                .raises(
                    "Fixtures/examples/widget-budget.over-limit/raises",
                    facts: [Fact.footprintMB.key: 34.1, Fact.limitMB.key: 30],
                    title: "systemLarge heaviest timeline is over the 30 MB limit: 34.1 MB"),
                .quiet(
                    "Fixtures/widget/measurements-widget.csv",
                    facts: [Fact.footprintMB.key: 26.4, Fact.limitMB.key: 30]),
            ])
        static let overCeiling = FindingCode(
            "widget-budget.over-ceiling", .warning, "The extension measured inside the limit but over the ceiling.",
            examples: [
                .raises(
                    "Fixtures/widget/measurements-widget.csv",
                    facts: [Fact.footprintMB.key: 26.4, Fact.limitMB.key: 30],
                    title:
                        "systemLarge heaviest timeline is over its 24 MB ceiling: 26.4 MB, 3.6 MB under the 30 MB limit"
                ),
                .quiet(
                    "Fixtures/examples/widget-budget.over-ceiling/quiet",
                    facts: [Fact.footprintMB.key: 21.7, Fact.limitMB.key: 30]),
            ])
        static let heavyImage = FindingCode(
            "widget-budget.heavy-image", .warning, "One image decodes to a large share of the limit.",
            examples: [
                .raises(
                    "Fixtures/widget/illustration-1024.png", facts: [Fact.limitMB.key: 30, Fact.ceilingMB.key: 24],
                    title: "illustration-1024 decodes to 4 MB (1024×1024)"),
                .quiet("Fixtures/widget/sky-512.png", facts: [Fact.limitMB.key: 30, Fact.ceilingMB.key: 24]),
            ])
    }

    static let description = CheckDescription(
        id: "widget-budget",
        title: "Widget memory budget and decoded images",
        step: "widget-budget",
        rationale: """
            A widget extension gets roughly 30 MB; cross it and the system kills it and the widget goes \
            stale. phys_footprint is the number the system watches, and images decode to width × height × 4 \
            bytes whatever their size on disk. Gate the heaviest timeline with headroom below the limit.
            """,
        reads: [.measurements, .vmmapSummary, .footprint, .image],
        facts: [
            Fact.footprintMB,
            Fact.limitMB,
            Fact.ceilingMB,
            Fact.images,
            Fact.imageMB,
            Fact.heaviestImage,
        ],
        codes: [
            Code.overLimit,
            Code.overCeiling,
            Code.heavyImage,
        ],
        parameters: [
            CheckParameter("limit_mb", default: 30.0, "The documented limit of the extension, in MB."),
            CheckParameter(
                "headroom", default: 0.2, "Fraction of the limit kept free: the ceiling is limit × (1 − headroom)."),
            CheckParameter(
                "max_image_share", default: 0.1, "Warn about an image that decodes to this share of the limit."),
            CheckParameter(
                "max_pixel_size", default: 0, "Largest pixel dimension a widget family draws (0 = unknown)."),
        ]
    )

    func run(_ context: CheckContext) async throws -> CheckOutput {
        let limit = context.double("limit_mb")
        let ceiling = limit * (1 - (context.double("headroom")))
        let samples = ReproSample.all(in: context)
        let images = context.artifacts(of: .image).compactMap { artifact -> (Artifact, ImageInfo)? in
            guard case .repro(.image(let info))? = artifact.content else { return nil }
            return (artifact, info)
        }.sorted { ($0.1.decodedBytes, $1.0.source) > ($1.1.decodedBytes, $0.0.source) }
        guard !samples.isEmpty || !images.isEmpty else { return CheckOutput(noInput: true) }
        var output = CheckOutput()
        output.measurementEvents(samples, in: context)
        output.record(Fact.limitMB, .oneDecimal(limit))
        output.record(Fact.ceilingMB, .oneDecimal(ceiling))

        if let heaviest = samples.max(by: { $0.footprintMB < $1.footprintMB }) {
            output.record(Fact.footprintMB, .oneDecimal(heaviest.footprintMB))
            output.headline(
                Fact.footprintMB, "heaviest footprint",
                "\(Fact.footprintMB.format(.oneDecimal(heaviest.footprintMB))) of a "
                    + "\(Fact.ceilingMB.format(.oneDecimal(ceiling))) ceiling (limit \(Fact.limitMB.format(.oneDecimal(limit))))"
            )
            if heaviest.footprintMB > ceiling {
                let over = heaviest.footprintMB > limit
                output.emit(
                    over ? Code.overLimit : Code.overCeiling,
                    severity: over ? .critical : .warning,
                    title: over
                        ? "\(heaviest.label) is over the \(limit.oneDecimalText) MB limit: \(heaviest.footprintMB.oneDecimalText) MB"
                        : "\(heaviest.label) is over its \(ceiling.oneDecimalText) MB ceiling: "
                            + "\(heaviest.footprintMB.oneDecimalText) MB, "
                            + "\((limit - heaviest.footprintMB).oneDecimalText) MB under the \(limit.oneDecimalText) MB limit",
                    detail:
                        "phys_footprint \(heaviest.footprintMB.oneDecimalText) MB; limit \(limit.oneDecimalText) MB, "
                        + "ceiling with headroom \(ceiling.oneDecimalText) MB. The effective limit varies by device "
                        + "and OS release: the system kills the extension without warning and the widget goes stale.",
                    evidence: [heaviest.evidence],
                    next: .change(
                        "Downsample images to the exact pixel size each family renders; entries carry data, "
                            + "not decoded images."))
            }
        }
        guard !images.isEmpty else { return output }
        let total = images.reduce(0.0) { $0 + Double($1.1.decodedBytes) }
        output.record(Fact.images, .int(images.count))
        output.record(Fact.imageMB, .megabytes(bytes: total))
        output.record(Fact.heaviestImage, .string(ReproSample.fileLabel(images[0].0.source)))
        output.headline(
            Fact.imageMB, "decoded images",
            Plural.count(images.count, "image") + " decode to \(total.megabytesText) (heaviest "
                + ReproSample.fileLabel(images[0].0.source) + ")")
        let share = context.double("max_image_share")
        let maxPixels = context.int("max_pixel_size")
        for (artifact, info) in images where Double(info.decodedBytes) >= share * limit * 1_048_576 {
            var detail =
                "\(info.width)×\(info.height) × 4 bytes = \(Double(info.decodedBytes).megabytesText) decoded, "
                + "\(Int(saturating: 100 * Double(info.decodedBytes) / (limit * 1_048_576))) % of the "
                + "\(limit.oneDecimalText) MB budget, whatever its size on disk. All "
                + Plural.count(images.count, "image") + " decode "
                + "to \(total.megabytesText)."
            if maxPixels > 0, max(info.width, info.height) > maxPixels {
                let scale = Double(maxPixels) / Double(max(info.width, info.height))
                let downsampled = Double(info.width) * scale * Double(info.height) * scale * 4
                detail += " At the family's \(maxPixels) px it would decode to \(downsampled.megabytesText)."
            }
            output.emit(
                Code.heavyImage,
                title:
                    "\(ReproSample.fileLabel(artifact.source)) decodes to \(Double(info.decodedBytes).megabytesText) "
                    + "(\(info.width)×\(info.height))",
                detail: detail,
                evidence: [Evidence(source: artifact.source)],
                next: .change(
                    "Decode straight to a thumbnail (CGImageSourceCreateThumbnailAtIndex with "
                        + "kCGImageSourceShouldCache false) at the rendered size."))
        }
        return output
    }
}
