import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// What the check declares: its facts, its codes with their examples, and its description.
extension SDKClaimCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let events = FactDescription(
            "sdk.events", .count, "SDK events read (an event id seen twice counts once).", better: .neutral)
        static let memoryClaims = FactDescription(
            "sdk.memoryClaims", .count,
            "Events of the subject whose SDK claims out of memory or a watchdog "
                + "termination.", better: .neutral)
        static let confirmed = FactDescription(
            "sdk.confirmed", .count,
            "Memory claims an OS record confirms (a memory kill of the app on that "
                + "device, after the SDK's time, within the window).", better: .neutral)
        static let contradicted = FactDescription(
            "sdk.contradicted", .count, "Memory claims an OS record or the SDK's own last sample contradicts.",
            better: .neutral)
        static let falsePositive = FactDescription(
            "sdk.falsePositiveClass", .count,
            "Memory claims no OS record settles, of a known false-positive class "
                + "by the export's own fields (debugger, simulator, automated test, reboot, upgrade, background).",
            better: .neutral)
        static let unconfirmed = FactDescription(
            "sdk.unconfirmed", .count, "Memory claims no OS record of that device covers.", better: .neutral)
        static let claims = FactDescription(
            "sdk.claims", .list,
            "Each event of the subject, at most 20: {sdk, shape, eventID, claim, time (UTC), timeBasis, clock, "
                + "grade, reason, record, device}.")
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let confirmed = FindingCode(
            "sdk-claim.confirmed", .warning,
            "An SDK's memory claim, confirmed: an OS record shows the app killed for memory on that device after the "
                + "SDK's time.",
            examples: [
                .raises(
                    "Fixtures/sdk/confirmed", app: "JustSend", facts: [Fact.events.key: 1, Fact.memoryClaims.key: 1],
                    title: "Sentry watchdog termination of JustSend: confirmed by the JetsamEvent"),
                .quiet(
                    "Fixtures/sdk/contradicted", app: "JustSend", facts: [Fact.events.key: 1, Fact.memoryClaims.key: 1]),
            ])
        static let contradicted = FindingCode(
            "sdk-claim.contradicted", .warning,
            "An SDK's memory claim, contradicted: the OS record shows another ending (a crash, the watchdog) or the "
                + "app alive after the SDK's time, or the SDK's own last sample is far below the limit.",
            examples: [
                .raises(
                    "Fixtures/sdk/contradicted", app: "JustSend",
                    facts: [Fact.events.key: 1, Fact.memoryClaims.key: 1],
                    title: "Sentry watchdog termination of JustSend: contradicted (alive after the claimed time)"),
                .raises(
                    "Fixtures/sdk/watchdog-not-memory", app: "JustSend",
                    facts: [Fact.events.key: 1, Fact.memoryClaims.key: 1],
                    title: "Sentry watchdog termination of JustSend: contradicted (watchdog, not memory)"),
                .raises(
                    "Fixtures/sdk/far-below", app: "Roadbook", facts: [Fact.events.key: 1, Fact.memoryClaims.key: 1],
                    title: "Bugsnag out of memory of Roadbook: contradicted (far below its limit)"),
                .quiet(
                    "Fixtures/sdk/confirmed", app: "JustSend", facts: [Fact.events.key: 1, Fact.memoryClaims.key: 1]),
            ])
        static let falsePositive = FindingCode(
            "sdk-claim.false-positive-class", .notice,
            "An SDK's memory claim no OS record settles, whose export names a known false-positive class (a "
                + "debugger, a simulator, automated testing, a reboot, an upgrade, the background).",
            examples: [
                .raises(
                    "Fixtures/sdk/debugger", app: "Roadbook", facts: [Fact.events.key: 1, Fact.memoryClaims.key: 1],
                    title: "Bugsnag out of memory of Roadbook: a known false-positive class (debugger)"),
                .quiet(
                    "Fixtures/sdk/unconfirmed", app: "Roadbook", facts: [Fact.events.key: 1, Fact.memoryClaims.key: 1]),
            ])
        static let unconfirmed = FindingCode(
            "sdk-claim.unconfirmed", .notice,
            "An SDK's memory claim no OS record of that device covers: neither confirmed nor contradicted.",
            examples: [
                .raises(
                    "Fixtures/sdk/unconfirmed", app: "Roadbook", facts: [Fact.events.key: 1, Fact.memoryClaims.key: 1],
                    title: "KSCrash out of memory of Roadbook: unconfirmed"),
                .quiet(
                    "Fixtures/sdk/confirmed", app: "JustSend", facts: [Fact.events.key: 1, Fact.memoryClaims.key: 1]),
            ])
        static let noClaim = FindingCode(
            "sdk-claim.no-memory-claim", .info,
            "SDK events of the subject that make no memory claim (a crash the SDK caught, a state file, "
                + "Crashlytics): listed, not graded.",
            examples: [
                .raises(
                    "Fixtures/sdk/no-claim", app: "Roadbook", facts: [Fact.events.key: 1, Fact.memoryClaims.key: 0],
                    title: "1 SDK event of the subject makes no memory claim"),
                .quiet(
                    "Fixtures/sdk/confirmed", app: "JustSend", facts: [Fact.events.key: 1, Fact.memoryClaims.key: 1]),
            ])
        static let cut = FindingCode(
            "sdk-claim.cut", .notice, "An SDK export cut short (a paste that ends mid-JSON): read for what is whole.",
            examples: [
                .raises(
                    "Fixtures/sdk/cut", app: "Roadbook", facts: [Fact.events.key: 1, Fact.memoryClaims.key: 1],
                    title: "sentry-oom-event-paste.txt is cut short: what is whole was read"),
                .quiet(
                    "Fixtures/sdk/confirmed", app: "JustSend", facts: [Fact.events.key: 1, Fact.memoryClaims.key: 1]),
            ])
    }

    static let description = CheckDescription(
        id: "sdk-claim",
        title: "A crash SDK's memory claim against the OS records",
        step: "crash-report",
        rationale: """
            Crash SDKs report out-of-memory and watchdog terminations they never saw: each infers one on the next \
            launch when none of the explanations it knows applies. The operating system's own records (a \
            JetsamEvent, the kernel's kill line, a crash report) of the same app and device say what happened; the \
            claim is confirmed, contradicted, of a known false-positive class, or unconfirmed.
            """,
        reads: [.sdkExport],
        facts: [
            Fact.events, Fact.memoryClaims, Fact.confirmed, Fact.contradicted, Fact.falsePositive, Fact.unconfirmed,
            Fact.claims,
        ],
        codes: [
            Code.confirmed, Code.contradicted, Code.falsePositive, Code.unconfirmed, Code.noClaim, Code.cut,
        ],
        parameters: [
            CheckParameter(
                "window_minutes", default: .int(10),
                "How long after the SDK's time an OS record may come and still be of that run's end."),
            CheckParameter(
                "far_below_ratio", default: .double(0.5),
                "A last sample of the footprint below this share of the limit, with no pressure, is far below it."),
        ],
        weighs: [.jetsamEvent, .crashReport, .killLog]
    )
}
