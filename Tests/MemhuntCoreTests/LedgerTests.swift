import Foundation
import MemhuntChecks
import MemhuntCore
import MemhuntTestSupport
import Testing

/// The ledger's loader, judge and editor, without artifacts: each rule of the judge on evidence written here
/// with seed 000's and seed 003's numbers.
@Suite struct LedgerTests {
    static let checks = builtInChecks.map { $0.description }
    let loader = LedgerLoader(knownChecks: checks)
    let judge = LedgerJudge(knownChecks: checks)

    static let seed000 = """
        ledger: memhunt.ledger/1
        subject: JustSend
        symptoms:
          - id: detail-memory
            words: The app gets slow.
            shows: {fact: repro.peakMB, above: 300}
        hypotheses:
          - id: renderer
            statement: one renderer per block is lighter
          - id: structure
            statement: one block materializes every line
        experiments:
          - id: renderer-per-block
            tests: renderer
            variable: one renderer per block
            also: [layers.count]
            baseline: {artifacts: [m.json], label: one-block}
            variant: {artifacts: [m.json], label: renderer-per-block}
          - id: block-structure
            tests: structure
            variable: 2,500 blocks
            baseline: {artifacts: [m.json], label: one-block}
            variant: {artifacts: [m.json], label: 2500-blocks}
        fixes:
          - id: lazy-stack
            fixes: structure
            variable: LazyVStack
            variant: {artifacts: [m.json], label: after-fix}
            equals: {artifacts: [m.json], label: 2500-blocks}
        """

    func load(_ text: String) throws -> Ledger {
        switch loader.load(text: text, origin: "l.yaml", directory: ".") {
        case .success(let ledger): return ledger
        case .failure(let error): throw error
        }
    }

    func problems(_ text: String) -> [String] {
        guard case .failure(let error) = loader.load(text: text, origin: "l.yaml", directory: ".") else { return [] }
        return error.diagnostics.map(\.description)
    }

    static func side(_ label: String, _ facts: Facts, problems: [String] = [], repeats: [String: [Double]] = [:])
        -> (String, SideEvidence)
    {
        let side = LedgerSide(artifacts: ["m.json"], label: label)
        return (side.key, SideEvidence(artifacts: side.artifacts, problems: problems, facts: facts, repeats: repeats))
    }

    static let bytes: [SideCondition: String] = [.inputSize: "291,840 bytes"]

    func evidence(_ sides: (String, SideEvidence)...) -> [String: SideEvidence] {
        Dictionary(sides, uniquingKeysWith: { a, _ in a })
    }

    // MARK: - Loading

    @Test func seedLedgerLoadsIntoItsEntries() throws {
        let ledger = try load(Self.seed000)
        #expect(ledger.subject == "JustSend")
        #expect(ledger.experiments.map(\.id) == ["renderer-per-block", "block-structure"])
        #expect(ledger.experiments[0].variant.artifacts == ["m.json"])
        #expect(ledger.experiments[0].variant.label == "renderer-per-block")
        #expect(ledger.experiments[0].variant.location?.description == "l.yaml:18:14")
        #expect(ledger.symptoms[0].shows == Condition(measure: .fact("repro.peakMB", key: nil), test: .above(300)))
        #expect(ledger.fixes[0].equals?.label == "2500-blocks")
        #expect(ledger.sha256?.count == 64)
        #expect(LedgerJudge.sides(of: ledger).count == 4)
    }

    @Test func everyProblemIsLocatedWithDidYouMean() {
        let text = """
            ledger: memhunt.ledger/1
            hypotheses:
              - id: renderer
                statement: s
            experimnts: []
            experiments:
              - id: one
                tests: rendrer
                variable: v
                measure: repro.peakMb
                margin: lots
                baseline: [a]
                variant: [b]
              - id: one
                tests: renderer
                variable: v
                measure: changes.views
                baseline: [a]
                variant: [b]
              - id: Two_Words
                tests: renderer
                variable: v
                measure: crash.kind
                baseline: []
                variant: [b]
            """
        let found = problems(text)
        #expect(found.contains("l.yaml:5:1: error: unknown key 'experimnts' in ledger (did you mean 'experiments'?)"))
        #expect(found.contains("l.yaml:8:12: error: unknown hypothesis 'rendrer' (did you mean 'renderer'?)"))
        #expect(
            found.contains {
                $0.hasPrefix("l.yaml:10:14: error: unknown fact 'repro.peakMb'") && $0.contains("'repro.peakMB'")
            })
        #expect(found.contains { $0.hasPrefix("l.yaml:11:13: error: 'margin' is a number") })
        #expect(found.contains("l.yaml:14:9: error: duplicate id 'one' (first at line 7)"))
        #expect(found.contains("l.yaml:17:14: error: 'changes.views' is a map: name one of its entries with 'key'"))
        #expect(found.contains { $0.hasPrefix("l.yaml:20:9: error: experiment id 'Two_Words' must be kebab-case") })
        #expect(found.contains { $0.hasPrefix("l.yaml:23:14: error: fact 'crash.kind' is text, not a number") })
        #expect(found.contains("l.yaml:24:15: error: expected at least one artifact"))
    }

    @Test func aTextWithAColonIsToldToBeQuoted() {
        let text = "ledger: memhunt.ledger/1\nsymptoms:\n  - id: s\n    means:\n      - no crash report: alive\n"
        #expect(problems(text) == ["l.yaml:5:9: error: expected a string, got a mapping: quote a text that holds ': '"])
    }

    @Test func anotherSchemaIsRefusedByName() {
        #expect(
            problems("ledger: memhunt.ledger/9\n") == [
                "l.yaml:1:9: error: this is 'memhunt.ledger/9'; memhunt reads 'memhunt.ledger/1'"
            ])
    }

    // MARK: - Judging

    @Test func seed000JudgesWorseCauseAndTheFix() throws {
        let ledger = try load(Self.seed000)
        let judged = judge.judge(
            ledger,
            evidence: evidence(
                Self.side("one-block", ["repro.peakMB": 623, "layers.count": 3573]),
                Self.side("renderer-per-block", ["repro.peakMB": 948, "layers.count": 5074]),
                Self.side("2500-blocks", ["repro.peakMB": 103]),
                Self.side("after-fix", ["repro.peakMB": 102])))
        #expect(judged.experiments.map(\.verdict) == [.worse, .cause])
        #expect(judged.experiments[0].sentence.contains("repro.peakMB 623 MB → 948 MB, margin 31.2 MB (5 % of 623 MB"))
        #expect(judged.experiments[0].also == [AlsoReading(fact: "layers.count", baseline: "3,573", variant: "5,074")])
        #expect(judged.experiments[1].sentence.contains("623 MB → 103 MB"))
        #expect(judged.fixes[0].verdict == .fixHolds)
        #expect(judged.fixes[0].sentence.contains("102 MB against 103 MB on the good side, within 5.2 MB"))
        #expect(judged.hypotheses.map(\.status) == [.worse, .cause])
        #expect(judged.falseLeads.map(\.id) == ["renderer"])
    }

    @Test func aFixThatDoesNotReachTheGoodSideFails() throws {
        let ledger = try load(Self.seed000)
        let judged = judge.judge(
            ledger,
            evidence: evidence(
                Self.side("2500-blocks", ["repro.peakMB": 103]), Self.side("after-fix", ["repro.peakMB": 140])))
        #expect(judged.fixes[0].verdict == .fixFails)
    }

    @Test func whatWasNotReadIsNeverRuledOutOrACause() throws {
        let ledger = try load(Self.seed000)
        let judged = judge.judge(
            ledger,
            evidence: evidence(
                Self.side("one-block", ["repro.peakMB": 623]),
                Self.side("2500-blocks", ["repro.peakMB": 103], problems: ["m.json: not read (truncated)"]),
                Self.side("renderer-per-block", [:])))
        #expect(judged.experiments.map(\.verdict) == [.inconclusive, .inconclusive])
        #expect(judged.experiments[0].reasons == ["the variant records no repro.peakMB"])
        #expect(judged.experiments[1].reasons == ["variant: m.json: not read (truncated)"])
        #expect(judged.fixes[0].verdict == .inconclusive)
        #expect(judged.hypotheses.map(\.status) == [.open, .open])
    }

    @Test func twoVariablesChangedAtOnceAreNamedByWhatDiffers() throws {
        let ledger = try load(Self.seed000)
        var one = Self.side("one-block", ["repro.peakMB": 623])
        one.1.conditions = [.inputSize: "291,840 bytes", .device: "iPhone18,1"]
        var split = Self.side("2500-blocks", ["repro.peakMB": 103])
        split.1.conditions = [.inputSize: "145,920 bytes", .device: "iPhone18,1"]
        let judged = judge.judge(ledger, evidence: evidence(one, split))
        #expect(judged.experiments[1].verdict == .inconclusive)
        #expect(
            judged.experiments[1].reasons
                == ["the baseline and the variant differ in input size too (291,840 bytes vs 145,920 bytes)"])
        // Declared as the variable's own: the difference is the experiment.
        let varied = try load(
            Self.seed000.replacingOccurrences(
                of: "variable: 2,500 blocks", with: "variable: half the input\n    varies: [input-size]"))
        #expect(judge.judge(varied, evidence: evidence(one, split)).experiments[1].verdict == .cause)
    }

    @Test func aBaselineWithoutTheSymptomDecidesNothing() throws {
        let ledger = try load(Self.seed000)
        let judged = judge.judge(
            ledger,
            evidence: evidence(
                Self.side("one-block", ["repro.peakMB": 200]), Self.side("2500-blocks", ["repro.peakMB": 103])))
        #expect(judged.experiments[1].verdict == .inconclusive)
        #expect(
            judged.experiments[1].reasons == [
                "the baseline does not show the symptom (200 MB; it is repro.peakMB above 300 MB)"
            ])
    }

    static let seed003 = """
        ledger: memhunt.ledger/1
        symptoms:
          - id: freeze
            shows: {fact: sample.layoutPercent, above: 50}
        hypotheses:
          - id: textkit2
            statement: TextKit 2
          - id: rendering
            statement: rendering cost
          - id: network
            statement: the server stalled
          - id: loop
            statement: layout loop
        experiments:
          - id: textkit1
            tests: textkit2
            variable: TextKit 1
            baseline: {artifacts: [s], label: base}
            variant: {artifacts: [s], label: tk1}
          - id: cache
            tests: rendering
            variable: cached
            measure: sample.peakMB
            baseline: {artifacts: [s], label: base}
            variant: {artifacts: [s], label: cached}
        bisections:
          - id: parts
            tests: loop
            baseline: {artifacts: [s], label: base}
            toggles:
              - {id: a, variable: auto-scroll}
              - {id: b, variable: lazy stack}
              - {id: c, variable: markdown}
              - {id: d, variable: avatars}
            tries:
              - off: [a, b]
                variant: {artifacts: [s], label: ab}
              - off: [c]
                variant: {artifacts: [s], label: c}
        counter-evidence:
          - id: observer
            against: network
            artifacts: [observer.log]
            says: the server delivered every event
        fixes:
          - id: vstack
            fixes: loop
            variable: VStack
            baseline: {artifacts: [s], label: base}
            variant: {artifacts: [s], label: fixed}
        """

    static func sample(_ label: String, _ layout: Double, _ peak: Double) -> (String, SideEvidence) {
        let side = LedgerSide(artifacts: ["s"], label: label)
        return (
            side.key,
            SideEvidence(
                artifacts: ["s"], facts: ["sample.layoutPercent": .double(layout), "sample.peakMB": .double(peak)])
        )
    }

    @Test func seed003JudgesRuledOutAmplifierBisectionAndFix() throws {
        let ledger = try load(Self.seed003)
        let observer = LedgerSide(artifacts: ["observer.log"])
        let judged = judge.judge(
            ledger,
            evidence: evidence(
                Self.sample("base", 100, 418), Self.sample("tk1", 99.9, 420), Self.sample("cached", 100, 236.2),
                Self.sample("ab", 0, 201), Self.sample("c", 100, 410), Self.sample("fixed", 0, 190),
                (
                    observer.key,
                    SideEvidence(
                        artifacts: ["observer.log"], problems: ["observer.log: " + SideEvidence.unrecognizedSuffix])
                )))
        #expect(judged.experiments.map(\.verdict) == [.ruledOut, .amplifier])
        #expect(
            judged.experiments[0].sentence.contains("100 % → 99.9 %, margin 5 points (the default for a percentage)"))
        #expect(judged.experiments[1].sentence.contains("418 MB → 236.2 MB"))
        let bisection = try #require(judged.bisections.first)
        #expect(bisection.tries.map(\.verdict) == [.cause, .ruledOut])
        // The cause is among a and b (c is out, d was never tried with them): try the first half of a and b.
        #expect(bisection.remaining == ["a", "b"])
        #expect(bisection.next == ["a"])
        #expect(judged.fixes[0].verdict == .fixHolds)
        #expect(judged.fixes[0].sentence.contains("100 % → 0 %"))
        #expect(judged.counterEvidence[0].status == .noted)
        #expect(judged.hypotheses.map(\.status) == [.ruledOut, .amplifier, .setAside, .open])
    }

    @Test func bisectionHalvesRepeatsAnInconclusiveTryAndStopsAtOne() throws {
        let base = Self.sample("base", 100, 400)
        var text = Self.seed003
        let ledger = try load(text)
        var untried = ledger
        untried.bisections[0].tries = []
        #expect(judge.judge(untried, evidence: evidence(base)).bisections[0].next == ["a", "b"])
        // A try whose side could not be read is tried again, not skipped.
        let judged = judge.judge(ledger, evidence: evidence(base, Self.sample("c", 100, 400)))
        #expect(judged.bisections[0].tries[0].verdict == .inconclusive)
        #expect(judged.bisections[0].next == ["a", "b"])
        text = text.replacingOccurrences(of: "off: [c]", with: "off: [a]")
        let found = judge.judge(
            try load(text), evidence: evidence(base, Self.sample("ab", 0, 200), Self.sample("c", 0, 200)))
        #expect(found.bisections[0].found == ["a"])
        #expect(found.bisections[0].next == nil)
        #expect(found.bisections[0].sentence == "auto-scroll alone removes the symptom")
    }

    @Test func repeatedRunsSetTheMarginAndTheSentenceSaysSo() throws {
        let ledger = try load(Self.seed000)
        let judged = judge.judge(
            ledger,
            evidence: evidence(
                Self.side("one-block", ["repro.peakMB": 623], repeats: ["repro.peakMB": [610, 623, 650]]),
                Self.side("renderer-per-block", ["repro.peakMB": 660], repeats: ["repro.peakMB": [655, 660, 661]])))
        let renderer = judged.experiments[0]
        // 623 → 660 is past 5 % (31.2 MB) but within the 40 MB the baseline's own runs spread over.
        #expect(renderer.margin?.source == .repeated)
        #expect(renderer.margin?.value == 40)
        #expect(renderer.verdict == .ruledOut)
        #expect(renderer.sentence.contains("the widest spread of 6 repeated runs"), "\(renderer.sentence)")
        #expect(renderer.baseline?.shown == "623 MB (median of 610 MB–650 MB over 3 runs)")
    }

    // MARK: - Editing

    @Test func anEntryIsAppendedWithoutRewritingTheRest() throws {
        let text =
            "ledger: memhunt.ledger/1\n# the suspects\nhypotheses:\n- id: a\n  statement: first  # kept\n\nfixes: []\n"
        let entry: [(String, LedgerEditor.Value)] = [("id", .string("b")), ("statement", .string("say \"no\": 2\n"))]
        let added = try LedgerEditor.appending(entry, to: "hypotheses", in: text).get()
        #expect(
            added
                == "ledger: memhunt.ledger/1\n# the suspects\nhypotheses:\n- id: a\n  statement: first  # kept\n"
                + "- {id: \"b\", statement: \"say \\\"no\\\": 2\\n\"}\n\nfixes: []\n")
        #expect(try load(added).hypotheses.map(\.statement) == ["first", "say \"no\": 2\n"])
        let created = try LedgerEditor.appending(entry, to: "experiments", in: "ledger: memhunt.ledger/1")
        #expect(try created.get().hasSuffix("\nexperiments:\n  - {id: \"b\", statement: \"say \\\"no\\\": 2\\n\"}\n"))
        let flow = LedgerEditor.appending(entry, to: "hypotheses", in: "hypotheses: [{id: a}]\n")
        #expect(throws: LedgerEditor.EditError.self) { try flow.get() }
    }

    @Test func theSkeletonIsAValidLedger() throws {
        let ledger = try load(LedgerEditor.skeleton(subject: "Chat \"beta\""))
        #expect(ledger.subject == "Chat \"beta\"")
        #expect(ledger.symptoms.map(\.id) == ["symptom"])
    }
}
