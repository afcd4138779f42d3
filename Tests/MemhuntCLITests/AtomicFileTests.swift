import Foundation
import MemhuntHTTP
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

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

    @Test func leftoversOfKilledWritesAreSweptAndWritesInProgressKept() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A pid above the kernel's limit (4194304 at most) belongs to no process; our parent runs.
        let dead = AtomicFile.temporaryName("report.json", pid: 99_999_999, random: 0xbeef)
        let running = AtomicFile.temporaryName("report.json", pid: getppid(), random: 0xcafe)
        let otherFile = AtomicFile.temporaryName("other.json", pid: 99_999_999, random: 1)
        #expect(dead == ".report.json.memhunt-99999999-beef.tmp")
        for name in [dead, running, otherFile] { try directory.write(name, "{\"partial") }
        try AtomicFile.write("{}\n", to: directory.path + "/report.json")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                otherFile, running, "report.json",
            ])
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

/// What is already at the output path decides how the report is written (issue 8, defect 5).
struct OutputDestinationTests {
    @Test func devicesAreWrittenThroughNotReplaced() throws {
        try AtomicFile.write("report\n", to: "/dev/null")
        let type = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
        #expect(type == .typeCharacterSpecial)
    }

    @Test func aFIFOReceivesTheReport() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let fifo = directory.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        // The reader on a thread of its own: opening a FIFO blocks until both ends are open, and a reader
        // waiting for the cooperative pool could deadlock against the writer holding one of its threads.
        let data = Locked(Data())
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let handle = FileHandle(forReadingAtPath: fifo)!
            data.withLock { $0 = handle.readDataToEndOfFile() }
            try? handle.close()
            done.signal()
        }
        try AtomicFile.write("through the pipe\n", to: fifo)
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(String(decoding: data.withLock { $0 }, as: UTF8.self) == "through the pipe\n")
        var info = stat()
        #expect(lstat(fifo, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test func aSymbolicLinkIsRefusedAndLeftAlone() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("precious", "keep me\n")
        let link = directory.path + "/report.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory.path + "/precious")
        let error = #expect(throws: AtomicFileError.self) { try AtomicFile.write("x", to: link) }
        #expect(
            error?.description
                == "Could not write '\(link)': it is a symbolic link, which memhunt neither follows nor replaces; name its target"
        )
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == directory.path + "/precious")
        #expect(try String(contentsOfFile: directory.path + "/precious", encoding: .utf8) == "keep me\n")
    }

    @Test func anExistingFileKeepsItsPermissions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/report.txt"
        try AtomicFile.write("old", to: path)
        #expect(chmod(path, 0o640) == 0)
        try AtomicFile.write("new", to: path)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o640)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
    }

    @Test func pathsSplitWithoutFoundation() {
        #expect(AtomicFile.split("a") == (".", "a"))
        #expect(AtomicFile.split("/a") == ("/", "a"))
        #expect(AtomicFile.split("out/r.json") == ("out", "r.json"))
    }

    @Test func outputValues() {
        #expect(OutputDestination(nil) == .stdout)
        #expect(OutputDestination("-") == .stdout)
        #expect(OutputDestination("") == nil)
        #expect(OutputDestination("r.json") == .path("r.json"))
    }

    @Test func emptyOutputIsAUsageErrorAndDashIsStdout() async throws {
        let empty = await memhunt("run", "--output", "", "Fixtures/justsend")
        #expect(empty.status == 64)
        #expect(empty.stderr.contains("The value '' is invalid for '--output <file>'"))
        let dash = await memhunt("run", "--app", "JustSend", "--format", "json", "-o", "-", "Fixtures/justsend")
        #expect(dash.status == 0)
        #expect(dash.stdout.contains("\"jetsam.app.rank\": 7"))
    }

    @Test(.enabled(if: BinaryTests.binary != nil)) func aOneCharacterPathIsWritten() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Before: SIGILL in NSString.deletingLastPathComponent.
        let run = try await IOLimitsTests.shell(
            "cd \"$TMPDIR\" && exec \"$0\" \"$@\"", ["run", "-o", "a", Repo.fixture("justsend")], tmp: directory.path)
        #expect(run.status == 0)
        #expect(try String(contentsOfFile: directory.path + "/a", encoding: .utf8).contains("Subject:"))
    }
}
