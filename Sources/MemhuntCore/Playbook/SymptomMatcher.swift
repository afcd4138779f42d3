/// Maps a person's words ("the widget went blank") to the symptoms playbooks declare.
///
/// A phrase matches when every one of its words (short function words aside, and compared by a
/// crude stem: `freezes`, `freezing` and `freeze` are one word) occurs in the text. A symptom scores
/// the number of the text's words its matching phrases cover together: more words, more specific.
public enum SymptomMatcher {
    /// One playbook's best answer to the words.
    public struct Match: Sendable, Hashable {
        public var playbook: Playbook
        public var symptom: Symptom
        public var phrase: String
        public var score: Int
    }

    /// The best match of each playbook that matched at all, best first (ties keep the given order).
    public static func matches(_ text: String, in playbooks: [Playbook]) -> [Match] {
        let words = Set(tokens(text))
        var found: [(offset: Int, match: Match)] = []
        for (offset, playbook) in playbooks.enumerated() {
            var best: Match?
            for symptom in playbook.symptoms {
                // A symptom scores the words of the text its matching phrases cover together: "the whole phone
                // gets slow and other apps reload" is more the whole system's (6 words) than the app's (3).
                var covered = Set<String>()
                var longest: (phrase: String, count: Int)?
                for phrase in symptom.phrases {
                    let needed = tokens(phrase)
                    guard !needed.isEmpty, needed.allSatisfy(words.contains) else { continue }
                    covered.formUnion(needed)
                    if needed.count > (longest?.count ?? 0) { longest = (phrase, needed.count) }
                }
                if let longest, covered.count > (best?.score ?? 0) {
                    best = Match(playbook: playbook, symptom: symptom, phrase: longest.phrase, score: covered.count)
                }
            }
            if let best { found.append((offset, best)) }
        }
        return found.sorted { a, b in
            a.match.score != b.match.score ? a.match.score > b.match.score : a.offset < b.offset
        }.map(\.match)
    }

    static let stopWords: Set<String> = [
        "a", "an", "and", "are", "at", "be", "but", "by", "i", "in", "is", "it", "its", "my", "of", "on", "or",
        "our", "so", "still", "that", "the", "then", "this", "to", "was", "we", "when", "while", "with",
    ]

    /// Lowercased stems of the letters-and-digits runs of `text`, without function words.
    static func tokens(_ text: String) -> [String] {
        var out: [String] = []
        var current = ""
        for scalar in text.lowercased().unicodeScalars {
            if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                out.append(current)
                current = ""
            }
        }
        if !current.isEmpty { out.append(current) }
        return out.filter { !stopWords.contains($0) }.map(stem)
    }

    /// `freezes`, `freezing`, `freezed` → `freez`; `grows` → `grow`; `works` → `work`.
    static func stem(_ word: String) -> String {
        var w = word
        for suffix in ["ing", "ed", "es", "s"] where w.count > suffix.count + 2 && w.hasSuffix(suffix) {
            w.removeLast(suffix.count)
            break
        }
        if w.count > 3 && w.hasSuffix("e") { w.removeLast() }
        return w
    }
}
