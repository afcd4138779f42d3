/// How the subject of a run was chosen.
public enum SubjectOrigin: String, Sendable, Hashable, Codable, CaseIterable {
    /// Named by the person (`--app`, a triage answer).
    case given
    /// Every crash report among the artifacts names the same app.
    case crashReports = "crash-reports"
    /// Not chosen: nothing named one app.
    case none
}

/// The app under investigation and how to recognize its processes and reports.
public struct Subject: Sendable, Hashable, Codable {
    /// The name as given or as named by the crash reports.
    public var app: String?
    /// The bundle id, where an artifact or the person names it (`com.example.JustSend`).
    public var bundleID: String?
    /// How the subject was chosen.
    public var origin: SubjectOrigin

    public init(app: String?, bundleID: String? = nil, origin: SubjectOrigin) {
        self.app = app
        self.bundleID = bundleID
        self.origin = origin
    }

    /// The kernel cuts process names at 32 characters (`2*MAXCOMLEN+1`).
    public static let processNameLimit = 32

    /// Whether a process or report name denotes the subject.
    ///
    /// Matches the exact name, a bundle id (`com.example.JustSend` matches the process
    /// `JustSend` and the bundle id itself), or a name the kernel cut at 32 characters.
    /// Never a different, longer name: `JustSend` does not match `JustSendWidget`.
    public func matches(_ candidate: String?) -> Bool {
        guard let app, !app.isEmpty, let candidate, !candidate.isEmpty else { return false }
        if candidate == app { return true }
        // A bundle id given as --app: its last component is usually the executable name.
        if app.contains("."), let last = app.split(separator: ".").last, !last.isEmpty, candidate == last {
            return true
        }
        // A process name truncated to 32 characters by the kernel.
        if candidate.utf8.count == Self.processNameLimit, app.utf8.count > Self.processNameLimit,
            app.utf8.starts(with: candidate.utf8)
        {
            return true
        }
        return false
    }
}
