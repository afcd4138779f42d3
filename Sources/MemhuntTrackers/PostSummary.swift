import Foundation
import MemhuntCore
import MemhuntReports

/// A post for a tracker whose markup is not Markdown, written in that markup: Textile (Redmine), Jira wiki
/// markup (REST API v2) or Atlassian Document Format (v3). A heading with the title, what changed since the
/// last run, a table of the findings (severity, code, title and signature: the finding's name across runs), each finding's detail under its own heading
/// (a panel in Jira), and where the full report is. Too long a post folds the details from the least severe,
/// then the table's rows.
struct PostSummary {
    var title: String
    var changes: String?
    /// The ledger's one line, when the run judged one.
    var ledger: String?
    /// The findings, most severe first (in step order within a severity).
    var findings: [Finding]
    /// The attached files' names, when the tracker takes files.
    var files: [String]

    init(_ post: TrackerPost, attached: Bool) {
        title = post.title
        changes = post.changes
        ledger = post.document.ledger.map(LedgerSummary.oneLine)
        findings = post.document.findings.enumerated()
            .sorted {
                $0.element.severity != $1.element.severity
                    ? $0.element.severity > $1.element.severity : $0.offset < $1.offset
            }
            .map(\.element)
            .map { finding in
                // A document written before signatures, or built by hand, gets the signature a run gives.
                var signed = finding
                signed.signature =
                    finding.signature
                    ?? FindingSignature.of(finding, playbook: post.document.playbook.id, app: post.document.subject.app)
                return signed
            }
        files = attached ? post.attachments.map(\.filename) : []
    }

    /// The longest rendering within `limit`: all details and rows, then fewer details, then fewer rows.
    static func fitted<Body>(
        _ count: Int, limit: Int, size: (Body) -> Int, render: (_ details: Int, _ rows: Int) -> Body
    ) -> Body {
        var details = count
        var rows = count
        while true {
            let body = render(details, rows)
            if size(body) <= limit || rows == 0 { return body }
            if details > 0 { details -= 1 } else { rows -= 1 }
        }
    }

    /// `… N less severe finding(s) folded.`, when rows were folded.
    func folded(_ rows: Int) -> String? {
        rows < findings.count ? "… \(findings.count - rows) less severe finding(s) folded." : nil
    }

    // MARK: Text markups: Textile (Redmine) and Jira wiki markup (REST API v2)

    /// How a text markup writes each part of the post.
    struct TextSyntax: Sendable {
        /// Its markup characters made text.
        var escape: @Sendable (String) -> String
        var heading: String
        var tableHead: String
        var row: @Sendable (Finding) -> String
        /// A finding's detail under its heading (`code: title`).
        var detail: @Sendable (Finding) -> String
        /// A link to an attached file.
        var file: @Sendable (String) -> String
        var marker: @Sendable (String) -> String
    }

    /// Textile: the marker stays an HTML comment, which Redmine leaves out of the page.
    static let textile = TextSyntax(
        escape: textileText, heading: "h2. ", tableHead: "|_. Severity |_. Code |_. Finding |_. Signature |",
        row: { finding in
            let severity = finding.severity >= .warning ? "*\(finding.severity.rawValue)*" : finding.severity.rawValue
            let signature = finding.signature.map { "@\($0)@" } ?? ""
            return "| \(severity) | @\(finding.code)@ | \(textileText(finding.title)) | \(signature) |"
        },
        detail: { finding in
            let paragraphs = finding.detail.components(separatedBy: "\n\n").map(textileText)
                .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            return (["h3. " + textileText("\(finding.code): \(finding.title)")] + paragraphs).joined(separator: "\n\n")
        },
        // `attachment:NAME` links to the issue's file of that name.
        file: { "attachment:\($0)" }, marker: { $0 })

    /// Jira wiki markup: the severities colored, each detail in a panel, the marker in grey.
    static let wiki = TextSyntax(
        escape: wikiText, heading: "h2. ", tableHead: "||Severity||Code||Finding||Signature||",
        row: { finding in
            let severity = "{color:\(style(finding.severity).hex)}*\(finding.severity.rawValue)*{color}"
            // An empty cell keeps its place as a space: `||` would be read as a header cell.
            let signature = finding.signature.map { "{{\($0)}}" } ?? " "
            return "|\(severity)|{{\(finding.code)}}|\(wikiText(finding.title))|\(signature)|"
        },
        detail: { finding in
            // A macro's parameters end at `|` and `}`, and `=` separates a name from its value.
            let heading = wikiText(
                "\(finding.code): \(finding.title)".replacingOccurrences(of: "|", with: "/")
                    .replacingOccurrences(of: "=", with: "-").replacingOccurrences(of: "}", with: ")"))
            return "{panel:title=\(heading)|borderColor=\(style(finding.severity).hex)}\n" + wikiText(finding.detail)
                + "\n{panel}"
        },
        // `[^NAME]` links to the issue's attachment of that name.
        file: { "[^\($0)]" }, marker: { "{color:#97a0af}\($0){color}" })

    /// The post in a text markup, within `limit` characters, ending with `marker`.
    func text(_ syntax: TextSyntax, limit: Int, marker: String) -> String {
        Self.fitted(findings.count, limit: limit, size: \.count) { details, rows in
            var blocks = [syntax.heading + syntax.escape(title)]
            // The change line names only runs, codes (letters, digits, `-`, `.`) and counts (`×2`): written as it reads.
            if let changes { blocks.append(changes) }
            if let ledger { blocks.append(syntax.escape(ledger)) }
            if rows > 0 {
                blocks.append(([syntax.tableHead] + findings.prefix(rows).map(syntax.row)).joined(separator: "\n"))
            }
            if let more = folded(rows) { blocks.append(more) }
            blocks += findings.prefix(details).map(syntax.detail)
            if !files.isEmpty {
                blocks.append("The full report is attached: " + files.map(syntax.file).joined(separator: ", ") + ".")
            }
            blocks.append(syntax.marker(marker))
            return blocks.joined(separator: "\n\n")
        }
    }

    /// Text that Textile shows as written: its markup characters become character references (Redmine keeps
    /// them as they are), and a line that would start a block (`h1.`, `bq.`, `p.`) starts with a reference.
    static func textileText(_ text: String) -> String {
        let special: Set<Character> = [
            "|", "*", "_", "@", "+", "-", "^", "~", "%", "[", "]", "{", "}", "!", "#", "=", "<", ">", "&", "\"", "'",
            "(", ")",
        ]
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var out = ""
            for character in line {
                if special.contains(character), let scalar = character.unicodeScalars.first {
                    out += "&#\(scalar.value);"
                } else {
                    out.append(character)
                }
            }
            if let first = out.first, first.isLetter, out.prefix(12).contains("."),
                out.range(of: #"^(h[1-6]|bq|bc|p|pre|fn[0-9]+|notextile|table)\."#, options: .regularExpression) != nil,
                let scalar = first.unicodeScalars.first
            {
                out = "&#\(scalar.value);" + out.dropFirst()
            }
            return out
        }.joined(separator: "\n")
    }

    /// Text that Jira's wiki renderer shows as written: its markup characters escaped with a backslash.
    static func wikiText(_ text: String) -> String {
        let special: Set<Character> = ["|", "*", "_", "+", "^", "~", "[", "]", "{", "}", "!", "#"]
        var out = ""
        for character in text {
            if special.contains(character) { out.append("\\") }
            out.append(character == "\\" ? "/" : character)
        }
        return out
    }

    // MARK: Atlassian Document Format (REST API v3)

    /// An ADF document, within `limit` characters of JSON, ending with `marker` in grey: the severities as
    /// status lozenges in the table, each detail in a panel of its severity.
    func adf(limit: Int, marker: String) -> [String: Any] {
        Self.fitted(findings.count, limit: limit, size: Self.jsonSize) { details, rows in
            var content: [[String: Any]] = [Self.heading(2, [Self.text(title)])]
            if let changes { content.append(Self.paragraph([Self.text(changes)])) }
            if let ledger { content.append(Self.paragraph([Self.text(ledger)])) }
            if rows > 0 {
                func cell(_ type: String, _ inline: [String: Any]?) -> [String: Any] {
                    ["type": type, "content": [Self.paragraph(inline.map { [$0] } ?? [])]]
                }
                var table: [[String: Any]] = [
                    [
                        "type": "tableRow",
                        "content": ["Severity", "Code", "Finding", "Signature"].map {
                            cell("tableHeader", Self.text($0, marks: [["type": "strong"]]))
                        },
                    ]
                ]
                for finding in findings.prefix(rows) {
                    table.append([
                        "type": "tableRow",
                        "content": [
                            cell(
                                "tableCell",
                                [
                                    "type": "status",
                                    "attrs": [
                                        "text": finding.severity.rawValue.uppercased(),
                                        "color": Self.style(finding.severity).status,
                                    ],
                                ]),
                            cell("tableCell", Self.text(finding.code, marks: [["type": "code"]])),
                            cell("tableCell", finding.title.isEmpty ? nil : Self.text(finding.title)),
                            cell("tableCell", finding.signature.map { Self.text($0, marks: [["type": "code"]]) }),
                        ],
                    ])
                }
                content.append([
                    "type": "table", "attrs": ["isNumberColumnEnabled": false, "layout": "default"], "content": table,
                ])
            }
            if let more = folded(rows) { content.append(Self.paragraph([Self.text(more)])) }
            for finding in findings.prefix(details) {
                var inside: [[String: Any]] = [Self.heading(4, [Self.text("\(finding.code): \(finding.title)")])]
                let detail = Self.lines(finding.detail)
                if !detail.isEmpty { inside.append(Self.paragraph(detail)) }
                content.append([
                    "type": "panel", "attrs": ["panelType": Self.style(finding.severity).panel], "content": inside,
                ])
            }
            if !files.isEmpty {
                content.append(
                    Self.paragraph([Self.text("The full report is attached: " + files.joined(separator: ", ") + ".")]))
            }
            content.append(
                Self.paragraph([Self.text(marker, marks: [["type": "textColor", "attrs": ["color": "#97a0af"]]])]))
            return ["type": "doc", "version": 1, "content": content]
        }
    }

    static func text(_ text: String, marks: [[String: Any]] = []) -> [String: Any] {
        marks.isEmpty ? ["type": "text", "text": text] : ["type": "text", "text": text, "marks": marks]
    }

    static func paragraph(_ inline: [[String: Any]]) -> [String: Any] { ["type": "paragraph", "content": inline] }

    static func heading(_ level: Int, _ inline: [[String: Any]]) -> [String: Any] {
        ["type": "heading", "attrs": ["level": level], "content": inline]
    }

    /// Text lines joined by hard breaks (ADF's text nodes are never empty).
    static func lines(_ text: String) -> [[String: Any]] {
        var inline: [[String: Any]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if !inline.isEmpty { inline.append(["type": "hardBreak"]) }
            inline.append(Self.text(String(line)))
        }
        return inline
    }

    /// How the markups mark a severity: a color (wiki markup), a status lozenge's color and a panel's type (ADF).
    static func style(_ severity: Severity) -> (hex: String, status: String, panel: String) {
        switch severity {
        case .critical: ("#de350b", "red", "error")
        case .warning: ("#ff991f", "yellow", "warning")
        case .notice: ("#0065ff", "blue", "note")
        case .info: ("#6b778c", "neutral", "info")
        }
    }

    static func jsonSize(_ object: [String: Any]) -> Int {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))?.count ?? Int.max
    }

    /// The codes of a posted summary's findings table (ADF or wiki markup), in table order.
    static func codes(in body: Any?) -> [String] {
        switch body {
        case let text as String:
            return text.split(separator: "\n").compactMap { line in
                guard line.hasPrefix("|"), !line.hasPrefix("||") else { return nil }
                let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                guard cells.count > 2, cells[2].hasPrefix("{{"), cells[2].hasSuffix("}}") else { return nil }
                return String(cells[2].dropFirst(2).dropLast(2))
            }
        case let node as [String: Any]:
            let content = node["content"] as? [[String: Any]] ?? []
            guard let table = content.first(where: { $0["type"] as? String == "table" }) else { return [] }
            let rows = (table["content"] as? [[String: Any]] ?? []).dropFirst()
            return rows.compactMap { row in
                let cells = row["content"] as? [[String: Any]] ?? []
                guard cells.count > 1 else { return nil }
                let code = JiraTracker.flatten(cells[1]).trimmingCharacters(in: .whitespacesAndNewlines)
                return code.isEmpty ? nil : code
            }
        default:
            return []
        }
    }
}
