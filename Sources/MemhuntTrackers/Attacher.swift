import Foundation
import MemhuntCore
import MemhuntHTTP
import MemhuntReports

/// How `memhunt attach` (and `run --attach`) was asked to attach.
public struct AttachOptions: Sendable {
    /// Print each request (credentials masked) and send nothing.
    public var dryRun = false
    /// Replace device and user identifiers with placeholders (the default).
    public var redact = true
    /// Post a new comment even if this hunt already has one.
    public var forceNew = false
    /// Post nothing: read what the hunt has posted there (`TrackerOutcome.shown`).
    public var show = false

    public init(dryRun: Bool = false, redact: Bool = true, forceNew: Bool = false, show: Bool = false) {
        self.dryRun = dryRun
        self.redact = redact
        self.forceNew = forceNew
        self.show = show
    }
}

/// Builds the post from a findings document and hands it to the tracker a target names.
public enum Attacher {
    /// The post: the redacted document, the Markdown report (text without a `markdown` reporter) and the
    /// attachments (the Markdown and HTML reports; the findings JSON when no `html` reporter exists).
    public static func post(_ document: FindingsDocument, options: AttachOptions) throws(TrackerError) -> TrackerPost {
        let document = options.redact ? try Redactor().redact(document) : document
        let markdown = reporters.named("markdown")
        let report = (markdown ?? TextReporter.self).render(document, options: ReportOptions())
        let stem = "memhunt-\(document.run.id.prefix(8))"
        // The full reports: Markdown and HTML (the findings document as JSON when no HTML reporter exists).
        var attachments = [
            TrackerAttachment(
                filename: stem + (markdown == nil ? ".txt" : ".md"),
                contentType: markdown == nil ? "text/plain" : "text/markdown", bytes: Array(report.utf8))
        ]
        if let html = reporters.named("html") {
            attachments.append(
                TrackerAttachment(
                    filename: stem + ".html", contentType: "text/html",
                    bytes: Array(html.render(document, options: ReportOptions()).utf8)))
        } else {
            attachments.append(
                TrackerAttachment(
                    filename: stem + ".json", contentType: "application/json", bytes: Array(document.encoded().utf8)))
        }
        let count = document.findings.count
        let app = document.subject.app.map { " in \($0)" } ?? ""
        let title =
            "memhunt: \(document.playbook.title)\(app): \(Plural.count(count, "finding")) "
            + "(run \(document.run.id.prefix(8)))"
        return TrackerPost(
            document: document, title: title, report: report, reportIsMarkdown: markdown != nil,
            // The report is the text report already when no Markdown reporter exists.
            textReport: markdown == nil ? nil : TextReporter.render(document, options: ReportOptions()),
            attachments: attachments,
            forceNew: options.forceNew)
    }

    /// Attaches `document` to `target`. Attachments over the tracker's limit fail before anything is sent.
    public static func attach(
        _ document: FindingsDocument, to target: String, environment: [String: String], options: AttachOptions,
        configuration: HTTPConfiguration = HTTPConfiguration(), transport: HTTPTransport? = nil,
        print: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws(TrackerError) -> TrackerOutcome {
        let tracker = try MemhuntTrackers.tracker(for: target, environment: environment)
        var post = try post(document, options: options)
        post.showOnly = options.show
        let session = TrackerSession(
            tracker: tracker, configuration: configuration, dryRun: options.dryRun, transport: transport,
            print: print)
        defer { session.close() }
        if options.show {
            return try await tracker.attach(post, session: session)
        }
        if let limit = tracker.maxAttachmentBytes {
            for file in post.attachments where file.bytes.count > limit {
                throw session.failure(
                    "\(file.filename) is \(file.bytes.count) bytes, over the tracker's attachment limit of "
                        + "\(limit) bytes; nothing was posted")
            }
        } else {
            post.attachments = []
        }
        let outcome = try await tracker.attach(post, session: session)
        guard outcome.action == .alreadyPosted else { return outcome }
        // The post that stayed is another attach's, made at the same moment. One of this same run says what this
        // one said: the run is posted. One of another run does not, and with this post removed this run's
        // findings would be nowhere: they go into the one that stayed, as a run after it would put them
        // (`updated`, with what changed since it); `already posted` is said only when that post says the same.
        let again: TrackerOutcome
        do {
            again = try await tracker.attach(post, session: session)
        } catch {
            // Said with what came before it: this attach's own post was removed as a duplicate.
            var error = error
            error.message =
                "another attach of this hunt posted at the same moment, and its post stayed (\(outcome.location)); "
                + "this one's was removed, and then reading or editing the one that stayed failed: " + error.message
            throw error
        }
        return again.action == .unchanged ? outcome : again
    }
}
