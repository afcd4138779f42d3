import MemhuntCore

/// GitHub Actions workflow commands: one annotation per finding (`::error` for critical, `::warning`,
/// `::notice` for notice and info) with `file=` of its first local evidence, an `::error` per check
/// that could not run, then the summary line.
///
/// The job summary is `jobSummary(_:options:)` (the Markdown report); the CLI appends it to the file
/// `GITHUB_STEP_SUMMARY` names, so this reporter stays a pure function.
public enum GitHubReporter: Reporter {
    public static let identifier = "github"
    public static let summary = "GitHub Actions annotations (::error/::warning/::notice); Markdown job summary."

    public static func render(_ document: FindingsDocument, options: ReportOptions) -> String {
        var out = ""
        for step in document.steps {
            for failure in step.failures {
                var message = failure.message
                if let next = failure.next {
                    message += "\nnext: " + document.phrase(next, from: step.id, options: options)
                }
                out += command(
                    "error",
                    properties: [("title", "memhunt: check '\(failure.check)' could not run (step \(step.number))")],
                    message: message)
            }
        }
        for line in document.suppressionLines {
            out += command("notice", properties: [("title", "memhunt: suppressed")], message: line)
        }
        for finding in document.findings {
            var properties: [(String, String)] = []
            if let evidence = finding.evidence.first(where: { !isURL($0.source) }) {
                properties.append(("file", evidence.source))
                if let line = evidence.line { properties.append(("line", String(line))) }
            }
            let step = document.step(id: finding.step)
            let prefix = finding.severity == .info ? "info: " : ""
            properties.append(("title", prefix + finding.title))
            var lines = [finding.detail]
            if let step { lines.append("step \(step.number), \(step.title) · \(finding.code)") }
            lines += finding.evidence.map { "evidence: " + $0.reference }
            if let next = finding.next {
                lines.append("next: " + document.phrase(next, from: finding.step, options: options))
            }
            out += command(level(finding.severity), properties: properties, message: lines.joined(separator: "\n"))
        }
        out += TextReporter.summaryLine(document) + "\n"
        return out
    }

    /// The Markdown for `$GITHUB_STEP_SUMMARY`.
    public static func jobSummary(_ document: FindingsDocument, options: ReportOptions) -> String {
        MarkdownReporter.render(document, options: options) + "\n"
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .critical: "error"
        case .warning: "warning"
        case .notice, .info: "notice"
        }
    }

    /// `::name key=value,key=value::message`, escaped per GitHub's rules.
    public static func command(_ name: String, properties: [(String, String)], message: String) -> String {
        let props = properties.map { $0.0 + "=" + escapeProperty($0.1) }.joined(separator: ",")
        return "::" + name + (props.isEmpty ? "" : " " + props) + "::" + escapeData(message) + "\n"
    }

    /// Message text: `%`, CR and LF as GitHub's rules say; any other control character (an ESC, a BEL) as
    /// `\u{1B}` (`TerminalText`), since the log shows the line to a terminal emulator.
    public static func escapeData(_ text: String) -> String { MarkupEscaping.githubData(text) }

    /// Property values: also `:` and `,`.
    public static func escapeProperty(_ text: String) -> String { MarkupEscaping.githubProperty(text) }

    static func isURL(_ source: String) -> Bool { source.hasPrefix("http://") || source.hasPrefix("https://") }
}
