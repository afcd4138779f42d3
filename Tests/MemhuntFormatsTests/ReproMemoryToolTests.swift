import MemhuntFormats
import Testing

@Suite struct ReproMemoryToolTests {
    @Test func vmmapAfterEnteringDetail() throws {
        guard case .vmmap(let summary) = try ReproFixture.read("vmmap-detail-after.txt") else {
            Issue.record("not vmmap")
            return
        }
        #expect(summary.processName == "Memo")
        #expect(summary.pid == 48211)
        #expect(summary.platform == "iOS Simulator")
        #expect(summary.dateTime == "2026-08-11 14:02:31.512 +0900")
        #expect(summary.physicalFootprintBytes == 640_679_936)  // 611.0M, 1024-based
        #expect(summary.physicalFootprintPeakBytes == 640_679_936)
        #expect(summary.coreAnimationBytes == 346 * 1_048_576)  // dirty 346.0M + swapped 0K
        #expect(summary.region("CoreAnimation")?.regionCount == 3611)
        #expect(
            summary.layerMemoryRegions.map(\.name) == [
                "CoreAnimation", "IOSurface", "IOAccelerator", "CG image", "CG raster data",
            ])
        #expect(summary.region("CG image")?.dirtyBytes == 4208 * 1024)
        let malloc = try #require(summary.region("MALLOC_LARGE"))
        #expect(malloc.note == "see MALLOC ZONE table below")
        #expect(malloc.virtualBytes == 61 * 1_048_576)
        #expect(summary.region("unused but dirty shlib __DATA")?.residentBytes == 140 * 1024)
        #expect(summary.region("__CTF")?.virtualBytes == 824)
        #expect(summary.region("VM_ALLOCATE (reserved)")?.note == "reserved VM address space (unallocated)")
        #expect(summary.total?.dirtyBytes == 640_679_936)
        #expect(summary.regions.count == 15)
        #expect(summary.region("DefaultMallocZone_0x100f14000") == nil)
    }

    @Test func twoColumnTableUsesVirtualSizeForCoreAnimation() throws {
        let text = """
                                            VIRTUAL   REGION 
            REGION TYPE                        SIZE    COUNT (non-coalesced) 
            ===========                     =======  ======= 
            CG backing stores                 5040K        8 
            CoreAnimation                     43.4M      389 
            MALLOC_NANO (reserved)           384.0M        1         reserved VM address space (unallocated)
            ===========                     =======  ======= 
            TOTAL                              1.1G     1210 

            """
        let summary = try VMMapSummary.parse(Array(text.utf8)).get()
        #expect(ReproReader.detect(Array(text.utf8)) == .vmmapSummary)
        #expect(summary.coreAnimationBytes == Int((43.4 * 1_048_576).rounded()))
        #expect(summary.region("CoreAnimation")?.regionCount == 389)
        #expect(summary.region("CoreAnimation")?.dirtyBytes == nil)
        #expect(summary.region("CG backing stores")?.virtualBytes == 5040 * 1024)
        #expect(summary.region("MALLOC_NANO (reserved)")?.note == "reserved VM address space (unallocated)")
        #expect(summary.total?.regionCount == 1210)
    }

    @Test func crashReportWithRegionSummaryIsNotVMMap() {
        let text = "Incident Identifier: X\nException Type:  EXC_CRASH\n\nREGION TYPE   SIZE  COUNT\n"
        #expect(ReproReader.detect(Array(text.utf8)) == nil)
    }

    @Test func badFootprintValueNamesItsLine() {
        let text = "Process:  A [1]\nAnalysis Tool:   /usr/bin/vmmap\nPhysical footprint:  lots\n"
        #expect(throws: FormatError("bad physical footprint 'lots'", line: 3)) {
            try VMMapSummary.parse(Array(text.utf8)).get()
        }
    }

    @Test func footprintDetail() throws {
        guard case .footprint(let report) = try ReproFixture.read("footprint-detail.txt") else {
            Issue.record("not footprint")
            return
        }
        #expect(report.processName == "Memo")
        #expect(report.pid == 48211)
        #expect(report.footprintBytes == 640_679_936)
        #expect(report.pageSize == 16384)
        #expect(report.physFootprintBytes == 640_679_936)
        #expect(report.peakBytes == 640_679_936)
        #expect(report.coreAnimationDirtyBytes == 346 * 1_048_576)
        #expect(report.categories.count == 8)
        #expect(report.categories.last?.name == "mapped file")
        #expect(report.categories.first { $0.name == "unused but dirty shlib __DATA" }?.cleanBytes == 72 * 1024)
        #expect(report.total?.regions == 4652)
    }

    @Test func footprintInMegabytes() throws {
        let text = "====\nMyApp [103]: 64-bit    Footprint: 242 MB\n====\n"
        let report = try FootprintReport.parse(Array(text.utf8)).get()
        #expect(report.footprintBytes == 242 * 1_048_576)
        #expect(report.pageSize == nil)
        #expect(report.coreAnimationDirtyBytes == nil)
    }

    @Test func sampleOfTheSilentLayoutLoop() throws {
        guard case .sample(let report) = try ReproFixture.read("silent-loop-sample.txt") else {
            Issue.record("not sample")
            return
        }
        #expect(report.processName == "Chat")
        #expect(report.pid == 51873)
        #expect(report.mainThreadSamples == 2000)
        #expect(report.layoutSamples == 1991)  // CA::Transaction::commit, the outermost layout frame
        #expect(report.bodySamples == 12)
        #expect(report.idleSamples == 6)
        #expect(report.mainThreadSamples(matching: ["scrollTo"]) == 371)
        #expect(report.mainThreadFrames.count == 29)
        #expect(report.heaviestFrames.first == SampleFrame(depth: 0, count: 2006, symbol: "mach_msg2_trap"))
        #expect(report.heaviestFrames.count == 5)
        #expect(report.physicalFootprintBytes == Int((148.2 * 1_048_576).rounded()))
    }

    @Test func spindumpMainThread() throws {
        let text = """
              Thread 0x13fc37    DispatchQueue "com.apple.main-thread"(1),none    11 samples (1-11)    priority 31-47
              <DispatchQueue "com.apple.main-thread"(1), process frontmost>
              11  start + 4 (libdyld.dylib + 99376) [0x184239430] 1-11
                10  CA::Transaction::commit() + 648 (QuartzCore + 1) [0x1] 1-10
                  10  AG::Graph::UpdateStack::update() + 312 (AttributeGraph + 2) [0x2] 1-10
                1  mach_msg2_trap + 8 (libsystem_kernel.dylib + 3) [0x3] 11

              Thread 0x13fc40    11 samples (1-11)    priority 4
              11  start_wqthread + 8 (libsystem_pthread.dylib + 4) [0x4] 1-11

            """
        #expect(ReproReader.detect(Array(text.utf8)) == .sample)
        let report = try SampleReport.parse(Array(text.utf8)).get()
        #expect(report.mainThreadSamples == 11)
        #expect(report.layoutSamples == 10)
        #expect(report.idleSamples == 1)
        #expect(report.mainThreadFrames.count == 4)
    }
}
