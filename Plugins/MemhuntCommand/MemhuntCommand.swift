import Foundation
import PackagePlugin

/// `swift package memhunt ARGUMENTS…`: runs memhunt, built from this package, with the arguments as given,
/// in the package's folder: a `.memhunt.yml` there (or above) is found as it is on the command line, so
/// `swift package memhunt run` walks the artifacts and gate the project file names. memhunt's output
/// passes through; its exit status becomes the command's (0 pass, 1 findings at the gate, 2 the hunt could
/// not be done, 64 usage), so a CI step gates on it as on `memhunt` itself.
///
/// The plugin asks for no permission: memhunt reads the package's files and writes the report to standard
/// output. SwiftPM shows everything a plugin writes on its own standard output, memhunt's standard error
/// included, so a report meant for a file is written with `--output FILE`, not redirected. Where the project
/// file asks for report files inside the package, macOS's plugin sandbox refuses
/// the write: run it as `swift package --disable-sandbox memhunt …` there (Linux has no plugin sandbox).
@main
struct MemhuntCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "memhunt")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        // memhunt's standard error (progress, and why it stopped) is passed on as it comes: SwiftPM shows what
        // the plugin itself writes (on its own standard output, with the report), and lost memhunt's stream
        // when the two shared it.
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        while case let said = errors.fileHandleForReading.availableData, !said.isEmpty {
            FileHandle.standardError.write(said)
        }
        process.waitUntilExit()
        // memhunt has said why on its standard error; its status is the command's.
        if process.terminationReason == .uncaughtSignal {
            Diagnostics.error("memhunt ended on signal \(process.terminationStatus)")
            exit(2)
        }
        if process.terminationStatus != 0 { exit(process.terminationStatus) }
    }
}
