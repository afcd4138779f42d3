import MemhuntCore

/// The findings document itself: `memhunt.findings/3`, pretty-printed with sorted keys.
public enum JSONReporter: Reporter {
    public static let identifier = "json"
    public static let summary = "The findings document (memhunt.findings/3), for tools and for `memhunt report`."

    public static func render(_ document: FindingsDocument, options: ReportOptions) -> String { document.encoded() }
}
