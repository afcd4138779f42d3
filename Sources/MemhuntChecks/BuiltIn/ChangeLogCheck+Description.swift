import MemhuntCore
import MemhuntFormats

/// What the check declares: its facts, its codes with their examples, and its description.
extension ChangeLogCheck {
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
}
