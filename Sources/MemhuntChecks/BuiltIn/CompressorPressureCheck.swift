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
