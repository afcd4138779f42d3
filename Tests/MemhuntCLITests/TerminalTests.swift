import Dispatch
import Foundation
import MemhuntReports
import Testing

@testable import MemhuntCLI

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

    /// Report lines fit the terminal: broken between words under their indent plus three spaces; styles take no
    /// columns; a word wider than a line (an evidence path) breaks after a `/`, `#` or `.`.
    @Test func reportLinesFitTheWidth() {
        #expect(TextReporter.fit("   one two three four", width: 12) == "   one two\n      three\n      four")
        #expect(TextReporter.fit("short\n   one two three four", width: nil) == "short\n   one two three four")
        #expect(TextReporter.fit("   info    one two", width: 14) == "   info    one\n      two")
        let bold = "\u{1B}[1mbold\u{1B}[0m text"
        #expect(TextReporter.fit(bold, width: 9) == bold)
        let evidence =
            "      evidence: Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips#/memoryStatus/memoryPages/fileBacked"
        let fitted = TextReporter.fit(evidence, width: 80)
        #expect(
            fitted == "      evidence:\n         Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips#/memoryStatus/\n"
                + "         memoryPages/fileBacked")
        #expect(fitted.split(separator: "\n").allSatisfy { $0.count <= 80 })
        // Styled (a dim evidence line on a terminal): the styles stay at the ends, and take no columns.
        let dim = TextReporter.fit(
            "      \u{1B}[2mevidence: Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips#/memoryStatus/memoryPages/"
                + "fileBacked\u{1B}[0m", width: 80)
        #expect(
            dim
                == "      \u{1B}[2mevidence:\n         Fixtures/justsend/JetsamEvent-2026-08-11-112056.ips#/memoryStatus/\n"
                + "         memoryPages/fileBacked\u{1B}[0m")
        for width in [20, 40, 60] {
            let lines = TextReporter.fit(evidence, width: width).split(separator: "\n")
            #expect(lines.allSatisfy { $0.count <= width }, "\(width): \(lines)")
            #expect(lines.map { $0.drop { $0 == " " } }.joined().hasSuffix("fileBacked"))
        }
    }

    /// On a terminal, progress is one line redrawn in place at most ten times a second, erased at the end: no
    /// line break ever. `-v` keeps a line per step; `-q` and a stderr that is no terminal show nothing.
    @Test func progressIsOneLineAtMostTenTimesASecond() {
        final class Clock: @unchecked Sendable {
            var now: TimeInterval = 0
        }
        let clock = Clock()
        let writer = OutputWriter()
        let progress = Progress(writer, mode: .line, width: 12, clock: { clock.now })
        for (time, text) in [(0.0, "[1/8] a"), (0.05, "[2/8] b"), (0.09, "[3/8] c"), (0.1, "[4/8] d")]
            + [(0.15, "[5/8] e"), (0.25, "[6/8] a-long-step-id …")]
        {
            clock.now = time
            progress.update(text)
            progress.log(text + ": clear")
        }
        progress.finish()
        progress.finish()
        #expect(writer.captured == "\r\u{1B}[K[1/8] a\r\u{1B}[K[4/8] d\r\u{1B}[K[6/8] a-lon\r\u{1B}[K")
        for (mode, expected) in [(Progress.Mode.log, "[1/8] a: finding\n"), (.off, "")] {
            let writer = OutputWriter()
            let progress = Progress(writer, mode: mode, width: 80)
            progress.update("[1/8] a …")
            progress.log("[1/8] a: finding")
            progress.finish()
            #expect(writer.captured == expected, "\(mode)")
        }
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
