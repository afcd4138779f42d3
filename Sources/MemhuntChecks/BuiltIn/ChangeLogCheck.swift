import MemhuntCore
import MemhuntFormats

/// Step 8: `_printChanges` / `_logChanges` output: why bodies re-evaluated, and how often.
struct ChangeLogCheck: MeasuringCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let logs = FactDescription("changes.logs", .count, "Change logs among the artifacts.", better: .neutral)
        static let evaluations = FactDescription("changes.evaluations", .count, "Body evaluations in all change logs.")
        static let byLog = FactDescription(
            "changes.byLog", .map,
            "Per change log (labelled by file name): {label: {evaluations: N, views: {View: N}}}, with "
                + "processes: {Process: N} when its lines name their processes.")
        static let views = FactDescription(
            "changes.views", .map, "Body evaluations per view over all change logs read: {View: N}.")
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let beforeAfter = FindingCode(
            "change-log.before-after", .info, "Body evaluations per view across logs of one interaction.",
            examples: [
                .raises(
                    "Fixtures/justsend/drawer-before.log", "Fixtures/justsend/drawer-after.log",
                    facts: [Fact.logs.key: 2, Fact.evaluations.key: 24],
                    title: "drawer-before → drawer-after: RootView +11 → +1, StreamScreen +11 → +1"),
                .quiet("Fixtures/justsend/drawer-before.log", facts: [Fact.logs.key: 1, Fact.evaluations.key: 22]),
            ])
        static let hotView = FindingCode(
            "change-log.hot-view", .warning,
            "One view evaluates many times more often than the other views of its log.",
            examples: [
                .raises(
                    "Fixtures/examples/change-log.hot-view/raises",
                    facts: [Fact.logs.key: 1, Fact.evaluations.key: 11],
                    title: "ScrubberBar re-evaluated 10 times in slider-drag, 10× the other views' median"),
                .quiet("Fixtures/justsend/drawer-before.log", facts: [Fact.logs.key: 1, Fact.evaluations.key: 22]),
            ])
        static let fanOut = FindingCode(
            "change-log.fan-out", .warning, "Many different views evaluated in one burst after one change.",
            examples: [
                .raises(
                    "Fixtures/justsend/thumbnail-fanout.log", facts: [Fact.logs.key: 1, Fact.evaluations.key: 15],
                    title: "Fan-out: 4 views evaluated in one burst after one _thumbnailStore change"),
                .quiet("Fixtures/justsend/drawer-before.log", facts: [Fact.logs.key: 1, Fact.evaluations.key: 22]),
            ])
        static let closureChurn = FindingCode(
            "change-log.closure-churn", .notice,
            "A view re-evaluated again and again with @self changed: inputs that never compare equal (closures, "
                + "most often).",
            examples: [
                .raises(
                    "Fixtures/justsend/drawer-before.log", facts: [Fact.logs.key: 1, Fact.evaluations.key: 22],
                    title: "Unequal inputs: StreamScreen re-evaluated 11 times with @self changed"),
                .quiet("Fixtures/justsend/drawer-after.log", facts: [Fact.logs.key: 1, Fact.evaluations.key: 2]),
            ])
        static let identityChurn = FindingCode(
            "change-log.identity-churn", .notice, "A view got a new identity again and again.",
            examples: [
                .raises(
                    "Fixtures/navigation-growth/faq-visits.log", facts: [Fact.logs.key: 1, Fact.evaluations.key: 7],
                    title: "FAQAccordion got a new identity 4 times"),
                .quiet("Fixtures/justsend/drawer-before.log", facts: [Fact.logs.key: 1, Fact.evaluations.key: 22]),
            ])
        static let unattributed = FindingCode(
            "change-log.unattributed", .info,
            "Change logs that name no process, beside the subject's own logs: listed, not weighed.",
            examples: [
                .raises(
                    "Fixtures/justsend/drawer-before.log", "Fixtures/examples/change-log.unattributed/raises",
                    app: "JustSend", facts: [Fact.logs.key: 1, Fact.evaluations.key: 22],
                    title: "1 change log names no process, beside JustSend's own: not weighed"),
                .quiet(
                    "Fixtures/justsend/drawer-before.log", app: "JustSend",
                    facts: [Fact.logs.key: 1, Fact.evaluations.key: 22]),
            ])
        static let severalProcesses = FindingCode(
            "change-log.several-processes", .notice,
            "A change log's lines name several processes: its counts are of all of them together.",
            examples: [
                .raises(
                    "Fixtures/examples/change-log.several-processes/raises",
                    facts: [Fact.logs.key: 1, Fact.evaluations.key: 3],
                    title: "swiftui-stream mixes the evaluations of 2 processes: JustSend 2, JustSendWidget 1"),
                .quiet("Fixtures/justsend/drawer-before.log", facts: [Fact.logs.key: 1, Fact.evaluations.key: 22]),
            ])
    }

    static let description = CheckDescription(
        id: "change-log",
        title: "Change logging: body evaluations per view",
        step: "change-logging",
        rationale: """
            Time depends on the hardware; the number of body evaluations per interaction does not. \
            Counting them per view shows a scope that is too broad (every finger movement rebuilds a tree), \
            a store subscribed by views that do not draw it (fan-out), and closures that make rows \
            unequal on every parent pass.
            """,
        reads: [.changeLog],
        facts: [
            Fact.logs,
            Fact.evaluations,
            Fact.byLog,
            Fact.views,
        ],
        codes: [
            Code.beforeAfter,
            Code.hotView,
            Code.fanOut,
            Code.closureChurn,
            Code.identityChurn,
            Code.severalProcesses,
            Code.unattributed,
        ],
        parameters: [
            CheckParameter(
                "hot_ratio", default: 5.0, "Warn when a view evaluates this many times the other views' median."),
            CheckParameter("hot_min", default: 10, "… and at least this many times."),
            CheckParameter("fan_out_views", default: 4, "Warn when this many different views evaluate in one burst."),
            CheckParameter("churn_min", default: 8, "Notice a view evaluated this many times with @self changed."),
            CheckParameter("identity_min", default: 3, "Notice a view that got a new identity this many times."),
        ]
    )

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
        let first = group.first!, last = group.last!
        let changed = last.summary.evaluations < first.summary.evaluations
        return Code.beforeAfter.finding(
            title: group.map(\.label).joined(separator: " → ") + ": " + rows.prefix(3).joined(separator: ", "),
            detail: "Body evaluations per view, " + group.map(\.label).joined(separator: " → ") + ": "
                + rows.joined(separator: "; ") + ". In all: "
                + group.map { "+\($0.summary.evaluations)" }.joined(separator: " → ") + "."
                + (changed
                    ? " Count, don't time: the evaluations per gesture are the hardware-independent measure of a fix."
                    : ""),
            evidence: group.map { Evidence(source: $0.source) },
            next: changed ? nil : .change("No fewer evaluations: narrow what each body reads."))
    }

    /// A log whose lines name more than one process (a `log stream` of the SwiftUI subsystem without a
    /// process predicate): every count of it mixes them, and the findings about it say so by this one.
    static func processes(_ log: Log) -> Finding? {
        let processes = log.summary.processesByEvaluations
        guard processes.count >= 2 else { return nil }
        let listed = processes.prefix(5).map { "\($0.name) \(FactValue.grouped($0.evaluations))" }.joined(
            separator: ", ")
        let more = processes.count > 5 ? " and \(processes.count - 5) more" : ""
        let unnamed = log.summary.unattributedEvaluations
        return Code.severalProcesses.finding(
            title: "\(log.label) mixes the evaluations of \(processes.count) processes: \(listed)\(more)",
            detail: "Its lines name \(processes.count) processes, with the body evaluations above"
                + (unnamed > 0 ? ", and \(Plural.count(unnamed, "evaluation")) name none" : "")
                + ". Every count of this log (per view, per burst) is of all of them together, so a view of one "
                + "app may be counted with a view of the same name in another.",
            evidence: [Evidence(source: log.source)],
            next: .collect(
                .changeLog, "Capture the log again with a predicate on the app's process, so that it holds one app."))
    }

    func hotView(_ log: Log, _ context: CheckContext) -> Finding? {
        let counts = log.summary.views.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        guard counts.count >= 2, let top = counts.first else { return nil }
        let others = counts.dropFirst().map(\.value).sorted()
        let median = Double(others[others.count / 2])
        let ratio = context.double("hot_ratio")
        guard top.value >= context.int("hot_min"), Double(top.value) >= ratio * median else { return nil }
        return Code.hotView.finding(
            title:
                "\(top.key) re-evaluated \(top.value) times in \(log.label), \(Int(saturating: Double(top.value) / median))× the other views' median",
            detail: "\(top.key)'s body ran \(top.value) times; the other \(others.count) views ran a median of "
                + "\(Int(saturating: median)) times (threshold ×\(ratio.oneDecimalText)). Its inputs changed: "
                + Self.items(log.summary.itemCounts[top.key]) + ".",
            evidence: [Evidence(source: log.source)],
            next: .change(
                "Move what changes often (a drag offset, a progress) into a small observable read only by the "
                    + "view that draws it."))
    }

    func fanOut(_ log: Log, _ context: CheckContext) -> [Finding] {
        let minimum = context.int("fan_out_views")
        return log.summary.fanOut.filter { $0.distinctViews >= minimum }.prefix(3).map { burst in
            // The log shows evaluations close together, not that one caused the others: the title says what
            // came first and how many followed. A burst that starts with `@self` or `unchanged` names no item.
            let trigger = burst.triggerItems.joined(separator: ", ")
            let views = "\(burst.distinctViews) views evaluated in one burst"
            let start =
                trigger.isEmpty
                ? "Starting with \(burst.triggerView), \(burst.distinctViews) different views"
                : "After \(burst.triggerView): \(trigger) changed, \(burst.distinctViews) different views"
            // The summary keeps the first 20 views of a burst: a longer one is named as that many.
            return Code.fanOut.finding(
                title: trigger.isEmpty
                    ? "Fan-out: \(views), starting with \(burst.triggerView)"
                    : "Fan-out: \(views) after one \(trigger) change",
                detail: start + " evaluated in the same burst (\(burst.evaluations) evaluations)"
                    + (burst.views.count < burst.distinctViews ? ", the first \(burst.views.count) of them: " : ": ")
                    + burst.views.joined(separator: ", ") + ". Views that subscribe to a store they do not draw "
                    + "re-run on every publish.",
                evidence: [Evidence(source: log.source, line: burst.line)],
                next: .change(
                    "Remove the subscription (@ObservedObject/@EnvironmentObject) from views that do not draw the value."
                ))
        }
    }

    func churn(_ log: Log, _ context: CheckContext) -> [Finding] {
        let minimum = context.int("churn_min")
        return log.summary.selfChangedByView.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.compactMap {
            view, selfCount in
            let total = log.summary.views[view] ?? 0
            guard selfCount >= minimum, total > 0, Double(selfCount) >= 0.9 * Double(total) else { return nil }
            // The log lists what changed, not why: "@self" says the view's value differed from the last one (its
            // parent made it again with inputs that compared unequal), never which input. Other items may be listed
            // beside it.
            return Code.closureChurn.finding(
                title: "Unequal inputs: \(view) re-evaluated \(selfCount) times with @self changed",
                detail: "In \(log.label), \(selfCount) of \(view)'s \(total) evaluations listed @self as changed: each "
                    + "time, its parent made it again with inputs that did not compare equal to the previous ones. "
                    + "The log does not say which input. Closure properties are the usual one: they are new on every "
                    + "pass, so SwiftUI cannot call them equal.",
                evidence: [Evidence(source: log.source)],
                next: .change(
                    "Find the input that compares unequal: pass values instead of closures, or make the view Equatable "
                        + "on what it draws."))
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
                title: "\(view) got a new identity \(count) times",
                detail: "In \(log.label), \(view) was evaluated with @identity \(count) times: each time SwiftUI made "
                    + "new storage for it, so its @State started over and whatever computes the initial values ran "
                    + "again (a file load, a decode).",
                evidence: [Evidence(source: log.source)],
                next: .change(
                    "Load once into a shared store (an environment object) instead of a @State initial value."))
        }
    }

    static func items(_ counts: [String: Int]?) -> String {
        guard let counts, !counts.isEmpty else { return "nothing named" }
        return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(4).map { "\($0.key) ×\($0.value)" }
            .joined(separator: ", ")
    }
}

/// Sentences of the check that are not its helpers' own.
extension ChangeLogCheck {
    enum Words {
        static func unattributedTitle(_ count: Int, app: String) -> String {
            Plural.count(count, "change log") + (count == 1 ? " names" : " name") + " no process, beside \(app)'s own: "
                + "not weighed"
        }

        static func unattributed(_ logs: [Log], own: Int, app: String) -> String {
            logs.map(\.label).joined(separator: ", ") + (logs.count == 1 ? " names" : " name")
                + " no process, so nothing "
                + "ties " + (logs.count == 1 ? "it" : "them") + " to \(app); " + Plural.count(own, "log")
                + " of \(app) "
                + "are read instead."
        }
    }
}
