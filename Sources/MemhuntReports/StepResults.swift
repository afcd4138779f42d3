import MemhuntCore

/// The numbers of a step in a few words, and the before/after comparisons a run holds: shared by
/// the Markdown, HTML and postmortem renderers so they print the same numbers the same way.
extension FindingsDocument {
    /// "725 MB, rank 7 of 16", "45 → 611 MB (×13.6)", "346 MB / 3,573 layers": the step's facts,
    /// known shapes first, then any other fact as `key value`.
    public func result(of step: StepRecord) -> String {
        var facts = step.facts
        var parts: [String] = []
        func take(_ key: String) -> FactValue? { facts.removeValue(forKey: key) }
        func text(_ key: String, _ value: FactValue) -> String { formatted(key, value) }

        if let reports = take("crash.reports") {
            let kind = take("crash.kind")
            parts.append(
                reports.intValue == 0
                    ? "no crash report"
                    : "\(reports) crash report\(reports.intValue == 1 ? "" : "s")"
                        + (kind.map { ", the newest \($0)" } ?? ""))
        }
        if let peak = take("jetsam.app.peakMB") {
            var part = text("jetsam.app.peakMB", peak)
            if let rank = take("jetsam.app.rank") {
                part += ", rank \(rank)"
                if let processes = facts["jetsam.processes"] { part += " of \(processes)" }
            }
            if let state = take("jetsam.app.state") { part += ", \(state)" }
            parts.append(part)
        }
        if let resident = take("jetsam.app.residentMB") {
            var part = text("jetsam.app.residentMB", resident) + " resident"
            if let state = self.facts["jetsam.app.state"] { part += " (\(state))" }
            parts.append(part)
        }
        if let compressions = take("jetsam.compressions") { parts.append("\(compressions) compressions") }
        if let baseline = take("repro.baselineMB"), let peak = take("repro.peakMB") {
            var part = "\(baseline) → \(text("repro.peakMB", peak))"
            if let ratio = take("repro.ratio") { part += " (×\(ratio))" }
            parts.append(part)
        }
        if let coreAnimation = take("layers.coreAnimationMB") {
            var part = text("layers.coreAnimationMB", coreAnimation)
            if let count = take("layers.count") { part += " / \(count) layers" }
            parts.append(part)
        }
        if let largest = take("variation.maxMB"), let smallest = take("variation.minMB") {
            var part = "\(largest) vs \(text("variation.minMB", smallest))"
            if let ratio = take("variation.ratio") { part += " (×\(ratio))" }
            parts.append(part)
        }
        if let evaluations = take("changes.evaluations") {
            var part = "\(evaluations) body evaluations"
            if let logs = take("changes.logs") { part += " in \(logs) log\(logs == 1 ? "" : "s")" }
            parts.append(part)
        }
        if let footprint = take("budget.footprintMB") {
            var part = text("budget.footprintMB", footprint)
            if let ceiling = take("budget.ceilingMB") { part += " of a \(text("budget.ceilingMB", ceiling)) ceiling" }
            if let limit = take("budget.limitMB") { part += " (limit \(text("budget.limitMB", limit)))" }
            parts.append(part)
        }
        if let images = take("budget.images") {
            var part = "\(images) image\(images.intValue == 1 ? "" : "s")"
            if let decoded = take("budget.imageMB") { part += " decode to \(text("budget.imageMB", decoded))" }
            if let heaviest = take("budget.heaviestImage") { part += " (heaviest \(heaviest))" }
            parts.append(part)
        }
        if let layout = take("sample.layoutSamples"), let all = take("sample.mainThreadSamples") {
            var part = "\(layout) of \(all) main-thread samples in layout"
            if let share = take("sample.layoutPercent") { part += " (\(text("sample.layoutPercent", share)))" }
            parts.append(part)
        }
        if let peak = take("metrickit.peakMB") { parts.append("MetricKit peak \(text("metrickit.peakMB", peak))") }
        if let first = take("growth.firstMB"), let last = take("growth.lastMB") {
            var part = "\(first) → \(text("growth.lastMB", last))"
            if let visits = take("growth.visits") { part += " over \(visits) visits" }
            if let slope = take("growth.slopeMB") { part += ", +\(text("growth.slopeMB", slope)) per visit" }
            parts.append(part)
        }
        // Context that the parts above already carry, or that is too long for one cell.
        for key in [
            "jetsam.processes", "jetsam.records", "jetsam.pageSize", "jetsam.largestProcess", "changes.byLog",
            "variation.variants", "variation.sameInput", "jetsam.topProcesses", "repro.label",
        ] {
            facts.removeValue(forKey: key)
        }
        for key in facts.keys.sorted() { parts.append(key + " " + formatted(key, facts[key]!)) }
        return parts.joined(separator: "; ")
    }

    /// A numeric fact as a Double.
    public func number(_ key: String) -> Double? { facts[key]?.doubleValue }

    /// The change logs' body evaluations per view: `(view, [(log, count)])`, views sorted by name,
    /// logs in label order.
    public var evaluationsByView: [(view: String, counts: [(log: String, count: Int)])] {
        guard let logs = facts["changes.byLog"]?.objectValue else { return [] }
        var views: [String: [(String, Int)]] = [:]
        for label in logs.keys.sorted() {
            for (view, count) in logs[label]?.objectValue?["views"]?.objectValue ?? [:] {
                views[view, default: []].append((label, count.intValue ?? 0))
            }
        }
        return views.keys.sorted().map { (view: $0, counts: views[$0]!.map { (log: $0.0, count: $0.1) }) }
    }

    /// Pairs of change logs named `X-before` and `X-after`: per view, the evaluations before and after.
    public var changeLogPairs: [ChangeLogPair] {
        guard let logs = facts["changes.byLog"]?.objectValue else { return [] }
        var pairs: [ChangeLogPair] = []
        for label in logs.keys.sorted() where label.hasSuffix("-before") {
            let stem = String(label.dropLast("-before".count))
            guard let after = logs[stem + "-after"] else { continue }
            let beforeViews = logs[label]?.objectValue?["views"]?.objectValue ?? [:]
            let afterViews = after.objectValue?["views"]?.objectValue ?? [:]
            let names = Set(beforeViews.keys).union(afterViews.keys).sorted()
            pairs.append(
                ChangeLogPair(
                    before: label, after: stem + "-after",
                    views: names.map { name in
                        (
                            view: name, before: beforeViews[name]?.intValue ?? 0,
                            after: afterViews[name]?.intValue ?? 0
                        )
                    }))
        }
        return pairs
    }
}

/// Two change logs of the same gesture, before and after a change.
public struct ChangeLogPair: Sendable {
    public var before: String
    public var after: String
    public var views: [(view: String, before: Int, after: Int)]
}

/// Text for Markdown and HTML.
enum Escape {
    /// For Markdown table cells and inline text: HTML-sensitive characters, pipes and line breaks.
    static func markdown(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "|": out += "\\|"
            case "\n": out += "<br>"
            case "\r": break
            case "`", "*", "_", "[", "]", "\\": out += "\\" + String(ch)
            default: out.append(ch)
            }
        }
        return out
    }

    /// For inline code spans: backticks cannot be escaped inside, so they are replaced.
    static func code(_ text: String) -> String {
        "`" + text.replacingBackticks.replacingPipes + "`"
    }

    /// For HTML text and attribute values.
    static func html(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(ch)
            }
        }
        return out
    }
}

extension String {
    fileprivate var replacingBackticks: String {
        split(separator: "`", omittingEmptySubsequences: false).joined(separator: "'")
    }
    fileprivate var replacingPipes: String {
        split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
    }
}
