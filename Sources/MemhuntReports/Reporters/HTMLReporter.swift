import MemhuntCore

/// One self-contained HTML file (no network, no scripts) with inline SVG charts: one per series the
/// checks gave (the app against the largest processes of the jetsam record, baseline vs peak, the variants,
/// body evaluations per view, growth per visit), drawn only when the run has it. Light and dark
/// mode follow `prefers-color-scheme`; print gets black on white.
public enum HTMLReporter: Reporter {
    public static let identifier = "html"
    public static let summary = "One self-contained HTML page with inline SVG charts (light, dark, print)."

    public static func render(_ document: FindingsDocument, options: ReportOptions) -> String {
        let title = document.playbook.title + (document.subject.app.map { ": " + $0 } ?? "")
        var body = "<header>\n<h1>\(Escape.html(title))</h1>\n"
        body += "<p class=\"meta\">playbook <code>\(Escape.html(document.playbook.id))</code> · memhunt "
        body += Escape.html(document.tool.version) + "</p>\n" + counts(document) + "</header>\n"
        body += contents(document)
        body += verdict(document)
        if let baseline = document.baseline {
            body += "<p class=\"muted\">\(baseline.suppressed) finding(s) known from the baseline "
            body += "<code>\(Escape.html(baseline.source))</code> left out.</p>\n"
        }
        let suppressed = document.suppressionLines
        if !suppressed.isEmpty {
            body += "<section id=\"suppressed\"><h2>Suppressions (\(suppressed.count))</h2>\n<ul>\n"
            body += suppressed.map { "<li>" + Escape.html($0) + "</li>\n" }.joined() + "</ul></section>\n"
        }
        let charts = Charts.all(document)
        if !charts.isEmpty {
            body += "<section class=\"charts\" id=\"charts\">\n<h2>Charts</h2>\n" + charts.joined() + "</section>\n"
        }
        if let ledger = document.ledger { body += LedgerSummary.html(ledger) }
        body += comparisons(document)
        body += steps(document)
        body += findings(document, options: options)
        body += artifacts(document)
        body += "<footer><p>\(Escape.html(TextReporter.summaryLine(document)))</p></footer>\n"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(Escape.html(title))</title>
            <style>
            \(style)</style>
            </head>
            <body>
            <main>
            \(body)</main>
            </body>
            </html>

            """
    }

    static let style = """
        :root { --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --panel: #f6f8fa;
          --bar: #0969da; --accent: #cf222e; --after: #1a7f37; --warning: #9a6700; --notice: #0969da; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --panel: #151b23;
            --bar: #4493f8; --accent: #ff7b72; --after: #3fb950; --warning: #d29922; --notice: #4493f8; }
        }
        html { background: var(--bg); color: var(--fg); }
        body { font: 15px/1.5 -apple-system, "Segoe UI", "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 0; }
        main { max-width: 960px; margin: 0 auto; padding: 24px; }
        h1 { font-size: 1.6em; margin: 0 0 4px; } h2 { border-bottom: 1px solid var(--line); padding-bottom: 4px; }
        .meta, figcaption, .muted { color: var(--muted); }
        code { font: 0.9em ui-monospace, "DejaVu Sans Mono", Menlo, monospace; }
        .verdict { border-left: 4px solid var(--accent); background: var(--panel); padding: 8px 16px; }
        table { border-collapse: collapse; width: 100%; margin: 8px 0 16px; }
        th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
        th { background: var(--panel); } td.num { text-align: right; white-space: nowrap; }
        .sev { font-weight: 600; text-transform: uppercase; font-size: 0.8em; }
        .sev-critical { color: var(--accent); } .sev-warning { color: var(--warning); }
        .sev-notice { color: var(--notice); } .sev-info { color: var(--muted); }
        figure { margin: 16px 0; break-inside: avoid; }
        svg { max-width: 100%; height: auto; }
        svg text { fill: var(--fg); font-size: 12px; } svg .muted { fill: var(--muted); }
        svg .bar { fill: var(--bar); } svg .subject { fill: var(--accent); } svg .after { fill: var(--after); }
        svg .axis { stroke: var(--line); } svg .fit { stroke: var(--accent); stroke-width: 2; stroke-dasharray: 6 4; }
        svg .point { fill: var(--bar); }
        li { margin-bottom: 8px; }
        .counts { margin: 8px 0 0; } .counts .sev { margin-right: 12px; font-size: 0.9em; }
        nav.contents ol { columns: 2; margin: 4px 0; } nav.contents li { margin-bottom: 2px; }
        a { color: var(--bar); }
        @media print {
          :root { --bg: #ffffff; --fg: #000000; --muted: #333333; --line: #999999; --panel: #ffffff;
            --bar: #444444; --accent: #000000; --after: #888888; }
          main { max-width: none; padding: 0; } details { display: block; } details > * { display: block; }
          a { color: inherit; text-decoration: none; }
        }

        """

    /// The findings by severity, most severe first, and the checks that could not run: "7 warnings · 4 notices
    /// · 3 info" (or "no findings").
    static func counts(_ document: FindingsDocument) -> String {
        var parts: [String] = []
        if !document.failures.isEmpty {
            parts.append(
                "<span class=\"sev sev-critical\">" + Plural.count(document.failures.count, "check")
                    + " could not run</span>")
        }
        for severity in Severity.allCases.reversed() {
            let n = document.summary.findings[severity.rawValue] ?? 0
            guard n > 0 else { continue }
            let word = n == 1 || severity == .info ? severity.rawValue : severity.rawValue + "s"
            parts.append("<span class=\"sev sev-\(severity.rawValue)\">\(n) \(word)</span>")
        }
        if parts.isEmpty { parts.append("<span class=\"sev sev-info\">no findings</span>") }
        return "<p class=\"counts\">" + parts.joined(separator: " ") + "</p>\n"
    }

    /// A link to each step (its row of the steps table) with its status, and to the sections after them.
    static func contents(_ document: FindingsDocument) -> String {
        var out = "<nav class=\"contents\" aria-label=\"Contents\">\n<h2>Contents</h2>\n<ol>\n"
        for step in document.steps {
            out +=
                "<li><a href=\"#step-\(step.number)\">\(Escape.html(step.title))</a> "
                + status(step) + "</li>\n"
        }
        out += "</ol>\n<p>"
        var sections: [String] = []
        if !Charts.all(document).isEmpty { sections.append("<a href=\"#charts\">Charts</a>") }
        if !document.comparisonTables.isEmpty { sections.append("<a href=\"#comparisons\">Comparisons</a>") }
        sections.append("<a href=\"#steps\">Steps</a>")
        if !document.findings.isEmpty || !document.failures.isEmpty {
            sections.append("<a href=\"#findings\">Findings</a>")
        }
        if !document.artifacts.isEmpty { sections.append("<a href=\"#artifacts\">Artifacts</a>") }
        return out + sections.joined(separator: " · ") + "</p>\n</nav>\n"
    }

    /// A step's status as the steps table and the contents show it.
    static func status(_ step: FindingsDocument.StepRecord) -> String {
        switch step.status {
        case .finding:
            let severity = step.strongestFinding?.severity.rawValue ?? "finding"
            return "<span class=\"sev sev-\(severity)\">\(severity)</span>"
        case .noArtifact: return step.isGuidanceOnly ? "guidance" : "no artifact"
        default: return step.status.rawValue
        }
    }

    /// The document's verdict: one sentence per step, each naming the step it rests on.
    static func verdict(_ document: FindingsDocument) -> String {
        guard let verdict = document.verdict, !verdict.sentences.isEmpty else { return "" }
        var out = "<section class=\"verdict\">\n<p><strong>Verdict</strong></p>\n<ul>\n"
        for sentence in verdict.sentences {
            let number = sentence.step.flatMap { id in document.step(id: id)?.number }
            out +=
                "<li>\(Escape.html(sentence.text))" + (number.map { " <small>(step \($0))</small>" } ?? "") + "</li>\n"
        }
        return out + "</ul>\n</section>\n"
    }

    /// The checks' comparisons, one table per group, each side under its own name.
    static func comparisons(_ document: FindingsDocument) -> String {
        let tables = document.comparisonTables
        guard !tables.isEmpty else { return "" }
        var out = "<section id=\"comparisons\">\n<h2>Comparisons</h2>\n"
        for table in tables {
            if let group = table.group { out += "<h3>\(Escape.html(group))</h3>\n" }
            out +=
                "<table>\n<thead><tr><th>Measure</th><th>Kind</th><th>From</th><th>To</th><th>Change</th></tr></thead>\n<tbody>\n"
            for row in table.rows {
                out += "<tr><td>\(Escape.html(row.label))</td><td>\(row.kind.word)</td>"
                out +=
                    "<td class=\"num\">\(Escape.html(row.from.text)) <span class=\"muted\">(\(Escape.html(row.from.label)))</span></td>"
                out +=
                    "<td class=\"num\">\(Escape.html(row.to.text)) <span class=\"muted\">(\(Escape.html(row.to.label)))</span></td>"
                out += "<td class=\"num\">\(Escape.html(row.change ?? "\(row.from.text) → \(row.to.text)"))</td></tr>\n"
            }
            out += "</tbody>\n</table>\n"
        }
        return out + "</section>\n"
    }

    static func steps(_ document: FindingsDocument) -> String {
        var out = "<section id=\"steps\">\n<h2>Steps</h2>\n<table>\n<thead><tr><th>#</th><th>What I inspect</th>"
        out += "<th>What it tells me</th><th>Result</th><th>Status</th></tr></thead>\n<tbody>\n"
        for step in document.steps {
            var result = Escape.html(document.result(of: step))
            if result.isEmpty, step.status != .unanswered, let collect = step.guidance?.collect {
                result = "<em>collect:</em> " + Escape.html(collect)
            }
            var status = Self.status(step)
            if !step.findings.isEmpty || !step.failures.isEmpty {
                status += " <a href=\"#step-\(step.number)-findings\">findings</a>"
            }
            out +=
                "<tr id=\"step-\(step.number)\"><td class=\"num\">\(step.number)</td><td>\(Escape.html(step.inspects.isEmpty ? step.title : step.inspects))</td>"
            out += "<td>\(Escape.html(step.tells))</td><td>\(result)</td><td>\(status)</td></tr>\n"
        }
        return out + "</tbody>\n</table>\n</section>\n"
    }

    /// The findings step by step, each step's most severe first (the checks that could not run before them).
    static func findings(_ document: FindingsDocument, options: ReportOptions) -> String {
        guard !document.findings.isEmpty || !document.failures.isEmpty else { return "" }
        var out = "<section id=\"findings\">\n<h2>Findings</h2>\n"
        for step in document.steps where !step.findings.isEmpty || !step.failures.isEmpty {
            out += "<h3 id=\"step-\(step.number)-findings\"><a href=\"#step-\(step.number)\">\(step.number)</a> "
            out += Escape.html(step.title) + "</h3>\n<ol>\n"
            for failure in step.failures {
                out +=
                    "<li><span class=\"sev sev-critical\">error</span> Check <code>\(Escape.html(failure.check))</code> "
                out += "could not run: \(Escape.html(failure.message))</li>\n"
            }
            // Most severe first; findings of one severity keep the checks' order.
            let ordered = step.findings.enumerated().sorted {
                $0.element.severity != $1.element.severity
                    ? $0.element.severity > $1.element.severity : $0.offset < $1.offset
            }
            for finding in ordered.map(\.element) {
                let severity = finding.severity.rawValue
                out +=
                    "<li><span class=\"sev sev-\(severity)\">\(severity)</span> <strong>\(Escape.html(finding.title))</strong>"
                out += " <code class=\"muted\">\(Escape.html(finding.code))</code>"
                out += "<p>\(Escape.html(finding.detail))</p>"
                for evidence in finding.evidence {
                    out += "<span class=\"muted\">evidence:</span> <code>\(Escape.html(evidence.reference))</code><br>"
                }
                if let signature = finding.signature {
                    out += "<span class=\"muted\">signature:</span> <code>\(Escape.html(signature))</code><br>"
                }
                if let next = finding.next {
                    out +=
                        "<span class=\"muted\">next:</span> "
                        + Escape.html(document.phrase(next, from: finding.step, options: options))
                }
                out += "</li>\n"
            }
            out += "</ol>\n"
        }
        return out + "</section>\n"
    }

    static func artifacts(_ document: FindingsDocument) -> String {
        guard !document.artifacts.isEmpty else { return "" }
        var out =
            "<section id=\"artifacts\">\n<details>\n<summary>Artifacts (\(document.artifacts.count))</summary>\n<table>\n"
        out += "<thead><tr><th>Status</th><th>Kind</th><th>Source</th><th>sha256</th></tr></thead>\n<tbody>\n"
        for artifact in document.artifacts {
            var status = artifact.status.rawValue
            if !artifact.diagnostics.isEmpty { status += ": " + artifact.diagnostics.joined(separator: "; ") }
            out += "<tr><td>\(Escape.html(status))</td><td>\(Escape.html(artifact.kind?.rawValue ?? "—"))</td>"
            out += "<td><code>\(Escape.html(artifact.source))</code></td>"
            out += "<td><code>\(Escape.html(String((artifact.sha256 ?? "").prefix(12))))</code></td></tr>\n"
        }
        return out + "</tbody>\n</table>\n</details>\n</section>\n"
    }
}

/// The inline SVG charts: one per series the checks gave, drawn as the series says (bars or a line with
/// its fitted line), labelled with the data's own names.
enum Charts {
    static func all(_ document: FindingsDocument) -> [String] {
        document.drawnSeries.compactMap { series in
            guard !series.points.isEmpty else { return nil }
            return series.style == .line && series.points.count >= 2 ? line(series) : bars(series)
        }
    }

    static func number(_ value: Double) -> String { FactValue.oneDecimal(value).description }

    static func id(_ series: Series) -> String {
        "chart-" + String(series.id.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" })
    }

    static func style(_ role: Series.Role) -> String {
        switch role {
        case .plain: "bar"
        case .subject: "subject"
        case .after: "after"
        }
    }

    static func figure(_ series: Series, svg: String) -> String {
        "<figure>\n<h3>\(Escape.html(series.title))</h3>\n" + svg
            + "</svg>\n<figcaption>\(Escape.html(series.caption + " Axis: " + series.axis + "."))</figcaption>\n</figure>\n"
    }

    /// A horizontal bar chart.
    static func bars(_ series: Series) -> String {
        let id = id(series)
        let width = 680.0, labelWidth = 230.0, valueWidth = 80.0, row = 26.0, top = 8.0
        let height = top * 2 + row * Double(series.points.count)
        let largest = max(series.points.map(\.value).max() ?? 1, 1)
        let span = width - labelWidth - valueWidth
        var svg =
            "<svg id=\"\(id)\" role=\"img\" aria-labelledby=\"\(id)-title\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" "
            + "width=\"\(Int(width))\" height=\"\(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">\n"
            + "<title id=\"\(id)-title\">\(Escape.html(series.title))</title>\n"
        for (i, bar) in series.points.enumerated() {
            let y = top + Double(i) * row
            let length = max(1, max(bar.value, 0) / largest * span)
            svg +=
                "<text x=\"\(Int(labelWidth - 8))\" y=\"\(number(y + 17))\" text-anchor=\"end\">\(Escape.html(bar.label))</text>\n"
            svg +=
                "<rect class=\"\(style(bar.role))\" x=\"\(Int(labelWidth))\" y=\"\(number(y + 4))\" width=\"\(number(length))\" "
                + "height=\"\(Int(row - 8))\" rx=\"2\"><title>\(Escape.html(bar.label + ": " + bar.text))</title></rect>\n"
            svg +=
                "<text x=\"\(number(labelWidth + length + 6))\" y=\"\(number(y + 17))\">\(Escape.html(bar.text))</text>\n"
        }
        svg +=
            "<line class=\"axis\" x1=\"\(Int(labelWidth))\" y1=\"0\" x2=\"\(Int(labelWidth))\" y2=\"\(Int(height))\"/>\n"
        return figure(series, svg: svg)
    }

    /// Points in order joined by a line, with the fitted line dashed when the series has one.
    static func line(_ series: Series) -> String {
        let id = id(series)
        let points = series.points
        let n = Double(points.count)
        let width = 640.0, height = 260.0, left = 60.0, right = 20.0, top = 16.0, bottom = 36.0
        let fitted = series.fit.map { fit in (fit.intercept + fit.slope, fit.intercept + fit.slope * n) }
        let values = points.map(\.value) + (fitted.map { [$0.0, $0.1] } ?? [])
        let low = values.min()!, high = values.max()!
        let pad = max((high - low) * 0.15, 1)
        let yMin = max(0, low - pad), yMax = high + pad
        func x(_ index: Double) -> Double { left + (index - 1) / (n - 1) * (width - left - right) }
        func y(_ value: Double) -> Double { top + (yMax - value) / (yMax - yMin) * (height - top - bottom) }
        var svg =
            "<svg id=\"\(id)\" role=\"img\" aria-labelledby=\"\(id)-title\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" "
            + "width=\"\(Int(width))\" height=\"\(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">\n"
            + "<title id=\"\(id)-title\">\(Escape.html(series.title))</title>\n"
        svg +=
            "<line class=\"axis\" x1=\"\(Int(left))\" y1=\"\(number(height - bottom))\" x2=\"\(Int(width - right))\" y2=\"\(number(height - bottom))\"/>\n"
        svg +=
            "<line class=\"axis\" x1=\"\(Int(left))\" y1=\"\(Int(top))\" x2=\"\(Int(left))\" y2=\"\(number(height - bottom))\"/>\n"
        for value in [yMin, (yMin + yMax) / 2, yMax] {
            svg +=
                "<text class=\"muted\" x=\"\(Int(left - 6))\" y=\"\(number(y(value) + 4))\" text-anchor=\"end\">\(number(value))</text>\n"
        }
        for index in [0, points.count - 1] {
            svg +=
                "<text class=\"muted\" x=\"\(number(x(Double(index + 1))))\" y=\"\(number(height - bottom + 18))\" text-anchor=\"middle\">\(Escape.html(points[index].label))</text>\n"
        }
        if let fitted {
            svg +=
                "<line class=\"fit\" x1=\"\(number(x(1)))\" y1=\"\(number(y(fitted.0)))\" x2=\"\(number(x(n)))\" y2=\"\(number(y(fitted.1)))\"/>\n"
        }
        let path = points.enumerated().map { "\(number(x(Double($0.offset + 1)))),\(number(y($0.element.value)))" }
        svg += "<polyline class=\"axis\" fill=\"none\" points=\"\(path.joined(separator: " "))\"/>\n"
        for (index, point) in points.enumerated() {
            let cx = x(Double(index + 1)), cy = y(point.value)
            svg +=
                "<circle class=\"point\" cx=\"\(number(cx))\" cy=\"\(number(cy))\" r=\"5\"><title>\(Escape.html(point.label + ": " + point.text))</title></circle>\n"
            if index == 0 || index == points.count - 1 {
                svg +=
                    "<text x=\"\(number(cx + (index == 0 ? 8 : -8)))\" y=\"\(number(cy - 8))\" text-anchor=\"\(index == 0 ? "start" : "end")\">\(Escape.html(point.text))</text>\n"
            }
        }
        return figure(series, svg: svg)
    }
}
