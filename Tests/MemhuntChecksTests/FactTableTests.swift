import Foundation
import MemhuntChecks
import MemhuntTestSupport
import Testing

/// The fact table of docs/facts.md is generated from the checks' descriptions: the two never drift.
@Suite struct FactTableTests {
    @Test func factsDocHoldsTheGeneratedTable() throws {
        let doc = try String(contentsOfFile: Repo.root + "/docs/facts.md", encoding: .utf8)
        let table = FactTable.markdown()
        #expect(table.contains("| `jetsam.app.peakMB` | MB | `jetsam-rank` |"))
        #expect(doc.contains(table), "docs/facts.md's fact table differs from FactTable.markdown():\n\(table)")
    }
}
