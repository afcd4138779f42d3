import Dispatch
import Foundation
import MemhuntChecks
import MemhuntCore
import MemhuntFormats
import MemhuntReports
import MemhuntTrackers

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The guided walk: one hunt session, driven by a person's answers read line by line.
///
/// Prompts and step results go to stderr; the report goes to stdout or `--output` at the end. The
/// state is saved after every answer, so Ctrl-C, end of input or `q` lose nothing.
struct TriageWalk {
    var console: Console
    var collector: ArtifactCollector
    var state: TriageState
    var session: HuntSession
    /// Artifacts offered as candidates (operands, the current folder, answers), read once.
    var pool: [Artifact]
    /// Where the state is saved.
    var stateFile: String
    /// The sources of `pool` that came from operands and answers, not from the current folder: an unrecognized
    /// one among them is offered too, as `run` over them would count it.
    var named: Set<String> = []
    /// What the user's words point at in this playbook, if anything.
    var symptom: Symptom?
    var engine: StepEngine {
        StepEngine(
            checks: builtInChecks, external: ProcessCheckRunner(environment: console.environment),
            toolVersion: Memhunt.version)
    }

    // MARK: - Starting and resuming

    /// The walk from its first questions; nil when the person quits (`q`) before the first step.
    static func starting(console: Console, collector: ArtifactCollector, parsed: ParsedCommand) async throws
        -> TriageWalk?
    {
        let values = parsed.values
        let io = Prompter(console: console)
        io.say("memhunt triage: answer each question; Enter accepts what is proposed, q stops (nothing is lost).")
        guard let words = io.ask("What did the user report, in their own words?") else {
            throw CommandError("input ended before the user's report was given")
        }
        if Self.quits(words) { return Self.quitBeforeTheSteps(io) }
        let builtIns = BuiltInPlaybooks.all.compactMap { entry -> Playbook? in
            guard case .success(let p)? = playbookLoader.builtIn(entry.id) else { return nil }
            return p
        }
        var reference = values.string(TriageCommand.playbook)
        var playbook: Playbook
        if let given = reference {
            playbook = try await PlaybookReference.load(given, collector: collector, console: console)
        } else {
            let matches = SymptomMatcher.matches(words, in: builtIns)
            let proposed = matches.first?.playbook ?? builtIns.first { $0.id == "memory-hunt" } ?? builtIns[0]
            if let match = matches.first {
                io.say("That sounds like: " + match.symptom.means)
            } else {
                io.say("Nothing in the shipped playbooks names those words; the full memory hunt fits most reports.")
            }
            let ids = builtIns.map(\.id)
            playbook = proposed
            reference = proposed.id
            while true {
                guard
                    let answer = io.ask(
                        "Playbook: \(proposed.id) (\(proposed.title)). Enter to accept, or another id ("
                            + ids.joined(separator: ", ") + "), file or URL; q quits:")
                else { throw CommandError("input ended before a playbook was chosen") }
                if answer.isEmpty { break }
                if Self.quits(answer) { return Self.quitBeforeTheSteps(io) }
                do {
                    playbook = try await PlaybookReference.load(answer, collector: collector, console: console)
                    reference = answer
                    break
                } catch {
                    io.say("\(error) Try again.")
                }
            }
        }
        var app = values.string(RunCommand.app)
        if app == nil {
            guard
                let answer = io.ask(
                    "Which app is it? A process name or bundle id (Enter: let the artifacts decide):")
            else { throw CommandError("input ended before the app was named") }
            if Self.quits(answer) { return Self.quitBeforeTheSteps(io) }
            app = answer.isEmpty ? nil : answer
        }
        let operands = values.positionals
        let session = HuntSession(
            playbook: playbook, artifacts: [], app: app, allowExec: values.flag(RunCommand.allowExec))
        var state = TriageState(
            reported: words, playbook: reference ?? playbook.origin, operands: operands,
            format: values.string(Options.format()) ?? "text", output: values.string(Options.output),
            session: session.state)
        // A file the command line names with -o may be replaced, by this walk or by a resumed one.
        state.report = values.string(Options.output).flatMap(TriageState.FileIdentity.of)
        let file =
            values.string(TriageCommand.session)
            ?? Self.defaultStateFile(output: values.string(Options.output))
        var walk = TriageWalk(
            console: console, collector: collector, state: state, session: session, pool: [], stateFile: file,
            symptom: SymptomMatcher.matches(words, in: [playbook]).first?.symptom)
        (walk.pool, walk.named) = await walk.candidatePool()
        try walk.save()
        if let symptom = walk.symptom {
            let titles = symptom.steps.compactMap { id in playbook.steps.firstIndex { $0.id == id } }
                .map { "\($0 + 1) \(playbook.steps[$0].title)" }
            if !titles.isEmpty {
                io.say("The steps that matter most for that: " + titles.joined(separator: "; ") + ".")
            }
        }
        io.say("The session is saved in \(file) after every answer.")
        return walk
    }

    /// `q` (or `Q`): stop here.
    static func quits(_ answer: String) -> Bool {
        ["q", "Q"].contains(answer.trimmingCharacters(in: .whitespaces))
    }

    static func quitBeforeTheSteps(_ io: Prompter) -> TriageWalk? {
        io.say("Stopped before the first step; there is nothing to resume.")
        return nil
    }

    static func resuming(_ file: String, console: Console, collector: ArtifactCollector, parsed: ParsedCommand)
        async throws -> TriageWalk
    {
        var walk = try await restored(
            file, console: console, collector: collector, allowExec: parsed.values.flag(RunCommand.allowExec))
        (walk.pool, walk.named) = await walk.candidatePool()
        let io = Prompter(console: console)
        let session = walk.session
        let playbook = session.playbook
        let done = session.results.compactMap { $0 }
        if let pending = session.pendingIndex {
            io.say(
                "Resuming \(playbook.id) at step \(pending + 1) (\(playbook.steps[pending].title))"
                    + (done.isEmpty ? "." : "; steps kept:"))
        } else {
            io.say("Every step of this session has run; writing the report.")
        }
        let document = walk.document()
        for step in document.steps {
            // The step's headline, as its checks put it; the facts themselves when they gave none.
            let headline = document.result(of: step)
            let facts =
                headline.isEmpty
                ? step.facts.keys.sorted().map { "\($0) = " + document.formatted($0, step.facts[$0]!) }
                    .joined(separator: ", ") : headline
            io.say("  \(step.number)  \(step.title)  \(step.status.rawValue)" + (facts.isEmpty ? "" : ": ") + facts)
        }
        return walk
    }

    /// The walk a session file saved, its artifacts read again; its candidate pool is left empty.
    static func restored(_ file: String, console: Console, collector: ArtifactCollector, allowExec: Bool)
        async throws -> TriageWalk
    {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CommandError("\(file): cannot read the triage session (no such file or not readable)")
        }
        let state: TriageState
        do {
            let decoded = try JSONDecoder().decode(TriageState.self, from: data)
            state = try TriageState.validated(
                decoded, file: file, paths: SessionPaths(sessionFile: file), formats: TriageCommand.formats)
        } catch let error as DecodingError {
            throw CommandError("\(file): not a triage session this memhunt can read: \(Self.describe(error))")
        } catch {
            throw CommandError("\(error)")
        }
        let playbook: Playbook
        do {
            playbook = try await PlaybookReference.load(state.playbook, collector: collector, console: console)
        } catch {
            // The playbook is the session's field: the session file is named with what went wrong.
            throw CommandError("\(file): the triage session's playbook could not be loaded: \(error)")
        }
        let artifacts = await collector.collect(state.session.artifactSources)
        let session: HuntSession
        do {
            session = try HuntSession(
                restoring: state.session, playbook: playbook, artifacts: artifacts, allowExec: allowExec)
        } catch {
            throw CommandError("\(file): \(error)")
        }
        return TriageWalk(
            console: console, collector: collector, state: state, session: session, pool: [], stateFile: file,
            symptom: state.reported.flatMap { SymptomMatcher.matches($0, in: [playbook]).first?.symptom })
    }

    /// A decoding error in words, naming the field: "field 'session.cursor': expected a number".
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
                .trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .typeMismatch(let type, let context): return "field '\(path(context))': expected \(type)"
        case .valueNotFound(let type, let context): return "field '\(path(context))': expected \(type), found null"
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return "field '\(parent.isEmpty ? key.stringValue : parent + "." + key.stringValue)' is missing"
        case .dataCorrupted(let context):
            let at = path(context)
            return (at.isEmpty ? "" : "field '\(at)': ") + context.debugDescription
        @unknown default: return "\(error)"
        }
    }

    static func defaultStateFile(output: String?) -> String {
        guard let output, output != "-" else { return "memhunt-triage.json" }
        let directory = (output as NSString).deletingLastPathComponent
        return (directory.isEmpty ? "" : directory + "/") + "memhunt-triage.json"
    }

    // MARK: - The walk

    /// Walks every pending step, then writes the report.
    mutating func run(output: ReportDestination) async throws -> Memhunt.ExitStatus {
        let io = Prompter(console: console)
        TriageProgress.shared.update(file: stateFile, step: session.pendingStep.map { ($0.title, session.cursor + 1) })
        while let index = session.pendingIndex {
            TriageProgress.shared.update(file: stateFile, step: (session.playbook.steps[index].title, index + 1))
            switch await ask(step: index, io: io) {
            case .ended:
                try save()
                io.say("Input ended at step \(index + 1). Resume with: memhunt triage --resume \(stateFile)")
                console.note("memhunt: exit 2: the triage stopped at step \(index + 1) before its end")
                return .couldNotRun
            case .quit:
                try save()
                io.say("Stopped at step \(index + 1). Resume with: memhunt triage --resume \(stateFile)")
                return .success
            case .next:
                try save()
            }
        }
        state.finished = true
        try save()
        var document = document()
        if let path = state.ledger, let ledger = try? LedgerRun.load(path, console: console) {
            // The ledger kept in this walk goes with its findings: the report's and the postmortem's Hypotheses.
            document.ledger = await LedgerRun.judged(
                ledger, playbook: session.playbook, app: session.state.app, collector: collector,
                allowExec: session.allowExec)
        }
        // The playbook's declared gate holds here as in run (triage has no --fail-on of its own).
        document.gate = FindingsDocument.Gate.decide(
            document, failOn: session.playbook.failOn, failOrigin: session.playbook.gateOrigin,
            operands: state.operands)
        io.say(TextReporter.summaryLine(document))
        try output.write(document, format: state.format, console: console)
        if let path = output.path {
            // The report this session wrote: the one file a resumed session may replace.
            state.report = TriageState.FileIdentity.of(path)
            try save()
        }
        offerPostmortem(document, io: io)
        await offerAttach(document, io: io)
        return Gate.announce(document.gate, console: console)
    }

    /// At the end: the postmortem draft of this hunt (`memhunt postmortem`'s code), if the person wants one.
    /// End of input or an empty answer skips it.
    func offerPostmortem(_ document: FindingsDocument, io: Prompter) {
        while let answer = io.ask("Write a postmortem draft of this hunt? A file path (Enter or q skips):")?
            .trimmingCharacters(in: .whitespaces), !answer.isEmpty, !Self.quits(answer)
        {
            let known = Set(builtInChecks.flatMap { $0.description.facts.map(\.key) })
            guard
                case .success(let text) = PostmortemTemplate.builtIn.render(
                    Postmortem(runs: [document]), knownFacts: known)
            else {
                io.say("  The built-in postmortem template could not be rendered.")
                return
            }
            // Never over a file the hunt read or writes: an artifact, a candidate, the session, the report.
            let inputs =
                (session.artifacts + pool).compactMap(\.localPath) + [stateFile] + (state.output.map { [$0] } ?? [])
            if let input = SameFile.input(replacedBy: answer, inputs: inputs) {
                io.say(
                    "  \(answer) is an input of this hunt (\(input)), which memhunt never replaces. Name another file.")
                continue
            }
            do {
                try AtomicFile.write(text, to: answer)
                io.say("  Wrote the postmortem draft to \(answer).")
                return
            } catch {
                io.say("  \(error). Try again.")
            }
        }
    }

    /// At the end: attach the findings to the team's tracker (`memhunt attach`'s code: redacted, once).
    /// End of input or an empty answer skips it; a refusal says why and asks again.
    func offerAttach(_ document: FindingsDocument, io: Prompter) async {
        while let answer = io.ask(
            "Attach the findings to a bug tracker? A target such as github:OWNER/REPO#N or redmine:URL#N (Enter or q skips):"
        )?.trimmingCharacters(in: .whitespaces), !answer.isEmpty, !Self.quits(answer) {
            do {
                let outcome = try await Attacher.attach(
                    document, to: answer, environment: console.environment,
                    options: AttachOptions(dryRun: false, redact: true, forceNew: false), print: { _ in })
                io.say("  Attached: \(outcome.action.rawValue) \(outcome.location)")
                return
            } catch {
                io.say("  \(error.description.replacingOccurrences(of: "\n", with: " ")). Try again, or Enter to skip.")
            }
        }
    }

    enum Answered { case next, quit, ended }

    /// Asks about step `index` until an answer moves the walk.
    mutating func ask(step index: Int, io: Prompter) async -> Answered {
        let step = session.playbook.steps[index]
        let count = session.playbook.steps.count
        io.say("")
        io.say(
            "Step \(index + 1)/\(count) · \(step.title)"
                + (symptom?.steps.contains(step.id) == true ? "  (matters most for what the user reported)" : ""))
        if !step.inspects.isEmpty || !step.tells.isEmpty {
            io.say("  What I inspect: \(step.inspects). What it tells me: \(step.tells).")
        }
        while true {
            let candidates = candidates(for: index)
            for (n, candidate) in candidates.enumerated() {
                io.say(
                    "  \(n + 1)) \(TerminalText.escaped(candidate.source))  [\(candidate.kind?.rawValue ?? "?")"
                        + (Self.time(candidate).map { ", \($0)" } ?? "")
                        + (candidate.status == .ok
                            ? "" : candidate.status == .error ? ", unreadable" : ", unrecognized") + "]")
            }
            let proposal = proposal(for: index, candidates: candidates)
            guard
                let answer = io.ask(
                    "Enter = \(proposal) · numbers (1 3, 1-3, a; -2 drops 2) · path or URL · s skip · ? guidance"
                        + " · h hypothesis · f fix · b back · q quit >")?
                    .trimmingCharacters(in: .whitespaces)
            else { return .ended }
            // `h TEXT`: a hypothesis, tested in the ledger now; then this step again.
            if answer.hasPrefix("h ") || answer.hasPrefix("f "), answer.count > 2 {
                let text = String(answer.dropFirst(2)).trimmingCharacters(in: .whitespaces)
                let outcome = answer.hasPrefix("h ") ? await hypothesis(text, io: io) : await fix(text, io: io)
                switch outcome {
                case .done:
                    try? save()
                    continue
                case .quit: return .quit
                case .ended: return .ended
                }
            }
            switch await respond(answer, step: index, candidates: candidates, proposal: proposal) {
            case .ran:
                show(step: index, io: io)
                if offersLedger(after: index) { io.say(Self.ledgerOffer) }
                return .next
            case .skipped:
                io.say("  Skipped." + Self.wouldHaveTold(step))
                return .next
            case .back: return .next
            case .quit: return .quit
            case .said(let lines): for line in lines { io.say(line) }
            }
        }
    }

    /// What Enter does at step `index`: every candidate `run` would read for the step, with what was given; then
    /// running or skipping.
    func proposal(for index: Int, candidates: [Artifact]) -> String {
        let step = session.playbook.steps[index]
        let given = session.candidates(forStep: index)
        if !candidates.isEmpty {
            let names = candidates.map { Self.name($0.source) }.joined(separator: ", ")
            return (candidates.count == 1 ? "use 1" : "use all, 1-\(candidates.count)") + " (\(names))"
                + (given.isEmpty ? "" : " with what was given")
        } else if !given.isEmpty {
            return "run with what was given (" + given.map { Self.name($0.source) }.joined(separator: ", ") + ")"
        } else if step.reads.isEmpty || runsWithoutArtifacts(step) {
            return "run the step"
        }
        return "skip (no candidate)"
    }

    /// What one answer at a step did.
    enum Response: Equatable {
        /// The step ran; its result is in the session.
        case ran
        case skipped
        /// The walk went back one step.
        case back
        case quit
        /// Nothing moved: these lines say why (or give the step's guidance); ask again.
        case said([String])
    }

    /// Acts on one answer at step `index`, in the grammar the prompt shows (Enter, numbers, a path or URL, s, ?,
    /// b, q), over the `candidates` listed and the `proposal` Enter accepts. Guided triage and `memhunt mcp`'s
    /// hunt session answer through it.
    mutating func respond(_ answer: String, step index: Int, candidates: [Artifact], proposal: String) async
        -> Response
    {
        let step = session.playbook.steps[index]
        switch answer {
        case "":
            if !candidates.isEmpty {
                session.add(candidates)
                return await runPending()
            }
            if proposal.hasPrefix("skip") { return skipPending() }
            return await runPending()
        case "s", "S": return skipPending()
        case "?":
            var lines: [String] = []
            if let collect = step.collect { lines.append("  Collect: " + collect) }
            if let empty = step.empty { lines.append("  If empty: " + empty) }
            return .said(lines.isEmpty ? ["  This step has no guidance."] : lines)
        case "b", "B":
            guard index > 0 else { return .said(["  This is the first step."]) }
            session.back()
            return .back
        case "q", "Q": return .quit
        default:
            if let picked = Self.selection(answer, count: candidates.count) {
                switch picked {
                case .failure(let problem):
                    return .said(["  \(problem)"])
                case .success(let numbers):
                    session.add(numbers.map { candidates[$0 - 1] })
                    return await runPending()
                }
            }
            let added = await collector.collect([answer])
            guard !added.isEmpty else { return .said(["  Nothing found at \(answer). Try again."]) }
            if let problem = added.first(where: { $0.status != .ok }) {
                return .said([
                    "  \(TerminalText.escaped(problem.source)): \(TerminalText.escaped(problem.error ?? problem.status.rawValue)). Try again."
                ])
            }
            let fitting = added.filter { $0.kind.map(step.reads.contains) ?? false }
            pool += added.filter { a in !pool.contains { $0.source == a.source } }
            named.formUnion(added.map(\.source))
            guard !fitting.isEmpty else {
                let kinds = Set(added.compactMap { $0.kind?.rawValue }).sorted().joined(separator: ", ")
                return .said([
                    "  \(answer) is \(kinds.isEmpty ? "of no kind memhunt knows" : kinds); this step reads "
                        + step.reads.map(\.rawValue).joined(separator: ", ") + ". Try again."
                ])
            }
            state.operands.append(answer)
            session.add(fitting)
            return await runPending()
        }
    }

    private mutating func runPending() async -> Response {
        try? save()
        await session.runPending(using: engine)
        return .ran
    }

    private mutating func skipPending() -> Response {
        session.skip()
        return .skipped
    }

    /// The result of step `index`, as the text report shows a step.
    func show(step index: Int, io: Prompter) {
        let document = document()
        if let record = document.steps.first(where: { $0.number == index + 1 }) {
            io.show(
                TextReporter.step(
                    record, in: document,
                    options: ReportOptions(
                        colored: console.stderrColored, decisions: commandLineDecisions,
                        width: console.stderr.terminalColumns)))
        }
    }

    /// " It would have told: …" after "Skipped.", when the step says what it tells.
    static func wouldHaveTold(_ step: Step) -> String {
        step.tells.isEmpty ? "" : " It would have told: \(step.tells.prefix(1).lowercased() + step.tells.dropFirst())."
    }

    func runsWithoutArtifacts(_ step: Step) -> Bool {
        step.checks.contains { invocation in
            if case .builtIn(let id) = invocation.kind {
                return engine.checks[id]?.description.runsWithoutArtifacts ?? false
            }
            return false
        }
    }

    /// Every artifact of the pool `run` would read for step `index` and that is not given yet: of a kind the step
    /// reads or one of its checks weighs, readable or not (an unreadable one is reported, as `run` reports it).
    /// Near the incident first when one is known, else newest first.
    func candidates(for index: Int) -> [Artifact] {
        let step = session.playbook.steps[index]
        let kinds =
            step.reads
            + step.checks.flatMap { invocation -> [ArtifactKind] in
                guard case .builtIn(let id) = invocation.kind, let type = engine.checks[id] else { return [] }
                return type.description.weighs
            }
        let given = Set(session.artifacts.map(\.source))
        // A built-in check is told of every file of unknown content (it may be a crash report that could not be
        // read): one the operands named is offered to the first step with such a check, until it is given.
        let tellsUnknown = step.checks.contains { if case .builtIn = $0.kind { true } else { false } }
        let fitting = pool.filter { artifact in
            guard !given.contains(artifact.source) else { return false }
            if artifact.kind == nil || artifact.status == .unrecognized {
                return tellsUnknown && artifact.holdsUnknownContent && named.contains(artifact.source)
            }
            return kinds.contains(where: artifact.holds)
        }
        let incident = session.artifacts.compactMap(Self.seconds).first
        return fitting.enumerated().sorted { a, b in
            let (ta, tb) = (Self.seconds(a.element), Self.seconds(b.element))
            switch (ta, tb, incident) {
            case (let x?, let y?, let i?) where abs(x - i) != abs(y - i): return abs(x - i) < abs(y - i)
            case (let x?, let y?, nil) where x != y: return x > y
            case (.some, nil, _): return true
            case (nil, .some, _): return false
            default: return a.offset < b.offset
            }
        }.map(\.element)
    }

    /// The candidates an answer picks, 1-based and in order: `3`, `1 3`, `1,3`, `1-3`, `a` (all), or drops from
    /// all of them (`-2`, `-2 4`). Nil when the answer is not a selection (a path, say); a failure says why.
    static func selection(_ answer: String, count: Int) -> Result<[Int], SelectionError>? {
        let text = answer.lowercased()
        if text == "a" || text == "all" {
            return count == 0
                ? .failure(SelectionError("There is no candidate to pick: give a path.")) : .success(Array(1...count))
        }
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        guard !parts.isEmpty else { return nil }
        let range = count == 0 ? "no candidate to pick: give a path" : "pick 1–\(count), or give a path"
        var picked: [Int] = []
        var dropped: [Int] = []
        for part in parts {
            let isDigits = { (s: Substring) in !s.isEmpty && s.allSatisfy { $0.isASCII && $0.isNumber } }
            if part.hasPrefix("-"), isDigits(part.dropFirst()), let n = Int(part.dropFirst()) {
                dropped.append(n)
            } else if isDigits(Substring(part)), let n = Int(part) {
                picked.append(n)
            } else if let dash = part.firstIndex(of: "-"), isDigits(part[..<dash]),
                isDigits(part[part.index(after: dash)...]),
                let low = Int(part[..<dash]), let high = Int(part[part.index(after: dash)...])
            {
                guard low <= high else {
                    return .failure(SelectionError("\(part) is not a range: write the lower number first."))
                }
                // Bounds are checked before the range is spelled out: `1-9223372036854775807` is refused at once,
                // in constant memory.
                if let wrong = [low, high].first(where: { $0 < 1 || $0 > count }) {
                    return .failure(SelectionError("There is no candidate \(wrong): \(range)."))
                }
                picked += Array(low...high)
            } else {
                return nil
            }
        }
        if let wrong = (picked + dropped).first(where: { $0 < 1 || $0 > count }) {
            return .failure(SelectionError("There is no candidate \(wrong): \(range)."))
        }
        var chosen: [Int] = []
        for n in (picked.isEmpty ? Array(1...count) : picked) where !dropped.contains(n) && !chosen.contains(n) {
            chosen.append(n)
        }
        guard !chosen.isEmpty else { return .failure(SelectionError("That drops every candidate: \(range).")) }
        return .success(chosen)
    }

    struct SelectionError: Error, CustomStringConvertible, Equatable {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func seconds(_ artifact: Artifact) -> Double? {
        switch artifact.content {
        case .jetsamEvent(let e)?: e.time
        case .crashReport(let r)?: r.time
        case .metricPayload(let m)?: m.time
        default: nil
        }
    }

    static func time(_ artifact: Artifact) -> String? {
        switch artifact.content {
        case .jetsamEvent(let e)?: e.date
        case .crashReport(let r)?: r.date
        case .metricPayload(let m)?: m.timeStampEnd
        default: nil
        }
    }

    static func name(_ source: String) -> String {
        TerminalText.escaped(Artifact.fileName(of: source))
    }

    /// The operands, the files of the current folder and, on macOS, the newest synced device logs; and which
    /// of them the operands gave.
    func candidatePool() async -> (all: [Artifact], named: Set<String>) {
        let given = await collector.collect(state.operands)
        var operands: [String] = []
        let fm = FileManager.default
        let here = fm.currentDirectoryPath
        if let names = try? fm.contentsOfDirectory(atPath: here) {
            for name in names.sorted() where !name.hasPrefix(".") && name != (stateFile as NSString).lastPathComponent {
                var directory: ObjCBool = false
                if fm.fileExists(atPath: name, isDirectory: &directory), !directory.boolValue { operands.append(name) }
            }
        }
        #if os(macOS)
            let synced = NSHomeDirectory() + "/Library/Logs/CrashReporter/MobileDevice"
            if let devices = try? fm.contentsOfDirectory(atPath: synced) {
                var files: [(String, Date)] = []
                for device in devices where !device.hasPrefix(".") {
                    let dir = synced + "/" + device
                    for name in (try? fm.contentsOfDirectory(atPath: dir)) ?? [] where name.hasSuffix(".ips") {
                        let path = dir + "/" + name
                        let date = (try? fm.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast
                        files.append((path, date))
                    }
                }
                operands += files.sorted { $0.1 > $1.1 }.prefix(200).map(\.0)
            }
        #endif
        var seen = Set<String>()
        let all = (given + (await collector.collect(operands))).filter { seen.insert($0.source).inserted }
        return (all, Set(given.map(\.source)))
    }

    func document() -> FindingsDocument {
        FindingsDocument(
            session.result(toolVersion: Memhunt.version),
            run: FindingsDocument.RunInfo(id: "triage", startedAt: nil, finishedAt: nil),
            codes: FindingsDocument.knownCodes)
    }

    mutating func save() throws {
        state.session = session.state
        do {
            try AtomicFile.write(
                JSONText.pretty(state.recorded(by: SessionPaths(sessionFile: stateFile))), to: stateFile)
        } catch {
            throw CommandError("cannot save the triage session: \(error)")
        }
    }

    /// On Ctrl-C: say how to resume (the state is saved after every answer) and exit 130.
    func installInterruptHandler() -> (any DispatchSourceSignal)? {
        guard console.stdin === InputReader.standardInput else { return nil }
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let stderr = console.stderr
        source.setEventHandler {
            let (file, step) = TriageProgress.shared.current
            let at = step.map { " at step \($0.number) (\($0.title))" } ?? ""
            // The sentence wraps at the terminal's width; the command stands on a line of its own, whole, to copy.
            var sentence = "Interrupted\(at). The session is saved; resume it with:"
            if stderr.isTTY, let width = stderr.terminalColumns, width >= 20 {
                sentence = TextReporter.wrapLines(sentence, width: width)
            }
            stderr.write("\n\(sentence)\n  memhunt triage --resume \(ShellWord.quoted(file))\n")
            exit(130)
        }
        source.resume()
        return source
    }
}

/// Where the walk is, for the interrupt handler (which runs on another thread).
final class TriageProgress: @unchecked Sendable {
    static let shared = TriageProgress()
    private let lock = NSLock()
    private var file = "memhunt-triage.json"
    private var step: (title: String, number: Int)?

    func update(file: String, step: (String, Int)?) {
        lock.withLock {
            self.file = file
            self.step = step.map { (title: $0.0, number: $0.1) }
        }
    }

    var current: (String, (title: String, number: Int)?) { lock.withLock { (file, step) } }
}

/// Questions on stderr, answers from stdin, one line each.
struct Prompter {
    var console: Console

    /// A line or lines memhunt composed, quoting names and answers from outside: their control characters
    /// escaped (`TerminalText`), the line ends kept.
    func say(_ text: String) { show(wrapped(TerminalText.escaped(text, keepingNewlines: true))) }

    /// On a terminal, `text` wrapped at its width between words (the terminal would cut a word in two).
    func wrapped(_ text: String) -> String {
        guard console.stderr.isTTY, let width = console.stderr.terminalColumns, width >= 20 else { return text }
        return TextReporter.wrapLines(text, width: width)
    }

    /// Text the text reporter rendered (escaped there, colored maybe): written as it is.
    func show(_ text: String) { console.stderr.write(text.hasSuffix("\n") ? text : text + "\n") }

    /// The answer, or nil at end of input.
    func ask(_ question: String) -> String? {
        console.stderr.write(wrapped(TerminalText.escaped(question, keepingNewlines: true)) + " ")
        guard let line = console.stdin.readLine() else {
            console.stderr.write("\n")
            return nil
        }
        if !console.stdin.isTTY { console.stderr.write(TerminalText.escaped(line) + "\n") }
        return line
    }
}
