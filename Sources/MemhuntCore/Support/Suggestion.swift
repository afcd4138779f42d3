/// "Did you mean …?" suggestions for misspelled names.
public enum Suggestion {
    /// The candidate closest to `input`: within edit distance 2, or sharing a prefix of at least 3 characters
    /// with it (one starts with the other). Ties go to the earliest candidate; nil when nothing is close.
    ///
    /// When one name starts with the other, their distance is the length of the rest; otherwise only a distance of at
    /// most 2 matters, so only that band is computed. A full table with an array per row was a large share of the
    /// `playbook` fuzz target's time, and most of ASan's allocations in it, for unknown keys of kilobytes; the band
    /// does the same work in time linear in the names' length.
    public static func closest(to input: String, among candidates: some Sequence<String>) -> String? {
        let needle = Array(input.lowercased())
        var best: (candidate: String, score: Int)?
        for candidate in candidates where candidate != input {
            let other = Array(candidate.lowercased())
            let distance: Int
            if min(needle.count, other.count) >= 3 && (other.starts(with: needle) || needle.starts(with: other)) {
                distance = abs(needle.count - other.count)
            } else if let within = editDistance(needle, other, atMost: 2), within < max(needle.count, other.count) {
                distance = within
            } else {
                continue
            }
            if best == nil || distance < best!.score { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// Names of `input`'s app family: a name that shares with it a leading part of at least 4 characters that
    /// ends where a word ends in both (`JustSendShare` and `JustSendWidget` share `JustSend`; a bundle id shares
    /// at least its first three parts: `com.example.JustSend.Share` and `com.example.JustSend`). Never the
    /// input itself; in the candidates' order.
    public static func family(of input: String, among candidates: some Sequence<String>) -> [String] {
        let needle = Array(input)
        func boundary(_ name: [Character], _ index: Int) -> Bool {
            index == name.count || name[index].isUppercase || ".-_ ".contains(name[index])
        }
        return candidates.filter { candidate in
            let other = Array(candidate)
            guard candidate.lowercased() != input.lowercased() else { return false }
            var shared = 0
            while shared < min(needle.count, other.count),
                needle[shared].lowercased() == other[shared].lowercased()
            {
                shared += 1
            }
            // Back to the last place where a word ends in both.
            while shared > 0, !(boundary(needle, shared) && boundary(other, shared)) { shared -= 1 }
            guard shared >= 4 else { return false }
            let whole = shared == needle.count || shared == other.count
            if needle.contains(".") {
                // A bundle id: past its organisation (`com.example.`), or the whole of one of the two.
                let dots = needle[..<shared].filter { $0 == "." }.count
                return dots >= 2 && (whole || dots >= 3)
            }
            // At least two words (`JustSend`), or the whole of one name: one shared word (`Just`) is no family.
            return whole || needle[1..<shared].contains { $0.isUppercase || ".-_ ".contains($0) }
        }
    }

    /// The names to suggest for `input`: the closest spelling, then the names of its family, at most `limit`.
    public static func suggestions(for input: String, among candidates: [String], limit: Int = 3) -> [String] {
        var result: [String] = closest(to: input, among: candidates).map { [$0] } ?? []
        for name in family(of: input, among: candidates) where !result.contains(name) { result.append(name) }
        return Array(result.prefix(limit))
    }

    /// `" (did you mean 'x'?)"`, or an empty string when nothing is close.
    public static func hint(for input: String, among candidates: some Sequence<String>) -> String {
        closest(to: input, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Levenshtein distance (insertions, deletions and substitutions) when it is at most `limit`, else nil.
    /// Only the cells within `limit` of the diagonal are computed (Ukkonen's band): a path through any
    /// other cell costs more than `limit`. Two rows, reused.
    public static func editDistance(_ a: [Character], _ b: [Character], atMost limit: Int) -> Int? {
        let (n, m) = (a.count, b.count)
        guard limit >= 0, abs(n - m) <= limit else { return nil }
        guard n > 0, m > 0 else { return max(n, m) }
        let beyond = limit + 1  // stands for every value over the limit
        var previous = [Int](repeating: beyond, count: m + 1)
        var current = previous
        for j in 0...min(m, limit) { previous[j] = j }
        for i in 1...n {
            let low = max(1, i - limit)
            let high = min(m, i + limit)
            current[0] = i <= limit ? i : beyond
            current[low - 1] = low > 1 ? beyond : current[0]
            var rowMinimum = current[low - 1]
            if low <= high {
                for j in low...high {
                    let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                    let value = min(previous[j] + 1, current[j - 1] + 1, substitution, beyond)
                    current[j] = value
                    rowMinimum = min(rowMinimum, value)
                }
            }
            if high < m { current[high + 1] = beyond }  // the next row reads one cell past this band
            if rowMinimum > limit { return nil }
            swap(&previous, &current)
        }
        return previous[m] <= limit ? previous[m] : nil
    }
}
