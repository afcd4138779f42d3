import Foundation
import MemhuntChecks
import MemhuntTestSupport
import Testing

/// The fact table of docs/facts.md is generated from the checks' descriptions: the two never drift.
/// `MEMHUNT_UPDATE_GOLDEN=1 swift test --filter FactTableTests` writes the table into docs/facts.md.
@Suite struct FactTableTests {
    @Test func factsDocHoldsTheGeneratedTable() throws {
        let path = Repo.root + "/docs/facts.md"
        var doc = try String(contentsOfFile: path, encoding: .utf8)
        let table = FactTable.markdown()
        #expect(table.contains("| `jetsam.app.peakMB` | MB | `jetsam-rank` |"))
        if ProcessInfo.processInfo.environment["MEMHUNT_UPDATE_GOLDEN"] == "1",
            let start = doc.range(of: "| key | unit | check | meaning |\n")
        {
            let end = doc.range(of: "\n\n", range: start.lowerBound..<doc.endIndex)?.lowerBound ?? doc.endIndex
            doc.replaceSubrange(start.lowerBound..<end, with: String(table.dropLast()))
            try doc.write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(
            doc.contains(table),
            "docs/facts.md differs from the checks: MEMHUNT_UPDATE_GOLDEN=1 swift test --filter FactTableTests")
    }
}
