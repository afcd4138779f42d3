import MemhuntCore

/// The terminal walk of a run: one block per step with its numbers and findings, then the artifacts.
public enum TextReporter: Reporter {
    public static let identifier = "text"
    public static let summary = "The walk for a terminal: each step with its facts and findings (the default)."

    public static func render(_ document: FindingsDocument, options: ReportOptions) -> String {
        let style = Style(enabled: options.colored)
        var out = style.bold(e(document.playbook.title)) + style.dim("  (playbook \(e(document.playbook.id)))") + "\n"
        out += "Subject: " + subjectLine(document, options: options) + "\n\n"
        if let verdict = document.verdict, !verdict.sentences.isEmpty {
            out += style.bold("Verdict") + "\n"
            for sentence in verdict.sentences {
                let number = sentence.step.flatMap { id in document.step(id: id)?.number }
                out += wrap(
                    e(sentence.text), indent: "   ", width: options.width,
                    unbroken: number.map { style.dim("(step \($0))") })
            }
            out += "\n"
        }
        if let ledger = document.ledger { out += LedgerSummary.text(ledger, options: options) + "\n" }
        let suppressed = document.suppressionLines
        let accepted =
            suppressed.isEmpty
            ? ""
            : style.bold("Suppressions (\(suppressed.count))") + "\n" + suppressed.map { "   " + e($0) + "\n" }.joined()
                + "\n"
        if options.detail == .quiet {
            return fit(out + accepted + summaryLine(document) + "\n", width: options.width)
        }
        for step in document.steps { out += Self.step(step, in: document, options: options) + "\n" }
        out += style.bold("Artifacts (\(document.artifacts.count))") + "\n"
        for artifact in document.artifacts {
            let kind = artifact.kind?.rawValue ?? "-"
            let status = artifact.status == .ok ? style.green("ok") : style.yellow(artifact.status.rawValue)
            var line =
                "   " + status + String(repeating: " ", count: max(1, 13 - artifact.status.rawValue.count))
                + pad(kind, 22) + e(artifact.source)
            if let sha = artifact.sha256 { line += style.dim("  sha256:" + e(String(sha.prefix(12)))) }
            out += line + "\n"
            if let status = artifact.httpStatus, artifact.status == .ok {
                let size = artifact.size.map { " · " + FactValue.grouped($0) + " bytes" } ?? ""
                let final = artifact.finalURL.map { $0 == artifact.source ? "" : " · final URL " + e($0) } ?? ""
                out += "      " + style.dim("HTTP \(status)" + size + final) + "\n"
            }
            for diagnostic in artifact.diagnostics { out += "      " + e(diagnostic) + "\n" }
        }
        out += "\n" + accepted + summaryLine(document) + "\n"
        return fit(out, width: options.width)
    }

    /// One step's block of the walk: header, texts, facts, failures, findings and guidance.
    public static func step(
        _ step: FindingsDocument.StepRecord, in document: FindingsDocument, options: ReportOptions
    ) -> String {
        let style = Style(enabled: options.colored)
        var out = ""
        out += header(step, style: style)
        if !step.inspects.isEmpty || !step.tells.isEmpty {
            out += "   " + style.dim("inspects: \(e(step.inspects)) · tells: \(e(step.tells))") + "\n"
        }
        for key in step.facts.keys.sorted() {
            let value = step.facts[key]!
            let text = options.detail == .verbose ? document.formatted(key, value) : Self.fact(key, value, in: document)
            out += "   " + e(key) + " = " + e(text) + "\n"
        }
        for comparison in step.presentation.comparisons {
            out +=
                "   " + style.dim("compare") + "  " + e((comparison.group.map { $0 + ": " } ?? "") + comparison.line)
                + "\n"
        }
        for failure in step.failures {
            out += "   " + style.red(pad("error", 8)) + " Check '\(e(failure.check))' could not run\n"
            out += wrap(e(failure.message), indent: "      ", width: options.width)
            if let next = failure.next {
                out += "      next: " + e(document.phrase(next, from: step.id, options: options)) + "\n"
            }
        }
        for finding in step.findings {
            out += "   " + badge(finding.severity, style: style) + " " + e(finding.title) + "\n"
            out += wrap(e(finding.detail), indent: "      ", width: options.width)
            for evidence in finding.evidence {
                out += "      " + style.dim("evidence: " + e(evidence.reference)) + "\n"
            }
            if let next = finding.next {
                out += "      next: " + e(document.phrase(next, from: step.id, options: options)) + "\n"
            }
            // Its name across runs: what a suppression or a baseline names it by.
            if let signature = finding.signature { out += "      " + style.dim("signature: " + e(signature)) + "\n" }
        }
        if step.status == .unanswered {
            out += wrap(
                document.subject.app.map { "the artifacts of this step say nothing of \(e($0))" }
                    ?? "the artifacts of this step are read per app: name the app", indent: "   ", width: options.width)
        }
        if step.status == .noArtifact || step.status == .skipped {
            if step.status == .skipped {
                out += "   skipped\n"
            } else if !step.isGuidanceOnly {
                out += "   no artifact for this step\n"
            }
            if let collect = step.guidance?.collect {
                out += wrap("collect: " + e(collect), indent: "   ", width: options.width)
            }
            if let empty = step.guidance?.empty {
                out += wrap("if empty: " + e(empty), indent: "   ", width: options.width)
            }
        }
        return fit(out, width: options.width)
    }

    /// A fact as the walk shows it: a long list or map is counted, not spelled out (the findings
    /// document and the other formats hold it whole).
    static func fact(_ key: String, _ value: FactValue, in document: FindingsDocument) -> String {
        let text = document.formatted(key, value)
        guard text.count > 120 else { return text }
        guard let count = value.arrayValue?.count ?? value.objectValue?.count else { return text }
        return "\(count) \(count == 1 ? "entry" : "entries") (all in the findings document)"
    }

    /// "JustSend", "JustSend (named by the crash reports)", "not chosen".
    static func subjectLine(_ document: FindingsDocument, options: ReportOptions) -> String {
        guard let app = document.subject.app else {
            let names = document.subject.candidates ?? []
            let present =
                names.isEmpty
                ? ""
                : ": the artifacts name " + names.prefix(8).map(e).joined(separator: ", ")
                    + (names.count > 8 ? ", …" : "")
            return "not chosen" + present + (options.decisions[.chooseApp].map { " (\($0))" } ?? "")
        }
        if document.subject.matched == false {
            return e(app) + " (no artifact names it"
                + e(Suggestion.hint(for: app, among: document.subject.candidates ?? []))
                + ")"
        }
        switch document.subject.origin {
        case .crashReports: return e(app) + " (named by the crash reports)"
        case .artifacts: return e(app) + " (named by every artifact that names an app)"
        case .given, .none: return e(app)
        }
    }

    /// "Summary: 2 warnings, 1 notice, 1 info · 4 steps without artifacts".
    public static func summaryLine(_ document: FindingsDocument) -> String {
        let counts = Severity.allCases.reversed().compactMap { severity -> String? in
            let n = document.summary.findings[severity.rawValue] ?? 0
            guard n > 0 else { return nil }
            return "\(n) \(severity.rawValue)" + (n > 1 && severity != .info ? "s" : "")
        }
        var parts = [counts.isEmpty ? "no findings" : counts.joined(separator: ", ")]
        let failed = document.summary.failedChecks
        if failed > 0 { parts.append(Plural.count(failed, "check") + " could not run") }
        let empty = document.summary.steps[StepStatus.noArtifact.rawValue] ?? 0
        if empty > 0 { parts.append(Plural.count(empty, "step") + " without artifacts") }
        let unanswered = document.summary.steps[StepStatus.unanswered.rawValue] ?? 0
        if unanswered > 0 { parts.append(Plural.count(unanswered, "step") + " unanswered") }
        let skipped = document.summary.steps[StepStatus.skipped.rawValue] ?? 0
        if skipped > 0 { parts.append(Plural.count(skipped, "step") + " skipped") }
        let inapplicable = document.summary.steps[StepStatus.notApplicable.rawValue] ?? 0
        if inapplicable > 0 { parts.append(Plural.count(inapplicable, "step") + " not applicable") }
        let unrecognized = document.summary.artifacts[ArtifactStatus.unrecognized.rawValue] ?? 0
        if unrecognized > 0 { parts.append(Plural.count(unrecognized, "artifact") + " not understood") }
        let unreadable = document.summary.artifacts[ArtifactStatus.error.rawValue] ?? 0
        if unreadable > 0 { parts.append(Plural.count(unreadable, "artifact") + " could not be read") }
        if let suppression = document.suppression {
            if !suppression.suppressed.isEmpty { parts.append("\(suppression.suppressed.count) suppressed") }
            if !suppression.expired.isEmpty {
                parts.append(Plural.count(suppression.expired.count, "suppression") + " expired")
            }
        }
        return "Summary: " + parts.joined(separator: " · ")
    }

    private static func header(_ step: FindingsDocument.StepRecord, style: Style) -> String {
        let number = step.number < 10 ? " \(step.number)" : "\(step.number)"
        let status: String
        switch step.status {
        case .clear: status = style.green("clear")
        case .finding: status = style.yellow("finding")
        case .noArtifact: status = style.dim(step.isGuidanceOnly ? "guidance" : "no artifact")
        case .error: status = style.red("error")
        case .skipped: status = style.dim("skipped")
        case .notApplicable: status = style.dim("not applicable")
        case .unanswered: status = style.dim("unanswered")
        }
        return style.bold(number + "  " + e(step.title)) + "  " + status + "\n"
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

    /// An outside string as the terminal shows it (`TerminalText`: control characters as `\u{1B}`).
    static func e(_ text: String) -> String { TerminalText.escaped(text) }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// Every line of `text` no wider than `width` columns (ANSI styles take none), broken between words only:
    /// a longer line goes on under its own indent plus three spaces; a word wider than that stays whole.
    public static func fit(_ text: String, width: Int?) -> String {
        guard let width else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard columns(line) > width else { return String(line) }
            let indent = String(line.prefix { $0 == " " })
            let next = indent + "   "
            var out = ""
            var current = indent
            var currentColumns = indent.count
            var empty = true
            func add(_ word: Substring, columns wordColumns: Int) {
                if !empty && currentColumns + 1 + wordColumns > width {
                    out += current + "\n"
                    current = next
                    currentColumns = next.count
                    empty = true
                }
                if !empty {
                    current += " "
                    currentColumns += 1
                }
                current += word
                currentColumns += wordColumns
                empty = false
            }
            // Runs of spaces (a padded badge) are kept within a line, dropped at its start.
            for word in line.dropFirst(indent.count).split(separator: " ", omittingEmptySubsequences: false) {
                if word.isEmpty {
                    if !empty && currentColumns + 1 < width {
                        current += " "
                        currentColumns += 1
                    }
                    continue
                }
                let wordColumns = columns(word)
                guard wordColumns > width - next.count else {
                    add(word, columns: wordColumns)
                    continue
                }
                // Wider than any line: each piece on a line of its own.
                for piece in pieces(of: word, within: max(width - next.count, 8)) {
                    if !empty {
                        out += current + "\n"
                        current = next
                        currentColumns = next.count
                        empty = true
                    }
                    add(piece, columns: columns(piece))
                }
            }
            return out + current
        }.joined(separator: "\n")
    }

    /// A word no wider than `limit` as it is; a wider one (a path, a URL, an evidence reference) in pieces
    /// that each end after a `/`, `#` or `.` where one fits, else at the limit.
    static func pieces(of word: Substring, within limit: Int) -> [Substring] {
        guard columns(word) > limit else { return [word] }
        // A style's escape sequences at either end (a dim evidence line) stay with the first and last piece.
        var start = word.startIndex
        while word[start...].hasPrefix("\u{1B}["), let end = word[start...].firstIndex(where: \.isLetter) {
            start = word.index(after: end)
        }
        var stop = word.endIndex
        while let escape = word[start..<stop].lastIndex(of: "\u{1B}"),
            word[escape..<stop].dropFirst().allSatisfy({ $0 == "[" || $0 == ";" || $0.isNumber || $0 == "m" })
        {
            stop = escape
        }
        let core = word[start..<stop]
        guard !core.contains("\u{1B}"), !core.isEmpty else { return [word] }
        var pieces: [Substring] = []
        var rest = core
        while rest.count > limit {
            let window = rest.prefix(limit)
            let cut = window.lastIndex { $0 == "/" || $0 == "#" || $0 == "." }.map { rest.index(after: $0) }
            let end = cut.flatMap { $0 > rest.startIndex ? $0 : nil } ?? window.endIndex
            pieces.append(rest[..<end])
            rest = rest[end...]
        }
        if !rest.isEmpty { pieces.append(rest) }
        pieces[0] = word[word.startIndex..<pieces[0].endIndex]
        pieces[pieces.count - 1] = word[pieces[pieces.count - 1].startIndex..<word.endIndex]
        return pieces
    }

    /// The columns a line takes on a terminal: its characters less ANSI escape sequences.
    static func columns(_ line: Substring) -> Int {
        var count = 0
        var inEscape = false
        for scalar in line.unicodeScalars {
            if inEscape {
                if scalar.properties.isAlphabetic { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else if !(0x300...0x36F).contains(scalar.value) {
                count += 1
            }
        }
        return count
    }

    /// Each line of `text` wrapped at `width` columns between words, its continuations indented as the line is:
    /// what a terminal would otherwise cut mid-word.
    public static func wrapLines(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard columns(line) > width else { return String(line) }
            let indent = String(line.prefix { $0 == " " })
            return wrap(String(line.dropFirst(indent.count)), indent: indent, width: width)
                .split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// A paragraph wrapped at `width` columns (100 when nil) with the given indent; `unbroken`, when given, ends
    /// it as one word (a verdict's `(step 7)` never splits between its two words). Widths are columns on a
    /// terminal (`columns`): a dim `(step 7)` counted its escape codes too, and a colored verdict line wrapped
    /// up to 8 columns early.
    static func wrap(_ text: String, indent: String, width: Int?, unbroken: String? = nil) -> String {
        let width = width ?? 100
        var out = ""
        var line = indent
        let start = columns(indent[...])
        var used = start
        let words =
            keepingUnits(text.split(separator: " ", omittingEmptySubsequences: true))
            + (unbroken.map { [$0[...]] } ?? [])
        for word in words {
            let taken = columns(word)
            if used + taken + 1 > width && used > start {
                out += line + "\n"
                line = indent
                used = start
            }
            if used > start {
                line += " "
                used += 1
            }
            line += word
            used += taken
        }
        if used > start { out += line + "\n" }
        return out
    }
}

extension TextReporter {
    /// The units a number is never parted from at a line's end: `611` / `MB footprint` read as two facts.
    static let units: Set<Substring> = [
        "%", "B", "GB", "GB/s", "GiB", "KB", "KiB", "MB", "MB/s", "MiB", "TB", "bytes", "kB", "ms", "ns", "pages", "s",
        "µs",
    ]

    /// `words` with each number that a unit follows joined to it (`611 MB`) as one word.
    static func keepingUnits(_ words: [Substring]) -> [Substring] {
        var out: [Substring] = []
        out.reserveCapacity(words.count)
        var index = 0
        while index < words.count {
            let word = words[index]
            if index + 1 < words.count, isNumber(word) {
                let next = words[index + 1]
                let bare = next.prefix { !",.;:)]".contains($0) }
                if units.contains(bare) {
                    out.append(Substring(word + " " + next))
                    index += 2
                    continue
                }
            }
            out.append(word)
            index += 1
        }
        return out
    }

    /// A number as reports write it: digits with `,` and `.` between, after an opening bracket or a sign.
    static func isNumber(_ word: Substring) -> Bool {
        let digits = word.drop { "([+-−~≈×".contains($0) }
        guard let first = digits.first, first.isASCII, first.isNumber else { return false }
        return digits.allSatisfy { ($0.isASCII && $0.isNumber) || $0 == "," || $0 == "." }
    }
}

/// `ANSIStyle` bound to one decision (color or not), for the renderers' many call sites.
struct Style {
    var enabled: Bool

    func bold(_ text: String) -> String { text.styled(.bold, enabled: enabled) }
    func dim(_ text: String) -> String { text.styled(.dim, enabled: enabled) }
    func red(_ text: String) -> String { text.styled(.red, enabled: enabled) }
    func green(_ text: String) -> String { text.styled(.green, enabled: enabled) }
    func yellow(_ text: String) -> String { text.styled(.yellow, enabled: enabled) }
    func cyan(_ text: String) -> String { text.styled(.cyan, enabled: enabled) }
}
