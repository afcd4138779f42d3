import MemhuntFormats
import Testing

@Suite struct AppleDateTests {
    @Test(arguments: [
        ("2020-10-15 17:29:58.79 +0100", 1_602_779_398.79),
        ("2026-09-17 10:33:20.2590 +0900", 1_789_608_800.259),
        ("2022-11-14 00:00:00", 1_668_384_000),
        ("2020-10-24 22:59:00 +0000", 1_603_580_340),
        ("2020-10-30T00:00:41.5", 1_604_016_041.5),
        ("2024-02-29T12:00:00Z", 1_709_208_000),
        ("2024-02-29T12:00:00-05:30", 1_709_227_800),
        ("1970-01-01 00:00:00 -0000", 0),
    ])
    func parses(text: String, seconds: Double) throws {
        let parsed = try #require(AppleDate.parse(text))
        #expect(abs(parsed - seconds) < 1e-6)
    }

    @Test(arguments: [
        "", "2023-02-29 00:00:00", "2020-13-01 00:00:00", "2020-10-15", "2020-10-15 25:00:00", "yesterday",
    ])
    func rejects(text: String) {
        #expect(AppleDate.parse(text) == nil)
    }
}
