/// Findings documents read by a fleet scan (runs of memhunt on many devices or CI jobs), counted by
/// signature: the name a finding keeps across runs, devices and paths. Pure: the caller decodes the
/// documents and hands over each finding's signature, code, severity, title and app.
public struct ScanFindings: Sendable {
    /// One signature's runs.
    public struct Tally: Sendable, Hashable, Encodable {
        public var signature: String
        public var code: String
        public var severity: String
        /// The title of the first run read in path order (numbers differ between runs; the signature does not).
        public var title: String
        /// Documents that report it.
        public var runs = 0
        /// Documents whose project file accepted it (suppressed there, with a reason).
        public var suppressed = 0
        /// The apps of those documents, with their counts (`-` for a document that names no app).
        public var apps: [String: Int] = [:]
        /// The first document (in path order) that reports it.
        public var file: String
    }

    /// The documents read.
    public var documents = 0
    public var tallies: [String: Tally] = [:]

    public init() {}

    /// One finding of the document `file`, reported (`suppressed` false) or accepted by a suppression.
    public mutating func add(
        signature: String, code: String, severity: String, title: String, app: String?, suppressed: Bool,
        file: String
    ) {
        var tally =
            tallies[signature]
            ?? Tally(signature: signature, code: code, severity: severity, title: title, file: file)
        if suppressed { tally.suppressed += 1 } else { tally.runs += 1 }
        tally.apps[app ?? "-", default: 0] += 1
        if file < tally.file {
            tally.file = file
            tally.title = title
        }
        tallies[signature] = tally
    }

    public mutating func merge(_ other: ScanFindings) {
        documents += other.documents
        for (signature, theirs) in other.tallies {
            guard var mine = tallies[signature] else {
                tallies[signature] = theirs
                continue
            }
            mine.runs += theirs.runs
            mine.suppressed += theirs.suppressed
            mine.apps.merge(theirs.apps, uniquingKeysWith: +)
            if theirs.file < mine.file {
                mine.file = theirs.file
                mine.title = theirs.title
            }
            tallies[signature] = mine
        }
    }

    /// Most runs first, then by signature: an order that does not depend on the fold order.
    public var sorted: [Tally] {
        tallies.values.sorted {
            $0.runs + $0.suppressed != $1.runs + $1.suppressed
                ? $0.runs + $0.suppressed > $1.runs + $1.suppressed : $0.signature < $1.signature
        }
    }
}
