import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// Step 4: memory pressure on the whole system, from what the record shows about its moment.
///
/// `memoryStatus.compressions` counts pages compressed since boot, so 3 million, 32 million and 43 million
/// are all "a lot" on a phone up for days: the counter alone is a notice. A warning needs evidence of
/// pressure at that moment: the compressor holding a large share of physical memory, few free pages,
/// processes killed for a system-wide shortage, or, between two records of one boot, a high rate.
struct CompressorPressureCheck: MeasuringCheck {
    /// The facts it records, declared once for the description and the body.
    enum Fact {
        static let compressions = FactDescription(
            "jetsam.compressions", .count,
            "memoryStatus.compressions of the JetsamEvent record: pages compressed since boot, a counter.")
        static let decompressions = FactDescription(
            "jetsam.decompressions", .count, "memoryStatus.decompressions: pages decompressed since boot.")
        static let compressorPercent = FactDescription(
            "jetsam.compressorPercent", .percent,
            "memoryStatus.compressorSize as a share of physical memory (page queues + compressor) at that moment."
        )
        static let freePercent = FactDescription(
            "jetsam.freePercent", .percent,
            "Free pages (memoryPages free less speculative, which it holds) as a share of physical memory at "
                + "that moment.")
        static let availablePercent = FactDescription(
            "jetsam.availablePercent", .percent,
            "Pages jetsam counts as available (memorystatus_available_pages: file-backed + free) as a share of "
                + "physical memory at that moment, when the record has fileBacked.", better: .higher)
        static let pressureKills = FactDescription(
            "jetsam.pressureKills", .count,
            "Processes the record shows killed for a system-wide shortage (vm-pageshortage, thrashing …).")
        static let compressionsPerMinute = FactDescription(
            "jetsam.compressionsPerMinute", .count,
            "Compressions per minute between the chosen record and the one before it, when the counter did "
                + "not go down between them (one boot).")
    }

    /// The findings it emits, declared once for the description and the body.
    enum Code {
        static let compressions = FindingCode(
            "compressor-pressure.compressions", .notice,
            "The compressor had compressed at least the threshold's count of pages since boot: a counter, "
                + "not evidence of pressure at that moment.",
            examples: [
                .raises(
                    "Fixtures/webcontent", facts: [Fact.compressions.key: 2204410, Fact.decompressions.key: 1100230],
                    title: "2,204,410 compressions since boot"),
                .quiet("Fixtures/old-device", facts: [Fact.compressions.key: 842113, Fact.decompressions.key: 500112]),
            ])
        static let atThatMoment = FindingCode(
            "compressor-pressure.at-that-moment", .warning,
            "The record shows pressure at its moment: the compressor's share of memory, few free pages or "
                + "kills for a system-wide shortage.",
            examples: [
                .raises(
                    "Fixtures/old-device", facts: [Fact.compressions.key: 842113, Fact.decompressions.key: 500112],
                    title:
                        "Memory was short when the record was taken: 1 process killed for a system-wide shortage (vm-pageshortage 1)"
                ),
                .quiet(
                    "Fixtures/webcontent", facts: [Fact.compressions.key: 2204410, Fact.decompressions.key: 1100230]),
            ])
        static let compressorPressureRate = FindingCode(
            "compressor-pressure.rate", .warning,
            "Between two records of one boot the system compressed at least the threshold's pages per minute.",
            examples: [
                .raises(
                    "Fixtures/pressure", facts: [Fact.compressions.key: 21800000, Fact.decompressions.key: 12100000],
                    title: "180,000 compressions per minute between two records of one boot"),
                .quiet(
                    "Fixtures/pressure/JetsamEvent-2026-08-11-111000.ips",
                    facts: [Fact.compressions.key: 21800000, Fact.decompressions.key: 12100000]),
            ])
        static let noRate = FindingCode(
            "compressor-pressure.no-rate", .info,
            "Several records, and no rate between them: of two devices, two boots, or without a device identity.",
            examples: [
                .raises(
                    "Fixtures/examples/compressor-pressure.no-rate/raises",
                    facts: [Fact.compressions.key: 21800000, Fact.decompressions.key: 12100000],
                    title:
                        "No compressions rate: JetsamEvent-2024-02-01-090000.ips and JetsamEvent-2026-08-11-111000.ips are of two different devices"
                ),
                .quiet(
                    "Fixtures/pressure", facts: [Fact.compressions.key: 21800000, Fact.decompressions.key: 12100000]),
            ])
        static let notACount = FindingCode(
            "compressor-pressure.not-a-count", .info,
            "The record's compressions counter holds a value no count reaches (above 2^63 - 1; UInt64.max is -1 "
                + "written unsigned): it is read as no count.",
            examples: [
                .raises(
                    "Fixtures/examples/compressor-pressure.not-a-count/raises",
                    facts: [Fact.decompressions.key: 11000000, Fact.compressorPercent.key: 5.5],
                    title: "The record's compressions counter, 18,446,744,073,709,551,615, is no count"),
                .quiet(
                    "Fixtures/webcontent", facts: [Fact.compressions.key: 2204410, Fact.decompressions.key: 1100230]),
            ])
    }

    static let description = CheckDescription(
        id: "compressor-pressure",
        title: "Compressor compressions",
        step: "compressor-pressure",
        rationale: """
            iOS compresses unused pages when memory is low, and compression uses CPU. The counter of \
            compressions runs since boot, so it says little about one moment; the compressor's share of \
            physical memory, the free pages, kills for page shortage and the rate between two records of \
            the same boot say whether the system was under pressure when the record was taken.
            """,
        reads: [.jetsamEvent],
        facts: [
            Fact.compressions,
            Fact.decompressions,
            Fact.compressorPercent,
            Fact.freePercent,
            Fact.availablePercent,
            Fact.pressureKills,
            Fact.compressionsPerMinute,
        ],
        codes: [
            Code.compressions,
            Code.atThatMoment,
            Code.compressorPressureRate,
            Code.notACount,
            Code.noRate,
        ],
        parameters: [
            CheckParameter(
                "max_compressions", default: 1_000_000, "A notice at this many cumulative compressions."),
            CheckParameter(
                "max_compressor_percent", default: 25,
                "Warn when the compressor holds this share (%) of physical memory or more."),
            CheckParameter(
                "min_available_percent", default: 15,
                "Warn when the pages jetsam counts as available are below this share (%): 15 is XNU's default "
                    + "pressure level for devices up to 6 GB."),
            CheckParameter(
                "max_compressions_per_minute", default: 60_000,
                "Warn when two records of one boot show this many compressions per minute or more."),
        ]
    )

    /// What the chosen record shows of the whole system, and the rate from the record before it.
    struct Measurement {
        var record: JetsamRecord
        /// The compressions counter as a count; nil when absent or no count (`written` then says what it was).
        var compressions: Int?
        var written: UInt64?
        var decompressions: Int?
        /// Processes the record shows killed for a system-wide shortage.
        var kills: [JetsamSnapshot.Process]
        var rate: Result<Rate, RateRefusal>?
        /// Whether the subject's process was not suspended (nil when no process of it is listed).
        var subjectActive: Bool?
    }

    /// One sign of pressure at the record's moment.
    enum Sign {
        case compressor(percent: Double, pages: UInt64, of: UInt64)
        case available(percent: Double, pages: UInt64, fileBacked: UInt64, free: UInt64, of: UInt64)
        case kills(count: Int, atLeast: Bool, reasons: [String])
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        guard let record = JetsamRecord.chosen(in: context) else { return nil }
        let event = record.event
        return Measurement(
            // A value above Int.max (UInt64.max, most likely -1 written unsigned) is no count: said as written.
            record: record, compressions: JetsamEvent.count(event.compressions), written: event.compressions,
            decompressions: JetsamEvent.count(event.decompressions), kills: event.pressureKills,
            rate: Self.rate(record, in: context),
            subjectActive: record.processes(of: context.subject).first.map { !$0.isSuspended })
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        let record = m.record
        let event = record.event
        let source = record.artifact.source
        if let compressions = m.compressions {
            output.record(Fact.compressions, .int(compressions))
        } else if let written = m.written {
            output.emit(
                Code.notACount, title: Words.notACountTitle(written),
                detail: Words.notACount(written, momentKnown: event.moment != nil),
                evidence: [Evidence(source: source, pointer: "/memoryStatus/compressions")])
        }
        output.record(Fact.decompressions, m.decompressions.map(FactValue.int))
        let (signs, pointers) = Self.signs(m, context: context, to: &output)
        if !signs.isEmpty {
            output.emit(
                Code.atThatMoment, title: Words.shortTitle(signs), detail: Words.short(signs, date: event.date),
                evidence: pointers,
                // What the app held in the background answers only for a suspended app (the suspended-footprint
                // step does not apply to a frontmost one, and the jetsam record already gives its footprint).
                next: m.subjectActive == true
                    ? .step("simulator-repro", Words.reproduceActive)
                    : .step("suspended-footprint", Words.seeHeld))
        }
        Self.sayRate(m.rate, record: record, context: context, to: &output)
        Self.present(&output)
        if let compressions = m.compressions, compressions >= context.int("max_compressions") {
            output.emit(
                Code.compressions, title: "\(FactValue.grouped(compressions)) compressions since boot",
                detail: Words.counter(compressions, threshold: context.int("max_compressions"), moment: event.moment),
                evidence: [Evidence(source: source, pointer: "/memoryStatus/compressions")],
                next: signs.isEmpty ? .collect(.jetsamEvent, Words.collectSecond) : nil)
        }
    }

    /// The moment's facts, and the signs of pressure they show against the thresholds, with their evidence.
    static func signs(_ m: Measurement, context: CheckContext, to output: inout CheckOutput) -> ([Sign], [Evidence]) {
        let record = m.record
        let event = record.event
        let source = record.artifact.source
        var signs: [Sign] = []
        var pointers: [Evidence] = []
        if let moment = event.moment {
            output.record(Fact.compressorPercent, .oneDecimal(moment.compressorPercent))
            output.record(Fact.freePercent, .oneDecimal(moment.freePercent))
            if moment.compressorPercent >= context.double("max_compressor_percent") {
                signs.append(
                    .compressor(
                        percent: moment.compressorPercent, pages: moment.compressorPages, of: moment.physicalPages))
                pointers.append(Evidence(source: source, pointer: "/memoryStatus/compressorSize"))
            }
            if let available = moment.availablePages, let share = moment.availablePercent {
                output.record(Fact.availablePercent, .oneDecimal(share))
                if share < context.double("min_available_percent") {
                    signs.append(
                        .available(
                            percent: share, pages: available, fileBacked: moment.fileBackedPages ?? 0,
                            free: moment.freePages, of: moment.physicalPages))
                    pointers.append(Evidence(source: source, pointer: "/memoryStatus/memoryPages/fileBacked"))
                    pointers.append(Evidence(source: source, pointer: "/memoryStatus/memoryPages/free"))
                }
            }
        }
        // An incomplete record (elided) lists only some processes: its kills are a lower bound, not a count.
        if event.complete { output.record(Fact.pressureKills, .int(m.kills.count)) }
        if !m.kills.isEmpty {
            let reasons = Dictionary(grouping: m.kills, by: { $0.reason ?? "" }).map { "\($0.key) \($0.value.count)" }
            signs.append(.kills(count: m.kills.count, atLeast: !event.complete, reasons: reasons.sorted()))
            pointers += m.kills.prefix(3).map { record.evidence($0, "reason") }
        }
        return (signs, pointers)
    }

    /// The rate between two records of one boot, or why there is none.
    static func sayRate(
        _ rate: Result<Rate, RateRefusal>?, record: JetsamRecord, context: CheckContext, to output: inout CheckOutput
    ) {
        switch rate {
        case .failure(let refusal)?:
            let reason = Words.refusal(refusal.why, refusal.earlier, record)
            output.emit(
                Code.noRate, title: "No compressions rate: " + reason, detail: Words.noRate(reason),
                evidence: [refusal.earlier, record].map {
                    Evidence(source: $0.artifact.source, pointer: "/memoryStatus/compressions")
                })
        case .success(let rate)?:
            output.record(Fact.compressionsPerMinute, .int(Int(saturating: rate.perMinute)))
            let limit = context.double("max_compressions_per_minute")
            guard rate.perMinute >= limit else { return }
            output.emit(
                Code.compressorPressureRate, title: Words.rateTitle(rate),
                detail: Words.rate(rate, record, limit: limit),
                evidence: [
                    Evidence(source: rate.earlier.artifact.source, pointer: "/memoryStatus/compressions"),
                    Evidence(source: record.artifact.source, pointer: "/memoryStatus/compressions"),
                ])
        case nil: break
        }
    }

    /// The headline and the impact: a counter since boot, and the record's moment.
    static func present(_ output: inout CheckOutput) {
        let facts = output.facts
        output.headline(
            Fact.compressions, "compressions since boot",
            facts[Fact.compressions.key].map { "\($0) compressions since boot" })
        output.headline(
            Fact.compressorPercent, "compressor share",
            facts[Fact.compressorPercent.key].map { "compressor \(Fact.compressorPercent.format($0)) of memory" })
        output.headline(
            Fact.availablePercent, "available to jetsam",
            facts[Fact.availablePercent.key].map { "\(Fact.availablePercent.format($0)) available to jetsam" })
        output.headline(
            Fact.freePercent, "free", facts[Fact.freePercent.key].map { "\(Fact.freePercent.format($0)) free" })
        output.headline(
            Fact.compressionsPerMinute, "rate",
            facts[Fact.compressionsPerMinute.key].map { "\($0) compressions per minute" })
        guard let compressions = facts[Fact.compressions.key] else { return }
        output.impact(
            Words.impact(
                compressions, free: facts[Fact.freePercent.key], available: facts[Fact.availablePercent.key]))
    }

    /// A rate between two records of one device and one boot.
    struct Rate {
        var earlier: JetsamRecord
        var delta: Int
        var minutes: Double
        var perMinute: Double
    }

    /// Compressions per minute from the record before `record` (in time) to `record`, or why there is none.
    /// A counter since boot makes a rate only between records of one device (the same `crashReporterKey`)
    /// and one boot: the same OS build (an update reboots) and a counter that did not go down (a reboot
    /// resets it). nil when there is no earlier record.
    static func rate(_ record: JetsamRecord, in context: CheckContext) -> Result<Rate, RateRefusal>? {
        let records = JetsamRecord.all(in: context)
        guard let index = records.firstIndex(where: { $0.artifact.source == record.artifact.source }), index > 0
        else { return nil }
        let earlier = records[index - 1]
        guard let k0 = earlier.event.deviceKey, let k1 = record.event.deviceKey else {
            return .failure(RateRefusal(earlier, .noDevice))
        }
        guard k0 == k1 else { return .failure(RateRefusal(earlier, .twoDevices)) }
        guard earlier.event.build == record.event.build else {
            return .failure(RateRefusal(earlier, .twoBuilds(earlier.event.build, record.event.build)))
        }
        guard let t0 = earlier.event.time, let t1 = record.event.time, t1 > t0 else {
            return .failure(RateRefusal(earlier, .noOrder))
        }
        guard let c0 = JetsamEvent.count(earlier.event.compressions),
            let c1 = JetsamEvent.count(record.event.compressions)
        else { return .failure(RateRefusal(earlier, .noCount)) }
        guard c1 >= c0 else { return .failure(RateRefusal(earlier, .wentDown)) }
        let minutes = (t1 - t0) / 60
        return .success(Rate(earlier: earlier, delta: c1 - c0, minutes: minutes, perMinute: Double(c1 - c0) / minutes))
    }

    /// Why two records give no rate.
    struct RateRefusal: Error {
        enum Why {
            case noDevice, twoDevices, noOrder, noCount, wentDown
            case twoBuilds(String?, String?)
        }

        /// The record before the chosen one, which gives no rate with it.
        var earlier: JetsamRecord
        var why: Why
        init(_ earlier: JetsamRecord, _ why: Why) {
            self.earlier = earlier
            self.why = why
        }
    }
}

/// Every sentence the check says.
extension CompressorPressureCheck {
    enum Words {
        static let reproduceActive =
            "The app was not suspended while memory was short: reproduce its screens to see what they hold."
        static let seeHeld = "See how much the app held while the system was short."
        static let collectSecond = "Collect a second record of the same boot: the rate between them tells."

        static func notACountTitle(_ written: UInt64) -> String {
            "The record's compressions counter, \(FactValue.grouped(written)), is no count"
        }

        static func notACount(_ written: UInt64, momentKnown: Bool) -> String {
            let why =
                written == UInt64.max
                ? "it is UInt64.max, -1 written unsigned" : "a million a second would take 290,000 years"
            return "memoryStatus.compressions is \(FactValue.grouped(written)), above the largest signed "
                + "64-bit value: no system compresses that many pages (\(why)). It is read as no count. "
                + (momentKnown
                    ? "The compressor's share and the free pages of the record still tell its moment."
                    : "The record has no compressor size or page queues to tell its moment either.")
        }

        static func sign(_ sign: Sign) -> String {
            func pages(_ count: UInt64) -> String { FactValue.grouped(Int(clamping: count)) }
            switch sign {
            case .compressor(let percent, let compressor, let physical):
                return "the compressor held \(FactValue.oneDecimal(percent).description) % of memory "
                    + "(\(pages(compressor)) of \(pages(physical)) pages)"
            case .available(let percent, let available, let fileBacked, let free, let physical):
                return "\(FactValue.oneDecimal(percent).description) % of memory was available to jetsam "
                    + "(\(pages(available)) pages: \(pages(fileBacked)) file-backed and \(pages(free)) free, of "
                    + "\(pages(physical)) pages)"
            case .kills(let count, let atLeast, let reasons):
                return (atLeast ? "at least " : "") + Plural.count(count, "process", "processes")
                    + " killed for a system-wide shortage (" + reasons.joined(separator: ", ") + ")"
            }
        }

        static func shortTitle(_ signs: [Sign]) -> String {
            "Memory was short when the record was taken: " + signs.map(sign).joined(separator: "; ")
        }

        static func short(_ signs: [Sign], date: String?) -> String {
            "The record shows pressure at its moment (" + (date ?? "undated") + "): "
                + signs.map(sign).joined(separator: "; ") + ". Compression uses CPU, so the whole system slows."
        }

        static func moment(_ moment: JetsamSnapshot.Moment?) -> String {
            moment.map {
                "At that moment the compressor held \(FactValue.oneDecimal($0.compressorPercent).description) % of "
                    + "memory and \(FactValue.oneDecimal($0.freePercent).description) % was free"
                    + ($0.availablePercent.map {
                        "; \(FactValue.oneDecimal($0).description) % was available to jetsam (file-backed and free)."
                    } ?? "; the record has no file-backed count, so what jetsam counts as available is not known.")
            } ?? "The record has no compressor size or page queues to tell that moment."
        }

        static func counter(_ compressions: Int, threshold: Int, moment: JetsamSnapshot.Moment?) -> String {
            "memoryStatus.compressions counts pages compressed since boot: \(FactValue.grouped(compressions)) "
                + "(threshold \(FactValue.grouped(threshold))). A counter since boot is not a moment: on its own it "
                + "shows no pressure. " + Self.moment(moment)
        }

        static func refusal(_ why: RateRefusal.Why, _ earlier: JetsamRecord, _ record: JetsamRecord) -> String {
            let names = "\(earlier.artifact.fileName) and \(record.artifact.fileName)"
            switch why {
            case .noDevice: return "\(names) do not both name their device (crashReporterKey)"
            case .twoDevices: return "\(names) are of two different devices"
            case .twoBuilds(let one, let other):
                return "\(names) are of two OS builds (\(one ?? "?") and \(other ?? "?")): the device restarted "
                    + "between them"
            case .noOrder: return "\(names) do not both carry a time that orders them"
            case .noCount: return "\(names) do not both carry a compressions count"
            case .wentDown:
                return "the counter went down from \(earlier.artifact.fileName) to \(record.artifact.fileName): a "
                    + "restart reset it"
            }
        }

        static func noRate(_ reason: String) -> String {
            "The compressions counter runs since boot, so a rate needs two records of one device and one boot; "
                + reason + ". Each record's counter stands alone."
        }

        static func rateTitle(_ rate: Rate) -> String {
            "\(FactValue.grouped(Int(saturating: rate.perMinute))) compressions per minute between two records of one "
                + "boot"
        }

        static func rate(_ rate: Rate, _ record: JetsamRecord, limit: Double) -> String {
            "From \(rate.earlier.artifact.source) (\(rate.earlier.event.date ?? "undated")) to "
                + "\(record.artifact.source) (\(record.event.date ?? "undated")) the counter rose by "
                + "\(FactValue.grouped(rate.delta)) in \(FactValue.oneDecimal(rate.minutes).description) minutes "
                + "(threshold \(FactValue.grouped(Int(saturating: limit))) per minute)."
        }

        static func impact(_ compressions: FactValue, free: FactValue?, available: FactValue?) -> String {
            var line =
                "The whole system: \(compressions) compressions since boot (a counter: how much the device had "
                + "compressed since it started, not when)"
            if let free {
                line += "; at the record's moment \(Fact.freePercent.format(free)) of memory was free"
                if let available {
                    line += " and \(Fact.availablePercent.format(available)) available to jetsam (file-backed and free)"
                }
            }
            return line + "."
        }
    }
}
