import Foundation
import MemhuntArtifacts
import MemhuntChecks
import MemhuntCore
import MemhuntHTTP
import MemhuntReports

/// `memhunt run`: walk a playbook over artifacts and report.
struct RunCommand {
    enum Format: String { case text, json }

    var command: ParsedCommand
    var console: Console

    func execute() async throws -> Memhunt.ExitStatus {
        let values = command.values
        guard let destination = OutputDestination(values.string("--output")) else {
            throw UsageError(
                path: command.path,
                reason: .invalidValue("", option: "--output", explanation: "a file path, or - for stdout"))
        }
        let collector = try ArtifactCollector(command, console: console)
        defer { collector.removeCache() }
        let playbook = try await loadPlaybook(values.string("--playbook") ?? "memory-hunt", collector: collector)
        let artifacts = await collector.collect(values.positionals)
        let engine = StepEngine(checks: builtInChecks, external: ProcessCheckRunner(), toolVersion: Memhunt.version)
        let progress = console.stderr.isTTY
        let stderr = console.stderr
        let result = await engine.run(
            playbook: playbook, artifacts: artifacts, app: values.string("--app"),
            allowExec: values.flag("--allow-exec")
        ) { event in
            guard progress, case .stepFinished(let step) = event else { return }
            stderr.write("[\(step.number)/\(playbook.steps.count)] \(step.step.id): \(step.status.rawValue)\n")
        }
        let format = command.value("--format", as: Format.self) ?? .text
        let output: String? = if case .path(let path) = destination { path } else { nil }
        let report: String
        switch format {
        case .json: report = FindingsDocument.render(result)
        case .text: report = TextReport.render(result, colored: output == nil && console.stdoutColored)
        }
        if let output {
            do {
                try AtomicFile.write(report, to: output)
            } catch {
                throw CommandError("\(error)")
            }
            console.note("memhunt: wrote \(output) (\(TextReport.summary(result)))")
        } else {
            console.stdout.write(report)
        }
        guard let failOn = command.value("--fail-on", as: Severity.self) else { return .success }
        return (result.highestSeverity.map { $0 >= failOn } ?? false) ? .findingsReachedThreshold : .success
    }

    /// A built-in id, a local path or an http(s) URL (a remote playbook may not run executables
    /// unless `--allow-exec` is given).
    private func loadPlaybook(_ reference: String, collector: ArtifactCollector) async throws -> Playbook {
        if ArtifactStore.isURL(reference) {
            let (text, source) = try await collector.fetchText(reference)
            return try check(playbookLoader.load(text: text, origin: source, directory: nil, isRemote: true))
        }
        if let builtIn = playbookLoader.builtIn(reference) { return try check(builtIn) }
        guard FileManager.default.fileExists(atPath: reference) else {
            let ids = BuiltInPlaybooks.all.map(\.id)
            throw CommandError(
                "No playbook '\(reference)': not a built-in id (\(ids.joined(separator: ", ")))"
                    + " and no such file\(Suggestion.hint(for: reference, among: ids))")
        }
        return try check(playbookLoader.load(path: reference))
    }

    private func check(_ result: Result<Playbook, PlaybookLoadError>) throws -> Playbook {
        switch result {
        case .success(let playbook): return playbook
        case .failure(let error):
            console.stderr.write(error.description + "\n")
            throw CommandError("the playbook is invalid (\(error.diagnostics.count) problem(s))")
        }
    }
}
