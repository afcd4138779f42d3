import Foundation
import MemhuntHTTP

/// Exactly once across processes and machines. A look before posting cannot see a post that another attach of
/// the same run makes at the same moment, so each attach posts its own (its marker carries its nonce), then
/// lists the run's posts: the earliest (lowest id) stays, and a later one is removed by the attach that made
/// it. Only the attach whose post stays adds the files; files are issue-wide, so one that finds them there
/// (by name) adds nothing, and a copy it added beside an earlier one of the same name it removes again.
///
/// A crash between posting and reconciling leaves that post: the earliest is the run's post anyway (a later
/// attach sees it and adds any files it lacks); a later one stays as a duplicate, as nothing tells another
/// process that its maker is gone.
enum Reconcile {
    /// How long an attach waits for its own post to show in the tracker's list (a list that lags)...
    static let visibility: TimeInterval = 20
    /// ...and how many lists it reads at least: a tracker (or a machine) slow enough to answer a list in
    /// seconds still gets as many looks as a quick one (a clean clone's CI, ten attaches on a starved pool,
    /// once ran out of the 20 s after two or three lists).
    static let minimumLists = 8
    /// How long after the run's post its maker may still be adding the files: an attach that finds the post
    /// without them waits until the post is this old before it adds them itself.
    static let settle: TimeInterval = 30

    /// One of the run's posts as the tracker lists it.
    struct Entry {
        var id: Int
        var text: String
        var created: Date? = nil
        /// Where it can be read, where the tracker's list says.
        var url: String? = nil
        /// The codes of its findings table, where the tracker reads them apart from its text (Jira's tables).
        var codes: [String]? = nil
    }

    /// A file on the issue.
    struct File {
        var id: Int
        var filename: String
        /// When the file was added to the issue, where the tracker tells (Redmine: the id of the journal that
        /// added it): an upload's id is given when it is uploaded, and a file uploaded first may be added last.
        var added: Int? = nil
    }

    /// Lists until this attach's post shows (bounded by `visibility`); returns it and the run's earliest post.
    static func standing(
        _ post: TrackerPost, _ session: TrackerSession, list: () async throws(TrackerError) -> [Entry]
    ) async throws(TrackerError) -> (mine: Entry, first: Entry) {
        let start = Date()
        var delay = 0.1
        var lists = 0
        while true {
            let entries = try await list()
            lists += 1
            if let mine = entries.first(where: { post.isMine($0.text) }),
                let first = entries.min(by: { $0.id < $1.id })
            {
                return (mine, first)
            }
            if lists >= minimumLists, Date().timeIntervalSince(start) >= visibility {
                throw session.failure(
                    "posted, but the post did not show in the tracker's list within \(Int(visibility)) s "
                        + "(\(lists) lists): not checked for a duplicate from another attach of this run")
            }
            try? await Task.sleep(for: .seconds(delay))
            delay = min(2, delay * 2)
        }
    }

    /// Waits (reading `files` again) while the run's post is younger than `settle` and some of `names` are not
    /// on the issue: the attach that posted it may be adding them. `serverNow` is the server's clock when the
    /// post was read (its `Date` header), else this machine's is used. Returns the files last read, nil when
    /// it did not wait.
    static func awaitFiles(
        _ names: [String], postedAt created: Date?, serverNow: Date?, _ session: TrackerSession,
        files: () async throws(TrackerError) -> [File]
    ) async throws(TrackerError) -> [File]? {
        guard !session.dryRun, let created else { return nil }
        let start = Date()
        let skew = (serverNow ?? start).timeIntervalSince(start)
        var last: [File]? = nil
        while Date().addingTimeInterval(skew).timeIntervalSince(created) < settle,
            Date().timeIntervalSince(start) < settle
        {
            try? await Task.sleep(for: .seconds(0.5))
            let read = try await files()
            last = read
            if names.allSatisfy({ name in read.contains { $0.filename == name } }) { break }
        }
        return last
    }

    /// The files this attach added (`mine`, by id) that have an earlier copy of the same name: added earlier
    /// where the tracker tells when, else of a lower id. Two attaches that each see both copies agree on which
    /// stays; one that saw only its own was the first to add it.
    static func duplicates(mine: Set<Int>, in files: [File]) -> [File] {
        func earlier(_ a: File, _ b: File) -> Bool {
            guard let one = a.added, let other = b.added, one != other else { return a.id < b.id }
            return one < other
        }
        return files.filter { file in
            mine.contains(file.id) && files.contains { $0.filename == file.filename && earlier($0, file) }
        }
    }

    /// A tracker's time stamp: ISO 8601 with or without fractions (`2026-05-01T10:00:00Z`,
    /// `2026-05-01T10:00:00.000+0000`).
    static func date(_ text: Any?) -> Date? {
        guard let text = text as? String else { return nil }
        let iso = ISO8601DateFormatter()
        if let date = iso.date(from: text) { return date }
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = iso.date(from: text) { return date }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        for format in ["yyyy-MM-dd'T'HH:mm:ss.SSSZ", "yyyy-MM-dd'T'HH:mm:ssZ"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    /// The server's clock from an answer's `Date` header, when it sends one.
    static func serverDate(_ headers: HTTPHeaders) -> Date? {
        guard let value = headers["Date"] else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value)
    }
}
