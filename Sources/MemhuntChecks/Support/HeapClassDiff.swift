import MemhuntCore

extension HeapCheck {
    /// The first heap against the last, per class: instances and bytes before and after and their changes, the
    /// largest change of bytes first (ties by name), at most 20.
    static func diff(_ first: [String: Tally], _ last: [String: Tally]) -> [FactValue] {
        let keys = Set(first.keys).union(last.keys)
        let rows = keys.map { key -> (label: String, before: Tally?, after: Tally?, bytes: Int) in
            let (before, after) = (first[key], last[key])
            return ((after ?? before)!.label, before, after, (after?.bytes ?? 0) - (before?.bytes ?? 0))
        }.filter { $0.bytes != 0 || ($0.before?.count ?? 0) != ($0.after?.count ?? 0) }
        return rows.sorted { (abs($0.bytes), $1.label) > (abs($1.bytes), $0.label) }.prefix(20).map { row in
            let (before, after) = (row.before?.count ?? 0, row.after?.count ?? 0)
            return [
                "class": .string(row.label), "before": .int(before), "after": .int(after),
                "deltaCount": .int(after - before), "deltaBytes": .int(row.bytes),
            ]
        }
    }
}
