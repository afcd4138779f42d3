import MemhuntCore
import MemhuntFormats
import MemhuntSnapshots

/// A crash SDK's "out of memory" or "watchdog termination", graded against the operating system's own records of
/// the same app and device: a JetsamEvent, a kernel kill line, a crash report. No SDK sees the kill; each infers
/// it on the next launch by ruling out what it knows, and its users report false ones.
struct SDKClaimCheck: MeasuringCheck {
    /// The exports cut short, and each event (once, however many copies) graded against the OS records.
    struct Measurement {
        var cuts: [(artifact: Artifact, cut: String)]
        var graded: [(artifact: Artifact, grade: SDKClaimGrade)]
        /// The graded claims that are memory claims.
        var memory: [(artifact: Artifact, grade: SDKClaimGrade)] { graded.filter { $0.grade.grade != .noClaim } }
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        let exports = context.artifacts(of: .sdkExport).compactMap { artifact -> (Artifact, SDKExport)? in
            guard case .sdkExport(let export)? = artifact.content else { return nil }
            return (artifact, export)
        }
        guard !exports.isEmpty else { return nil }
        // One event, however many copies of it were given. The engine sets aside the artifacts of another app than
        // the subject (and lists them): what is here is the subject's, or names no app.
        var seen: Set<String> = []
        var events: [(Artifact, SDKEvent)] = []
        for (artifact, export) in exports {
            for event in export.events where seen.insert(event.identity).inserted { events.append((artifact, event)) }
        }
        let records = Self.records(context)
        let options = SDKClaimGrader.Options(
            windowSeconds: Double(context.int("window_minutes")) * 60, farBelowRatio: context.double("far_below_ratio"))
        let unread = context.unread.map(\.fileName)
        return Measurement(
            cuts: exports.compactMap { artifact, export in export.cut.map { (artifact, $0) } },
            graded: events.map { artifact, event in
                (artifact, SDKClaimGrader.grade(event, records: records, options: options, unread: unread))
            })
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        for (artifact, cut) in m.cuts {
            output.emit(
                Code.cut, title: artifact.fileName + " is cut short: what is whole was read",
                detail: Words.cut(artifact, cut), evidence: [Evidence(source: artifact.source)])
        }
        output.record(Fact.events, .int(m.graded.count))
        let memory = m.memory
        output.record(Fact.memoryClaims, .int(memory.count))
        let byGrade: [(SDKGrade, FactDescription)] = [
            (.confirmed, Fact.confirmed), (.contradicted, Fact.contradicted), (.falsePositiveClass, Fact.falsePositive),
            (.unconfirmed, Fact.unconfirmed),
        ]
        for (grade, fact) in byGrade where !memory.isEmpty {
            output.record(fact, .int(memory.filter { $0.grade.grade == grade }.count))
        }
        output.record(Fact.claims, .array(m.graded.prefix(20).map { Self.value($0.grade) }))
        for (artifact, grade) in m.graded { Self.say(grade, of: artifact, context: context, to: &output) }
        let unclaimed = m.graded.filter { $0.grade.grade == .noClaim }
        if !unclaimed.isEmpty {
            output.emit(
                Code.noClaim, title: Words.noClaimTitle(unclaimed.count),
                detail: unclaimed.prefix(10).map { $0.artifact.fileName + ": " + $0.grade.sentence }.joined(
                    separator: " ")
                    + (unclaimed.count > 10 ? " …" : ""),
                evidence: unclaimed.prefix(10).map {
                    Evidence(source: $0.artifact.source, pointer: $0.grade.event.claimPointer)
                })
        }
        if !memory.isEmpty {
            output.headline(Fact.memoryClaims, "SDK memory claims")
            output.headline(Fact.confirmed, "confirmed")
            output.headline(Fact.contradicted, "contradicted")
        }
    }

    /// One graded event: its finding, with the export's claim and the OS record that graded it, and its time.
    static func say(_ grade: SDKClaimGrade, of artifact: Artifact, context: CheckContext, to output: inout CheckOutput)
    {
        let event = grade.event
        var evidence = [Evidence(source: artifact.source, pointer: event.claimPointer)]
        if let record = grade.record {
            evidence.append(
                Evidence(
                    source: context.artifacts.first { $0.fileName == record.file }?.source ?? record.file,
                    line: record.line))
        }
        let head = Words.head(event)
        switch grade.grade {
        case .confirmed:
            output.emit(
                Code.confirmed, title: head + ": confirmed by the " + (grade.record?.what ?? "OS record"),
                detail: grade.sentence, evidence: evidence, next: .step("simulator-repro", Words.killedForMemory))
            output.impact(grade.sentence)
        case .contradicted:
            output.emit(
                Code.contradicted, title: head + ": contradicted (" + (grade.reason ?? "another ending") + ")",
                detail: grade.sentence, evidence: evidence,
                next: grade.reason == "watchdog, not memory"
                    ? .step("crash-report", Words.readTheWatchdog) : .collect(.jetsamEvent, Words.howItEnded))
        case .falsePositiveClass:
            output.emit(
                Code.falsePositive, title: head + ": a known false-positive class (" + (grade.reason ?? "") + ")",
                detail: grade.sentence, evidence: evidence, next: .collect(.jetsamEvent, Words.wouldSettle))
        case .unconfirmed:
            output.emit(
                Code.unconfirmed, title: head + ": unconfirmed", detail: grade.sentence, evidence: evidence,
                next: .collect(.jetsamEvent, Words.wouldSettle))
        case .noClaim: break
        }
        if let time = event.time?.utc {
            output.event(
                TimelineEvent(
                    time: AppleDate.utcText(time), text: event.sdk.name + " claims " + event.claim.words,
                    source: artifact.source))
        }
    }

    /// The OS records among the artifacts, of every app (the grader picks each event's own).
    static func records(_ context: CheckContext) -> [OSRecord] {
        var records: [OSRecord] = []
        for artifact in context.artifacts where artifact.status == .ok {
            switch artifact.content {
            case .jetsamEvent(let event)?:
                records += OSRecord.records(of: event, file: artifact.fileName, isApp: { _ in true })
            case .crashReport(let report)?:
                if let record = OSRecord.record(of: report, file: artifact.fileName, isApp: { _ in true }) {
                    records.append(record)
                }
            default: break
            }
            for kill in artifact.killLog?.kills ?? [] {
                if let record = OSRecord.record(of: kill, file: artifact.fileName, isApp: { _ in true }) {
                    records.append(record)
                }
            }
        }
        return records
    }

    /// A graded claim as a fact.
    static func value(_ grade: SDKClaimGrade) -> FactValue {
        let event = grade.event
        var fields: [String: FactValue] = [
            "sdk": .string(event.sdk.rawValue), "shape": .string(event.shape), "claim": .string(event.claim.rawValue),
            "grade": .string(grade.grade.rawValue),
        ]
        fields["eventID"] = event.eventID.map(FactValue.string)
        fields["time"] = event.time?.utc.map { .string(AppleDate.utcText($0)) }
        fields["timeAsWritten"] = event.time.map { .string($0.text) }
        fields["timeBasis"] = event.time.map { .string($0.basis) }
        fields["clock"] = event.time.map { .string($0.clock) }
        fields["reason"] = grade.reason.map(FactValue.string)
        fields["device"] = event.device.map(FactValue.string)
        if let record = grade.record {
            fields["record"] = .string(record.what + " " + record.file)
        }
        return .object(fields)
    }
}

/// Every sentence the check says (a grade's own sentence is the grader's).
extension SDKClaimCheck {
    enum Words {
        static let killedForMemory = "It was killed for memory: find which screen allocates."
        static let readTheWatchdog = "The watchdog ended it: read the main thread of the watchdog report."
        static let howItEnded = "A JetsamEvent of the time the app ended shows how it ended."
        static let wouldSettle = "A JetsamEvent of that time, from the same device, would settle it."

        /// "Sentry watchdog termination of JustSend".
        static func head(_ event: SDKEvent) -> String {
            event.sdk.name + " " + event.claim.words + " of " + (event.app ?? event.bundleID ?? "the app")
        }

        static func cut(_ artifact: Artifact, _ cut: String) -> String {
            artifact.fileName + ": " + cut + ". Fields past the cut are not known; the export as the SDK's API returns "
                + "it would give them."
        }

        static func noClaimTitle(_ count: Int) -> String {
            Plural.count(count, "SDK event") + " of the subject " + (count == 1 ? "makes" : "make") + " no memory claim"
        }
    }
}
