import MemhuntCore
import MemhuntFormats

/// Every sentence the check says.
extension XCTestMemoryCheck {
    enum Words {
        static let bringUnder =
            "Bring the test's memory under the ceiling before it ships: the limit kills without warning."
        static let keepTheBaseline = "Find what the change made the test hold; keep the baseline until it is fixed."

        static func heaviest(_ entry: Measured, limit: Double, ceiling: Double) -> String {
            "\(entry.peakMB.megabytesValueText) in \(entry.metric.test)"
                + (limit > 0 ? " (ceiling \(ceiling.megabytesValueText))" : "")
        }

        static func chartCaption(limit: Double, ceiling: Double) -> String {
            "The largest value of each test's memory metric"
                + (limit > 0 ? "; the ceiling is \(ceiling.megabytesValueText)." : ".")
        }

        static func overTitle(_ entry: Measured, over: Bool, limit: Double, ceiling: Double) -> String {
            over
                ? "\(entry.metric.test) is over the \(limit.megabytesValueText) limit: \(entry.peakMB.megabytesValueText)"
                : "\(entry.metric.test) is over its \(ceiling.megabytesValueText) ceiling: \(entry.peakMB.megabytesValueText), "
                    + "\((limit - entry.peakMB).megabytesValueText) under the \(limit.megabytesValueText) limit"
        }

        static func over(_ entry: Measured, limit: Double, ceiling: Double) -> String {
            "\(entry.metric.test) \(entry.metric.displayName): the heaviest of \(entry.metric.values.count) runs is "
                + "\(entry.peakMB.megabytesValueText) (\(entry.metric.identifier)); limit \(limit.megabytesValueText), "
                + "ceiling with headroom \(ceiling.megabytesValueText)."
        }

        static func regressionTitle(
            _ entry: Measured, _ baseline: Double, _ average: Double, percent: Double, allowed: Double
        )
            -> String
        {
            "\(entry.metric.test): \(baseline.megabytesValueText) → \(average.megabytesValueText) against its baseline "
                + "(+\(FactValue.oneDecimal(percent)) %, allowed \(FactValue.oneDecimal(allowed)) %)"
        }

        static func regression(
            _ entry: Measured, _ baseline: Double, _ average: Double, percent: Double, allowed: Double
        )
            -> String
        {
            "\(entry.metric.test) \(entry.metric.displayName): average \(average.megabytesValueText) against the "
                + "baseline's \(baseline.megabytesValueText)" + (entry.metric.baselineName.map { " (\($0))" } ?? "")
                + ": +\(FactValue.oneDecimal(percent)) %, over the test's maxPercentRegression of "
                + "\(FactValue.oneDecimal(allowed)) %."
        }
    }
}
