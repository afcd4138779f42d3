import MemhuntCore
import MemhuntFormats

/// The memory kills the device's log lines record: the kernel's `memorystatus` lines (the limit crossed, the
/// kill with its reason, band and footprint), `killed by jetsam reason …`, and a debugger's `EXC_RESOURCE …
/// MEMORY` stop. A kill seen only in a log is a kill, with its limit and footprint.
struct MemoryKillCheck: MeasuringCheck {
    /// The logs' kill records, and the subject's place among them.
    struct Measurement {
        var logs: [Artifact]
        var all: [KillRecord]
        var subject: Subject
    }

    /// What the records are to the subject.
    enum Subject {
        /// No app named: the records of processes killed.
        case unnamed(killed: [KillRecord])
        /// Its kills, its soft-limit crossings, and the other processes' kills.
        case named(app: String, kills: [KillRecord], soft: [KillRecord], others: [KillRecord])
    }

    func measure(_ context: CheckContext) async throws -> Measurement? {
        let logs = context.artifacts(of: .killLog).filter { $0.killLog != nil }
        guard !logs.isEmpty else { return nil }
        let all = KillRecord.all(in: context)
        guard let app = context.subject.app else {
            return Measurement(logs: logs, all: all, subject: .unnamed(killed: all.filter { $0.kill.killed }))
        }
        let mine = all.filter { $0.isOf(context.subject) }
        return Measurement(
            logs: logs, all: all,
            subject: .named(
                app: app, kills: mine.filter { $0.kill.killed }, soft: mine.filter { !$0.kill.killed },
                others: all.filter { !$0.isOf(context.subject) && $0.kill.killed }))
    }

    func say(_ m: Measurement, in context: CheckContext, to output: inout CheckOutput) {
        output.record(Fact.records, .array(m.all.prefix(20).map { Self.value($0.kill) }))
        Self.problems(&output, logs: m.logs)
        switch m.subject {
        case .unnamed(let named):
            guard !named.isEmpty else { return }
            output.emit(
                Code.noSubject, title: Words.whichApp(named), detail: Words.noSubject(named),
                evidence: named.prefix(10).map(\.evidence), next: .decide(.chooseApp, Words.nameTheApp))
        case .named(let app, let kills, let soft, let others):
            output.record(Fact.kills, .int(kills.count))
            output.record(Fact.softLimit, .int(soft.count))
            output.record(Fact.otherKills, .int(others.count))
            for record in soft {
                output.emit(
                    Code.softLimit, title: "\(record.kill.process ?? app) " + record.text,
                    detail: Words.softLimit(record, app), evidence: [record.evidence],
                    next: .step("simulator-repro", Words.findTheScreenSoft))
            }
            guard let last = kills.last else {
                if !others.isEmpty {
                    output.emit(
                        Code.othersOnly, title: Words.othersOnlyTitle(others, app),
                        detail: Words.othersOnly(others, app),
                        evidence: others.prefix(10).map(\.evidence))
                }
                return
            }
            Self.killed(&output, last: last, kills: kills, app: app)
        }
    }

    /// The subject's last kill: its facts, finding, headline, impact and the kills' times.
    static func killed(_ output: inout CheckOutput, last: KillRecord, kills: [KillRecord], app: String) {
        let kill = last.kill
        let name = kill.process ?? app
        output.record(Fact.reason, kill.reason.map(FactValue.string))
        output.record(Fact.limitMB, kill.limitMB.map { .megabytes(bytes: Double($0) * 1_048_576) })
        output.record(Fact.limitKind, kill.limitKind.map(FactValue.string))
        output.record(Fact.footprintMB, kill.footprintKB.map { .megabytes(bytes: Double($0) * 1024) })
        output.record(Fact.band, kill.band.map(FactValue.string))
        output.record(Fact.availablePages, kill.availablePages.map { .int(Int(clamping: $0)) })
        output.record(Fact.time, kill.timestamp.map(FactValue.string))
        let atLimit = kill.limitMB != nil || kill.reason == "per-process-limit"
        output.emit(
            Code.killed, severity: atLimit ? .critical : .warning, title: "\(name) was " + last.text,
            detail: Words.killed(last, kills: kills, app: app), evidence: kills.suffix(5).map(\.evidence),
            next: atLimit
                ? .step("simulator-repro", Words.ownLimit) : .step("suspended-footprint", Words.systemNeeded))
        output.headline(Fact.kills, "kills in the logs", Plural.count(kills.count, "kill") + " of \(app)")
        output.headline(Fact.limitMB, "limit")
        output.headline(Fact.footprintMB, "footprint at the kill")
        output.impact("Log: \(name) " + last.text + (kill.timestamp.map { ", at \($0)" } ?? "") + ".")
        for record in kills {
            if let time = record.kill.timestamp {
                output.event(
                    TimelineEvent(time: time, text: "Killed (log): " + record.text, source: record.artifact.source))
            }
        }
    }

    /// A kill record as a fact: what its lines tell, nothing more.
    static func value(_ kill: MemoryKill) -> FactValue {
        var fields: [String: FactValue] = ["killed": .bool(kill.killed), "line": .int(kill.line)]
        fields["process"] = kill.process.map(FactValue.string)
        fields["pid"] = kill.pid.map(FactValue.int)
        fields["reason"] = kill.reason.map(FactValue.string)
        fields["limitMB"] = kill.limitMB.map(FactValue.int)
        fields["limitKind"] = kill.limitKind.map(FactValue.string)
        fields["footprintKB"] = kill.footprintKB.map { .int(Int(clamping: $0)) }
        fields["band"] = kill.band.map(FactValue.string)
        fields["availablePages"] = kill.availablePages.map { .int(Int(clamping: $0)) }
        fields["time"] = kill.timestamp.map(FactValue.string)
        if kill.inDebugger { fields["debugger"] = .bool(true) }
        return .object(fields)
    }

    /// The kill lines the logs could not read whole, named with their lines.
    static func problems(_ output: inout CheckOutput, logs: [Artifact]) {
        let troubled = logs.filter { ($0.killLog?.problemCount ?? 0) > 0 }
        guard !troubled.isEmpty else { return }
        let count = troubled.reduce(0) { $0 + ($1.killLog?.problemCount ?? 0) }
        let named = troubled.flatMap { artifact in
            (artifact.killLog?.problems ?? []).prefix(5).map { artifact.fileName + " " + $0 }
        }
        output.emit(
            Code.unreadable,
            title: Plural.count(count, "kill line") + " could not be read whole",
            detail: named.joined(separator: "; ") + (count > named.count ? "; …" : "")
                + ". The rest of the logs was read; what these lines leave out is not known.",
            evidence: troubled.map { Evidence(source: $0.source) })
    }

    /// `KeyboardSpike (per-process-limit), MobileSafari (vm-pageshortage)` for the first five.
    static func listing(_ records: [KillRecord]) -> String {
        records.prefix(5).map { ($0.kill.process ?? "a debugged process") + ($0.kill.reason.map { " (\($0))" } ?? "") }
            .joined(separator: ", ") + (records.count > 5 ? ", …" : "")
    }
}

/// Every sentence the check says.
extension MemoryKillCheck {
    enum Words {
        static let nameTheApp = "Name the app under investigation (a process name or bundle id)."
        static let findTheScreenSoft = "Find which screen allocates past the soft limit."
        static let ownLimit = "It crossed its own memory limit: find which screen allocates."
        static let systemNeeded = "The system needed memory: see how much the app held when it was chosen."

        static func whichApp(_ named: [KillRecord]) -> String {
            "Which app? The logs record " + Plural.count(named.count, "kill") + ": " + listing(named)
        }

        static func noSubject(_ named: [KillRecord]) -> String {
            "No app was named, so no kill is weighed as the app's. The logs record: "
                + named.prefix(10).map { ($0.kill.process ?? "a debugged process") + " " + $0.sign }
                .joined(separator: "; ") + (named.count > 10 ? "; …" : "") + "."
        }

        static func softLimit(_ record: KillRecord, _ app: String) -> String {
            "\(record.artifact.source) line \(record.kill.line): \(record.kill.process ?? app)"
                + (record.kill.pid.map { " [\($0)]" } ?? "") + " " + record.text
                + (record.kill.timestamp.map { ", at \($0)" } ?? "")
                + ". A soft limit is a warning: the process lived on past it; a hard limit ends it."
        }

        static func othersOnlyTitle(_ others: [KillRecord], _ app: String) -> String {
            "The logs record " + Plural.count(others.count, "kill") + " of other processes, none of " + app + ": "
                + listing(others)
        }

        static func othersOnly(_ others: [KillRecord], _ app: String) -> String {
            "None of the logs' kills names \(app): "
                + others.prefix(10).map { ($0.kill.process ?? "an unnamed process") + " " + $0.sign }
                .joined(separator: "; ") + (others.count > 10 ? "; …" : "")
                + ". A log holds what its capture covered: it does not show that \(app) was not killed outside it."
        }

        /// What the last kill's lines tell, in sentences: where, how, with what around it, and the earlier kills.
        static func killed(_ last: KillRecord, kills: [KillRecord], app: String) -> String {
            let kill = last.kill
            var sentences = [
                "\(last.artifact.source) line \(kill.line): \(kill.process ?? app)"
                    + (kill.pid.map { " [\($0)]" } ?? "")
                    + " " + last.text + (kill.timestamp.map { ", at \($0)" } ?? "") + "."
            ]
            var around: [String] = []
            if let band = kill.band { around.append("in band \(band)" + (kill.priority.map { " (\($0))" } ?? "")) }
            if kill.band == nil, let priority = kill.priority { around.append("at priority \(priority)") }
            if let age = kill.ageSeconds { around.append("\(FactValue.grouped(age)) s old") }
            if let type = kill.processType { around.append("type \(type)") }
            if let kb = kill.footprintKB {
                around.append(
                    "footprint " + FactValue.grouped(kb) + " KB (" + (Double(kb) * 1024).megabytesText + ")"
                        + (kill.limitMB.map { " against its \($0) MB limit" } ?? ""))
            }
            if let pages = kill.availablePages {
                around.append(FactValue.grouped(pages) + " pages available to jetsam")
            }
            if !around.isEmpty { sentences.append("At the kill: " + around.joined(separator: ", ") + ".") }
            if kill.inDebugger {
                sentences.append(
                    "The debugger's stop line names no process: it is the process the debugger was attached to.")
            }
            if kills.count > 1 {
                sentences.append(
                    "The logs record " + Plural.count(kills.count, "kill") + " of \(app); these are the last one's "
                        + "facts: " + kills.dropLast().prefix(5).map(\.sign).joined(separator: "; ") + ".")
            }
            return sentences.joined(separator: " ")
        }
    }
}
