import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots
import Testing

@testable import MemhuntChecks

/// Framework cycles a playbook adds (`framework_cycles`): classed as a framework's with the entry's name, and an
/// entry that cannot be read stops the check with why.
@Suite struct LeaksFrameworkListTests {
    static let tree = """
        3 (176 bytes) ROOT CYCLE: <VendorSDK.Session 0x1> [64]
           2 (112 bytes) __strong _observer --> ROOT CYCLE: <VendorSDK.Observer 0x2> [48]
              __strong _session --> CYCLE BACK TO <VendorSDK.Session 0x1> [64]
        """

    @Test func anAddedEntryClassesTheCycleAsAFrameworks() throws {
        let report = try LeaksReport.parse(Array(Self.tree.utf8)).get()
        #expect(LeaksCheck.groups(report).first?.leak.owner == .app)
        let added = try LeaksCheck.addedFrameworkCycles(
            .array([
                [
                    "name": "VendorSDK's session observer", "holder": "VendorSDK.*", "target": "/^VendorSDK\\.Obs/",
                    "field": "_observer", "seen_on": "VendorSDK 4.2",
                ]
            ]))
        let group = try #require(LeaksCheck.groups(report, known: CycleCatalog.frameworkCycles + added).first)
        #expect(group.leak.owner == .framework)
        #expect(
            group.leak.frameworkWhy == "a known framework cycle: VendorSDK's session observer, seen on VendorSDK 4.2")
    }

    @Test func anEntryThatCannotBeReadSaysWhy() {
        #expect(throws: ParameterProblem.self) {
            try LeaksCheck.addedFrameworkCycles(.array([["name": "x", "holder": "A"]]))
        }
        do {
            _ = try LeaksCheck.addedFrameworkCycles(.array([["holder": "/([/", "target": "B"]]))
            Issue.record("an unclosed regular expression was taken")
        } catch {
            #expect(
                "\(error)" == "framework_cycles: entry 1: '/([/' or 'B' is no name, prefix* or /regular expression/")
        }
        #expect(NameMatch.parse("*") == nil && NameMatch.parse("") == nil)
        #expect(
            NameMatch.parse("CF*") == .prefix("CF") && NameMatch.parse("CFRunLoopSource") == .exact("CFRunLoopSource"))
    }
}
