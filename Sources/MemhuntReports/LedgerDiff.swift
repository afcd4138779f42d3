import MemhuntCore

/// Two runs' ledgers compared entry by entry: each hypothesis's status and each experiment's, try's and
/// fix's verdict, before and after, matched by id. A hypothesis that was open and is now the cause, a fix
/// that failed and now holds: what moved in the investigation between the runs.
public struct LedgerChange: Sendable, Hashable, Encodable {
    /// `hypothesis`, `experiment`, `try` or `fix`.
    public var kind: String
    public var id: String
    /// The status or verdict in the earlier run's ledger; nil when it had no such entry.
    public var before: String?
    public var after: String?
    /// The later run's sentence (the earlier one's when the entry is gone).
    public var sentence: String

    /// `new`, `gone`, `changed` or `same`.
    public var state: String {
        switch (before, after) {
        case (nil, _): "new"
        case (_, nil): "gone"
        case (let a?, let b?) where a == b: "same"
        default: "changed"
        }
    }

    enum CodingKeys: String, CodingKey { case kind, id, before, after, sentence, state }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(before, forKey: .before)
        try container.encodeIfPresent(after, forKey: .after)
        try container.encode(sentence, forKey: .sentence)
        try container.encode(state, forKey: .state)
    }

    /// The entries of both ledgers, in the later ledger's order, then those only the earlier had; nil when
    /// neither run judged a ledger.
    static func changes(_ before: LedgerJudgement?, _ after: LedgerJudgement?) -> [LedgerChange]? {
        guard before != nil || after != nil else { return nil }
        typealias Entry = (kind: String, id: String, value: String, sentence: String)
        func entries(_ judgement: LedgerJudgement?) -> [Entry] {
            guard let judgement else { return [] }
            return judgement.hypotheses.map { ("hypothesis", $0.id, $0.status.rawValue, $0.sentence) }
                + judgement.comparisons.map { ($0.kind.rawValue, $0.id, $0.verdict.rawValue, $0.sentence) }
        }
        let old = entries(before)
        let new = entries(after)
        func key(_ entry: Entry) -> String { entry.kind + "\u{0}" + entry.id }
        let oldByKey = Dictionary(old.map { (key($0), $0) }, uniquingKeysWith: { a, _ in a })
        let newKeys = Set(new.map(key))
        var result = new.map { entry in
            LedgerChange(
                kind: entry.kind, id: entry.id, before: oldByKey[key(entry)]?.value, after: entry.value,
                sentence: entry.sentence)
        }
        for entry in old where !newKeys.contains(key(entry)) {
            result.append(
                LedgerChange(kind: entry.kind, id: entry.id, before: entry.value, after: nil, sentence: entry.sentence))
        }
        return result
    }
}
