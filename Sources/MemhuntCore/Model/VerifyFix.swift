/// A fix's grade for one thing that was wrong: gone, fewer, as many or more, or new after the fix.
public enum FixGrade: Int, Comparable, Sendable, CaseIterable {
    case pass, partial, fail, regressed

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    public var word: String { ["PASS", "PARTIAL", "FAIL", "REGRESSED"][rawValue] }

    /// The grade of a count of what is wrong (cycles, instances gained) before and after.
    public init(before: Double, after: Double) {
        self =
            before <= 0
            ? (after > 0 ? .regressed : .pass)
            : after <= 0 ? .pass : after < before ? .partial : .fail
    }

    public init(before: Int, after: Int) { self.init(before: Double(before), after: Double(after)) }

    /// The severity a verdict is said at: a pass is information, a partial fix a notice, the rest warnings.
    public var severity: Severity { [Severity.info, .notice, .warning, .warning][rawValue] }
}

/// The verdict of a fix over the facts of two runs, one before and one after it: per leak pattern of the app,
/// per class that grew between a run's heaps, for the footprint's growth per visit and per XCTest memory metric
/// against its ceiling. The overall verdict is the worst row's; rows of classes declared expected alive
/// (singletons) are listed and not judged, so they cannot flip it.
public struct VerifyFix: Sendable, Equatable {
    public enum Subject: String, Sendable {
        /// A leak pattern's cycles and lone objects of the app's (from `leaks.cycles`).
        case pattern
        /// Instances a class gained per heap interval within a run (from `heap.diff`).
        case growingClass = "growing-class"
        /// The footprint's fitted growth per visit in MB (`growth.slopeMB`, when its shape is a line).
        case growthPerVisit = "growth-per-visit"
        /// MB over the ceiling of an XCTest memory metric (`xctest.perTest` against `xctest.ceilingMB`).
        case test
    }

    public struct Row: Sendable, Equatable {
        public var subject: Subject
        public var key: String
        public var before: Double
        public var after: Double
        public var grade: FixGrade
        public var expectedAlive: Bool
        /// "3 cycles → 1", "+300 per heap → +0", "13.8 MB per visit → no line".
        public var text: String
    }

    public var rows: [Row]
    /// The worst grade of the judged rows; nil when the two runs give nothing to judge a fix by.
    public var overall: FixGrade?
    /// Bytes `leaks` found leaked before and after, when both runs read a leaks report with its summary.
    public var leakedBytes: (before: Int, after: Int)?

    public static func == (a: Self, b: Self) -> Bool {
        a.rows == b.rows && a.overall == b.overall && a.leakedBytes?.before == b.leakedBytes?.before
            && a.leakedBytes?.after == b.leakedBytes?.after
    }

    /// Instances a class must gain over a run's heaps to count as growing (the heap check's default); blocks of
    /// no class ("non-object") are no class to fix.
    public static let minInstances = 100

    /// The verdict over two runs' facts, each role read from the fact the catalog declares for it.
    public init(before: Facts, after: Facts, catalog: [String: FactInfo], expectedAlive: Set<String> = []) {
        self.init(before: before, after: after, keys: Self.keys(in: catalog), expectedAlive: expectedAlive)
    }

    /// The fact of each role, as a catalog declares them (the first key in order, should two declare one).
    public static func keys(in catalog: [String: FactInfo]) -> [FixEvidence: String] {
        var keys: [FixEvidence: String] = [:]
        for (key, info) in catalog.sorted(by: { $0.key < $1.key }) {
            if let role = info.verifies, keys[role] == nil { keys[role] = key }
        }
        return keys
    }

    /// The verdict over two runs' facts, `keys` naming the fact of each role.
    public init(before: Facts, after: Facts, keys: [FixEvidence: String], expectedAlive: Set<String> = []) {
        let before = Self.roles(before, keys), after = Self.roles(after, keys)
        var rows = Self.patterns(before, after) + Self.classes(before, after)
        rows += Self.perVisit(before, after) + Self.tests(before, after)
        for index in rows.indices where rows[index].subject == .growingClass || rows[index].subject == .pattern {
            let names = Set(rows[index].key.split(separator: " ").map(String.init))
            rows[index].expectedAlive =
                !expectedAlive.isDisjoint(with: names) || expectedAlive.contains(rows[index].key)
        }
        self.rows = rows
        let judged = rows.filter { !$0.expectedAlive }
        overall = judged.map(\.grade).max()
        if let was = before[.leakedBytes]?.intValue, let now = after[.leakedBytes]?.intValue {
            leakedBytes = (was, now)
        }
        // No row, but two leak counts: the counts decide.
        if rows.isEmpty, let was = before[.leakCount]?.doubleValue, let now = after[.leakCount]?.doubleValue {
            overall = FixGrade(before: was, after: now)
        }
    }

    /// One run's facts by the role they play.
    typealias Roles = [FixEvidence: FactValue]

    static func roles(_ facts: Facts, _ keys: [FixEvidence: String]) -> Roles {
        keys.reduce(into: [:]) { roles, entry in roles[entry.key] = facts[entry.value] }
    }

    /// Cycles of the app's (and of no known owner) per pattern; a framework's cannot be fixed by the app.
    static func patterns(_ before: Roles, _ after: Roles) -> [Row] {
        func counts(_ facts: Roles) -> [String: Int]? {
            guard let list = facts[.leakPatterns]?.arrayValue else { return nil }
            var counts: [String: Int] = [:]
            for entry in list {
                guard let object = entry.objectValue, object["owner"]?.stringValue != "framework" else { continue }
                let pattern = object["pattern"]?.stringValue ?? "unknown"
                let key = pattern == "unknown" ? "no known pattern: " + (object["path"]?.stringValue ?? "?") : pattern
                counts[key, default: 0] += object["instances"]?.intValue ?? 0
            }
            return counts
        }
        // A run that read no leaks report says nothing of cycles: no row then. Nor does a run whose list is not
        // the whole report's: a pattern missing from it may be in the trees not read (a run saved before this
        // was known says nothing of it, and is taken as it was).
        guard before[.leakPatternsComplete]?.boolValue != false, after[.leakPatternsComplete]?.boolValue != false,
            let was = counts(before), let now = counts(after)
        else { return [] }
        return Set(was.keys).union(now.keys).sorted().map { key in
            let (from, to) = (was[key] ?? 0, now[key] ?? 0)
            return Row(
                subject: .pattern, key: key, before: Double(from), after: Double(to),
                grade: FixGrade(before: Double(from), after: Double(to)), expectedAlive: false,
                text: "\(from) → \(to)")
        }
    }

    /// Classes that gained at least `minInstances` over one run's heaps, per heap interval.
    static func classes(_ before: Roles, _ after: Roles) -> [Row] {
        func growth(_ facts: Roles) -> [String: Double]? {
            guard let list = facts[.classGrowth]?.arrayValue else { return nil }
            let intervals = Double(max(1, (facts[.captures]?.intValue ?? 2) - 1))
            var growth: [String: Double] = [:]
            for entry in list {
                guard let object = entry.objectValue, let name = object["class"]?.stringValue,
                    name != "non-object", let delta = object["deltaCount"]?.intValue, delta >= minInstances
                else { continue }
                growth[name] = Double(delta) / intervals
            }
            return growth
        }
        guard let was = growth(before), let now = growth(after) else { return [] }
        return Set(was.keys).union(now.keys).sorted().map { key in
            let (from, to) = (was[key] ?? 0, now[key] ?? 0)
            return Row(
                subject: .growingClass, key: key, before: from, after: to,
                grade: FixGrade(before: from, after: to), expectedAlive: false,
                text: "+\(FactValue.grouped(Int(from.rounded()))) per heap → +\(FactValue.grouped(Int(to.rounded())))")
        }
    }

    /// The footprint's growth per visit, when either run's visits climb along a line.
    static func perVisit(_ before: Roles, _ after: Roles) -> [Row] {
        func slope(_ facts: Roles) -> Double? {
            guard let shape = facts[.growthShape]?.stringValue else { return nil }
            return shape == GrowthShape.Kind.linear.rawValue ? max(0, facts[.growthPerRepetition]?.doubleValue ?? 0) : 0
        }
        guard let was = slope(before), let now = slope(after), was > 0 || now > 0 else { return [] }
        func said(_ value: Double) -> String {
            value > 0 ? FactValue.oneDecimal(value).description + " MB per visit" : "no stair"
        }
        return [
            Row(
                subject: .growthPerVisit, key: "footprint per visit", before: was, after: now,
                grade: FixGrade(before: was, after: now), expectedAlive: false, text: "\(said(was)) → \(said(now))")
        ]
    }

    /// Each XCTest memory metric's MB over the ceiling, when a ceiling is set on either run.
    static func tests(_ before: Roles, _ after: Roles) -> [Row] {
        guard let ceiling = after[.testCeiling]?.doubleValue ?? before[.testCeiling]?.doubleValue else { return [] }
        func over(_ facts: Roles) -> [String: Double]? {
            guard let list = facts[.testPeaks]?.arrayValue else { return nil }
            var over: [String: Double] = [:]
            for entry in list {
                guard let object = entry.objectValue, let test = object["test"]?.stringValue,
                    let mb = object["peakMB"]?.doubleValue
                else { continue }
                over[test] = max(over[test] ?? 0, mb - ceiling)
            }
            return over
        }
        guard let was = over(before), let now = over(after) else { return [] }
        return Set(was.keys).intersection(now.keys).sorted().compactMap { test in
            let (from, to) = (max(0, was[test]!), max(0, now[test]!))
            guard from > 0 || to > 0 else { return nil }
            func said(_ value: Double) -> String {
                value > 0
                    ? FactValue.oneDecimal(value).description
                        + " MB over the \(FactValue.oneDecimal(ceiling)) MB ceiling" : "under it"
            }
            return Row(
                subject: .test, key: test, before: from, after: to, grade: FixGrade(before: from, after: to),
                expectedAlive: false, text: "\(said(from)) → \(said(to))")
        }
    }
}
