import Foundation
import MemhuntChecks
import MemhuntCore
import MemhuntReports

/// `.memhunt.yml`: found upward from the working directory (or named with `--config`), validated as a
/// playbook is, and applied under the flags: what a flag gives, the file does not override.
enum ProjectDefaults {
    static let fileName = ".memhunt.yml"
    static let config = OptionSpec(
        "config", valueName: "file",
        help: "The project file (by default the nearest .memhunt.yml upward from the working directory).")
    static let noConfig = OptionSpec("no-config", help: "Read no project file.")

    static let loader = ProjectFileLoader(
        knownChecks: builtInChecks.map { $0.description }, formats: reporters.identifiers)

    /// The nearest `.memhunt.yml` in `directory` or a folder above it.
    static func find(from directory: String) -> String? {
        var url = URL(fileURLWithPath: directory).standardizedFileURL
        while true {
            let candidate = url.appendingPathComponent(fileName).path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return nil }
            url = parent
        }
    }

    /// The project file this command reads, or nil; a file that cannot be read or has problems stops the
    /// command with each problem at its place.
    static func load(_ parsed: ParsedCommand, console: Console) throws -> ProjectFile? {
        guard !parsed.values.flag(noConfig) else { return nil }
        let given = parsed.values.string(config)
        guard let path = given ?? find(from: FileManager.default.currentDirectoryPath) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandError("\(path): cannot read the project file (no such file or not readable)")
        }
        let directory = (path as NSString).deletingLastPathComponent
        switch loader.load(text: String(decoding: data, as: UTF8.self), path: path, directory: directory) {
        case .success(let project): return project
        case .failure(let error):
            console.lines(error.description)
            throw CommandError("\(path): the project file has \(Plural.count(error.diagnostics.count, "problem"))")
        }
    }

    /// `parsed` with what the project file gives and the flags do not: the app, the playbook, the tracker, and
    /// the operands when none is given (and no ledger names its own).
    static func apply(_ project: ProjectFile, to parsed: ParsedCommand) -> ParsedCommand {
        var parsed = parsed
        func fill(_ option: OptionSpec, _ value: String?) {
            guard let value, parsed.values.options[option.name] == nil else { return }
            parsed.values.options[option.name] = [value]
        }
        // The app by name, else by its first bundle id (an app is named either way).
        fill(RunCommand.app, project.app ?? project.bundleIDs.first)
        fill(
            RunCommand.playbook,
            project.playbook.map { playbookLoader.builtIn($0) != nil ? $0 : project.resolve($0) })
        fill(RunCommand.attach, project.attach)
        if parsed.values.positionals.isEmpty, parsed.values.options[RunCommand.ledger.name] == nil {
            parsed.values.positionals = (project.artifacts.isEmpty ? ["."] : project.artifacts).flatMap {
                operands(project.resolve($0), project: project)
            }
        }
        return parsed
    }

    /// A folder the project file names, as operands: its entries but the reports folder the file writes into
    /// (a run's own reports are no artifacts of the next) and hidden ones; any other path as it is.
    static func operands(_ path: String, project: ProjectFile) -> [String] {
        guard !project.reportFormats.isEmpty else { return [path] }
        let reports = URL(fileURLWithPath: project.resolve(project.reportsFolder ?? "reports")).standardizedFileURL.path
        guard reports.hasPrefix(URL(fileURLWithPath: path).standardizedFileURL.path + "/"),
            let entries = try? FileManager.default.contentsOfDirectory(atPath: path)
        else { return [path] }
        return entries.sorted().filter { !$0.hasPrefix(".") }.map { path + "/" + $0 }.filter {
            URL(fileURLWithPath: $0).standardizedFileURL.path != reports
        }
    }

    /// Each report format the project file names, written into its reports folder as `findings.<format>`.
    static func writeReports(_ document: FindingsDocument, project: ProjectFile, console: Console) throws {
        guard !project.reportFormats.isEmpty else { return }
        let folder = project.resolve(project.reportsFolder ?? "reports")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CommandError("\(folder): cannot make the reports folder: \(error.localizedDescription)")
        }
        for format in project.reportFormats {
            guard let reporter = reporters.named(format) else { continue }
            let path = folder + "/findings." + format
            do {
                try AtomicFile.write(
                    reporter.render(document, options: ReportOptions(decisions: commandLineDecisions)), to: path)
            } catch {
                throw CommandError("\(error)")
            }
            if console.detail != .quiet { console.note("memhunt: wrote \(path)") }
        }
    }
}
