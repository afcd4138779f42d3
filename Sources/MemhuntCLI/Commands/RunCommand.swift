import Foundation
import MemhuntArtifacts
import MemhuntChecks
import MemhuntCore
import MemhuntHTTP
import MemhuntReports
import MemhuntTrackers

/// `memhunt run`: walk a playbook over artifacts and report.
struct RunCommand: ReportingCommand {
    static let playbook = OptionSpec(
        "playbook", valueName: "id-or-path-or-url",
        help: "A built-in playbook id, a playbook file, or an http(s) URL.", defaultValue: "memory-hunt")
    static let app = OptionSpec(
        "app", valueName: "name", help: "The app under investigation: a process name or a bundle id.")
    static let header = OptionSpec(
        "header", valueName: "header",
        help: "An HTTP header for every download, as 'Name: value'; @FILE reads one a line from FILE.",
        isRepeatable: true)
    static let maxArtifactSize = OptionSpec(
        "max-artifact-size", valueName: "MB", help: "Refuse downloads larger than this many megabytes.",
        defaultValue: "256")
    static let maxManifestEntries = OptionSpec(
        "max-manifest-entries", valueName: "count", help: "Refuse manifests that list more artifacts.",
        defaultValue: "1000")
    static let downloadTimeout = OptionSpec(
        "download-timeout", valueName: "seconds",
        help: "Give up on a download not complete after this long, retries included.", defaultValue: "300")
    static let deadline = OptionSpec(
        "deadline", valueName: "seconds",
        help: "Give up on the downloads still running after this long in all; each is reported as not fetched.")
    static let allowExec = OptionSpec("allow-exec", help: "Allow the playbook to run external programs.")
    static let baseline = OptionSpec(
        "baseline", valueName: "findings",
        help: "A saved run (memhunt run --format json): report and gate only the findings it does not have.")
    static let attach = OptionSpec(
        "attach", valueName: "target",
        help: "Then attach the findings to a bug tracker, once and redacted (see memhunt attach --help).")
    static let ledger = OptionSpec(
        "ledger", valueName: "file",
        help: "An investigation ledger (memhunt.ledger/1): judge its experiments and fix as well; its artifacts "
            + "are the operands when none is given.")
    static let new = OptionSpec(
        "new", help: "With --attach: post a new comment even if this hunt has one (by default the run edits it).")

    static let spec = CommandSpec(
        "run",
        abstract: "Walk a playbook over artifacts and report facts and findings.",
        arguments: [
            ArgumentSpec(
                "artifact",
                help: "A file, a directory, an http(s) URL of an artifact or a manifest, or - for stdin "
                    + "(with --ledger, its artifacts when none is given).",
                isRepeating: true, isOptional: true)
        ],
        options: [
            playbook, app, Options.format(), Options.output, Options.failOn, baseline, header, maxArtifactSize,
            maxManifestEntries, downloadTimeout, deadline, allowExec, ledger, attach, new, ProjectDefaults.config,
            ProjectDefaults.noConfig, Options.color, Options.quiet, Options.verbose,
        ]
    )

    var parsed: ParsedCommand
    var console: Console
    var output: ReportDestination

    func execute() async throws -> Memhunt.ExitStatus {
        // The project file's settings go under the flags before anything reads them.
        let project = try ProjectDefaults.load(parsed, console: console)
        if let project, console.detail != .quiet { console.note("memhunt: project file \(project.path)") }
        let parsed = project.map { ProjectDefaults.apply($0, to: self.parsed) } ?? self.parsed
        let output = project == nil ? self.output : try ReportDestination(parsed)
        let values = parsed.values
        let started = Date()
        let known = try values.string(Self.baseline).map { ($0, try FindingsInput.read($0, console: console)) }
        // The operands are optional only with a ledger, which names its own.
        if values.positionals.isEmpty, values.string(Self.ledger) == nil {
            let empty = values.options.isEmpty && values.flags.isEmpty
            throw UsageError(path: parsed.path, reason: .missingArgument("artifact", commandWasEmpty: empty))
        }
        let ledger = try values.string(Self.ledger).map { try LedgerRun.load($0, console: console) }
        let operands = values.positionals.isEmpty ? ledger.map(LedgerRun.operands) ?? [] : values.positionals
        try Self.requireOperands(operands)
        let collector = try ArtifactCollector(parsed, console: console)
        defer { collector.removeCache() }
        let loaded = try await PlaybookReference.load(
            values.string(Self.playbook) ?? "memory-hunt", collector: collector, console: console)
        let playbook = project?.applying(to: loaded) ?? loaded
        let artifacts = await collector.collect(operands)
        let app = values.string(Self.app) ?? ledger?.subject
        try Self.requireApp(app, in: artifacts)
        let engine = StepEngine(
            checks: builtInChecks, external: ProcessCheckRunner(environment: console.environment),
            toolVersion: Memhunt.version)
        let progress = Progress(
            console.stderr, mode: Progress.mode(for: console),
            width: console.stderr.terminalColumns ?? 100)
        let result = await engine.run(
            playbook: playbook, artifacts: artifacts, app: app,
            allowExec: values.flag(Self.allowExec)
        ) { event in
            switch event {
            case .stepStarted(let number, let count, let step):
                progress.update("[\(number)/\(count)] \(step.id) …")
            case .stepFinished(let step):
                progress.log("[\(step.number)/\(playbook.steps.count)] \(step.step.id): \(step.status.rawValue)")
            }
        }
        progress.finish()
        var document = FindingsDocument(
            result,
            run: FindingsDocument.RunInfo(
                id: UUID().uuidString.lowercased(), startedAt: Timestamps.iso8601(started, console.environment),
                finishedAt: Timestamps.iso8601(Date(), console.environment)),
            codes: FindingsDocument.knownCodes)
        if let ledger {
            progress.update("ledger: judging \(Plural.count(LedgerJudge.sides(of: ledger).count, "side")) …")
            document.ledger = await LedgerRun.judged(
                ledger, playbook: playbook, app: app, collector: collector, allowExec: values.flag(Self.allowExec))
            progress.finish()
        }
        if let (source, baseline) = known {
            document = document.suppressing(baseline, source: source)
            let n = document.baseline?.suppressed ?? 0
            if console.detail != .quiet {
                console.note("memhunt: \(Plural.count(n, "finding")) known from the baseline \(source) left out")
            }
        }
        if let project, !project.suppressions.isEmpty {
            document = document.suppressing(
                project.suppressions, today: String(Timestamps.iso8601(started, console.environment).prefix(10)))
        }
        // The gate: the flag, else the project file's, else the playbook's own.
        let flag = values.value(Options.failOn, as: Severity.self)
        let failOn = flag ?? project?.failOn ?? playbook.failOn
        let origin = flag != nil ? nil : project?.gateOrigin ?? playbook.gateOrigin
        document.gate = FindingsDocument.Gate.decide(
            document, failOn: failOn, failOrigin: origin,
            operands: operands.map(ArtifactStore.shown(operand:)),
            unreadNaming: Self.unreadFiles(naming: app, in: artifacts))
        try output.write(document, format: values.string(Options.format()) ?? "text", console: console)
        if let project { try ProjectDefaults.writeReports(document, project: project, console: console) }
        if let target = values.string(Self.attach) {
            // The report is written first; a tracker that fails makes the run exit 2 whatever the gate said.
            let attached = await AttachCommand.attach(
                document, to: target, options: AttachOptions(forceNew: values.flag(Self.new)), console: console)
            if attached != .success { return attached }
        }
        return Gate.announce(document.gate, console: console)
    }
}

extension RunCommand {
    /// A local operand that cannot be read at all (it does not exist, is a device, cannot be opened) stops the
    /// run before the walk with one line (exit 2), as an unknown `--app` does: eight steps of guidance over
    /// nothing would say less than the line.
    static func requireOperands(_ operands: [String]) throws {
        for operand in operands where operand != "-" && !ArtifactStore.isURL(operand) {
            if let why = LocalArtifacts.unreadable(operand) { throw CommandError("\(operand): \(why)") }
        }
    }

    /// An `--app` that no artifact names stops the run before the walk (exit 2, with the closest name), unless
    /// a file that could not be read names it.
    static func requireApp(_ app: String?, in artifacts: [Artifact]) throws {
        guard let app else { return }
        let subject = StepEngine.resolveSubject(app: app, artifacts: artifacts)
        guard subject.matched == false, subject.absenceAnswered != true, unreadFiles(naming: app, in: artifacts).isEmpty
        else { return }
        let unread = artifacts.count(where: \.holdsUnknownContent)
        throw CommandError(
            FindingsDocument.Gate.unmatchedApp(
                app, candidates: subject.candidates ?? [], unread: unread, carriers: carriers(artifacts)))
    }

    /// For each name an artifact gives its app (or a JetsamEvent lists among its processes), the file name of the
    /// first artifact that gives it.
    static func carriers(_ artifacts: [Artifact]) -> [String: String] {
        var result: [String: String] = [:]
        for artifact in artifacts {
            var names = ArtifactOwner.names(of: artifact)
            if case .jetsamEvent(let event)? = artifact.content { names += event.processes.map(\.name) }
            for name in names where result[name] == nil {
                result[name] = Artifact.fileName(of: artifact.source)
            }
        }
        return result
    }

    /// The sources of files that could not be read whose first megabyte names `app` (case-insensitive): the app
    /// may be in them, so an `--app` that matches nothing read is not a hunt that could not be done.
    static func unreadFiles(naming app: String?, in artifacts: [Artifact]) -> [String] {
        guard let app, !app.isEmpty else { return [] }
        let needle = Array(app.lowercased().utf8)
        return artifacts.filter { $0.status != .ok }.compactMap { artifact in
            // Regular files only: a FIFO among them would block the run for ever.
            guard let path = artifact.localPath, let head = LocalArtifacts.head(of: path, upTo: 1 << 20) else {
                return nil
            }
            let bytes = head.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
            guard bytes.count >= needle.count else { return nil }
            for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
                if Array(bytes[start..<start + needle.count]) == needle { return artifact.source }
            }
            return nil
        }
    }
}

/// The exit status announced: decided once from the document (`FindingsDocument.Gate.decide`, in
/// MemhuntReports), said here.
enum Gate {
    /// The exit status; when it is not 0, one line on stderr says why. Exit 1 is not announced when stdout
    /// failed: `Memhunt.main` makes that run exit 2 and says so.
    static func announce(_ gate: FindingsDocument.Gate, console: Console) -> Memhunt.ExitStatus {
        let status = Memhunt.ExitStatus(rawValue: Int32(gate.exitStatus)) ?? .couldNotRun
        if status == .couldNotRun || (status != .success && console.stdout.failure == nil) {
            console.note("memhunt: exit \(gate.exitStatus): \(gate.reason ?? "")")
        }
        return status
    }
}

/// Times in the findings document: ISO 8601 UTC; `SOURCE_DATE_EPOCH` pins them for reproducible output.
enum Timestamps {
    /// `2026-11-30T16:30:02Z`: UTC, whole seconds, as `ISO8601DateFormatter` writes it. By `gmtime_r`, not the
    /// formatter, which opened an ICU calendar and time zone: a large share of the work of a run without artifacts.
    static func iso8601(_ date: Date, _ environment: [String: String]) -> String {
        let pinned = environment["SOURCE_DATE_EPOCH"].flatMap(Double.init).map(Date.init(timeIntervalSince1970:))
        let seconds = ((pinned ?? date).timeIntervalSince1970).rounded(.down)
        guard seconds.magnitude < 1e15 else { return "1970-01-01T00:00:00Z" }
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return "1970-01-01T00:00:00Z" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = Int(parts.tm_year) + 1900
        let yearText =
            year >= 0 && year < 1000 ? String(repeating: "0", count: 4 - "\(year)".count) + "\(year)" : "\(year)"
        return yearText + "-" + two(parts.tm_mon + 1) + "-" + two(parts.tm_mday) + "T" + two(parts.tm_hour) + ":"
            + two(parts.tm_min) + ":" + two(parts.tm_sec) + "Z"
    }
}

/// Where `-o` sends a report: stdout (no option, or `-`) or a file written atomically.
struct ReportDestination {
    var path: String?
    /// The local files the command reads, and whether one operand is standard input: nothing memhunt writes
    /// (the report, the job summary) may be one of them.
    private var inputs: [String] = []
    private var readsStandardInput = false

    init(_ parsed: ParsedCommand) throws {
        let given = parsed.values.string(Options.output)
        if given == "" {
            throw UsageError(
                path: parsed.path,
                reason: .invalidValue("", option: "--output", explanation: "a file path, or - for stdout"))
        }
        path = given == "-" ? nil : given
        inputs = Self.inputs(of: parsed)
        readsStandardInput = parsed.values.positionals.contains("-")
        if let path, let input = input(replacedBy: path) {
            throw UsageError(
                path: parsed.path,
                reason: .invalidValue(
                    path, option: "--output",
                    explanation:
                        "it is an input of this run (\(input)), which memhunt never replaces; name another file"
                ))
        }
    }

    /// The input that writing `output` would replace or append to, as the person gave it; nil when none.
    func input(replacedBy output: String) -> String? {
        if readsStandardInput, SameFile.isStandardInput(output) { return "standard input" }
        return SameFile.input(replacedBy: output, inputs: inputs)
    }

    /// The local files a command reads: its operands (a folder's files), and its playbook, baseline, template
    /// and triage session.
    static func inputs(of parsed: ParsedCommand) -> [String] {
        let named = ["--playbook", "--baseline", "--template", "--session", "--resume", "--ledger"].compactMap {
            parsed.values.options[$0]?.last
        }
        let operands = parsed.values.positionals.filter { $0 != "-" && !ArtifactStore.isURL($0) }
        return named.filter { !ArtifactStore.isURL($0) } + LocalArtifacts.expand(operands)
    }

    /// Renders `document` in `format` and writes it; a file gets a note on stderr.
    func write(_ document: FindingsDocument, format: String, console: Console) throws {
        guard let reporter = reporters.named(format) else { throw CommandError("unknown format '\(format)'") }
        let options = ReportOptions(
            colored: path == nil && console.stdoutColored, decisions: commandLineDecisions,
            width: path == nil ? console.reportWidth : nil, detail: console.detail)
        let report = reporter.render(document, options: options)
        try appendJobSummary(document, reporter: reporter, options: options, console: console)
        guard let path else { return console.stdout.write(report) }
        do {
            try AtomicFile.write(report, to: path)
        } catch {
            throw CommandError("\(error)")
        }
        if console.detail != .quiet { console.note("memhunt: wrote \(path) (\(TextReporter.summaryLine(document)))") }
    }
}

extension ReportDestination {
    /// `--format github` in a GitHub Actions job: the Markdown report appended to `$GITHUB_STEP_SUMMARY`.
    func appendJobSummary(
        _ document: FindingsDocument, reporter: any Reporter.Type, options: ReportOptions, console: Console
    ) throws {
        guard reporter.identifier == GitHubReporter.identifier, let path = console.environment["GITHUB_STEP_SUMMARY"],
            !path.isEmpty
        else { return }
        // The output rules hold for the job summary too: it is never an input of the run, or a link to one.
        if let input = input(replacedBy: path) {
            throw CommandError(
                "GITHUB_STEP_SUMMARY names \(path), an input of this run (\(input)), which memhunt never writes to")
        }
        var plain = options
        plain.colored = false
        try JobSummary.append(GitHubReporter.jobSummary(document, options: plain), to: path)
    }
}

/// Appending to the job summary file (created when missing), as GitHub's own actions do.
enum JobSummary {
    static func append(_ text: String, to path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw CommandError("\(path): cannot create the job summary file (GITHUB_STEP_SUMMARY)")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw CommandError("\(path): cannot write the job summary file (GITHUB_STEP_SUMMARY)")
        }
        defer { try? handle.close() }
        do {
            _ = try handle.seekToEnd()
            try handle.write(contentsOf: Data(text.utf8))
        } catch {
            throw CommandError("\(path): cannot write the job summary file (GITHUB_STEP_SUMMARY): \(error)")
        }
    }
}

/// A playbook named on the command line: a built-in id, a local path or an http(s) URL (a remote
/// playbook may not run executables unless the person allows it).
enum PlaybookReference {
    static func load(_ reference: String, collector: ArtifactCollector, console: Console) async throws -> Playbook {
        if ArtifactStore.isURL(reference) {
            let (text, source) = try await collector.fetchText(reference)
            return try check(
                playbookLoader.load(text: text, origin: source, directory: nil, isRemote: true), console: console)
        }
        return try loadLocal(reference, console: console)
    }

    /// A built-in id or a local path.
    static func loadLocal(_ reference: String, console: Console) throws -> Playbook {
        if let builtIn = playbookLoader.builtIn(reference) { return try check(builtIn, console: console) }
        guard FileManager.default.fileExists(atPath: reference) else {
            let ids = BuiltInPlaybooks.all.map(\.id)
            throw CommandError(
                "No playbook '\(reference)': not a built-in id (\(ids.joined(separator: ", ")))"
                    + " and no such file\(Suggestion.hint(for: reference, among: ids))")
        }
        return try check(playbookLoader.load(path: reference), console: console)
    }

    private static func check(_ result: Result<Playbook, PlaybookLoadError>, console: Console) throws -> Playbook {
        switch result {
        case .success(let playbook): return playbook
        case .failure(let error):
            console.lines(error.description)
            throw CommandError("the playbook is invalid (" + Plural.count(error.diagnostics.count, "problem") + ")")
        }
    }
}
