import Foundation
import MemhuntArtifacts
import MemhuntChecks
import MemhuntCore
import MemhuntTestSupport
import Testing

/// Playbooks read from local files (the text parsing is tested in MemhuntCoreTests).
@Suite struct PlaybookFilesTests {
    let loader = PlaybookLoader(knownChecks: builtInChecks.map { $0.description })

    @Test func loadPathReadsTheFileAndRecordsItsDirectory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("p.yaml", "id: p\ntitle: P\nsummary: S\nsteps:\n  - { id: s, title: S }\n")
        let playbook = try loader.load(path: directory.path + "/p.yaml").get()
        #expect(playbook.origin == directory.path + "/p.yaml")
        #expect(playbook.directory == directory.path)
        #expect(playbook.isRemote == false)
        #expect(
            playbook.steps.map(\.location) == [
                MemhuntCore.SourceLocation(file: directory.path + "/p.yaml", line: 5, column: 5)
            ])
    }

    @Test func unreadableFileIsOneDiagnostic() {
        let result = loader.load(path: "does/not/exist.yaml")
        #expect(
            throws: PlaybookLoadError(diagnostics: [
                Diagnostic(.error, "cannot read playbook 'does/not/exist.yaml': no such file")
            ])
        ) {
            try result.get()
        }
    }
}
