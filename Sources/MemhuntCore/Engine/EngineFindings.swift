/// The findings the engine itself emits about a step's artifacts (never a check's): declared once, with
/// their examples, like a check's codes. `memhunt checks` lists them under the id `artifacts`.
public enum EngineFindings {
    /// The id findings of the engine carry as their check.
    public static let check = "artifacts"

    public static let otherApp = FindingCode(
        "artifacts.other-app", .info,
        "Artifacts of the step's kinds that name another app than the subject: listed, never counted as its.",
        examples: [
            .raises("Fixtures/several-apps", app: "JustSend"),
            .quiet("Fixtures/watchdog", app: "JustSend"),
        ])
    public static let unattributed = FindingCode(
        "artifacts.unattributed", .info,
        "Artifacts of the step's kinds that name no app, read as the subject's though no artifact of one app names it.",
        examples: [
            .raises("Fixtures/justsend", app: "Weather"),
            .quiet("Fixtures/justsend", app: "JustSend"),
        ])
    public static let unreadable = FindingCode(
        "artifacts.unreadable", .notice,
        "An artifact of the step's kinds could not be read: named with what is wrong.",
        examples: [
            .raises("Fixtures/bad/JetsamEvent-truncated.ips"),
            .quiet("Fixtures/webcontent"),
        ])

    /// Every engine finding, sorted by code.
    public static let all = [otherApp, unattributed, unreadable]

    /// The engine described as a check, to list beside the checks (`memhunt checks`, a report's rules).
    public static let description = CheckDescription(
        id: check, title: "Artifacts (the engine, for every step)", step: "",
        rationale: "What the engine says of a step's artifacts before any check reads them.", reads: [],
        facts: [], codes: all)
}
