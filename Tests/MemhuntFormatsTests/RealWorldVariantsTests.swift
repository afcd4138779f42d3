import Foundation
import MemhuntFormats
import MemhuntTestSupport
import Testing

/// Variants of samples, view dumps and pasted records seen in real files (issue 28, item 5), each in a fixture
/// of our own: the main thread spelled `Main Thread` or `(main)`, a Cycript dump wrapped in backticks, a
/// JetsamEvent shortened with `...` around whole process records, and fragments that are named, not read.
@Suite struct RealWorldVariantsTests {
    func sample(_ path: String) throws -> SampleReport {
        let outcome = ArtifactReader.read(try Repo.bytes(path))
        guard case .success(.repro(.sample(let report))) = outcome.result else { throw Failure("\(path): \(outcome)") }
        return report
    }

    func failure(_ path: String) throws -> String {
        let outcome = ArtifactReader.read(try Repo.bytes(path))
        guard case .failure(let error) = outcome.result, outcome.kind == nil else {
            throw Failure("\(path): \(outcome)")
        }
        return error.message
    }

    /// `sample` of a process whose main thread runs no dispatch queue: its header says `Main Thread`.
    @Test func sampleMainThreadSpelledMainThread() throws {
        let report = try sample("formats/repro/sample-main-thread-name.txt")
        #expect(report.processName == "Courier")
        #expect(report.mainThreadSamples == 1_200)
        #expect(report.layoutSamples == 1_150)
        #expect(report.idleSamples == 50)
        #expect(report.mainThreadFrames.count == 5)
    }

    /// spindump's `Thread 0x9a1 (main)`; a later thread that calls itself "Main Thread" is not a second main.
    @Test func spindumpMainThreadSpelledMain() throws {
        let report = try sample("formats/repro/spindump-main-spelling.txt")
        #expect(report.processName == "Courier")
        #expect(report.mainThreadSamples == 40)
        #expect(report.layoutSamples == 36)
        #expect(report.idleSamples == 4)
        #expect(!report.mainThreadFrames.contains { $0.symbol.hasPrefix("thread_start") })
    }

    /// Cycript prints the description as a string between backticks: the root line starts with one and the last
    /// line ends with one; every view and layer still counts.
    @Test func cycriptDumpBetweenBackticks() throws {
        let outcome = ArtifactReader.read(try Repo.bytes("formats/repro/cycript-backtick.txt"))
        guard case .success(.repro(.viewHierarchy(let dump))) = outcome.result else { throw Failure("\(outcome)") }
        #expect(dump.views == 5)
        #expect(dump.layers == 5)
        #expect(dump.layerClasses == ["UIWindowLayer": 1, "CALayer": 3, "_UILabelLayer": 1])
        #expect(dump.maxDepth == 4)
    }

    /// One thread's backtrace without the report around it is named as such, not as text of no known kind; it
    /// is still of no kind memhunt reads.
    @Test func aThreadBacktraceWithoutItsReportIsNamed() throws {
        #expect(
            try failure("bad/thread-backtrace-without-header.txt")
                == "a thread backtrace of 5 frames without a crash report's header: no "
                + "process, exception or termination in it (632 bytes)")
        let outcome = ArtifactReader.read(try Repo.bytes("bad/thread-backtrace-without-header.txt"))
        #expect(outcome.kind == nil)
        #expect(outcome.isUnrecognized)
    }

    /// A piece of a MetricKit diagnostic: its kind says so (never "may be a crash report"), its error what it is.
    @Test func aMetricKitCallStackTreeIsNamed() throws {
        let outcome = ArtifactReader.read(try Repo.bytes("bad/metrickit-callstacktree.json"))
        #expect(outcome.kind == .diagnosticPayload)
        guard case .failure(let error) = outcome.result else { throw Failure("\(outcome)") }
        #expect(
            error.message
                == "a MetricKit call-stack tree (MXCallStackTree JSON) without its diagnostic: frames of binaries, "
                + "not read (368 bytes)")
        // Of a kind memhunt knows, so not "unrecognized": a piece that could not be read.
        #expect(!outcome.isUnrecognized)
    }

    /// The real `jetsam_vm-thrashing.crash`: the book's author kept one whole process between two `...`; it is
    /// read (the frontmost app killed for vm-thrashing), the record stays elided.
    @Test(.enabled(if: Repo.realworld != nil, "shared/realworld is not beside the checkout"))
    func realThrashingRecordKeepsItsOneWholeProcess() throws {
        let path = Repo.realworld! + "/jetsam/jetsam_vm-thrashing.crash"
        let outcome = ArtifactReader.read([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        guard case .success(.jetsamEvent(let event)) = outcome.result else { throw Failure("\(outcome)") }
        #expect(event.processes.map(\.name) == ["KodiMusicRemoteP"])
        #expect(event.processes[0].reason == "vm-thrashing")
        #expect(event.processes[0].lifetimeMax == 3_557)
        #expect(event.processes[0].rpages == 2_050)
        #expect(event.pageSize == 16_384)
        #expect(event.compressions == 2_526_427)
        #expect(event.recovery?.state == .elided)
        #expect(
            event.recovery?.notes == [
                "elided at line 31 (...): read up to it and the whole process record after it (lines 32–46), "
                    + "lines 31, 47–48 not; processes[0] as pasted was cut by the elision and left out; the whole "
                    + "record after it is processes[0] here"
            ])
    }
}
