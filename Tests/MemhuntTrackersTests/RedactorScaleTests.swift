import Foundation
import MemhuntReports
import Testing

@testable import MemhuntTrackers

/// Redaction is linear in the size of the document (issue 26, defect 8). Before, the e-mail pattern was
/// retried from every letter of a word and scanned the rest of the word each time: a 40,000-letter word took
/// 14 s (`memhunt attach --dry-run`, debug build; 34–40 s reported), a 900 KB value 16 CPU-minutes, and a
/// 1 MB word would take hours. Each replacement also copied the whole text.
@Suite struct RedactorScaleTests {
    static func seconds(_ work: () throws -> Void) rethrows -> Double {
        let start = Date()
        try work()
        return Date().timeIntervalSince(start)
    }

    @Test func aDocumentWithAOneMegabyteWordIsRedactedInSeconds() throws {
        let word = String(repeating: "a", count: 1 << 20)
        let document = sampleDocument(detail: word + " at /Users/erin/x")
        var redacted: FindingsDocument?
        let elapsed = try Self.seconds { redacted = try Redactor().redact(document) }
        // Measured after the fix: 0.07 s (debug build, 2 cores). A loose bound: this is not a timing test.
        #expect(elapsed < 30, "took \(elapsed) s")
        let detail = redacted?.findings[0].detail ?? ""
        // Compared apart: a failure must not print the megabyte.
        let same = detail == word + " at /Users/<user-1>/x"
        #expect(same, "\(detail.count) characters: \(detail.prefix(40))…\(detail.suffix(40))")
    }

    @Test func aSixtyMegabyteDocumentIsRedactedInLinearTime() {
        // 60 MB of a findings document's kind of text: paths, e-mail addresses, device identifiers, long words.
        var lines: [String] = []
        var size = 0
        var index = 0
        while size < 60 << 20 {
            let line =
                "{\"detail\": \"/Users/user\(index % 97)/Library/Logs and mail\(index % 13)@example.com, "
                + "UDID 00008030-001A2B3C4D5E\(String(format: "%04X", index % 65_536)) "
                + String(repeating: "w", count: 200 + index % 300) + "\"},\n"
            size += line.utf8.count
            lines.append(line)
            index += 1
        }
        let text = lines.joined()
        var redacted = ""
        let elapsed = Self.seconds { redacted = Redactor().redact(text) }
        // Measured after the fix: 2.2 s for the 60 MB (debug build, 2 cores; the regular expressions, made linear,
        // still took 19 s). Before, each word of 200 to 500 letters was rescanned from every letter, and the text
        // copied once per identifier (750,000 of them). A loose bound: this is not a timing test.
        #expect(elapsed < 30, "took \(elapsed) s")
        #expect(!redacted.contains("/Users/user1/"))
        #expect(!redacted.contains("@example.com"))
        #expect(!redacted.contains("00008030-001A2B3C4D5E"))
        #expect(redacted.contains("/Users/<user-97>/Library"))
        #expect(redacted.contains("<email-13>"))
    }
}
