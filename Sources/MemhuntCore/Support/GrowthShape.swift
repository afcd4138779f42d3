/// The shape of a series of readings taken after each repetition of one scenario (a footprint per visit, a
/// heap's bytes per capture, a class's instances per heap), judged against the least change that counts:
///
/// - `linear`: grows by about the same amount per repetition (a line fits, R² at least the bar): what a leak
///   or memory abandoned on every repetition shows; the readings alone cannot tell which;
/// - `step`: one level, then a higher one held for two readings at least, two levels fitting better than a
///   line: something filled once (a cache);
/// - `transient`: rises, then comes back to within the least change of the first reading;
/// - `flat`: every reading within the least change of their middle (noise, not a change);
/// - `uneven`: grows or falls by more than the least change, along no line and in no single step.
public struct GrowthShape: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case linear, step, transient, flat, uneven
    }

    public var kind: Kind
    /// Least-squares change per repetition.
    public var slope: Double
    /// How well the line fits, 0–1 (1 for readings that never change).
    public var r2: Double
    /// Last reading minus first.
    public var rise: Double
    /// Highest reading minus first.
    public var peak: Double
    /// For a step: the repetition after which it came (1-based: 1 is between the first and second readings).
    public var stepAfter: Int?

    /// The readings' shape. Fewer than three readings have none: two points always fit a line.
    public static func of(_ values: [Double], least: Double, minR2: Double) -> GrowthShape? {
        guard values.count >= 3, values.allSatisfy(\.isFinite) else { return nil }
        let least = max(least, 0)
        let (slope, r2) = fit(values)
        let first = values[0]
        let rise = values[values.count - 1] - first
        let peak = values.max()! - first
        var shape = GrowthShape(kind: .uneven, slope: slope, r2: r2, rise: rise, peak: peak)
        if level(values[...], least: least) {
            shape.kind = .flat
        } else if let at = step(values, least: least, minR2: minR2, lineR2: r2) {
            shape.kind = .step
            shape.stepAfter = at
        } else if slope >= least, slope > 0, r2 >= minR2 {
            shape.kind = .linear
        } else if peak >= 2 * least, abs(rise) < least, values.last! < values.max()! {
            shape.kind = .transient
        }
        return shape
    }

    /// Readings within `least` of their middle: noise, not a change.
    static func level(_ values: ArraySlice<Double>, least: Double) -> Bool {
        values.max()! - values.min()! < 2 * least || values.max()! == values.min()!
    }

    /// The repetition after which the readings rise from one level to another, at least twice the least change
    /// above it, with two readings at least on the higher level, when two levels fit the readings at least as
    /// well as the bar and better than a line: a step, then flat.
    static func step(_ values: [Double], least: Double, minR2: Double, lineR2: Double) -> Int? {
        let mean = { (slice: ArraySlice<Double>) in slice.reduce(0, +) / Double(slice.count) }
        let all = mean(values[...])
        let total = values.reduce(0) { $0 + ($1 - all) * ($1 - all) }
        guard total > 0 else { return nil }
        var best: (at: Int, r2: Double)?
        for at in 1...(values.count - 2) {
            let (before, after) = (values[..<at], values[at...])
            let (low, high) = (mean(before), mean(after))
            guard high - low >= 2 * least else { continue }
            let residual =
                before.reduce(0) { $0 + ($1 - low) * ($1 - low) } + after.reduce(0) { $0 + ($1 - high) * ($1 - high) }
            let r2 = 1 - residual / total
            if r2 > (best?.r2 ?? -1) { best = (at, r2) }
        }
        guard let best, best.r2 >= minR2, best.r2 > lineR2 else { return nil }
        return best.at
    }

    /// Least-squares slope per repetition and R² of readings against repetitions 1…n.
    public static func fit(_ values: [Double]) -> (slope: Double, r2: Double) {
        let n = Double(values.count)
        guard values.count >= 2 else { return (0, 0) }
        let xs = (1...values.count).map(Double.init)
        let meanX = xs.reduce(0, +) / n, meanY = values.reduce(0, +) / n
        let sxy = zip(xs, values).reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
        let sxx = xs.reduce(0) { $0 + ($1 - meanX) * ($1 - meanX) }
        let syy = values.reduce(0) { $0 + ($1 - meanY) * ($1 - meanY) }
        guard sxx > 0 else { return (0, 0) }
        let slope = sxy / sxx
        return (slope, syy > 0 ? (sxy * sxy) / (sxx * syy) : 1)
    }
}
