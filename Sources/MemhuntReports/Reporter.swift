import MemhuntCore

/// How the front end wants a report: colors, and its own words for the decisions a person makes.
public struct ReportOptions: Sendable, Hashable {
    /// ANSI colors (only for a terminal).
    public var colored: Bool
    /// The front end's way to make each decision (`--app NAME`); without one the sentence stands alone.
    public var decisions: [Decision: String]
    /// The columns every line of the text report fits in (a terminal's, or `COLUMNS`); nil: a file or a
    /// pipe, where only paragraphs wrap, at 100 columns, and a title or a fact stays on its line for grep.
    public var width: Int?
    /// How much the text report says: the verdict and the summary only, the walk, or the walk with every
    /// value whole.
    public var detail: Detail

    /// How much the text report says (`--quiet`, the default, `-v`).
    public enum Detail: Sendable, Hashable {
        /// The verdict and the summary line.
        case quiet
        /// The walk, long lists and maps counted.
        case normal
        /// The walk, every value whole.
        case verbose
    }

    public init(
        colored: Bool = false, decisions: [Decision: String] = [:], width: Int? = nil, detail: Detail = .normal
    ) {
        self.colored = colored
        self.decisions = decisions
        self.width = width
        self.detail = detail
    }
}

/// One output format of the findings document: a pure function of the document.
///
/// Adding a format is one file with a type conforming to this protocol and one line in `reporters`.
public protocol Reporter: Sendable {
    /// The `--format` value.
    static var identifier: String { get }
    /// One line for help texts and listings.
    static var summary: String { get }
    /// The document in this format.
    static func render(_ document: FindingsDocument, options: ReportOptions) -> String
}

/// Every report format, sorted by identifier. A test guards the order.
public let reporters: [any Reporter.Type] = [
    GitHubReporter.self,
    HTMLReporter.self,
    JSONReporter.self,
    JUnitReporter.self,
    MarkdownReporter.self,
    SARIFReporter.self,
    TextReporter.self,
]

extension Array where Element == any Reporter.Type {
    /// The reporter with this `--format` value.
    public func named(_ identifier: String) -> (any Reporter.Type)? { first { $0.identifier == identifier } }

    /// Every `--format` value, in registry order.
    public var identifiers: [String] { map { $0.identifier } }
}

/// How renderers phrase a finding's next action in the playbook at hand.
extension FindingsDocument {
    /// The sentence, with the step it points to (number and title) and the front end's way to decide.
    public func phrase(_ next: NextAction, from stepID: String, options: ReportOptions) -> String {
        func pointing(to step: StepRecord?) -> String {
            guard let step, step.id != stepID else { return next.text }
            let reference = " (step \(step.number), \(step.title))"
            guard next.text.hasSuffix(".") else { return next.text + reference }
            return next.text.dropLast() + reference + "."
        }
        switch next {
        case .step(let id, _): return pointing(to: self.step(id: id))
        case .collect(let kind, _): return pointing(to: self.step(reading: kind))
        case .change(let text), .mitigate(let text): return text
        case .decide(let decision, let text):
            guard let how = options.decisions[decision] else { return text }
            return text + " " + how
        }
    }
}
