import Foundation
import MemhuntArtifacts
import MemhuntCore
import MemhuntTestSupport
import Testing

enum SHA256Hex {
    /// `head -c 3145728 /dev/zero | tr '\\0' ' ' | sha256sum`
    static let spaces3MB = "6a3cfdf3ce3887c663d9474e0833b92190a4285f45b3358068cbdfd1f91a8ec7"
}

/// The local store on inputs that must neither hang nor loop.
@Suite struct LocalArtifactsTests {
    let jetsam = "justsend/JetsamEvent-2026-08-11-112056.ips"

    @Test func directoryLinkToAParentIsNotFollowed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try dir.write("a/record.ips", try Repo.bytes(jetsam))
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/a/up", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(
            atPath: dir.path + "/linked.ips", withDestinationPath: Repo.fixture(jetsam))
        let paths = LocalArtifacts.expand([dir.path])
        #expect(paths == [dir.path + "/a/record.ips", dir.path + "/linked.ips"])
        let linked = LocalArtifacts.load(path: dir.path + "/linked.ips")
        #expect(linked.status == .ok)
        #expect(linked.kind == .jetsamEvent)
    }

    @Test func devicesAndPipesAreNamedErrorsNotHangs() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let fifo = dir.path + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        for path in [fifo, "/dev/zero", "/dev/null"] where FileManager.default.fileExists(atPath: path) {
            let artifact = LocalArtifacts.load(path: path)
            #expect(artifact.status == .error, "\(path)")
            #expect(artifact.error == "not a regular file", "\(path)")
        }
        #expect(LocalArtifacts.load(path: dir.path + "/missing").error == "no such file or directory")
    }

    @Test func largeDocumentsAreRefusedButHashed() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/huge.json"
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        let chunk = Data(repeating: UInt8(ascii: " "), count: 1 << 20)
        for _ in 0..<3 { handle.write(chunk) }
        try handle.close()
        // The default limit is 64 MB; a 1 MB limit walks the same path in a fraction of the time.
        let artifact = LocalArtifacts.load(path: path, documentLimit: 1 << 20)
        #expect(artifact.status == .error)
        #expect(artifact.size == 3 << 20)
        #expect(artifact.sha256 == SHA256Hex.spaces3MB)
        #expect(artifact.error == "larger than the 1 MB limit for documents (3145728 bytes)")
    }
}
