import MemhuntCore
import MemhuntFormats

/// Step 8: `_printChanges` / `_logChanges` output: why bodies re-evaluated, and how often.
struct ChangeLogCheck: MeasuringCheck {
    struct Log {
        var label: String
        var source: String
        var summary: ChangeLogSummary
        var artifact: Artifact
    }

    /// The logs the check reads (the subject's own, or every log when none is), those set aside that name no
    /// process, whether the sentences rest on such logs only, and the interactions (before → after) among them.
    struct Measurement {
        var logs: [Log]
        var own: [Log]
        var unattributed: [Log]
        var caveat: Bool
        var groups: [[Log]]
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        let all = context.artifacts(of: .changeLog).compactMap { artifact -> Log? in
            guard case .repro(.changeLog(let summary))? = artifact.content else { return nil }
            return Log(
                label: ReproSample.fileLabel(artifact.source), source: artifact.source, summary: summary,
                artifact: artifact)
        }
        guard !all.isEmpty else { return nil }
        // A log that names no process speaks for the subject only when none of its own logs is here; beside
        // them it is listed, not weighed (it may be of another project in the same folder).
        let own = all.filter { ArtifactOwner.belongs($0.artifact, to: context.subject) == true }
        let unattributed = all.filter { ArtifactOwner.belongs($0.artifact, to: context.subject) == nil }
        let logs = own.isEmpty ? all : own
        return Measurement(
            logs: logs, own: own, unattributed: unattributed,
            // Only unattributed logs: they are read, and every sentence about them says it rests on such a log.
            caveat: own.isEmpty && context.subject.app != nil && !unattributed.isEmpty,
            groups: Self.interactions(logs))
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        if !m.own.isEmpty, !m.unattributed.isEmpty, let app = context.subject.app {
            output.emit(
                Code.unattributed, title: Words.unattributedTitle(m.unattributed.count, app: app),
                detail: Words.unattributed(m.unattributed, own: m.own.count, app: app),
                evidence: m.unattributed.map { Evidence(source: $0.source) })
        }
        Self.recordFacts(m.logs, to: &output)
        for group in m.groups { output.emit(Self.comparison(group)) }
        Self.present(&output, logs: m.logs, groups: m.groups)
        for log in m.logs {
            if let finding = Self.processes(log) { output.emit(finding) }
            if let finding = hotView(log, context) { output.emit(finding) }
            output.findings += fanOut(log, context)
            output.findings += churn(log, context)
            output.findings += identities(log, context)
        }
        if m.caveat {
            let app = context.subject.app ?? "the app"
            for index in output.findings.indices where output.findings[index].code != Code.unattributed.code {
                output.findings[index].title += " (in a log that names no process, not tied to \(app))"
            }
        }
    }

    /// The logs' counts: evaluations in all, per log (with its views and processes) and per view.
    static func recordFacts(_ logs: [Log], to output: inout CheckOutput) {
        output.record(Fact.logs, .int(logs.count))
        output.record(Fact.evaluations, .int(logs.reduce(0) { $0 + $1.summary.evaluations }))
        let byLog = logs.map { log -> (String, FactValue) in
            var fields: [String: FactValue] = [
                "evaluations": .int(log.summary.evaluations),
                "views": .object(log.summary.views.mapValues { .int($0) }),
            ]
            if !log.summary.processes.isEmpty {
                fields["processes"] = .object(log.summary.processes.mapValues { .int($0) })
            }
            return (log.label, .object(fields))
        }
        output.record(Fact.byLog.key, .object(Dictionary(byLog, uniquingKeysWith: { a, _ in a })))
        var views: [String: Int] = [:]
        for log in logs { views.merge(log.summary.views, uniquingKeysWith: +) }
        output.record(Fact.views.key, .object(views.mapValues { .int($0) }))
    }

    /// The headline, the per-view comparisons of each interaction, the charts and the logs' times.
    static func present(_ output: inout CheckOutput, logs: [Log], groups: [[Log]]) {
        let evaluations = logs.reduce(0) { $0 + $1.summary.evaluations }
        output.headline(
            Fact.evaluations, "body evaluations",
            "\(FactValue.grouped(evaluations)) body evaluations in " + Plural.count(logs.count, "log"))
        for group in groups { presentGroup(&output, group) }
        let grouped = Set(groups.flatMap { $0.map(\.source) })
        for log in logs where !grouped.contains(log.source) && !log.summary.views.isEmpty {
            output.chart(
                Series(
                    id: "change-log-" + log.label, title: "Body evaluations per view, " + log.label,
                    caption: log.label + ": body evaluations per view.", axis: "body evaluations", unit: .count,
                    points: log.summary.views.keys.sorted().map { view in
                        let count = log.summary.views[view]!
                        return Series.Point(label: view, value: Double(count), text: "+\(count)")
                    }))
        }
        // Per view, the most evaluations in one log (one gesture per log): what `diff` compares across runs.
        var most: [String: Int] = [:]
        for log in logs { for (view, count) in log.summary.views { most[view] = max(most[view] ?? 0, count) } }
        output.chart(
            Series(
                id: "change-log-per-gesture", title: "Body evaluations per view",
                caption: "Per view, the most body evaluations in one change log (one gesture per log).",
                axis: "body evaluations per gesture", unit: .count,
                points: most.keys.sorted().map {
                    Series.Point(label: $0, value: Double(most[$0]!), text: "+\(most[$0]!)")
                },
                drawn: false, acrossRuns: true))
        if !groups.isEmpty {
            output.strength(
                "Change logs counted body evaluations per gesture: a measure that does not depend on the hardware.")
        }
        for log in logs { output.event("First body evaluation logged", of: log.artifact) }
    }

    /// One interaction's logs: each view's evaluations first → last, and their chart.
    static func presentGroup(_ output: inout CheckOutput, _ group: [Log]) {
        let first = group.first!, last = group.last!
        let isFix = first.label.lowercased().hasSuffix("before") && last.label.lowercased().hasSuffix("after")
        let title = "Body evaluations per view, " + group.map(\.label).joined(separator: " → ")
        let views = Set(group.flatMap { $0.summary.views.keys }).sorted()
        for view in views {
            let before = first.summary.views[view] ?? 0, after = last.summary.views[view] ?? 0
            output.compare(
                Comparison(
                    kind: isFix ? .fix : .variation, label: view, group: title, unit: .count, better: .lower,
                    from: .init(label: first.label, value: Double(before), text: "+\(before)"),
                    to: .init(label: last.label, value: Double(after), text: "+\(after)")))
        }
        output.chart(
            Series(
                id: "change-log-" + first.label, title: title,
                caption: group.map(\.label).joined(separator: " → ") + ": body evaluations per view.",
                axis: "body evaluations", unit: .count,
                points: views.flatMap { view in
                    group.enumerated().map { index, log in
                        let count = log.summary.views[view] ?? 0
                        return Series.Point(
                            label: "\(view) (\(log.label))", value: Double(count), text: "+\(count)",
                            role: index == 0 ? .subject : index == group.count - 1 ? .after : .plain)
                    }
                }))
    }

    /// Logs of the same interaction: labels that differ only after their last "-" (drawer-before,
    /// drawer-after), ordered before → after.
    static func interactions(_ logs: [Log]) -> [[Log]] {
        func stem(_ label: String) -> String {
            label.lastIndex(of: "-").map { String(label[..<$0]) } ?? label
        }
        func rank(_ label: String) -> Int {
            let l = label.lowercased()
            return l.hasSuffix("before") ? 0 : l.hasSuffix("after") ? 2 : 1
        }
        return Dictionary(grouping: logs) { stem($0.label) }.values
            .filter { $0.count >= 2 }
            .map { $0.sorted { (rank($0.label), $0.label) < (rank($1.label), $1.label) } }
            .sorted { $0[0].label < $1[0].label }
    }

    /// "RootView +11 → +1, StreamScreen +11 → +1": evaluations per view across the logs of one interaction.
    static func comparison(_ group: [Log]) -> Finding {
        let views = Set(group.flatMap { $0.summary.views.keys }).sorted { a, b in
            let ca = group[0].summary.views[a] ?? 0, cb = group[0].summary.views[b] ?? 0
            return (ca, b) > (cb, a)
        }
        let rows = views.map { view in
            view + " " + group.map { "+\($0.summary.views[view] ?? 0)" }.joined(separator: " → ")
        }
        let changed = group.last!.summary.evaluations < group.first!.summary.evaluations
        return Code.beforeAfter.finding(
            title: Words.comparisonTitle(group, rows), detail: Words.comparison(group, rows, changed: changed),
            evidence: group.map { Evidence(source: $0.source) }, next: changed ? nil : .change(Words.narrowReads))
    }

    /// A log whose lines name more than one process (a `log stream` of the SwiftUI subsystem without a
    /// process predicate): every count of it mixes them, and the findings about it say so by this one.
    static func processes(_ log: Log) -> Finding? {
        let processes = log.summary.processesByEvaluations
        guard processes.count >= 2 else { return nil }
        return Code.severalProcesses.finding(
            title: Words.processesTitle(log, processes), detail: Words.processes(log, processes),
            evidence: [Evidence(source: log.source)], next: .collect(.changeLog, Words.predicateOnTheApp))
    }

    func hotView(_ log: Log, _ context: CheckContext) -> Finding? {
        let counts = log.summary.views.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        guard counts.count >= 2, let top = counts.first else { return nil }
        let others = counts.dropFirst().map(\.value).sorted()
        let median = Double(others[others.count / 2])
        let ratio = context.double("hot_ratio")
        guard top.value >= context.int("hot_min"), Double(top.value) >= ratio * median else { return nil }
        return Code.hotView.finding(
            title: Words.hotTitle(top.key, top.value, log, median: median),
            detail: Words.hot(top.key, top.value, others: others.count, median: median, ratio: ratio, log),
            evidence: [Evidence(source: log.source)], next: .change(Words.smallObservable))
    }

    func fanOut(_ log: Log, _ context: CheckContext) -> [Finding] {
        let minimum = context.int("fan_out_views")
        return log.summary.fanOut.filter { $0.distinctViews >= minimum }.prefix(3).map { burst in
            Code.fanOut.finding(
                title: Words.fanOutTitle(burst), detail: Words.fanOut(burst),
                evidence: [Evidence(source: log.source, line: burst.line)], next: .change(Words.removeSubscription))
        }
    }

    func churn(_ log: Log, _ context: CheckContext) -> [Finding] {
        let minimum = context.int("churn_min")
        return log.summary.selfChangedByView.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.compactMap {
            view, selfCount in
            let total = log.summary.views[view] ?? 0
            guard selfCount >= minimum, total > 0, Double(selfCount) >= 0.9 * Double(total) else { return nil }
            return Code.closureChurn.finding(
                title: Words.churnTitle(view, selfCount), detail: Words.churn(view, selfCount, of: total, log),
                evidence: [Evidence(source: log.source)], next: .change(Words.passValues))
        }
    }

    /// Views whose state was recreated again and again: `@identity` on every appearance.
    func identities(_ log: Log, _ context: CheckContext) -> [Finding] {
        let minimum = context.int("identity_min")
        return log.summary.itemCounts.compactMap { view, items -> (String, Int)? in
            guard let count = items["@identity"], count >= minimum else { return nil }
            return (view, count)
        }.sorted { ($0.1, $1.0) > ($1.1, $0.0) }.map { view, count in
            Code.identityChurn.finding(
                title: Words.identityTitle(view, count), detail: Words.identity(view, count, log),
                evidence: [Evidence(source: log.source)], next: .change(Words.loadOnce))
        }
    }
}
