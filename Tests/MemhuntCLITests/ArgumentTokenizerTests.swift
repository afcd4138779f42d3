import MemhuntCLI
import Testing

struct ArgumentTokenizerTests {
    static let cases: [(arguments: [String], tokens: [ArgumentToken])] = [
        ([], []),
        (["run"], [.positional("run")]),
        (["--format", "json"], [.long("format", value: nil), .positional("json")]),
        (["--format=json"], [.long("format", value: "json")]),
        (["--header=X-A: b=c"], [.long("header", value: "X-A: b=c")]),
        (["--output="], [.long("output", value: "")]),
        (["-o", "out.json"], [.shorts(["o"]), .positional("out.json")]),
        (["-abc"], [.shorts(["a", "b", "c"])]),
        (["-"], [.positional("-")]),
        (
            ["a", "--", "--format", "-h", "--"],
            [.positional("a"), .terminator, .positional("--format"), .positional("-h"), .positional("--")]
        ),
    ]

    @Test(arguments: cases)
    func tokenizes(arguments: [String], tokens: [ArgumentToken]) {
        #expect(ArgumentToken.tokenize(arguments) == tokens)
    }
}
