import MemhuntCLI
import Testing

struct SuggestionsTests {
    @Test(arguments: [
        ("", "", 0), ("", "abc", 3), ("kitten", "sitting", 3), ("bar", "baz", 1), ("--formt", "--format", 1),
        ("flaw", "lawn", 2), ("équipe", "equipe", 1),
    ])
    func editDistance(lhs: String, rhs: String, distance: Int) {
        #expect(MemhuntCLI.editDistance(lhs, rhs) == distance)
        #expect(MemhuntCLI.editDistance(rhs, lhs) == distance)
    }

    @Test func suggestsTheClosestWithinTheLimit() {
        let options = ["--playbook", "--format", "--fail-on", "--output"]
        #expect(suggestion(for: "--formt", among: options) == "--format")
        #expect(suggestion(for: "--fail", among: options) == "--fail-on")
        #expect(suggestion(for: "--verbose", among: options) == nil)
        #expect(suggestion(for: "chek", among: ["checks", "inspect"], maxDistance: 2) == "checks")
        #expect(suggestion(for: "ab", among: ["aa", "bb"], maxDistance: 1) == "aa")
    }
}
