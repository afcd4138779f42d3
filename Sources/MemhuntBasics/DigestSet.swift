/// A set of 128-bit digests (the first 128 bits of a SHA-256) in one open-addressed table of two words a slot, at
/// most seven eighths full: the files a fleet scan has read, by which a copy is counted once.
///
/// A `Set` of the same two words keeps its table at most three quarters full and doubles it past that: at 100,000
/// digests it held 262,144 slots (4 MiB), and while it grew the old table too (6 MiB), where this table holds
/// 131,072 (2 MiB, 3 MiB while it grows). Where a digest goes in the table is decided by the process's randomly
/// seeded `Hasher`, not by the digest's bits alone: files made so that their digests begin alike cannot make
/// every look-up walk the table.
public struct DigestSet: Sendable {
    /// One slot: both words zero is an empty slot (the digest of zeros is `containsZero`).
    private var slots: [(UInt64, UInt64)]
    private var mask: Int
    private var containsZero = false
    /// Digests held.
    public private(set) var count = 0

    /// An empty set; `capacity` digests fit before the table first grows.
    public init(capacity: Int = 0) {
        var size = 16
        while size - size / 8 < capacity { size *= 2 }
        slots = Array(repeating: (0, 0), count: size)
        mask = size - 1
    }

    /// Adds a digest; true when it was not there already.
    @discardableResult
    public mutating func insert(high: UInt64, low: UInt64) -> Bool {
        if high == 0 && low == 0 {
            defer { containsZero = true }
            if containsZero { return false }
            count += 1
            return true
        }
        let (index, found) = place(high, low)
        if found { return false }
        slots[index] = (high, low)
        count += 1
        if count > slots.count - slots.count / 8 { grow() }
        return true
    }

    /// Whether the set holds a digest.
    public func contains(high: UInt64, low: UInt64) -> Bool {
        high == 0 && low == 0 ? containsZero : place(high, low).found
    }

    /// The table's size in slots.
    public var capacity: Int { slots.count }

    /// The slot that holds the digest, or the empty slot where the look-up ended (where it would go).
    private func place(_ high: UInt64, _ low: UInt64) -> (index: Int, found: Bool) {
        var hasher = Hasher()
        hasher.combine(high)
        hasher.combine(low)
        var index = hasher.finalize() & mask
        while true {
            let slot = slots[index]
            if slot == (0, 0) { return (index, false) }
            if slot == (high, low) { return (index, true) }
            index = (index + 1) & mask
        }
    }

    /// Twice the slots, every digest placed again.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: (0, 0), count: old.count * 2)
        mask = slots.count - 1
        for slot in old where slot != (0, 0) { slots[place(slot.0, slot.1).index] = slot }
    }
}
