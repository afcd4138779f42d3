import Dispatch
import MemhuntCLI
import MemhuntReports
import Testing

struct TerminalTests {
    static let colorCases: [(isTTY: Bool, environment: [String: String], enabled: Bool)] = [
        (true, [:], true),
        (false, [:], false),
        (true, ["NO_COLOR": "1"], false),
        (true, ["NO_COLOR": ""], true),
        (true, ["TERM": "dumb"], false),
        (true, ["TERM": "xterm-256color"], true),
        (false, ["TERM": "xterm-256color"], false),
        (true, ["NO_COLOR": "yes", "TERM": "xterm"], false),
    ]

    @Test(arguments: colorCases)
    func colorDecision(isTTY: Bool, environment: [String: String], enabled: Bool) {
        #expect(TerminalCapabilities.colorEnabled(isTTY: isTTY, environment: environment) == enabled)
    }

    @Test(arguments: [
        ([String: String](), 80), (["COLUMNS": "120"], 120), (["COLUMNS": "0"], 80), (["COLUMNS": "wide"], 80),
    ])
    func columns(environment: [String: String], width: Int) {
        #expect(TerminalCapabilities.columns(environment: environment) == width)
    }

    @Test func styles() {
        #expect("x".styled(.bold, enabled: true) == "\u{1B}[1mx\u{1B}[0m")
        #expect("x".styled(.bold, .red, enabled: true) == "\u{1B}[1;31mx\u{1B}[0m")
        #expect("x".styled(.yellow, enabled: false) == "x")
    }

    @Test func writerKeepsEachWriteWhole() async {
        let writer = OutputWriter()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for _ in 0..<100 { writer.write(String(repeating: "\(task)", count: 50) + "\n") }
                }
            }
        }
        let lines = writer.captured.split(separator: "\n")
        #expect(lines.count == 800)
        #expect(lines.allSatisfy { Set($0).count == 1 && $0.count == 50 })
        #expect(!writer.isTTY)
    }

    @Test func memoryIsNotATerminal() {
        #expect(!TerminalCapabilities.isTTY(-1))
    }
}
