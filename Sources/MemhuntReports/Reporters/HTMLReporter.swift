import MemhuntCore

/// One self-contained HTML file (no network, no scripts) with inline SVG charts: the app against the
/// largest processes of the jetsam record, baseline vs peak, the variants, body evaluations per view
/// before/after, growth per visit. Each chart is drawn only when the facts support it. Light and dark
/// mode follow `prefers-color-scheme`; print gets black on white.
public enum HTMLReporter: Reporter {
    public static let identifier = "html"
    public static let summary = "One self-contained HTML page with inline SVG charts (light, dark, print)."

    public static func render(_ document: FindingsDocument, options: ReportOptions) -> String {
        let title = document.playbook.title + (document.subject.app.map { ": " + $0 } ?? "")
        var body = "<header>\n<h1>\(Escape.html(title))</h1>\n"
        body += "<p class=\"meta\">playbook <code>\(Escape.html(document.playbook.id))</code> · memhunt "
        body += Escape.html(document.tool.version) + "</p>\n</header>\n"
        body += verdict(document)
        if let baseline = document.baseline {
            body += "<p class=\"muted\">\(baseline.suppressed) finding(s) known from the baseline "
            body += "<code>\(Escape.html(baseline.source))</code> left out.</p>\n"
        }
        let charts = Charts.all(document)
        if !charts.isEmpty {
            body += "<section class=\"charts\">\n<h2>Charts</h2>\n" + charts.joined() + "</section>\n"
        }
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
        @media print {
          :root { --bg: #ffffff; --fg: #000000; --muted: #333333; --line: #999999; --panel: #ffffff;
            --bar: #444444; --accent: #000000; --after: #888888; }
          main { max-width: none; padding: 0; } details { display: block; } details > * { display: block; }
          a { color: inherit; text-decoration: none; }
        }

        """

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

    static func steps(_ document: FindingsDocument) -> String {
        var out = "<section>\n<h2>Steps</h2>\n<table>\n<thead><tr><th>#</th><th>What I inspect</th>"
        out += "<th>What it tells me</th><th>Result</th><th>Status</th></tr></thead>\n<tbody>\n"
        for step in document.steps {
            var result = Escape.html(document.result(of: step))
            if result.isEmpty, step.status != .unanswered, let collect = step.guidance?.collect {
                result = "<em>collect:</em> " + Escape.html(collect)
            }
            let status: String
            switch step.status {
            case .finding:
                let severity = step.strongestFinding?.severity.rawValue ?? "finding"
                status = "<span class=\"sev sev-\(severity)\">\(severity)</span>"
            case .noArtifact: status = step.isGuidanceOnly ? "guidance" : "no artifact"
            default: status = step.status.rawValue
            }
            out +=
                "<tr><td class=\"num\">\(step.number)</td><td>\(Escape.html(step.inspects.isEmpty ? step.title : step.inspects))</td>"
            out += "<td>\(Escape.html(step.tells))</td><td>\(result)</td><td>\(status)</td></tr>\n"
        }
        return out + "</tbody>\n</table>\n</section>\n"
    }

    static func findings(_ document: FindingsDocument, options: ReportOptions) -> String {
        guard !document.findings.isEmpty || !document.failures.isEmpty else { return "" }
        var out = "<section>\n<h2>Findings</h2>\n<ol>\n"
        for step in document.steps {
            for failure in step.failures {
                out +=
                    "<li><span class=\"sev sev-critical\">error</span> Check <code>\(Escape.html(failure.check))</code> "
                out += "could not run (step \(step.number)): \(Escape.html(failure.message))</li>\n"
            }
        }
        for finding in document.findings {
            let severity = finding.severity.rawValue
            out +=
                "<li><span class=\"sev sev-\(severity)\">\(severity)</span> <strong>\(Escape.html(finding.title))</strong>"
            out += " <code class=\"muted\">\(Escape.html(finding.code))</code>"
            if let step = document.step(id: finding.step) {
                out += " <span class=\"muted\">· step \(step.number)</span>"
            }
            out += "<br>\(Escape.html(finding.detail))"
            for evidence in finding.evidence {
                out += "<br><span class=\"muted\">evidence:</span> <code>\(Escape.html(evidence.reference))</code>"
            }
            if let next = finding.next {
                out +=
                    "<br><span class=\"muted\">next:</span> "
                    + Escape.html(document.phrase(next, from: finding.step, options: options))
            }
            out += "</li>\n"
        }
        return out + "</ol>\n</section>\n"
    }

    static func artifacts(_ document: FindingsDocument) -> String {
        guard !document.artifacts.isEmpty else { return "" }
        var out = "<section>\n<details>\n<summary>Artifacts (\(document.artifacts.count))</summary>\n<table>\n"
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

/// The inline SVG charts, each a pure function of the document's facts.
enum Charts {
    static func all(_ document: FindingsDocument) -> [String] {
        [topProcesses(document), reproFootprint(document), variants(document), evaluations(document), growth(document)]
            .compactMap { $0 }
    }

    struct Bar {
        var label: String
        var value: Double
        var style: String = "bar"
        var text: String
    }

    static func number(_ value: Double) -> String { FactValue.oneDecimal(value).description }

    /// A horizontal bar chart.
    static func bars(_ id: String, title: String, caption: String, bars: [Bar]) -> String {
        let width = 680.0, labelWidth = 230.0, valueWidth = 80.0, row = 26.0, top = 8.0
        let height = top * 2 + row * Double(bars.count)
        let largest = max(bars.map(\.value).max() ?? 1, 1)
        let span = width - labelWidth - valueWidth
        var svg =
            "<svg id=\"\(id)\" role=\"img\" aria-labelledby=\"\(id)-title\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" "
            + "width=\"\(Int(width))\" height=\"\(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">\n"
            + "<title id=\"\(id)-title\">\(Escape.html(title))</title>\n"
        for (i, bar) in bars.enumerated() {
            let y = top + Double(i) * row
            let length = max(1, bar.value / largest * span)
            svg +=
                "<text x=\"\(Int(labelWidth - 8))\" y=\"\(number(y + 17))\" text-anchor=\"end\">\(Escape.html(bar.label))</text>\n"
            svg +=
                "<rect class=\"\(bar.style)\" x=\"\(Int(labelWidth))\" y=\"\(number(y + 4))\" width=\"\(number(length))\" "
                + "height=\"\(Int(row - 8))\" rx=\"2\"><title>\(Escape.html(bar.label + ": " + bar.text))</title></rect>\n"
            svg +=
                "<text x=\"\(number(labelWidth + length + 6))\" y=\"\(number(y + 17))\">\(Escape.html(bar.text))</text>\n"
        }
        svg +=
            "<line class=\"axis\" x1=\"\(Int(labelWidth))\" y1=\"0\" x2=\"\(Int(labelWidth))\" y2=\"\(Int(height))\"/>\n"
        return "<figure>\n<h3>\(Escape.html(title))</h3>\n" + svg
            + "</svg>\n<figcaption>\(Escape.html(caption))</figcaption>\n</figure>\n"
    }

    static func megabytes(_ value: Double) -> String { FactUnit.megabytes.format(.oneDecimal(value)) }

    static func topProcesses(_ document: FindingsDocument) -> String? {
        guard let list = document.facts["jetsam.topProcesses"]?.arrayValue, !list.isEmpty else { return nil }
        var bars: [Bar] = list.compactMap { entry in
            guard let object = entry.objectValue, let name = object["name"]?.stringValue,
                let peak = object["peakMB"]?.doubleValue
            else { return nil }
            let isSubject = document.subject.app != nil && document.subject.matches(name)
            return Bar(label: name, value: peak, style: isSubject ? "subject" : "bar", text: megabytes(peak))
        }
        if let app = document.subject.app, !bars.contains(where: { $0.style == "subject" }),
            let peak = document.number("jetsam.app.peakMB")
        {
            bars.append(Bar(label: app, value: peak, style: "subject", text: megabytes(peak)))
        }
        let rank = document.facts["jetsam.app.rank"].map { ", rank \($0)" } ?? ""
        let app = document.subject.app.map { "\($0) (highlighted\(rank)) against " } ?? ""
        return bars.bars(
            "chart-jetsam", title: "Lifetime peak: the largest processes of the jetsam record",
            caption: app + "the record's largest processes by lifetime peak (jetsam.topProcesses).")
    }

    static func reproFootprint(_ document: FindingsDocument) -> String? {
        guard let baseline = document.number("repro.baselineMB"), let peak = document.number("repro.peakMB") else {
            return nil
        }
        let label = document.facts["repro.label"]?.stringValue ?? "peak"
        let ratio = document.facts["repro.ratio"].map { " (×\($0))" } ?? ""
        return bars(
            "chart-repro", title: "Simulator reproduction: baseline vs peak footprint",
            caption: "repro.baselineMB → repro.peakMB\(ratio).",
            bars: [
                Bar(label: "baseline", value: baseline, text: megabytes(baseline)),
                Bar(label: label, value: peak, style: "subject", text: megabytes(peak)),
            ])
    }

    static func variants(_ document: FindingsDocument) -> String? {
        guard let largest = document.number("variation.maxMB"), let smallest = document.number("variation.minMB")
        else { return nil }
        let names = document.facts["variation.variants"]?.arrayValue?.map(\.description) ?? []
        let ratio = document.facts["variation.ratio"].map { " The ratio is ×\($0)." } ?? ""
        return bars(
            "chart-variants", title: "Structure variants side by side, same input",
            caption: "Variants compared: \(names.isEmpty ? "—" : names.joined(separator: ", ")).\(ratio) "
                + "The facts hold the largest and smallest footprints (variation.maxMB, variation.minMB).",
            bars: [
                Bar(label: "largest variant", value: largest, style: "subject", text: megabytes(largest)),
                Bar(label: "smallest variant", value: smallest, style: "after", text: megabytes(smallest)),
            ])
    }

    static func evaluations(_ document: FindingsDocument) -> String? {
        let pairs = document.changeLogPairs
        var rows: [Bar] = []
        var caption = ""
        if !pairs.isEmpty {
            for pair in pairs {
                for view in pair.views {
                    rows.append(
                        Bar(
                            label: "\(view.view) before", value: Double(view.before), style: "subject",
                            text: "+\(view.before)"))
                    rows.append(
                        Bar(
                            label: "\(view.view) after", value: Double(view.after), style: "after",
                            text: "+\(view.after)"))
                }
            }
            caption =
                pairs.map { "\($0.before) → \($0.after)" }.joined(separator: "; ") + ": body evaluations per view."
        } else {
            for (view, counts) in document.evaluationsByView {
                for (log, count) in counts {
                    rows.append(Bar(label: "\(view) (\(log))", value: Double(count), text: "+\(count)"))
                }
            }
            caption = "Body evaluations per view and change log."
        }
        guard !rows.isEmpty else { return nil }
        let title = pairs.isEmpty ? "Body evaluations per view" : "Body evaluations per view, before and after"
        return bars("chart-evaluations", title: title, caption: caption, bars: rows)
    }

    /// The first and last readings and the fitted slope; the facts hold no intercept, so the line is
    /// drawn through the midpoint of the first and last readings with the fitted slope.
    static func growth(_ document: FindingsDocument) -> String? {
        guard let visits = document.number("growth.visits"), visits >= 2, let first = document.number("growth.firstMB"),
            let last = document.number("growth.lastMB"), let slope = document.number("growth.slopeMB")
        else { return nil }
        let width = 640.0, height = 260.0, left = 60.0, right = 20.0, top = 16.0, bottom = 36.0
        let midX = (1 + visits) / 2, midY = (first + last) / 2
        let fitFirst = midY + slope * (1 - midX), fitLast = midY + slope * (visits - midX)
        let low = min(first, last, fitFirst, fitLast), high = max(first, last, fitFirst, fitLast)
        let pad = max((high - low) * 0.15, 1)
        let yMin = max(0, low - pad), yMax = high + pad
        func x(_ visit: Double) -> Double { left + (visit - 1) / (visits - 1) * (width - left - right) }
        func y(_ mb: Double) -> Double { top + (yMax - mb) / (yMax - yMin) * (height - top - bottom) }
        let r2 = document.facts["growth.r2"].map { ", R² \($0)" } ?? ""
        let title = "Footprint per visit with its fitted line"
        var svg =
            "<svg id=\"chart-growth\" role=\"img\" aria-labelledby=\"chart-growth-title\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" "
            + "width=\"\(Int(width))\" height=\"\(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\">\n"
            + "<title id=\"chart-growth-title\">\(title)</title>\n"
        svg +=
            "<line class=\"axis\" x1=\"\(Int(left))\" y1=\"\(number(height - bottom))\" x2=\"\(Int(width - right))\" y2=\"\(number(height - bottom))\"/>\n"
        svg +=
            "<line class=\"axis\" x1=\"\(Int(left))\" y1=\"\(Int(top))\" x2=\"\(Int(left))\" y2=\"\(number(height - bottom))\"/>\n"
        for mb in [yMin, (yMin + yMax) / 2, yMax] {
            svg +=
                "<text class=\"muted\" x=\"\(Int(left - 6))\" y=\"\(number(y(mb) + 4))\" text-anchor=\"end\">\(number(mb))</text>\n"
        }
        for visit in [1, visits] {
            svg +=
                "<text class=\"muted\" x=\"\(number(x(visit)))\" y=\"\(number(height - bottom + 18))\" text-anchor=\"middle\">visit \(Int(visit))</text>\n"
        }
        svg +=
            "<line class=\"fit\" x1=\"\(number(x(1)))\" y1=\"\(number(y(fitFirst)))\" x2=\"\(number(x(visits)))\" y2=\"\(number(y(fitLast)))\"/>\n"
        for (visit, mb) in [(1.0, first), (visits, last)] {
            svg +=
                "<circle class=\"point\" cx=\"\(number(x(visit)))\" cy=\"\(number(y(mb)))\" r=\"5\"><title>visit \(Int(visit)): \(megabytes(mb))</title></circle>\n"
            svg +=
                "<text x=\"\(number(x(visit) + (visit == 1 ? 8 : -8)))\" y=\"\(number(y(mb) - 8))\" text-anchor=\"\(visit == 1 ? "start" : "end")\">\(megabytes(mb))</text>\n"
        }
        return "<figure>\n<h3>\(title)</h3>\n" + svg + "</svg>\n<figcaption>"
            + Escape.html(
                "\(Int(visits)) visits, \(megabytes(first)) → \(megabytes(last)); fitted slope +\(megabytes(slope)) per visit\(r2). "
                    + "The points are the first and last readings; the dashed line has the fitted slope, drawn through "
                    + "their midpoint (the facts hold no intercept).")
            + "</figcaption>\n</figure>\n"
    }
}

extension Array where Element == Charts.Bar {
    fileprivate func bars(_ id: String, title: String, caption: String) -> String? {
        isEmpty ? nil : Charts.bars(id, title: title, caption: caption, bars: self)
    }
}
