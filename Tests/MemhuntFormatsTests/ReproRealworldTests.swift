import Foundation
import MemhuntFormats
import MemhuntTestSupport
import Testing

/// Public captures under `../shared/realworld`, when the checkout has them beside it.
@Suite(.enabled(if: Repo.realworld != nil, "shared/realworld is not beside the checkout")) struct ReproRealworldTests {
    static func files(_ folder: String) -> [String] {
        guard let root = Repo.realworld,
            let names = try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)
        else { return [] }
        return names.sorted().map { root + "/" + folder + "/" + $0 }
    }

    static func read(_ path: String) throws -> Result<ReproArtifact, FormatError>? {
        ReproReader.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test func clionVMMapSummary() throws {
        let path = try #require(Self.files("vmmap").first { $0.hasSuffix("vmmap-summary-macOS14-CLion.txt") })
        guard case .vmmap(let summary) = try Self.read(path)?.get() else {
            Issue.record("not read as vmmap")
            return
        }
        #expect(summary.physicalFootprintBytes == Int((1.7 * 1_073_741_824).rounded()))
        #expect(summary.physicalFootprintPeakBytes == Int((1.8 * 1_073_741_824).rounded()))
        #expect(summary.processName == "clion")
        #expect(summary.coreAnimationBytes == (1024 + 160) * 1024)
        #expect(summary.region("IOSurface")?.dirtyBytes == Int((85.5 * 1_048_576).rounded()))
        #expect(summary.region("MallocHelperZone_0x102730000") == nil)
    }

    @Test func changeLogs() throws {
        for path in Self.files("changelog") {
            guard case .changeLog(let log) = try Self.read(path)?.get() else {
                Issue.record("\(path) not read as a change log")
                continue
            }
            #expect(log.evaluations > 0, "\(path)")
        }
    }

    @Test func viewHierarchies() throws {
        for path in Self.files("recursive-description") {
            guard case .viewHierarchy(let dump) = try Self.read(path)?.get() else {
                Issue.record("\(path) not read as a view hierarchy")
                continue
            }
            #expect(dump.layers > 0, "\(path)")
            if path.hasSuffix("chisel-pviews-with-layer-only-lines.txt") {
                #expect(dump.layerClasses["_UILabelContentLayer"] == 2)
                #expect(dump.layers == 8)
            }
        }
    }

    @Test func noneCrash() throws {
        for folder in ["vmmap", "sample", "changelog", "recursive-description"] {
            for path in Self.files(folder) { _ = try Self.read(path) }
        }
    }
}
