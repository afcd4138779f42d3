import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// What the check declares: its facts, its codes with their examples, and its description.
extension JetsamRankCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let records = FactDescription(
            "jetsam.records", .count, "JetsamEvent records among the artifacts.", better: .neutral)
        static let processes = FactDescription(
            "jetsam.processes", .count,
            "Processes listed in the chosen record (the newest that lists the app; with no app, said only when "
                + "every record lists as many).",
            better: .neutral)
        static let pageSize = FactDescription(
            "jetsam.pageSize", .bytes,
            "Bytes per page of the chosen record: 16,384, or 4,096 on A7/A8 devices (with no app, said only when "
                + "every record has that page size).", better: .neutral)
        static let largestProcess = FactDescription(
            "jetsam.largestProcess", .text,
            "The chosen record's largestProcess field (with no app, said only when every record names it).")
        static let topProcesses = FactDescription(
            "jetsam.topProcesses", .list,
            "The chosen record's ten largest processes by lifetime peak: {name, peakMB, app}, largest first (with "
                + "no app, said only when there is one record).")
        static let peakMB = FactDescription(
            "jetsam.app.peakMB", .megabytes,
            "The subject's lifetime peak: lifetimeMax pages, never below rpages (records up to iOS 12).")
        static let rank = FactDescription(
            "jetsam.app.rank", .count, "1 + the processes of the record with a larger lifetime peak.", better: .higher)
        static let state = FactDescription(
            "jetsam.app.state", .text, "The subject's first state in the record (suspended, frontmost…).")
        static let reason = FactDescription(
            "jetsam.app.reason", .text, "The reason the record gives for killing the subject.")
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let noSubject = FindingCode(
            "jetsam-rank.no-subject", .notice, "No app was named: the largest app processes of the record.",
            examples: [
                .raises(
                    "Fixtures/webcontent", facts: [Fact.records.key: 1, Fact.processes.key: 6], title: "Which app?"),
                .quiet("Fixtures/pressure", app: "JustSend", facts: [Fact.peakMB.key: 640, Fact.rank.key: 2]),
            ])
        static let notListed = FindingCode(
            "jetsam-rank.not-listed", .notice, "The record does not list the subject.",
            examples: [
                .raises(
                    "Fixtures/old-device", app: "JustSend", facts: [Fact.records.key: 1, Fact.processes.key: 6],
                    title: "JustSend is not in the jetsam record"),
                .quiet("Fixtures/pressure", app: "JustSend", facts: [Fact.peakMB.key: 640, Fact.rank.key: 2]),
            ])
        static let killed = FindingCode(
            "jetsam-rank.killed", .warning, "The record shows the subject killed (per-process-limit: critical).",
            examples: [
                .raises(
                    "Fixtures/killed", app: "JustSend", facts: [Fact.peakMB.key: 2098, Fact.rank.key: 1],
                    title: "JustSend was killed: per-process-limit"),
                .quiet("Fixtures/pressure", app: "JustSend", facts: [Fact.peakMB.key: 640, Fact.rank.key: 2]),
            ])
        static let highRank = FindingCode(
            "jetsam-rank.high-rank", .warning, "The subject ranks at or above the threshold by lifetime peak.",
            examples: [
                .raises(
                    "Fixtures/pressure", app: "JustSend", facts: [Fact.peakMB.key: 640, Fact.rank.key: 2],
                    title: "JustSend ranked 2 of 3 processes by lifetime peak (640 MB)"),
                .quiet(
                    "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", app: "MobileMail",
                    facts: [Fact.peakMB.key: 218.8, Fact.rank.key: 11]),
            ])
        static let dominant = FindingCode(
            "jetsam-rank.dominant", .notice, "The subject's peak is the threshold's multiple of the next app's.",
            examples: [
                .raises(
                    "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", app: "JustSend",
                    facts: [Fact.peakMB.key: 725, Fact.rank.key: 7], title: "JustSend 725 MB vs ChatGPT 362 MB"),
                .quiet("Fixtures/pressure", app: "JustSend", facts: [Fact.peakMB.key: 640, Fact.rank.key: 2]),
            ])
        static let unreadable = FindingCode(
            "jetsam-rank.unreadable", .notice,
            "The subject's page counts in the record are no page count (out of range): no peak, no rank.",
            examples: [
                .raises(
                    "Fixtures/examples/jetsam-rank.unreadable/raises", app: "JustSend",
                    facts: [Fact.records.key: 1, Fact.processes.key: 16],
                    title: "JustSend's lifetime peak is not known: lifetimeMax 18446744073709551616000 is no page count"
                ),
                .quiet(
                    "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips", app: "JustSend",
                    facts: [Fact.peakMB.key: 725, Fact.rank.key: 7]),
            ])
        static let incomplete = FindingCode(
            "jetsam-rank.incomplete", .notice,
            "The record is incomplete (elided, or process records pasted alone): the subject's own figures, no rank.",
            examples: [
                .raises(
                    "Fixtures/examples/jetsam-rank.incomplete/raises", app: "JustSend",
                    facts: [Fact.peakMB.key: 593.8, Fact.state.key: "frontmost"],
                    title: "JustSend in an incomplete jetsam record: no rank"),
                .quiet("Fixtures/pressure", app: "JustSend", facts: [Fact.peakMB.key: 640, Fact.rank.key: 2]),
            ])
        static let severalProcesses = FindingCode(
            "jetsam-rank.several-processes", .notice,
            "Several processes of the record match the subject's name; the facts are of the largest.",
            examples: [
                .raises(
                    "Fixtures/webcontent", app: "com.apple.WebKit.WebContent",
                    facts: [Fact.peakMB.key: 340, Fact.rank.key: 2],
                    title: "3 processes match com.apple.WebKit.WebContent; the facts are of the largest"),
                .quiet("Fixtures/pressure", app: "JustSend", facts: [Fact.peakMB.key: 640, Fact.rank.key: 2]),
            ])
    }

    static let description = CheckDescription(
        id: "jetsam-rank",
        title: "Jetsam record: lifetime peak and rank",
        step: "jetsam-record",
        rationale: """
            The JetsamEvent record lists the memory of every process alive at that moment, including apps \
            it did not kill. The app's lifetime peak and its rank among all processes say whether it is \
            the one the system had to make room for.
            """,
        reads: [.jetsamEvent],
        facts: [
            Fact.records,
            Fact.processes,
            Fact.pageSize,
            Fact.largestProcess,
            Fact.topProcesses,
            Fact.peakMB,
            Fact.rank,
            Fact.state,
            Fact.reason,
        ],
        codes: [
            Code.noSubject,
            Code.notListed,
            Code.killed,
            Code.highRank,
            Code.dominant,
            Code.severalProcesses,
            Code.unreadable,
            Code.incomplete,
        ],
        parameters: [
            CheckParameter("max_rank", default: 10, "Warn when the app ranks this high or higher by lifetime peak."),
            CheckParameter(
                "dominance_ratio", default: 2.0,
                "Notice when the app's peak is at least this many times the next app's."),
        ]
    )
}
