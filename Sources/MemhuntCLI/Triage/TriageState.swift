import MemhuntCore

/// What a triage saves after every answer: enough to continue at the first unfinished step.
struct TriageState: Codable, Sendable {
    static let currentSchema = "memhunt.triage/1"

    var schema = currentSchema
    /// The user's report, in their words.
    var reported: String?
    /// The playbook as chosen: a built-in id, a path or a URL.
    var playbook: String
    /// Artifact operands and answers that are candidates (paths and URLs), in the order given.
    var operands: [String]
    /// `--format` and `--output` of the report written at the end.
    var format: String
    var output: String?
    /// The hunt session: the artifacts accepted so far and every step's result.
    var session: HuntSession.State
    /// Whether the walk reached its end and wrote the report.
    var finished = false
}
