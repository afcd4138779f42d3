import MemhuntCore

/// The terminal walk of a run: one block per step with its numbers and findings, then the artifacts.
public enum TextReport {
    /// Renders a run. `colored` adds ANSI styles; pass true only for a terminal.
    public static func render(_ result: RunResult, colored: Bool = false) -> String {
        let style = Style(enabled: colored)
        var out = style.bold("\(result.playbook.title)") + style.dim("  (playbook \(result.playbook.id))") + "\n"
        let subject = result.subject.app.map {
            "\($0)" + (result.subject.origin == "option" ? "" : " (named by the crash reports)")
        }
        out += "Subject: " + (subject ?? "not chosen (pass --app)") + "\n\n"
        for step in result.steps {
            out += header(step, style: style)
            if !step.step.inspects.isEmpty || !step.step.tells.isEmpty {
                out += style.dim("   inspects: \(step.step.inspects) · tells: \(step.step.tells)") + "\n"
            }
            for key in step.facts.keys.sorted() {
                out += "   " + key + " = " + step.facts[key]!.description + (key.hasSuffix("MB") ? " MB" : "") + "\n"
            }
            for finding in step.findings {
                out += "   " + badge(finding.severity, style: style) + " " + finding.title + "\n"
                out += wrap(finding.detail, indent: "      ")
                for evidence in finding.evidence { out += style.dim("      evidence: " + evidence.reference) + "\n" }
                if let next = finding.next { out += "      next: " + next + "\n" }
            }
            if step.status == .noArtifact {
                out += step.step.reads.isEmpty && step.step.checks.isEmpty ? "" : "   no artifact for this step\n"
                if let collect = step.step.collect { out += wrap("collect: " + collect, indent: "   ") }
                if let empty = step.step.empty { out += wrap("if empty: " + empty, indent: "   ") }
            }
            out += "\n"
        }
        out += style.bold("Artifacts (\(result.artifacts.count))") + "\n"
        for artifact in result.artifacts {
            let kind = artifact.kind?.rawValue ?? "-"
            let status = artifact.status == .ok ? style.green("ok") : style.yellow(artifact.status.rawValue)
            var line =
                "   " + status + String(repeating: " ", count: max(1, 13 - artifact.status.rawValue.count))
                + pad(kind, 22) + artifact.source
            if let sha = artifact.sha256 { line += style.dim("  sha256:" + sha.prefix(12)) }
            out += line + "\n"
            if let status = artifact.httpStatus, artifact.status == .ok {
                let size = artifact.size.map { " · " + FactValue.grouped($0) + " bytes" } ?? ""
                let final = artifact.finalURL.map { $0 == artifact.source ? "" : " · final URL " + $0 } ?? ""
                out += style.dim("      HTTP \(status)" + size + final) + "\n"
            }
            if let error = artifact.error { out += "      " + error + "\n" }
        }
        out += "\n" + summary(result) + "\n"
        return out
    }

    /// "2 warnings, 1 notice, 1 info · 4 steps without artifacts".
    public static func summary(_ result: RunResult) -> String {
        let counts = Severity.allCases.reversed().compactMap { severity -> String? in
            let n = result.findings.count { $0.severity == severity }
            guard n > 0 else { return nil }
            return "\(n) \(severity.rawValue)" + (n > 1 && severity != .info ? "s" : "")
        }
        var parts = [counts.isEmpty ? "no findings" : counts.joined(separator: ", ")]
        let empty = result.steps.count { $0.status == .noArtifact }
        if empty > 0 { parts.append("\(empty) step\(empty == 1 ? "" : "s") without artifacts") }
        let unrecognized = result.artifacts.count { $0.status == .unrecognized }
        if unrecognized > 0 { parts.append("\(unrecognized) artifact\(unrecognized == 1 ? "" : "s") not understood") }
        let failed = result.artifacts.count { $0.status == .error }
        if failed > 0 { parts.append("\(failed) artifact\(failed == 1 ? "" : "s") could not be read") }
        return "Summary: " + parts.joined(separator: " · ")
    }

    private static func header(_ step: StepResult, style: Style) -> String {
        let number = step.number < 10 ? " \(step.number)" : "\(step.number)"
        let status: String
        switch step.status {
        case .clear: status = style.green("clear")
        case .finding: status = style.yellow("finding")
        case .noArtifact:
            status = style.dim(step.step.reads.isEmpty && step.step.checks.isEmpty ? "guidance" : "no artifact")
        case .error: status = style.red("error")
        }
        return style.bold(number + "  " + step.step.title) + "  " + status + "\n"
    }

    private static func badge(_ severity: Severity, style: Style) -> String {
        let text = pad(severity.rawValue, 8)
        switch severity {
        case .critical: return style.red(text)
        case .warning: return style.yellow(text)
        case .notice: return style.cyan(text)
        case .info: return style.dim(text)
        }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// Wraps at 100 columns with the given indent.
    private static func wrap(_ text: String, indent: String) -> String {
        var out = ""
        var line = indent
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.count + word.count + 1 > 100 && line.count > indent.count {
                out += line + "\n"
                line = indent
            }
            line += (line.count > indent.count ? " " : "") + word
        }
        if line.count > indent.count { out += line + "\n" }
        return out
    }
}

/// `ANSIStyle` bound to one decision (color or not), for the renderer's many call sites.
struct Style {
    var enabled: Bool

    func bold(_ text: String) -> String { text.styled(.bold, enabled: enabled) }
    func dim(_ text: String) -> String { text.styled(.dim, enabled: enabled) }
    func red(_ text: String) -> String { text.styled(.red, enabled: enabled) }
    func green(_ text: String) -> String { text.styled(.green, enabled: enabled) }
    func yellow(_ text: String) -> String { text.styled(.yellow, enabled: enabled) }
    func cyan(_ text: String) -> String { text.styled(.cyan, enabled: enabled) }
}
