/// The findings the engine itself emits about a step's artifacts (never a check's): declared once, with
/// their examples, like a check's codes. `memhunt checks` lists them under the id `artifacts`.
public enum EngineFindings {
    /// The id findings of the engine carry as their check.
    public static let check = "artifacts"

    public static let otherApp = FindingCode(
        "artifacts.other-app", .info,
        "Artifacts of the step's kinds that name another app than the subject: listed, never counted as its.",
        examples: [
            .raises(
                "Fixtures/several-apps", app: "JustSend",
                facts: ["crash.appVersion": "4.1.2 (790)", "crash.device": "iPhone12,1"],
                title: "2 artifacts of other apps, not of JustSend: Locker (1 artifact), Transit (1 artifact)"),
            .quiet(
                "Fixtures/watchdog", app: "JustSend",
                facts: ["crash.appVersion": "4.2.0 (812)", "crash.device": "iPhone18,1"]),
        ])
    public static let unattributed = FindingCode(
        "artifacts.unattributed", .info,
        "Artifacts of the step's kinds that name no app, read as the subject's though no artifact of one app names it.",
        examples: [
            .raises(
                "Fixtures/justsend", app: "Weather",
                facts: ["crash.ended": false, "crash.kind": "none"],
                title: "2 artifacts that name no app, read as Weather's because it was named"),
            .quiet(
                "Fixtures/justsend", app: "JustSend",
                facts: ["changes.evaluations": 39, "changes.logs": 3]),
        ])
    public static let unreadable = FindingCode(
        "artifacts.unreadable", .notice,
        "An artifact of the step's kinds could not be read: named with what is wrong.",
        examples: [
            .raises(
                "Fixtures/bad/JetsamEvent-truncated.ips",
                facts: ["crash.kind": "none"],
                title: "JetsamEvent-truncated.ips could not be read as jetsam-event"),
            .quiet(
                "Fixtures/webcontent",
                facts: ["crash.kind": "none", "jetsam.availablePercent": 26.2]),
        ])

    /// Every engine finding, sorted by code.
    public static let all = [otherApp, unattributed, unreadable]

    /// The engine described as a check, to list beside the checks (`memhunt checks`, a report's rules).
    public static let description = CheckDescription(
        id: check, title: "Artifacts (the engine, for every step)", step: "",
        rationale: "What the engine says of a step's artifacts before any check reads them.", reads: [],
        facts: [], codes: all)
}
