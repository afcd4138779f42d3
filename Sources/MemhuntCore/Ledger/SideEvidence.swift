import MemhuntFormats

/// What one side of a ledger entry showed: the facts and finding codes of the playbook's checks over its
/// artifacts, what kept an artifact from counting, the repeated values of a measure, and the conditions
/// (input size, device, OS build, app version) its artifacts state.
public struct SideEvidence: Sendable, Hashable {
    /// The artifacts as the ledger names them.
    public var artifacts: [String]
    /// Why an artifact does not count, one sentence each: missing, unread, of another app, no row of the label.
    public var problems: [String]
    public var facts: Facts
    /// The codes of the findings the checks made.
    public var codes: Set<String>
    /// Values of one measure taken several times on this side (rows of one label, an XCTest metric's runs).
    public var repeats: [String: [Double]]
    /// What the artifacts say of each condition, when they say one thing.
    public var conditions: [SideCondition: String]
    /// The fact of each role a fix is verified by (`VerifyFix`), as the checks that ran declare them.
    public var verifies: [FixEvidence: String] = [:]

    public init(
        artifacts: [String], problems: [String] = [], facts: Facts = [:],
        codes: Set<String> = [], repeats: [String: [Double]] = [:], conditions: [SideCondition: String] = [:]
    ) {
        self.artifacts = artifacts
        self.problems = problems
        self.facts = facts
        self.codes = codes
        self.repeats = repeats
        self.conditions = conditions
    }

    /// A side none of whose artifacts could be had (the ledger's file is not where it says).
    public static func unavailable(_ side: LedgerSide, _ problems: [String]) -> SideEvidence {
        SideEvidence(artifacts: side.artifacts, problems: problems)
    }

    /// The artifacts of `side` with its `label` applied: a measurement set keeps the rows of that label, read
    /// as readings of one variant. The problem says so when no measurement row has the label.
    public static func select(_ artifacts: [Artifact], label: String?) -> (artifacts: [Artifact], problem: String?) {
        guard let label else { return (artifacts, nil) }
        var labels: [String] = []
        var found = false
        let selected = artifacts.map { artifact -> Artifact in
            guard case .repro(.measurements(var set))? = artifact.content else { return artifact }
            for row in set.measurements where !labels.contains(row.label) { labels.append(row.label) }
            // The rows of one label are readings of one variant: the side is that variant, measured, so they
            // read as a reproduction's readings (repro.peakMB), not as variants to compare with each other.
            set.measurements = set.measurements.filter { $0.label == label }.map { row in
                var row = row
                row.variant = nil
                return row
            }
            found = found || !set.measurements.isEmpty
            var copy = artifact
            copy.content = .repro(.measurements(set))
            return copy
        }
        guard !found else { return (selected, nil) }
        let known = labels.isEmpty ? "no measurement set among them" : "labels: " + labels.joined(separator: ", ")
        return (selected, "no measurement row is labelled '\(label)' (\(known))")
    }

    /// The end of the problem of an artifact whose kind memhunt does not read: it exists, and nothing was read
    /// of it (counter-evidence the ledger reads itself may be such a file).
    public static let unrecognizedSuffix = "of a kind memhunt does not read"

    /// The evidence of a run of the playbook over one side's artifacts (already selected by label).
    public init(
        side: LedgerSide, result: RunResult, problems: [String] = [], readings: [String: RepeatedReading] = [:],
        keeping needed: Set<String>? = nil
    ) {
        var problems = problems
        let subject = result.subject
        for artifact in result.artifacts where artifact.duplicateOf == nil {
            if artifact.status == .unrecognized {
                problems.append("\(artifact.source): \(Self.unrecognizedSuffix)")
            } else if artifact.status != .ok {
                problems.append("\(artifact.source): not read (\(artifact.error ?? artifact.status.rawValue))")
            } else if ArtifactOwner.belongs(artifact, to: subject) == false, let app = subject.app {
                let names = ArtifactOwner.names(of: artifact)
                let owner = names.first.map { " of \($0)" } ?? ""
                problems.append("\(artifact.source): an artifact\(owner), not of \(app)")
            }
        }
        let verifies = VerifyFix.keys(in: result.factCatalog)
        let kept = needed.map { $0.union(verifies.values) }
        self.init(
            artifacts: side.artifacts, problems: problems,
            facts: kept.map { keys in result.facts.filter { keys.contains($0.key) } } ?? result.facts,
            codes: Set(result.findings.map(\.code)), repeats: Self.repeats(result.artifacts, readings: readings),
            conditions: Self.conditions(result.artifacts))
        self.verifies = verifies
    }

    /// The values of a measurement row a repeated reading names.
    static func value(_ reading: RepeatedReading, of row: Measurement) -> Double? {
        switch reading {
        case .footprint: row.footprintMB
        case .coreAnimation: row.coreAnimationMB
        case .layers: row.layers.map(Double.init)
        case .xctestMemory: nil
        }
    }

    /// Repeated values by fact: the rows of a measurement set when they all share one label (the same moment
    /// measured again), and the runs of the heaviest XCTest memory metric; `readings` says which fact reports
    /// which reading (the checks' descriptions declare it).
    static func repeats(_ artifacts: [Artifact], readings: [String: RepeatedReading]) -> [String: [Double]] {
        var rows: [Measurement] = []
        var heaviest: [Double] = []
        for artifact in artifacts where artifact.status == .ok && artifact.duplicateOf == nil {
            switch artifact.content {
            case .repro(.measurements(let set))?: rows += set.measurements
            case .repro(.xctestMetrics(let metrics))?:
                for metric in metrics.metrics where metric.isMemory {
                    guard let scale = metric.bytesPerUnit, metric.values.count >= 2 else { continue }
                    let values = metric.values.map { $0 * scale / 1_048_576 }
                    if values.max() ?? 0 > heaviest.max() ?? -1 { heaviest = values }
                }
            default: continue
            }
        }
        var result: [String: [Double]] = [:]
        let oneLabel = rows.count >= 2 && Set(rows.map(\.label)).count == 1
        for (fact, reading) in readings {
            if reading == .xctestMemory {
                if !heaviest.isEmpty { result[fact] = heaviest }
            } else if oneLabel {
                let values = rows.compactMap { value(reading, of: $0) }
                if values.count == rows.count { result[fact] = values }
            }
        }
        return result
    }

    /// What the artifacts say of each condition; a condition they state two ways is left out (the side
    /// itself is mixed, and its own findings say so).
    static func conditions(_ artifacts: [Artifact]) -> [SideCondition: String] {
        var seen: [SideCondition: Set<String>] = [:]
        func note(_ condition: SideCondition, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            seen[condition, default: []].insert(value)
        }
        for artifact in artifacts where artifact.status == .ok && artifact.duplicateOf == nil {
            switch artifact.content {
            case .repro(.measurements(let set))?:
                for row in set.measurements {
                    note(.inputSize, row.inputBytes.map { FactValue.grouped($0) + " bytes" })
                    note(.inputLines, row.inputLines.map { FactValue.grouped($0) + " lines" })
                    note(.scenario, row.scenario)
                }
            case .repro(.xctestMetrics(let metrics))?:
                for metric in metrics.metrics { note(.device, metric.device) }
            case .jetsamEvent(let event)?:
                note(.device, event.product)
                note(.os, event.build)
            case .crashReport(let report)?:
                note(.device, report.device)
                note(.os, report.osVersion)
                note(.appVersion, report.appVersion)
            default: continue
            }
        }
        return seen.compactMapValues { $0.count == 1 ? $0.first : nil }
    }
}
