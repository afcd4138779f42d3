import Foundation
import MemhuntFormats
import Testing

/// Throughput of `ChangeLogScanner`; run with `MEMHUNT_BENCH=1 swift test -c release --filter ReproChangeLogBenchmark`.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MEMHUNT_BENCH"] != nil))
struct ReproChangeLogBenchmark {
    @Test func megabytesPerSecond() {
        let lines = [
            "2026-08-12 14:03:05.000000+0900 Memo[48211:3456789] RootView: _dragProgress changed.\n",
            "2026-08-12 14:03:05.002000+0900 Memo[48211:3456789] StreamScreen: @self changed.\n",
            "2026-08-12 14:03:05.004000+0900 Memo[48211:3456789] LibraryRow: @self, _thumbnail changed.\n",
            "2026-08-12 14:03:05.090000+0900 Memo[48211:3456789] ContentView: unchanged.\n",
            "2026-08-12 14:03:05.091000+0900 Memo[48211:3456789] Fetched 20 rows\n",
        ]
        let chunk = Array(String(repeating: lines.joined(), count: 1_048_576 / lines.joined().utf8.count).utf8)
        let rounds = 256
        var scanner = ChangeLogScanner()
        let elapsed = ContinuousClock().measure {
            for _ in 0..<rounds { scanner.feed(chunk[...]) }
        }
        let summary = scanner.finish()
        let megabytes = Double(chunk.count * rounds) / 1_048_576
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("ChangeLogScanner: \(Int(megabytes)) MB in \(seconds) s = \(Int(megabytes / seconds)) MB/s")
        #expect(summary.evaluations == chunk.count * rounds / lines.joined().utf8.count * 4)
    }
}
