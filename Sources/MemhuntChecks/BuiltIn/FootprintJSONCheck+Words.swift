import MemhuntCore
import MemhuntFormats

/// Every sentence the check says.
extension FootprintJSONCheck {
    enum Words {
        static let collectHeaps = "A heap report of a memgraph after each visit says which class gains the objects."

        static func mb(_ bytes: Int) -> String { Double(bytes).megabytesText }

        static func headline(_ m: Measurement, largest: FootprintJSONCategory?) -> String {
            "\(m.name): \(mb(m.newest.bytes))"
                + (largest.map { "; largest category \($0.name) \(mb($0.dirtyBytes))" } ?? "")
                + (m.chosen ? " (the process largest in most of the file's snapshots: no app was named)" : "")
        }

        /// "+12 s" from the first sample when both have a time, else "sample 3".
        static func label(_ reading: Reading, _ position: Int, start: Double?) -> String {
            if let start, let time = reading.time { return "+\(Int((time - start).rounded())) s" }
            return "sample \(position + 1)"
        }

        static func unread(_ m: Measurement) -> String {
            (m.notes.isEmpty ? "" : " Not read: " + m.notes.prefix(5).joined(separator: "; ") + ".") + others(m)
        }

        /// The other series, each said once: another process, another launch or another clock, never joined.
        static func others(_ m: Measurement) -> String {
            guard !m.others.isEmpty else { return "" }
            return " Not joined to these samples (another process or launch, or another clock): "
                + m.others.prefix(5).joined(separator: "; ") + (m.others.count > 5 ? "; …" : "") + "."
        }

        /// "8 samples of AluminumWeight [5120] in faq-fixed.samples.footprint.json, on that file's own clock",
        /// "1 dated snapshot of AluminumWeight [5120] (faq-visit-4.footprint.json)".
        static func series(_ readings: [Reading]) -> String {
            let first = readings[0]
            let process = first.process
            let pid = (process.name ?? "a process") + (process.pid.map { " [\($0)]" } ?? " without a pid")
            let files = Array(Set(readings.map(\.artifact.fileName))).sorted()
            let count = readings.count == 1 ? "1" : FactValue.grouped(readings.count)
            if first.source.report.snapshots[first.index].clock == .calendar {
                return "\(count) dated snapshot\(readings.count == 1 ? "" : "s") of \(pid) ("
                    + files.prefix(3).joined(separator: ", ") + (files.count > 3 ? ", …" : "") + ")"
            }
            return "\(count) sample\(readings.count == 1 ? "" : "s") of \(pid) in \(first.artifact.fileName), on that "
                + "file's own clock"
        }

        static func growingTitle(_ m: Measurement, growth: Int, fit: Fit) -> String {
            "\(m.name) grew \(mb(growth)) in \(m.readings.count) samples\(fit.span)"
                + (fit.slope.map { " (\($0.oneDecimalText) MB per minute)" } ?? "")
        }

        static func growing(_ m: Measurement, growth: Int, fit: Fit) -> String {
            let series =
                m.readings.count <= 8
                ? m.readings.map { mb($0.bytes) }.joined(separator: " → ")
                : mb(m.readings[0].bytes) + " → " + mb(m.newest.bytes)
            return "footprint of \(m.name): \(series), +\(mb(growth))\(fit.span), R² \(format2(fit.r2)) (thresholds "
                + "\(fit.minGrowth.oneDecimalText) MB, R² \(format2(fit.minR2))). It climbs and does not come back "
                + "within the samples."
                + (m.chosen ? " The process is the one largest in most of the file's snapshots: no app was named." : "")
                + unread(m)
        }

        /// " One rise after sample 3, then held: …" for a step or a transient; nothing for the other shapes.
        static func shapeText(_ shape: GrowthShape?) -> String {
            switch shape?.kind {
            case .step?:
                return " The samples rise once, after sample \(shape!.stepAfter ?? 0), and hold: something filled once."
            case .transient?:
                return " The samples rose \(mb(Int(shape!.peak * 1_048_576))) and came back: made and released."
            default: return ""
            }
        }

        static func steadyTitle(_ m: Measurement, fit: Fit) -> String {
            "\(m.name): \(mb(m.readings[0].bytes)) → \(mb(m.newest.bytes)) over \(m.readings.count) samples\(fit.span)"
        }

        static func steady(_ m: Measurement, growth: Int, fit: Fit) -> String {
            "footprint of \(m.name) changed \(growth >= 0 ? "+" : "")\(mb(growth)) over \(m.readings.count) samples"
                + "\(fit.span) (R² \(format2(fit.r2))): below the threshold of \(fit.minGrowth.oneDecimalText) MB along "
                + "a line." + shapeText(fit.shape) + unread(m)
        }
    }
}
