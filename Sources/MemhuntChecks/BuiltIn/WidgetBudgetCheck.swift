import MemhuntCore
import MemhuntFormats

/// Seed 002: a widget extension under a ~30 MB budget, where decoded images are the budget.
struct WidgetBudgetCheck: MeasuringCheck {
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

    /// The footprint readings and the images, heaviest decoded first.
    struct Measurement {
        var samples: [ReproSample]
        var images: [(artifact: Artifact, info: ImageInfo)]
    }

    /// The limit and the ceiling below it that leaves the headroom.
    struct Budget {
        var limit: Double
        var ceiling: Double
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        let samples = ReproSample.all(in: context)
        let images = context.artifacts(of: .image).compactMap { artifact -> (Artifact, ImageInfo)? in
            guard case .repro(.image(let info))? = artifact.content else { return nil }
            return (artifact, info)
        }.sorted { ($0.1.decodedBytes, $1.0.source) > ($1.1.decodedBytes, $0.0.source) }
        guard !samples.isEmpty || !images.isEmpty else { return nil }
        return Measurement(samples: samples, images: images.map { (artifact: $0.0, info: $0.1) })
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        let limit = context.double("limit_mb")
        let budget = Budget(limit: limit, ceiling: limit * (1 - (context.double("headroom"))))
        output.measurementEvents(m.samples, in: context)
        output.record(Fact.limitMB, .oneDecimal(budget.limit))
        output.record(Fact.ceilingMB, .oneDecimal(budget.ceiling))
        if let heaviest = m.samples.max(by: { $0.footprintMB < $1.footprintMB }) {
            output.record(Fact.footprintMB, .oneDecimal(heaviest.footprintMB))
            output.headline(Fact.footprintMB, "heaviest footprint", Words.heaviest(heaviest, budget))
            if heaviest.footprintMB > budget.ceiling {
                let over = heaviest.footprintMB > budget.limit
                output.emit(
                    over ? Code.overLimit : Code.overCeiling, severity: over ? .critical : .warning,
                    title: Words.overTitle(heaviest, budget, over: over), detail: Words.over(heaviest, budget),
                    evidence: [heaviest.evidence], next: .change(Words.downsample))
            }
        }
        Self.images(m.images, budget: budget, context: context, to: &output)
    }

    /// The images' decoded size against the budget, and each image that takes the threshold's share of it.
    static func images(
        _ images: [(artifact: Artifact, info: ImageInfo)], budget: Budget, context: CheckContext,
        to output: inout CheckOutput
    ) {
        guard let heaviest = images.first else { return }
        let total = images.reduce(0.0) { $0 + Double($1.info.decodedBytes) }
        output.record(Fact.images, .int(images.count))
        output.record(Fact.imageMB, .megabytes(bytes: total))
        output.record(Fact.heaviestImage, .string(ReproSample.fileLabel(heaviest.artifact.source)))
        output.headline(
            Fact.imageMB, "decoded images",
            Plural.count(images.count, "image") + " decode to \(total.megabytesText) (heaviest "
                + ReproSample.fileLabel(heaviest.artifact.source) + ")")
        let share = context.double("max_image_share")
        let maxPixels = context.int("max_pixel_size")
        for (artifact, info) in images where Double(info.decodedBytes) >= share * budget.limit * 1_048_576 {
            output.emit(
                Code.heavyImage,
                title:
                    "\(ReproSample.fileLabel(artifact.source)) decodes to \(Double(info.decodedBytes).megabytesText) "
                    + "(\(info.width)×\(info.height))",
                detail: Words.heavyImage(
                    info, count: images.count, total: total, limit: budget.limit, maxPixels: maxPixels),
                evidence: [Evidence(source: artifact.source)], next: .change(Words.thumbnail))
        }
    }
}

/// Every sentence the check says.
extension WidgetBudgetCheck {
    enum Words {
        static let downsample =
            "Downsample images to the exact pixel size each family renders; entries carry data, not decoded images."
        static let thumbnail =
            "Decode straight to a thumbnail (CGImageSourceCreateThumbnailAtIndex with kCGImageSourceShouldCache "
            + "false) at the rendered size."

        static func heaviest(_ sample: ReproSample, _ budget: Budget) -> String {
            "\(Fact.footprintMB.format(.oneDecimal(sample.footprintMB))) of a "
                + "\(Fact.ceilingMB.format(.oneDecimal(budget.ceiling))) ceiling (limit "
                + "\(Fact.limitMB.format(.oneDecimal(budget.limit))))"
        }

        static func overTitle(_ sample: ReproSample, _ budget: Budget, over: Bool) -> String {
            over
                ? "\(sample.label) is over the \(budget.limit.oneDecimalText) MB limit: \(sample.footprintMB.oneDecimalText) MB"
                : "\(sample.label) is over its \(budget.ceiling.oneDecimalText) MB ceiling: "
                    + "\(sample.footprintMB.oneDecimalText) MB, \((budget.limit - sample.footprintMB).oneDecimalText) MB "
                    + "under the \(budget.limit.oneDecimalText) MB limit"
        }

        static func over(_ sample: ReproSample, _ budget: Budget) -> String {
            "phys_footprint \(sample.footprintMB.oneDecimalText) MB; limit \(budget.limit.oneDecimalText) MB, ceiling "
                + "with headroom \(budget.ceiling.oneDecimalText) MB. The effective limit varies by device and OS "
                + "release: the system kills the extension without warning and the widget goes stale."
        }

        static func heavyImage(_ info: ImageInfo, count: Int, total: Double, limit: Double, maxPixels: Int) -> String {
            var detail =
                "\(info.width)×\(info.height) × 4 bytes = \(Double(info.decodedBytes).megabytesText) decoded, "
                + "\(Int(saturating: 100 * Double(info.decodedBytes) / (limit * 1_048_576))) % of the "
                + "\(limit.oneDecimalText) MB budget, whatever its size on disk. All " + Plural.count(count, "image")
                + " decode to \(total.megabytesText)."
            if maxPixels > 0, max(info.width, info.height) > maxPixels {
                let scale = Double(maxPixels) / Double(max(info.width, info.height))
                let downsampled = Double(info.width) * scale * Double(info.height) * scale * 4
                detail += " At the family's \(maxPixels) px it would decode to \(downsampled.megabytesText)."
            }
            return detail
        }
    }
}
