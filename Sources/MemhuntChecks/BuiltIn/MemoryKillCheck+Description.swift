import MemhuntCore
import MemhuntFormats

/// What the check declares: its facts, its codes with their examples, and its description.
extension MemoryKillCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let kills = FactDescription(
            "kill.kills", .count,
            "Kills of the subject that the logs record (kernel memorystatus lines, 'killed by jetsam reason', a "
                + "debugger's EXC_RESOURCE memory stop); the lines of one kill are one.")
        static let reason = FactDescription(
            "kill.reason", .text, "The last kill's cause as the log writes it (per-process-limit, vm-pageshortage, …).")
        static let limitMB = FactDescription(
            "kill.limitMB", .megabytes, "The memory limit the last kill crossed, as the log gives it.")
        static let limitKind = FactDescription(
            "kill.limitKind", .text, "Which limit the last kill crossed: ActiveHard, InactiveHard, ….")
        static let footprintMB = FactDescription(
            "kill.footprintMB", .megabytes, "The footprint at the last kill (the kernel's KB).", measure: true)
        static let band = FactDescription(
            "kill.band", .text, "The priority band the last kill was in (FOREGROUND, …).")
        static let availablePages = FactDescription(
            "kill.availablePages", .pages,
            "memorystatus_available_pages at the last kill: pages available to jetsam then.", better: .higher)
        static let time = FactDescription("kill.time", .text, "The last kill's time as its line writes it.")
        static let softLimit = FactDescription(
            "kill.softLimitCrossings", .count, "Non-fatal (soft) memory limits the subject crossed and lived on.")
        static let records = FactDescription(
            "kill.records", .list,
            "The logs' kill records, at most 20 in file order: {process, pid, killed, reason, limitMB, limitKind, "
                + "footprintKB, band, availablePages, time, line}, each as far as its lines tell.")
        static let otherKills = FactDescription(
            "kill.otherKills", .count, "Kills of other processes that the logs record.", better: .neutral)
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let killed = FindingCode(
            "memory-kill.killed", .warning,
            "A log records the subject killed: the reason, the limit, the footprint at the kill (at a memory limit: "
                + "critical).",
            examples: [
                .raises(
                    "Fixtures/kill-log", app: "Memo", facts: [Fact.kills.key: 1, Fact.reason.key: "per-process-limit"],
                    title:
                        "Memo was killed by jetsam (per-process-limit) at its 2098 MB memory limit (ActiveHard), 2,148,532 KB footprint at the kill"
                ),
                .quiet(
                    "Fixtures/kill-log/killed.log", app: "Memo", facts: [Fact.kills.key: 0, Fact.softLimit.key: 0]),
            ])
        static let softLimit = FindingCode(
            "memory-kill.soft-limit", .notice, "A log records the subject crossing a non-fatal (soft) memory limit.",
            examples: [
                .raises(
                    "Fixtures/kill-log/soft-limit.log", app: "MobileSafari",
                    facts: [Fact.kills.key: 0, Fact.softLimit.key: 1],
                    title: "MobileSafari crossed its non-fatal ActiveSoft memory limit of 350 MB"),
                .quiet(
                    "Fixtures/kill-log/killed.log", app: "Memo", facts: [Fact.kills.key: 0, Fact.softLimit.key: 0]),
            ])
        static let othersOnly = FindingCode(
            "memory-kill.others-only", .info, "The logs' kills are of other processes: none is the subject's.",
            examples: [
                .raises(
                    "Fixtures/kill-log/killed.log", app: "Memo",
                    facts: [Fact.kills.key: 0, Fact.softLimit.key: 0],
                    title:
                        "The logs record 2 kills of other processes, none of Memo: MobileSafari (vm-pageshortage), cloudd (idle-exit)"
                ),
                .quiet(
                    "Fixtures/kill-log", app: "Memo", facts: [Fact.kills.key: 1, Fact.reason.key: "per-process-limit"]),
            ])
        static let noSubject = FindingCode(
            "memory-kill.no-subject", .notice, "No app was named: the processes the logs show killed.",
            examples: [
                .raises(
                    "Fixtures/kill-log/killed.log",
                    facts: [
                        Fact.records.key: [
                            [
                                "process": "MobileSafari", "pid": 3121, "reason": "vm-pageshortage", "killed": true,
                                "footprintKB": 412_080, "availablePages": 2210, "line": 2,
                                "time": "2026-08-12 09:41:17.552013+0900",
                            ],
                            [
                                "process": "cloudd", "pid": 611, "reason": "idle-exit", "killed": true,
                                "footprintKB": 18004, "availablePages": 2480, "line": 3,
                                "time": "2026-08-12 09:41:17.553940+0900",
                            ],
                        ]
                    ],
                    title: "Which app? The logs record 2 kills: MobileSafari (vm-pageshortage), cloudd (idle-exit)"),
                .quiet(
                    "Fixtures/kill-log/killed.log", app: "Memo", facts: [Fact.kills.key: 0, Fact.softLimit.key: 0]),
            ])
        static let unreadable = FindingCode(
            "memory-kill.unreadable", .notice, "Kill lines that could not be read whole, each named with its line.",
            examples: [
                .raises(
                    "Fixtures/examples/memory-kill.unreadable/raises", app: "KeyboardSpike",
                    facts: [Fact.kills.key: 1, Fact.reason.key: "per-process-limit"],
                    title: "1 kill line could not be read whole"),
                .quiet(
                    "Fixtures/kill-log/killed.log", app: "Memo", facts: [Fact.kills.key: 0, Fact.softLimit.key: 0]),
            ])
    }

    static let description = CheckDescription(
        id: "memory-kill",
        title: "Memory kills in the device's log",
        step: "jetsam-record",
        rationale: """
            The kernel logs each memory kill as it makes it: the limit crossed, the band, the footprint at the \
            kill and the pages available. A kill seen only there, without a JetsamEvent or a crash report, is \
            still a kill, with its limit; a kill of another process is never the app's.
            """,
        reads: [.killLog],
        facts: [
            Fact.kills, Fact.reason, Fact.limitMB, Fact.limitKind, Fact.footprintMB, Fact.band,
            Fact.availablePages, Fact.time, Fact.softLimit, Fact.records, Fact.otherKills,
        ],
        codes: [Code.killed, Code.softLimit, Code.othersOnly, Code.noSubject, Code.unreadable]
    )
}
