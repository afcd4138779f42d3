import MemhuntCore

/// JUnit XML for Jenkins, GitLab and other CI test views: one testsuite per step, one testcase per
/// check (named `step/check`, unique in the report: GitLab drops duplicates), a `<failure>` per finding
/// at or above the gate (`--fail-on`, else warning), an `<error>` per check that could not run.
///
/// The shape is Jenkins' junit-10.xsd; `Tests/Support/junit-10.xsd` is the schema the tests validate against.
public enum JUnitReporter: Reporter {
    public static let identifier = "junit"
    public static let summary = "JUnit XML: a testsuite per step, a testcase per check, failures at --fail-on (CI)."

    /// The severity from which a finding is a test failure: the gate's, else warning.
    public static func threshold(_ document: FindingsDocument) -> Severity { document.gate.failOn ?? .warning }

    public static func render(_ document: FindingsDocument, options: ReportOptions) -> String {
        let threshold = threshold(document)
        var suites: [String] = []
        var totals = (tests: 0, failures: 0, errors: 0, skipped: 0)
        var usedNames = Set<String>()
        for step in document.steps {
            var cases: [String] = []
            var counts = (tests: 0, failures: 0, errors: 0, skipped: 0)
            let classname = "memhunt.\(document.playbook.id).\(step.id)"
            for check in checks(of: step) {
                var name = "\(step.id)/\(check)"
                var n = 2
                while !usedNames.insert(name).inserted {
                    name = "\(step.id)/\(check) #\(n)"
                    n += 1
                }
                counts.tests += 1
                var body = ""
                let failures = step.failures.filter { $0.check == check }
                let findings = step.findings.filter { $0.check == check }
                for failure in failures {
                    counts.errors += 1
                    var text = failure.message
                    if let next = failure.next {
                        text += "\nnext: " + document.phrase(next, from: step.id, options: options)
                    }
                    body +=
                        "      <error type=\"check-failure\" message=\"\(attribute("Check '\(check)' could not run"))\">"
                        + escape(text) + "</error>\n"
                }
                let failing = findings.filter { $0.severity >= threshold }
                for finding in failing {
                    counts.failures += 1
                    body +=
                        "      <failure type=\"\(attribute(finding.code))\" message=\"\(attribute(finding.severity.rawValue + ": " + finding.title))\">"
                        + escape(text(of: finding, document, options)) + "</failure>\n"
                }
                let ran = step.checksRun.contains(check) || !findings.isEmpty || !failures.isEmpty
                if !ran && failures.isEmpty {
                    counts.skipped += 1
                    let why =
                        step.status == .noArtifact
                        ? "no artifact for this step" + (step.guidance?.collect.map { ": collect " + $0 } ?? "")
                        : "the check did not run (\(step.status.rawValue))"
                    body += "      <skipped message=\"\(attribute(why))\"/>\n"
                }
                let below = findings.filter { $0.severity < threshold }
                // Suppressed findings of the check: listed with their reason, never a failure.
                let accepted = (document.suppression?.suppressed ?? []).filter {
                    $0.finding.step == step.id && $0.finding.check == check
                }
                if !below.isEmpty || !accepted.isEmpty {
                    let lines =
                        below.map { "[\($0.severity.rawValue)] \($0.title)" }
                        + accepted.map { "[suppressed: \($0.suppression.reason)] \($0.finding.title)" }
                    body += "      <system-out>" + escape(lines.joined(separator: "\n")) + "</system-out>\n"
                }
                let open = "    <testcase name=\"\(attribute(name))\" classname=\"\(attribute(classname))\""
                cases.append(body.isEmpty ? open + "/>\n" : open + ">\n" + body + "    </testcase>\n")
            }
            var suite =
                "  <testsuite name=\"\(attribute("\(step.number) \(step.id): \(step.title)"))\" tests=\"\(counts.tests)\" "
                + "failures=\"\(counts.failures)\" errors=\"\(counts.errors)\" skipped=\"\(counts.skipped)\" "
                + "package=\"\(attribute("memhunt.\(document.playbook.id)"))\""
            let facts = step.facts.keys.sorted()
            if cases.isEmpty && facts.isEmpty {
                suite += "/>\n"
            } else {
                suite += ">\n"
                if !facts.isEmpty || !step.presentation.comparisons.isEmpty {
                    suite += "    <properties>\n"
                    for key in facts {
                        suite +=
                            "      <property name=\"\(attribute(key))\" value=\"\(attribute(document.formatted(key, step.facts[key]!)))\"/>\n"
                    }
                    for comparison in step.presentation.comparisons {
                        let name = "comparison: " + (comparison.group.map { $0 + ": " } ?? "") + comparison.label
                        let value = "\(comparison.from.text) → \(comparison.to.text) (\(comparison.kind.word))"
                        suite += "      <property name=\"\(attribute(name))\" value=\"\(attribute(value))\"/>\n"
                    }
                    suite += "    </properties>\n"
                }
                suite += cases.joined() + "  </testsuite>\n"
            }
            suites.append(suite)
            totals.tests += counts.tests
            totals.failures += counts.failures
            totals.errors += counts.errors
            totals.skipped += counts.skipped
        }
        let title = "memhunt: \(document.playbook.title)" + (document.subject.app.map { " (\($0))" } ?? "")
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"\(attribute(title))\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" "
            + "errors=\"\(totals.errors)\">\n" + suites.joined() + "</testsuites>\n"
    }

    /// The step's checks: those the playbook names, then any other that reported (the artifact reader).
    static func checks(of step: FindingsDocument.StepRecord) -> [String] {
        var seen = Set<String>()
        let all = step.checks + step.checksRun + step.findings.map(\.check) + step.failures.map(\.check)
        return all.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// A failure's body: the detail, the evidence and the next step, as the text walk words them.
    static func text(of finding: Finding, _ document: FindingsDocument, _ options: ReportOptions) -> String {
        var lines = [finding.detail]
        lines += finding.evidence.map { "evidence: " + $0.reference }
        if let next = finding.next {
            lines.append("next: " + document.phrase(next, from: finding.step, options: options))
        }
        return lines.joined(separator: "\n")
    }

    /// Element text: markup characters escaped, control characters shown as `\u{1B}`, the other characters XML
    /// 1.0 forbids dropped.
    static func escape(_ text: String) -> String { MarkupEscaping.xmlText(text) }

    /// Attribute values: also quotes, and line breaks kept as character references.
    static func attribute(_ text: String) -> String { MarkupEscaping.xmlAttribute(text) }
}
