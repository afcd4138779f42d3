/// "Did you mean …?" suggestions for misspelled names.
public enum Suggestion {
    /// The candidate closest to `input`: within edit distance 2, or sharing a prefix of at least 3 characters
    /// with it (one starts with the other). Ties go to the earliest candidate; nil when nothing is close.
    public static func closest(to input: String, among candidates: some Sequence<String>) -> String? {
        let needle = Array(input.lowercased())
        var best: (candidate: String, score: Int)?
        for candidate in candidates where candidate != input {
            let other = Array(candidate.lowercased())
            let distance = editDistance(needle, other)
            let prefixed =
                min(needle.count, other.count) >= 3
                && (other.starts(with: needle) || needle.starts(with: other))
            guard (distance <= 2 && distance < max(needle.count, other.count)) || prefixed else { continue }
            if best == nil || distance < best!.score { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// `" (did you mean 'x'?)"`, or an empty string when nothing is close.
    public static func hint(for input: String, among candidates: some Sequence<String>) -> String {
        closest(to: input, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
