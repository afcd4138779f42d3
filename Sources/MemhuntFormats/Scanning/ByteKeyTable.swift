#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bounded map from byte strings to `Int32` values: an open-addressed table (linear probing) of twice
/// `capacity` slots, each key copied once into one flat array and compared with `memcmp`. Keys are never
/// removed one by one; once `capacity` keys are in, `insert` is not called (`isFull`): the table is emptied
/// (`removeAll`) or left as it is. The slots are allocated on the first insert, 64 of them, and doubled while more than
/// half are taken, up to twice `capacity`: an unused table costs nothing, and a small input no longer clears 256 KiB
/// per table (the reader builds a scanner to detect every file: the memset and its page faults were a large share of
/// the `pasted` fuzz target's samples).
struct ByteKeyTable {
    /// Keys at most; a power of two.
    let capacity: Int
    /// Per slot, the key's index + 1 in the low 32 bits (0: empty) and the high 32 bits of its hash in the high ones: a
    /// probe that meets another key is told apart in the slot itself, without reading the key's hash, length and bytes
    /// elsewhere (issue 30's realistic log, where most lines miss the caches: `lookup` was a large share of the
    /// samples, most of it waiting on those reads).
    private var slots: [UInt64] = []
    /// Per key, in the order added: its hash, where its bytes are, and its value, in one place: a look-up that misses
    /// the caches waits on this entry and the key's bytes, where four arrays (hashes, starts, lengths, values) took a
    /// miss each (in a log of 3,000 views, `lookup` showed in the profile).
    private var keys: [Key] = []
    private var bytes: [UInt8] = []

    private struct Key {
        var hash: UInt64
        var start: Int32
        var length: Int32
        var value: Int32
    }

    /// Bytes of keys at most (the keys of a table of many long ones are bounded by this, not `capacity` alone).
    private let byteBudget: Int

    init(capacity: Int, byteBudget: Int = .max) {
        precondition(capacity > 0 && capacity & (capacity - 1) == 0, "capacity must be a power of two")
        self.capacity = capacity
        self.byteBudget = byteBudget
    }

    var count: Int { keys.count }
    var isFull: Bool { keys.count >= capacity }

    /// Whether a key of `length` bytes may be inserted: fewer than `capacity` keys, and its bytes within
    /// `byteBudget`.
    func hasRoom(for length: Int) -> Bool { keys.count < capacity && bytes.count + length <= byteBudget }

    /// The value stored for `key` (whose `hash` is `ByteKeyTable.hash(key)`), or nil and the slot `insert`
    /// takes for it.
    func lookup(_ key: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (value: Int32?, slot: Int) {
        guard !slots.isEmpty else { return (nil, 0) }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        let tag = hash & 0xFFFF_FFFF_0000_0000
        while true {
            let stored = slots[slot]
            if stored == 0 { return (nil, slot) }
            if stored & 0xFFFF_FFFF_0000_0000 == tag {
                let found = keys[Int(truncatingIfNeeded: stored & 0xFFFF_FFFF) - 1]
                if found.hash == hash, Int(found.length) == key.count,
                    bytes.withUnsafeBufferPointer({ Self.equal($0.baseAddress! + Int(found.start), key) })
                {
                    return (found.value, slot)
                }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Whether the key added `index`th (0-based) is `key`: a guess checked without hashing.
    func key(_ index: Int, equals key: UnsafeBufferPointer<UInt8>) -> Bool {
        Int(keys[index].length) == key.count
            && bytes.withUnsafeBufferPointer { Self.equal($0.baseAddress! + Int(keys[index].start), key) }
    }

    /// Empties the table, keeping its storage.
    mutating func removeAll() {
        guard !keys.isEmpty else { return }
        slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        keys.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }

    /// Empties the table and gives its storage back (a finished scanner's); its capacity and budget stay.
    mutating func release() {
        slots = []
        keys = []
        bytes = []
    }

    /// Adds `key` with `value` at the `slot` a `lookup` of it returned, with no insert in between.
    mutating func insert(_ key: UnsafeBufferPointer<UInt8>, hash: UInt64, slot: Int, value: Int32) {
        precondition(hasRoom(for: key.count), "insert into a full table")
        var slot = slot
        if slots.isEmpty || 2 * (keys.count + 1) > slots.count && slots.count < 2 * capacity {
            grow()
            slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
        }
        slots[slot] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(keys.count + 1)
        keys.append(Key(hash: hash, start: Int32(bytes.count), length: Int32(key.count), value: value))
        bytes.append(contentsOf: key)
    }

    /// Twice the slots (64 at first, twice `capacity` at most), the keys placed again by their hashes.
    private mutating func grow() {
        let count = min(2 * capacity, max(64, 2 * slots.count))
        var grown = [UInt64](repeating: 0, count: count)
        let mask = count - 1
        for (index, key) in keys.enumerated() {
            let hash = key.hash
            var slot = Int(truncatingIfNeeded: hash) & mask
            while grown[slot] != 0 { slot = (slot + 1) & mask }
            grown[slot] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(index + 1)
        }
        slots = grown
    }

    /// A 64-bit hash of `key`, 8 bytes per step (multiply-xorshift; the table only needs spread). A key of 8
    /// bytes or more ends with one load of its last 8 (overlapping the previous step) instead of a loop over
    /// its last bytes.
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let base = key.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        let count = key.count
        var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
        var offset = 0
        while offset + 8 <= count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            offset += 8
        }
        if offset < count {
            var last: UInt64 = 0
            if count >= 8 {
                last = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            } else {
                for index in offset..<count { last = last << 8 | UInt64(base[index]) }
            }
            hash = (hash ^ last) &* 0x94D0_49BB_1331_11EB
        }
        return hash ^ (hash >> 29)
    }

    static func equal(_ stored: UnsafePointer<UInt8>, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = key.baseAddress else { return true }
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            return memcmp(stored, base, key.count) == 0
        #else
            for index in 0..<key.count where stored[index] != base[index] { return false }
            return true
        #endif
    }
}
