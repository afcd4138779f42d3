import MemhuntFormats
import MemhuntTestSupport
import Testing

@Suite struct BadInputTests {
    func read(_ text: String) -> ReadOutcome { ArtifactReader.read(Array(text.utf8)) }

    func failure(_ outcome: ReadOutcome) -> FormatError? {
        if case .failure(let error) = outcome.result { error } else { nil }
    }

    /// Invalid JSON is named by the keys it holds, matched as whole characters: a key whose closing quote a
    /// combining mark joins is no key (the byte search asks `String.contains` then).
    @Test func kindHintsMatchWholeCharacters() {
        #expect(read("x \"memoryStatus\": 1, \"processes\": [").kind == .jetsamEvent)
        #expect(read("x \"memoryStatus\"\u{301}: 1, \"processes\": [").kind == nil)
        #expect(read("é\"memoryStatus\" \"processes\"é").kind == .jetsamEvent)
        #expect(read("x \"applicationExitMetrics\"").kind == .metricPayload)
        #expect(read("x Diagnostics\" \"callStackTree\"").kind == .diagnosticPayload)
        #expect(read("x \"memoryStatu\" \"processes\"").kind == nil)
    }

    @Test func emptyAndBinary() {
        #expect(ArtifactReader.read([]) == ReadOutcome(kind: nil, result: .failure(FormatError("empty file"))))
        let binary = FormatError("binary content, not a text artifact")
        #expect(failure(ArtifactReader.read([0x00, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0])) == binary)
        // A PNG signature makes it an image, and a cut one is a broken image rather than unknown binary.
        let cutPNG = ArtifactReader.read([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0])
        #expect(cutPNG.kind == .image)
        #expect(failure(cutPNG) == FormatError("PNG without a complete IHDR chunk", offset: 8))
        #expect(failure(ArtifactReader.read([0x7B, 0xFF, 0xFE, 0x7D])) == binary)
        #expect(ArtifactReader.read([0x7B, 0xFF, 0xFE, 0x7D]).kind == nil)
        var generator = SplitMix64(seed: 42)
        let random = (0..<1000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        #expect(failure(ArtifactReader.read(random)) == binary)
    }

    @Test func multibyteCharacterCutAtTheSniffWindowIsText() {
        let bytes = Array(repeating: UInt8(ascii: "a"), count: 4095) + Array("字节".utf8)
        #expect(
            failure(ArtifactReader.read(bytes))?.message == "unrecognized content (text of no known kind, 4101 bytes)")
    }

    @Test func unknownText() {
        #expect(
            read("hello\nworld")
                == ReadOutcome(
                    kind: nil, result: .failure(FormatError("unrecognized content (text of no known kind, 11 bytes)")),
                    isUnrecognized: true))
    }

    /// An empty or binary file could not be read; it is not content of no known kind.
    @Test func emptyAndBinaryFilesAreUnreadableNotUnrecognized() {
        let empty = ArtifactReader.read([])
        #expect(failure(empty)?.message == "empty file")
        #expect(!empty.isUnrecognized)
        let binary = ArtifactReader.read([0x00, 0x01, 0xFF, 0x7F])
        #expect(failure(binary)?.message == "binary content, not a text artifact")
        #expect(!binary.isUnrecognized)
    }

    @Test func jsonThatIsNotAnArtifact() {
        #expect(failure(read("\"just a string\""))?.message == "unrecognized content (JSON of no known kind, 15 bytes)")
        #expect(read("42").kind == nil)
        #expect(read(#"{"callStacks": [], "callStackPerThread": true}"#).kind == nil)
    }

    @Test func headerLineOnly() {
        let outcome = read(#"{"bug_type":"298","timestamp":"2020-01-01 00:00:00.00 +0000"}"# + "\n")
        #expect(outcome.kind == .jetsamEvent)
        #expect(failure(outcome)?.message == "JetsamEvent has only its header line: the body is missing")
        let crash = read(#"{"bug_type":"309"}"#)
        #expect(crash.kind == .crashReport)
        #expect(failure(crash)?.message == "crash report has only its header line: the body is missing")
    }

    @Test func truncatedJetsamEvent() throws {
        let bytes = try Repo.bytes("formats/jetsam-16k.ips")
        let outcome = ArtifactReader.read(Array(bytes.prefix(900)))
        #expect(outcome.kind == .jetsamEvent)
        let error = try #require(failure(outcome))
        #expect(error.message.hasPrefix("JetsamEvent body is not valid JSON: "))
        #expect(error.message.contains("truncated: JSON ends"))
        #expect(error.offset == 900)
    }

    @Test func elidedJetsamEvent() {
        let text = """
            {"bug_type":"298","timestamp":"2016-01-01 00:00:00.00 +0000"}
            {
            "memoryStatus" : { "pageSize" : 16384 },
            "processes" : [
            {
            ...
            }
            ]
            }
            """
        // Read up to the elision and marked so: the process record it cuts is left out, none is invented.
        let outcome = read(text)
        #expect(outcome.kind == .jetsamEvent)
        guard case .success(.jetsamEvent(let event)) = outcome.result else {
            Issue.record("\(outcome)")
            return
        }
        #expect(event.processes.isEmpty)
        #expect(
            event.recovery
                == Recovery(
                    state: .elided,
                    notes: [
                        "elided at line 6 (...): read up to it, lines 6–9 not; processes[0] was cut by the elision "
                            + "and left out"
                    ]))
    }

    @Test func elidedHeaderlessBodyKeepsItsKind() {
        let outcome = read("{\n\"memoryStatus\" : {\"pageSize\" : 4096},\n\"processes\" : [\n...\n]\n}")
        #expect(outcome.kind == .jetsamEvent)
        guard case .success(.jetsamEvent(let event)) = outcome.result else {
            Issue.record("\(outcome)")
            return
        }
        #expect(event.pageSize == 4096)
        #expect(
            event.recovery?.note
                == "elided: no .ips header line: read as a JetsamEvent by its body's keys; elided at line 4 (...): read up to it, "
                + "lines 4–6 not")
    }

    @Test func jetsamWithoutPageSize() {
        let outcome = read("{\"bug_type\":\"298\"}\n{\"memoryStatus\":{\"compressions\":1},\"processes\":[]}")
        #expect(outcome.kind == .jetsamEvent)
        #expect(
            failure(outcome)?.message
                == "JetsamEvent has no memoryStatus.pageSize (bytes per page): sizes cannot be converted")
    }

    /// A page size that is written but is none is named as written, not "has no" (the hostile suite's
    /// jetsam-negative.ips and jetsam-huge.ips).
    @Test func jetsamWithAPageSizeThatIsNone() {
        for (written, shown) in [("-16384", "'-16384'"), ("1e308", "'1e308'"), ("0", "'0'")] {
            let outcome = read(
                "{\"bug_type\":\"298\"}\n{\"memoryStatus\":{\"pageSize\":\(written)},\"processes\":[]}")
            #expect(
                failure(outcome)?.message
                    == "JetsamEvent's memoryStatus.pageSize \(shown) is not a page size in bytes: sizes cannot be converted"
            )
        }
    }

    /// A 1 MB value quoted by a diagnostic is cut at 64 characters (the hostile suite's
    /// measurements-giant-cell.csv made a 1 MB diagnostic in every report).
    @Test func diagnosticsQuoteLongValuesCut() {
        let outcome = read("label,footprint_mb\na," + String(repeating: "9", count: 1 << 20) + "x\n")
        #expect(
            failure(outcome)
                == FormatError(
                    "footprint_mb '" + String(repeating: "9", count: 64) + "…' is not a non-negative number", line: 2))
        #expect(FormatError.quoted("short") == "'short'")
        #expect(FormatError.quoted(String(repeating: "é", count: 65)) == "'" + String(repeating: "é", count: 64) + "…'")
    }

    @Test func unknownBugType() {
        #expect(
            failure(read("{\"bug_type\":\"999\"}\n{}"))?.message == "unrecognized content (.ips bug_type 999)")
    }

    @Test func recognizedBugTypes() {
        #expect(read("{\"bug_type\":\"211\"}\n{\"message\":{}}").result == .success(.recognized(.analyticsLog)))
        #expect(read("{\"bug_type\":\"202\"}\nDate/Time: x").result == .success(.recognized(.resourceReport)))
        #expect(read("{\"bug_type\":\"145\"}\nDate/Time: x").result == .success(.recognized(.resourceReport)))
        #expect(read("{\"bug_type\":\"188\"}\nIncident Identifier: x").result == .success(.recognized(.stackshot)))
    }

    /// Truncations at every 7th offset and 2,000 seeded byte flips over all fixtures: `read` must return.
    @Test func randomizedRobustness() throws {
        var generator = SplitMix64(seed: 0x6D65_6D68_756E_74)
        let names = [
            "jetsam-16k.ips", "jetsam-4k-ios10.crash", "crash-309-watchdog.ips", "crash-309-memory.ips",
            "crash-309-dead10cc.ips", "crash-legacy-sigsegv.crash", "crash-hybrid-109.crash", "metrics-en-US.json",
            "metrics-zh_CN.json", "metrics-wrapped.json", "diagnostics.json",
        ]
        var cases = 0
        for name in names {
            let bytes = try Repo.bytes("formats/" + name)
            for cut in stride(from: 0, to: bytes.count, by: 7) {
                _ = ArtifactReader.read(Array(bytes.prefix(cut)))
                cases += 1
            }
            for _ in 0..<200 {
                var mutated = bytes
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    mutated[Int.random(in: 0..<mutated.count, using: &generator)] = UInt8.random(
                        in: 0...255, using: &generator)
                }
                _ = ArtifactReader.read(mutated)
                cases += 1
            }
        }
        #expect(cases > 3000)
    }
}
