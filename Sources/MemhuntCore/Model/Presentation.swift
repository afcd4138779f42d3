/// What a reader of a step should see, said by the checks that ran it: the headline facts, the
/// comparisons, the series to chart, the timeline events and the lines a postmortem may quote. Every
/// reporter renders it generically; no reporter names a fact or a check.
public struct Presentation: Sendable, Hashable, Codable {
    /// The step's facts in a few words, in the order the checks give them.
    public var headline: [Headline]
    /// Pairs of measures side by side: a growth, a variation or a fix.
    public var comparisons: [Comparison]
    /// Values to chart, each with its own axis.
    public var series: [Series]
    /// What happened when, from which artifact.
    public var events: [TimelineEvent]
    /// What the step shows of the incident's reach, in sentences a postmortem may quote.
    public var impact: [String]
    /// What the evidence made possible, in sentences a postmortem's "what went well" may quote.
    public var strengths: [String]

    public init(
        headline: [Headline] = [], comparisons: [Comparison] = [], series: [Series] = [],
        events: [TimelineEvent] = [], impact: [String] = [], strengths: [String] = []
    ) {
        self.headline = headline
        self.comparisons = comparisons
        self.series = series
        self.events = events
        self.impact = impact
        self.strengths = strengths
    }

    /// `other` after this one.
    public mutating func append(_ other: Presentation) {
        headline += other.headline
        comparisons += other.comparisons
        series += other.series
        events += other.events
        impact += other.impact
        strengths += other.strengths
    }
}

/// One headline item: a fact the step shows first, in words ("725 MB, rank 7 of 16, suspended").
public struct Headline: Sendable, Hashable, Codable {
    /// The fact it shows.
    public var key: String
    /// What the fact is, in a few words ("lifetime peak").
    public var label: String
    /// The value with its context, as every reporter prints it; it may name other facts of the check
    /// ("45 → 611 MB (×13.6)" shows the peak with the baseline and the ratio).
    public var text: String

    public init(key: String, label: String, text: String) {
        self.key = key
        self.label = label
        self.text = text
    }
}

/// Which way a fact or a measure should move.
public enum Better: String, Sendable, Hashable, Codable {
    case lower, higher
    /// Context, not a measure (the page size, how many logs were given).
    case neutral

    /// The direction a unit implies when a fact declares none: lower for memory, counts, ratios and
    /// percentages; none for words.
    public static func implied(by unit: FactUnit) -> Better {
        switch unit {
        case .megabytes, .bytes, .pages, .count, .ratio, .percent: .lower
        case .text, .flag, .list, .map, .number: .neutral
        }
    }
}

/// Two measures side by side.
public struct Comparison: Sendable, Hashable, Codable {
    /// What the pair is: a growth is never laid out as a fix.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// One thing measured at two moments of one run (baseline → peak, first visit → last).
        case growth
        /// Two variants of one thing measured side by side (one block vs 2,500 blocks).
        case variation
        /// Before a change and after it.
        case fix
    }

    /// One side of the pair.
    public struct Side: Sendable, Hashable, Codable {
        /// The side's own name (`baseline`, `after-detail`, `drawer-before`).
        public var label: String
        public var value: Double
        /// The value as every reporter prints it (`45 MB`, `+11`).
        public var text: String

        public init(label: String, value: Double, text: String) {
            self.label = label
            self.value = value
            self.text = text
        }
    }

    public var kind: Kind
    /// What is measured ("Simulator reproduction: footprint", "RootView body evaluations").
    public var label: String
    /// Comparisons of one group share a table ("Body evaluations per view, drawer-before → drawer-after").
    public var group: String?
    public var unit: FactUnit
    public var better: Better
    /// The first side: the baseline, the larger variant, the state before.
    public var from: Side
    /// The second side: the peak, the smaller variant, the state after.
    public var to: Side
    /// The change in words (`×13.6`, `+6.1 MB per visit`), when the check gives one.
    public var change: String?

    public init(
        kind: Kind, label: String, group: String? = nil, unit: FactUnit, better: Better, from: Side, to: Side,
        change: String? = nil
    ) {
        self.kind = kind
        self.label = label
        self.group = group
        self.unit = unit
        self.better = better
        self.from = from
        self.to = to
        self.change = change
    }
}

/// Values to chart.
public struct Series: Sendable, Hashable, Codable {
    /// How the values are drawn.
    public enum Style: String, Sendable, Hashable, Codable {
        /// One bar per point.
        case bars
        /// Points in order joined by a line, with the fitted line when given.
        case line
    }

    /// What a point stands for, so a chart can mark it.
    public enum Role: String, Sendable, Hashable, Codable {
        case plain
        /// The subject, or the side under suspicion.
        case subject
        /// The state after a change, or the smaller variant.
        case after
    }

    public struct Point: Sendable, Hashable, Codable {
        public var label: String
        public var value: Double
        /// The value as printed beside the bar.
        public var text: String
        public var role: Role

        public init(label: String, value: Double, text: String, role: Role = .plain) {
            self.label = label
            self.value = value
            self.text = text
            self.role = role
        }
    }

    /// A straight line fitted to the points: value = intercept + slope × (index + 1).
    public struct Fit: Sendable, Hashable, Codable {
        public var slope: Double
        public var intercept: Double
        /// How well the line fits, 0–1, when computed.
        public var r2: Double?

        public init(slope: Double, intercept: Double, r2: Double? = nil) {
            self.slope = slope
            self.intercept = intercept
            self.r2 = r2
        }
    }

    /// Stable within a document (an HTML anchor).
    public var id: String
    public var title: String
    public var caption: String
    public var style: Style
    /// The axis of the values, with its unit ("lifetime peak (MB)").
    public var axis: String
    public var unit: FactUnit
    public var points: [Point]
    public var fit: Fit?
    /// Whether reports draw it (false: kept for `diff`, which compares it with the other run's).
    public var drawn: Bool
    /// Whether `diff` compares its points with the same series of another run, point by point by label.
    public var acrossRuns: Bool

    public init(
        id: String, title: String, caption: String, style: Style = .bars, axis: String, unit: FactUnit,
        points: [Point], fit: Fit? = nil, drawn: Bool = true, acrossRuns: Bool = false
    ) {
        self.drawn = drawn
        self.acrossRuns = acrossRuns
        self.id = id
        self.title = title
        self.caption = caption
        self.style = style
        self.axis = axis
        self.unit = unit
        self.points = points
        self.fit = fit
    }
}

/// Something that happened at a time an artifact writes.
public struct TimelineEvent: Sendable, Hashable, Codable {
    /// The time as the artifact writes it.
    public var time: String
    public var text: String
    /// The artifact's source.
    public var source: String

    public init(time: String, text: String, source: String) {
        self.time = time
        self.text = text
        self.source = source
    }
}
