import Foundation
import MemhuntCLI
import MemhuntTestSupport
import Testing

struct AtomicFileTests {
    @Test func writesAndReplacesWithoutLeavingATemporaryFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/report.json"
        try AtomicFile.write("first", to: path)
        try AtomicFile.write([0x7B, 0x7D, 0x0A], to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{}\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report.json"])
    }

    @Test func anUnwritableDirectoryNamesThePathAndTheReason() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/missing/report.json"
        #expect(throws: AtomicFileError(path: path, code: ENOENT)) { try AtomicFile.write("x", to: path) }
        do {
            try AtomicFile.write("x", to: path)
        } catch {
            #expect(error.description == "Could not write '\(path)': No such file or directory")
        }
    }

    @Test func aDirectoryInTheWayIsReportedAndTheTemporaryFileRemoved() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/report"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(throws: AtomicFileError(path: path, code: EISDIR)) { try AtomicFile.write("x", to: path) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["report"])
    }
}
