import MemhuntCore
import MemhuntFormats

/// Every sentence the check says.
extension ChangeLogCheck {
    enum Words {
        static let narrowReads = "No fewer evaluations: narrow what each body reads."
        static let predicateOnTheApp =
            "Capture the log again with a predicate on the app's process, so that it holds one app."
        static let smallObservable =
            "Move what changes often (a drag offset, a progress) into a small observable read only by the view that "
            + "draws it."
        static let removeSubscription =
            "Remove the subscription (@ObservedObject/@EnvironmentObject) from views that do not draw the value."
        static let passValues =
            "Find the input that compares unequal: pass values instead of closures, or make the view Equatable on "
            + "what it draws."
        static let loadOnce = "Load once into a shared store (an environment object) instead of a @State initial value."

        static func comparisonTitle(_ group: [Log], _ rows: [String]) -> String {
            group.map(\.label).joined(separator: " → ") + ": " + rows.prefix(3).joined(separator: ", ")
        }

        static func comparison(_ group: [Log], _ rows: [String], changed: Bool) -> String {
            "Body evaluations per view, " + group.map(\.label).joined(separator: " → ") + ": "
                + rows.joined(separator: "; ") + ". In all: "
                + group.map { "+\($0.summary.evaluations)" }.joined(separator: " → ") + "."
                + (changed
                    ? " Count, don't time: the evaluations per gesture are the hardware-independent measure of a fix."
                    : "")
        }

        static func processesTitle(_ log: Log, _ processes: [(name: String, evaluations: Int)]) -> String {
            let listed = processes.prefix(5).map { "\($0.name) \(FactValue.grouped($0.evaluations))" }
            return "\(log.label) mixes the evaluations of \(processes.count) processes: "
                + listed.joined(separator: ", ") + (processes.count > 5 ? " and \(processes.count - 5) more" : "")
        }

        static func processes(_ log: Log, _ processes: [(name: String, evaluations: Int)]) -> String {
            let unnamed = log.summary.unattributedEvaluations
            return "Its lines name \(processes.count) processes, with the body evaluations above"
                + (unnamed > 0 ? ", and \(Plural.count(unnamed, "evaluation")) name none" : "")
                + ". Every count of this log (per view, per burst) is of all of them together, so a view of one "
                + "app may be counted with a view of the same name in another."
        }

        static func hotTitle(_ view: String, _ count: Int, _ log: Log, median: Double) -> String {
            "\(view) re-evaluated \(FactValue.grouped(count)) times in \(log.label), "
                + "\(Int(saturating: Double(count) / median))× the other views' median"
        }

        static func hot(_ view: String, _ count: Int, others: Int, median: Double, ratio: Double, _ log: Log)
            -> String
        {
            "\(view)'s body ran \(FactValue.grouped(count)) times; the other \(others) views ran a median of "
                + "\(FactValue.grouped(Int(saturating: median))) times (threshold ×\(ratio.oneDecimalText)). Its inputs changed: "
                + items(log.summary.itemCounts[view]) + "."
        }

        /// The log shows evaluations close together, not that one caused the others: the title says what came
        /// first and how many followed. A burst that starts with `@self` or `unchanged` names no item.
        static func fanOutTitle(_ burst: FanOutStat) -> String {
            let trigger = burst.triggerItems.joined(separator: ", ")
            let views = "\(burst.distinctViews) views evaluated in one burst"
            return trigger.isEmpty
                ? "Fan-out: \(views), starting with \(burst.triggerView)"
                : "Fan-out: \(views) after one \(trigger) change"
        }

        /// The summary keeps the first 20 views of a burst: a longer one is named as that many.
        static func fanOut(_ burst: FanOutStat) -> String {
            let trigger = burst.triggerItems.joined(separator: ", ")
            let start =
                trigger.isEmpty
                ? "Starting with \(burst.triggerView), \(burst.distinctViews) different views"
                : "After \(burst.triggerView): \(trigger) changed, \(burst.distinctViews) different views"
            return start + " evaluated in the same burst (\(FactValue.grouped(burst.evaluations)) evaluations)"
                + (burst.views.count < burst.distinctViews ? ", the first \(burst.views.count) of them: " : ": ")
                + burst.views.joined(separator: ", ") + ". Views that subscribe to a store they do not draw "
                + "re-run on every publish."
        }

        static func churnTitle(_ view: String, _ count: Int) -> String {
            "Unequal inputs: \(view) re-evaluated \(FactValue.grouped(count)) times with @self changed"
        }

        /// The log lists what changed, not why: "@self" says the view's value differed from the last one (its
        /// parent made it again with inputs that compared unequal), never which input. Other items may be listed
        /// beside it.
        static func churn(_ view: String, _ count: Int, of total: Int, _ log: Log) -> String {
            "In \(log.label), \(FactValue.grouped(count)) of \(view)'s \(FactValue.grouped(total)) evaluations listed @self as changed: each "
                + "time, its parent made it again with inputs that did not compare equal to the previous ones. "
                + "The log does not say which input. Closure properties are the usual one: they are new on every "
                + "pass, so SwiftUI cannot call them equal."
        }

        static func identityTitle(_ view: String, _ count: Int) -> String {
            "\(view) got a new identity \(count) times"
        }

        static func identity(_ view: String, _ count: Int, _ log: Log) -> String {
            "In \(log.label), \(view) was evaluated with @identity \(count) times: each time SwiftUI made "
                + "new storage for it, so its @State started over and whatever computes the initial values ran "
                + "again (a file load, a decode)."
        }

        static func items(_ counts: [String: Int]?) -> String {
            guard let counts, !counts.isEmpty else { return "nothing named" }
            return counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(4).map { "\($0.key) ×\($0.value)" }
                .joined(separator: ", ")
        }

        static func unattributedTitle(_ count: Int, app: String) -> String {
            Plural.count(count, "change log") + (count == 1 ? " names" : " name") + " no process, beside \(app)'s own: "
                + "not weighed"
        }

        static func unattributed(_ logs: [Log], own: Int, app: String) -> String {
            logs.map(\.label).joined(separator: ", ") + (logs.count == 1 ? " names" : " name")
                + " no process, so nothing "
                + "ties " + (logs.count == 1 ? "it" : "them") + " to \(app); " + Plural.count(own, "log")
                + " of \(app) "
                + "are read instead."
        }
    }
}
