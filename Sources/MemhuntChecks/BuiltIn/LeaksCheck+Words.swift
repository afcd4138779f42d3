import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// Every sentence the check says.
extension LeaksCheck {
    enum Words {
        static let breakTheCycle = "Break the retain cycle at the largest root: a weak capture or a weak delegate."
        static let appCyclesFirst =
            "The largest tree is a framework's cycle: start with the app's own, named with their fixes."
        static let frameworkOnly =
            "The largest tree is a framework's cycle, with nothing of the app on it: look at what the app holds of "
            + "that framework, or at the OS version."
        static let compareRoots = "Compare the two reports' largest roots: what the later gesture left behind."

        static func foundTitle(_ report: LeaksReport, largest: LeakRoot?) -> String {
            "\(FactValue.grouped(report.leaks)) leaks for \(Double(report.leakedBytes).sizeText)"
                + (largest.map { "; the largest tree's root is \($0.className)" } ?? "")
        }

        static func found(_ artifact: Artifact, _ report: LeaksReport, largest: [LeakRoot]) -> String {
            // The three largest entries, the same class, kind and size said once with how many times.
            var top: [(text: String, times: Int)] = []
            for root in largest {
                let text =
                    "\(root.className) (\(root.kind == .block ? "" : root.kind.rawValue.lowercased() + ", ")"
                    + Plural.count(root.count, "object") + ", \(Double(root.bytes).sizeText))"
                if let index = top.firstIndex(where: { $0.text == text }) {
                    top[index].times += 1
                } else if top.count < 3 {
                    top.append((text, 1))
                } else {
                    break
                }
            }
            // The reader keeps the largest entries only: a count that reaches its bound may be short.
            let capped = largest.count >= LeaksScanner.maxRoots
            let said = top.map {
                $0.text + ($0.times > 1 ? " ×\(FactValue.grouped($0.times))" + (capped ? " or more" : "") : "")
            }
            return "\(artifact.source)" + (report.processName.map { " (\($0))" } ?? "")
                + ": " + Plural.count(report.leaks, "leaked object") + ", "
                + Plural.count(report.leakedBytes, "byte") + ". "
                + (said.isEmpty
                    ? "" : "The largest of the report's top-level entries: " + said.joined(separator: "; ") + ". ")
                + (report.unreadable.isEmpty ? "" : "Not read: " + report.unreadable.joined(separator: "; ") + ".")
        }

        static func pair(
            _ first: (artifact: Artifact, report: LeaksReport), _ newest: (artifact: Artifact, report: LeaksReport)
        ) -> String {
            let (before, after) = (Double(first.report.leakedBytes), Double(newest.report.leakedBytes))
            // Both in one unit: bytes when neither reaches a tenth of a MB.
            let sizes =
                max(before, after) < 0.05 * 1_048_576
                ? "\(FactValue.grouped(Int(before))) → \(FactValue.grouped(Int(after))) bytes"
                : "\(before.megabytesText) → \(after.megabytesText)"
            return
                "\(first.artifact.fileName) → \(newest.artifact.fileName): \(FactValue.grouped(first.report.leaks)) → "
                + "\(FactValue.grouped(newest.report.leaks)) leaks, " + sizes
        }

        static let readTheReferences =
            "Read the references along the cycle: the one that should not own the object before it is the one to make "
            + "weak."

        static func cycleTitle(_ group: LeaksCheck.CycleGroup) -> String {
            let leak = group.leak
            let hedge = leak.confidence == .low ? "perhaps " : ""
            let named =
                leak.pattern.map {
                    hedge + "\($0.title) (\($0.id)"
                        + (leak.confidence == .high ? "" : ", \(leak.confidence?.rawValue ?? "low") confidence") + ")"
                }
                ?? "a cycle of no known pattern"
            if leak.shape.kind == .lone {
                return "\(leak.shape.path) leaked alone" + (group.instances > 1 ? " ×\(group.instances)" : "") + ": "
                    + named
            }
            return leak.shape.path + ": " + named
        }

        static func cycle(_ group: LeaksCheck.CycleGroup, _ artifact: Artifact) -> String {
            let leak = group.leak
            let shape = leak.shape
            let lines =
                (leak.evidence.count == 1 ? "line " : "lines ")
                + leak.evidence.prefix(8).map(String.init).joined(separator: ", ")
            var text =
                Plural.count(group.instances, shape.kind == .lone ? "object" : "cycle") + " in \(artifact.source): "
                + (shape.kind == .lone
                    ? "\(shape.path) with nothing under it (a ROOT LEAK of one object). "
                    : "\(shape.path), by "
                        + (shape.fields.isEmpty ? "unnamed references" : shape.fields.joined(separator: " → ")) + ". ")
            if !shape.complete { text += "The tree is cut: the cycle as far as it shows. " }
            if shape.kind == .lone {
                text +=
                    "A leaked object with nothing under it is what a closure that captures only self leaves (memhunt's "
                    + "reading of a real capture); an object leaked by an owner that is gone shows the same. "
            }
            text += "It rests on \(lines)"
            if let pattern = leak.pattern {
                text +=
                    " (\(leak.confidence?.rawValue ?? "low") confidence). Fix: \(pattern.fix) Before: `\(pattern.before)`; after: `\(pattern.after)`."
                    + (pattern.swiftLint == "none" ? "" : " SwiftLint's \(pattern.swiftLint) rule catches it.")
            } else {
                text += "; no pattern of the catalog matches its classes and references."
            }
            if !leak.alsoMatches.isEmpty { text += " Also matches: " + leak.alsoMatches.joined(separator: ", ") + "." }
            if group.bytes > 0 {
                text +=
                    (group.instances == 1 ? " Its tree holds " : " Their trees hold ") + Double(group.bytes).sizeText
                    + (shape.keptAlive.isEmpty
                        ? "."
                        : ", kept alive below it: "
                            + shape.keptAlive.map { "\($0.className) ×\($0.count)" }.joined(separator: ", ") + ".")
            }
            return text
        }

        /// What of the report's trees was not read for cycles, as a sentence after a finding's; empty when
        /// every tree was read whole.
        static func notRead(_ report: LeaksReport) -> String {
            let forest = report.forest
            var text = ""
            if !report.treesReadWhole {
                let parts =
                    (forest.treesLeftOut > 0 ? [Plural.count(forest.treesLeftOut, "tree")] : [])
                    + (forest.linesLeftOut > 0 ? [Plural.count(forest.linesLeftOut, "tree line")] : [])
                text +=
                    " \(parts.joined(separator: " and ")) of the report past memhunt's bounds "
                    + "(\(FactValue.grouped(LeakForest.maxTrees)) trees, \(FactValue.grouped(LeakForest.maxLines)) "
                    + "lines a tree, \(FactValue.grouped(LeakForest.maxTotalLines)) in all) were not read for cycles: the "
                    + "counts here are of the trees read, and the report may hold more."
            }
            let unnamed = forest.shapes.unnamed
            if unnamed > 0 {
                text +=
                    " \(Plural.count(unnamed, "cycle or lone object", "cycles and lone objects")) "
                    + "of shapes past the first \(FactValue.grouped(forest.shapes.maxGroups)) distinct ones "
                    + "\(unnamed == 1 ? "was" : "were") counted, not named: the counts here are of the shapes named, "
                    + "and the report may hold more of this one."
            }
            return text
        }

        static func frameworkTitle(_ group: LeaksCheck.CycleGroup) -> String {
            let why = group.leak.frameworkWhy ?? ""
            let name =
                why.hasPrefix("a known framework cycle: ")
                ? String(why.dropFirst("a known framework cycle: ".count).prefix { $0 != "," }) : "system classes only"
            return group.leak.shape.path + ": a framework's cycle (\(name))"
        }

        static func framework(_ group: LeaksCheck.CycleGroup, _ artifact: Artifact) -> String {
            Plural.count(group.instances, "cycle") + " in \(artifact.source): \(group.leak.shape.path). Classed as a "
                + "framework's: \(group.leak.frameworkWhy ?? "no class of the app is on it"). Nothing of the app is on the "
                + "cycle, so it is ranked below the app's own; it is shown, not hidden."
                + (group.leak.pattern.map { " Its shape: \($0.title) (\($0.id))." } ?? "")
        }

        static func verdictTitle(
            _ verdict: FixVerdict, _ first: (artifact: Artifact, report: LeaksReport),
            _ newest: (artifact: Artifact, report: LeaksReport)
        ) -> String {
            let counts = "\(FactValue.grouped(verdict.leaks.before)) → \(FactValue.grouped(verdict.leaks.after)) leaks"
            let judged = verdict.rows.filter { !$0.expectedAlive }
            guard !verdict.byCounts else { return "Fix verdict \(verdict.overall.word): \(counts), by the counts" }
            // "2 patterns gone, 1 fewer": the noun once, on the first count.
            let tally = [
                (FixVerdict.Grade.pass, "gone"), (.partial, "fewer"), (.fail, "unchanged or more"), (.regressed, "new"),
            ].compactMap { grade, word -> (count: Int, word: String)? in
                let n = judged.count { $0.grade == grade }
                return n == 0 ? nil : (n, word)
            }.enumerated().map { index, item in
                (index == 0 ? Plural.count(item.count, "pattern") : String(item.count)) + " " + item.word
            }
            return "Fix verdict \(verdict.overall.word): \(counts); " + tally.joined(separator: ", ")
        }

        static func verdict(_ verdict: FixVerdict) -> String {
            let rows = verdict.rows.map { row in
                "\(row.key) \(row.before) → \(row.after): "
                    + (row.expectedAlive
                        ? "expected alive, not judged" : verdict.byCounts ? "not judged" : row.grade.word)
            }
            let unread =
                switch verdict.unread {
                case (true, true): "neither report's cycles were all read and named"
                case (true, false): "the first report's cycles were not all read and named"
                case (false, true): "the newest report's cycles were not all read and named"
                case (false, false): ""
                }
            let freed = max(0, verdict.bytes.before - verdict.bytes.after)
            let how =
                verdict.byCounts
                ? (unread.isEmpty
                    ? "" : unread + " (past memhunt's bounds), so a pattern's count there is not the report's: ")
                    + "the leak counts decide: \(verdict.overall.word)"
                    + [" (none after)", " (fewer after, not none)", " (as many or more after)", " (none before)"][
                        verdict.overall.rawValue]
                : "overall \(verdict.overall.word), the worst of them"
            return
                (rows.isEmpty
                ? "Neither report has a cycle of the app: " + how
                : "Per pattern of the app's cycles" + (unread.isEmpty ? "" : " read and named") + ": "
                    + rows.joined(separator: "; ") + "; " + how)
                + ". Leaked bytes \(FactValue.grouped(verdict.bytes.before)) → \(FactValue.grouped(verdict.bytes.after)): "
                + "\(FactValue.grouped(freed)) freed, \(FactValue.grouped(verdict.bytes.after)) still leaked. "
                + "A framework's cycle is not judged: the app cannot fix it."
        }
    }
}
