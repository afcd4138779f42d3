import MemhuntCore

/// The exit status of a run, decided once from the document: 2 when the hunt could not be done as
/// asked, 1 when a finding reached `--fail-on`, else 0.
extension FindingsDocument.Gate {
    /// The hunt could not be done as asked.
    public static let couldNotRunStatus = 2
    /// A finding reached `--fail-on`.
    public static let thresholdStatus = 1

    /// Exit 2 when the hunt could not be done as asked: a check failed, an operand does not exist or cannot
    /// be read, a directory gave nothing readable, or the app given matches nothing any artifact names.
    /// Files of a walked directory that no parser recognizes stay informational.
    /// `unreadNaming`: files that could not be read whose text names the app given.
    /// `failOrigin`: where the threshold comes from, as the reason says it (`--fail-on warning`, the playbook's
    /// `fail_on`); by default the flag.
    public static func decide(
        _ document: FindingsDocument, failOn: Severity?, failOrigin: String? = nil, operands: [String] = [],
        unreadNaming: [String] = []
    ) -> FindingsDocument.Gate {
        let reasons = couldNotRun(document, operands: operands, unreadNaming: unreadNaming)
        if !reasons.isEmpty {
            return FindingsDocument.Gate(
                failOn: failOn, exitStatus: couldNotRunStatus,
                reason: reasons.joined(separator: "; "))
        }
        if let failOn {
            let reached = document.findings.count { $0.severity >= failOn }
            if reached > 0 {
                return FindingsDocument.Gate(
                    failOn: failOn, exitStatus: thresholdStatus,
                    reason: Plural.count(reached, "finding")
                        + " at \(failOn.rawValue) or above (\(failOrigin ?? "--fail-on \(failOn.rawValue)"))")
            }
        }
        return FindingsDocument.Gate(failOn: failOn)
    }

    /// Why the hunt could not be done as asked, one clause per cause; empty when it could.
    /// `operands` as the artifacts show them (credentials removed).
    public static func couldNotRun(_ document: FindingsDocument, operands: [String], unreadNaming: [String] = [])
        -> [String]
    {
        var reasons: [String] = []
        let failed = document.failures
        if !failed.isEmpty {
            let names = failed.map { "'\($0.check)'" }.joined(separator: ", ")
            reasons.append(Plural.count(failed.count, "check") + " could not run: \(names)")
        }
        for artifact in document.artifacts where artifact.isOperand == true && artifact.status == .error {
            let why = artifact.diagnostics.first ?? "cannot be read"
            reasons.append(why.hasPrefix(artifact.source) ? why : "\(artifact.source): " + why)
        }
        for operand in operands where operand != "-" {
            let found = document.artifacts.filter { $0.operand == operand }
            if found.isEmpty, !document.artifacts.contains(where: { $0.source == operand }) {
                reasons.append("\(operand): no files to read")
            } else if !found.isEmpty, !found.contains(where: { $0.isOperand == true }),
                !found.contains(where: { $0.status == .ok }), found.contains(where: { $0.status == .error })
            {
                let broken = found.count { $0.status == .error }
                reasons.append(
                    "\(operand): none of its " + Plural.count(found.count, "file") + " could be used ("
                        + "\(broken) could not be read)")
            }
        }
        // An app named only in files that could not be read may be the subject of what they hold: not a hunt that
        // could not be done (the verdict names the unread files).
        if document.subject.origin == .given, document.subject.matched == false, let app = document.subject.app,
            unreadNaming.isEmpty, document.subject.absenceAnswered != true
        {
            reasons.append(
                unmatchedApp(
                    app, candidates: document.subject.candidates ?? [],
                    unread: document.artifacts.count(where: \.holdsUnknownContent)))
        }
        return reasons
    }

    /// "--app JustSnd matches nothing in any artifact (did you mean 'JustSend'?); the artifacts name …":
    /// said by the gate, and by `run` before the walk. `unread`: files given that could not be read.
    /// `carriers` names, for each name, a file that carries it: the person sees where each name comes from.
    public static func unmatchedApp(
        _ app: String, candidates names: [String], unread: Int, carriers: [String: String] = [:]
    ) -> String {
        // The closest spelling and the app's family, each with the file that carries it:
        // " (did you mean 'JustSend' or 'JustSendWidget' (in JetsamEvent-….ips)?)".
        var offered: [(carrier: String?, names: [String])] = []
        for name in Suggestion.suggestions(for: app, among: names) {
            if let last = offered.last, last.carrier == carriers[name] {
                offered[offered.count - 1].names.append(name)
            } else {
                offered.append((carriers[name], [name]))
            }
        }
        let hint =
            offered.isEmpty
            ? ""
            : " (did you mean "
                + offered.map { group in
                    group.names.map { "'\($0)'" }.joined(separator: " or ")
                        + (group.carrier.map { " (in \($0))" } ?? "")
                }.joined(separator: " or ") + "?)"
        // Names of one file together: `JustSend, ChatGPT, … (in JetsamEvent-….ips)`.
        var groups: [(carrier: String?, names: [String])] = []
        for name in names.prefix(5) {
            if let last = groups.last, last.carrier == carriers[name] {
                groups[groups.count - 1].names.append(name)
            } else {
                groups.append((carriers[name], [name]))
            }
        }
        let more = names.count > 5 ? ", …" : ""
        let listed = groups.enumerated().map { index, group in
            let tail = index == groups.count - 1 ? more : ""
            return group.names.joined(separator: ", ") + tail + (group.carrier.map { " (in \($0))" } ?? "")
        }.joined(separator: ", ")
        return "--app \(app) matches nothing in any artifact" + (unread == 0 ? "" : " read") + hint
            + (unread == 0 ? "" : " (\(Plural.count(unread, "file")) could not be read)")
            + (names.isEmpty ? "" : "; the artifacts name \(listed)")
    }
}
