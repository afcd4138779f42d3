import MemhuntTestSupport
import Testing

@testable import MemhuntFormats

/// Round three of "every sentence true" for crash reports: system terminations are their own kind, a
/// SIGNAL termination keeps its reason, legacy versions read short-first, unsymbolicated frames keep their
/// addresses, and only a thread inside SQLite beside 0xdead10cc is file-lock evidence.
@Suite struct CrashTruthTests {
    static func report(_ name: String) throws -> CrashReport {
        guard case .crashReport(let report) = try parsed(name) else { throw Failure("\(name) is not a crash report") }
        return report
    }

    /// "Killed" is jetsam's word: 0xdead10cc is the system's.
    @Test func systemTerminationsAreTheirOwnKind() throws {
        #expect(try Self.report("crash-309-dead10cc.ips").kind == .system)
        #expect(try Self.report("crash-legacy-unsymbolicated-dead10cc.crash").kind == .system)
        #expect(CrashKind.system.rawValue == "system")
        #expect(!CrashKind.allCases.map(\.rawValue).contains("killed"))
    }

    @Test func aSignalTerminationKeepsItsReason() throws {
        let report = try Self.report("crash-legacy-sigsegv.crash")
        #expect(report.terminationNamespace == "SIGNAL")
        #expect(report.terminationDescription == "Segmentation fault: 11")
    }

    /// `Version: 18 (1.6)` is build 18 of version 1.6.
    /// Xcode's "Translated Report (Full Report Below)" writes `Version: 1.0.0 (33)`, short version first, where
    /// iOS's legacy text writes the build first: read by its format (it was "33 (1.0.0)"). The `.ips` that
    /// follows gives its bundle info and termination indicator (there was no terminationReason).
    @Test func aTranslatedReportReadsItsVersionAsWrittenAndItsFullReport() throws {
        let report = try Self.report("crash-translated-ios.txt")
        #expect(report.appVersion == "1.0.0 (33)")
        #expect(report.terminationDescription == "per-process-limit")
        #expect(report.kind == .memoryLimit)
        #expect(report.incidentID == "3C1D5E7F-9A2B-4C6D-8E0F-1A2B3C4D5E6F")
        #expect(report.bundleID == "dev.memhunt.courier")
    }

    @Test func legacyVersionReadsShortVersionFirst() throws {
        #expect(try Self.report("crash-legacy-unsymbolicated-dead10cc.crash").appVersion == "1.6 (18)")
        #expect(try Self.report("crash-legacy-sigsegv.crash").appVersion == "1.2 (5)")
        #expect(CrashParser.shortVersionFirst("1.0") == "1.0")
    }

    /// Three frames in one image at different addresses never read the same.
    @Test func unsymbolicatedFramesKeepTheirAddressAndOffset() throws {
        let report = try Self.report("crash-legacy-unsymbolicated-dead10cc.crash")
        #expect(
            Array(report.frames.prefix(3)) == [
                "MobileWiFi 0x00000001bde01a10 (0x1bddfd000 + 18960)",
                "MobileWiFi 0x00000001bde02b24 (0x1bddfd000 + 23332)",
                "MobileWiFi 0x00000001bde05c38 (0x1bddfd000 + 35896)",
            ])
        #expect(Set(report.frames).count == report.frames.count)
    }

    /// A thread inside SQLite beside 0xdead10cc is the evidence; libsqlite3 among the binary images is not.
    @Test func fileLockEvidenceIsAThreadInsideSQLite() throws {
        let report = try Self.report("crash-legacy-unsymbolicated-dead10cc.crash")
        #expect(
            report.fileLockEvidence == [
                "thread 3: libsqlite3.dylib unixSync", "thread 3: libsqlite3.dylib sqlite3PagerCommitPhaseOne",
            ])
        #expect(!report.fileLockEvidence.contains { $0.contains("/usr/lib/libsqlite3.dylib") })
        // A "SQLite page cache" region and .sqlite files in the termination reasons, but no thread in SQLite.
        guard
            case .crashReport(let locker) = try ArtifactReader.read(
                Repo.bytes("several-apps/Locker-2026-08-15-071500.ips")
            ).result.get()
        else { throw Failure("not a crash report") }
        #expect(locker.terminationCode == 0xDEAD_10CC)
        #expect(locker.fileLockEvidence == [])
        // Not 0xdead10cc: SQLite among the images says nothing of a lock.
        #expect(try Self.report("crash-legacy-tcc.crash").fileLockEvidence == [])
    }

    /// A privacy (TCC) termination is the system's decision, not an ordinary crash.
    @Test func aPrivacyTerminationIsTheSystems() throws {
        let report = try Self.report("crash-legacy-tcc.crash")
        #expect(report.terminationNamespace == "TCC")
        #expect(report.kind == .system)
        #expect(report.terminationDescription?.contains("NSCameraUsageDescription") == true)
    }
}
