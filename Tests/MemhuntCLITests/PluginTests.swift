import Foundation
import MemhuntTestSupport
import Testing

/// The SwiftPM command plugin, from an app's package that depends on memhunt by path: `swift package memhunt`
/// builds memhunt and runs it in the package's folder, its exit status and messages passed on. The build
/// has its own scratch folder (`.build/plugin-package`), kept between runs: only the first builds memhunt whole.
@Suite(.serialized) struct PluginTests {
    static let scratch = Repo.root + "/.build/plugin-package"

    /// A package `App` that depends on this repository, with Fixtures/justsend as its `artifacts` folder.
    static func appPackage() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        try dir.write(
            "Package.swift",
            """
            // swift-tools-version:6.0
            import PackageDescription

            let package = Package(
                name: "App",
                dependencies: [.package(path: "\(Repo.root)")],
                targets: [.target(name: "App")]
            )

            """)
        try dir.write("Sources/App/App.swift", "public let answer = 42\n")
        try FileManager.default.copyItem(atPath: Repo.fixture("justsend"), toPath: dir.path + "/artifacts")
        return dir
    }

    static func swiftPackage(_ dir: TemporaryDirectory, _ arguments: [String]) async throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let swift = try #require(Tool.which("swift"), "the Swift toolchain runs the plugin")
        return try await Tool.run(
            swift, ["package", "--package-path", dir.path, "--scratch-path", scratch, "memhunt"] + arguments)
    }

    @Test(.timeLimit(.minutes(15))) func theCommandRunsMemhuntInTheAppsPackage() async throws {
        let dir = try Self.appPackage()
        defer { dir.remove() }
        let version = try await Self.swiftPackage(dir, ["--version"])
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.stdout.hasPrefix("memhunt "), "\(version.stdout)")

        // A relative operand and `--output` resolve in the app's folder; the gate's status comes back.
        let run = try await Self.swiftPackage(
            dir, ["run", "-q", "--fail-on", "warning", "--format", "json", "--output", "findings.json", "artifacts"])
        #expect(run.status != 0)
        // SwiftPM shows the plugin's exit status, and memhunt's reason on the plugin's output.
        #expect(run.stderr.contains("Plugin ended with exit code 1"), "\(run.stderr)")
        #expect(
            run.stdout.contains("memhunt: exit 1: 7 findings at warning or above (--fail-on warning)"), "\(run.stdout)")
        let report = try String(contentsOfFile: dir.path + "/findings.json", encoding: .utf8)
        #expect(report.contains("JustSend ranked 7 of 16 processes by lifetime peak (725 MB)"))

        let usage = try await Self.swiftPackage(dir, ["run", "--no-such-option"])
        #expect(usage.stderr.contains("Plugin ended with exit code 64"), "\(usage.stderr)")
        #expect(usage.stdout.contains("Error: Unknown option '--no-such-option'"), "\(usage.stdout)")
    }
}
