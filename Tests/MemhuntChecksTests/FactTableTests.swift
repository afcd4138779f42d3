import Foundation
import MemhuntChecks
import MemhuntTestSupport
import Testing

/// The README's fact table is generated from the checks' descriptions: the two never drift.
@Suite struct FactTableTests {
    @Test func readmeHoldsTheGeneratedTable() throws {
        let readme = try String(contentsOfFile: Repo.root + "/README.md", encoding: .utf8)
        let table = FactTable.markdown()
        #expect(table.contains("| `jetsam.app.peakMB` | MB | `jetsam-rank` |"))
        #expect(readme.contains(table), "README.md's fact table differs from FactTable.markdown():\n\(table)")
    }
}
