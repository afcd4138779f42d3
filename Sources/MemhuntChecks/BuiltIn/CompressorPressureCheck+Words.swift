import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

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
