import Foundation
import MemhuntCore
import MemhuntFormats
import MemhuntReports
import MemhuntTestSupport
import Testing

@testable import MemhuntCLI

/// Every sentence true across the records of one run (issue 44): a value of one record is not said as the
/// run's, and one count of several says where it is from.
@Suite struct TruthRoundFourTests {
    /// Two JetsamEvents of 4 KiB and 16 KiB pages, 7 and 16 processes, with no app: no record is the
    /// subject's, so the values they do not share are not said as one (6 records once said 16,384-byte pages,
    /// two of them of 4 KiB pages, and 11 processes, one of them with 442).
    @Test func factsTheRecordsDoNotShareAreNotSaidAsOne() async throws {
        let operands = [
            "Fixtures/formats/jetsam-4k-ios10.crash", "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips",
        ]
        let run = await memhunt(["run", "--format", "json"] + operands)
        let document = try FindingsDocument.decode(Array(run.stdout.utf8))
        #expect(document.facts["jetsam.records"] == 2)
        for key in ["jetsam.pageSize", "jetsam.processes", "jetsam.largestProcess", "jetsam.topProcesses"] {
            #expect(document.facts[key] == nil, "\(key) = \(String(describing: document.facts[key]))")
        }
        // The subject's record is the chosen one: its values are said.
        let named = try FindingsDocument.decode(
            Array(await memhunt(["run", "--app", "JustSend", "--format", "json"] + operands).stdout.utf8))
        #expect(named.facts["jetsam.pageSize"] == 16_384)
        #expect(named.facts["jetsam.processes"] == 16)
        // One record, no app: its values are the run's.
        let one = try FindingsDocument.decode(
            Array(await memhunt("run", "--format", "json", operands[1]).stdout.utf8))
        #expect(one.facts["jetsam.pageSize"] == 16_384)
    }

    /// The largest layer count of several says which artifact it is of.
    @Test func theLargestOfSeveralLayerCountsSaysWhereItIsFrom() async throws {
        let run = await memhunt("run", "--app", "JustSend", "--format", "json", "Fixtures/justsend")
        let document = try FindingsDocument.decode(Array(run.stdout.utf8))
        #expect(document.facts["layers.count"] == 3_573)
        #expect(document.facts["layers.countOf"] == .string("pviews-detail.txt"))
        let alone = try FindingsDocument.decode(
            Array(await memhunt("run", "--format", "json", "Fixtures/justsend/pviews-detail.txt").stdout.utf8))
        #expect(alone.facts["layers.countOf"] == nil)
    }
}

/// One app, one row: a name and a bundle id that a record ties together (a crash report carries both) are one
/// app in every scan table, with or without `--app` (`JustSend` 10 records and `com.example.JustSend` 1 were
/// two rows).
@Suite struct OneAppOneRowTests {
    @Test func aNameAndItsBundleIDAreOneRow() async throws {
        let run = await memhunt("scan", "Fixtures")
        #expect(run.stdout.contains("\nJustSend, com.example.JustSend  13 records\n"), "\(run.stdout.prefix(2000))")
        #expect(!run.stdout.contains("\ncom.example.JustSend  "))
        #expect(!run.stdout.contains("\nJustSend  12 records"))
        let named = await memhunt("scan", "--app", "JustSend", "Fixtures")
        #expect(named.stdout.contains("JustSend, com.example.JustSend  13 records"))
        // Without the crash report that ties them, the MetricKit payload's bundle id is an app of its own.
        let untied = await memhunt(
            "scan", "Fixtures/metrickit/MXMetricPayload-2026-08-10.json",
            "Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips")
        #expect(untied.stdout.contains("\ncom.example.JustSend  1 record\n"), "\(untied.stdout.prefix(1500))")
    }
}

/// An app the artifacts leave out is an answer, not a usage error; artifacts of other apps leave a step
/// unanswered, not without artifacts; what names no app is said to be read as the subject's only by its name.
@Suite struct AbsentAppTests {
    @Test func anAppAJetsamEventLeavesOutIsAnAnswer() async throws {
        let run = await memhunt("run", "--app", "Weather", "--format", "json", "Fixtures/justsend")
        #expect(run.status == 0, "\(run.stderr)")
        let document = try FindingsDocument.decode(Array(run.stdout.utf8))
        #expect(document.subject.absenceAnswered == true)
        let notListed = try #require(document.findings.first { $0.code == "jetsam-rank.not-listed" })
        #expect(notListed.title == "Weather is not in the jetsam record")
        #expect(
            notListed.detail.contains(
                "A JetsamEvent lists every process alive when it is taken: Weather was not running then"))
        #expect(document.gate.exitStatus == 0)
        // A close spelling of a name the artifacts carry is a typo more likely than an absence: exit 2 stays.
        let typo = await memhunt("run", "--app", "JustSnd", "Fixtures/justsend")
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("did you mean 'JustSend' (in JetsamEvent-2026-08-11-112056.ips)?"))
    }

    @Test func otherAppsArtifactsLeaveAStepUnansweredAndAnonymousOnesAreSaidAsAssumed() async throws {
        let run = await memhunt("run", "--app", "JustSendWidget", "--format", "json", "Fixtures/justsend")
        let document = try FindingsDocument.decode(Array(run.stdout.utf8))
        #expect(document.step(id: "change-logging")?.status == .unanswered)
        let assumed = document.findings.filter { $0.code == "artifacts.unattributed" }
        #expect(assumed.map(\.step) == ["simulator-repro", "coreanimation-layers", "structure-variation"])
        #expect(
            document.verdict?.sentences.contains {
                $0.text.hasPrefix("No artifact of one app names JustSendWidget: what step 5 (Simulator reproduction)")
            } == true)
        // The app its change logs name: nothing is assumed.
        let own = try FindingsDocument.decode(
            Array(await memhunt("run", "--app", "JustSend", "--format", "json", "Fixtures/justsend").stdout.utf8))
        #expect(!own.findings.contains { $0.code == "artifacts.unattributed" })
    }
}

/// One page, several records (issue 44, item 9): a low-memory report and then an `EXC_RESOURCE` crash report, as
/// Apple's technical notes print them, are two records, each with its own device, OS and exception. Before, the
/// crash report was skipped as "text around the record", and two legacy reports on one page read the first only.
@Suite struct PageOfRecordsTests {
    @Test func aJetsamEventAndACrashReportOnOnePageAreTwoRecords() async throws {
        let page = "Fixtures/pasted-pages/jetsam-then-exc-resource.md"
        let run = await memhunt("run", "--app", "Lumen", "--format", "json", page)
        #expect(run.status == 0, "\(run.stderr)")
        let document = try FindingsDocument.decode(Array(run.stdout.utf8))
        #expect(document.artifacts.map(\.source) == [page, page + "#L27"])
        #expect(document.artifacts.map(\.kind) == [.jetsamEvent, .crashReport])
        let crash = try #require(document.steps.first { $0.id == "crash-report" })
        #expect(crash.facts["crash.kind"] == .string("memory-limit"))
        #expect(crash.facts["crash.device"] == .string("iPhone17,3"))
        #expect(crash.facts["crash.exception"] == .string("EXC_RESOURCE, MEMORY"))
        let jetsam = try #require(document.steps.first { $0.id == "jetsam-record" })
        #expect(jetsam.facts["jetsam.app.reason"] == .string("per-process-limit"))
        #expect(jetsam.facts["jetsam.app.peakMB"] == .int(1450))
        // Two legacy reports: the second is its own record, of its own device and app.
        let two = await memhunt("inspect", "--format", "json", "Fixtures/pasted-pages/two-crash-reports.txt")
        #expect(two.stdout.contains("two-crash-reports.txt#L31"), "\(two.stdout.prefix(2000))")
        #expect(two.stdout.contains("iPhone15,2") && two.stdout.contains("iPhone12,8"))
    }
}
