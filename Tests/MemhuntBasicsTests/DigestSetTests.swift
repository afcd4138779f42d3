import MemhuntBasics
import MemhuntTestSupport
import Testing

@Suite struct DigestSetTests {
    /// 100,000 digests (a fleet's files, the benchmark's count) and a copy of every tenth: each copy is found,
    /// nothing else is, and the table stays at 131,072 slots where a `Set` of the same held 262,144.
    @Test func copiesAreFoundAndTheTableStaysSmall() {
        var generator = SplitMix64(seed: 50)
        var set = DigestSet()
        var reference = Set<[UInt64]>()
        var digests: [(UInt64, UInt64)] = []
        for _ in 0..<100_000 {
            let digest = (generator.next(), generator.next())
            digests.append(digest)
            let inserted = set.insert(high: digest.0, low: digest.1)
            #expect(inserted == reference.insert([digest.0, digest.1]).inserted)
        }
        for (index, digest) in digests.enumerated() where index % 10 == 0 {
            let inserted = set.insert(high: digest.0, low: digest.1)
            #expect(!inserted)
        }
        #expect(set.count == 100_000)
        #expect(set.capacity == 131_072)
        #expect(reference.capacity == 196_608)
        #expect(set.contains(high: digests[99_999].0, low: digests[99_999].1))
        #expect(!set.contains(high: digests[99_999].0, low: digests[99_999].1 &+ 1))
    }

    /// The digest of zeros (the empty slot's words) is a digest like any other; so are digests alike in one word.
    @Test func zeroAndHalfEqualDigests() {
        var set = DigestSet(capacity: 2)
        #expect(set.capacity == 16)
        #expect(!set.contains(high: 0, low: 0))
        let inserted = [
            set.insert(high: 0, low: 0), set.insert(high: 0, low: 0), set.insert(high: 0, low: 1),
            set.insert(high: 1, low: 0),
        ]
        #expect(inserted == [true, false, true, true])
        #expect(set.contains(high: 0, low: 0) && set.contains(high: 0, low: 1) && set.contains(high: 1, low: 0))
        #expect(set.count == 3)
        #expect(DigestSet(capacity: 15).capacity == 32)
        #expect(DigestSet(capacity: 14).capacity == 16)
    }
}
