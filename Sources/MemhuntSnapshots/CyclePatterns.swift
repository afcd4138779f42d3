import MemhuntFormats

/// A regular expression, compiled once where it is declared.
public struct RegexPattern: Sendable, Hashable, ExpressibleByStringLiteral {
    public let text: String
    // A Regex is a value that matching only reads (its program is built once, atomically): shared freely.
    nonisolated(unsafe) let compiled: Regex<AnyRegexOutput>?
    /// The text's hash, taken once: a report's classifier looks its patterns up millions of times.
    private let textHash: Int

    public init(stringLiteral text: String) {
        self.text = text
        compiled = try? Regex(text)
        textHash = text.hashValue
    }

    public static func == (a: Self, b: Self) -> Bool { a.text == b.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(textHash) }
}

/// How a name on a cycle is matched: exactly, by its start, by a part, or by a regular expression.
public enum NameMatch: Sendable, Hashable {
    case exact(String)
    case prefix(String)
    case contains(String)
    case regex(RegexPattern)

    /// Whether a name matches a `NameMatch`: `matches` itself, or a memo of it.
    public typealias Matching = (NameMatch, String?) -> Bool

    public func matches(_ name: String?) -> Bool {
        guard let name else { return false }
        switch self {
        case .exact(let text): return name == text
        case .prefix(let text): return name.hasPrefix(text)
        case .contains(let text): return name.contains(text)
        case .regex(let pattern):
            guard let regex = pattern.compiled else { return false }
            return name.firstMatch(of: regex) != nil
        }
    }
}

/// One kind of leak a `leaks` tree can show, declared once: what it matches on the cycle (its nodes' classes
/// and the references between them, never what hangs below), how sure a match is, the fix, and examples that
/// are its tests (`CyclePatternTests` reads each: a tree that raises it, one that does not).
public struct CyclePattern: Sendable, Hashable {
    public enum Confidence: String, Sendable, Hashable, Comparable {
        case low, medium, high
        public static func < (a: Self, b: Self) -> Bool {
            [Self.low, .medium, .high].firstIndex(of: a)! < [Self.low, .medium, .high].firstIndex(of: b)!
        }
    }

    /// What a cycle must show; every requirement of a pattern must hold.
    public enum Requirement: Sendable, Hashable {
        /// A node on the cycle of a class that matches.
        case node(NameMatch)
        /// A reference on the cycle (the label's field: `delegate`, `[capture]`) that matches.
        case field(NameMatch)
        /// A node of the app's own classes on the cycle (`LeakOwner`).
        case appClass
        /// Every typed node of the cycle is the app's, and it has at least one.
        case onlyAppClasses
        /// One object leaked alone, with nothing under it.
        case lone
        /// A reference cycle.
        case cycle

        var namesNodes: Bool {
            if case .node = self { true } else { false }
        }
    }

    public enum Example: Sendable, Hashable {
        case raises(String)
        case quiet(String)
    }

    /// One way the pattern shows, with how sure a match of it is.
    public struct Way: Sendable, Hashable {
        public var requirements: [Requirement]
        public var confidence: Confidence
        public init(_ confidence: Confidence, _ requirements: [Requirement]) {
            self.confidence = confidence
            self.requirements = requirements
        }
    }

    public var id: String
    public var title: String
    /// The ways it shows, any of which is a match (the first that holds decides the confidence).
    public var ways: [Way]
    public var fix: String
    public var before: String
    public var after: String
    /// The SwiftLint rule that catches it, or "none".
    public var swiftLint: String
    public var examples: [Example]
    /// A shape rather than a framework's class (a closure, a block, objects of the app): a pattern that names a
    /// framework class ranks above it when both match.
    public var general = false

    /// The confidence and the lines of `shape` the match rests on, or nil when it does not match; `owners` are
    /// its nodes' (`LeakOwner.of`), one each.
    /// `matching` answers whether a name matches (`NameMatch.matches`, or a memo of it).
    public func match(
        _ shape: LeakShape, owners: [LeakOwner], matching: NameMatch.Matching = { $0.matches($1) }
    ) -> (confidence: Confidence, lines: [Int])? {
        for way in ways {
            if let lines = Self.holds(way.requirements, shape, owners, matching) { return (way.confidence, lines) }
        }
        return nil
    }

    static func holds(
        _ requirements: [Requirement], _ shape: LeakShape, _ owners: [LeakOwner], _ matches: NameMatch.Matching
    ) -> [Int]? {
        var lines: Set<Int> = []
        func check(_ requirement: Requirement) -> Bool {
            switch requirement {
            case .node(let name):
                let found = shape.nodes.filter { matches(name, $0.className) }
                lines.formUnion(found.map(\.line))
                return !found.isEmpty
            case .field(let name):
                let found =
                    shape.nodes.dropFirst().filter { matches(name, $0.field) }.map(\.line)
                    + (matches(name, shape.backField) ? [shape.backLine].compactMap { $0 } : [])
                lines.formUnion(found)
                return !found.isEmpty
            case .appClass:
                let found = zip(shape.nodes, owners).filter { $0.1 == .app }.map(\.0.line)
                lines.formUnion(found)
                return !found.isEmpty
            case .onlyAppClasses:
                guard owners.contains(.app), !owners.contains(.system),
                    !shape.nodes.contains(where: { LeakOwner.neutralClasses.contains($0.className ?? "") })
                else { return false }
                lines.formUnion(shape.lines)
                return true
            case .lone:
                lines.formUnion(shape.lines)
                return shape.kind == .lone
            case .cycle:
                return shape.kind == .cycle
            }
        }
        // Every requirement must hold, so the order they are tried in changes no answer: the nodes' classes,
        // the most to match, go last, after the kind, the references and the owners have ruled most ways out.
        for requirement in requirements where !requirement.namesNodes {
            guard check(requirement) else { return nil }
        }
        for requirement in requirements where requirement.namesNodes {
            guard check(requirement) else { return nil }
        }
        return lines.sorted()
    }
}

/// A cycle known to be wholly inside Apple's frameworks, with where it was seen: labelled framework, ranked below
/// the app's own, never hidden.
public struct KnownFrameworkCycle: Sendable, Hashable {
    public var name: String
    public var holder: NameMatch
    public var field: NameMatch?
    public var target: NameMatch
    public var seenOn: String

    public func matches(_ shape: LeakShape, matching: NameMatch.Matching = { $0.matches($1) }) -> Bool {
        guard shape.kind == .cycle, shape.nodes.contains(where: { matching(holder, $0.className) }),
            shape.nodes.contains(where: { matching(target, $0.className) })
        else { return false }
        guard let field else { return true }
        return shape.fields.contains { matching(field, $0) }
    }
}

extension NameMatch {
    /// A name as a playbook or project file writes it: `/regex/`, `prefix*`, or an exact name; nil for a
    /// regular expression that does not compile, or nothing.
    public static func parse(_ text: String) -> NameMatch? {
        if text.count >= 2, text.hasPrefix("/"), text.hasSuffix("/") {
            let pattern = RegexPattern(stringLiteral: String(text.dropFirst().dropLast()))
            return pattern.compiled == nil ? nil : .regex(pattern)
        }
        if text.hasSuffix("*") { return text.count > 1 ? .prefix(String(text.dropLast())) : nil }
        return text.isEmpty ? nil : .exact(text)
    }
}

extension KnownFrameworkCycle {
    /// Entries a playbook adds (`{name, holder, target, field?, seen_on?}`, names as `NameMatch.parse` reads
    /// them), or why one cannot be read.
    /// Why an entry cannot be read, in words.
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    public static func entries(_ list: [[String: String]]) -> Result<[KnownFrameworkCycle], Problem> {
        var entries: [KnownFrameworkCycle] = []
        for (index, entry) in list.enumerated() {
            let place = "entry \(index + 1)" + (entry["name"].map { " (\($0))" } ?? "")
            guard let holder = entry["holder"], let target = entry["target"] else {
                return .failure(Problem(description: "\(place) needs a holder and a target class"))
            }
            guard let holderMatch = NameMatch.parse(holder), let targetMatch = NameMatch.parse(target) else {
                return .failure(
                    Problem(
                        description: "\(place): '\(holder)' or '\(target)' is no name, prefix* or /regular expression/")
                )
            }
            var field: NameMatch?
            if let text = entry["field"] {
                guard let match = NameMatch.parse(text) else {
                    return .failure(
                        Problem(description: "\(place): field '\(text)' is no name, prefix* or /regular expression/"))
                }
                field = match
            }
            entries.append(
                KnownFrameworkCycle(
                    name: entry["name"] ?? "\(holder) → \(target)", holder: holderMatch, field: field,
                    target: targetMatch, seenOn: entry["seen_on"] ?? "the playbook's list"))
        }
        return .success(entries)
    }
}
