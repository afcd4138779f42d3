import Foundation

/// The one way a tracker keeps the hunt's post, written here once and configured by each tracker. The hunt's
/// posts are listed; with one there (and no `--new`), the earliest is compared with this run's and edited, or
/// left as it is, and only the files it lacks are added. Else this run's post is made and, where the tracker's
/// posts can be removed, reconciled with another attach of the same run (`Reconcile`): the earliest stays, and
/// a later one is removed by the attach that made it; the attach whose post stays adds the files.
///
/// The earliest, never the latest: a later post may be a duplicate that its maker is removing at this moment
/// (and Redmine on SQLite gives a removed journal's id to the next journal made).
struct Upsert {
    /// The hunt's posts as the tracker lists them (comments, notes, or issues by their description).
    var list: () async throws(TrackerError) -> [Reconcile.Entry]
    /// The post's text as the tracker will hold it (what a listed post's text is compared with); `earlier` is the
    /// post it would replace, if any.
    var body: (_ post: TrackerPost, _ earlier: Reconcile.Entry?) async throws(TrackerError) -> String
    /// Makes the post (sending `body`, or the tracker's own form of `post`); returns where it can be read, when
    /// the answer says.
    var create: (_ post: TrackerPost, _ body: String) async throws(TrackerError) -> String?
    /// Replaces `earlier`'s text with `body` (its mark kept), with `files` where they go with the post
    /// (`Files.withThePost`).
    var edit:
        (_ post: TrackerPost, _ earlier: Reconcile.Entry, _ body: String, _ files: [TrackerAttachment])
            async throws(TrackerError) -> Void
    /// Removes this attach's post, a later duplicate of the hunt's earliest; nil where posts are not removed (an
    /// issue), and nothing is reconciled.
    var remove: ((_ id: Int) async throws(TrackerError) -> Void)? = nil
    /// The files, where the tracker keeps them apart from the post's text.
    var files: Files? = nil
    /// Where the post is, when the tracker's answers do not say.
    var location: String

    struct Files {
        /// The files on the issue, and the server's clock when it was read (its `Date` header), where it says.
        var present: () async throws(TrackerError) -> (files: [Reconcile.File], serverNow: Date?)
        /// Adds `files` to the issue, in their own requests.
        var add: (_ files: [TrackerAttachment]) async throws(TrackerError) -> Void
        /// Whether files go in the post's own requests (`create` and `edit`) instead of by `add`.
        var withThePost = false
    }

    func run(_ post: TrackerPost, _ session: TrackerSession) async throws(TrackerError) -> TrackerOutcome {
        if post.showOnly {
            let posts = try await list().sorted { $0.id < $1.id }
            return TrackerOutcome(.shown, posts.first?.url ?? location, shown: posts.map(\.text))
        }
        if !post.forceNew, let earlier = try await list().min(by: { $0.id < $1.id }) {
            return try await update(earlier, post, session)
        }
        return try await make(post, session)
    }

    /// The hunt's earliest post, edited when this run says something else or has files it lacks.
    private func update(_ earlier: Reconcile.Entry, _ post: TrackerPost, _ session: TrackerSession)
        async throws(TrackerError) -> TrackerOutcome
    {
        var post = post
        post.compare(with: earlier.text, codes: earlier.codes)
        let body = try await body(post, earlier)
        let missing = try await missingFiles(post, earlier, session)
        let same = post.sameText(earlier.text, body)
        let place = earlier.url ?? location
        if same && missing.isEmpty { return TrackerOutcome(.unchanged, place) }
        let together = files?.withThePost == true
        if !together, !missing.isEmpty { try await files?.add(missing) }
        if !same || together {
            try await edit(post, earlier, post.keepingMark(of: earlier.text, in: body), together ? missing : [])
        }
        return TrackerOutcome(.updated, place)
    }

    /// This run's post, reconciled with another attach's of the same run, and the files it lacks.
    private func make(_ post: TrackerPost, _ session: TrackerSession) async throws(TrackerError) -> TrackerOutcome {
        let url = try await create(post, try await body(post, nil))
        let separate = files.flatMap { $0.withThePost ? nil : $0 }
        if session.dryRun {
            try await separate?.add(post.attachments)
            return TrackerOutcome(.wouldPost, url ?? location)
        }
        var standing = try await reconciled(post, session)
        if let standing, standing.first.id != standing.mine.id {
            return TrackerOutcome(.alreadyPosted, standing.first.url ?? location)
        }
        if let separate {
            let present = try await separate.present().files
            let missing = post.attachments.filter { file in !present.contains { $0.filename == file.filename } }
            if !missing.isEmpty { try await separate.add(missing) }
            // A post of the hunt that showed late (a database that commits out of id order) and is earlier.
            standing = try await reconciled(post, session)
            if let standing, standing.first.id != standing.mine.id {
                return TrackerOutcome(.alreadyPosted, standing.first.url ?? location)
            }
        }
        return TrackerOutcome(.posted, standing?.mine.url ?? url ?? location)
    }

    /// This attach's post and the hunt's earliest, once this one shows in the list; this one removed when it is
    /// not the earliest. Nil where posts are not removed, or with `--new`.
    private func reconciled(_ post: TrackerPost, _ session: TrackerSession)
        async throws(TrackerError) -> (mine: Reconcile.Entry, first: Reconcile.Entry)?
    {
        guard let remove, !post.forceNew else { return nil }
        let standing = try await Reconcile.standing(post, session, list: list)
        if standing.first.id != standing.mine.id { try await remove(standing.mine.id) }
        return standing
    }

    /// The post's files that are not on the issue. When the earlier post is this run's, made by another attach at
    /// this moment, that attach may still be adding them: wait while it is young.
    private func missingFiles(_ post: TrackerPost, _ earlier: Reconcile.Entry, _ session: TrackerSession)
        async throws(TrackerError) -> [TrackerAttachment]
    {
        guard let files else { return [] }
        func missing(_ present: [Reconcile.File]) -> [TrackerAttachment] {
            post.attachments.filter { file in !present.contains { $0.filename == file.filename } }
        }
        var (present, serverNow) = try await files.present()
        if TrackerPost.field("run", in: earlier.text) == post.run, !missing(present).isEmpty,
            let waited = try await Reconcile.awaitFiles(
                post.attachments.map(\.filename), postedAt: earlier.created, serverNow: serverNow, session,
                files: { () async throws(TrackerError) in try await files.present().files })
        {
            present = waited
        }
        return missing(present)
    }
}
