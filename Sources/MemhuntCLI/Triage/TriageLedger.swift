import Foundation
import MemhuntCore
import MemhuntReports

/// Guided triage's ledger: after the step that compares variants of one input (and whenever the person types
/// `h` and a hypothesis), it asks for the hypothesis, the one variable changed and the artifacts of each side,
/// appends them to the ledger (`memhunt ledger add`'s code: checked, never over another writer's change),
/// judges the ledger and says what to try next. The ledger file holds every entry made, so a session
/// interrupted here resumes here.
extension TriageWalk {
    /// The step after which the ledger is offered: one that runs the structure-only variation check.
    func offersLedger(after index: Int) -> Bool {
        session.playbook.steps[index].checks.contains { invocation in
            if case .builtIn("structure-variation") = invocation.kind { return true }
            return false
        }
    }

    /// Said after the offering step: how to test a hypothesis, without a question that a piped file of
    /// answers would have to answer.
    static let ledgerOffer =
        "  A hypothesis to test? Type h and the hypothesis at any prompt (h one renderer per block is lighter): "
        + "memhunt asks for the one variable and each side's artifacts, judges it and keeps it in a ledger "
        + "(docs/ledger.md); f and the fix (f a LazyVStack) measures a fix against the good side."

    enum LedgerOutcome { case done, quit, ended }

    /// Where a ledger of this session is kept by default: beside the session file.
    var defaultLedger: String {
        let directory = AtomicFile.split(stateFile).directory
        return (directory == "." || directory.isEmpty ? "" : directory + "/") + "memhunt-ledger.yaml"
    }

    /// A hypothesis typed at a step's prompt: the ledger (asked for once, started when new), then the
    /// hypothesis's one experiment, judged.
    mutating func hypothesis(_ statement: String, io: Prompter) async -> LedgerOutcome {
        if let stop = ledgerFile(io: io) { return stop }
        guard let path = state.ledger else { return .done }
        return await experiment(for: statement, ledger: path, io: io)
    }

    /// A fix typed at a step's prompt (`f` and what it changes): its variant, the good side it must equal or
    /// the broken side it must leave, the measure and the hypothesis it fixes; appended and judged.
    mutating func fix(_ change: String, io: Prompter) async -> LedgerOutcome {
        if let stop = ledgerFile(io: io) { return stop }
        guard let path = state.ledger else { return .done }
        var sides: [String: LedgerEditor.Value] = [:]
        for (key, question, optional) in [
            ("variant", "The fixed variant: its artifacts (paths; a measurement label in brackets)", false),
            ("equals", "The good side it must equal (paths; [label]; Enter: none)", true),
            ("baseline", "The broken side it must leave (paths; [label]; Enter: none)", true),
        ] {
            if key == "baseline", sides["equals"] != nil {
                // One of the two is enough; the broken side is asked for only when there is no good side.
                continue
            }
            guard let answer = io.ask(question + " · q quit >")?.trimmingCharacters(in: .whitespaces) else {
                return .ended
            }
            if Self.quits(answer) { return .quit }
            if answer.isEmpty, optional, key == "equals" { continue }
            if let missing = Self.missingFile(answer) {
                io.say("  No file \(missing) (paths are relative to where triage runs); the fix is not recorded.")
                return .done
            }
            guard let side = side(answer, ledger: path) else {
                io.say("  A fix needs its variant and a side to compare it with; the fix is not recorded.")
                return .done
            }
            sides[key] = side
        }
        guard
            let measure = io.ask("The measure that decides (Enter: the symptom's own) · q quit >")?
                .trimmingCharacters(in: .whitespaces),
            let fixes = io.ask("The hypothesis it fixes (its id; Enter: none) · q quit >")?
                .trimmingCharacters(in: .whitespaces)
        else { return .ended }
        if Self.quits(measure) || Self.quits(fixes) { return .quit }
        do {
            let known = try LedgerRun.load(path, console: console)
            let taken = known.entryIDs
            let id = Self.slug(change, taken: taken)
            var entry: [(String, LedgerEditor.Value)] = [("id", .string(id))]
            if !fixes.isEmpty { entry.append(("fixes", .string(fixes))) }
            entry.append(("variable", .string(change)))
            if !measure.isEmpty { entry.append(("measure", .string(measure))) }
            for key in ["variant", "equals", "baseline"] { if let side = sides[key] { entry.append((key, side)) } }
            let ledger = try LedgerRun.append([("fixes", entry)], to: path, console: console)
            io.say("  Recorded the fix \(id).")
            await sayJudged(id, in: ledger, io: io)
        } catch {
            io.say("  \(error). Nothing was recorded; try again.")
        }
        return .done
    }

    /// The session's ledger: asked for once (a new file is started with the user's words and what shows the
    /// symptom); nil when it is known, else how the person stopped.
    mutating func ledgerFile(io: Prompter) -> LedgerOutcome? {
        while state.ledger == nil {
            guard
                let answer = io.ask("The ledger to keep it in: a file (Enter: \(defaultLedger)) · q quit >")?
                    .trimmingCharacters(in: .whitespaces)
            else { return .ended }
            if Self.quits(answer) { return .quit }
            let path = answer.isEmpty ? defaultLedger : answer
            if FileManager.default.fileExists(atPath: path) {
                do {
                    _ = try LedgerRun.load(path, console: console)
                } catch {
                    io.say("  \(path) is not a ledger memhunt can add to: \(error). Name another file.")
                    continue
                }
            } else {
                guard let shows = askShows(io: io) else { return .ended }
                if case .quit = shows { return .quit }
                var text = LedgerEditor.skeleton(subject: session.state.app, words: state.reported)
                if case .condition(let line) = shows {
                    text = text.replacingOccurrences(of: "    # shows: {fact: repro.peakMB, above: 300}", with: line)
                }
                do {
                    try AtomicFile.write(Array(text.utf8), to: path)
                } catch {
                    io.say("  \(error). Name another file.")
                    continue
                }
                io.say("  Started the ledger \(path).")
            }
            state.ledger = path
            try? save()
        }
        return nil
    }

    enum Shows { case none, quit, condition(String) }

    /// When an artifact shows the symptom, as `FACT above N`, `FACT[ENTRY] below N` or a finding code: the
    /// line of the new ledger's symptom, checked by the ledger's own loader before it is kept.
    func askShows(io: Prompter) -> Shows? {
        while true {
            guard
                let answer = io.ask(
                    "What shows the symptom in an artifact? A fact and a bound, as repro.peakMB above 300, or a "
                        + "finding code (Enter: nothing yet) · q quit >")?.trimmingCharacters(in: .whitespaces)
            else { return nil }
            if Self.quits(answer) { return .quit }
            if answer.isEmpty { return Shows.none }
            let words = answer.split(separator: " ").map(String.init)
            var line: String
            if words.count == 3, ["above", "below"].contains(words[1]) {
                var fact = words[0]
                var entry = ""
                if let open = fact.firstIndex(of: "["), fact.hasSuffix("]") {
                    entry =
                        ", key: "
                        + LedgerEditor.quoted(String(fact[fact.index(after: open)..<fact.index(before: fact.endIndex)]))
                    fact = String(fact[..<open])
                }
                line = "    shows: {fact: \(LedgerEditor.quoted(fact))\(entry), \(words[1]): \(words[2])}"
            } else if words.count == 1 {
                line = "    shows: {verdict: \(LedgerEditor.quoted(words[0]))}"
            } else {
                io.say("  Write it as FACT above N, FACT below N, or a finding code. Try again.")
                continue
            }
            let probe = LedgerEditor.skeleton(subject: nil).replacingOccurrences(
                of: "    # shows: {fact: repro.peakMB, above: 300}", with: line)
            if case .failure(let error) = LedgerRun.loader.load(text: probe, origin: "answer", directory: nil) {
                let said = error.diagnostics.map(\.message).joined(separator: "; ")
                io.say("  \(said). Try again.")
                continue
            }
            return .condition(line)
        }
    }

    /// One hypothesis and its experiment: asked, appended, judged, and what to do next.
    mutating func experiment(for statement: String, ledger path: String, io: Prompter) async -> LedgerOutcome {
        guard
            let variable = io.ask("The one variable you change to test it · q quit >")?
                .trimmingCharacters(in: .whitespaces)
        else { return .ended }
        if Self.quits(variable) { return .quit }
        guard !variable.isEmpty else {
            io.say("  An experiment changes one variable; the hypothesis is not recorded.")
            return .done
        }
        if let index = session.playbook.steps.indices.last(where: { offersLedger(after: $0) }),
            let collect = session.playbook.steps[index].collect
        {
            io.say("  Collect each side as the step says: " + collect)
        }
        var sides: [LedgerEditor.Value] = []
        for name in ["Baseline", "Variant"] {
            guard
                let answer = io.ask(
                    "\(name): its artifacts (paths; a measurement label in brackets, as runs.csv [one-block]) · q quit >"
                )?
                .trimmingCharacters(in: .whitespaces)
            else { return .ended }
            if Self.quits(answer) { return .quit }
            guard let side = side(answer, ledger: path) else {
                io.say("  No artifact given; the hypothesis is not recorded.")
                return .done
            }
            if let missing = Self.missingFile(answer) {
                io.say(
                    "  No file \(missing) (paths are relative to where triage runs); the hypothesis is not recorded.")
                return .done
            }
            sides.append(side)
        }
        guard
            let measure = io.ask(
                "The measure that decides: a fact such as repro.peakMB (Enter: the symptom's own) · q quit >")?
                .trimmingCharacters(in: .whitespaces)
        else { return .ended }
        if Self.quits(measure) { return .quit }
        let ledger: Ledger
        do {
            let known = try LedgerRun.load(path, console: console)
            let taken = known.entryIDs
            let id = Self.slug(statement, taken: taken)
            let test = Self.unique(id + "-test", taken: taken.union([id]))
            ledger = try LedgerRun.append(
                [
                    ("hypotheses", [("id", .string(id)), ("statement", .string(statement))]),
                    (
                        "experiments",
                        [
                            ("id", .string(test)), ("tests", .string(id)), ("variable", .string(variable)),
                        ] + (measure.isEmpty ? [] : [("measure", .string(measure))]) + [
                            ("baseline", sides[0]), ("variant", sides[1]),
                        ]
                    ),
                ], to: path, console: console)
            io.say("  Recorded \(id), tested by \(test).")
            await sayJudged(test, in: ledger, io: io)
        } catch {
            io.say("  \(error). Nothing was recorded; try again.")
        }
        return .done
    }

    /// The ledger judged, and the verdict of its entry `id` (an experiment or a fix) said with what to do next.
    func sayJudged(_ id: String, in ledger: Ledger, io: Prompter) async {
        let judgement = await LedgerRun.judged(
            ledger, playbook: session.playbook, app: session.state.app, collector: collector,
            allowExec: session.allowExec)
        guard let judged = (judgement.experiments + judgement.fixes).first(where: { $0.id == id }) else { return }
        io.say("  \(judged.verdict.rawValue): \(judged.sentence)")
        for reason in judged.reasons where !judged.sentence.contains(reason) { io.say("    " + reason) }
        io.say("  Next: " + Self.next(after: judged.verdict))
    }

    /// The first local path of a side as typed that names no file; nil when each does.
    static func missingFile(_ answer: String) -> String? {
        answer.split(separator: " ").map(String.init).first { word in
            !word.hasPrefix("[") && SessionPaths.isLocal(word) && !FileManager.default.fileExists(atPath: word)
        }
    }

    /// A side as the person typed it: paths (relative to where triage runs) and an optional `[label]`.
    func side(_ answer: String, ledger path: String) -> LedgerEditor.Value? {
        var label: String?
        var paths: [String] = []
        let relative = SessionPaths(sessionFile: path)
        for word in answer.split(separator: " ").map(String.init) where !word.isEmpty {
            if word.hasPrefix("["), word.hasSuffix("]"), word.count > 2 {
                label = String(word.dropFirst().dropLast())
            } else {
                paths.append(relative.recorded(word))
            }
        }
        guard !paths.isEmpty else { return nil }
        guard let label else { return .strings(paths) }
        return .mapping([("artifacts", .strings(paths)), ("label", .string(label))])
    }

    /// What the verdict suggests doing next.
    static func next(after verdict: LedgerVerdict) -> String {
        switch verdict {
        case .cause: "measure the fix against the good side (f and what the fix changes), then ship it."
        case .amplifier: "it moves the measure, not the symptom: keep it if it is cheap, and test another suspect."
        case .ruledOut: "a false lead: test the next suspect, one variable at a time."
        case .worse: "a false lead that made it worse: revert it, and test the next suspect."
        case .inconclusive: "make the sides readable and alike but for the variable, and measure again."
        case .fixHolds:
            "keep the numbers beside the fix (the postmortem's proof); judge the whole ledger: memhunt ledger judge."
        case .fixFails: "the fix does not reach the good side: look again at the cause, or measure the fix again."
        }
    }

    /// A kebab-case id from the first words of a sentence, unique among `taken`.
    static func slug(_ text: String, taken: Set<String>) -> String {
        let small: Set<String> = ["a", "an", "and", "as", "at", "by", "for", "in", "is", "it", "of", "on", "the", "to"]
        let words = text.lowercased().split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map(String.init)
            .filter { !small.contains($0) }.prefix(4)
        return unique(words.isEmpty ? "hypothesis" : words.joined(separator: "-"), taken: taken)
    }

    /// `base`, or `base-2`, `base-3` … when taken.
    static func unique(_ base: String, taken: Set<String>) -> String {
        var id = base
        var n = 2
        while taken.contains(id) {
            id = "\(base)-\(n)"
            n += 1
        }
        return id
    }
}
