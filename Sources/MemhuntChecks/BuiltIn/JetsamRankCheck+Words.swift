import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// Every sentence the check says.
extension JetsamRankCheck {
    enum Words {
        static let whichApp = "Which app?"
        static let nameTheApp = "Name the app under investigation (a process name or bundle id)."
        static let nameByAnOnlyName = "Name the app by a name only one process has, if the largest is not it."
        static let checkTheName =
            "Check the name (process names are cut at 32 characters) or collect the JetsamEvent from the time the "
            + "user saw the problem."
        static let reproduce = "Reproduce in the simulator to find which screen is responsible."
        static let compareWithNeed =
            "Compare with what the app should need: a screen that allocates this much is the lead."
        static let collectWhole = "Collect the JetsamEvent file itself (.ips), whole, from the device."
        static let ownLimit = "It crossed its own footprint limit: find which screen allocates."
        static let systemNeededSuspended = "The system needed memory: see how much the app held when it was chosen."
        static let systemNeededActive =
            "The system needed memory while the app was not suspended: see how short it was."

        /// Artifacts that name several apps leave no subject too: then "no crash report names one" was false beside
        /// step 1's crash reports of 12 apps (the real-world corpus).
        static func noSubject(candidates: Int) -> String {
            candidates > 1
                ? "No app was named, and the artifacts name \(candidates) apps, so none was chosen. "
                : "No app was named and no crash report names one. "
        }

        /// The record's app processes, saying how many there are ("the five largest" of a record with four app
        /// processes was not true).
        static func appsOf(_ record: JetsamRecord, _ apps: [JetsamRankCheck.Process]) -> String {
            let source = record.artifact.source
            if let why = record.event.incompleteness {
                return "\(source) is incomplete (\(why)); the app processes it keeps: "
                    + (apps.isEmpty ? "none" : apps.prefix(5).map(\.name).joined(separator: ", ")) + "."
            }
            let top = apps.prefix(5).map { "\($0.name) \(record.bytes(pages: $0.peakPages).megabytesText)" }
            switch apps.count {
            case 0: return "\(source) lists no app process, only daemons and system services."
            case 1: return "The one app process in \(source): \(top[0])."
            case 2...5:
                return "The \(apps.count) app processes in \(source), by lifetime peak: " + top.joined(separator: ", ")
                    + "."
            default:
                return "The five largest of \(apps.count) app processes by lifetime peak in \(source): "
                    + top.joined(separator: ", ") + "."
            }
        }

        /// Each record: its file, date, process count, and whether it lists the subject.
        static func listing(_ records: [JetsamRecord], subject: Subject) -> [String] {
            records.map { r in
                "\(r.artifact.source) (\(r.event.date ?? "undated"), \(r.event.processes.count) processes"
                    + (r.process(of: subject) == nil ? "" : ", lists \(subject.app ?? "")") + ")"
            }
        }

        static func notListedTitle(_ app: String, incomplete: [String]) -> String {
            incomplete.isEmpty ? "\(app) is not in the jetsam record" : "\(app) is not in what the jetsam records keep"
        }

        /// An incomplete record is no evidence that the app was not listed: what was left out may hold it.
        static func notListed(_ app: String, records: [JetsamRecord], subject: Subject, incomplete: [String]) -> String
        {
            "None of " + Plural.count(records.count, "JetsamEvent record") + " lists a process named \(app): "
                + listing(records, subject: subject).joined(separator: "; ") + "."
                + (incomplete.isEmpty
                    ? " A JetsamEvent lists every process alive when it is taken: \(app) was not running "
                        + "then, or runs under another process name (names are cut at 32 characters)."
                    : " " + incomplete.joined(separator: ", ") + (incomplete.count == 1 ? " is" : " are")
                        + " incomplete (elided or partial): what was left out may list \(app).")
        }

        static func severalTitle(_ count: Int, _ app: String) -> String {
            "\(count) processes match \(app); the facts are of the largest"
        }

        static func several(_ record: JetsamRecord, _ matching: [JetsamRankCheck.Process], _ app: String) -> String {
            let listed = matching.prefix(20).map { p in
                "\(p.name)" + (p.pid.map { " pid \($0)" } ?? "") + " \(record.bytes(pages: p.peakPages).megabytesText)"
            }
            return "\(record.artifact.source) lists \(matching.count) processes that match \(app), by lifetime "
                + "peak: " + listed.joined(separator: ", ") + (matching.count > 20 ? ", …" : "")
                + ". This step's peak, rank and state are of the largest."
        }

        static func unreadablePeakTitle(_ app: String, _ process: JetsamRankCheck.Process) -> String {
            "\(app)'s lifetime peak is not known: " + process.unreadable.joined(separator: ", ") + " is no page count"
        }

        static func unreadablePeak(_ record: JetsamRecord, _ app: String, _ process: JetsamRankCheck.Process) -> String
        {
            "\(record.artifact.source) gives \(app) " + process.unreadable.joined(separator: ", ")
                + ", which is no page count (out of range or not a whole number). No peak and no rank are "
                + "given rather than a guess; the record as the device wrote it, whole, would settle it."
        }

        static func noRankTitle(_ app: String, _ count: Int) -> String {
            "No rank for \(app): " + Plural.count(count, "process", "processes")
                + " of the record have page counts that could not be read"
        }

        static func noRank(_ app: String, _ others: [JetsamRankCheck.Process]) -> String {
            others.prefix(5).map { "\($0.name): " + $0.unreadable.joined(separator: ", ") }.joined(separator: "; ")
                + ". Their peaks are not known, so neither is how \(app) ranks among them."
        }

        static func highRankTitle(_ app: String, _ process: JetsamRankCheck.Process, _ record: JetsamRecord) -> String {
            "\(app) ranked \(process.rank) of \(record.event.processes.count) processes by lifetime peak "
                + "(\(record.bytes(pages: process.peakPages).megabytesText))"
        }

        static func highRank(_ app: String, _ process: JetsamRankCheck.Process, _ record: JetsamRecord, maxRank: Int)
            -> String
        {
            let event = record.event
            return "\(app) used a lifetime maximum of \(record.bytes(pages: process.peakPages).megabytesText) ("
                + "\(FactValue.grouped(Int(clamping: process.peakPages))) pages of "
                + "\(FactValue.grouped(Int(clamping: event.pageSize))) bytes) and ranked \(process.rank) among "
                + "\(event.processes.count) processes (threshold: rank ≤ \(maxRank))."
        }

        static func recordsNote(_ app: String, _ records: [JetsamRecord], subject: Subject) -> String {
            records.count > 1
                ? " Facts come from the newest record that lists \(app); all records: "
                    + listing(records, subject: subject).joined(separator: "; ") + "." : ""
        }

        static func dominantTitle(_ app: String, _ peak: Double, _ runnerUp: JetsamRankCheck.Process, _ other: Double)
            -> String
        {
            "\(app) \(peak.megabytesText) vs \(runnerUp.name) \(other.megabytesText)"
        }

        static func dominant(
            _ app: String, _ peak: Double, _ runnerUp: JetsamRankCheck.Process, _ other: Double, ratio: Double
        ) -> String {
            "\(app)'s lifetime peak is \(FactValue.oneDecimal(peak / other))× that of the next app, "
                + "\(runnerUp.name) (threshold: \(FactValue.oneDecimal(ratio))×)."
        }

        static func incompleteTitle(_ app: String, pageSizeKnown: Bool) -> String {
            "\(app) in an incomplete jetsam record: \(pageSizeKnown ? "" : "no size in bytes, ")no rank"
        }

        static func incomplete(_ record: JetsamRecord, _ app: String, _ process: JetsamRankCheck.Process, why: String)
            -> String
        {
            let peak =
                record.event.pageSizeKnown
                ? "a lifetime peak of \(record.bytes(pages: process.peakPages).megabytesText)"
                : "a lifetime peak of \(FactValue.grouped(Int(clamping: process.peakPages))) pages, which the paste "
                    + "gives no page size to say in bytes"
            let state = process.states.first.map { ", \($0)" } ?? ""
            return "\(record.artifact.source) is incomplete (\(why)). It gives \(app) \(peak)\(state). How many "
                + "processes the record had, and how \(app) ranked among them, is not known; nor are the system's "
                + "figures beyond what it keeps. The record as the device wrote it, whole, would settle it."
        }

        static func incompleteImpact(_ record: JetsamRecord, _ process: JetsamRankCheck.Process) -> String {
            "Jetsam record (incomplete): "
                + (record.event.pageSizeKnown
                    ? "lifetime peak \(record.bytes(pages: process.peakPages).megabytesText)"
                    : "peak \(FactValue.grouped(Int(clamping: process.peakPages))) pages")
                + (process.states.first.map { ", \($0)" } ?? "") + ", no rank."
        }

        static func killed(_ record: JetsamRecord, _ app: String, _ process: JetsamRankCheck.Process, reason: String)
            -> String
        {
            let footprint =
                record.event.pageSizeKnown
                ? "\(record.bytes(pages: process.residentPages).megabytesText) footprint (rpages)"
                : "\(FactValue.grouped(Int(clamping: process.residentPages))) pages of footprint (rpages)"
            return "The jetsam record shows \(app) killed with reason \(reason) at \(footprint)."
        }

        static func impact(_ peak: Double, _ process: JetsamRankCheck.Process, count: Int, ranked: Bool) -> String {
            "Jetsam record: lifetime peak \(peak.megabytesText)"
                + (ranked ? ", rank \(process.rank) of \(count) processes" : "")
                + (process.states.first.map { ", " + $0 } ?? "") + "."
        }

        static func chartCaption(_ app: String, _ process: JetsamRankCheck.Process, ranked: Bool, leftOut: Int)
            -> String
        {
            "\(app) (highlighted" + (ranked ? ", rank \(process.rank)" : "")
                + ") against the record's largest processes by lifetime peak"
                + (leftOut == 0 ? "." : "; processes whose page counts could not be read are left out.")
        }
    }
}
