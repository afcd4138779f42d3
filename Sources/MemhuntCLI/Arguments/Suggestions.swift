/// The Levenshtein distance between two strings: the fewest single-character edits turning one into the other.
public func editDistance(_ lhs: String, _ rhs: String) -> Int {
    let source = Array(lhs)
    let target = Array(rhs)
    var previous = Array(0...target.count)
    for (row, character) in source.enumerated() {
        var current = [row + 1]
        for (column, other) in target.enumerated() {
            let substitution = previous[column] + (character == other ? 0 : 1)
            current.append(min(substitution, previous[column + 1] + 1, current[column] + 1))
        }
        previous = current
    }
    return previous[target.count]
}

/// The candidate closest to `word` within `maxDistance` edits (the first on a tie), for "Did you mean …?".
public func suggestion(for word: String, among candidates: some Sequence<String>, maxDistance: Int = 3) -> String? {
    candidates
        .map { (candidate: $0, distance: editDistance(word, $0)) }
        .filter { $0.distance <= maxDistance }
        .min { $0.distance < $1.distance }?
        .candidate
}
