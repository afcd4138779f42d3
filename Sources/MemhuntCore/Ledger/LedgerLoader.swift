import MemhuntBasics
import MemhuntYAML

/// Every problem found while loading a ledger, one per line as `file:line:col: error: …`.
public struct LedgerLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]
    public init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// Turns ledger YAML into a `Ledger`, every problem at once with its location, as playbooks are loaded.
public struct LedgerLoader: Sendable {
    /// The checks whose facts and finding codes a measure may name.
    public var knownChecks: [CheckDescription]

    public init(knownChecks: [CheckDescription]) { self.knownChecks = knownChecks }

    /// Loads ledger text; `origin` is the file part of every diagnostic.
    public func load(text: String, origin: String, directory: String?) -> Result<Ledger, LedgerLoadError> {
        let root: YAMLNode
        do {
            // A node takes at least two bytes of text unless an alias copies it: a budget in proportion to
            // the text lets a ledger of 10,000 experiments through and still stops an alias bomb.
            root = try YAMLParser.parse(text, budget: max(YAMLParser.nodeBudget, text.utf8.count / 2))
        } catch {
            let location = SourceLocation(file: origin, line: error.mark.line, column: error.mark.column)
            return .failure(LedgerLoadError(diagnostics: [Diagnostic(.error, error.message, at: location)]))
        }
        var decoder = LedgerDecoder(file: origin, knownChecks: knownChecks)
        let ledger = decoder.ledger(root, directory: directory)
        let diagnostics = decoder.sortedDiagnostics
        guard var ledger, diagnostics.isEmpty else { return .failure(LedgerLoadError(diagnostics: diagnostics)) }
        ledger.sha256 = SHA256.hex(Array(text.utf8))
        return .success(ledger)
    }
}

/// Maps a `YAMLNode` onto the ledger schema (docs/ledger.md).
struct LedgerDecoder: SchemaDecoding {
    static let ledgerKeys = [
        "ledger", "subject", "artifacts", "symptoms", "hypotheses", "experiments", "bisections",
        "counter-evidence", "fixes",
    ]
    static let symptomKeys = ["id", "words", "means", "shows"]
    static let conditionKeys = ["fact", "key", "verdict", "above", "below"]
    static let measureKeys = ["fact", "key", "verdict"]
    static let sideKeys = ["artifacts", "label"]
    static let hypothesisKeys = ["id", "statement", "suspect", "symptom"]
    static let comparandKeys = ["variable", "measure", "expect", "margin", "varies", "also"]
    static let experimentKeys = ["id", "tests", "symptom", "baseline", "variant"] + comparandKeys
    static let bisectionKeys = ["id", "tests", "symptom", "measure", "margin", "baseline", "toggles", "tries"]
    static let toggleKeys = ["id", "variable"]
    static let tryKeys = ["off", "variant"]
    static let counterKeys = ["id", "against", "artifacts", "says", "shows"]
    static let fixKeys = ["id", "fixes", "symptom", "variant", "baseline", "equals"] + comparandKeys

    let file: String
    var diagnostics: [Diagnostic] = []
    /// Fact keys any check declares, with their units (a threshold is in the fact's unit).
    let facts: [String: FactDescription]
    let codes: Set<String>
    private var entryIDs: [String: Mark] = [:]
    private var references: [(id: String, kind: String, mark: Mark)] = []

    init(file: String, knownChecks: [CheckDescription]) {
        self.file = file
        var facts: [String: FactDescription] = [:]
        for check in knownChecks { for fact in check.facts where facts[fact.key] == nil { facts[fact.key] = fact } }
        self.facts = facts
        codes = Set(knownChecks.flatMap { $0.codes.map(\.code) })
    }

    mutating func ledger(_ root: YAMLNode, directory: String?) -> Ledger? {
        guard let fields = fields(of: root, in: "ledger", allowed: Self.ledgerKeys, required: ["ledger"]) else {
            return nil
        }
        if let field = fields["ledger"], let schema = string(field.value), schema != Ledger.schema {
            error("this is '\(schema)'; memhunt reads '\(Ledger.schema)'", at: field.value.mark)
        }
        var ledger = Ledger(origin: file, directory: directory)
        ledger.subject = text(fields["subject"], key: "subject", required: false)
        ledger.artifacts = fields["artifacts"].map { paths($0.value) } ?? []
        ledger.symptoms = entries(fields["symptoms"]) { $0.symptom($1) }
        let symptomIDs = ledger.symptoms.map(\.id)
        ledger.hypotheses = entries(fields["hypotheses"]) { $0.hypothesis($1) }
        ledger.experiments = entries(fields["experiments"]) { $0.experiment($1) }
        ledger.bisections = entries(fields["bisections"]) { $0.bisection($1) }
        ledger.counterEvidence = entries(fields["counter-evidence"]) { $0.counterEvidence($1) }
        ledger.fixes = entries(fields["fixes"]) { $0.fix($1) }
        let hypothesisIDs = ledger.hypotheses.map(\.id)
        for reference in references {
            let among = reference.kind == "symptom" ? symptomIDs : hypothesisIDs
            guard !among.contains(reference.id) else { continue }
            error(
                "unknown \(reference.kind) '\(reference.id)'\(Suggestion.hint(for: reference.id, among: among))",
                at: reference.mark)
        }
        return diagnostics.isEmpty ? ledger : nil
    }

    /// The items of a list-valued key, each decoded by `decode`.
    mutating func entries<T>(_ field: Field?, _ decode: (inout Self, YAMLNode) -> T?) -> [T] {
        guard let field, let items = list(field.value) else { return [] }
        var result: [T] = []
        for item in items { if let entry = decode(&self, item) { result.append(entry) } }
        return result
    }

    /// An entry's id: kebab-case and unique among the ledger's entries of every kind.
    mutating func entryID(_ field: Field?, what: String) -> String? {
        guard let id = identifier(field, what: what), let mark = field?.value.mark else { return nil }
        if let first = entryIDs[id] {
            error("duplicate id '\(id)' (first at line \(first.line))", at: mark)
            return nil
        }
        entryIDs[id] = mark
        return id
    }

    /// A reference to a hypothesis or symptom, checked once every entry is read.
    mutating func reference(_ field: Field?, kind: String) -> String? {
        guard let field, let id = string(field.value) else { return nil }
        references.append((id, kind, field.value.mark))
        return id
    }

    mutating func symptom(_ node: YAMLNode) -> LedgerSymptom? {
        guard let fields = fields(of: node, in: "symptom", allowed: Self.symptomKeys, required: ["id"]) else {
            return nil
        }
        let id = entryID(fields["id"], what: "symptom id")
        let words = text(fields["words"], key: "words", required: false)
        let means = fields["means"].map { strings($0.value) } ?? []
        let shows = fields["shows"].flatMap { condition($0.value) }
        guard let id else { return nil }
        return LedgerSymptom(id: id, words: words, means: means, shows: shows, location: location(node.mark))
    }

    mutating func hypothesis(_ node: YAMLNode) -> Hypothesis? {
        guard
            let fields = fields(
                of: node, in: "hypothesis", allowed: Self.hypothesisKeys, required: ["id", "statement"])
        else { return nil }
        let id = entryID(fields["id"], what: "hypothesis id")
        let statement = text(fields["statement"], key: "statement")
        let suspect = text(fields["suspect"], key: "suspect", required: false)
        let symptom = reference(fields["symptom"], kind: "symptom")
        guard let id, let statement else { return nil }
        return Hypothesis(
            id: id, statement: statement, suspect: suspect, symptom: symptom, location: location(node.mark))
    }

    mutating func experiment(_ node: YAMLNode) -> Experiment? {
        guard
            let fields = fields(
                of: node, in: "experiment", allowed: Self.experimentKeys,
                required: ["id", "tests", "variable", "baseline", "variant"])
        else { return nil }
        let id = entryID(fields["id"], what: "experiment id")
        let tests = reference(fields["tests"], kind: "hypothesis")
        let symptom = reference(fields["symptom"], kind: "symptom")
        let comparand = comparand(fields)
        let baseline = fields["baseline"].flatMap { side($0.value) }
        let variant = fields["variant"].flatMap { side($0.value) }
        guard let id, let tests, let comparand, let baseline, let variant else { return nil }
        return Experiment(
            id: id, tests: tests, symptom: symptom, comparand: comparand, baseline: baseline, variant: variant,
            location: location(node.mark))
    }

    mutating func bisection(_ node: YAMLNode) -> Bisection? {
        guard
            let fields = fields(
                of: node, in: "bisection", allowed: Self.bisectionKeys, required: ["id", "baseline", "toggles"])
        else { return nil }
        let id = entryID(fields["id"], what: "bisection id")
        let tests = reference(fields["tests"], kind: "hypothesis")
        let symptom = reference(fields["symptom"], kind: "symptom")
        let measure = fields["measure"].flatMap { self.measure($0.value) }
        let margin = fields["margin"].flatMap { self.margin($0.value) }
        let baseline = fields["baseline"].flatMap { side($0.value) }
        var toggles: [Bisection.Toggle] = []
        let toggleItems = fields["toggles"].flatMap { list($0.value) } ?? []
        for item in toggleItems {
            guard let inner = self.fields(of: item, in: "toggle", allowed: Self.toggleKeys, required: Self.toggleKeys)
            else { continue }
            guard let toggleID = identifier(inner["id"], what: "toggle id"),
                let variable = text(inner["variable"], key: "variable")
            else { continue }
            if toggles.contains(where: { $0.id == toggleID }), let mark = inner["id"]?.value.mark {
                error("duplicate toggle '\(toggleID)'", at: mark)
                continue
            }
            toggles.append(Bisection.Toggle(id: toggleID, variable: variable))
        }
        if let field = fields["toggles"], toggles.isEmpty, diagnostics.isEmpty {
            error("'toggles' must list at least one toggle", at: field.value.mark)
        }
        var tries: [Bisection.Try] = []
        let tryItems = fields["tries"].flatMap { list($0.value) } ?? []
        for item in tryItems {
            guard let inner = self.fields(of: item, in: "try", allowed: Self.tryKeys, required: ["off"]) else {
                continue
            }
            var off: [String] = []
            let names = inner["off"].flatMap { list($0.value) } ?? []
            for name in names {
                guard let toggle = string(name) else { continue }
                let known = toggles.map(\.id)
                if !known.contains(toggle) {
                    error("unknown toggle '\(toggle)'\(Suggestion.hint(for: toggle, among: known))", at: name.mark)
                } else if off.contains(toggle) {
                    error("toggle '\(toggle)' is listed twice", at: name.mark)
                } else {
                    off.append(toggle)
                }
            }
            if off.isEmpty, let field = inner["off"], case .sequence(let items, _) = field.value, items.isEmpty {
                error("'off' must list at least one toggle", at: field.value.mark)
            }
            let variant = inner["variant"].flatMap { side($0.value) }
            tries.append(Bisection.Try(off: off, variant: variant, location: location(item.mark)))
        }
        guard let id, let baseline else { return nil }
        return Bisection(
            id: id, tests: tests, symptom: symptom, measure: measure, margin: margin, baseline: baseline,
            toggles: toggles, tries: tries, location: location(node.mark))
    }

    mutating func counterEvidence(_ node: YAMLNode) -> CounterEvidence? {
        guard
            let fields = fields(
                of: node, in: "counter-evidence", allowed: Self.counterKeys,
                required: ["id", "against", "artifacts", "says"])
        else { return nil }
        let id = entryID(fields["id"], what: "counter-evidence id")
        let against = reference(fields["against"], kind: "hypothesis")
        let artifacts = fields["artifacts"].map { paths($0.value) } ?? []
        let says = text(fields["says"], key: "says")
        let shows = fields["shows"].flatMap { condition($0.value) }
        guard let id, let against, let says, !artifacts.isEmpty else { return nil }
        return CounterEvidence(
            id: id, against: against, artifacts: artifacts, says: says, shows: shows, location: location(node.mark))
    }

    mutating func fix(_ node: YAMLNode) -> Fix? {
        guard
            let fields = fields(
                of: node, in: "fix", allowed: Self.fixKeys, required: ["id", "variable", "variant"])
        else { return nil }
        let id = entryID(fields["id"], what: "fix id")
        let fixes = reference(fields["fixes"], kind: "hypothesis")
        let symptom = reference(fields["symptom"], kind: "symptom")
        let comparand = comparand(fields)
        let variant = fields["variant"].flatMap { side($0.value) }
        let baseline = fields["baseline"].flatMap { side($0.value) }
        let equals = fields["equals"].flatMap { side($0.value) }
        if fields["baseline"] == nil, fields["equals"] == nil {
            error("a fix needs 'equals' (the good side it must match) or 'baseline' (the broken side)", at: node.mark)
        }
        guard let id, let comparand, let variant else { return nil }
        return Fix(
            id: id, fixes: fixes, symptom: symptom, comparand: comparand, variant: variant, baseline: baseline,
            equals: equals, location: location(node.mark))
    }

    // MARK: - Parts

    mutating func comparand(_ fields: [String: Field]) -> Comparand? {
        let variable = text(fields["variable"], key: "variable")
        let measure = fields["measure"].flatMap { self.measure($0.value) }
        var expect: Better?
        if let field = fields["expect"], let word = string(field.value) {
            switch word {
            case "lower": expect = .lower
            case "higher": expect = .higher
            default:
                error(
                    "'expect' is lower or higher, not '\(word)'\(Suggestion.hint(for: word, among: ["lower", "higher"]))",
                    at: field.value.mark)
            }
        }
        let margin = fields["margin"].flatMap { self.margin($0.value) }
        var varies: [SideCondition] = []
        let variesItems = fields["varies"].flatMap { list($0.value) } ?? []
        for item in variesItems {
            guard let name = string(item) else { continue }
            if let condition = SideCondition(rawValue: name) {
                varies.append(condition)
            } else {
                let all = SideCondition.allCases.map(\.rawValue)
                error("unknown condition '\(name)'\(Suggestion.hint(for: name, among: all))", at: item.mark)
            }
        }
        var also: [String] = []
        let alsoItems = fields["also"].flatMap { list($0.value) } ?? []
        for item in alsoItems {
            guard let key = string(item) else { continue }
            if knownFact(key, at: item.mark) != nil { also.append(key) }
        }
        guard let variable else { return nil }
        return Comparand(
            variable: variable, measure: measure, expect: expect, margin: margin, varies: varies, also: also)
    }

    /// `KEY`, `{fact: KEY, key: NAME}` or `{verdict: CODE}`.
    mutating func measure(_ node: YAMLNode) -> LedgerMeasure? {
        if case .scalar(let key, _, let mark) = node {
            guard let known = numericFact(key, at: mark) else { return nil }
            if facts[known]?.unit == .map {
                error("'\(known)' is a map: name one of its entries with 'key'", at: mark)
                return nil
            }
            return .fact(known, key: nil)
        }
        guard let fields = fields(of: node, in: "measure", allowed: Self.measureKeys) else { return nil }
        return measure(fields, at: node.mark)
    }

    mutating func measure(_ fields: [String: Field], at mark: Mark) -> LedgerMeasure? {
        switch (fields["fact"], fields["verdict"]) {
        case (let fact?, nil):
            guard let key = string(fact.value), let known = numericFact(key, at: fact.value.mark) else { return nil }
            let mapKey = fields["key"].flatMap { string($0.value) }
            if let mapKey = fields["key"], facts[known]?.unit != .map {
                error("'key' picks one entry of a map fact; '\(known)' is not a map", at: mapKey.keyMark)
                return nil
            }
            if mapKey == nil, facts[known]?.unit == .map {
                error("'\(known)' is a map: name one of its entries with 'key'", at: fact.value.mark)
                return nil
            }
            return .fact(known, key: mapKey)
        case (nil, let verdict?):
            guard let code = string(verdict.value) else { return nil }
            guard codes.contains(code) else {
                error(
                    "unknown finding code '\(code)'\(Suggestion.hint(for: code, among: codes.sorted()))",
                    at: verdict.value.mark)
                return nil
            }
            if let key = fields["key"] { error("'key' applies only to 'fact'", at: key.keyMark) }
            return .verdict(code)
        case (.some, .some(let verdict)):
            error("a measure takes either 'fact' or 'verdict', not both", at: verdict.keyMark)
            return nil
        case (nil, nil):
            error("a measure needs 'fact' (a fact key) or 'verdict' (a finding code)", at: mark)
            return nil
        }
    }

    /// `{fact: KEY, above: N}`, `{fact: KEY, below: N}` or `{verdict: CODE}`.
    mutating func condition(_ node: YAMLNode) -> Condition? {
        guard let fields = fields(of: node, in: "condition", allowed: Self.conditionKeys) else { return nil }
        guard let measure = measure(fields, at: node.mark) else { return nil }
        switch (measure, fields["above"], fields["below"]) {
        case (.verdict, nil, nil): return Condition(measure: measure, test: .present)
        case (.verdict, let bound?, _), (.verdict, nil, let bound?):
            error("a verdict is present or not: 'above' and 'below' apply to facts", at: bound.keyMark)
        case (.fact, let above?, nil): return threshold(above).map { Condition(measure: measure, test: .above($0)) }
        case (.fact, nil, let below?): return threshold(below).map { Condition(measure: measure, test: .below($0)) }
        case (.fact, .some, .some(let below)):
            error("a condition takes 'above' or 'below', not both", at: below.keyMark)
        case (.fact, nil, nil):
            error("a fact condition needs 'above' or 'below' (a number in the fact's unit)", at: node.mark)
        }
        return nil
    }

    mutating func threshold(_ field: Field) -> Double? {
        if case .scalar(let text, true, _) = field.value, let value = Self.number(text)?.doubleValue { return value }
        error("expected a number, got \(Self.describe(field.value))", at: field.value.mark)
        return nil
    }

    /// `5%` (a share of the baseline) or `20` (in the measure's unit); not negative.
    mutating func margin(_ node: YAMLNode) -> Margin? {
        if case .scalar(let text, _, let mark) = node {
            let percent = text.hasSuffix("%")
            let digits = percent ? String(text.dropLast()).trimmingSpaces : text
            if let value = Self.number(digits)?.doubleValue, value >= 0, value.isFinite {
                return percent ? .percent(value) : .absolute(value)
            }
            error("'margin' is a number in the measure's unit or a share such as '5%', not '\(text)'", at: mark)
            return nil
        }
        error("'margin' is a number in the measure's unit or a share such as '5%'", at: node.mark)
        return nil
    }

    /// `{artifacts: [paths], label: NAME}`, or a list of paths.
    mutating func side(_ node: YAMLNode) -> LedgerSide? {
        if case .sequence = node {
            let paths = self.paths(node)
            return paths.isEmpty ? nil : LedgerSide(artifacts: paths, location: location(node.mark))
        }
        guard let fields = fields(of: node, in: "side", allowed: Self.sideKeys, required: ["artifacts"]) else {
            return nil
        }
        let paths = fields["artifacts"].map { self.paths($0.value) } ?? []
        let label = text(fields["label"], key: "label", required: false)
        guard !paths.isEmpty else { return nil }
        return LedgerSide(artifacts: paths, label: label, location: location(node.mark))
    }

    /// A non-empty list of artifact paths or URLs.
    mutating func paths(_ node: YAMLNode) -> [String] {
        guard let items = list(node) else { return [] }
        if items.isEmpty { error("expected at least one artifact", at: node.mark) }
        var result: [String] = []
        for item in items {
            guard let path = string(item) else { continue }
            if path.isEmpty || path.utf8.contains(0) {
                error("an artifact path must be a non-empty name without NUL", at: item.mark)
            } else {
                result.append(path)
            }
        }
        return result
    }

    mutating func strings(_ node: YAMLNode) -> [String] {
        if case .scalar(let text, _, _) = node { return [text] }
        var result: [String] = []
        for item in list(node) ?? [] { if let text = string(item) { result.append(text) } }
        return result
    }

    mutating func knownFact(_ key: String, at mark: Mark) -> String? {
        guard facts[key] != nil else {
            error("unknown fact '\(key)'\(Suggestion.hint(for: key, among: facts.keys.sorted()))", at: mark)
            return nil
        }
        return key
    }

    /// A fact that holds a number (or a map of numbers): a measure compares numbers.
    mutating func numericFact(_ key: String, at mark: Mark) -> String? {
        guard let known = knownFact(key, at: mark), let unit = facts[known]?.unit else { return nil }
        guard ![.text, .flag, .list].contains(unit) else {
            error("fact '\(key)' is \(unit.rawValue), not a number: a measure compares numbers", at: mark)
            return nil
        }
        return known
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
